//! The only code in rgemm that touches the hardware.
//!
//! Kernels call these functions and never `core::arch` or `asm!` directly, so a kernel reads as
//! an algorithm, and the whole hardware surface is this one module. Each function documents the
//! PTX it emits.

mod thread;
mod shared;
mod math;
mod memory;
mod address;
mod mbarrier;
mod tma;

pub use address::*;
pub use math::*;
pub use memory::*;
pub use mbarrier::*;
pub use shared::*;
pub use thread::*;
pub use tma::*;

/// Aborts the kernel; the launch fails with an error on the host.
///
/// ```ptx
/// trap;
/// ```
#[inline(always)]
pub fn trap() -> ! {
    unsafe { core::arch::nvptx::trap() }
}
