//! Correctness: random inputs, the f64 reference, and the relative Frobenius error.
//!
//! The rules: never test on zeros (uniform values in [-1, 1) from a seed), poison the output
//! before each run (NaN where the old C is not an input), compare against a reference computed in
//! f64 by ‖out − ref‖_F / ‖ref‖_F, and let NaN fail.

use ndarray::{Array2, ArrayView2};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::catalog::Dtype;
use crate::problem::Problem;

/// Relative Frobenius error an fp32 kernel must stay within.
pub const F32_TOLERANCE: f64 = 1e-5;
/// Relative Frobenius error a bf16/f16 kernel must stay within. The reference multiplies the same
/// rounded operands, so what remains is f32 accumulation order, far below this.
pub const HALF_TOLERANCE: f64 = 1e-3;

pub fn tolerance(dtype: Dtype) -> f64 {
    match dtype {
        Dtype::F32 => F32_TOLERANCE,
        Dtype::Bf16 | Dtype::F16 => HALF_TOLERANCE,
    }
}

/// `v` rounded to the nearest value of `dtype` (ties to even).
pub fn round_to(dtype: Dtype, v: f32) -> f32 {
    match dtype {
        Dtype::F32 => v,
        Dtype::Bf16 => half::bf16::from_f32(v).to_f32(),
        Dtype::F16 => half::f16::from_f32(v).to_f32(),
    }
}

/// The bytes of `values` (already representable in `dtype`) as the GPU stores them.
pub fn encode(dtype: Dtype, values: &[f32]) -> Vec<u8> {
    match dtype {
        Dtype::F32 => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        Dtype::Bf16 => values.iter().flat_map(|&v| half::bf16::from_f32(v).to_le_bytes()).collect(),
        Dtype::F16 => values.iter().flat_map(|&v| half::f16::from_f32(v).to_le_bytes()).collect(),
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
        let mut rng = StdRng::seed_from_u64(seed);
        let (la, lb, lc) = problem.elems();
        let mut operand = |len| -> Vec<f32> { random_values(&mut rng, len).into_iter().map(|v| round_to(dtype, v)).collect() };
        let a = operand(la);
        let b = operand(lb);
        let c = if problem.beta == 0.0 { vec![POISON; lc] } else { random_values(&mut rng, lc) };
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
        let mn = problem.m as usize * problem.n as usize;
        let mut products = vec![0, problem.batch as usize - 1];
        products.dedup();
        let pairs: Vec<(f32, f64)> = products
            .into_iter()
            .flat_map(|z| self.pairs(problem, inputs.product(problem, z), &got[z * mn..(z + 1) * mn]))
            .collect();
        relative_error(pairs)
    }

    /// (computed, f64) for the sampled rows and columns of one product.
    fn pairs(&self, problem: &Problem, (a, b, c0): (&[f32], &[f32], &[f32]), got: &[f32]) -> Vec<(f32, f64)> {
        let (m, n, k) = (problem.m as usize, problem.n as usize, problem.k as usize);
        let expected = |row: usize, col: usize, dot: f64| -> f64 {
            let mut v = problem.alpha as f64 * dot;
            if problem.beta != 0.0 {
                v += problem.beta as f64 * c0[row * n + col] as f64;
            }
            v
        };
        let mut pairs = Vec::with_capacity((self.rows.len() * n) + (self.cols.len() * m));
        for &row in &self.rows {
            // One row of C: A's row times B, walking B row by row (contiguous).
            let mut dots = vec![0.0f64; n];
            for i in 0..k {
                let x = a[row * k + i] as f64;
                for (d, &y) in dots.iter_mut().zip(&b[i * n..(i + 1) * n]) {
                    *d += x * y as f64;
                }
            }
            pairs.extend(dots.iter().enumerate().map(|(col, &d)| (got[row * n + col], expected(row, col, d))));
        }
        for &col in &self.cols {
            // One column of C: gather B's column once, then dot it with every row of A.
            let b_col: Vec<f64> = (0..k).map(|i| b[i * n + col] as f64).collect();
            for row in 0..m {
                let dot: f64 = a[row * k..(row + 1) * k].iter().zip(&b_col).map(|(&x, &y)| x as f64 * y).sum();
                pairs.push((got[row * n + col], expected(row, col, dot)));
            }
        }
        pairs
    }
}
