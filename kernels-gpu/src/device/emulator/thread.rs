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
