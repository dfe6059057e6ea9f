//! Correctness: random inputs, the f64 reference, and an element-wise error bound.
//!
//! The rules: never test on zeros (uniform values in [-1, 1) from a seed), poison the output
//! before each run (NaN where the old C is not an input), compare every element against a
//! reference computed in f64, and let NaN fail. How far an element may be from the reference
//! follows from the rounding error analysis of a length-K dot product ([`ErrorModel`]): the bound
//! grows with K and with the magnitudes `|alpha|·|A|·|B| + |beta|·|C₀|` of that element, so a
//! correct kernel passes at any K and a wrong element fails however large C is. The relative
//! Frobenius error is reported beside it, as one figure for the whole matrix.

use ndarray::{Array2, ArrayView2, Zip};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use rgemm::catalog::{Dtype, KernelSpec};
use crate::tool_error::{ToolError, ToolResult};
use rgemm::problem::Problem;

/// λ of the probabilistic bound: each element's bound holds with probability at least
/// `1 − 2·n·exp(−λ²(1−u)²/2)` (Higham and Mary, 2019), below 10⁻¹⁵ per element for n ≤ 2²⁰.
pub const LAMBDA: f64 = 10.0;

/// How a kernel's arithmetic rounds, which is what its error bound depends on.
///
/// A dot product of length K summed in a precision with unit round-off u (in any order, with or
/// without FMA) is within `γ(n)·Σ|aᵢ||bᵢ|` of the exact one, n = K + 2 roundings counting the
/// scaling by alpha and the sum with beta·C₀. The worst case is `γ(n) = n·u/(1 − n·u)`; rounding
/// errors of random data are independent and of mean zero, and then `γ̃(n) = exp(λ·√n·u +
/// n·u²/(1−u)) − 1 ≈ λ·√n·u` holds with overwhelming probability (see [`LAMBDA`]). The bound
/// used is the smaller of the two.
// ANCHOR: error_model
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorModel {
    /// Unit round-off of one accumulation: 2⁻²⁴ for f32 FMAs (round to nearest); 2⁻²³ for tensor
    /// cores, which align the products of a k-slice and truncate instead of rounding.
    pub accumulation: f64,
    /// Relative error of each operand as the hardware reads it that the reference does not see;
    /// 0 when the reference multiplies the same (already rounded) values.
    pub operand_rounding: f64,
    /// FP8 (rung 16): the K-tiles of 128 the tensor cores sum before the kernel adds their sum
    /// into f32 (0: all of K); `None` for the other types. See [`ErrorModel::fp8`].
    pub fp8_flush: Option<u32>,
}

impl ErrorModel {
    /// fp32 kernels on the CUDA cores, and cublasSgemm: FMA, round to nearest.
    pub const FMA_F32: ErrorModel = ErrorModel { accumulation: 1.0 / (1u64 << 24) as f64, operand_rounding: 0.0, fp8_flush: None };
    /// bf16/f16 products on tensor cores (mma.sync, wgmma, cuBLAS's GemmEx) accumulated in f32:
    /// the products are exact (8- or 11-bit significands), the sums truncate.
    pub const TENSOR_CORE_F32: ErrorModel = ErrorModel { accumulation: 1.0 / (1u64 << 23) as f64, operand_rounding: 0.0, fp8_flush: None };

    /// fp32 as three tf32 tensor-core products (rung 15, `kernels-gpu/src/15_tf32x3.rs`): the
    /// tensor cores' sums truncate (2⁻²³), and each product `a·b` is computed from `hi + lo` of
    /// each operand as the tensor cores read them, without the `lo_a·lo_b` term. With the
    /// loosest split (`Raw`: `hi` and `lo` both truncated) `hi + lo` is within 2⁻²⁰·|x| of x and
    /// `lo_a·lo_b` at most 2⁻²⁰·|a·b|: at most 3·2⁻²⁰·|a·b| in all, which an operand rounding of
    /// 1.5·2⁻²⁰ on each side covers (the truncated split stays within 2·2⁻²⁰, the rounded one
    /// within 0.75·2⁻²⁰). At small K this term, not the sum's, dominates the bound.
    pub const TF32X3: ErrorModel = ErrorModel { accumulation: 1.0 / (1u64 << 23) as f64, operand_rounding: 3.0 / (1u64 << 21) as f64, fp8_flush: None };

    /// FP8 products on the tensor cores, their sums added into f32 every `flush` K-tiles of 128
    /// (0: never; rung 16, `kernels-gpu/src/16_fp8.rs`). The products are exact (4-bit
    /// significands). Each 32-element step aligns its 32 products and the running sum to the
    /// largest of them and keeps about 14 significant bits of that one (u = 2⁻¹³, truncated):
    /// 33 cuts of at most u times the step's largest term, and one more of the result, each at
    /// most u of the chain's `Σ|a||b|` so far. Truncations do not average out (on one-sign data an
    /// H200 drifted by 7% over K = 4096 without a flush), so the chain is bounded in the worst
    /// case, 34 roundings per step. The flushed sums are then added in f32 (round to nearest).
    pub const fn fp8(flush: u32) -> ErrorModel {
        ErrorModel { accumulation: 1.0 / (1u64 << 24) as f64, operand_rounding: 0.0, fp8_flush: Some(flush) }
    }

