//! `entries!` turns kernel types into PTX entry points and into the table the host reads.
//!
//! ```ignore
//! entries! {
//!     elem = f32;
//!     sgemm_03_smem_tiling_32x32x32 => SmemTiling<32>,
//! }
//! ```
//! emits, on the GPU, `.visible .entry sgemm_03_smem_tiling_32x32x32(a, b, c, m, n, k, alpha, beta,
//! tensor_maps, lda, ldb, ldc, batch, stride_a, stride_b, stride_c, workspace, epilogue, bias, aux)` calling
//! `SmemTiling::<32>::run` on the product of the batch that the block's `z` index names, and on every target `pub const ENTRIES: &[KernelSpec]`
//! holding `SmemTiling::<32>::SPEC` under that name, and on the host `pub const EMULATED` with
//! one [`EmulatedEntry`] per entry (same order) that runs it on the device emulator. Rust cannot
//! give a generic function an unmangled symbol, so each configuration is named here, once.
//!
//! One list can instantiate several element types:
//!
//! ```ignore
//! entries! {
//!     for E in (bgemm: Bf16, hgemm: F16);
//!     bgemm_13_wgmma_128x256x64_s4 | hgemm_13_wgmma_128x256x64_s4 => Wgmma<E, { Tile::block(128, 256, 64).with_stages(4) }>,
//!     bgemm_13_wgmma_128x128x64_s4 | _ => Wgmma<E, { Tile::block(128, 128, 64).with_stages(4) }>,
//! }
//! ```
//! makes the modules `bgemm` (`E` = `Bf16`, both entries) and `hgemm` (`E` = `F16`, the first):
//! each row is a configuration, written once, with its entry's name per element type (`_` for
//! none; a macro cannot build the names, since an entry's name is an identifier). Each name must
//! be its spec's [`KernelKey`](crate::spec::KernelKey) written out, which the crate's tests check.

/// A kernel entry on the host: the PTX entry's parameters, A and B untyped (their element type is
/// the kernel's `Dtype`). The caller runs it inside [`crate::device::emulator::launch`].
#[cfg(not(target_arch = "nvptx64"))]
pub type EmulatedEntry = unsafe fn(args: &crate::view::GemmArgs<u8>);

// ANCHOR: macro
macro_rules! entries {
    // Several element types from one list of configurations: one module per element type (named
    // in the header), in which `$E` is that type; each row names its entry in every module, in
    // the header's order, `_` where a configuration has no entry of that type.
    (for $E:ident in ($($module:ident: $elem:ty),+ $(,)?); $($rows:tt)*) => {
        entries!(@column $E [$($module: $elem),+] [] [] $($rows)*);
    };
    // Every row seen: the first type's module, then the next type's column of the same rows.
    (@column $E:ident [$module:ident: $elem:ty $(, $more:ident: $more_elem:ty)*] [$($entries:tt)*] [$($rest:tt)*]) => {
        #[doc = concat!("The entries of `", stringify!($elem), "` A and B.")]
        pub mod $module {
            #[allow(unused_imports)]
            use super::*;
            type $E = $elem;
            entries! { elem = $elem; $($entries)* }
        }
        entries!(@column $E [$($more: $more_elem),*] [] [] $($rest)*);
    };
    // No type left.
    (@column $E:ident [] [] [] $($rows:tt)*) => {};
    // A row without an entry of this type.
    (@column $E:ident $elems:tt [$($entries:tt)*] [$($rest:tt)*] _ $(| $others:tt)* => $kernel:ty $(, $($rows:tt)*)?) => {
        entries!(@column $E $elems [$($entries)*] [$($rest)* $($others)|* => $kernel,] $($($rows)*)?);
    };
    // A row's entry of this type.
    (@column $E:ident $elems:tt [$($entries:tt)*] [$($rest:tt)*] $name:ident $(| $others:tt)* => $kernel:ty $(, $($rows:tt)*)?) => {
        entries!(@column $E $elems [$($entries)* $name => $kernel,] [$($rest)* $($others)|* => $kernel,] $($($rows)*)?);
    };
    (elem = $elem:ty; $($name:ident => $kernel:ty),+ $(,)?) => {
        $(
            // The element type is spelled out for the ABI; this checks it is the kernel's.
            const _: fn(*const $elem) -> *const <$kernel as $crate::spec::GemmKernel>::Elem = |p| p;

            #[cfg(target_arch = "nvptx64")]
            #[unsafe(no_mangle)]
            pub unsafe extern "gpu-kernel" fn $name(
                a: *const $elem,
                b: *const $elem,
                c: *mut f32,
                m: u32,
                n: u32,
                k: u32,
                alpha: f32,
                beta: f32,
                tensor_maps: *const $crate::device::TensorMap,
                lda: u32,
                ldb: u32,
                ldc: u32,
                batch: u32,
                stride_a: u64,
                stride_b: u64,
                stride_c: u64,
                workspace: *mut u32,
                epilogue: u32,
                bias: *const u8,
                aux: *mut u8,
            ) {
                $crate::device::start_after_previous_grid();
                let gemm = $crate::view::GemmArgs { a, b, c, m, n, k, alpha, beta, tensor_maps, lda, ldb, ldc, batch, stride_a, stride_b, stride_c, z: 0, workspace, epilogue, bias, aux };
                // SAFETY: the host launches each entry with its spec's geometry and checked
                // operands (the entry's contract).
                unsafe { <$kernel as $crate::spec::GemmKernel>::run(&gemm.at_batch($crate::device::block_batch())) }
            }
        )+

        /// The entry points of this rung as host functions for the emulator, in `ENTRIES` order.
        #[cfg(not(target_arch = "nvptx64"))]
        pub const EMULATED: &[$crate::entry::EmulatedEntry] = &[
            $(|args| {
                let g = *args;
                let gemm = $crate::view::GemmArgs {
                    a: g.a as *const $elem, b: g.b as *const $elem, c: g.c, m: g.m, n: g.n, k: g.k, alpha: g.alpha, beta: g.beta,
                    tensor_maps: g.tensor_maps, lda: g.lda, ldb: g.ldb, ldc: g.ldc, batch: g.batch,
                    stride_a: g.stride_a, stride_b: g.stride_b, stride_c: g.stride_c, z: 0, workspace: g.workspace,
                    epilogue: g.epilogue, bias: g.bias, aux: g.aux,
                };
                // SAFETY: the host launches each entry with its spec's geometry and checked
                // operands (the entry's contract).
                unsafe { <$kernel as $crate::spec::GemmKernel>::run(&gemm.at_batch($crate::device::block_batch())) }
            }),+
        ];

        /// The entry points of this rung, as the host catalog sees them.
        pub const ENTRIES: &[$crate::spec::KernelSpec] = &[
            $($crate::spec::KernelSpec { name: stringify!($name), ..<$kernel as $crate::spec::GemmKernel>::SPEC }),+
        ];
    };
}
// ANCHOR_END: macro
