//! # Rung 4 — 1D block tiling: TM outputs per thread
//!
//! Rung 3 runs two shared-memory loads for every fused multiply-add, and shared memory, not the
//! arithmetic units, sets its speed. Here a block computes a `BM × BN` tile of C with only
//! `BM·BN/TM` threads: each thread owns a column strip of `TM` consecutive rows. In one step of
//! the dot product it reads one element of B from shared memory, keeps it in a register, and uses
//! it for `TM` multiply-adds against `TM` elements of A (all threads of a warp share the same
//! rows, so those reads are broadcasts). Loads per multiply-add fall from 2 to about `1 + 1/TM`,
//! and the block tile can grow (64×64 and more) without growing the block past 1024 threads,
//! so each element fetched from global memory is reused more often too.
//!
//! The shared tiles are `BM × BK` of A and `BK × BN` of B with `BK` small (8–16): the K-slice is
//! only as long as the loading needs. Every thread copies `BM·BK/threads` elements of A and
//! `BK·BN/threads` of B per step, consecutive threads on consecutive columns (coalesced), with
//! zeros outside the matrices as in rung 3.
//!
//! Cost: one shared load of B now feeds `TM` multiply-adds; the loads of A (one per multiply-add)
//! are what bounds it next.
//!
//! Measured speed and what limits it at each size: `book/src/rung-04-blocktile-1d.md` and `docs/perf/`.

use crate::prelude::*;

pub const RUNG: Rung = Rung::ladder(4, "blocktile_1d", "each thread computes a TM×1 column strip of C");

/// A `BM × BN` block tile, K-slices of `BK`, `TM × 1` outputs per thread, `BM·BN/TM` threads.
pub struct Blocktile1d<const BM: usize, const BN: usize, const BK: usize, const TM: usize>;

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize> Blocktile1d<BM, BN, BK, TM> {
    const THREADS: usize = BM * BN / TM;
    const CHECKS: () = {
        assert!(Self::THREADS % 32 == 0 && Self::THREADS <= 1024, "whole warps, at most 1024 threads");
    };
}

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize> GemmKernel for Blocktile1d<BM, BN, BK, TM> {
    type Elem = f32;
    const SPEC: KernelSpec = {
        let () = Self::CHECKS;
        KernelSpec::unnamed(
            RUNG,
            Dtype::F32,
            Tile::block(BM as u32, BN as u32, BK as u32).with_thread(TM as u32, 1),
            Self::THREADS as u32,
            ((SmemTile::elems(BM, BK) + SmemTile::elems(BK, BN)) * 4) as u32,
        )
        .with_tile_rules(TileRules::THREAD_TILES)
    };

    unsafe fn run(gemm: &GemmArgs<f32>) {
        let () = Self::CHECKS;
        // SAFETY: the spec's shared-memory size holds this tile at the block's dynamic shared base.
        let a_tile = unsafe { SmemTile::new(dynamic_shared(), BM, BK) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let b_tile = unsafe { SmemTile::new(a_tile.end(), BK, BN) };

        let t = thread_idx() as usize;
        // This thread's strip: rows ty·TM .. ty·TM + TM of column tx of the block tile.
        let (ty, tx) = (t / BN, t % BN);
        let (row0, col0) = (block_row() * BM as u32, block_col() * BN as u32);
        let a = gemm.a().window(row0, 0);
        let b = gemm.b().window(0, col0);

        let mut acc = [0.0f32; TM];
        let mut k0 = 0;
        while k0 < gemm.k {
            // ANCHOR: load
            for i in 0..BM * BK / Self::THREADS {
                let e = i * Self::THREADS + t;
                let (r, c) = (e / BK, e % BK);
                a_tile.set(r, c, a.get_or_zero(r as u32, k0 + c as u32));
            }
            for i in 0..BK * BN / Self::THREADS {
                let e = i * Self::THREADS + t;
                let (r, c) = (e / BN, e % BN);
                b_tile.set(r, c, b.get_or_zero(k0 + r as u32, c as u32));
            }
            sync_threads();
            // ANCHOR_END: load
            // ANCHOR: inner_loop
            for kk in 0..BK {
                // One element of B, reused for TM multiply-adds.
                let b_kx = b_tile.get(kk, tx);
                for i in 0..TM {
                    acc[i] = fma(a_tile.get(ty * TM + i, kk), b_kx, acc[i]);
                }
            }
            // ANCHOR_END: inner_loop
            sync_threads();
            k0 += BK as u32;
        }

        let c = gemm.c().window(row0, col0);
        for i in 0..TM {
            c.store((ty * TM + i) as u32, tx as u32, acc[i]);
        }
    }
}

entries! {
    elem = f32;
    sgemm_04_blocktile_1d_64x64x8_t8x1 => Blocktile1d<64, 64, 8, 8>,
    sgemm_04_blocktile_1d_64x64x16_t16x1 => Blocktile1d<64, 64, 16, 16>,
    sgemm_04_blocktile_1d_128x64x8_t16x1 => Blocktile1d<128, 64, 8, 16>,
    sgemm_04_blocktile_1d_128x128x8_t32x1 => Blocktile1d<128, 128, 8, 32>,
}