    /// Unit round-off of the tensor cores' FP8 sums ([`ErrorModel::fp8`]).
    pub const FP8_SUM_UNIT: f64 = 1.0 / (1u64 << 13) as f64;
    /// Roundings per 32-element step of an FP8 chain: 33 aligned terms and the result
    /// ([`ErrorModel::fp8`]).
    pub const FP8_ROUNDINGS_PER_STEP: f64 = 34.0;

    /// The model of a kernel: which units multiply its operand type, and how.
    pub fn of(spec: &KernelSpec) -> ErrorModel {
        if spec.rung.slug == kernels_gpu::tf32x3::RUNG.slug {
            return Self::TF32X3;
        }
        if let rgemm_spec::Variant::Fp8(flush) = spec.variant {
            return Self::fp8(flush);
        }
        Self::of_dtype(spec.dtype)
    }

    /// The model of f32-accumulating arithmetic on `dtype` operands (cuBLAS's too; for FP8 the
    /// loosest, a sum through all of K in the tensor cores, since cuBLASLt does not say how often
    /// it flushes).
    pub fn of_dtype(dtype: Dtype) -> ErrorModel {
        match dtype {
            Dtype::F32 => Self::FMA_F32,
            Dtype::Bf16 | Dtype::F16 => Self::TENSOR_CORE_F32,
            Dtype::E4m3 => Self::fp8(0),
        }
    }

    /// The worst-case relative bound of a length-`k` product: `γ(n) = n·u/(1 − n·u)`, n = K + 2
    /// (infinite where n·u ≥ 1: the worst case then says nothing). FP8: the tensor cores' chain
    /// and the f32 sum of the flushed chains, each in the worst case.
    pub fn worst_case_gamma(&self, k: u32) -> f64 {
        let (tensor, f32_terms) = self.fp8_chain(k);
        let g = worst_gamma(f32_terms, self.accumulation);
        self.with_operands(compose(tensor, g))
    }

    /// The relative bound used: `min(γ(n), γ̃(n))`, n = K + 2, plus the operands' own rounding.
    /// FP8: the tensor cores' chain in the worst case, composed with the f32 sum's `min(γ, γ̃)`.
    pub fn gamma(&self, k: u32) -> f64 {
        let (tensor, f32_terms) = self.fp8_chain(k);
        let n = f32_terms;
        let u = self.accumulation;
        let probabilistic = (LAMBDA * n.sqrt() * u + n * u * u / (1.0 - u)).exp_m1();
        self.with_operands(compose(tensor, probabilistic.min(worst_gamma(n, u))))
    }

    /// The FP8 tensor-core chain's worst-case γ (0 for the other types) and the number of
    /// roundings of the f32 sum that follows (K + 2 for the other types).
    fn fp8_chain(&self, k: u32) -> (f64, f64) {
        let Some(flush) = self.fp8_flush else { return (0.0, k as f64 + 2.0) };
        let steps = k.div_ceil(32).max(1);
        let chain = if flush == 0 { steps } else { steps.min(4 * flush) };
        let flushes = if flush == 0 { 1 } else { k.div_ceil(128 * flush).max(1) };
        (worst_gamma(Self::FP8_ROUNDINGS_PER_STEP * chain as f64, Self::FP8_SUM_UNIT), flushes as f64 + 2.0)
    }

    /// `(1 + g)(1 + r)² − 1`: each product also carries the rounding of its two operands.
    fn with_operands(&self, g: f64) -> f64 {
        let r = self.operand_rounding;
        compose(g, r * (2.0 + r))
    }

    /// The bound on |C − C_ref| of an element whose magnitude `|alpha|·Σ|a||b| + |beta|·|c₀|` is
    /// `magnitude`, plus what gradual underflow can add (half of f32's smallest subnormal per rounding).
    pub fn bound(&self, k: u32, magnitude: f64) -> f64 {
        self.bounds(k)(magnitude)
    }

    /// [`ErrorModel::bound`] for one K, as a function of the magnitude (γ computed once).
    pub fn bounds(&self, k: u32) -> impl Fn(f64) -> f64 + use<> {
        let (gamma, floor) = (self.gamma(k), (k as f64 + 2.0) * SUBNORMAL_HALF_ULP);
        // An infinite γ (a worst case that says nothing) bounds nothing, zero magnitudes included.
        move |magnitude| if gamma.is_infinite() { f64::INFINITY } else { gamma * magnitude + floor }
    }
}
// ANCHOR_END: error_model

/// `γ(n) = n·u/(1 − n·u)`, infinite where n·u ≥ 1.
fn worst_gamma(n: f64, u: f64) -> f64 {
    let nu = n * u;
    if nu < 1.0 { nu / (1.0 - nu) } else { f64::INFINITY }
}

