//! The library: `C = alpha·op(A)·op(B) + beta·C` on device buffers, safely.
//!
//! ```no_run
//! use rgemm::{Gpu, Layout, api::{Gemm, KernelChoice}};
//! # fn main() -> rgemm::Result<()> {
//! let gpu = Gpu::open()?;
//! // y = x·Wᵀ: x is 16×4096 (row-major), W is 11008×4096 as stored (N×K), bf16; y is f32.
//! let gemm = Gemm::new(16, 11008, 4096).layout(Layout::NT).plan::<rgemm::half::bf16>(&gpu, KernelChoice::Auto)?;
//! let x = gpu.stream().alloc_zeros::<rgemm::half::bf16>(16 * 4096)?;
//! let w = gpu.stream().alloc_zeros::<rgemm::half::bf16>(11008 * 4096)?;
//! let mut y = gpu.stream().alloc_zeros::<f32>(16 * 11008)?;
//! gemm.run(&gpu, &x, &w, &mut y)?; // queued on gpu.stream(); nothing waits
//! # Ok(()) }
//! ```
//!
//! - [`Gemm`] describes the problem: sizes, [`Layout`], leading dimensions, a strided batch,
//!   alpha and beta. [`Gemm::plan`] validates it, picks the plan (with [`KernelChoice::Auto`]
//!   the measured dispatch table's: kernel, split of K, staged copies of A and B; see
//!   [`crate::dispatch`]; or the kernel named) and computes the launches once.
//! - [`Plan::run`] checks the buffers it is given against the problem (length of every operand
//!   with its padding and batch, alignment where the kernel needs it, C overlapping A or B) and
//!   launches on the `Gpu`'s stream. It never synchronises and allocates nothing, but for the
//!   first call with a new set of buffers to a kernel that reads tensor maps (128 bytes each,
//!   encoded once and kept), and that `Gpu`'s workspace (split-K partials, staged copies), which
//!   grows only when a plan needs more than any before it. Each `Gpu` of `Gpu::with_stream` has
//!   workspaces of its own; run a plan once before capturing it into a CUDA graph.
//! - `ndarray_gemm` (feature `ndarray`) takes host `ArrayView2`s (standard or transposed views map to layouts,
//!   other strides are copied), runs the product and returns an `Array2<f32>`.
//!
//! Every error is a value ([`crate::Error`]); nothing here panics on bad input.

use std::borrow::Cow;

use cudarc::driver::{DevicePtr, DevicePtrMut, DeviceRepr};
#[cfg(feature = "ndarray")]
use ndarray::{Array2, ArrayView2};

use crate::catalog::{Dtype, Kernel, Launch};
use crate::error::{Error, Operand, Result};
use crate::fp8::E4m3;
use crate::gpu::Gpu;
use crate::problem::{Activation, Bias, Batch, FusedEpilogue, Layout, LeadingDims, Problem};
#[cfg(feature = "ndarray")]
use crate::problem::Op;

/// An element type of A and B: `f32`, [`half::bf16`], [`half::f16`] or [`E4m3`] (FP8; C is then
/// f32, bf16 or f16). Sealed: the library
/// relies on `DTYPE` naming the type's real size and format, so no other type can claim it:
///
/// ```compile_fail
/// #[derive(Clone, Copy)]
/// struct Byte(u8);
/// // SAFETY: a plain byte.
/// unsafe impl rgemm::cudarc::driver::DeviceRepr for Byte {}
/// impl rgemm::api::Element for Byte {
///     const DTYPE: rgemm::catalog::Dtype = rgemm::catalog::Dtype::F32;
/// }
/// ```
pub trait Element: sealed::Sealed + DeviceRepr + Copy {
    /// Which of the four it is.
    const DTYPE: Dtype;
}

mod sealed {
    /// Implemented for the four element types only.
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for half::bf16 {}
    impl Sealed for half::f16 {}
    impl Sealed for crate::E4m3 {}
}

impl Element for f32 {
    const DTYPE: Dtype = Dtype::F32;
}
impl Element for half::bf16 {
    const DTYPE: Dtype = Dtype::Bf16;
}
impl Element for half::f16 {
    const DTYPE: Dtype = Dtype::F16;
}
impl Element for E4m3 {
    const DTYPE: Dtype = Dtype::E4m3;
}

/// Which kernel runs the product: the automatic choice, or a catalog kernel by name.
///
/// ```rust
/// use rgemm::{Problem, api::KernelChoice, catalog::Dtype, choice};
///
/// let p = Problem::new(1000, 1000, 1000, 1.0, 0.0)?;
/// let auto = choice::plan(Dtype::Bf16, &p, &KernelChoice::Auto, 132)?;
/// assert_ne!(auto.reason(), "named"); // the reason says what decided
///
/// // Any kernel of `rgemm list`, of the operands' element type.
/// let named = KernelChoice::Named("bgemm_00_general_16x16x16".into());
/// assert_eq!(choice::plan(Dtype::Bf16, &p, &named, 132)?.name(), "bgemm_00_general_16x16x16");
/// assert!(choice::plan(Dtype::Bf16, &p, &KernelChoice::Named("no_such_kernel".into()), 132).is_err());
/// # Ok::<(), rgemm::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelChoice {
    /// The plan the measured dispatch table gives the problem ([`crate::dispatch`]), or the cost
    /// model's where no measured shape is near; the catalog's order where no such kernel takes
    /// it, which ends with the general kernel: every valid problem has a plan (the order of
    /// these questions: [`crate::choice`]).
    Auto,
    /// A catalog kernel by name; an error if it cannot run the problem.
    Named(String),
    /// The plan timed fastest for the problem on the GPU, kept in the cache
    /// ([`crate::choice::TuneCache`]): [`Gemm::plan`] times the automatic choice's plan and the
    /// cost model's cheapest few the first time it meets a problem (once per problem and
    /// device; a file-backed cache keeps them for later processes), then reads the winner from
    /// the cache. Planned without a GPU ([`crate::choice::plan`]) it is the cached plan where
    /// the cache has one, else [`KernelChoice::Auto`]'s.
    Tuned(crate::choice::TuneCache),
}

