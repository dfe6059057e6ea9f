//! The kernel side of a specification: the element types as raw bits, layouts as types, and
//! the [`GemmKernel`] trait every rung implements. The plain data (dtypes, tiles, layouts,
//! [`KernelSpec`]) lives in the `rgemm-spec` crate, shared with the host library, and is
//! re-exported here.

pub use rgemm_spec::*;

/// A bfloat16 value as its raw bits: 1 sign, 8 exponent, 7 mantissa bits (the top half of an
/// `f32`). Host and kernels exchange bf16 matrices as arrays of these.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bf16(pub u16);

/// An IEEE binary16 value as its raw bits: 1 sign, 5 exponent, 10 mantissa bits.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F16(pub u16);

/// An OCP FP8 E4M3 value as its raw bits: 1 sign, 4 exponent (bias 7), 3 mantissa bits;
/// finite up to ±448, `S.1111.111` is NaN, no infinities.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct E4m3(pub u8);

/// The element types `wgmma` reads from shared memory: the 16-bit ones and FP8. A row of a
/// K-major tile is 128 bytes whatever the type, and one instruction takes 32 bytes of K
/// (16 elements of 16 bits, 32 of FP8), so the tiles, the copy engine's boxes and the matrix
/// descriptors are the same bytes for every type; only the instruction names the type.
pub trait WgmmaElem: Copy {
    /// Which type this is.
    const DTYPE: Dtype;
    /// Bytes per element.
    const BYTES: usize = Self::DTYPE.bytes() as usize;
}

impl WgmmaElem for Bf16 {
    const DTYPE: Dtype = Dtype::Bf16;
}

impl WgmmaElem for F16 {
    const DTYPE: Dtype = Dtype::F16;
}

impl WgmmaElem for E4m3 {
    const DTYPE: Dtype = Dtype::E4m3;
}

/// The 16-bit element types the tensor-core rungs multiply. Both are two bytes, so the same
/// shared-memory layouts and copies serve both; only the tensor-core instruction names the type.
pub trait HalfElem: WgmmaElem {
    /// The raw bits.
    fn bits(self) -> u16;
}

impl HalfElem for Bf16 {
    #[inline(always)]
    fn bits(self) -> u16 {
        self.0
    }
}

impl HalfElem for F16 {
    #[inline(always)]
    fn bits(self) -> u16 {
        self.0
    }
}

/// A layout as a type, for kernels generic over it: `WgmmaTma<.., Nt>` reads B stored N×K.
pub trait Storage {
    const LAYOUT: Layout;
}

/// Row-major A (M×K) and B (K×N).
pub struct Nn;
/// Row-major A (M×K), B stored N×K (a linear layer's weight).
pub struct Nt;
/// A stored K×M, row-major B (K×N).
pub struct Tn;
/// A stored K×M, B stored N×K.
pub struct Tt;

impl Storage for Nn {
    const LAYOUT: Layout = Layout::NN;
}
impl Storage for Nt {
    const LAYOUT: Layout = Layout::NT;
}
impl Storage for Tn {
    const LAYOUT: Layout = Layout::TN;
}
impl Storage for Tt {
    const LAYOUT: Layout = Layout::TT;
}

/// Every element type of A and B, named by its [`Dtype`].
pub trait ElemType {
    const DTYPE: Dtype;
}

impl ElemType for f32 {
    const DTYPE: Dtype = Dtype::F32;
}
impl ElemType for Bf16 {
    const DTYPE: Dtype = Dtype::Bf16;
}
impl ElemType for F16 {
    const DTYPE: Dtype = Dtype::F16;
}

/// An element type of A and B, widened to the f32 the kernels accumulate in (exactly: every
/// bf16 and f16 value is an f32 value).
pub trait Widen: Copy {
    fn widen(self) -> f32;
}

impl Widen for f32 {
    #[inline(always)]
    fn widen(self) -> f32 {
        self
    }
}

impl Widen for Bf16 {
    /// A bf16 is the top half of an f32.
    #[inline(always)]
    fn widen(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }
}

impl Widen for F16 {
    /// One conversion instruction on the GPU (`device::cvt_f32_f16`).
    #[inline(always)]
    fn widen(self) -> f32 {
        crate::device::cvt_f32_f16(self.0)
    }
}

/// A GEMM kernel: `C = alpha·op(A)·op(B) + beta·C` with C (M×N) row-major and A, B stored as
/// the spec's [`Layout`] says, for every matrix of a strided batch.
///
/// Implemented by one zero-sized type per rung, generic over its tile shape. `run` is compiled for
/// the GPU (as a PTX entry) and for the host (run by the device emulator).
pub trait GemmKernel {
    /// Element type of A and B.
    type Elem: Copy;
    /// Launch data; the `entries!` macro fills in the name.
    const SPEC: KernelSpec;
    /// The body of the kernel, executed by every thread of the grid.
    ///
    /// # Safety
    /// Launched with `SPEC.threads` threads per block, `SPEC.smem_bytes` of dynamic shared memory,
    /// a grid of `ceil(n / bn) × ceil(m / bm) × batch` blocks (any number of blocks in one plane
    /// for a persistent kernel), and pointers to matrices of the given sizes, leading dimensions
    /// and batch strides.
    unsafe fn run(gemm: &crate::view::GemmArgs<Self::Elem>);
}
