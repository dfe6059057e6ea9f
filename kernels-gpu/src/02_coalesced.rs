//! # Rung 2 — global-memory coalescing
//!
//! Same work per thread as rung 1; only the mapping of threads to elements changes. Consecutive
//! threads now take consecutive *columns* of C. In each step of the dot product the 32 threads of
//! a warp read the same element of A (one broadcast) and 32 neighbouring elements of B (one
//! 128-byte transaction), and they write C in one transaction too. The memory system merges the
//! warp's accesses into as few transactions as the addresses allow: that is coalescing.
//!
//! Cost: the mapping change alone is a large step. Every multiply-add still reads two floats from
//! global memory (through L1/L2), so the caches' bandwidth, not arithmetic, bounds it.
//!
//! Measured speed and what limits it at each size: `book/src/rung-02-coalesced.md` and `docs/perf/`.

use crate::prelude::*;

pub const RUNG: Rung = Rung::ladder(2, "coalesced", "neighbouring threads take neighbouring columns");

/// A `BS × BS` block of C per thread block, `BS²` threads; thread `t` takes column `t % BS`.
pub struct Coalesced<const BS: usize>;

impl<const BS: usize> GemmKernel for Coalesced<BS> {
    type Elem = f32;
    const SPEC: KernelSpec = KernelSpec::unnamed(RUNG, Dtype::F32, Tile::block(BS as u32, BS as u32, 1), (BS * BS) as u32, 0);

    unsafe fn run(gemm: &GemmArgs<f32>) {
        let t = thread_idx();
        // ANCHOR: mapping
        let (row, col) = (block_row() * BS as u32 + t / BS as u32, block_col() * BS as u32 + t % BS as u32);
        // ANCHOR_END: mapping
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
}

entries! {
    elem = f32;
    sgemm_02_coalesced_32x32x1 => Coalesced<32>,
}