/// The relative bound of two roundings in sequence: `(1 + a)(1 + b) − 1` (infinite where either
/// is: that worst case says nothing).
fn compose(a: f64, b: f64) -> f64 {
    if a.is_infinite() || b.is_infinite() { f64::INFINITY } else { a + b + a * b }
}

/// Half of f32's smallest subnormal: the absolute error of one rounding in the underflow range.
const SUBNORMAL_HALF_ULP: f64 = 1.401298464324817e-45 / 2.0;

/// `v` rounded to the nearest value of `dtype` (ties to even).
pub fn round_to(dtype: Dtype, v: f32) -> f32 {
    match dtype {
        Dtype::F32 => v,
        Dtype::Bf16 => half::bf16::from_f32(v).to_f32(),
        Dtype::F16 => half::f16::from_f32(v).to_f32(),
        Dtype::E4m3 => rgemm::E4m3::from_f32(v).to_f32(),
    }
}

/// The bytes of `values` (already representable in `dtype`) as the GPU stores them.
pub fn encode(dtype: Dtype, values: &[f32]) -> Vec<u8> {
    match dtype {
        Dtype::F32 => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        Dtype::Bf16 => values.iter().flat_map(|&v| half::bf16::from_f32(v).to_le_bytes()).collect(),
        Dtype::F16 => values.iter().flat_map(|&v| half::f16::from_f32(v).to_le_bytes()).collect(),
        Dtype::E4m3 => values.iter().map(|&v| rgemm::E4m3::from_f32(v).0).collect(),
    }
}

/// Written into C before a run wherever the old C is not an input (beta = 0): a kernel that skips
/// an element leaves NaN, which fails the check.
// ANCHOR: poison
pub const POISON: f32 = f32::from_bits(0x7fc0_dead);
// ANCHOR_END: poison

/// The inputs of one check: A, B and the initial C, as the products see them (whatever the
/// layout: A as M×K, B as K×N, row-major, matrix after matrix of the batch; a broadcast operand
/// has one matrix). [`crate::storage`] lays them out as the problem stores them.
pub struct Inputs {
    /// Element type of A and B; `a` and `b` hold values exactly representable in it.
    pub dtype: Dtype,
    pub a: Vec<f32>,
    pub b: Vec<f32>,
    /// Random when beta ≠ 0 (it is an input then), otherwise all [`POISON`].
    pub c: Vec<f32>,
}

impl Inputs {
    /// Product `z`'s A (M×K), B (K×N) and initial C (M×N), row-major.
    pub fn product(&self, problem: &Problem, z: usize) -> (&[f32], &[f32], &[f32]) {
        let (m, n, k) = (problem.m as usize, problem.n as usize, problem.k as usize);
        let za = if problem.matrices_a() == 1 { 0 } else { z };
        let zb = if problem.matrices_b() == 1 { 0 } else { z };
        (&self.a[za * m * k..(za + 1) * m * k], &self.b[zb * k * n..(zb + 1) * k * n], &self.c[z * m * n..(z + 1) * m * n])
    }
}

impl Inputs {
    /// Fresh random inputs for `problem`, reproducible from `seed`, with A and B rounded to
    /// `dtype` (the reference then multiplies exactly what the GPU multiplies).
    pub fn random(problem: &Problem, dtype: Dtype, seed: u64) -> Inputs {
        Self::random_in(problem, dtype, seed, -1.0)
    }

    /// [`Inputs::random`] with A, B and C₀ uniform in [0, 1): every product of one sign, where
    /// the tensor cores' truncation does not average out and the probabilistic bound is tested
    /// where it is tightest.
    pub fn random_one_sign(problem: &Problem, dtype: Dtype, seed: u64) -> Inputs {
        Self::random_in(problem, dtype, seed, 0.0)
    }

    /// Values uniform in [low, 1); C₀ (an input when beta ≠ 0) rounded to C's type.
    fn random_in(problem: &Problem, dtype: Dtype, seed: u64, low: f32) -> Inputs {
        let mut rng = StdRng::seed_from_u64(seed);
        let (la, lb, lc) = problem.elems();
        let mut values = |len: usize, to: Dtype| -> Vec<f32> { (0..len).map(|_| round_to(to, rng.random_range(low..1.0f32))).collect() };
        let a = values(la, dtype);
        let b = values(lb, dtype);
        let c = if problem.beta == 0.0 { vec![POISON; lc] } else { values(lc, problem.epilogue.output) };
        Inputs { dtype, a, b, c }
    }
}

/// `len` values uniform in [-1, 1): mean zero, so errors do not hide behind a large mean.
pub fn random_values(rng: &mut impl Rng, len: usize) -> Vec<f32> {
    (0..len).map(|_| rng.random_range(-1.0f32..1.0)).collect()
}

fn view(data: &[f32], rows: u32, cols: u32) -> ArrayView2<'_, f32> {
    ArrayView2::from_shape((rows as usize, cols as usize), data).expect("matrix shape matches its data")
}

