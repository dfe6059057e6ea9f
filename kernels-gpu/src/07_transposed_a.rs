//! # Rung 7 — A transposed in shared memory
//!
//! In rung 6 a thread's `TM` values of A for one step `kk` are a column of the row-major A tile:
//! `TM` scalar loads, `BK` floats apart. Worse, when a warp spans two rows of thread tiles (16
//! threads across 128 columns with `TN = 8`), its two halves read addresses `TM·BK` floats apart,
//! a multiple of 32: the same bank, a 2-way bank conflict on every load. So the
//! copy now writes the A slice *transposed*, as a `BK × BM` tile `Aᵀ[k][m]`. A thread's column of
//! A becomes a contiguous run of `TM` floats of row `kk`, read as `TM/4` float4s, just like its
//! row of B: per step a thread issues `TM/4 + TN/4` shared loads (4 for 8×8) for `TM·TN`
//! multiply-adds.
//!
//! The price is in the copy: a float4 read from a row of A holds four different `k`s, so it is
//! stored as four scalars into four rows of `Aᵀ`. Those stores must not conflict. A warp copies
//! 16 rows × 8 columns of A (two float4s per row), so for a fixed element `e` of the float4 its 32
//! threads store to rows `e` and `4 + e` of `Aᵀ`, columns `m0 .. m0 + 16`. Without padding those
//! two rows are `4·BM` floats apart, a multiple of 32: same banks, a 2-way conflict. We **pad**
//! each row of `Aᵀ` to `BM + 4` floats. Then the two rows are `4·(BM + 4) ≡ 16 (mod 32)` banks
//! apart, so the 16 columns of one row use banks `b .. b + 16` and those of the other row the
//! other 16 banks: all 32 stores land in different banks. The pad is 4, not 1, so that rows stay
//! 16-byte aligned for the float4 reads. (Swizzling, XOR-ing the column with a function of the
//! row, would avoid the wasted floats but costs an address computation on every read in the inner
//! loop; the pad costs `4·BK` floats of shared memory and nothing else.)
//!
//! Cost: float4 reads of A too, and no bank conflicts on the transposed stores; every K-step still
//! has two barriers and copy latency the block waits through.
//!
//! Measured speed and what limits it at each size: `book/src/rung-07-transposed-a.md` and `docs/perf/`.

use crate::prelude::*;
use crate::copy::{store_thread_tile, RowMajorCopy, TransposedCopy};

pub const RUNG: Rung = Rung::ladder(7, "transposed_a", "A tile transposed in shared memory: float4 reads of A and B");

/// Rung 6's kernel with A stored transposed, so both operands are read as float4s.
pub struct TransposedA<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize>;

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize> TransposedA<BM, BN, BK, TM, TN> {
    const THREADS: usize = (BM / TM) * (BN / TN);
    const A_COPY: TransposedCopy = TransposedCopy::new(BM, BK, Self::THREADS);
    const B_COPY: RowMajorCopy = RowMajorCopy::new(BK, BN, Self::THREADS);
    const CHECKS: () = {
        assert!(Self::THREADS % 32 == 0 && Self::THREADS <= 1024, "whole warps, at most 1024 threads");
        let _ = (Self::A_COPY, Self::B_COPY);
    };
}

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize> GemmKernel
    for TransposedA<BM, BN, BK, TM, TN>
{
    type Elem = f32;
    const SPEC: KernelSpec = {
        let () = Self::CHECKS;
        KernelSpec::unnamed(
            RUNG,
            Dtype::F32,
            Tile::block(BM as u32, BN as u32, BK as u32).with_thread(TM as u32, TN as u32),
            Self::THREADS as u32,
            ((SmemTile::elems(BK, TransposedCopy::stride(BM)) + SmemTile::elems(BK, BN)) * 4) as u32,
        )
        .with_tile_rules(TileRules::THREAD_TILES.float4_copies().vector_reads())
    };

    unsafe fn run(gemm: &GemmArgs<f32>) {
        let () = Self::CHECKS;
        // SAFETY: the spec's shared-memory size holds this tile at the block's dynamic shared base.
        let at_tile = unsafe { SmemTile::new(dynamic_shared(), BK, TransposedCopy::stride(BM)) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let b_tile = unsafe { SmemTile::new(at_tile.end(), BK, BN) };

        let t = thread_idx() as usize;
        let (ty, tx) = (t / (BN / TN), t % (BN / TN));
        let (row0, col0) = (block_row() * BM as u32, block_col() * BN as u32);
        let a = gemm.a().window(row0, 0);
        let b = gemm.b().window(0, col0);

        let mut acc = ThreadTile::<TM, TN>::zero();
        let mut k0 = 0;
        while k0 < gemm.k {
            let sa = Self::A_COPY.fetch(t, &a.window(0, k0));
            let sb = Self::B_COPY.fetch(t, &b.window(k0, 0));
            Self::A_COPY.store(t, &sa, &at_tile);
            Self::B_COPY.store(t, &sb, &b_tile);
            sync_threads();
            // ANCHOR: inner_loop
            for kk in 0..BK {
                let mut a_col = [0.0f32; TM];
                let mut b_row = [0.0f32; TN];
                for q in 0..TM / 4 {
                    // SAFETY: inside the shared tile (the loop bounds are the tile's), at a
                    // 16-byte-aligned float4.
                    let v = unsafe { ld_shared_v4(at_tile.ptr(kk, ty * TM + 4 * q)) };
                    a_col[4 * q..4 * q + 4].copy_from_slice(&v);
                }
                for q in 0..TN / 4 {
                    // SAFETY: inside the shared tile (the loop bounds are the tile's), at a
                    // 16-byte-aligned float4.
                    let v = unsafe { ld_shared_v4(b_tile.ptr(kk, tx * TN + 4 * q)) };
                    b_row[4 * q..4 * q + 4].copy_from_slice(&v);
                }
                acc.outer_product(&a_col, &b_row);
            }
            // ANCHOR_END: inner_loop
            sync_threads();
            k0 += BK as u32;
        }

        // The thread's TM rows, and its TN columns as runs of four.
        store_thread_tile(&gemm.c().window(row0, col0), &acc, |i| ty * TM + i, |q| tx * TN + 4 * q);
    }
}

entries! {
    elem = f32;
    sgemm_07_transposed_a_128x128x8_t8x8 => TransposedA<128, 128, 8, 8, 8>,
    sgemm_07_transposed_a_64x128x8_t8x8 => TransposedA<64, 128, 8, 8, 8>,
    sgemm_07_transposed_a_128x128x16_t8x4 => TransposedA<128, 128, 16, 8, 4>,
    sgemm_07_transposed_a_64x64x16_t8x4 => TransposedA<64, 64, 16, 8, 4>,
}
