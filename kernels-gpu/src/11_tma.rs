//! # Rung 11 — the copy engine (TMA), a producer warp and mbarrier completion
//!
//! **Idea.** Let Hopper's copy engine (TMA) fetch whole 2D boxes of A and B, each from one
//! instruction of one thread, and complete them on mbarriers, which any thread may wait on,
//! instead of per-thread async-groups and a block barrier per slice. The block is rung 9's
//! `(BM/WM)·(BN/WN)` computing warps plus one producer warp; producer and consumers never meet at a
//! `bar.sync`, and each consumer warp runs as far ahead as the data allows.
//!
//! **Invariants.** Stage `s` of a ring of `STAGES` has `full[s]` (one arrival, the producer's
//! `expect_tx` of the stage's bytes, whole boxes including the zeros past an edge) and `empty[s]`
//! (one arrival per consumer thread, or per consumer warp with [`StageRelease::PerWarp`], tag `_wa`); a waiter for
//! round `r` names parity `r & 1`. A is a `BM × 32` box with 128-byte swizzle, so stages start on
//! 1024-byte boundaries; B is a `32 × BN` box, unswizzled. The engine reads zeros outside the
//! matrices, so only the epilogue checks edges; it needs 16-byte row strides, and the catalog
//! rejects K or N not multiples of 4 before launch. Every wait traps after 20 s instead of hanging.
//!
//! **Cost.** One block of `(BM/WM)·(BN/WN) + 1` warps per SM (the consumers' registers allow no
//! more), whose consumers spend their issue slots on FMAs and shared reads only. With [`Fragments::Double`]
//! fragments (tag `_df`) a consumer reads the next four K-steps of A while it multiplies the
//! current four, the stage written out: `4·TM` more live registers (within the one block per SM's
//! budget) and a stage's worth of code, for reads whose latency no longer starts each quad.
//!
//! The ring, the resources, one XOR per chunk, what was tried and dropped, and the measured speed:
//! `book/src/rung-11-tma.md` (and `book/src/mbarrier-tma.md`).

use crate::prelude::*;
use crate::warp_compute::*;
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::ladder(11, "tma", "TMA box loads by a producer warp into an mbarrier-guarded ring");

/// Box width along K: one 128-byte swizzle line of f32.
const BOX_K: usize = 32;

/// Tile `T`: block tile `bm × bn`, K-slices of `bk` = 32 (one box), warp tiles `wm × wn`, `stages`
/// buffers; `Acc` = [`ThreadTile<TM, TN>`], a thread's accumulators.
/// `R` ([`StageRelease::PerThread`] or [`StageRelease::PerWarp`]): one arrival per consumer thread
/// on `empty[s]`, or one per consumer warp (after `bar.warp.sync`).
/// `F` ([`Fragments::Single`] or [`Fragments::Double`]): A's registers for four K-steps at a
/// time, or for the next four as well, read while the current four are multiplied.
pub struct Tma<const T: Tile, Acc, const R: StageRelease = { StageRelease::PerThread }, const F: Fragments = { Fragments::Single }>(PhantomData<Acc>);

impl<const T: Tile, const TM: usize, const TN: usize, const R: StageRelease, const F: Fragments> Tma<T, ThreadTile<TM, TN>, R, F> {
    const BM: usize = T.bm as usize;
    const BN: usize = T.bn as usize;
    const WM: usize = T.wm as usize;
    const WN: usize = T.wn as usize;
    const STAGES: usize = T.stages as usize;
    const WARP_ARRIVE: bool = matches!(R, StageRelease::PerWarp);
    const TILING: WarpTiling = WarpTiling::new(Self::BM, Self::BN, Self::WM, Self::WN, TM, TN, AStaging::Swizzled);
    /// Computing threads; the producer warp comes after them.
    const CONSUMERS: usize = Self::TILING.threads();
    const THREADS: usize = Self::CONSUMERS + 32;
    const A_BYTES: usize = Self::BM * BOX_K * 4;
    const STAGE_BYTES: usize = Self::A_BYTES + BOX_K * Self::BN * 4;
    /// Barriers (16 bytes per stage) and up to 1023 bytes of alignment padding before the stages.
    const SMEM_BYTES: usize = 2048 + Self::STAGES * Self::STAGE_BYTES;
    const CHECKS: () = {
        let _ = Self::TILING;
        assert!(T.tm == 1 && T.tn == 1, "the thread tile is the Acc type");
        assert!(T.bk as usize == BOX_K, "K-slices are one box wide");
        assert!(Self::STAGES >= 2 && Self::STAGES <= 8, "2 to 8 stages");
        assert!(Self::A_BYTES % 1024 == 0 && Self::STAGE_BYTES % 1024 == 0, "swizzled tiles start on 1024-byte blocks");
        assert!(16 * Self::STAGES <= 1024, "barriers fit before the first stage");
        assert!(Self::THREADS <= 1024);
    };
}

