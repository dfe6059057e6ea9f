//! # Rung 6 — vectorized memory access: float4 loads and stores
//!
//! Rung 5 moves every float with its own instruction. The memory system works in larger pieces:
//! one `ld.global.v4.f32` brings four neighbouring floats (16 bytes) into four registers, so the
//! copy of a tile from global to shared memory takes a quarter of the instructions, and so does
//! the write of C. Inside the K-loop, the `TN` values of B a thread needs lie side by side in a row
//! of the shared tile, so they too come as float4 (`ld.shared.v4.f32`).
//!
//! A vector access must be 16-byte aligned. The base pointers are; a row of A starts on a 16-byte
//! boundary for every row only if K is a multiple of 4, a row of B or C only if N is. And a vector
//! must not run past the edge of the matrix. So each K-step the block decides, the same way for
//! all its threads: if the slice it copies lies wholly inside the matrix and the rows are aligned,
//! it uses float4 loads without any check; otherwise it uses the scalar, zero-filling loads of
//! rung 5 (only blocks on the bottom or right edge, the last K-step, or matrices with unaligned
//! rows take that path). The epilogue decides per float4 of C in the same way.
//!
//! Each thread still reads its `TM` values of A one float at a time: they lie in a column of the
//! row-major A tile. The next rung stores A transposed to fix that.
//!
//! Cost: a quarter of the load and store instructions on the global side and for B; A's scalar
//! reads remain.
//!
//! Measured speed and what limits it at each size: `book/src/rung-06-vectorized.md` and `docs/perf/`.

use crate::copy::{store_thread_tile, RowMajorCopy};
use crate::prelude::*;

pub const RUNG: Rung = Rung::ladder(6, "vectorized", "float4 global loads and stores, float4 shared reads of B");

/// Rung 5's kernel with float4 copies, float4 reads of B and float4 stores of C.
pub struct Vectorized<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize>;

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize> Vectorized<BM, BN, BK, TM, TN> {
    const THREADS: usize = (BM / TM) * (BN / TN);
    const A_COPY: RowMajorCopy = RowMajorCopy::new(BM, BK, Self::THREADS);
    const B_COPY: RowMajorCopy = RowMajorCopy::new(BK, BN, Self::THREADS);
    const CHECKS: () = {
        assert!(TN % 4 == 0, "a thread's row of B is read as float4s");
        assert!(Self::THREADS % 32 == 0 && Self::THREADS <= 1024, "whole warps, at most 1024 threads");
        let _ = (Self::A_COPY, Self::B_COPY);
    };
}

impl<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize> GemmKernel
    for Vectorized<BM, BN, BK, TM, TN>
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
        .with_tile_rules(TileRules::THREAD_TILES.float4_copies())
    };

    unsafe fn run(gemm: &GemmArgs<f32>) {
        let () = Self::CHECKS;
        // SAFETY: the spec's shared-memory size holds this tile at the block's dynamic shared base.
        let a_tile = unsafe { SmemTile::new(dynamic_shared(), BM, BK) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let b_tile = unsafe { SmemTile::new(a_tile.end(), BK, BN) };

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
            Self::A_COPY.store(t, &sa, &a_tile);
            Self::B_COPY.store(t, &sb, &b_tile);
            sync_threads();
            // ANCHOR: inner_loop
            for kk in 0..BK {
                let mut a_col = [0.0f32; TM];
                let mut b_row = [0.0f32; TN];
                for i in 0..TM {
                    a_col[i] = a_tile.get(ty * TM + i, kk);
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
    sgemm_06_vectorized_128x128x8_t8x8 => Vectorized<128, 128, 8, 8, 8>,
    sgemm_06_vectorized_128x128x16_t8x8 => Vectorized<128, 128, 16, 8, 8>,
    sgemm_06_vectorized_128x64x16_t8x8 => Vectorized<128, 64, 16, 8, 8>,
    sgemm_06_vectorized_64x64x16_t4x4 => Vectorized<64, 64, 16, 4, 4>,
}
