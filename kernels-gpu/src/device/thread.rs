//! Where a thread is: its index in the block, the block's index in the grid, its warp and lane.
//! Blocks are launched one-dimensional; the grid is two-dimensional (x over N, y over M).

use core::arch::nvptx;

/// Threads in a warp.
pub const WARP_SIZE: u32 = 32;

/// Index of this thread in its block.
///
/// ```ptx
/// mov.u32 %r, %tid.x;
/// ```
#[inline(always)]
pub fn thread_idx() -> u32 {
    unsafe { nvptx::_thread_idx_x() as u32 }
}

/// Column of this block in the grid (which block of N).
///
/// ```ptx
/// mov.u32 %r, %ctaid.x;
/// ```
#[inline(always)]
pub fn block_col() -> u32 {
    unsafe { nvptx::_block_idx_x() as u32 }
}

/// Row of this block in the grid (which block of M).
///
/// ```ptx
/// mov.u32 %r, %ctaid.y;
/// ```
#[inline(always)]
pub fn block_row() -> u32 {
    unsafe { nvptx::_block_idx_y() as u32 }
}

/// Index of this thread's warp in its block.
#[inline(always)]
pub fn warp_idx() -> u32 {
    thread_idx() / WARP_SIZE
}

/// Index of this thread in its warp.
#[inline(always)]
pub fn lane_idx() -> u32 {
    thread_idx() % WARP_SIZE
}

/// Waits until every thread of the block has arrived, and makes their shared- and global-memory
/// writes before the barrier visible to the block after it.
///
/// ```ptx
/// barrier.sync 0;
/// ```
#[inline(always)]
pub fn sync_threads() {
    unsafe { nvptx::_syncthreads() }
}

/// Waits until every lane of the warp has arrived, and orders their memory accesses before it
/// against those after it (CUDA's `__syncwarp()`).
///
/// ```ptx
/// bar.warp.sync 0xffffffff;
/// ```
#[inline(always)]
pub fn sync_warp() {
    unsafe { core::arch::asm!("bar.warp.sync 0xffffffff;", options(nostack)) }
}