impl<const T: Tile, const TM: usize, const TN: usize, const R: StageRelease, const F: Fragments> GemmKernel for Tma<T, ThreadTile<TM, TN>, R, F> {
    type Elem = f32;
    const SPEC: KernelSpec = {
        let () = Self::CHECKS;
        KernelSpec::unnamed(
            RUNG,
            Dtype::F32,
            T.with_thread(TM as u32, TN as u32),
            Self::THREADS as u32,
            Self::SMEM_BYTES as u32,
        )
        .with_tile_rules(TileRules::THREAD_TILES.vector_reads().warp_tiled().tma_producer())
        .with_tensor_maps(TensorMaps {
            a_box: (Self::BM as u32, BOX_K as u32),
            a_span: crate::spec::BoxSpan::One,
            a_swizzle: crate::spec::Swizzle::B128,
            b_box: (BOX_K as u32, Self::BN as u32),
            b_span: crate::spec::BoxSpan::One,
            b_swizzle: crate::spec::Swizzle::None,
            c_box: None,
            c_swizzle: crate::spec::Swizzle::None,
        })
        .with_variant(Variant::Tma(R, F))
    };

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<f32>) {
        let () = Self::CHECKS;
        let smem: *mut u8 = dynamic_shared();
        let smem_addr = shared_address(smem);
        let full = |s: usize| smem_addr + 8 * s as u32;
        let empty = |s: usize| smem_addr + 8 * (Self::STAGES + s) as u32;
        // The stages start at the first 1024-byte boundary after the barriers. The pointer stays
        // derived from the shared base, so reads through it remain `ld.shared`.
        let stages_addr = (smem_addr + 16 * Self::STAGES as u32 + 1023) & !1023;
        let stages = smem.wrapping_add((stages_addr - smem_addr) as usize);
        let a_addr = |s: usize| stages_addr + (s * Self::STAGE_BYTES) as u32;
        let b_addr = |s: usize| a_addr(s) + Self::A_BYTES as u32;

        let t = thread_idx() as usize;
        if t == 0 {
            for s in 0..Self::STAGES {
                // SAFETY: thread 0 initialises each stage's barriers, in this block's shared
                // memory, before any use.
                unsafe {
                    mbarrier_init(full(s), 1);
                    mbarrier_init(empty(s), if Self::WARP_ARRIVE { Self::CONSUMERS / 32 } else { Self::CONSUMERS } as u32);
                }
            }
            fence_mbarrier_init();
        }
        sync_threads();

        let (row0, col0) = (block_row() * Self::BM as u32, block_col() * Self::BN as u32);
        let k_tiles = gemm.k.div_ceil(BOX_K as u32);

        // ANCHOR: producer
        if t >= Self::CONSUMERS {
            // The producer warp: lane 0 issues every copy, the other lanes have nothing to do.
            if t == Self::CONSUMERS {
                let (map_a, map_b) = (gemm.tensor_maps, gemm.tensor_maps.wrapping_add(1));
                // SAFETY: the two maps are the host's tensor maps of A and B, passed in `gemm`.
                unsafe {
                    tma_prefetch_map(map_a);
                    tma_prefetch_map(map_b);
                }
                let (mut s, mut round) = (0usize, 0u32);
                for kt in 0..k_tiles {
                    if round > 0 {
                        // Every consumer has finished with the slice this stage held last round.
                        // SAFETY: the stage barriers were initialised by one thread and published
                        // by the block barrier before the loop.
                        unsafe { mbarrier_wait(empty(s), (round - 1) & 1) };
                    }
                    let k0 = (kt * BOX_K as u32) as i32;
                    // SAFETY: stage `s` is free (the `empty` wait above); the boxes fit its buffer
                    // and `full(s)` expects their bytes.
                    unsafe {
                        // Whole boxes, zero-filled parts included, count as transaction bytes.
                        mbarrier_arrive_expect_tx(full(s), Self::STAGE_BYTES as u32);
                        tma_load_3d(a_addr(s), map_a, k0, row0 as i32, gemm.plane_a(gemm.z), full(s));
                        tma_load_3d(b_addr(s), map_b, col0 as i32, k0, gemm.plane_b(gemm.z), full(s));
                    }
                    s += 1;
                    if s == Self::STAGES {
                        s = 0;
                        round += 1;
                    }
                }
            }
            return;
        }
        // ANCHOR_END: producer

        let place = Self::TILING.place(t);
        let reader = SwizzledReader::<TM>::new(&place, BOX_K);
        let mut acc = ThreadTile::<TM, TN>::zero();
        // ANCHOR: consumer
        let (mut s, mut round) = (0usize, 0u32);
        for _ in 0..k_tiles {
            // SAFETY: the stage barriers were initialised by one thread and published by the block
            // barrier before the loop.
            unsafe { mbarrier_wait(full(s), round & 1) };
            let a_ptr = stages.wrapping_add(s * Self::STAGE_BYTES);
            // SAFETY: the spec's shared-memory size holds every stage; this tile lies inside the
            // current stage's buffer.
            let b_tile = unsafe { SmemTile::new(a_ptr.wrapping_add(Self::A_BYTES) as *mut f32, BOX_K, Self::BN) };
            if matches!(F, Fragments::Double) {
                // The next four steps' A is read before this four's products: its latency hides
                // behind them. Written out for all eight quads of the stage, so that the two
                // buffers are renamed registers rather than copies.
                // SAFETY: the caller's guarantee for `gemm` and this block's shared memory,
                // passed on (as below).
                let mut a_next = unsafe { reader.load(a_ptr, 0) };
                unroll_short!(BOX_K / 4, |quad| {
                    let a_vals = a_next;
                    if quad + 1 < BOX_K / 4 {
                        // SAFETY: as above.
                        a_next = unsafe { reader.load(a_ptr, quad + 1) };
                    }
                    four_steps(&mut acc, &a_vals, &b_tile, 4 * quad, &place);
                });
            } else {
                for chunk in 0..BOX_K / 8 {
                    for g in 0..2 {
                        let k = chunk * 8 + 4 * g;
                        // SAFETY: the caller's guarantee for `gemm` and this block's shared memory,
                        // passed on.
                        let a_vals = unsafe { reader.load(a_ptr, k / 4) };
                        four_steps(&mut acc, &a_vals, &b_tile, k, &place);
                    }
                }
            }
            // This thread's reads of stage s are done (they are in registers): the producer may
            // overwrite it.
            if Self::WARP_ARRIVE {
                // The warp's reads are done once all its lanes are past them; then one arrival.
                sync_warp();
                if t % 32 == 0 {
                    // SAFETY: the stage barriers were initialised by one thread and published by
                    // the block barrier before the loop.
                    unsafe { mbarrier_arrive(empty(s)) };
                }
            } else {
                // SAFETY: the stage barriers were initialised by one thread and published by the
                // block barrier before the loop.
                unsafe { mbarrier_arrive(empty(s)) };
            }
            s += 1;
            if s == Self::STAGES {
                s = 0;
                round += 1;
            }
        }
        // ANCHOR_END: consumer

        store_tile(&gemm.c().window(row0, col0), &acc, &place);
    }
}

