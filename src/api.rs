//! The library: `C = alpha·op(A)·op(B) + beta·C` on device buffers, safely.
//!
//! ```no_run
//! use rgemm::{Gpu, Layout, api::{Gemm, KernelChoice}};
//! # fn main() -> rgemm::Result<()> {
//! let gpu = Gpu::open()?;
//! // y = x·Wᵀ: x is 16×4096 (row-major), W is 11008×4096 as stored (N×K), bf16; y is f32.
//! let gemm = Gemm::new(16, 11008, 4096).layout(Layout::NT).plan::<half::bf16>(&gpu, KernelChoice::Auto)?;
//! let x = gpu.stream().alloc_zeros::<half::bf16>(16 * 4096)?;
//! let w = gpu.stream().alloc_zeros::<half::bf16>(11008 * 4096)?;
//! let mut y = gpu.stream().alloc_zeros::<f32>(16 * 11008)?;
//! gemm.run(&gpu, &x, &w, &mut y)?; // queued on gpu.stream(); nothing waits
//! # Ok(()) }
//! ```
//!
//! - [`Gemm`] describes the problem: sizes, [`Layout`], leading dimensions, a strided batch,
//!   alpha and beta. [`Gemm::plan`] validates it, picks the kernel (the fastest listed one that
//!   takes it, or the one named) and computes the launch once.
//! - [`Plan::run`] checks the buffers it is given against the problem (length of every operand
//!   with its padding and batch, alignment where the kernel needs it, C overlapping A or B) and
//!   launches on the context's stream. It never synchronises and allocates nothing, but for the
//!   first call with a new set of buffers to a kernel that reads tensor maps (128 bytes each,
//!   encoded once and kept).
//! - [`ndarray_gemm`] takes host `ArrayView2`s (standard or transposed views map to layouts,
//!   other strides are copied), runs the product and returns an `Array2<f32>`.
//!
//! Every error is a value ([`crate::Error`]); nothing here panics on bad input.

use cudarc::driver::{DevicePtr, DevicePtrMut, DeviceRepr};
use ndarray::{Array2, ArrayView2};

use crate::catalog::{self, Dtype, Kernel, Launch};
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::problem::{Batch, Layout, LeadingDims, Op, Problem};

/// An element type of A and B: f32, bf16 or f16 (`half`'s types).
pub trait Element: DeviceRepr + Copy {
    const DTYPE: Dtype;
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

/// Which kernel runs the product.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelChoice {
    /// The fastest listed kernel of the element type that takes the problem (see
    /// [`catalog::best_candidates`]); the general kernel when none of the fast ones does.
    Auto,
    /// A catalog kernel by name; an error if it cannot run the problem.
    Named(String),
}

/// A GEMM to be planned: sizes, layout, leading dimensions, batch and scalars.
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
}

impl Gemm {
    /// `C (M×N) = A (M×K) · B (K×N)`, row-major, alpha = 1, beta = 0.
    pub fn new(m: u64, n: u64, k: u64) -> Gemm {
        Gemm { m, n, k, alpha: 1.0, beta: 0.0, layout: Layout::NN, ld: LeadingDims::default(), batch: Batch::packed(1) }
    }

    /// How A and B are stored ([`Layout::NT`]: B given as N×K, a linear layer's weight).
    pub fn layout(self, layout: Layout) -> Gemm {
        Gemm { layout, ..self }
    }

    /// `C = alpha·op(A)·op(B) + beta·C` (C is read only when beta ≠ 0).
    pub fn scalars(self, alpha: f32, beta: f32) -> Gemm {
        Gemm { alpha, beta, ..self }
    }

    /// Leading dimensions (elements between stored rows), at least the stored row lengths.
    pub fn leading_dims(self, lda: u64, ldb: u64, ldc: u64) -> Gemm {
        Gemm { ld: LeadingDims { lda: Some(lda), ldb: Some(ldb), ldc: Some(ldc) }, ..self }
    }

    /// A strided batch of `count` products; strides in elements (0 broadcasts A or B).
    pub fn batch(self, count: u64, stride_a: u64, stride_b: u64, stride_c: u64) -> Gemm {
        Gemm { batch: Batch { count, stride_a: Some(stride_a), stride_b: Some(stride_b), stride_c: Some(stride_c) }, ..self }
    }

    /// A batch of `count` packed products (each matrix right after the previous one).
    pub fn packed_batch(self, count: u64) -> Gemm {
        Gemm { batch: Batch::packed(count), ..self }
    }

    /// The validated problem.
    pub fn problem(&self) -> Result<Problem> {
        Problem::general(self.m, self.n, self.k, self.alpha, self.beta, self.layout, self.ld, self.batch)
    }

    /// Validates the problem and picks its kernel for element type `T`.
    pub fn plan<T: Element>(&self, gpu: &Gpu, choice: KernelChoice) -> Result<Plan> {
        let problem = self.problem()?;
        let _ = gpu;
        let (kernel, geometry) = choose(T::DTYPE, &problem, &choice)?;
        Ok(Plan { problem, kernel, geometry })
    }
}

