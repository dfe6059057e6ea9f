//! # Rung 9 — warp tiling: block → warp → thread tiles
//!
//! **Idea.** Map threads to C in three levels that match the hardware's: the block tile `BM × BN`
//! is split among warps into warp tiles `WM × WN`; a warp tile is `(TM/4) × (TN/4)` sub-tiles in
//! which the 32 lanes form a `(WM/TM) × (WN/TN)` grid and lane (`lr`, `lc`) owns the 4×4 block at
//! (`4·lr`, `4·lc`). Neighbouring lanes then read neighbouring float4s of B (rungs 5–8 had a 2-way
//! bank conflict there), and the `WM/TM` lanes of a column share theirs by broadcast. The copy into
//! shared memory is rung 8's: A transposed and padded, B row-major, two stages, the next slice
//! prefetched through registers, one barrier per step.
//!
//! **Invariants.** The K-steps of a slice run as fully unrolled chunks of about 512 multiply-adds,
//! so every shared address is a constant offset. The spec asks for two blocks per SM
//! (`.minnctapersm 2`) only when the register estimate fits in 128. With the [`KLoop::Interior`] and
//! [`KLoop::MidStore`] loops (tags `_interior`, `_midstore`), a block whose slices all lie inside aligned
//! matrices runs a branch-free loop of plain float4 copies; blocks on an edge run a checked one.
//!
//! **Cost.** Instruction issue: with 8×8 thread tiles the 64 FMAs of a step share the scheduler
//! with 4 shared loads, address arithmetic and the copy of the next slice through registers, which
//! rungs 10 and 11 take off the computing threads.
//!
//! The mapping, the launch bounds, the interior loop, what was tried and dropped, and the measured
//! speed: `book/src/rung-09-warptile.md` (and `book/src/warptiling.md`).

use crate::prelude::*;
use core::marker::PhantomData;
use crate::copy::{store4, RowMajorCopy, TransposedCopy};

pub const RUNG: Rung = Rung::ladder(9, "warptile", "block → warp → thread tiles; conflict-free float4 reads");

/// Tile `T`: block tile `bm × bn`, K-slices of `bk`, warp tiles `wm × wn`, `(bm/wm)·(bn/wn)` warps,
/// two shared stages; `Acc` = [`ThreadTile<TM, TN>`]: the `TM × TN` accumulators of a thread, in
/// 4×4 blocks (a type, as `TM` and `TN` size register arrays); `L` picks the K loop
/// ([`KLoop::Checked`], [`KLoop::Interior`] or [`KLoop::MidStore`]).
pub struct Warptile<const T: Tile, Acc, const L: KLoop = { KLoop::Checked }>(PhantomData<Acc>);

impl<const T: Tile, const TM: usize, const TN: usize, const L: KLoop> Warptile<T, ThreadTile<TM, TN>, L> {
    const BM: usize = T.bm as usize;
    const BN: usize = T.bn as usize;
    const BK: usize = T.bk as usize;
    const WM: usize = T.wm as usize;
    const WN: usize = T.wn as usize;
    const LOOP: KLoop = L;
    const THREADS: usize = (Self::BM / Self::WM) * (Self::BN / Self::WN) * 32;
    /// Lanes along a warp tile's rows and columns.
    const LANES_M: usize = Self::WM / TM;
    const LANES_N: usize = Self::WN / TN;
    /// Rows and columns between a thread's 4×4 blocks: the size of one warp sub-tile.
    const SUB_M: usize = 4 * Self::LANES_M;
    const SUB_N: usize = 4 * Self::LANES_N;
    const A_COPY: TransposedCopy = TransposedCopy::new(Self::BM, Self::BK, Self::THREADS);
    const B_COPY: RowMajorCopy = RowMajorCopy::new(Self::BK, Self::BN, Self::THREADS);
    /// Floats of one stage: the transposed A tile, then the B tile.
    const STAGE: usize = SmemTile::elems(Self::BK, TransposedCopy::stride(Self::BM)) + SmemTile::elems(Self::BK, Self::BN);
    /// Registers a thread needs, roughly: its accumulators, the operands of two steps (ptxas
    /// loads the next step's while the current one computes), the slice in transit, and about 24
    /// for addresses, indices and loop state.
    // ANCHOR: min_blocks
    const REGS_ESTIMATE: usize = TM * TN
        + 2 * (TM + TN)
        + 4 * (Self::BM * Self::BK / 4 / Self::THREADS + Self::BK * Self::BN / 4 / Self::THREADS)
        + 24;
    /// Blocks per SM the register budget must allow. When the estimate fits in 128 registers we
    /// hold ptxas to 128 (two blocks of 256 threads per SM, 16 warps); left alone it takes ~135 for
    /// 128×128×8 and only one block fits. Larger tiles get what they need.
    const MIN_BLOCKS: u32 = if Self::REGS_ESTIMATE <= 128 { (65536 / (128 * Self::THREADS)) as u32 } else { 0 };
    // ANCHOR_END: min_blocks
    /// K-steps per fully unrolled chunk: about 512 multiply-adds, which LLVM's unroll threshold
    /// (1000, set by the build) accepts. A whole BK = 16 slice of 8×8 steps would not unroll, and a
    /// rolled step loop costs address arithmetic and scheduling freedom.
    const UNROLL: usize = if Self::BK < 512 / (TM * TN) { Self::BK } else { 512 / (TM * TN) };
    const CHECKS: () = {
        assert!(T.tm == 1 && T.tn == 1 && T.stages == 1, "the thread tile is the Acc type; the stages are two");
        assert!(Self::THREADS <= 1024, "at most 1024 threads");
        assert!(!matches!(Self::LOOP, KLoop::MidStore) || Self::BK % 2 == 0, "the store splits a slice in halves");
        let _ = (Self::A_COPY, Self::B_COPY);
    };