/// A GEMM to be planned: sizes, layout, leading dimensions, batch and scalars.
///
/// Each builder method returns the description with one part changed; nothing is checked until
/// [`Gemm::problem`] or [`Gemm::plan`], which validate the whole ([`Problem::general`]). Sizes are
/// those of the product: `C (M×N) = op(A) (M×K) · op(B) (K×N)`, whatever the layout stores.
///
/// ```rust
/// use rgemm::{Layout, api::Gemm};
///
/// // Attention scores for 32 heads: S = Q·Kᵀ/√64 per head, Q and K 512×64 row-major each,
/// // the heads packed one after another.
/// let scores = Gemm::new(512, 512, 64)
///     .layout(Layout::NT) // B (the keys) stored N×K
///     .scalars(0.125, 0.0)
///     .packed_batch(32);
/// let p = scores.problem()?;
/// assert_eq!((p.batch, p.stride_a, p.stride_b, p.stride_c), (32, 512 * 64, 512 * 64, 512 * 512));
///
/// // One weight for the whole batch (stride 0), C written into rows of 1536 elements.
/// let shared = Gemm::new(64, 1024, 256).layout(Layout::NT).leading_dims(256, 256, 1536).batch(4, 64 * 256, 0, 64 * 1536);
/// assert_eq!(shared.problem()?.extents(), (4 * 64 * 256, 1024 * 256, 3 * 64 * 1536 + 63 * 1536 + 1024));
///
/// // An inconsistent description is an error when it is checked, not when it is built.
/// assert!(Gemm::new(64, 64, 64).leading_dims(32, 64, 64).problem().is_err());
/// # Ok::<(), rgemm::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gemm {
    m: u64,
    n: u64,
    k: u64,
    alpha: f32,
    beta: f32,
    layout: Layout,
    ld: LeadingDims,
    batch: Batch,
    epilogue: FusedEpilogue,
    scales: (f32, f32),
}

impl Gemm {
    /// `C (M×N) = A (M×K) · B (K×N)`, row-major, alpha = 1, beta = 0, one product, tight leading
    /// dimensions. Sizes are u64 so that any caller's value reaches the check unchanged
    /// ([`crate::problem::MAX_DIM`] is the largest accepted).
    ///
    /// ```rust
    /// let p = rgemm::api::Gemm::new(64, 128, 32).problem()?;
    /// assert_eq!((p.m, p.n, p.k, p.alpha, p.beta, p.batch), (64, 128, 32, 1.0, 0.0, 1));
    /// assert_eq!((p.lda, p.ldb, p.ldc), (32, 128, 128)); // tight: the stored rows' lengths
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    ///
    /// The other builder methods are shown together in the example of [`Gemm`] (layout, scalars,
    /// leading dimensions, batches) and of [`Gemm::output`] (the fused epilogue).
    pub fn new(m: u64, n: u64, k: u64) -> Gemm {
        Gemm { m, n, k, alpha: 1.0, beta: 0.0, layout: Layout::NN, ld: LeadingDims::default(), batch: Batch::packed(1), epilogue: FusedEpilogue::NONE, scales: (1.0, 1.0) }
    }

