//! A GEMM problem: `C = alpha·A·B + beta·C` with row-major A (M×K), B (K×N), C (M×N).

use crate::error::{Error, Result};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Problem {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub alpha: f32,
    pub beta: f32,
}

/// The largest dimension: cuBLAS, our baseline, takes `int` sizes.
pub const MAX_DIM: u64 = i32::MAX as u64;

impl Problem {
    /// Validates sizes given as u64 (so that negative or huge inputs are caught by the caller's
    /// parser and by this check, never by a wrapping cast).
    pub fn new(m: u64, n: u64, k: u64, alpha: f32, beta: f32) -> Result<Problem> {
        for (name, v) in [("M", m), ("N", n), ("K", k)] {
            if v == 0 {
                return Err(Error::InvalidProblem(format!("{name} is 0; every size must be at least 1")));
            }
            if v > MAX_DIM {
                return Err(Error::InvalidProblem(format!("{name} = {v} exceeds the largest supported size {MAX_DIM}")));
            }
        }
        for (name, rows, cols) in [("A", m, k), ("B", k, n), ("C", m, n)] {
            rows.checked_mul(cols)
                .and_then(|e| e.checked_mul(4))
                .filter(|&bytes| bytes <= isize::MAX as u64)
                .ok_or_else(|| Error::InvalidProblem(format!("{name} ({rows}×{cols}) is too large to address")))?;
        }
        if !alpha.is_finite() || !beta.is_finite() {
            return Err(Error::InvalidProblem(format!("alpha ({alpha}) and beta ({beta}) must be finite")));
        }
        Ok(Problem { m: m as u32, n: n as u32, k: k as u32, alpha, beta })
    }

    /// Elements of A, B and C.
    pub fn elems(&self) -> (usize, usize, usize) {
        let (m, n, k) = (self.m as usize, self.n as usize, self.k as usize);
        (m * k, k * n, m * n)
    }

    /// Multiply-adds of one product, M·N·K, exact (u128: 2³¹ cubed does not fit in u64).
    pub fn macs(&self) -> u128 {
        self.m as u128 * self.n as u128 * self.k as u128
    }

    /// Floating-point operations of one product (a multiply and an add per term).
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    pub fn tflops(&self, ms: f64) -> f64 {
        self.flops() / (ms * 1e-3) / 1e12
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "M={} N={} K={} alpha={} beta={}", self.m, self.n, self.k, self.alpha, self.beta)
    }
}

/// One GEMM shape: `M×N×K`.
pub type Shape = (u64, u64, u64);

/// A shape from `N` (square) or `MxNxK` (`x` or `×`), each size checked as [`Problem::new`]
/// checks it.
pub fn parse_shape(text: &str) -> Result<Shape> {
    let t = text.trim();
    let bad = || Error::InvalidProblem(format!("'{t}' is not a size: write N for N×N×N or MxNxK, e.g. 4096x4096x1024"));
    let parts: Vec<&str> = t.split(['x', 'X', '×']).map(str::trim).collect();
    let dims: Vec<u64> = parts.iter().map(|p| p.parse::<u64>().map_err(|_| bad())).collect::<Result<_>>()?;
    let shape = match dims[..] {
        [n] => (n, n, n),
        [m, n, k] => (m, n, k),
        _ => return Err(bad()),
    };
    Problem::new(shape.0, shape.1, shape.2, 1.0, 0.0)?;
    Ok(shape)
}

/// A comma-separated list of shapes (`1024,2048,4096x4096x1024`), in the order given, without
/// repeats.
pub fn parse_shapes(text: &str) -> Result<Vec<Shape>> {
    let mut shapes: Vec<Shape> = Vec::new();
    for part in text.split(',') {
        if part.trim().is_empty() {
            return Err(Error::InvalidProblem(format!("'{text}' has an empty entry; write sizes separated by commas, e.g. 1024,2048,4096x4096x1024")));
        }
        let shape = parse_shape(part)?;
        if !shapes.contains(&shape) {
            shapes.push(shape);
        }
    }
    Ok(shapes)
}

/// `MxNxK` as the reports write it.
pub fn shape_name(shape: Shape) -> String {
    format!("{}x{}x{}", shape.0, shape.1, shape.2)
}
