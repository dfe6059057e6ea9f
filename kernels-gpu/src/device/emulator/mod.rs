//! The device module's second backend: the same functions, run on the host with the GPU's
//! semantics, so every kernel runs unchanged on the CPU (for tests without a GPU, and for readers).
//!
//! - [`launch`](fn@launch) runs a grid: blocks in parallel on the host's cores, the threads of a block as
//!   coroutines that switch at barriers and warp collectives (see `launch.rs`).
//! - Every device function has an emulated twin here with the PTX instruction's semantics
//!   (indices and barriers, shared memory, scalar and vector loads and stores, `cp.async` groups with zero fill,
//!   mbarriers, named barriers, the copy engine's loads and stores, and the warp collectives `ldmatrix` and `mma.sync`, and `wgmma` across a warpgroup).
//! - What the hardware would punish is reported as a [`Fault`] naming kernel, block, thread and
//!   address: out-of-bounds or misaligned global and shared accesses, stores to the inputs, a
//!   barrier some thread never reaches or reaches at another call site, a warp collective some
//!   lane never reaches, and shared memory read or overwritten across threads with no barrier in
//!   between.
//!
//! The modules are layered, each using only those before it: `records` (the state each family of
//! instructions keeps for a block or a thread), `context` (the launch, the block and the running
//! thread, and `fail`), the instruction families (`memory`, `warp`, `mbarrier`, `tma`, ...), and
//! `launch`, the scheduler.

mod access;
mod address;
mod atomic;
mod async_copy;
mod cluster;
mod context;
mod launch;
mod ldmatrix;
mod math;
mod mbarrier;
mod memory;
mod mma;
mod records;
mod shared;
mod thread;
mod tma;
mod vector;
pub mod warp;
mod wgmma;

pub use context::{EmulatedLaunch, Fault, Region};
pub use launch::launch;
pub use math::cvt_f32_f16;
pub use mma::half_to_f32;
pub use tma::{swizzled, tensor_map, tensor_map_3d, tensor_map_spanning};

/// The emulated twins of the GPU backend's functions: what `crate::device` re-exports on the host.
pub mod twins {
    pub use super::access::*;
    pub use super::address::*;
    pub use super::atomic::*;
    pub use super::async_copy::{
        cp_async_ca_4, cp_async_ca_4_unless, cp_async_ca_4_zfill, cp_async_ca_8, cp_async_ca_8_unless, cp_async_ca_8_zfill, cp_async_ca_16,
        cp_async_ca_16_unless, cp_async_ca_16_zfill, cp_async_cg_16, cp_async_cg_16_unless, cp_async_cg_16_zfill, cp_async_commit_group,
        cp_async_wait_all, cp_async_wait_group, cp_async_wait_pending,
    };
    pub use super::cluster::*;
    pub use super::ldmatrix::*;
    pub use super::math::*;
    pub use super::mma::{mma_m16n8k16, mma_m16n8k16_bf16, mma_m16n8k16_f16};
    pub use super::mbarrier::{
        MBARRIER_TIMEOUT_NS, fence_mbarrier_init, global_timer_ns, mbarrier_arrive, mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_try_wait,
        mbarrier_wait,
    };
    pub use super::shared::*;
    pub use super::thread::*;
    pub use super::tma::{bulk_commit_group, bulk_wait_group_read, tma_load_2d, tma_load_3d, tma_load_4d, tma_prefetch_map, tma_store_2d, tma_store_3d};
    pub use super::vector::*;
    pub use super::wgmma::*;
    pub use super::context::trap;
}