fn to_f64(m: ArrayView2<'_, f32>) -> Array2<f64> {
    m.mapv(f64::from)
}

/// `alpha·A·B + beta·C` in f64 for every product of the batch (C is read only when beta ≠ 0):
/// `batch·M` rows of N, product after product.
pub fn reference(problem: &Problem, inputs: &Inputs) -> Array2<f64> {
    let (m, n) = (problem.m as usize, problem.n as usize);
    let mut out = Array2::<f64>::zeros((problem.batch as usize * m, n));
    for z in 0..problem.batch as usize {
        let (a, b, c) = inputs.product(problem, z);
        let a = to_f64(view(a, problem.m, problem.k));
        let b = to_f64(view(b, problem.k, problem.n));
        let mut block = out.slice_mut(ndarray::s![z * m..(z + 1) * m, ..]);
        block.assign(&(a.dot(&b) * problem.alpha as f64));
        if problem.beta != 0.0 {
            block.scaled_add(problem.beta as f64, &to_f64(view(c, problem.m, problem.n)));
        }
    }
    out
}

/// What each element's error scales with: `|alpha|·|A|·|B| + |beta|·|C₀|` in f64, for every
/// product of the batch (stacked as [`reference()`] stacks them).
pub fn magnitude(problem: &Problem, inputs: &Inputs) -> Array2<f64> {
    let (m, n) = (problem.m as usize, problem.n as usize);
    let mut out = Array2::<f64>::zeros((problem.batch as usize * m, n));
    for z in 0..problem.batch as usize {
        let (a, b, c) = inputs.product(problem, z);
        let a = view(a, problem.m, problem.k).mapv(|v| (v as f64).abs());
        let b = view(b, problem.k, problem.n).mapv(|v| (v as f64).abs());
        let mut block = out.slice_mut(ndarray::s![z * m..(z + 1) * m, ..]);
        block.assign(&(a.dot(&b) * (problem.alpha as f64).abs()));
        if problem.beta != 0.0 {
            block.scaled_add((problem.beta as f64).abs(), &view(c, problem.m, problem.n).mapv(|v| (v as f64).abs()));
        }
    }
    out
}

/// Every element of `got` (all of C, product after product) against the full f64 reference,
/// each within its bound (rows counted across the batch).
pub fn compare_full(problem: &Problem, inputs: &Inputs, model: &ErrorModel, got: &[f32]) -> Comparison {
    let want = reference(problem, inputs);
    let magnitude = magnitude(problem, inputs);
    let (n, bound) = (problem.n as usize, model.bounds(problem.k));
    let mut cmp = Comparison::default();
    let mut index = 0usize;
    Zip::from(&want).and(&magnitude).for_each(|&w, &mag| {
        cmp.add(index / n, index % n, got[index], w, bound(mag));
        index += 1;
    });
    cmp
}

/// Euclidean norms of A's rows and B's columns, in f64, product after product (`batch·M` rows,
/// `batch·N` columns): `‖aᵢ‖·‖bⱼ‖` bounds `Σₖ|aᵢₖ||bₖⱼ|` (Cauchy–Schwarz) at the cost of reading A
/// and B once, where the full `|A|·|B|` would cost a second product.
pub fn row_and_column_norms(problem: &Problem, inputs: &Inputs) -> (Vec<f64>, Vec<f64>) {
    let (n, k) = (problem.n as usize, problem.k as usize);
    let (mut rows, mut cols) = (Vec::new(), Vec::new());
    for z in 0..problem.batch as usize {
        let (a, b, _) = inputs.product(problem, z);
        rows.extend(a.chunks(k).map(|r| r.iter().map(|&v| v as f64 * v as f64).sum::<f64>().sqrt()));
        let mut sums = vec![0.0f64; n];
        for row in b.chunks(n) {
            for (s, &v) in sums.iter_mut().zip(row) {
                *s += v as f64 * v as f64;
            }
        }
        cols.extend(sums.iter().map(|s| s.sqrt()));
    }
    (rows, cols)
}

/// `got` against another f32 computation of the same product (cuBLAS's), each element within the
/// sum of both computations' bounds, on magnitudes bounded through [`row_and_column_norms`].
pub fn compare_computed(problem: &Problem, inputs: &Inputs, model: &ErrorModel, other_model: &ErrorModel, got: &[f32], other: &[f32]) -> Comparison {
    let (rows, cols) = row_and_column_norms(problem, inputs);
    let (m, n) = (problem.m as usize, problem.n as usize);
    let (bound, other_bound) = (model.bounds(problem.k), other_model.bounds(problem.k));
    let (alpha, beta) = ((problem.alpha as f64).abs(), (problem.beta as f64).abs());
    let mut cmp = Comparison::default();
    for (row, &norm_a) in rows.iter().enumerate() {
        let z = row / m;
        for (col, &norm_b) in cols[z * n..(z + 1) * n].iter().enumerate() {
            let i = row * n + col;
            let old = if beta != 0.0 { beta * (inputs.c[i] as f64).abs() } else { 0.0 };
            let magnitude = alpha * norm_a * norm_b + old;
            let bound = bound(magnitude) + other_bound(magnitude);
            // A non-finite "want" (cuBLAS failing) fails the comparison like a non-finite "got".
            let want = other[i] as f64;
            cmp.add(row, col, got[i], if want.is_finite() { want } else { f64::NAN }, bound);
        }
    }
    cmp
}

