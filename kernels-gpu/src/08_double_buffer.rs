//! # Rung 8 — double buffering: load the next K-slice while computing this one
//!
//! In rung 7 every K-step runs in two phases that do not overlap within a block: all threads copy
//! a slice from global memory (hundreds of cycles of latency) and wait at a barrier, then all
//! compute and wait at another barrier. Other resident blocks can fill the gaps, but with 8×8
//! thread tiles few blocks fit on an SM. Here the block keeps **two** pairs of shared tiles. While
//! it computes on slice `s` in one pair, the global loads of slice `s + 1` are already in flight
//! into registers (issued before the arithmetic, so their latency hides behind it); after the
//! arithmetic the registers go into the other pair. Then one barrier, and the pairs swap roles.
//!
//! One barrier per step is enough. In step `s` threads write pair `(s + 1) % 2`, which was last
//! read during step `s − 1`; the barrier that ends step `s − 1` separates those reads from these
//! writes. And the reads of pair `s % 2` in step `s` come after the barrier that ends step
//! `s − 1`, which follows the writes of that pair. The price is twice the shared memory and the
//! registers that hold a slice in transit (`BM·BK/4/threads + BK·BN/4/threads` float4s).
//!
//! Cost: one barrier per step instead of two, and the global loads of the next slice overlap the
//! arithmetic. The gain is small, which says the bound is elsewhere: the warp's shared-memory
//! reads (2-way bank conflicts on B, see rung 9).
//!
//! Measured speed and what limits it at each size: `book/src/rung-08-double-buffer.md` and `docs/perf/`.

use crate::prelude::*;
use crate::copy::{store_thread_tile, RowMajorCopy, TransposedCopy};

pub const RUNG: Rung = Rung::ladder(8, "double_buffer", "two shared stages; global loads of the next slice overlap compute");

/// Rung 7's kernel with two shared stages and the next slice prefetched into registers.
pub struct DoubleBuffer<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize>;

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize> DoubleBuffer<BM, BN, BK, TM, TN> {
    const THREADS: usize = (BM / TM) * (BN / TN);
    const A_COPY: TransposedCopy = TransposedCopy::new(BM, BK, Self::THREADS);
    const B_COPY: RowMajorCopy = RowMajorCopy::new(BK, BN, Self::THREADS);
    /// Floats of one stage: the transposed A tile, then the B tile.
    const STAGE: usize = SmemTile::elems(BK, TransposedCopy::stride(BM)) + SmemTile::elems(BK, BN);
    const CHECKS: () = {
        assert!(Self::THREADS % 32 == 0 && Self::THREADS <= 1024, "whole warps, at most 1024 threads");
        let _ = (Self::A_COPY, Self::B_COPY);
    };
}

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize> GemmKernel
    for DoubleBuffer<BM, BN, BK, TM, TN>
{
    type Elem = f32;
    const SPEC: KernelSpec = {
        let () = Self::CHECKS;
        KernelSpec::unnamed(
            RUNG,
            Dtype::F32,
            Tile::block(BM as u32, BN as u32, BK as u32).with_thread(TM as u32, TN as u32).with_stages(2),
            Self::THREADS as u32,
            (2 * Self::STAGE * 4) as u32,
        )
        .with_tile_rules(TileRules::THREAD_TILES.float4_copies().vector_reads())
    };

    unsafe fn run(gemm: &GemmArgs<f32>) {
        let () = Self::CHECKS;
        // Stage `i` is the pair (at[i], b[i]).
        // SAFETY: the spec's shared-memory size holds this tile at the block's dynamic shared base.
        let at0 = unsafe { SmemTile::new(dynamic_shared(), BK, TransposedCopy::stride(BM)) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let b0 = unsafe { SmemTile::new(at0.end(), BK, BN) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let at1 = unsafe { SmemTile::new(b0.end(), BK, TransposedCopy::stride(BM)) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let b1 = unsafe { SmemTile::new(at1.end(), BK, BN) };

        let t = thread_idx() as usize;
        let (ty, tx) = (t / (BN / TN), t % (BN / TN));
        let (row0, col0) = (block_row() * BM as u32, block_col() * BN as u32);
        let a = gemm.a().window(row0, 0);
        let b = gemm.b().window(0, col0);
        let steps = gemm.k.div_ceil(BK as u32);

        // ANCHOR: main_loop
        // Prologue: slice 0 into stage 0.
        Self::A_COPY.store(t, &Self::A_COPY.fetch(t, &a), &at0);
        Self::B_COPY.store(t, &Self::B_COPY.fetch(t, &b), &b0);
        sync_threads();

        let mut acc = ThreadTile::<TM, TN>::zero();
        for s in 0..steps {
            let (at_cur, b_cur, at_next, b_next) = if s % 2 == 0 { (at0, b0, at1, b1) } else { (at1, b1, at0, b0) };
            // Same for every thread of the block: the branches below do not diverge.
            let more = s + 1 < steps;
            let k_next = (s + 1) * BK as u32;
            // Issue the global loads of the next slice now; they complete during the arithmetic.
            let (sa, sb) = if more {
                (Self::A_COPY.fetch(t, &a.window(0, k_next)), Self::B_COPY.fetch(t, &b.window(k_next, 0)))
            } else {
                Default::default()
            };
            for kk in 0..BK {
                let mut a_col = [0.0f32; TM];
                let mut b_row = [0.0f32; TN];
                for q in 0..TM / 4 {
                    // SAFETY: inside the shared tile (the loop bounds are the tile's), at a
                    // 16-byte-aligned float4.
                    let v = unsafe { ld_shared_v4(at_cur.ptr(kk, ty * TM + 4 * q)) };
                    a_col[4 * q..4 * q + 4].copy_from_slice(&v);
                }
                for q in 0..TN / 4 {
                    // SAFETY: inside the shared tile (the loop bounds are the tile's), at a
                    // 16-byte-aligned float4.
                    let v = unsafe { ld_shared_v4(b_cur.ptr(kk, tx * TN + 4 * q)) };
                    b_row[4 * q..4 * q + 4].copy_from_slice(&v);
                }
                acc.outer_product(&a_col, &b_row);
            }
            if more {
                Self::A_COPY.store(t, &sa, &at_next);
                Self::B_COPY.store(t, &sb, &b_next);
            }
            // The only barrier of the step: stage `next` is complete before anyone reads it, and
            // everyone has finished reading stage `cur` before the next step overwrites it.
            sync_threads();
        }
        // ANCHOR_END: main_loop

        // The thread's TM rows, and its TN columns as runs of four.
        store_thread_tile(&gemm.c().window(row0, col0), &acc, |i| ty * TM + i, |q| tx * TN + 4 * q);
    }
}

entries! {
    elem = f32;
    sgemm_08_double_buffer_128x128x8_t8x8_s2 => DoubleBuffer<128, 128, 8, 8, 8>,
    sgemm_08_double_buffer_128x128x16_t8x8_s2 => DoubleBuffer<128, 128, 16, 8, 8>,
    sgemm_08_double_buffer_128x64x8_t8x8_s2 => DoubleBuffer<128, 64, 8, 8, 8>,
    sgemm_08_double_buffer_64x64x8_t8x8_s2 => DoubleBuffer<64, 64, 8, 8, 8>,
    sgemm_08_double_buffer_128x64x16_t8x4_s2 => DoubleBuffer<128, 64, 16, 8, 4>,
}
