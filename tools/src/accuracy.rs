//! Accuracy of the fp32 kernels that do not multiply in plain fp32 (rung 15's 3×TF32).
//!
//! Uniform inputs in [−1, 1) share one binade, so every product has about the same size and a
//! split that mishandles small values or loses low bits hides behind the large ones. The inputs
//! here spread their exponents over [`SPREAD_BINADES`] binades (about six orders of magnitude).
//!
//! The judgement compares with what fp32 itself achieves on the same inputs: a kernel passes when
//! `‖C − C₆₄‖_F ≤ 2·‖C_fp32 − C₆₄‖_F + SPLIT_ALLOWANCE·‖R‖_F`, where `C_fp32` is an fp32 GEMM of
//! the same inputs (cuBLAS SGEMM on the GPU, a sequential fp32 dot product per element on the
//! CPU) and `R_ij = |alpha|·sqrt(Σ_k a_ik²·b_kj²)` the root sum of squares of the products. The
//! second term is what the split itself adds: per product a·b, 3×TF32 drops `lo_a·lo_b` and
//! rounds (or, with the `Raw` split, truncates) `lo_a` and `lo_b`, each at most 2⁻²⁰·|a·b|
//! (2⁻²¹ for the rounded remainders of a truncated `hi`, 2⁻²² when `hi` is rounded too; see the
//! rung-15 chapter). Each term is a product of two relative parts of at most 2⁻¹⁰, spread evenly
//! for random inputs, so its root mean square is at most 2⁻²⁰/3·|a·b|, and the three together
//! at most 2⁻²⁰·|a·b| even when they share a sign (`Raw`'s do: truncation only shrinks). Products
//! of random signs add like a random walk over a dot product: the sum has a standard deviation
//! of at most 2⁻²⁰·R_ij, and the allowance 2⁻¹⁹·‖R‖_F is twice that, in a Frobenius norm over
//! many elements that concentrates near its mean. (The worst case, every error of one sign and
//! of its largest size, would be 3·2⁻²⁰·Σ_k|a_ik·b_kj|: about √K times larger for random data,
//! and so loose that it would pass a kernel whose accumulation drifts.)

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use rgemm::catalog::Dtype;
use crate::check::{Inputs, POISON};
use rgemm::problem::Problem;

/// Binades the spread inputs' exponents cover: 2⁻¹⁰ ≤ |x| < 2¹⁰.
pub const SPREAD_BINADES: i32 = 20;

/// The split's allowance, relative to the root sum of squares of the products (see the module
/// docs).
pub const SPLIT_ALLOWANCE: f64 = 1.0 / (1u64 << 19) as f64;

/// `len` values `±m·2^e`, m uniform in [1, 2), e uniform in [−10, 9], signs random.
pub fn spread_values(rng: &mut impl Rng, len: usize) -> Vec<f32> {
    (0..len)
        .map(|_| {
            let m: f32 = rng.random_range(1.0f32..2.0);
            let e = rng.random_range(-SPREAD_BINADES / 2..SPREAD_BINADES / 2);
            let sign = if rng.random::<bool>() { -1.0 } else { 1.0 };
            sign * m * (e as f32).exp2()
        })
        .collect()
}

/// fp32 inputs for `problem` with spread exponents, reproducible from `seed`; C is poisoned when
/// beta = 0 (as in [`Inputs::random`]).
pub fn spread_inputs(problem: &Problem, seed: u64) -> Inputs {
    let mut rng = StdRng::seed_from_u64(seed);
    let (la, lb, lc) = problem.elems();
    let a = spread_values(&mut rng, la);
    let b = spread_values(&mut rng, lb);
    let c = if problem.beta == 0.0 { vec![POISON; lc] } else { spread_values(&mut rng, lc) };
    Inputs { dtype: Dtype::F32, a, b, c }
}

/// `‖R‖_F` with `R_ij = |alpha|·sqrt(Σ_k a_ik²·b_kj²)`: the scale of the split's error. Since
/// `Σ_ij R_ij² = alpha²·Σ_k ‖column k of A‖²·‖row k of B‖²`, it costs one pass over A and B.
pub fn product_rms_norm(problem: &Problem, inputs: &Inputs) -> f64 {
    let (m, n, k) = (problem.m as usize, problem.n as usize, problem.k as usize);
    let mut col_a = vec![0.0f64; k];
    for i in 0..m {
        for (c, &x) in col_a.iter_mut().zip(&inputs.a[i * k..(i + 1) * k]) {
            *c += (x as f64).powi(2);
        }
    }
    let sum: f64 = (0..k).map(|p| col_a[p] * inputs.b[p * n..(p + 1) * n].iter().map(|&y| (y as f64).powi(2)).sum::<f64>()).sum();
    (problem.alpha as f64).abs() * sum.sqrt()
}

/// C as a plain fp32 GEMM computes it on the CPU: per element one sequential fused
/// multiply-add chain over K, then `alpha·acc + beta·C` in fp32.
pub fn fp32_sequential(problem: &Problem, inputs: &Inputs) -> Vec<f32> {
    let (m, n, k) = (problem.m as usize, problem.n as usize, problem.k as usize);
    let mut out = vec![0.0f32; m * n];
    for i in 0..m {
        let row = &mut out[i * n..(i + 1) * n];
        for p in 0..k {
            let x = inputs.a[i * k + p];
            for (r, &y) in row.iter_mut().zip(&inputs.b[p * n..(p + 1) * n]) {
                *r = x.mul_add(y, *r);
            }
        }
        for (j, r) in row.iter_mut().enumerate() {
            *r = if problem.beta == 0.0 { problem.alpha * *r } else { problem.alpha * *r + problem.beta * inputs.c[i * n + j] };
        }
    }
    out
}

/// `‖got − want‖_F` (absolute), NaN if `got` holds a NaN or an infinity.
pub fn frobenius_distance(got: &[f32], want: impl IntoIterator<Item = f64>) -> f64 {
    let mut sum = 0.0f64;
    for (&g, w) in got.iter().zip(want) {
        if !g.is_finite() {
            return f64::NAN;
        }
        sum += (g as f64 - w).powi(2);
    }
    sum.sqrt()
}

/// The verdict of one comparison: the kernel's error, fp32's error and the split's allowance,
/// all absolute Frobenius norms.
#[derive(Clone, Copy, Debug)]
pub struct Judgement {
    pub error: f64,
    pub fp32_error: f64,
    pub allowance: f64,
}

impl Judgement {
    /// `rms_norm` is [`product_rms_norm`] of the inputs.
    pub fn new(error: f64, fp32_error: f64, rms_norm: f64) -> Judgement {
        Judgement { error, fp32_error, allowance: SPLIT_ALLOWANCE * rms_norm }
    }

    /// `error ≤ 2·fp32_error + allowance`; NaN fails.
    pub fn passed(&self) -> bool {
        self.error <= 2.0 * self.fp32_error + self.allowance
    }
}

impl std::fmt::Display for Judgement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: error {:.3e}, fp32's {:.3e} (ratio {:.2}), split allowance {:.3e}",
            if self.passed() { "PASS" } else { "FAIL" },
            self.error,
            self.fp32_error,
            self.error / self.fp32_error,
            self.allowance
        )
    }
}
