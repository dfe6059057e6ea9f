//! # Rung 2 — global-memory coalescing
//!
//! Same work per thread as rung 1; only the mapping of threads to elements changes. Consecutive
//! threads now take consecutive *columns* of C. In each step of the dot product the 32 threads of
//! a warp read the same element of A (one broadcast) and 32 neighbouring elements of B (one
//! 128-byte transaction), and they write C in one transaction too. The memory system merges the
//! warp's accesses into as few transactions as the addresses allow: that is coalescing.
//!
//! Measured (NVIDIA H100 80GB HBM3, 2026-11-22, M = N = K = 4096, `rgemm bench` run 4, cuBLAS SGEMM 51.70
//! TFLOP/s in the same run): 5.74 TFLOP/s (11.1% of cuBLAS), 11.5× rung 1, from the mapping change
//! alone. Every multiply-add still reads two floats from global memory (through L1/L2), so the
//! caches' bandwidth, not arithmetic, bounds it. The floors at this size: arithmetic, 137.4 GFLOP
//! at the 66.9 TFLOP/s fp32 peak, 2.05 ms; memory, A and B read and C written once (201 MB) at
//! about 3 TB/s, 0.07 ms. GEMM at this size is bound by arithmetic, and the ladder is measured
//! against that floor.

use crate::prelude::*;

pub const RUNG: Rung = Rung { number: 2, slug: "coalesced", idea: "neighbouring threads take neighbouring columns" };

/// A `BS × BS` block of C per thread block, `BS²` threads; thread `t` takes column `t % BS`.
pub struct Coalesced<const BS: usize>;

impl<const BS: usize> GemmKernel for Coalesced<BS> {
    type Elem = f32;
    const SPEC: KernelSpec = KernelSpec::unnamed(RUNG, Dtype::F32, Tile::block(BS as u32, BS as u32, 1), (BS * BS) as u32, 0);

    unsafe fn run(gemm: &Gemm<f32>) {
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
            acc = fma(unsafe { a.get(row, i) }, unsafe { b.get(i, col) }, acc);
        }
        c.store(row, col, acc);
    }
}

entries! {
    elem = f32;
    sgemm_02_coalesced_32x32x1 => Coalesced<32>,
}