/// The outcome of comparing elements with their references: how many exceed their bound, the
/// element closest to (or furthest past) its bound, and the relative Frobenius error.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub compared: usize,
    /// Elements outside their bound, non-finite ones included.
    pub over: usize,
    /// The largest `|got − want| / bound`; NaN once any element is NaN or infinite.
    pub worst_ratio: f64,
    /// (row, col, got, want, bound) of that element.
    pub worst: Option<(usize, usize, f32, f64, f64)>,
    diff2: f64,
    norm2: f64,
    nonfinite: bool,
}

impl Default for Comparison {
    fn default() -> Self {
        Comparison { compared: 0, over: 0, worst_ratio: 0.0, worst: None, diff2: 0.0, norm2: 0.0, nonfinite: false }
    }
}

impl Comparison {
    /// Adds one element: `got` against `want` within `bound`.
    pub fn add(&mut self, row: usize, col: usize, got: f32, want: f64, bound: f64) {
        self.compared += 1;
        let diff = (got as f64 - want).abs();
        if !got.is_finite() || !diff.is_finite() {
            self.over += 1;
            if !self.nonfinite {
                self.worst = Some((row, col, got, want, bound));
            }
            self.nonfinite = true;
            self.worst_ratio = f64::NAN;
            return;
        }
        self.diff2 += diff * diff;
        self.norm2 += want * want;
        let ratio = if bound > 0.0 { diff / bound } else if diff == 0.0 { 0.0 } else { f64::INFINITY };
        if !(ratio <= 1.0) {
            self.over += 1;
        }
        if !self.nonfinite && (self.worst.is_none() || ratio > self.worst_ratio) {
            self.worst_ratio = ratio;
            self.worst = Some((row, col, got, want, bound));
        }
    }

    /// Every element within its bound (NaN compares false, so NaN fails).
    pub fn passed(&self) -> bool {
        self.over == 0 && self.worst_ratio <= 1.0 && !self.nonfinite
    }

    /// ‖got − want‖_F / ‖want‖_F over the elements compared; NaN if any was NaN or infinite.
    pub fn relative_error(&self) -> f64 {
        if self.nonfinite {
            return f64::NAN;
        }
        if self.norm2 == 0.0 {
            return if self.diff2 == 0.0 { 0.0 } else { f64::INFINITY };
        }
        (self.diff2 / self.norm2).sqrt()
    }
}

impl std::fmt::Display for Comparison {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.passed() {
            write!(f, "largest error {:.2e} of its bound", self.worst_ratio)?;
        } else {
            write!(f, "{} of {} elements outside their bound", self.over, self.compared)?;
            if let Some((row, col, got, want, bound)) = self.worst {
                write!(f, ", worst C[{row}, {col}] = {got:e}, expected {want:e} ± {bound:.2e}")?;
            }
        }
        write!(f, ", relative Frobenius error {:.2e}", self.relative_error())
    }
}

/// ‖got − want‖_F / ‖want‖_F over the pairs given; NaN if any value of `got` is NaN or infinite.
// ANCHOR: relative_error
pub fn relative_error(pairs: impl IntoIterator<Item = (f32, f64)>) -> f64 {
    let (mut diff, mut norm) = (0.0f64, 0.0f64);
    for (g, w) in pairs {
        if !g.is_finite() {
            return f64::NAN;
        }
        let d = g as f64 - w;
        diff += d * d;
        norm += w * w;
    }
    if norm == 0.0 {
        return if diff == 0.0 { 0.0 } else { f64::INFINITY };
    }
    (diff / norm).sqrt()
}
// ANCHOR_END: relative_error

/// Relative error of a whole output against a full reference.
pub fn relative_error_full(got: &[f32], want: &Array2<f64>) -> f64 {
    relative_error(got.iter().copied().zip(want.iter().copied()))
}

/// Rows and columns of C to recompute in f64 when the full reference would be too slow.
#[derive(Clone, Debug)]
pub struct Sample {
    pub rows: Vec<usize>,
    pub cols: Vec<usize>,
}

impl Sample {
    /// `count` random rows and columns (the first and last included, where tails live).
    pub fn random(problem: &Problem, count: usize, seed: u64) -> Sample {
        let mut rng = StdRng::seed_from_u64(seed ^ 0x5a5a_5a5a);
        let mut pick = |len: u32| {
            let len = len as usize;
            let mut v: Vec<usize> = vec![0, len - 1];
            v.extend((0..count.saturating_sub(2)).map(|_| rng.random_range(0..len)));
            v.sort_unstable();
            v.dedup();
            v
        };
        Sample { rows: pick(problem.m), cols: pick(problem.n) }
    }