entries! {
    elem = f32;
    sgemm_11_tma_128x128x32_w64x32_t8x8_s3 => Tma<{ Tile::block(128, 128, 32).with_warp(64, 32).with_stages(3) }, ThreadTile<8, 8>>,
    sgemm_11_tma_128x128x32_w64x32_t8x8_s4 => Tma<{ Tile::block(128, 128, 32).with_warp(64, 32).with_stages(4) }, ThreadTile<8, 8>>,
    sgemm_11_tma_128x64x32_w64x32_t8x8_s4 => Tma<{ Tile::block(128, 64, 32).with_warp(64, 32).with_stages(4) }, ThreadTile<8, 8>>,
    sgemm_11_tma_128x128x32_w32x32_t4x8_s4 => Tma<{ Tile::block(128, 128, 32).with_warp(32, 32).with_stages(4) }, ThreadTile<4, 8>>,
    sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa => Tma<{ Tile::block(128, 128, 32).with_warp(64, 32).with_stages(4) }, ThreadTile<8, 8>, { StageRelease::PerWarp }>,
    sgemm_11_tma_128x128x32_w64x32_t8x8_s3_wa => Tma<{ Tile::block(128, 128, 32).with_warp(64, 32).with_stages(3) }, ThreadTile<8, 8>, { StageRelease::PerWarp }>,
    sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa_df => Tma<{ Tile::block(128, 128, 32).with_warp(64, 32).with_stages(4) }, ThreadTile<8, 8>, { StageRelease::PerWarp }, { Fragments::Double }>,
}
