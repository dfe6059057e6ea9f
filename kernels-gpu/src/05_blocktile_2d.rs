//! # Rung 5 — 2D block tiling: a TM×TN register outer product per thread
//!
//! Rung 4 reuses each element of B `TM` times; elements of A are still used once per load. Now
//! each thread owns a `TM × TN` rectangle of C. In one step `kk` of the K-slice it loads a column
//! of `TM` values of A and a row of `TN` values of B from shared memory into registers and adds
//! their outer product to its accumulators: `TM·TN` multiply-adds from `TM + TN` loads. For 8×8
//! that is 64 multiply-adds per 16 loads, against 8 per 9 in rung 4. The arithmetic intensity of
//! the register level has become high enough that the arithmetic units, not shared memory, can be
//! the limit.
//!
//! The accumulators are a [`ThreadTile`], an array of registers. It stays in registers only if
//! every index into it is a compile-time constant, so every loop over it must unroll fully (the
//! build raises LLVM's unroll threshold; ptxas's stack-frame report is the check).
//!
//! Loading is as in rung 4 (scalar, coalesced, zero-filled); a block of `BM·BN/(TM·TN)` threads
//! (256 for 128×128 with 8×8) copies a 128×8 and an 8×128 tile per step.
//!
//! Cost: `TM + TN` loads feed `TM·TN` multiply-adds; what remains is one instruction per float
//! moved, on the global side and in shared memory.
//!
//! Measured speed and what limits it at each size: `book/src/rung-05-blocktile-2d.md` and `docs/perf/`.

use crate::prelude::*;

pub const RUNG: Rung = Rung::ladder(5, "blocktile_2d", "each thread computes a TM×TN tile of C as register outer products");

/// A `BM × BN` block tile, K-slices of `BK`, `TM × TN` outputs per thread, `BM·BN/(TM·TN)`
/// threads.
pub struct Blocktile2d<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize>;

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize> Blocktile2d<BM, BN, BK, TM, TN> {
    const THREADS: usize = (BM / TM) * (BN / TN);
    const CHECKS: () = {
        assert!(Self::THREADS % 32 == 0 && Self::THREADS <= 1024, "whole warps, at most 1024 threads");
    };
}

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize> GemmKernel
    for Blocktile2d<BM, BN, BK, TM, TN>
{
    type Elem = f32;
    const SPEC: KernelSpec = {
        let () = Self::CHECKS;
        KernelSpec::unnamed(
            RUNG,
            Dtype::F32,
            Tile::block(BM as u32, BN as u32, BK as u32).with_thread(TM as u32, TN as u32),
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
        // This thread's tile: rows ty·TM.., columns tx·TN.. of the block tile.
        let (ty, tx) = (t / (BN / TN), t % (BN / TN));
        let (row0, col0) = (block_row() * BM as u32, block_col() * BN as u32);
        let a = gemm.a().window(row0, 0);
        let b = gemm.b().window(0, col0);

        let mut acc = ThreadTile::<TM, TN>::zero();
        let mut k0 = 0;
        while k0 < gemm.k {
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
            // ANCHOR: inner_loop
            for kk in 0..BK {
                let mut a_col = [0.0f32; TM];
                let mut b_row = [0.0f32; TN];
                for i in 0..TM {
                    a_col[i] = a_tile.get(ty * TM + i, kk);
                }
                for j in 0..TN {
                    b_row[j] = b_tile.get(kk, tx * TN + j);
                }
                acc.outer_product(&a_col, &b_row);
            }
            // ANCHOR_END: inner_loop
            sync_threads();
            k0 += BK as u32;
        }

        // ANCHOR: epilogue
        let c = gemm.c().window(row0, col0);
        for i in 0..TM {
            for j in 0..TN {
                c.store((ty * TM + i) as u32, (tx * TN + j) as u32, acc.acc[i][j]);
            }
        }
        // ANCHOR_END: epilogue
    }
}

entries! {
    elem = f32;
    sgemm_05_blocktile_2d_128x128x8_t8x8 => Blocktile2d<128, 128, 8, 8, 8>,
    sgemm_05_blocktile_2d_64x64x8_t8x8 => Blocktile2d<64, 64, 8, 8, 8>,
    sgemm_05_blocktile_2d_128x64x8_t8x8 => Blocktile2d<128, 64, 8, 8, 8>,
    sgemm_05_blocktile_2d_64x64x16_t4x4 => Blocktile2d<64, 64, 16, 4, 4>,
    sgemm_05_blocktile_2d_32x32x32_t4x4 => Blocktile2d<32, 32, 32, 4, 4>,
}
