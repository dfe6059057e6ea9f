//! Matrices as a problem stores them: the products' operands (A as M×K, B as K×N, C as M×N,
//! row-major, one matrix after another) laid out with the problem's layout, leading dimensions
//! and batch strides, and C read back.
//!
//! Every element of a stored buffer that no product reads is filled with a value the caller
//! chooses: NaN for A and B (a kernel that reads padding computes NaN and fails), a sentinel for
//! C (a kernel that writes padding changes it and fails).

use rgemm::problem::{Op, Problem};

pub use rgemm::error::Operand;

/// Where element (`row`, `col`) of the product's view of `operand` lives in product `z`'s
/// stored matrix (from that matrix's first element).
fn offset(problem: &Problem, operand: Operand, row: usize, col: usize) -> usize {
    let (op, ld) = match operand {
        Operand::A => (problem.layout.a, problem.lda),
        Operand::B => (problem.layout.b, problem.ldb),
        // C, and the auxiliary output (shaped as C); the bias is no matrix.
        _ => (Op::N, problem.ldc),
    };
    match op {
        Op::N => row * ld as usize + col,
        Op::T => col * ld as usize + row,
    }
}

/// Rows × columns of `operand` as the products see it, its distinct matrices, and its stride.
fn shape(problem: &Problem, operand: Operand) -> (usize, usize, usize, usize) {
    let (m, n, k) = (problem.m as usize, problem.n as usize, problem.k as usize);
    match operand {
        Operand::A => (m, k, problem.matrices_a(), problem.stride_a as usize),
        Operand::B => (k, n, problem.matrices_b(), problem.stride_b as usize),
        _ => (m, n, problem.batch as usize, problem.stride_c as usize),
    }
}

/// The stored buffer of `operand` holding `values` (the products' view, matrix after matrix),
/// `fill` everywhere else.
pub fn pack(problem: &Problem, operand: Operand, values: &[f32], fill: f32) -> Vec<f32> {
    let (a, b, c) = problem.extents();
    let len = match operand {
        Operand::A => a,
        Operand::B => b,
        _ => c,
    };
    let (rows, cols, matrices, stride) = shape(problem, operand);
    assert_eq!(values.len(), rows * cols * matrices, "values do not match the problem");
    let mut out = vec![fill; len];
    for z in 0..matrices {
        for r in 0..rows {
            for c in 0..cols {
                out[z * stride + offset(problem, operand, r, c)] = values[(z * rows + r) * cols + c];
            }
        }
    }
    out
}

/// C's values (matrix after matrix, M×N row-major) from its stored buffer, and how many stored
/// elements outside the matrices differ from `fill` (bit for bit): writes past a row or between
/// matrices.
pub fn unpack_c(problem: &Problem, stored: &[f32], fill: f32) -> (Vec<f32>, usize) {
    let (rows, cols, matrices, stride) = shape(problem, Operand::C);
    let mut inside = vec![false; stored.len()];
    let mut values = Vec::with_capacity(rows * cols * matrices);
    for z in 0..matrices {
        for r in 0..rows {
            for c in 0..cols {
                let at = z * stride + offset(problem, Operand::C, r, c);
                inside[at] = true;
                values.push(stored[at]);
            }
        }
    }
    let stray = stored.iter().zip(&inside).filter(|&(v, &i)| !i && v.to_bits() != fill.to_bits()).count();
    (values, stray)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rgemm::problem::{Batch, Layout, LeadingDims};

    #[test]
    fn transposed_padded_batched_round_trip() {
        let ld = LeadingDims { lda: Some(5), ldb: Some(4), ldc: Some(6) };
        let batch = Batch { count: 2, stride_a: Some(0), stride_b: Some(13), stride_c: Some(20) };
        let p = Problem::general(3, 2, 4, 1.0, 0.0, Layout::TT, ld, batch).unwrap();
        // A is 3×4 in the product, stored 4×3 with ld 5, one matrix (broadcast).
        let a: Vec<f32> = (0..12).map(|v| v as f32).collect();
        let stored = pack(&p, Operand::A, &a, f32::NAN);
        assert_eq!(stored.len(), 3 * 5 + 3);
        // Element (row 1, col 2) of A sits at stored row 2, column 1.
        assert_eq!(stored[2 * 5 + 1], a[4 + 2]);
        assert!(stored[3].is_nan() && stored[4].is_nan());
        let c: Vec<f32> = (0..12).map(|v| v as f32 + 0.5).collect();
        let mut stored_c = pack(&p, Operand::C, &c, -7.0);
        assert_eq!(stored_c.len(), 20 + 2 * 6 + 2);
        assert_eq!(unpack_c(&p, &stored_c, -7.0), (c.clone(), 0));
        stored_c[2] = 1.0; // past the end of row 0 of product 0
        stored_c[19] = 1.0; // between the matrices
        assert_eq!(unpack_c(&p, &stored_c, -7.0).1, 2);
    }
}