    // ANCHOR: inner_loop
    /// Steps `first .. first + count` of the slice in (`at`, `b`): for each, a column of `Aᵀ` and a
    /// row of B from shared memory into registers, then their outer product into `acc`. The steps
    /// run in chunks of UNROLL (fewer if `count` is smaller), each chunk a loop LLVM unrolls fully.
    #[inline(always)]
    fn compute_steps(
        at: &SmemTile,
        b: &SmemTile,
        m0: usize,
        n0: usize,
        acc: &mut ThreadTile<TM, TN>,
        first: usize,
        count: usize,
    ) {
        if count == 0 {
            return;
        }
        let unroll = if count < Self::UNROLL { count } else { Self::UNROLL };
        for chunk in 0..count / unroll {
            for u in 0..unroll {
                let kk = first + chunk * unroll + u;
                let mut a_col = [0.0f32; TM];
                let mut b_row = [0.0f32; TN];
                for mi in 0..TM / 4 {
                    // SAFETY: inside the shared tile (the loop bounds are the tile's), at a
                    // 16-byte-aligned float4.
                    let v = unsafe { ld_shared_v4(at.ptr(kk, m0 + mi * Self::SUB_M)) };
                    a_col[4 * mi..4 * mi + 4].copy_from_slice(&v);
                }
                for ni in 0..TN / 4 {
                    // SAFETY: inside the shared tile (the loop bounds are the tile's), at a
                    // 16-byte-aligned float4.
                    let v = unsafe { ld_shared_v4(b.ptr(kk, n0 + ni * Self::SUB_N)) };
                    b_row[4 * ni..4 * ni + 4].copy_from_slice(&v);
                }
                acc.outer_product(&a_col, &b_row);
            }
        }
    }
    // ANCHOR_END: inner_loop

    /// Thread `t`'s first row and column in the block tile; its 4×4 blocks are SUB_M rows and
    /// SUB_N columns apart from there.
    #[inline(always)]
    // ANCHOR: mapping
    fn lane_origin(t: usize) -> (usize, usize) {
        let (warp, lane) = (t / 32, t % 32);
        let m0 = warp / (Self::BN / Self::WN) * Self::WM + lane / Self::LANES_N * 4;
        let n0 = warp % (Self::BN / Self::WN) * Self::WN + lane % Self::LANES_N * 4;
        (m0, n0)
    }
    // ANCHOR_END: mapping

    /// Copies the first slice (origins of `a` and `b`) into stage 0 and waits for the block.
    #[inline(always)]
    fn copy_first_slice(t: usize, a: &Matrix<f32>, b: &Matrix<f32>, at0: &SmemTile, b0: &SmemTile) {
        Self::A_COPY.store(t, &Self::A_COPY.fetch(t, a), at0);
        Self::B_COPY.store(t, &Self::B_COPY.fetch(t, b), b0);
        sync_threads();
    }