    /// Relative error of `got` (all of C, product after product) on the sampled rows and
    /// columns of the first and the last product, against f64.
    pub fn relative_error(&self, problem: &Problem, inputs: &Inputs, got: &[f32]) -> f64 {
        self.compare(problem, inputs, &ErrorModel::FMA_F32, got).relative_error()
    }

    /// `got` (all of C, product after product) on the sampled rows and columns of the first and
    /// the last product against f64, element by element (rows counted across the batch).
    pub fn compare(&self, problem: &Problem, inputs: &Inputs, model: &ErrorModel, got: &[f32]) -> Comparison {
        let mut cmp = Comparison::default();
        let bound = model.bounds(problem.k);
        self.walk(problem, inputs, |index, row, col, want, magnitude| cmp.add(row, col, got[index], want, bound(magnitude)));
        cmp
    }

    /// [`Sample::compare`] through a fused epilogue ([`compare_epilogue`]'s bounds): C, and the
    /// auxiliary output where there is one.
    pub fn compare_epilogue(&self, problem: &Problem, inputs: &Inputs, model: &ErrorModel, check: &EpilogueCheck, got_c: &[f32], got_aux: Option<&[f32]>) -> (Comparison, Option<Comparison>) {
        let (mut c_cmp, mut aux_cmp) = (Comparison::default(), Comparison::default());
        let (m, bound) = (problem.m as usize, model.bounds(problem.k + 1));
        self.walk(problem, inputs, |index, row, col, want, magnitude| {
            let bias = check.bias_at(row % m, col);
            let ((d, d_bound), (pre, pre_bound)) = check.finish(want + bias, bound(magnitude + bias.abs()));
            c_cmp.add(row, col, got_c[index], d, d_bound);
            if let Some(aux) = got_aux {
                aux_cmp.add(row, col, aux[index], pre, pre_bound);
            }
        });
        (c_cmp, got_aux.map(|_| aux_cmp))
    }

    /// Calls `visit(index, row, col, want, magnitude)` for every sampled element of the first and
    /// the last product: its index in all of C, its row (counted across the batch) and column,
    /// `alpha·A·B + beta·C₀` in f64 and `|alpha|·|A|·|B| + |beta|·|C₀|`.
    fn walk(&self, problem: &Problem, inputs: &Inputs, mut visit: impl FnMut(usize, usize, usize, f64, f64)) {
        let (m, n, k) = (problem.m as usize, problem.n as usize, problem.k as usize);
        let mut products = vec![0, problem.batch as usize - 1];
        products.dedup();
        for z in products {
            let (a, b, c0) = inputs.product(problem, z);
            let mut add = |row: usize, col: usize, dot: f64, abs_dot: f64| {
                let (mut want, mut magnitude) = (problem.alpha as f64 * dot, (problem.alpha as f64).abs() * abs_dot);
                if problem.beta != 0.0 {
                    want += problem.beta as f64 * c0[row * n + col] as f64;
                    magnitude += (problem.beta as f64 * c0[row * n + col] as f64).abs();
                }
                visit((z * m + row) * n + col, z * m + row, col, want, magnitude);
            };
            for &row in &self.rows {
                // One row of C: A's row times B, walking B row by row (contiguous).
                let (mut dots, mut abs_dots) = (vec![0.0f64; n], vec![0.0f64; n]);
                for i in 0..k {
                    let x = a[row * k + i] as f64;
                    for ((d, s), &y) in dots.iter_mut().zip(abs_dots.iter_mut()).zip(&b[i * n..(i + 1) * n]) {
                        *d += x * y as f64;
                        *s += (x * y as f64).abs();
                    }
                }
                for col in 0..n {
                    add(row, col, dots[col], abs_dots[col]);
                }
            }
            for &col in &self.cols {
                // One column of C: gather B's column once, then dot it with every row of A.
                let b_col: Vec<f64> = (0..k).map(|i| b[i * n + col] as f64).collect();
                for row in 0..m {
                    let (mut dot, mut abs_dot) = (0.0f64, 0.0f64);
                    for (&x, &y) in a[row * k..(row + 1) * k].iter().zip(&b_col) {
                        dot += x as f64 * y;
                        abs_dot += (x as f64 * y).abs();
                    }
                    add(row, col, dot, abs_dot);
                }
            }
        }
    }
}

/// Bytes of host memory a check of `problem` allocates at its peak: the inputs (f32), their
/// stored and encoded copies, C as stored, downloaded and computed, and either the full f64
/// reference with its magnitudes or a second f32 result (cuBLAS's) with row and column norms.
/// `None` if it does not fit in u64.
pub fn host_bytes(problem: &Problem, full_reference: bool) -> Option<u64> {
    let (la, lb, lc) = problem.elems();
    let (sa, sb, sc) = problem.extents();
    let [la, lb, lc, sa, sb, sc] = [la, lb, lc, sa, sb, sc].map(|v| v as u128);
    let inputs = 4 * (la + lb + lc) + 2 * 4 * (sa + sb) + 3 * 4 * sc + 4 * lc;
    let (m, n, batch) = (problem.m as u128, problem.n as u128, problem.batch as u128);
    let judging = if full_reference { 2 * 8 * (la + lb) + 3 * 8 * lc } else { 4 * sc + 4 * lc + 8 * batch * (m + n) };
    u64::try_from(inputs + judging).ok()
}

