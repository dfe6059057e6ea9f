//! `entries!` turns kernel types into PTX entry points and into the table the host reads.
//!
//! ```ignore
//! entries! {
//!     elem = f32;
//!     sgemm_03_smem_tiling_32x32x32 => SmemTiling<32>,
//! }
//! ```
//! emits, on the GPU, `.visible .entry sgemm_03_smem_tiling_32x32x32(a, b, c, m, n, k, alpha, beta,
//! tensor_maps)`
//! calling `SmemTiling::<32>::run`, and on every target `pub const ENTRIES: &[KernelSpec]`
//! holding `SmemTiling::<32>::SPEC` under that name, and on the host `pub const EMULATED` with
//! one [`EmulatedEntry`] per entry (same order) that runs it on the device emulator. Rust cannot
//! give a generic function an unmangled symbol, so each configuration is named here, once.

/// A kernel entry on the host: the PTX entry's parameters, A and B untyped (their element type is
/// the kernel's `Dtype`). The caller runs it inside [`crate::device::emulator::launch`].
#[cfg(not(target_arch = "nvptx64"))]
pub type EmulatedEntry =
    unsafe fn(a: *const u8, b: *const u8, c: *mut f32, m: u32, n: u32, k: u32, alpha: f32, beta: f32, tensor_maps: *const crate::layout::TensorMap);

// ANCHOR: macro
macro_rules! entries {
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
                tensor_maps: *const $crate::layout::TensorMap,
            ) {
                let gemm = $crate::layout::Gemm { a, b, c, m, n, k, alpha, beta, tensor_maps };
                unsafe { <$kernel as $crate::spec::GemmKernel>::run(&gemm) }
            }
        )+

        /// The entry points of this rung as host functions for the emulator, in `ENTRIES` order.
        #[cfg(not(target_arch = "nvptx64"))]
        pub const EMULATED: &[$crate::entry::EmulatedEntry] = &[
            $(|a, b, c, m, n, k, alpha, beta, tensor_maps| {
                let gemm = $crate::layout::Gemm { a: a as *const $elem, b: b as *const $elem, c, m, n, k, alpha, beta, tensor_maps };
                unsafe { <$kernel as $crate::spec::GemmKernel>::run(&gemm) }
            }),+
        ];

        /// The entry points of this rung, as the host catalog sees them.
        pub const ENTRIES: &[$crate::spec::KernelSpec] = &[
            $($crate::spec::KernelSpec { name: stringify!($name), ..<$kernel as $crate::spec::GemmKernel>::SPEC }),+
        ];
    };
}
// ANCHOR_END: macro
