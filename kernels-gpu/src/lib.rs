//! rgemm's kernels: the GEMM optimisation ladder, one file per rung, written in `no_std` Rust and
//! compiled to PTX for Hopper (`sm_90a`) by rustc's `nvptx64-nvidia-cuda` backend.
//!
//! Reading order:
//! - [`spec`]: what the host needs to know about each kernel (tile shape, threads, shared memory).
//! - [`view`]: named views of matrices and tiles, so kernels index by (row, column).
//! - [`device`]: the only code that touches the hardware (thread indices, barriers, shared memory,
//!   one small function per PTX instruction).
//! - The rungs, `01_naive.rs` onwards: each is an algorithm written against the two modules above.
//!
//! On the host this crate compiles too: the host catalog reads the kernel specifications, and the
//! device module's emulator backend runs the very same kernel code on the CPU ([`EMULATED`]).
// ANCHOR: features
#![cfg_attr(target_arch = "nvptx64", no_std)]
// A kernel's tile configuration is one typed value (`spec::Tile`) given as a const generic.
#![feature(adt_const_params)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        abi_gpu_kernel,
        stdarch_nvptx,
        asm_experimental_arch,
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem,
        link_llvm_intrinsics
    )
)]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]
// ANCHOR_END: features

pub mod spec;
#[macro_use]
pub mod entry;
#[macro_use]
pub mod unroll;
pub mod view;
pub mod swizzle;
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
mod warp_compute;
mod copy;
mod tile_loader;
pub mod tile_order;

pub mod device;

pub mod lesson_kernels;
pub mod split_k;
pub mod stream_k_combine;
pub mod align_rows;
pub mod split_ahead;

// A rung's module is named after its slug, except where the slug names a module of the device
// layer: rung 11 (`tma`, the copy engine's instructions are `device::tma`) is the producer warp it
// adds, rung 13 (`wgmma`, `device::wgmma`) the warpgroup MMA.
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
#[path = "10_cp_async.rs"]
pub mod cp_async;
#[path = "11_tma.rs"]
pub mod producer_warp;
#[path = "12_mma_sync.rs"]
pub mod mma_sync;
#[path = "13_wgmma.rs"]
pub mod warpgroup_mma;
#[path = "14_wgmma_tma.rs"]
pub mod wgmma_tma;
#[path = "15_tf32x3.rs"]
pub mod tf32x3;
pub mod general;
pub mod gemv;

pub use spec::{Bf16, Dtype, F16, KernelSpec, Layout, Op, Rung, Tile};

/// The rungs, in ladder order: their entries make the catalog (and, on the host, the emulated one).
macro_rules! rungs {
    ($($($rung:ident)::+),+ $(,)?) => {
        /// Every kernel instantiated in the PTX module, rung by rung, in ladder order.
        pub const CATALOG: &[&[KernelSpec]] = &[$($($rung)::+::ENTRIES),+];

        /// The same kernels as host functions that run on the device emulator, in catalog order.
        #[cfg(not(target_arch = "nvptx64"))]
        pub const EMULATED: &[&[entry::EmulatedEntry]] = &[$($($rung)::+::EMULATED),+];
    };
}

rungs!(
    general::sgemm,
    general::bgemm,
    general::hgemm,
    gemv::sgemm,
    gemv::bgemm,
    gemv::hgemm,
    naive,
    coalesced,
    smem_tiling,
    blocktile_1d,
    blocktile_2d,
    vectorized,
    transposed_a,
    double_buffer,
    warptile,
    cp_async,
    producer_warp,
    mma_sync::bgemm,
    mma_sync::hgemm,
    warpgroup_mma::bgemm,
    warpgroup_mma::hgemm,
    wgmma_tma::bgemm,
    wgmma_tma::hgemm,
    tf32x3,
);

#[cfg(not(target_arch = "nvptx64"))]
pub use entry::EmulatedEntry;

/// The kernel of the catalog whose key is `key`, if the module has one: how to find a kernel's
/// twin, e.g. `by_key(&spec.key().with_schedule(Schedule::StreamK))` for a persistent kernel's
/// stream-K twin, `with_dtype(Dtype::F16)` for a bf16 kernel's f16 one. Host only (the PTX
/// module holds the kernels, not the catalog).
#[cfg(not(target_arch = "nvptx64"))]
pub fn by_key(key: &spec::KernelKey) -> Option<&'static KernelSpec> {
    key.find_in(CATALOG.iter().flat_map(|rung| rung.iter()))
}

/// Kernels that are wrong on purpose, for the emulator's tests: each must be caught.
#[cfg(not(target_arch = "nvptx64"))]
pub mod broken;



#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    device::trap()
}

/// What every rung file imports: specs, views, swizzles and the device module.
mod prelude {
    pub use crate::device::*;
    pub use crate::view::*;
    pub use crate::spec::*;
    pub use crate::swizzle::*;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Epilogue, Schedule};

    /// Every entry is named by its key, and no two entries share one: the name is a function of
    /// the typed data, and the typed data tells every entry apart.
    #[test]
    fn every_name_is_its_key() {
        let mut keys = std::collections::HashSet::new();
        for spec in CATALOG.iter().flat_map(|rung| rung.iter()) {
            assert_eq!(spec.name, spec.key().to_string(), "the name of {spec:?}");
            assert!(keys.insert(spec.key()), "{} shares its key with another entry", spec.name);
        }
        assert_eq!(keys.len(), CATALOG.iter().map(|rung| rung.len()).sum::<usize>());
    }

    /// The emulated entries line up with the catalog, rung by rung.
    #[test]
    fn every_entry_is_emulated() {
        assert_eq!(CATALOG.len(), EMULATED.len());
        for (specs, entries) in CATALOG.iter().zip(EMULATED) {
            assert_eq!(specs.len(), entries.len());
        }
    }

    /// Twins are found by key: a persistent kernel's stream-K schedule, a bf16 kernel's f16
    /// instantiation, another layout.
    #[test]
    fn twins_by_key() {
        let name = |key| by_key(&key).map(|spec| spec.name);
        let persistent = by_key_name("bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast");
        assert_eq!(name(persistent.with_schedule(Schedule::StreamK)), Some("bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast"));
        assert_eq!(name(persistent.with_dtype(Dtype::F16)), Some("hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast"));
        assert_eq!(name(persistent.with_layout(Layout::TN)), Some("bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_tn"));
        assert_eq!(name(persistent.with_epilogue(Epilogue::Pairs)), Some("bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs"));
        assert_eq!(name(persistent.with_tile(Tile::block(128, 192, 64).with_stages(4))), Some("bgemm_14_wgmma_tma_128x192x64_s4_persistent_tmast"));
        assert_eq!(name(persistent.with_schedule(Schedule::StreamK).with_tile(Tile::block(128, 192, 64).with_stages(4))), None);
    }

    fn by_key_name(name: &str) -> spec::KernelKey {
        CATALOG.iter().flat_map(|rung| rung.iter()).find(|spec| spec.name == name).unwrap().key()
    }
}
