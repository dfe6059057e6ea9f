//! rgemm's kernels: the GEMM optimisation ladder, one file per rung, written in `no_std` Rust and
//! compiled to PTX for Hopper (`sm_90a`) by rustc's `nvptx64-nvidia-cuda` backend.
//!
//! Reading order:
//! - [`spec`]: what the host needs to know about each kernel (tile shape, threads, shared memory).
//! - [`layout`]: named views of matrices and tiles, so kernels index by (row, column).
//! - [`device`]: the only code that touches the hardware (thread indices, barriers, shared memory,
//!   one small function per PTX instruction).
//! - The rungs, `01_naive.rs` onwards: each is an algorithm written against the two modules above.
//!
//! On the host this crate compiles too, but only the kernel specifications are visible there: the
//! host catalog reads them, so the list of kernels exists once.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        abi_gpu_kernel,
        stdarch_nvptx,
        asm_experimental_arch,
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem
    )
)]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]

pub mod spec;
#[macro_use]
mod entry;
#[macro_use]
pub mod unroll;
pub mod layout;
pub mod swizzle;

#[cfg(target_arch = "nvptx64")]
pub mod device;

pub mod lessons;

#[path = "01_naive.rs"]
pub mod naive;
#[path = "02_coalesced.rs"]
pub mod coalesced;
#[path = "03_smem_tiling.rs"]
pub mod smem_tiling;
#[path = "04_blocktile_1d.rs"]
pub mod blocktile_1d;
#[path = "05_blocktile_2d.rs"]
pub mod blocktile_2d;
#[path = "06_vectorized.rs"]
pub mod vectorized;
#[path = "07_transposed_a.rs"]
pub mod transposed_a;
#[path = "08_double_buffer.rs"]
pub mod double_buffer;
#[path = "09_warptile.rs"]
pub mod warptile;
#[path = "12_mma_sync.rs"]
pub mod mma_sync;
#[path = "13_wgmma.rs"]
pub mod wgmma;
#[path = "14_wgmma_tma.rs"]
pub mod wgmma_tma;

pub use spec::{Bf16, Dtype, F16, KernelSpec, Rung, Tile};

/// Every kernel instantiated in the PTX module, rung by rung, in ladder order.
pub const CATALOG: &[&[KernelSpec]] = &[
    naive::ENTRIES,
    coalesced::ENTRIES,
    smem_tiling::ENTRIES,
    blocktile_1d::ENTRIES,
    blocktile_2d::ENTRIES,
    vectorized::ENTRIES,
    transposed_a::ENTRIES,
    double_buffer::ENTRIES,
    warptile::ENTRIES,
    mma_sync::ENTRIES,
    mma_sync::f16::ENTRIES,
    wgmma::ENTRIES,
    wgmma::f16::ENTRIES,
    wgmma_tma::ENTRIES,
    wgmma_tma::f16::ENTRIES,
];

#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    device::trap()
}

/// What every rung file imports: specs, layouts, and on the GPU the device module.
mod prelude {
    #[cfg(target_arch = "nvptx64")]
    pub use crate::device::*;
    pub use crate::layout::*;
    pub use crate::spec::*;
    pub use crate::swizzle::*;
}
