//! # Rung 13 — Hopper warpgroup MMA (`wgmma`)
//!
//! **Idea.** Replace rung 12's per-warp `mma.sync`, whose operands `ldmatrix` must bring into
//! registers, by Hopper's `wgmma.mma_async`: four warps (a warpgroup) multiply a 64×`BN`×16 tile
//! in one asynchronous instruction that reads A and B directly from shared memory through two
//! matrix descriptors; only the accumulators live in registers. Warpgroup `w` owns rows
//! `64w .. 64w+63` and all `BN` columns; K-tiles are 64 deep, four instructions per tile.
//!
//! **Invariants.** Both tiles are 128-byte swizzled (`swizzle.rs`) and built from 1024-byte-aligned
//! atoms of 8 rows: A K-major, B N-major in 64-column panels (descriptors: `book/src/wgmma.md`).
//! Tiles copied by `cp.async` (generic proxy) are fenced with `fence.proxy.async` before the tensor
//! cores (async proxy) read them. One wgmma group stays in flight across the per-tile barrier
//! (`wait_group 1`), so copies may overwrite only the buffer of tile `kt - 2`: loads run
//! `STAGES - 2` tiles ahead. Tails as in rung 12: zero-filled loads, predicated stores, element-wise
//! loads for unaligned rows.
//!
//! **Cost.** One `wgmma` per 64×`BN`×16 slice replaces the fragments and `ldmatrix` of rung 12.
//! Every thread still copies tiles and waits at a block barrier per K-tile; rung 14 takes the
//! copies away.
//!
//! Layouts, the pipeline, the epilogue and the measured speed: `book/src/rung-13-wgmma.md`.

use crate::tile_loader::{TileLoader, aligned_rows};
use crate::prelude::*;
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::ladder(13, "wgmma", "Hopper wgmma: 64xNx16 per warpgroup, operands read from swizzled shared memory");

/// Elements `E`, tile `T`: a `bm × bn` block tile (`bm / 64` warpgroups, one `m64nBNk16` per
/// warpgroup and 16-slice of K), K-tiles of `bk = 64` (one 128-byte swizzle row), `stages`
/// shared-memory buffers.
pub struct Wgmma<E, const T: Tile>(PhantomData<E>);

impl<E: HalfElem, const T: Tile> Wgmma<E, T> {
    const BM: usize = T.bm as usize;
    const BN: usize = T.bn as usize;
    const BK: usize = T.bk as usize;
    const STAGES: usize = T.stages as usize;
    const THREADS: usize = Self::BM / 64 * 128;
    const A_BYTES: usize = SwizzledTile::bytes(Self::BM, Self::BK);
    const STAGE_BYTES: usize = Self::A_BYTES + SwizzledTile::bytes(Self::BK, Self::BN);

    const VALID: () = {
        assert!(Self::BM % 64 == 0 && Self::BM >= 64, "one warpgroup per 64 rows");
        assert!(Self::BN == 64 || Self::BN == 128 || Self::BN == 256, "the wgmma shapes instantiated in device/wgmma.rs");
        assert!(Self::BK == 64, "a K-tile is one 128-byte swizzle row");
        assert!((Self::BM * Self::BK / 8) % Self::THREADS == 0 && (Self::BK * Self::BN / 8) % Self::THREADS == 0, "copies split evenly");
        assert!(Self::BN / 8 <= crate::unroll::UNROLL_MAX);
        assert!(Self::STAGES >= 3, "one buffer for the tile in flight, one being read, one or more loading");
    };

    #[inline(always)]
    fn tiles(stage: usize) -> (SwizzledTile, SwizzledTile) {
        let base = stage * Self::STAGE_BYTES;
        (SwizzledTile::new(base, Self::BM, Self::BK), SwizzledTile::new(base + Self::A_BYTES, Self::BK, Self::BN))
    }
}

