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
pub mod epilogue;
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
#[path = "16_fp8.rs"]
pub mod fp8;
pub mod general;
pub mod gemv;
pub mod gemv_mma;
pub mod dot;
pub mod batched;

pub use spec::{Bf16, Dtype, E4m3, F16, KernelSpec, Layout, Op, Rung, Tile};

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
    gemv_mma::bgemm,
    gemv_mma::hgemm,
    dot::sgemm,
    dot::bgemm,
    dot::hgemm,
    batched::bgemm,
    batched::hgemm,
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
    fp8,
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
    use crate::spec::{CStore, Schedule};

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
        assert_eq!(name(persistent.with_store(CStore::Pairs)), Some("bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs"));
        assert_eq!(name(persistent.with_tile(Tile::block(128, 192, 64).with_stages(4))), Some("bgemm_14_wgmma_tma_128x192x64_s4_persistent_tmast"));
        assert_eq!(name(persistent.with_schedule(Schedule::StreamK).with_tile(Tile::block(128, 192, 64).with_stages(4))), None);
    }

    /// Entries of the catalog, run on the emulator, compute `C = A·B` exactly (small integers:
    /// every product and sum is exact in bf16, tf32 and f32), each block's threads as the emulator
    /// schedules them, and the copy engine's loads and stores, persistent launches and stream-K's
    /// slices included; a deliberately broken kernel is caught.
    #[test]
    fn emulated_entries_compute_c() {
        for (name, (m, n, k), blocks) in [
            ("sgemm_00_general_16x16x16", (128, 128, 64), 0),
            ("sgemm_03_smem_tiling_32x32x32", (128, 128, 64), 0),
            ("sgemm_05_blocktile_2d_64x64x8_t8x8", (128, 128, 64), 0),
            ("sgemm_09_warptile_128x128x8_w64x32_t8x8_s2_interior", (128, 128, 64), 0),
            ("sgemm_10_cp_async_128x128x16_w64x32_t8x8_s3_sw", (128, 128, 64), 0),
            ("sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa_df", (128, 256, 128), 0),
            ("bgemm_12_mma_sync_128x128x64_w64x64_s3_fp", (128, 128, 64), 0),
            ("bgemm_13_wgmma_128x256x64_s4", (128, 256, 64), 0),
            ("bgemm_14_wgmma_tma_128x256x64_s4_tmast", (256, 256, 128), 0),
            ("bgemm_14_wgmma_tma_64x128x64_s8_pairs", (128, 256, 128), 0),
            // One block walks both tiles; then three blocks share one tile's eight K-tiles.
            ("bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs", (256, 256, 128), 1),
            ("bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast", (128, 256, 512), 3),
            ("sgemm_15_tf32x3_128x128x32_s4_raw", (128, 256, 128), 0),
        ] {
            let (spec, entry) = CATALOG.iter().flat_map(|rung| rung.iter()).zip(EMULATED.iter().flat_map(|rung| rung.iter())).find(|(spec, _)| spec.name == name).unwrap();
            let (got, want) = emulate(spec, *entry, (m, n, k), blocks).unwrap_or_else(|fault| panic!("{fault}"));
            let wrong = got.iter().zip(&want).filter(|(g, w)| g != w).count();
            assert_eq!(wrong, 0, "{name}: {wrong} elements of C differ from the product");
        }
        let (spec, entry) = broken::ENTRIES.iter().zip(broken::EMULATED).find(|(spec, _)| spec.name == "broken_missing_barrier_before_compute").unwrap();
        let fault = emulate(spec, *entry, (64, 64, 64), 0).unwrap_err();
        assert!(fault.to_string().starts_with("broken_missing_barrier_before_compute"), "{fault}");
    }

    /// Runs `entry` on the emulator for a row-major `m × k` by `k × n` product of small integers
    /// (`blocks` blocks for a persistent kernel), as the host would launch it: tensor maps and a
    /// stream-K workspace where its spec asks for them. Returns C and the product.
    fn emulate(spec: &KernelSpec, entry: EmulatedEntry, (m, n, k): (u32, u32, u32), blocks: u32) -> Result<(Vec<f32>, Vec<f32>), device::emulator::Fault> {
        use device::emulator::{self, EmulatedLaunch, Region};
        use spec::BoxSpan;
        let a: Vec<f32> = (0..m * k).map(|i| (i * 7 % 13) as f32 - 6.0).collect();
        let b: Vec<f32> = (0..k * n).map(|i| (i * 5 % 11) as f32 - 5.0).collect();
        let want: Vec<f32> = (0..m * n).map(|i| (0..k).map(|l| a[(i / n * k + l) as usize] * b[(l * n + i % n) as usize]).sum()).collect();
        // A and B as the kernel's element type reads them, 16-byte aligned as on the GPU.
        let stored = |x: &[f32]| -> Vec<u128> {
            let bytes: Vec<u8> = match spec.dtype {
                Dtype::F32 => x.iter().flat_map(|v| v.to_le_bytes()).collect(),
                // A bf16 is the top half of an f32 (exact for these small integers).
                Dtype::Bf16 => x.iter().flat_map(|v| ((v.to_bits() >> 16) as u16).to_le_bytes()).collect(),
                Dtype::F16 | Dtype::E4m3 => unimplemented!("{} operands", spec.dtype.name()),
            };
            bytes.chunks(16).map(|c| u128::from_le_bytes(c.try_into().unwrap())).collect()
        };
        let (a, b) = (stored(&a), stored(&b));
        let mut c = vec![f32::NAN; (m * n) as usize];
        // Tensor maps of A (m × k), B (k × n) and C (m × n), all row-major, as the spec's boxes say.
        let mut maps = Vec::new();
        if let Some(t) = spec.tensor_maps {
            let elem = spec.dtype.bytes();
            let map = |addr: usize, elem: u32, (rows, cols): (u32, u32), (box_rows, box_cols): (u32, u32), span: BoxSpan, swizzle| {
                let span = span.on_columns(cols as u64, box_cols);
                emulator::tensor_map_spanning(addr, elem, (rows, cols, cols as u64), (1, 0), (box_rows, box_cols, span), swizzle).unwrap()
            };
            maps.push(map(a.as_ptr() as usize, elem, (m, k), t.a_box, t.a_span, t.a_swizzle));
            maps.push(map(b.as_ptr() as usize, elem, (k, n), t.b_box, t.b_span, t.b_swizzle));
            if let Some(c_box) = t.c_box {
                maps.push(map(c.as_ptr() as usize, 4, (m, n), c_box, BoxSpan::One, t.c_swizzle));
            }
        }
        let grid = if spec.persistent { (blocks, 1, 1) } else { (n.div_ceil(spec.tile.bn), m.div_ceil(spec.tile.bm), 1) };
        let mut workspace = vec![0u32; spec.stream_k.map_or(0, |w| w.bytes(grid.0) as usize / 4)];
        let regions = [
            Region { name: "A", start: a.as_ptr() as usize, len: 16 * a.len(), writable: false },
            Region { name: "B", start: b.as_ptr() as usize, len: 16 * b.len(), writable: false },
            Region { name: "C", start: c.as_mut_ptr() as usize, len: 4 * c.len(), writable: true },
            Region { name: "the tensor maps", start: maps.as_ptr() as usize, len: maps.len() * size_of::<device::TensorMap>(), writable: false },
            Region { name: "the workspace", start: workspace.as_mut_ptr() as usize, len: 4 * workspace.len(), writable: true },
        ];
        let launch = EmulatedLaunch { kernel: spec.name, grid, threads: spec.threads, smem_bytes: spec.smem_bytes, regions: &regions };
        let args = Args(view::GemmArgs {
            a: a.as_ptr() as *const u8,
            b: b.as_ptr() as *const u8,
            c: c.as_mut_ptr(),
            m,
            n,
            k,
            alpha: 1.0,
            beta: 0.0,
            tensor_maps: maps.as_ptr(),
            lda: k,
            ldb: n,
            ldc: n,
            batch: 1,
            stride_a: 0,
            stride_b: 0,
            stride_c: 0,
            z: 0,
            workspace: workspace.as_mut_ptr(),
            epilogue: 0,
            bias: core::ptr::null(),
            aux: core::ptr::null_mut(),
        });
        let args = &args;
        // SAFETY: the entry's spec gives the launch; its operands are the regions above.
        emulator::launch(&launch, &move || unsafe { entry(&args.0) })?;
        assert!(workspace.iter().take(spec.stream_k.map_or(0, |w| w.counters(grid.0))).all(|&count| count == 0), "{}: stream-K counters left", spec.name);
        Ok((c, want))
    }

    /// Kernel arguments the emulator's threads share (they only read them).
    struct Args(view::GemmArgs<u8>);
    // SAFETY: the pointers are into buffers that outlive the launch; the threads only read them.
    unsafe impl Sync for Args {}

    fn by_key_name(name: &str) -> spec::KernelKey {
        CATALOG.iter().flat_map(|rung| rung.iter()).find(|spec| spec.name == name).unwrap().key()
    }
}