    /// How A and B are stored ([`Layout::NT`]: B given as N×K, a linear layer's weight). The
    /// sizes stay those of the product; the tight leading dimensions follow the stored shapes.
    ///
    /// ```rust
    /// use rgemm::{Layout, api::Gemm};
    ///
    /// // y = x·Wᵀ: x 16×4096, W stored 11008×4096 (N×K), so B's rows are K long.
    /// let p = Gemm::new(16, 11008, 4096).layout(Layout::NT).problem()?;
    /// assert_eq!((p.n, p.stored_b(), p.ldb), (11008, (11008, 4096), 4096));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn layout(self, layout: Layout) -> Gemm {
        Gemm { layout, ..self }
    }

    /// `C = alpha·op(A)·op(B) + beta·C` (C is read only when beta ≠ 0).
    ///
    /// ```rust
    /// use rgemm::api::Gemm;
    ///
    /// // Accumulate half the product into C: C = 0.5·A·B + C.
    /// let p = Gemm::new(64, 64, 64).scalars(0.5, 1.0).problem()?;
    /// assert_eq!((p.alpha, p.beta), (0.5, 1.0));
    /// assert!(Gemm::new(64, 64, 64).scalars(f32::NAN, 0.0).problem().is_err()); // finite only
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn scalars(self, alpha: f32, beta: f32) -> Gemm {
        Gemm { alpha, beta, ..self }
    }

    /// Per-tensor scales of A and B, as FP8 data carries them (the real A is `sa` times the
    /// stored one): `C = alpha·sa·sb·op(A)·op(B) + beta·C`. The three multiply into one alpha
    /// (rounded once to f32), which must be finite.
    ///
    /// ```rust
    /// use rgemm::{Layout, api::Gemm};
    ///
    /// let p = Gemm::new(128, 4096, 4096).layout(Layout::NT).scales(0.5, 0.25).problem()?;
    /// assert_eq!(p.alpha, 0.125);
    /// assert!(Gemm::new(64, 64, 64).scales(f32::MAX, 4.0).problem().is_err()); // alpha overflows
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn scales(self, sa: f32, sb: f32) -> Gemm {
        Gemm { scales: (sa, sb), ..self }
    }

    /// Leading dimensions (elements between stored rows), at least the stored row lengths:
    /// `lda` ≥ K (M for a transposed A), `ldb` ≥ N (K for a transposed B), `ldc` ≥ N.
    ///
    /// ```rust
    /// use rgemm::api::Gemm;
    ///
    /// // 100×100 windows of row-major 256×256 matrices: rows 256 elements apart.
    /// let p = Gemm::new(100, 100, 100).leading_dims(256, 256, 256).problem()?;
    /// assert_eq!(p.extents(), (99 * 256 + 100, 99 * 256 + 100, 99 * 256 + 100));
    /// assert!(Gemm::new(100, 100, 100).leading_dims(99, 256, 256).problem().is_err()); // lda < K
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn leading_dims(self, lda: u64, ldb: u64, ldc: u64) -> Gemm {
        Gemm { ld: LeadingDims { lda: Some(lda), ldb: Some(ldb), ldc: Some(ldc) }, ..self }
    }

    /// A strided batch of `count` products; strides in elements (0 broadcasts A or B). C's stride
    /// is at least one matrix of C, `(M − 1)·ldc + N`, so that no two products write one element.
    ///
    /// ```rust
    /// use rgemm::api::Gemm;
    ///
    /// // 4 products x_i·W with one W for all (stride 0); x_i and C_i packed.
    /// let p = Gemm::new(64, 1024, 256).batch(4, 64 * 256, 0, 64 * 1024).problem()?;
    /// assert_eq!(p.extents(), (4 * 64 * 256, 256 * 1024, 4 * 64 * 1024));
    /// // A stride of C shorter than one matrix of C would make two products write one element.
    /// assert!(Gemm::new(64, 1024, 256).batch(4, 64 * 256, 0, 1024).problem().is_err());
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn batch(self, count: u64, stride_a: u64, stride_b: u64, stride_c: u64) -> Gemm {
        Gemm { batch: Batch { count, stride_a: Some(stride_a), stride_b: Some(stride_b), stride_c: Some(stride_c) }, ..self }
    }

    /// A batch of `count` packed products (each matrix right after the previous one).
    ///
    /// ```rust
    /// use rgemm::api::Gemm;
    ///
    /// // 32 heads of 512×64 · 64×512, stored one after another: strides of one matrix each.
    /// let packed = Gemm::new(512, 512, 64).packed_batch(32).problem()?;
    /// assert_eq!(packed, Gemm::new(512, 512, 64).batch(32, 512 * 64, 64 * 512, 512 * 512).problem()?);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn packed_batch(self, count: u64) -> Gemm {
        Gemm { batch: Batch::packed(count), ..self }
    }

    /// C (and the bias and the auxiliary output) of element type `O` (f32 by default): the sums
    /// stay f32 until they are rounded on the way out. `ldc` and C's batch stride count `O`s.
    ///
    /// This example also shows [`Gemm::bias`], [`Gemm::activation`] and [`Gemm::aux_output`],
    /// which together make the problem's fused epilogue ([`Problem::epilogue`]):
    ///
    /// ```rust
    /// use rgemm::half::bf16;
    /// use rgemm::{Activation, Bias, FusedEpilogue, Layout, api::Gemm};
    ///
    /// // A linear layer y = relu(x·Wᵀ + b) in bf16, keeping x·Wᵀ + b for the backward pass.
    /// let layer = Gemm::new(16, 4096, 1024).layout(Layout::NT);
    /// let fused = layer.output::<bf16>().bias(Bias::PerColumn).activation(Activation::Relu).aux_output();
    /// let e = fused.problem()?.epilogue;
    /// assert_eq!((e.output.name(), e.bias, e.activation, e.aux), ("bf16", Bias::PerColumn, Activation::Relu, true));
    /// assert_eq!(layer.problem()?.epilogue, FusedEpilogue::NONE); // by default: f32 C, nothing applied
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn output<O: Element>(self) -> Gemm {
        Gemm { epilogue: FusedEpilogue { output: O::DTYPE, ..self.epilogue }, ..self }
    }

    /// Adds a bias vector (of C's type, one for the whole batch) before the activation:
    /// [`Bias::PerColumn`] (N values, a linear layer's `+ b`) or [`Bias::PerRow`] (M values).
    /// [`Plan::run_with_epilogue`] takes it.
    ///
    /// ```rust
    /// use rgemm::{Bias, Layout, api::Gemm};
    ///
    /// // y = x·Wᵀ + b: one bias value per column of y (N = 4096 of them), f32 like y.
    /// let p = Gemm::new(16, 4096, 1024).layout(Layout::NT).bias(Bias::PerColumn).problem()?;
    /// assert_eq!((p.epilogue.bias, p.epilogue.output.name()), (Bias::PerColumn, "f32"));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn bias(self, bias: Bias) -> Gemm {
        Gemm { epilogue: FusedEpilogue { bias, ..self.epilogue }, ..self }
    }

    /// Applies `activation` last: `C = act(alpha·op(A)·op(B) + beta·C + bias)`.
    ///
    /// ```rust
    /// use rgemm::{Activation, FusedEpilogue, api::Gemm};
    ///
    /// let p = Gemm::new(16, 11008, 4096).activation(Activation::Silu).problem()?;
    /// assert_eq!(p.epilogue.activation, Activation::Silu);
    /// // Identity is no activation: the plain product's epilogue.
    /// assert_eq!(Gemm::new(16, 11008, 4096).activation(Activation::Identity).problem()?.epilogue, FusedEpilogue::NONE);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn activation(self, activation: Activation) -> Gemm {
        Gemm { epilogue: FusedEpilogue { activation, ..self.epilogue }, ..self }
    }

    /// Also writes the pre-activation `alpha·op(A)·op(B) + beta·C + bias` to an auxiliary output
    /// shaped as C (what a training step's backward pass needs); [`Plan::run_with_epilogue`] takes it.
    ///
    /// ```rust
    /// use rgemm::{Activation, api::Gemm};
    ///
    /// // Keep x·W before GELU for the backward pass: the auxiliary buffer holds as many elements as C.
    /// let p = Gemm::new(512, 4096, 1024).activation(Activation::GeluTanh).aux_output().problem()?;
    /// assert!(p.epilogue.aux);
    /// let (_, _, c_len) = p.extents(); // the length of C and of the auxiliary output
    /// assert_eq!(c_len, 512 * 4096);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn aux_output(self) -> Gemm {
        Gemm { epilogue: FusedEpilogue { aux: true, ..self.epilogue }, ..self }
    }

    /// The validated problem ([`Problem::general`]), or why it is not one
    /// ([`Error::InvalidProblem`]).
    ///
    /// ```rust
    /// use rgemm::{Error, Layout, api::Gemm};
    ///
    /// // y = x·Wᵀ, x 16×4096, W stored 11008×4096: the elements each buffer must hold.
    /// let p = Gemm::new(16, 11008, 4096).layout(Layout::NT).problem()?;
    /// assert_eq!((p.lda, p.ldb, p.ldc), (4096, 4096, 11008));
    /// assert_eq!(p.extents(), (16 * 4096, 11008 * 4096, 16 * 11008));
    ///
    /// // Nothing is checked while the description is built; here, a size of 0 is refused.
    /// assert!(matches!(Gemm::new(0, 8, 8).problem(), Err(Error::InvalidProblem(_))));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn problem(&self) -> Result<Problem> {
        let (sa, sb) = self.scales;
        if !(sa.is_finite() && sb.is_finite()) {
            return Err(Error::InvalidProblem(format!("the scales of A and B must be finite (sa = {sa}, sb = {sb})")));
        }
        let alpha = (self.alpha as f64 * sa as f64 * sb as f64) as f32;
        Problem::general(self.m, self.n, self.k, alpha, self.beta, self.layout, self.ld, self.batch)?.with_epilogue(self.epilogue).checked()
    }

    /// Validates the problem and picks its kernel for element type `T` on `gpu` (whose SM
    /// count decides whether K is split). [`crate::choice::plan`] does the same without a GPU,
    /// given the SM count.
    ///
    /// ```no_run
    /// use rgemm::{Gpu, Layout, api::{Gemm, KernelChoice}};
    /// # fn main() -> rgemm::Result<()> {
    /// let gpu = Gpu::open()?;
    /// let gemm = Gemm::new(4096, 4096, 4096).layout(Layout::NT);
    /// let auto = gemm.plan::<rgemm::half::bf16>(&gpu, KernelChoice::Auto)?;
    /// println!("{}: {}", auto.name(), auto.reason());
    /// // A kernel by name: an error if it cannot run this problem.
    /// let named = gemm.plan::<rgemm::half::bf16>(&gpu, KernelChoice::Named("bgemm_00_general_16x16x16_nt".into()))?;
    /// assert_eq!(named.reason(), "named");
    /// # Ok(()) }
    /// ```
    pub fn plan<T: Element>(&self, gpu: &Gpu, choice: KernelChoice) -> Result<Plan> {
        crate::choice::plan_on_gpu(gpu, T::DTYPE, &self.problem()?, &choice)
    }
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// A copy of A and B with 16-byte rows for a kernel that needs them: `problem` is what the
/// kernel then reads ([`Problem::with_aligned_rows`]); `copy` says which operands are copied.
#[derive(Clone, Debug)]
pub struct Staging {
    /// The problem the kernel reads: the copied operands with their padded leading dimensions
    /// and packed strides, the others as the caller gives them.
    pub problem: Problem,
    /// Whether A (`[0]`) and B (`[1]`) are copied; at least one is.
    pub copy: [bool; 2],
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// A problem computed as `splits` slices of K (see kernels-gpu/src/split_k.rs): `kernel` runs
/// `problem`, the slices as a strided batch into a workspace, then the rest of K that the
/// slices leave (`tail`, if any) into the plane after them, and the partials are summed into C.
#[derive(Clone, Debug)]
pub struct SplitK {
    /// Slices of K of equal depth (1: the epilogue pass, see [`Plan::epilogue_pass`]).
    pub splits: u32,
    /// The kernel that computes the slices' partial products.
    pub kernel: Kernel,
    /// The sliced problem: M×N×slice, a batch of `splits` products over A and B's slices (alpha
    /// 1, beta 0), C the workspace's packed partials. The slice is K / `splits` rounded down to
    /// whole 16-byte units, so that every slice starts on 16 bytes.
    pub problem: Problem,
    /// `kernel`'s launch for `problem`.
    pub geometry: Launch,
    /// The K that the slices leave, if any: one more product into the plane after theirs.
    pub tail: Option<Tail>,
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The rest of a split K: an M×N×rest product of the same kernel whose A and B start `offset`
/// elements into the operands, its partial in the plane after the slices'.
#[derive(Clone, Debug)]
pub struct Tail {
    /// M×N×rest over the operands' leading dimensions (alpha 1, beta 0, one product).
    pub problem: Problem,
    /// The kernel's launch for `problem`.
    pub geometry: Launch,
    /// Where the tail's A and B start, in elements from the operands' starts.
    pub offset: [u64; 2],
}

impl SplitK {
    /// The partial products the sum adds: the slices, and the tail if any.
    pub fn planes(&self) -> u32 {
        self.splits + u32::from(self.tail.is_some())
    }
}

/// A planned GEMM: only the library makes one, from a validated problem ([`Gemm::plan`],
/// [`crate::choice::plan`]), so a plan's safe `run` never meets a problem it did not check:
///
/// ```compile_fail
/// # fn f(p: &rgemm::Problem, k: rgemm::Kernel) {
/// let plan = rgemm::api::Plan::new(p, k, false, false, 132, String::new());
/// # }
/// ```
///
/// It holds the problem, its kernel and launch, the staging of A and B and the split of K if any.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The problem as the caller's operands hold it.
    pub(crate) problem: Problem,
    pub(crate) kernel: Kernel,
    /// The kernel's launch for the problem it reads (the staged one, with staging).
    pub(crate) geometry: Launch,
    pub(crate) staging: Option<Staging>,
    pub(crate) split: Option<SplitK>,
    /// Why this kernel (and split): the dispatch table's row, the catalog's order, or named.
    pub(crate) reason: String,
    /// Chosen by the library (not named): [`Plan::run`] may adapt it to where the operands lie.
    pub(crate) automatic: bool,
}

impl Plan {
    /// `kernel` on `problem` (validated by the caller), on aligned copies of A and B if
    /// `staged`, with K split (as [`crate::choice::split_count`] says, if it pays) if `split`;
    /// `None` when the kernel does not take the problem so, or `staged` and no operand needs a
    /// copy. Public plans come from [`Gemm::plan`] and [`crate::choice::plan_on`], which check
    /// the problem first.
    pub(crate) fn new(problem: &Problem, kernel: Kernel, staged: bool, split: bool, sms: u32, reason: String) -> Option<Plan> {
        let (staging, geometry) = Plan::staged_launch(problem, kernel, staged)?;
        let reads = staging.as_ref().map_or(problem, |s| &s.problem);
        let split = if split { crate::choice::split_count(reads, &geometry, sms).and_then(|s| crate::choice::split_with(kernel, reads, s)) } else { None };
        Plan { problem: *problem, kernel, geometry, staging, split, reason, automatic: true }.with_epilogue_pass()
    }

