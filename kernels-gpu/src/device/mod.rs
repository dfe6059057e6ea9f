//! The only code in rgemm that touches the hardware.
//!
//! Kernels call these functions and never `core::arch` or `asm!` directly, so a kernel reads as
//! an algorithm, and the whole hardware surface is this one module. Each function documents the
//! PTX it emits.

mod thread;
mod shared;
mod math;
mod memory;

pub use math::*;
pub use memory::*;
pub use shared::*;
pub use thread::*;

/// Aborts the kernel; the launch fails with an error on the host.
///
/// ```ptx
/// trap;
/// ```
#[inline(always)]
pub fn trap() -> ! {
    unsafe { core::arch::nvptx::trap() }
}
