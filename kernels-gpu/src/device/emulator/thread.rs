//! Thread and block indices, and the block barrier, for emulated threads.

use std::panic::Location;

use super::context::{State, fail, lane};

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

pub fn block_batch() -> u32 {
    lane().block().idx.2
}

pub fn grid_planes() -> u32 {
    lane().block().launch().grid.2
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

/// `bar.sync id, THREADS`: the thread waits until `THREADS` threads have arrived at named barrier
/// `id`. Every arrival must name the same count, a multiple of the warp size, and `id` must be
/// 1..=15 (0 is the block barrier of [`sync_threads`]). When the last one arrives, the race
/// detector forgets the shared-memory accesses of the participants (they are ordered against
/// what follows), and all of them go on.
#[track_caller]
pub fn named_barrier_sync<const THREADS: u32>(id: u32) {
    let at = Location::caller();
    let lane = lane();
    let block = lane.block();
    if id == 0 || id > 15 || THREADS == 0 || THREADS % WARP_SIZE != 0 || THREADS > block.states.len() as u32 {
        fail(format!("bar.sync {id}, {THREADS}: the id must be 1..=15 and the count a non-zero multiple of 32 up to the block size, at {at}"));
    }
    let complete = {
        let mut named = block.named_barriers.borrow_mut();
        let bar = &mut named[id as usize];
        if bar.waiting.is_empty() {
            bar.threads = THREADS;
        } else if bar.threads != THREADS {
            let other = bar.threads;
            drop(named);
            fail(format!("bar.sync {id}, {THREADS}: other threads wait at this barrier with a count of {other}, at {at}"));
        }
        bar.waiting.push(lane.tid);
        (bar.waiting.len() as u32 == THREADS).then(|| std::mem::take(&mut bar.waiting))
    };
    match complete {
        Some(participants) => {
            super::memory::ordered_by_barrier(block, &participants);
            for &t in &participants {
                if t != lane.tid {
                    block.states[t as usize].set(State::Ready);
                }
            }
        }
        None => lane.suspend(State::NamedBarrier(at)),
    }
}

/// Blocks in the grid along x and y (`%nctaid`).
pub fn grid_dims() -> (u32, u32) {
    let (x, y, _) = lane().block().launch().grid;
    (x, y)
}

/// This block's index counted row by row, and the number of blocks.
pub fn block_linear() -> (u32, u32) {
    let (gx, gy) = grid_dims();
    (block_row() * gx + block_col(), gx * gy)
}

/// `griddepcontrol.wait`: the emulator runs one launch after another, so the previous grid has
/// always completed.
pub fn wait_for_previous_grid() {}

/// `griddepcontrol.launch_dependents`: a scheduling hint for the next launch, which the emulator
/// starts only when this one has finished.
pub fn let_next_grid_start() {}

/// See the device twin: both calls are nothing here.
pub fn start_after_previous_grid() {
    let_next_grid_start();
    wait_for_previous_grid();
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

/// `shfl.sync.bfly`: lane `i` gets the value of lane `i ^ MASK` (every lane of the warp must
/// come; one that does not is reported as a divergent warp).
#[track_caller]
pub fn shfl_xor<const MASK: u32>(v: f32) -> f32 {
    super::warp::collective(v, |lanes: &[f32]| (0..lanes.len()).map(|i| lanes[(i ^ MASK as usize) % lanes.len()]).collect())
}