/// The kernel for `problem` and why: the first of the type's candidates that takes it, else
/// the general kernel of its layout.
pub fn choose(dtype: Dtype, problem: &Problem, choice: &KernelChoice) -> Result<(Kernel, Launch)> {
    match choice {
        KernelChoice::Named(name) => {
            let kernel = catalog::find(name)?;
            if kernel.spec.dtype != dtype {
                return Err(Error::Unsupported {
                    kernel: name.clone(),
                    reason: format!("it multiplies {}, the operands are {}", kernel.spec.dtype.name(), dtype.name()),
                });
            }
            let geometry = kernel.geometry(problem)?;
            Ok((kernel, geometry))
        }
        KernelChoice::Auto => {
            for kernel in catalog::auto_candidates(dtype) {
                if let Ok(geometry) = kernel.geometry(problem) {
                    return Ok((kernel, geometry));
                }
            }
            Err(Error::Unsupported { kernel: "auto".into(), reason: format!("no {} kernel takes {problem}", dtype.name()) })
        }
    }
}

/// A planned GEMM: the problem, its kernel and launch.
#[derive(Clone, Debug)]
pub struct Plan {
    problem: Problem,
    kernel: Kernel,
    geometry: Launch,
}

impl Plan {
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Queues the product on `gpu`'s stream after checking the buffers against the problem.
    /// `a` and `b` hold elements of the type the plan was made for; `c` is f32.
    pub fn run<T: Element>(&self, gpu: &Gpu, a: &impl DevicePtr<T>, b: &impl DevicePtr<T>, c: &mut impl DevicePtrMut<f32>) -> Result<()> {
        if T::DTYPE != self.kernel.spec.dtype {
            return Err(Error::InvalidArgument(format!("the plan is for {} operands, these are {}", self.kernel.spec.dtype.name(), T::DTYPE.name())));
        }
        let (la, lb, lc) = self.problem.extents();
        for (name, need, have) in [("A", la, a.len()), ("B", lb, b.len()), ("C", lc, c.len())] {
            if have < need {
                return Err(Error::InvalidArgument(format!("{name} holds {have} elements; {} needs {need}", self.problem)));
            }
        }
        let stream = gpu.stream();
        let (pa, _ra) = a.device_ptr(stream);
        let (pb, _rb) = b.device_ptr(stream);
        let (pc, _rc) = c.device_ptr_mut(stream);
        let bytes = T::DTYPE.bytes() as u64;
        let ranges = [(pa, la as u64 * bytes), (pb, lb as u64 * bytes)];
        let c_range = (pc, lc as u64 * 4);
        if let Some(name) = ["A", "B"].iter().zip(ranges).find(|(_, r)| overlaps(*r, c_range)).map(|(n, _)| n) {
            return Err(Error::InvalidArgument(format!("C overlaps {name}: the product would read what it writes")));
        }
        let elem_align = T::DTYPE.bytes() as u64;
        if pa % elem_align != 0 || pb % elem_align != 0 || pc % 4 != 0 {
            return Err(Error::InvalidArgument("A, B and C must be aligned to their element size".into()));
        }
        if self.kernel.needs_aligned_matrices() && (pa % 16 != 0 || pb % 16 != 0 || pc % 16 != 0) {
            return Err(Error::Unsupported {
                kernel: self.kernel.name().into(),
                reason: "it needs A, B and C to start on 16-byte boundaries (the general kernels take any start: name one, e.g. sgemm_00_general_16x16x16)".into(),
            });
        }
        // SAFETY: the buffers are at least as long as the problem's extents (checked above), of
        // the kernel's element type, aligned as the kernel needs, C does not overlap A or B, and
        // the geometry is the kernel's own for this problem (made in `Gemm::plan`).
        unsafe { gpu.launch(self.kernel, &self.geometry, &self.problem, pa, pb, pc) }
    }
}

fn overlaps((a, la): (u64, u64), (b, lb): (u64, u64)) -> bool {
    la > 0 && lb > 0 && a < b.saturating_add(lb) && b < a.saturating_add(la)
}

/// `alpha·op(A)·op(B)` of host matrices through the GPU, f32 out. `A` is M×K and `B` K×N as the
/// product sees them: a standard (row-major) view goes up as it is, a transposed view of a
/// standard array (`w.t()`) as the transposed layout without a copy, any other view is copied
/// first. Element type `T` is what the GPU multiplies; `to_elem` rounds an `f32` to it.
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
    Array2::from_shape_vec((m, n), c).map_err(|e| Error::InvalidArgument(e.to_string()))
}

/// The elements of an operand view in memory order and how they are stored: a standard layout
/// as `N`, the transpose of a standard layout as `T`, anything else copied into a standard one.
fn host_operand<T: Copy>(view: ArrayView2<'_, T>) -> (Vec<T>, Op) {
    if view.is_standard_layout() {
        return (view.iter().copied().collect(), Op::N);
    }
    if view.t().is_standard_layout() {
        return (view.t().iter().copied().collect(), Op::T);
    }
    (view.iter().copied().collect(), Op::N)
}