/// Fails with a one-line error unless `bytes` of host memory are available (where the system
/// says how much is: `MemAvailable` of /proc/meminfo on Linux).
pub fn require_host_memory(bytes: Option<u64>) -> ToolResult<()> {
    let available = available_host_memory();
    match (bytes, available) {
        (Some(need), Some(free)) if need <= free => Ok(()),
        (Some(_), None) => Ok(()),
        (need, free) => Err(ToolError::OutOfHostMemory {
            need: need.map_or_else(|| "more than 2⁶⁴ bytes".to_string(), |b| format!("{} MiB", b >> 20)),
            available_mib: free.unwrap_or(0) >> 20,
        }),
    }
}

/// Bytes of host memory available to a new allocation, if the system says: `MemAvailable`, or less
/// where the process's cgroup (v2) allows less.
pub fn available_host_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let available = line.split_whitespace().nth(1)?.parse::<u64>().ok()?.checked_mul(1024)?;
    let read = |name: &str| std::fs::read_to_string(format!("/sys/fs/cgroup/{name}")).ok().and_then(|t| t.trim().parse::<u64>().ok());
    let cgroup = match (read("memory.max"), read("memory.current")) {
        (Some(max), Some(current)) => Some(max.saturating_sub(current)),
        _ => None,
    };
    Some(cgroup.map_or(available, |c| c.min(available)))
}

/// The fused epilogue in the reference: what `act(pre)` and the output rounding add to the
/// error of `pre = alpha·A·B + beta·C₀ + bias` (kernels-gpu/src/epilogue.rs).
///
/// The bound of an element of C becomes, with `b` the bound of `pre` (one more rounding than the
/// product's, for the bias), `L = 1.13` the steepest slope of GELU and SiLU (1 for ReLU and the
/// identity), `e(x) = (8·2⁻²⁴ + 0.75·10⁻⁷)·|x|` the activation's own error (the fast exponential
/// and reciprocal, and erf's approximation; 0 for ReLU and the identity) and `u` the output
/// type's unit round-off: `L·b + e(|pre| + b) + u·(|act(pre)| + L·b + e)` plus half the output
/// type's smallest subnormal. The auxiliary output (the pre-activation, rounded) is within
/// `b + u·(|pre| + b)`.
#[derive(Clone, Debug, PartialEq)]
pub struct EpilogueCheck {
    pub epilogue: rgemm::FusedEpilogue,
    /// The bias as the kernel reads it (values of the output type): N values, or M, or none.
    pub bias: Vec<f32>,
}

impl EpilogueCheck {
    /// The epilogue of `problem` with a random bias (uniform in [-1, 1), rounded to the output
    /// type) from `seed`.
    pub fn random(problem: &Problem, seed: u64) -> EpilogueCheck {
        let e = problem.epilogue;
        let len = problem.bias_len();
        let mut rng = StdRng::seed_from_u64(seed ^ 0xb1a5);
        let bias = random_values(&mut rng, len).into_iter().map(|v| round_to(e.output, v)).collect();
        EpilogueCheck { epilogue: e, bias }
    }

    /// The bias at (row, col) of C, 0 without one.
    pub fn bias_at(&self, row: usize, col: usize) -> f64 {
        match self.epilogue.bias {
            rgemm::Bias::None => 0.0,
            rgemm::Bias::PerColumn => self.bias[col] as f64,
            rgemm::Bias::PerRow => self.bias[row] as f64,
        }
    }

    /// The output type's unit round-off (0 for f32, whose rounding the product's bound holds).
    fn unit(&self) -> f64 {
        match self.epilogue.output {
            Dtype::F32 => 0.0,
            Dtype::Bf16 => 1.0 / 256.0,
            Dtype::F16 => 1.0 / 2048.0,
            Dtype::E4m3 => 1.0 / 16.0,
        }
    }

    /// Half the output type's smallest subnormal: what rounding into its underflow range adds.
    fn floor(&self) -> f64 {
        match self.epilogue.output {
            Dtype::F32 => 0.0,
            Dtype::Bf16 => 2f64.powi(-134),
            Dtype::F16 => 2f64.powi(-25),
            Dtype::E4m3 => 2f64.powi(-10),
        }
    }

