//! Thread and block indices, and the block barrier, for emulated threads.

use std::panic::Location;

use super::launch::{State, lane};

pub const WARP_SIZE: u32 = 32;

pub fn thread_idx() -> u32 {
    lane().tid
}

pub fn block_col() -> u32 {
    lane().block().idx.0
}

pub fn block_row() -> u32 {
    lane().block().idx.1
}

pub fn warp_idx() -> u32 {
    thread_idx() / WARP_SIZE
}

pub fn lane_idx() -> u32 {
    thread_idx() % WARP_SIZE
}

/// `barrier.sync 0`: the thread waits until every thread of the block is at a barrier. The
/// scheduler checks that they are all at *this* call site (one in a divergent branch is a
/// fault) and that none has exited; then the shared-memory epoch advances.
#[track_caller]
pub fn sync_threads() {
    lane().suspend(State::Barrier(Location::caller()));
}

/// Blocks in the grid along x and y (`%nctaid`).
pub fn grid_dims() -> (u32, u32) {
    lane().block().launch().grid
}

/// This block's index counted row by row, and the number of blocks.
pub fn block_linear() -> (u32, u32) {
    let (gx, gy) = grid_dims();
    (block_row() * gx + block_col(), gx * gy)
}

/// `setmaxnreg`: moves registers between warpgroups on the GPU; the emulator has no register file,
/// so the only observable effect, none, is reproduced.
pub fn setmaxnreg_dec<const N: u32>() {}

/// See [`setmaxnreg_dec`].
pub fn setmaxnreg_inc<const N: u32>() {}

/// `bar.warp.sync`: every lane of the warp meets here (a lane that never comes is reported as a
/// divergent warp). It orders no shared memory in the emulator's race detector, which tracks
/// block barriers only.
#[track_caller]
pub fn sync_warp() {
    super::warp::collective((), |lanes: &[()]| vec![(); lanes.len()])
}
