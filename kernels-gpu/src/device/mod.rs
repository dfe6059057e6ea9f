//! The only code in rgemm that touches the hardware.
//!
//! Kernels call these functions and never `core::arch` or `asm!` directly, so a kernel reads as
//! an algorithm, and the whole hardware surface is this one module. Each function documents the
//! PTX it emits.
//!
//! Two backends share one API: on `nvptx64` the functions below are the PTX itself; on any other
//! target they come from [`emulator`], which runs kernels on the CPU with the same semantics and
//! checks every access (see `emulator/mod.rs`).

// Bit packing shared by both backends.
mod descriptor;
/// A CUDA tensor map (`CUtensorMap`): the copy engine's description of a matrix, 128 opaque bytes
/// encoded by the host and read by the copy engine; one type for both backends. It lives in
/// global memory because this rustc copies large by-value kernel parameters to local memory,
/// where the copy engine cannot read them.
#[repr(C, align(64))]
pub struct TensorMap(pub [u64; 16]);

#[cfg(target_arch = "nvptx64")]
mod access;
#[cfg(target_arch = "nvptx64")]
mod atomic;
#[cfg(target_arch = "nvptx64")]
mod math;
#[cfg(target_arch = "nvptx64")]
mod address;
#[cfg(target_arch = "nvptx64")]
mod async_copy;
#[cfg(target_arch = "nvptx64")]
mod cluster;
#[cfg(target_arch = "nvptx64")]
mod ldmatrix;
#[cfg(target_arch = "nvptx64")]
mod mbarrier;
#[cfg(target_arch = "nvptx64")]
mod memory;
#[cfg(target_arch = "nvptx64")]
mod mma;
#[cfg(target_arch = "nvptx64")]
mod shared;
#[cfg(target_arch = "nvptx64")]
mod thread;
#[cfg(target_arch = "nvptx64")]
mod tma;
#[cfg(target_arch = "nvptx64")]
mod wgmma;

#[cfg(target_arch = "nvptx64")]
pub use {
    access::*, address::*, atomic::*, async_copy::*, cluster::*, ldmatrix::*, math::*, mbarrier::*, memory::*, mma::*, shared::*, thread::*, tma::*,
    wgmma::*,
};

#[cfg(not(target_arch = "nvptx64"))]
pub mod emulator;
#[cfg(not(target_arch = "nvptx64"))]
pub use emulator::twins::*;

/// Aborts the kernel; the launch fails with an error on the host.
///
/// ```ptx
/// trap;
/// ```
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn trap() -> ! {
    // SAFETY: `trap` ends the launch; it has no precondition.
    unsafe { core::arch::nvptx::trap() }
}
