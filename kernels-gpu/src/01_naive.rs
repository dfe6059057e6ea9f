//! # Rung 1 — naive: one thread per element of C
//!
//! Each thread walks one row of A and one column of B and writes one element of C. It is the
//! definition of matrix multiplication, and it is slow for a reason that has nothing to do with
//! arithmetic: consecutive threads of a warp get consecutive *rows* of C. In one step of the dot
//! product the warp then reads 32 elements of A that are a whole row (K floats) apart, and writes
//! 32 elements of C that are N floats apart, so every access of the warp costs up to 32 separate
//! memory transactions instead of one. The next rung changes only that mapping.
//!
//! Cost: nowhere near either floor (arithmetic or memory); the time goes to memory transactions
//! the warp could have merged.
//!
//! Measured speed and what limits it at each size: `book/src/rung-01-naive.md` and `docs/perf/`.

use crate::prelude::*;

pub const RUNG: Rung = Rung::ladder(1, "naive", "one thread per element of C");

/// A `BS × BS` block of C per thread block, `BS²` threads; thread `t` takes row `t % BS`.
pub struct Naive<const BS: usize>;

impl<const BS: usize> GemmKernel for Naive<BS> {
    type Elem = f32;
    const SPEC: KernelSpec = KernelSpec::unnamed(RUNG, Dtype::F32, Tile::block(BS as u32, BS as u32, 1), (BS * BS) as u32, 0);

    // ANCHOR: run
    unsafe fn run(gemm: &GemmArgs<f32>) {
        let t = thread_idx();
        // Neighbouring threads take neighbouring rows: the uncoalesced mapping this rung is about.
        let (row, col) = (block_row() * BS as u32 + t % BS as u32, block_col() * BS as u32 + t / BS as u32);
        let (a, b, c) = (gemm.a(), gemm.b(), gemm.c());
        if !c.contains(row, col) {
            return;
        }
        let mut acc = 0.0;
        for i in 0..gemm.k {
            // SAFETY: `row < M` and `col < N` were checked above, and `i < K`: inside A and B.
            acc = fma(unsafe { a.get(row, i) }, unsafe { b.get(i, col) }, acc);
        }
        c.store(row, col, acc);
    }
    // ANCHOR_END: run
}

// ANCHOR: entries
entries! {
    elem = f32;
    sgemm_01_naive_32x32x1 => Naive<32>,
}
// ANCHOR_END: entries
