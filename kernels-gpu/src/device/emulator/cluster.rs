//! Thread-block clusters, emulated for clusters of one block: every block is its own cluster (the
//! emulator runs blocks independently), so rank 0 is the only rank, the cluster barrier is the
//! block barrier, and a multicast copy may only target this block. A kernel that addresses
//! another rank is reported, not silently run.

use std::panic::Location;

use super::context::lane;
use super::thread::{block_col, block_linear, block_row, grid_dims, sync_threads};
use crate::device::TensorMap;

pub fn cluster_rank() -> u32 {
    0
}

pub fn cluster_id_x() -> u32 {
    block_col()
}

pub fn cluster_id_y() -> u32 {
    block_row()
}

pub fn cluster_count_x() -> u32 {
    grid_dims().0
}

pub fn cluster_count_y() -> u32 {
    grid_dims().1
}

pub fn cluster_linear() -> (u32, u32) {
    block_linear()
}

#[track_caller]
pub fn cluster_sync() {
    sync_threads()
}

fn only_this_block(what: &str, rank_or_mask: u32, ok: u32, at: &Location<'_>) {
    if rank_or_mask != ok {
        let l = lane();
        l.block().record(l.tid, format!("{what} {rank_or_mask:#x} names another block of a cluster; the emulator runs clusters of one block, at {at}"));
        super::context::trap();
    }
}

#[track_caller]
pub fn map_shared_rank(addr: u32, rank: u32) -> u32 {
    only_this_block("mapa to rank", rank, 0, Location::caller());
    addr
}

/// # Safety
/// As for `mbarrier_arrive`.
#[track_caller]
pub unsafe fn mbarrier_arrive_cluster(addr: u32) {
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { super::mbarrier::mbarrier_arrive(addr) }
}

/// # Safety
/// As for `tma_load_3d`.
#[track_caller]
pub unsafe fn tma_load_3d_multicast(dst: u32, map: *const TensorMap, x: i32, y: i32, z: i32, bar: u32, cta_mask: u16) {
    only_this_block("multicast mask", cta_mask as u32, 1, Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { super::tma::tma_load_3d(dst, map, x, y, z, bar) }
}