    /// As [`Plan::new`], with K cut into exactly `splits` slices (and their tail) when `splits`
    /// is 2 or more; `None` where the kernel does not take the slices.
    pub(crate) fn with_splits(problem: &Problem, kernel: Kernel, staged: bool, splits: u32, reason: String) -> Option<Plan> {
        let (staging, geometry) = Plan::staged_launch(problem, kernel, staged)?;
        let reads = staging.as_ref().map_or(problem, |s| &s.problem);
        let split = if splits > 1 { Some(crate::choice::split_with(kernel, reads, splits)?) } else { None };
        Plan { problem: *problem, kernel, geometry, staging, split, reason, automatic: true }.with_epilogue_pass()
    }

    /// The staging of A and B for `kernel` if `staged` (`None` when no operand needs a copy),
    /// and the kernel's launch for the problem it then reads.
    fn staged_launch(problem: &Problem, kernel: Kernel, staged: bool) -> Option<(Option<Staging>, Launch)> {
        let staging = if staged {
            let (problem, copy) = problem.with_aligned_rows(kernel.spec.dtype.bytes() as u64)?;
            Some(Staging { problem, copy })
        } else {
            None
        };
        let geometry = kernel.geometry(staging.as_ref().map_or(problem, |s| &s.problem)).ok()?;
        Some((staging, geometry))
    }

    /// This plan, where its kernel does not apply the problem's fused epilogue itself
    /// ([`Kernel::applies_epilogue`]) and K is not split, with the product written to the
    /// workspace as one slice and the epilogue applied by the sum (kernels-gpu/src/split_k.rs): a
    /// second pass over C, the same result. `None` when the kernel cannot write to the workspace
    /// so.
    pub(crate) fn with_epilogue_pass(mut self) -> Option<Plan> {
        if self.kernel.applies_epilogue(&self.problem) || self.split.is_some() {
            return Some(self);
        }
        let reads = *self.reads();
        self.split = Some(crate::choice::split_with(self.kernel, &reads, 1)?);
        self.reason += &format!("; {} does not apply this epilogue itself: its product goes to the workspace and the sum applies the epilogue", self.kernel.name());
        Some(self)
    }

    /// The plan of a problem with K = 0 (validated by the caller): no product, `C = beta·C` (C
    /// not read when beta is 0), by the split-K sum over no slices, one launch per product of the
    /// batch. Its kernel, named or the type's general one, never runs.
    pub(crate) fn scaling(problem: &Problem, dtype: Dtype, choice: &KernelChoice) -> Result<Plan> {
        let kernel = match choice {
            KernelChoice::Named(name) => {
                let kernel = crate::catalog::find(name)?;
                if kernel.spec.dtype != dtype {
                    return Err(Error::WrongElementType { plan: kernel.spec.dtype.name(), given: dtype.name() });
                }
                kernel
            }
            KernelChoice::Auto | KernelChoice::Tuned(_) => crate::catalog::fallback(dtype),
        };
        let geometry = Launch { grid: (0, 0, 0), block: (0, 0, 0), smem_bytes: 0 };
        let reason = "K = 0: C = beta·C, no product (the split-K sum over no slices)".to_string();
        Ok(Plan { problem: *problem, kernel, geometry, staging: None, split: None, reason, automatic: !matches!(choice, KernelChoice::Named(_)) })
    }