    /// `(want, bound)` of C and `(want, bound)` of the auxiliary output for an element whose
    /// pre-activation (bias included) is `pre` in f64 with bound `pre_bound`.
    pub fn finish(&self, pre: f64, pre_bound: f64) -> ((f64, f64), (f64, f64)) {
        let act = self.epilogue.activation;
        let (slope, own) = activation_error(act);
        let want = activate_f64(act, pre);
        if pre_bound.is_infinite() {
            // The product's worst case says nothing: neither does the epilogue's.
            return ((want, f64::INFINITY), (pre, f64::INFINITY));
        }
        let u = self.unit();
        let e = own * (pre.abs() + pre_bound);
        let bound = slope * pre_bound + e + u * (want.abs() + slope * pre_bound + e) + self.floor();
        let aux = pre_bound + u * (pre.abs() + pre_bound) + self.floor();
        ((want, bound), (pre, aux))
    }
}

/// `(slope, own)` of an activation as the kernels compute it (`kernels-gpu/src/epilogue.rs`):
/// the largest |act'(x)| (how much an error of x grows through it), and its own error relative to
/// |x| (eight units of f32 rounding for the exponential and reciprocal, plus half erf's 1.5e-7
/// absolute error of Abramowitz and Stegun 7.1.26).
pub fn activation_error(act: rgemm::Activation) -> (f64, f64) {
    use rgemm::Activation as A;
    match act {
        A::Identity | A::Relu => (1.0, 0.0),
        A::GeluTanh | A::GeluErf | A::Silu => (1.13, 8.0 / (1u64 << 24) as f64 + 0.75e-7),
    }
}

/// `act(x)` in f64, as the reference applies it.
pub fn activate_f64(act: rgemm::Activation, x: f64) -> f64 {
    use rgemm::Activation as A;
    match act {
        A::Identity => x,
        A::Relu => {
            if x < 0.0 { 0.0 } else { x }
        }
        A::GeluTanh => 0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh()),
        A::GeluErf => 0.5 * x * (1.0 + erf_f64(x / std::f64::consts::SQRT_2)),
        A::Silu => x / (1.0 + (-x).exp()),
    }
}

/// erf in f64: the Taylor series below |z| = 3, the continued fraction of erfc above (each
/// accurate to a few f64 ulps there), ±1 beyond 6.
pub fn erf_f64(z: f64) -> f64 {
    if z.is_nan() {
        return z;
    }
    let a = z.abs();
    if a > 6.0 {
        return z.signum();
    }
    if a < 3.0 {
        let (mut term, mut sum, mut n) = (z, z, 0.0);
        while term.abs() > 1e-18 * sum.abs().max(1e-300) {
            n += 1.0;
            term *= -z * z / n;
            sum += term / (2.0 * n + 1.0);
        }
        return 2.0 / std::f64::consts::PI.sqrt() * sum;
    }
    // erfc(a) = exp(−a²)/√π · 1/(a + 1/2/(a + 1/(a + 3/2/(a + 2/(a + …))))), from the tail up.
    let mut f = a;
    for n in (1..60).rev() {
        f = a + (n as f64 / 2.0) / f;
    }
    let erfc = (-a * a).exp() / std::f64::consts::PI.sqrt() / f;
    (1.0 - erfc).copysign(z)
}

/// Decodes `dtype`'s bytes to f32 (exactly).
pub fn decode(dtype: Dtype, bytes: &[u8]) -> Vec<f32> {
    match dtype {
        Dtype::F32 => bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect(),
        Dtype::Bf16 => bytes.chunks_exact(2).map(|c| half::bf16::from_le_bytes([c[0], c[1]]).to_f32()).collect(),
        Dtype::F16 => bytes.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32()).collect(),
        Dtype::E4m3 => bytes.iter().map(|&b| rgemm::E4m3(b).to_f32()).collect(),
    }
}

/// C (and the auxiliary output) of a product with a fused epilogue against the f64 reference,
/// element by element: `pre` from [`reference()`] plus the bias, each bound from the product's
/// ([`ErrorModel`], one rounding more for the bias) through [`EpilogueCheck::finish`]. `got_c`
/// and `got_aux` hold all of C (product after product) decoded to f32.
pub fn compare_epilogue(problem: &Problem, inputs: &Inputs, model: &ErrorModel, check: &EpilogueCheck, got_c: &[f32], got_aux: Option<&[f32]>) -> (Comparison, Option<Comparison>) {
    let want = reference(problem, inputs);
    let magnitude = magnitude(problem, inputs);
    let (m, n) = (problem.m as usize, problem.n as usize);
    let bound = model.bounds(problem.k + 1);
    let (mut c_cmp, mut aux_cmp) = (Comparison::default(), Comparison::default());
    for (index, (&w, &mag)) in want.iter().zip(magnitude.iter()).enumerate() {
        let (row, col) = (index / n, index % n);
        let bias = check.bias_at(row % m, col);
        let ((d, d_bound), (pre, pre_bound)) = check.finish(w + bias, bound(mag + bias.abs()));
        c_cmp.add(row, col, got_c[index], d, d_bound);
        if let Some(aux) = got_aux {
            aux_cmp.add(row, col, aux[index], pre, pre_bound);
        }
    }
    (c_cmp, got_aux.map(|_| aux_cmp))
}