    /// The two stages in dynamic shared memory: transposed A and B tiles of each.
    #[inline(always)]
    fn stages() -> (SmemTile, SmemTile, SmemTile, SmemTile) {
        // SAFETY: the spec's shared-memory size holds this tile at the block's dynamic shared base.
        let at0 = unsafe { SmemTile::new(dynamic_shared(), Self::BK, TransposedCopy::stride(Self::BM)) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let b0 = unsafe { SmemTile::new(at0.end(), Self::BK, Self::BN) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let at1 = unsafe { SmemTile::new(b0.end(), Self::BK, TransposedCopy::stride(Self::BM)) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let b1 = unsafe { SmemTile::new(at1.end(), Self::BK, Self::BN) };
        (at0, b0, at1, b1)
    }

    /// Writes the thread's accumulators (4×4 blocks SUB_M rows and SUB_N columns apart from
    /// (`m0`, `n0`)) to the block's window of C.
    #[inline(always)]
    fn store_acc(c: &Output, acc: &ThreadTile<TM, TN>, m0: usize, n0: usize) {
        for mi in 0..TM / 4 {
            for i in 0..4 {
                for ni in 0..TN / 4 {
                    let (row, col) = (m0 + mi * Self::SUB_M + i, n0 + ni * Self::SUB_N);
                    store4(c, row as u32, col as u32, acc.get4(4 * mi + i, 4 * ni));
                }
            }
        }
    }

    /// Whether every K-slice of this block lies inside A and B with 16-byte aligned rows, so the
    /// block may copy without checks: full `BM` rows of A and `BN` columns of B from the windows'
    /// origins, and K a (nonzero) multiple of BK. The same for all threads of the block.
    #[inline(always)]
    fn interior(k: u32, a: &Matrix<f32>, b: &Matrix<f32>) -> bool {
        k > 0
            && k % Self::BK as u32 == 0
            && a.rows_align4()
            && b.rows_align4()
            && a.covers(Self::BM as u32, k)
            && b.covers(k, Self::BN as u32)
    }

    /// The kernel with the [`KLoop::Interior`] or [`KLoop::MidStore`] K loop.
    #[inline(always)]
    unsafe fn run_split(gemm: &GemmArgs<f32>) {
        let () = Self::CHECKS;
        let (at0, b0, at1, b1) = Self::stages();
        let t = thread_idx() as usize;
        let (m0, n0) = Self::lane_origin(t);
        let (row0, col0) = (block_row() * Self::BM as u32, block_col() * Self::BN as u32);
        let a = gemm.a().window(row0, 0);
        let b = gemm.b().window(0, col0);
        let steps = gemm.k.div_ceil(Self::BK as u32);
        Self::copy_first_slice(t, &a, &b, &at0, &b0);

        let mut acc = ThreadTile::<TM, TN>::zero();
        if Self::interior(gemm.k, &a, &b) {
            // ANCHOR: interior_loop
            // Every slice but the last prefetches the next one, unchecked; the windows advance
            // by one slice per step.
            let (mut a_next, mut b_next) = (a, b);
            for s in 0..steps - 1 {
                let (at_cur, b_cur, at_next, b_next_tile) = if s % 2 == 0 { (at0, b0, at1, b1) } else { (at1, b1, at0, b0) };
                a_next = a_next.window(0, Self::BK as u32);
                b_next = b_next.window(Self::BK as u32, 0);
                let sa = Self::A_COPY.fetch_inside(t, &a_next);
                let sb = Self::B_COPY.fetch_inside(t, &b_next);
                // The next stage was last read before the previous barrier: it may be written
                // at any point of this slice.
                let first = if matches!(Self::LOOP, KLoop::MidStore) { Self::BK / 2 } else { Self::BK };
                Self::compute_steps(&at_cur, &b_cur, m0, n0, &mut acc, 0, first);
                Self::A_COPY.store(t, &sa, &at_next);
                Self::B_COPY.store(t, &sb, &b_next_tile);
                Self::compute_steps(&at_cur, &b_cur, m0, n0, &mut acc, first, Self::BK - first);
                sync_threads();
            }
            let (at_last, b_last) = if (steps - 1) % 2 == 0 { (at0, b0) } else { (at1, b1) };
            Self::compute_steps(&at_last, &b_last, m0, n0, &mut acc, 0, Self::BK);
            // ANCHOR_END: interior_loop
        } else {
            // Blocks on an edge copy the next slice, checked, into the other stage before
            // computing the current one: nothing stays in registers across the arithmetic, so
            // this loop needs no more registers than the interior one.
            for s in 0..steps {
                let (at_cur, b_cur, at_next, b_next) = if s % 2 == 0 { (at0, b0, at1, b1) } else { (at1, b1, at0, b0) };
                if s + 1 < steps {
                    let k_next = (s + 1) * Self::BK as u32;
                    Self::A_COPY.store(t, &Self::A_COPY.fetch(t, &a.window(0, k_next)), &at_next);
                    Self::B_COPY.store(t, &Self::B_COPY.fetch(t, &b.window(k_next, 0)), &b_next);
                }
                Self::compute_steps(&at_cur, &b_cur, m0, n0, &mut acc, 0, Self::BK);
                sync_threads();
            }
        }

        Self::store_acc(&gemm.c().window(row0, col0), &acc, m0, n0);
    }
}

impl<const T: Tile, const TM: usize, const TN: usize, const L: KLoop> GemmKernel for Warptile<T, ThreadTile<TM, TN>, L> {
    type Elem = f32;
    const SPEC: KernelSpec = {
        let () = Self::CHECKS;
        KernelSpec::unnamed(
            RUNG,
            Dtype::F32,
            T.with_thread(TM as u32, TN as u32).with_stages(2),
            Self::THREADS as u32,
            (2 * Self::STAGE * 4) as u32,
        )
        .with_tile_rules(TileRules::THREAD_TILES.float4_copies().vector_reads().warp_tiled())
        .with_min_blocks_per_sm(Self::MIN_BLOCKS)
        .with_variant(Variant::Warptile(L))
    };

    unsafe fn run(gemm: &GemmArgs<f32>) {
        let () = Self::CHECKS;
        if !matches!(Self::LOOP, KLoop::Checked) {
            // SAFETY: the caller's guarantee for `gemm` and this block's shared memory, passed on.
            unsafe { Self::run_split(gemm) };
            return;
        }
        let (at0, b0, at1, b1) = Self::stages();
        let t = thread_idx() as usize;
        let (m0, n0) = Self::lane_origin(t);
        let (row0, col0) = (block_row() * Self::BM as u32, block_col() * Self::BN as u32);
        let a = gemm.a().window(row0, 0);
        let b = gemm.b().window(0, col0);
        let steps = gemm.k.div_ceil(Self::BK as u32);
        Self::copy_first_slice(t, &a, &b, &at0, &b0);

        let mut acc = ThreadTile::<TM, TN>::zero();
        for s in 0..steps {
            let (at_cur, b_cur, at_next, b_next) = if s % 2 == 0 { (at0, b0, at1, b1) } else { (at1, b1, at0, b0) };
            let more = s + 1 < steps; // uniform over the block
            let k_next = (s + 1) * Self::BK as u32;
            let (sa, sb) = if more {
                (Self::A_COPY.fetch(t, &a.window(0, k_next)), Self::B_COPY.fetch(t, &b.window(k_next, 0)))
            } else {
                Default::default()
            };
            Self::compute_steps(&at_cur, &b_cur, m0, n0, &mut acc, 0, Self::BK);
            if more {
                Self::A_COPY.store(t, &sa, &at_next);
                Self::B_COPY.store(t, &sb, &b_next);
            }
            sync_threads();
        }

        Self::store_acc(&gemm.c().window(row0, col0), &acc, m0, n0);
    }
}

entries! {
    elem = f32;
    sgemm_09_warptile_128x128x16_w32x64_t8x8_s2 => Warptile<{ Tile::block(128, 128, 16).with_warp(32, 64) }, ThreadTile<8, 8>>,
    sgemm_09_warptile_128x128x16_w64x32_t8x8_s2 => Warptile<{ Tile::block(128, 128, 16).with_warp(64, 32) }, ThreadTile<8, 8>>,
    sgemm_09_warptile_64x128x8_w32x64_t8x8_s2 => Warptile<{ Tile::block(64, 128, 8).with_warp(32, 64) }, ThreadTile<8, 8>>,
    sgemm_09_warptile_128x64x8_w64x32_t8x8_s2 => Warptile<{ Tile::block(128, 64, 8).with_warp(64, 32) }, ThreadTile<8, 8>>,
    sgemm_09_warptile_64x64x8_w32x32_t8x4_s2 => Warptile<{ Tile::block(64, 64, 8).with_warp(32, 32) }, ThreadTile<8, 4>>,
    sgemm_09_warptile_128x128x16_w32x32_t4x8_s2 => Warptile<{ Tile::block(128, 128, 16).with_warp(32, 32) }, ThreadTile<4, 8>>,
    sgemm_09_warptile_128x256x8_w64x64_t8x16_s2 => Warptile<{ Tile::block(128, 256, 8).with_warp(64, 64) }, ThreadTile<8, 16>>,
    sgemm_09_warptile_64x128x16_w32x64_t8x8_s2 => Warptile<{ Tile::block(64, 128, 16).with_warp(32, 64) }, ThreadTile<8, 8>>,
    sgemm_09_warptile_128x128x8_w64x64_t8x16_s2 => Warptile<{ Tile::block(128, 128, 8).with_warp(64, 64) }, ThreadTile<8, 16>>,
    sgemm_09_warptile_128x128x8_w64x32_t8x8_s2_interior => Warptile<{ Tile::block(128, 128, 8).with_warp(64, 32) }, ThreadTile<8, 8>, { KLoop::Interior }>,
    sgemm_09_warptile_128x128x8_w64x32_t8x8_s2_midstore => Warptile<{ Tile::block(128, 128, 8).with_warp(64, 32) }, ThreadTile<8, 8>, { KLoop::MidStore }>,
    sgemm_09_warptile_64x128x8_w32x64_t8x8_s2_interior => Warptile<{ Tile::block(64, 128, 8).with_warp(32, 64) }, ThreadTile<8, 8>, { KLoop::Interior }>,
}