    /// Which of A, B and C must start on a 16-byte boundary for this plan: A and B where the
    /// kernel reads them as given (not copied, nor split ahead) and needs aligned matrices, C
    /// where the kernel stores it through the copy engine and K is not split (a split's sum
    /// stores C element by element).
    fn aligned_starts(&self) -> [bool; 3] {
        let kernel = self.kernel();
        let copied = self.staged();
        let aligned = kernel.needs_aligned_matrices();
        [aligned && kernel.reads_a_as_given() && !copied[0], aligned && !copied[1], kernel.stores_c_by_copy_engine() && self.split.is_none()]
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// The plan [`Plan::run`] launches for A, B and C at these device addresses: this one where
    /// they start as its kernel needs. Where its kernel needs A, B or C to start on a 16-byte
    /// boundary (it reads A or B, or stores C, through the copy engine) and the address does not,
    /// an automatic plan copies A or B first, as staged rows are, or stores C with the catalog's
    /// first kernel that writes it with its threads; a named kernel is refused with an error.
    pub fn at_addresses(&self, [pa, pb, pc]: [u64; 3]) -> Result<Cow<'_, Plan>> {
        if self.problem.k == 0 {
            // No kernel reads A or B; the sum writes C element by element.
            return Ok(Cow::Borrowed(self));
        }
        let starts = [pa % 16 == 0, pb % 16 == 0, pc % 16 == 0];
        let need = self.aligned_starts();
        let names = ["A", "B", "C"];
        let misaligned: Vec<&str> = (0..3).filter(|&i| need[i] && !starts[i]).map(|i| names[i]).collect();
        if misaligned.is_empty() {
            return Ok(Cow::Borrowed(self));
        }
        match self.automatic.then(|| self.for_starts(starts)).flatten() {
            Some(plan) => Ok(Cow::Owned(plan)),
            None => Err(Error::Unsupported {
                kernel: self.kernel().name().into(),
                reason: format!("it needs {} to start on a 16-byte boundary (the general kernels take any start: name one, e.g. sgemm_00_general_16x16x16)", misaligned.join(" and ")),
            }),
        }
    }

    /// This automatic plan for operands at `starts` (A, B, C: whether each starts on 16
    /// bytes) where it needs them aligned and they are not: for C a kernel that stores it with
    /// its threads (the catalog's first candidate that takes the problem so), and A or B copied
    /// first, as staged rows are. `None` if it cannot be adapted.
    fn for_starts(&self, starts: [bool; 3]) -> Option<Plan> {
        let mut plan = self.clone();
        if plan.aligned_starts()[2] && !starts[2] {
            let reads = *plan.reads();
            let kernel = crate::choice::candidates_for(self.kernel.spec.dtype, &self.problem).into_iter().find(|k| !k.stores_c_by_copy_engine() && k.geometry(&reads).is_ok())?;
            plan = plan.on(kernel, plan.staging.clone())?;
            plan.reason += &format!("; C starts off a 16-byte boundary, which {} cannot store to: the catalog's first candidate that stores C with its threads", self.kernel.name());
        }
        let need = plan.aligned_starts();
        let force = [need[0] && !starts[0], need[1] && !starts[1]];
        if force != [false, false] {
            let copied = plan.staged();
            let elem = plan.kernel.spec.dtype.bytes() as u64;
            let (problem, copy) = self.problem.with_aligned_copies(elem, [copied[0] || force[0], copied[1] || force[1]])?;
            plan = plan.on(plan.kernel, Some(Staging { problem, copy }))?;
            plan.reason += "; A or B starts off a 16-byte boundary: copied first, as staged rows are";
        }
        Some(plan)
    }

    /// This plan with `kernel` reading `staging`'s copies (or the operands themselves), K split
    /// into as many slices as before; `None` if the kernel does not take it so.
    fn on(&self, kernel: Kernel, staging: Option<Staging>) -> Option<Plan> {
        let reads = staging.as_ref().map_or(&self.problem, |s| &s.problem);
        let geometry = kernel.geometry(reads).ok()?;
        let split = match &self.split {
            Some(s) => Some(crate::choice::split_with(kernel, reads, s.splits)?),
            None => None,
        };
        Plan { kernel, geometry, staging, split, ..self.clone() }.with_epilogue_pass()
    }

    /// The problem the kernel reads: the staged one, with staging.
    fn reads(&self) -> &Problem {
        self.staging.as_ref().map_or(&self.problem, |s| &s.problem)
    }

    /// The problem as the caller's operands hold it: [`Problem::extents`] gives the elements A,
    /// B and C must hold (also shown in [`Plan::run`]).
    ///
    /// ```rust
    /// use rgemm::{api::{Gemm, KernelChoice}, catalog::Dtype, choice};
    ///
    /// let p = Gemm::new(4095, 4095, 4095).problem()?;
    /// let plan = choice::plan(Dtype::F32, &p, &KernelChoice::Auto, 132)?;
    /// // The caller's problem, whether or not the kernel reads staged copies of A and B.
    /// assert_eq!(*plan.problem(), p);
    /// assert_eq!(plan.problem().extents(), (4095 * 4095, 4095 * 4095, 4095 * 4095));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Which of A and B the plan first copies into a workspace with 16-byte rows (`[A, B]`), for a
    /// kernel that reads through the copy engine; the plan's [name](Plan::name) then ends in
    /// `_staged` (before the split, if any).
    ///
    /// ```rust
    /// use rgemm::{Problem, api::KernelChoice, catalog::Dtype, choice};
    ///
    /// // Rows of 4096 bf16 elements are whole 16-byte units: nothing needs a copy.
    /// let square = choice::plan(Dtype::Bf16, &Problem::new(4096, 4096, 4096, 1.0, 0.0)?, &KernelChoice::Auto, 132)?;
    /// assert_eq!(square.staged(), [false, false]);
    /// // Rows of 4095 are not: a copy-engine kernel reads copies, and the name says so.
    /// let odd = choice::plan(Dtype::Bf16, &Problem::new(4095, 4095, 4095, 1.0, 0.0)?, &KernelChoice::Auto, 132)?;
    /// assert_eq!(odd.staged() != [false, false], odd.name().contains("_staged"));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn staged(&self) -> [bool; 2] {
        self.staging.as_ref().map_or([false, false], |s| s.copy)
    }

