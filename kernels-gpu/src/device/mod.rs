//! The only code in rgemm that touches the hardware.
//!
//! Kernels call these functions and never `core::arch` or `asm!` directly, so a kernel reads as
//! an algorithm, and the whole hardware surface is this one module. Each function documents the
//! PTX it emits.

mod thread;
mod shared;
mod math;
mod address;
mod async_copy;
mod cluster;
mod ldmatrix;
mod mbarrier;
mod memory;
mod mma;
mod tma;
mod wgmma;

pub use address::*;
pub use async_copy::*;
pub use cluster::*;
pub use ldmatrix::*;
pub use math::*;
pub use mbarrier::*;
pub use memory::*;
pub use mma::*;
pub use shared::*;
pub use thread::*;
pub use tma::*;
pub use wgmma::*;

/// Aborts the kernel; the launch fails with an error on the host.
///
/// ```ptx
/// trap;
/// ```
#[inline(always)]
pub fn trap() -> ! {
    unsafe { core::arch::nvptx::trap() }
}