impl<E: HalfElem, const T: Tile> GemmKernel for Wgmma<E, T> {
    type Elem = E;
    const SPEC: KernelSpec = {
        let () = Self::VALID;
        KernelSpec::unnamed(
            RUNG,
            E::DTYPE,
            T,
            Self::THREADS as u32,
            (Self::STAGES * Self::STAGE_BYTES) as u32,
        )
    };

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        let smem: *mut u8 = dynamic_shared();
        let smem_addr = shared_address(smem);
        let tid = thread_idx();
        let (wg, warp_in_wg, lane) = (tid / 128, warp_idx() % 4, lane_idx());
        let (row0, col0) = (block_row() * Self::BM as u32, block_col() * Self::BN as u32);
        let (a, b) = (gemm.a().window(row0, 0), gemm.b().window(0, col0));
        let (a_vec, b_vec) = aligned_rows(gemm);
        let k_tiles = gemm.k.div_ceil(Self::BK as u32);
        let loader = TileLoader { smem, smem_addr, a, b, a_vec, b_vec, tid, threads: Self::THREADS };
        let load = |kt: u32, stage: usize| {
            let (a_tile, b_tile) = Self::tiles(stage);
            // SAFETY: the caller's guarantee for `gemm` and this block's shared memory, passed on.
            unsafe { loader.load(a_tile, b_tile, kt * Self::BK as u32, Self::BM, Self::BN, Self::BK) };
        };

        // ANCHOR: pipeline
        // Prologue: tiles 0 .. STAGES-3 in flight (the ring keeps one more buffer for the tile
        // the tensor cores may still be reading).
        for s in 0..Self::STAGES - 2 {
            if (s as u32) < k_tiles {
                load(s as u32, s);
            }
            cp_async_commit_group();
        }

        let mut acc = [0.0f32; 128];
        let (mut read_stage, mut write_stage) = (0, Self::STAGES - 2);
        for kt in 0..k_tiles {
            // Tile kt is in shared memory (this thread's copies), visible to the async proxy,
            // then (barrier) to every warpgroup. Every warpgroup has also finished tile kt-2.
            cp_async_wait_pending(Self::STAGES - 3);
            fence_proxy_async_shared();
            sync_threads();
            let next = kt + Self::STAGES as u32 - 2;
            if next < k_tiles {
                load(next, write_stage);
            }
            cp_async_commit_group();
            // ANCHOR_END: pipeline

            // ANCHOR: wgmma_step
            let (a_tile, b_tile) = Self::tiles(read_stage);
            let a_rows = smem_addr + a_tile.offset() + wg * 64 * 128;
            let b_rows = smem_addr + b_tile.offset();
            wgmma_fence();
            for kk in 0..Self::BK / 16 {
                let desc_a = wgmma_descriptor(a_rows, kk, Major::K);
                let desc_b = wgmma_descriptor(b_rows, kk, Major::Mn { panel_bytes: b_tile.panel_bytes() });
                // SAFETY: the descriptors point at the stage's swizzled tiles, complete and fenced
                // for the async proxy by the wait above.
                unsafe { wgmma_m64::<E, 0, 1>(&mut acc, Self::BN, desc_a, desc_b, true) };
            }
            wgmma_commit_group();
            wgmma_wait_group::<1>();
            // ANCHOR_END: wgmma_step
            read_stage = if read_stage + 1 == Self::STAGES { 0 } else { read_stage + 1 };
            write_stage = if write_stage + 1 == Self::STAGES { 0 } else { write_stage + 1 };
        }
        // ANCHOR: epilogue
        wgmma_wait_group::<0>();
        fence_accumulators(&mut acc, Self::BN);

        // CStore: d[4j + i] is row 16·warp + g + 8·(i / 2), column 8j + 2t + i % 2 of the
        // warpgroup's 64 × BN tile.
        let c = gemm.c().window(row0 + wg * 64 + warp_in_wg * 16 + lane / 4, col0 + lane % 4 * 2);
        unroll!(Self::BN / 8, |j| {
            let col = (j * 8) as u32;
            c.store(0, col, acc[4 * j]);
            c.store(0, col + 1, acc[4 * j + 1]);
            c.store(8, col, acc[4 * j + 2]);
            c.store(8, col + 1, acc[4 * j + 3]);
        });
        // ANCHOR_END: epilogue
    }
}

// ANCHOR: entries
entries! {
    for E in (bgemm: Bf16, hgemm: F16);
    bgemm_13_wgmma_128x256x64_s4 | hgemm_13_wgmma_128x256x64_s4 => Wgmma<E, { Tile::block(128, 256, 64).with_stages(4) }>,
    bgemm_13_wgmma_128x128x64_s4 | _ => Wgmma<E, { Tile::block(128, 128, 64).with_stages(4) }>,
}
// ANCHOR_END: entries