    /// The kernel that computes the products (of the K slices, with a split): its name, tile and
    /// launch rules are in its [`spec`](Kernel::spec).
    ///
    /// ```rust
    /// use rgemm::{Problem, api::KernelChoice, catalog::Dtype, choice};
    ///
    /// let p = Problem::new(128, 128, 16384, 1.0, 0.0)?;
    /// let plan = choice::plan(Dtype::Bf16, &p, &KernelChoice::Auto, 132)?;
    /// let kernel = plan.kernel();
    /// assert_eq!(kernel.spec.dtype, Dtype::Bf16);
    /// assert!(plan.name().starts_with(kernel.name())); // the plan's name adds staging and split
    /// println!("{}: {}×{} tiles of C", kernel.name(), kernel.spec.tile.bm, kernel.spec.tile.bn);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn kernel(&self) -> Kernel {
        self.split.as_ref().map_or(self.kernel, |s| s.kernel)
    }

    /// Slices of K (1: no split). K is split where the product has too few tiles of C to fill
    /// the SMs: the slices run as a batch into a workspace, and a second pass sums them into C.
    ///
    /// ```rust
    /// use rgemm::{Problem, api::KernelChoice, catalog::Dtype, choice};
    ///
    /// // 128×128 is a handful of tiles, K = 16384 deep: slices of K fill the SMs.
    /// let deep = choice::plan(Dtype::Bf16, &Problem::new(128, 128, 16384, 1.0, 0.0)?, &KernelChoice::Auto, 132)?;
    /// assert!(deep.splits() > 1 && deep.name().ends_with(&format!("_split{}", deep.splits())));
    /// // A named kernel runs as named: K whole.
    /// let named = KernelChoice::Named("bgemm_00_general_16x16x16".into());
    /// assert_eq!(choice::plan(Dtype::Bf16, &Problem::new(128, 128, 16384, 1.0, 0.0)?, &named, 132)?.splits(), 1);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn splits(&self) -> u32 {
        self.split.as_ref().map_or(1, |s| s.splits)
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Whether the kernel writes its product to the workspace as one slice for split-K's sum to
    /// apply the epilogue, which the kernel does not apply itself ([`Kernel::applies_epilogue`]).
    pub fn epilogue_pass(&self) -> bool {
        self.split.as_ref().is_some_and(|s| s.splits == 1)
    }

    /// Why the automatic choice made this plan (a decode step, the dispatch table's nearest
    /// measured shape, the cost model, or the catalog's order; see [`crate::choice`]), or `named`.
    ///
    /// ```rust
    /// use rgemm::{Layout, api::{Gemm, KernelChoice}, catalog::Dtype, choice};
    ///
    /// let p = Gemm::new(4096, 4096, 4096).problem()?;
    /// let auto = choice::plan(Dtype::Bf16, &p, &KernelChoice::Auto, 132)?;
    /// println!("{}: {}", auto.name(), auto.reason());
    /// let named = choice::plan(Dtype::Bf16, &p, &KernelChoice::Named("bgemm_00_general_16x16x16".into()), 132)?;
    /// assert_eq!(named.reason(), "named");
    ///
    /// let decode = Gemm::new(1, 4096, 4096).layout(Layout::NT).problem()?;
    /// assert!(choice::plan(Dtype::Bf16, &decode, &KernelChoice::Auto, 132)?.reason().starts_with("a decode step"));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The plan in words: the kernel, `_staged` when it reads aligned copies of A and B, and the
    /// split if any (`..._split8`; see [`crate::dispatch::plan_name`]); `reduce_splits` for a
    /// problem with K = 0.
    ///
    /// ```rust
    /// use rgemm::{api::{Gemm, KernelChoice}, catalog::Dtype, choice};
    ///
    /// let p = Gemm::new(128, 128, 16384).problem()?;
    /// let plan = choice::plan(Dtype::Bf16, &p, &KernelChoice::Auto, 132)?;
    /// assert_eq!(plan.name(), rgemm::dispatch::plan_name(plan.kernel().name(), plan.staged() != [false, false], plan.splits()));
    ///
    /// // K = 0: no product, C = beta·C by the split-K sum alone.
    /// let scale = Gemm::new(8, 8, 0).scalars(1.0, 0.5).problem()?;
    /// assert_eq!(choice::plan(Dtype::F32, &scale, &KernelChoice::Auto, 132)?.name(), "reduce_splits");
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn name(&self) -> String {
        if self.problem.k == 0 {
            return "reduce_splits".into();
        }
        crate::dispatch::plan_name(self.kernel().name(), self.staging.is_some(), self.splits())
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Queues the plan on A, B, C at the given device addresses.
    ///
    /// # Safety
    /// The addresses must hold the problem's operands (its extents; the plan's element type for
    /// A and B, the epilogue's output type for C), aligned as the kernel needs, C not overlapping A or B.
    pub unsafe fn launch_at(&self, gpu: &Gpu, a: u64, b: u64, c: u64) -> Result<()> {
        // SAFETY: the caller's guarantee; an epilogue that needs a bias or an auxiliary output is
        // refused (none are given).
        unsafe { self.launch_with_epilogue_at(gpu, [a, b, c], [0, 0]) }
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// [`Plan::launch_at`] with the epilogue's `[bias, aux]` device addresses (0 where the
    /// epilogue has none).
    ///
    /// # Safety
    /// As for [`Plan::launch_at`]; the bias holds N (or M) values of the output type, the
    /// auxiliary output is shaped as C (its extent), neither overlaps C or each other.
    pub unsafe fn launch_with_epilogue_at(&self, gpu: &Gpu, [a, b, c]: [u64; 3], [bias, aux]: [u64; 2]) -> Result<()> {
        if self.problem.k == 0 {
            // alpha·(a sum of nothing) is 0 whatever alpha is, as BLAS defines it.
            let scale = Problem { alpha: 0.0, batch: 1, ..self.problem };
            let step = self.problem.stride_c * self.problem.epilogue.output.bytes() as u64;
            for i in 0..self.problem.batch as u64 {
                let aux = if aux == 0 { 0 } else { aux + i * step };
                // SAFETY: matrix i of C and of the auxiliary output (the caller's guarantee: they
                // span the batch); no slice of the workspace is read.
                unsafe { gpu.reduce_splits(&scale, 0, 0, 0, c + i * step, [bias, aux])? };
            }
            return Ok(());
        }
        if self.staging.is_none() && self.split.is_none() {
            // SAFETY: the caller's guarantee; the geometry is the kernel's own for the problem.
            return unsafe { gpu.launch_with_epilogue(self.kernel, &self.geometry, &self.problem, [a, b, c], [bias, aux]) };
        }
        // The workspace: the copies of A and B, then the partial products, each on a 256-byte line.
        let elem = self.kernel.spec.dtype.bytes() as u64;
        let (copy_a, copy_b) = match &self.staging {
            Some(s) => {
                let (la, lb, _) = s.problem.extents();
                (if s.copy[0] { la as u64 * elem } else { 0 }, if s.copy[1] { lb as u64 * elem } else { 0 })
            }
            None => (0, 0),
        };
        let at_b = copy_a.next_multiple_of(256);
        let at_partials = (at_b + copy_b).next_multiple_of(256);
        // The partials: one plane per product of the sliced batch, and the tail's.
        let partials = self.split.as_ref().map_or(0, |s| s.problem.stride_c * (s.problem.batch as u64 + u64::from(s.tail.is_some())) * 4);
        let floats = (at_partials + partials).div_ceil(4) as usize;
        gpu.with_workspace(floats, |ws| {
            let (mut a2, mut b2) = (a, b);
            if let Some(s) = &self.staging {
                let p = &self.problem;
                if s.copy[0] {
                    a2 = ws;
                    // SAFETY: A holds the caller's matrices (the caller's guarantee); the workspace
                    // holds their copy with the staged leading dimension and stride.
                    unsafe { gpu.copy_rows(self.kernel.spec.dtype, a, a2, p.stored_a(), (p.lda, p.stride_a), (s.problem.lda, s.problem.stride_a), p.batch)? };
                }
                if s.copy[1] {
                    b2 = ws + at_b;
                    // SAFETY: as for A.
                    unsafe { gpu.copy_rows(self.kernel.spec.dtype, b, b2, p.stored_b(), (p.ldb, p.stride_b), (s.problem.ldb, s.problem.stride_b), p.batch)? };
                }
            }
            let reads = self.reads();
            match &self.split {
                // SAFETY: A and B (or their copies) hold what the problem the kernel reads says;
                // C is the caller's.
                None => unsafe { gpu.launch_with_epilogue(self.kernel, &self.geometry, reads, [a2, b2, c], [bias, aux]) },
                Some(s) => {
                    let partials = ws + at_partials;
                    // SAFETY: the sliced problem reads exactly A and B (or their copies); the
                    // workspace holds its C (all partials) and stays this plan's until the launches
                    // are queued; then the sum into C.
                    unsafe {
                        gpu.launch(s.kernel, &s.geometry, &s.problem, a2, b2, partials)?;
                        let plane = s.problem.stride_c;
                        if let Some(t) = &s.tail {
                            // The rest of K, from the same operands, into the plane after the slices'.
                            let [oa, ob] = t.offset;
                            gpu.launch(s.kernel, &t.geometry, &t.problem, a2 + oa * elem, b2 + ob * elem, partials + s.splits as u64 * plane * 4)?;
                        }
                        // One sum per product: a split product is a single one; one slice of
                        // each product of a batch (the epilogue pass) lies `plane` floats after
                        // the previous product's.
                        let one = Problem { batch: 1, ..self.problem };
                        let step = self.problem.stride_c * self.problem.epilogue.output.bytes() as u64;
                        for z in 0..self.problem.batch as u64 {
                            let aux = if aux == 0 { 0 } else { aux + z * step };
                            gpu.reduce_splits(&one, s.planes(), plane, partials + z * plane * 4, c + z * step, [bias, aux])?;
                        }
                        Ok(())
                    }
                }
            }
        })
    }

    /// Queues the product on `gpu`'s stream after checking the buffers against the problem.
    /// `a` and `b` hold elements of the type the plan was made for; `c` of C's type (f32 unless
    /// [`Gemm::output`] says otherwise). The views may start anywhere their element type allows:
    /// where the plan's kernel needs A, B or C to start on a 16-byte boundary (it reads or stores
    /// them through the copy engine) and a view does not, an automatic plan copies A or B first,
    /// as staged rows are, or stores C with the catalog's first kernel that writes it with its
    /// threads; a named kernel is refused.
    ///
    /// It returns once the work is queued: read C after the stream has run it (a copy to the host
    /// on the same stream waits for it). The errors, each found before anything is queued:
    /// [`Error::WrongElementType`], [`Error::BufferTooSmall`] (each buffer must hold
    /// [`Problem::extents`] elements), [`Error::Overlap`], [`Error::Misaligned`], and
    /// [`Error::Unsupported`] for a named kernel that needs 16-byte starts the buffers lack.
    ///
    /// ```no_run
    /// use rgemm::{Error, Gpu, Operand, api::{Gemm, KernelChoice}};
    /// # fn main() -> rgemm::Result<()> {
    /// let gpu = Gpu::open()?;
    /// let plan = Gemm::new(256, 512, 128).plan::<f32>(&gpu, KernelChoice::Auto)?;
    /// let (la, lb, lc) = plan.problem().extents();
    /// let stream = gpu.stream();
    /// let a = stream.clone_htod(&vec![1.0f32; la])?;
    /// let b = stream.clone_htod(&vec![0.5f32; lb])?;
    /// let mut c = stream.alloc_zeros::<f32>(lc)?;
    /// plan.run(&gpu, &a, &b, &mut c)?;
    /// let host = stream.clone_dtoh(&c)?; // waits for the product
    /// assert!(host.iter().all(|&x| x == 64.0)); // 128 terms of 1 × 0.5
    ///
    /// // Views serve as buffers do; a C too short is refused before anything is queued.
    /// let mut short = stream.alloc_zeros::<f32>(lc - 1)?;
    /// match plan.run(&gpu, &a.slice(..), &b, &mut short) {
    ///     Err(Error::BufferTooSmall { operand: Operand::C, have, need }) => assert_eq!((have, need), (lc - 1, lc)),
    ///     other => panic!("{other:?}"),
    /// }
    /// # Ok(()) }
    /// ```
    pub fn run<T: Element, O: Element>(&self, gpu: &Gpu, a: &impl DevicePtr<T>, b: &impl DevicePtr<T>, c: &mut impl DevicePtrMut<O>) -> Result<()> {
        self.run_with_epilogue(gpu, a, b, c, None, None)
    }

    /// [`Plan::run`] for a plan whose epilogue reads a bias ([`Gemm::bias`]) or writes an
    /// auxiliary output ([`Gemm::aux_output`]): `bias` holds N values of C's type (M with
    /// [`Bias::PerRow`]), `aux` as many elements as C ([`Problem::extents`]). Besides
    /// [`Plan::run`]'s errors: [`Error::MissingOperand`] and [`Error::UnexpectedOperand`] where
    /// one is given without the epilogue asking for it or the other way round,
    /// [`Error::WrongOutputType`] for C of another type than [`Gemm::output`]'s, and
    /// [`Error::Overlap`] for a bias or an auxiliary output that overlaps another operand.
    ///
    /// ```no_run
    /// use rgemm::half::bf16;
    /// use rgemm::{Activation, Bias, Gpu, Layout, api::{Gemm, KernelChoice}};
    /// # fn main() -> rgemm::Result<()> {
    /// let gpu = Gpu::open()?;
    /// // A linear layer with GELU, bf16 in and out: y = gelu(x·Wᵀ + b), x 512×4096, W 11008×4096.
    /// let layer = Gemm::new(512, 11008, 4096).layout(Layout::NT).output::<bf16>().bias(Bias::PerColumn).activation(Activation::GeluTanh);
    /// let plan = layer.plan::<bf16>(&gpu, KernelChoice::Auto)?;
    /// let stream = gpu.stream();
    /// let x = stream.alloc_zeros::<bf16>(512 * 4096)?;
    /// let w = stream.alloc_zeros::<bf16>(11008 * 4096)?;
    /// let b = stream.alloc_zeros::<bf16>(11008)?;
    /// let mut y = stream.alloc_zeros::<bf16>(512 * 11008)?;
    /// plan.run_with_epilogue(&gpu, &x, &w, &mut y, Some(&b), None)?;
    /// # Ok(()) }
    /// ```
    pub fn run_with_epilogue<T: Element, O: Element>(&self, gpu: &Gpu, a: &impl DevicePtr<T>, b: &impl DevicePtr<T>, c: &mut impl DevicePtrMut<O>, bias: Option<&dyn DevicePtr<O>>, aux: Option<&mut dyn DevicePtrMut<O>>) -> Result<()> {
        if T::DTYPE != self.kernel.spec.dtype {
            return Err(Error::WrongElementType { plan: self.kernel.spec.dtype.name(), given: T::DTYPE.name() });
        }
        let e = self.problem.epilogue;
        if O::DTYPE != e.output {
            return Err(Error::WrongOutputType { plan: e.output.name(), given: O::DTYPE.name() });
        }
        for (operand, wanted, given) in [(Operand::Bias, e.bias != Bias::None, bias.is_some()), (Operand::Aux, e.aux, aux.is_some())] {
            match (wanted, given) {
                (true, false) => return Err(Error::MissingOperand { operand }),
                (false, true) => return Err(Error::UnexpectedOperand { operand }),
                _ => {}
            }
        }
        let (la, lb, lc) = self.problem.extents();
        let lbias = self.problem.bias_len();
        let lens = [(Operand::A, la, a.len()), (Operand::B, lb, b.len()), (Operand::C, lc, c.len())];
        let extra = [bias.as_ref().map(|p| (Operand::Bias, lbias, p.len())), aux.as_ref().map(|p| (Operand::Aux, lc, p.len()))];
        for (operand, need, have) in lens.into_iter().chain(extra.into_iter().flatten()) {
            if have < need {
                return Err(Error::BufferTooSmall { operand, have, need });
            }
        }
        let stream = gpu.stream();
        let (pa, _ra) = a.device_ptr(stream);
        let (pb, _rb) = b.device_ptr(stream);
        let (pc, _rc) = c.device_ptr_mut(stream);
        let (pbias, _rbias) = match bias {
            Some(p) => {
                let (ptr, sync) = p.device_ptr(stream);
                (ptr, Some(sync))
            }
            None => (0, None),
        };
        let (paux, _raux) = match aux {
            Some(p) => {
                let (ptr, sync) = p.device_ptr_mut(stream);
                (ptr, Some(sync))
            }
            None => (0, None),
        };
        let (bytes, out) = (T::DTYPE.bytes() as u64, O::DTYPE.bytes() as u64);
        // What the kernel writes (C, the auxiliary output) may overlap nothing it reads or writes.
        let ranges = [
            (Operand::A, (pa, la as u64 * bytes)),
            (Operand::B, (pb, lb as u64 * bytes)),
            (Operand::C, (pc, lc as u64 * out)),
            (Operand::Bias, (pbias, if pbias == 0 { 0 } else { lbias as u64 * out })),
            (Operand::Aux, (paux, if paux == 0 { 0 } else { lc as u64 * out })),
        ];
        for &(written, w) in &ranges[2..] {
            if written == Operand::Bias {
                continue;
            }
            for &(other, r) in &ranges {
                if other != written && overlaps(w, r) && !(written == Operand::C && other == Operand::Aux) {
                    return Err(Error::Overlap { operand: other, written });
                }
            }
        }
        for (operand, address, need) in [(Operand::A, pa, bytes), (Operand::B, pb, bytes), (Operand::C, pc, out), (Operand::Bias, pbias, out), (Operand::Aux, paux, out)] {
            if address % need != 0 {
                return Err(Error::Misaligned { operand, address, need });
            }
        }
        let plan = self.at_addresses([pa, pb, pc])?;
        // SAFETY: the buffers are at least as long as the problem's extents (checked above), of
        // the kernel's element type (A, B) and the epilogue's output type (C, bias, auxiliary
        // output), aligned as the plan's kernel needs (`at_addresses`); nothing written overlaps
        // anything else.
        unsafe { plan.launch_with_epilogue_at(gpu, [pa, pb, pc], [pbias, paux]) }
    }
}

fn overlaps((a, la): (u64, u64), (b, lb): (u64, u64)) -> bool {
    la > 0 && lb > 0 && a < b.saturating_add(lb) && b < a.saturating_add(la)
}

/// `alpha·op(A)·op(B)` of host matrices through the GPU (feature `ndarray`), f32 out. `A` is M×K and `B` K×N as the
/// product sees them: a standard (row-major) view goes up as it is, a transposed view of a
/// standard array (`w.t()`) as the transposed layout without a copy, any other view is copied
/// first. Element type `T` is what the GPU multiplies; `to_elem` rounds an `f32` to it.
#[cfg(feature = "ndarray")]
pub fn ndarray_gemm<T: Element>(gpu: &Gpu, a: ArrayView2<'_, T>, b: ArrayView2<'_, T>, alpha: f32, choice: KernelChoice) -> Result<Array2<f32>> {
    let (m, k) = a.dim();
    let (k2, n) = b.dim();
    if k != k2 {
        return Err(Error::InvalidProblem(format!("A is {m}×{k} and B is {k2}×{n}: the inner sizes differ")));
    }
    let (a_data, a_op) = host_operand(a);
    let (b_data, b_op) = host_operand(b);
    let gemm = Gemm::new(m as u64, n as u64, k as u64).layout(Layout { a: a_op, b: b_op }).scalars(alpha, 0.0);
    let plan = gemm.plan::<T>(gpu, choice)?;
    let (_, _, lc) = plan.problem.extents();
    let stream = gpu.stream();
    let da = stream.clone_htod(&a_data)?;
    let db = stream.clone_htod(&b_data)?;
    let mut dc = stream.alloc_zeros::<f32>(lc)?;
    plan.run(gpu, &da, &db, &mut dc)?;
    let c = stream.clone_dtoh(&dc)?;
    Array2::from_shape_vec((m, n), c).map_err(|e| Error::InvalidProblem(e.to_string()))
}

/// The elements of an operand view in memory order and how they are stored: a standard layout
/// as `N`, the transpose of a standard layout as `T`, anything else copied into a standard one.
#[cfg(feature = "ndarray")]
fn host_operand<T: Copy>(view: ArrayView2<'_, T>) -> (Vec<T>, Op) {
    if view.is_standard_layout() {
        return (view.iter().copied().collect(), Op::N);
    }
    if view.t().is_standard_layout() {
        return (view.t().iter().copied().collect(), Op::T);
    }
    (view.iter().copied().collect(), Op::N)
}

#[cfg(test)]
mod tests {
    use super::overlaps;

    #[test]
    fn ranges_overlap_when_they_share_a_byte() {
        assert!(overlaps((100, 10), (109, 1)) && overlaps((109, 1), (100, 10)) && overlaps((100, 10), (90, 20)));
        assert!(!overlaps((100, 10), (110, 5)) && !overlaps((110, 5), (100, 10)));
        // An empty range (A when K = 0) overlaps nothing; the ends do not wrap.
        assert!(!overlaps((100, 0), (100, 10)) && !overlaps((u64::MAX - 1, 8), (0, 8)));
    }
}
