//! # Rung 10 — asynchronous copies: a `cp.async` pipeline of `STAGES` buffers
//!
//! **Idea.** `cp.async` copies global → shared without passing through registers, so instead of
//! rung 9's one slice parked in registers the block keeps `STAGES` shared buffers and slices
//! `kt + 1 .. kt + STAGES - 1` in flight while slice `kt` is computed with rung 9's warp tiles
//! (`warp_compute.rs`). A 16-byte copy cannot transpose A on the way, hence two variants: `_at`
//! ([`AStaging::Transposed`]) copies A float by float into rung 9's transposed tile; `_sw` ([`AStaging::Swizzled`])
//! copies 16-byte chunks into a 128-byte-swizzled tile read as float4s along K.
//!
//! **Invariants.** Every thread commits exactly one async-group per slice (empty past the end), so
//! "slice `kt` has landed" is `wait_group(STAGES - 2)`; that wait covers only the thread's own
//! copies, so one block barrier per slice publishes the slice and frees the buffer of slice
//! `kt - 1`. Every M, N, K ≥ 1 works without a scalar path in the main loop: chunks over an edge
//! are zero-filled (`src_bytes` < 16), rows not 16-byte aligned are copied 4 bytes at a time, and
//! interior blocks issue plain copies with no edge checks.
//!
//! **Cost.** The inner loop is rung 9's, and every thread still issues copies and meets the block
//! barrier once per slice; `_sw` holds `4·TM` floats of A live and fits one block per SM, so `_at`
//! is the configuration that matters.
//!
//! The pipeline, the two A layouts, interior blocks, what was tried and dropped, and the measured
//! speed: `book/src/rung-10-cp-async.md` (and `book/src/cp-async.md`).

use crate::prelude::*;
use crate::warp_compute::*;
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::ladder(10, "cp_async", "cp.async multi-stage pipeline: async-groups, zero-fill tails");

/// Tile `T`: block tile `bm × bn`, K-slices of `bk`, warp tiles `wm × wn`, `stages` shared buffers
/// (2..=4); `Acc` = [`ThreadTile<TM, TN>`], a thread's accumulators; `A` ([`AStaging::Transposed`]
/// or [`AStaging::Swizzled`]) picks how the A slice lies in shared memory (see the module docs).
pub struct CpAsync<const T: Tile, Acc, const A: AStaging>(PhantomData<Acc>);

impl<const T: Tile, const TM: usize, const TN: usize, const A: AStaging> CpAsync<T, ThreadTile<TM, TN>, A> {
    const BM: usize = T.bm as usize;
    const BN: usize = T.bn as usize;
    const BK: usize = T.bk as usize;
    const WM: usize = T.wm as usize;
    const WN: usize = T.wn as usize;
    const STAGES: usize = T.stages as usize;
    const SWIZZLED: bool = matches!(A, AStaging::Swizzled);
    const TILING: WarpTiling =
        WarpTiling::new(Self::BM, Self::BN, Self::WM, Self::WN, TM, TN, A);
    const THREADS: usize = Self::TILING.threads();
    /// Floats per row of the transposed A tile (rung 7's pad of 4).
    const AT_STRIDE: usize = Self::BM + 4;
    /// Bytes of the A tile of one stage.
    const A_BYTES: usize = if Self::SWIZZLED { Self::BM * Self::BK * 4 } else { Self::BK * Self::AT_STRIDE * 4 };
    const STAGE_BYTES: usize = Self::A_BYTES + Self::BK * Self::BN * 4;
    /// Two blocks of 256 threads per SM when the register estimate leaves ~8 registers of
    /// headroom under the resulting cap of 128 (the driver's JIT may need a few more than ptxas).
    const MIN_BLOCKS: u32 =
        if Self::TILING.regs_estimate() + 8 <= 128 { (65536 / (128 * Self::THREADS)) as u32 } else { 0 };
    /// K-steps per fully unrolled chunk (about 512 multiply-adds, as in rung 9), a multiple of 4.
    const UNROLL: usize = if Self::BK * TM * TN <= 512 { Self::BK } else if 512 / (TM * TN) >= 4 { 512 / (TM * TN) } else { 4 };
    const CHECKS: () = {
        let _ = Self::TILING;
        assert!(T.tm == 1 && T.tn == 1, "the thread tile is the Acc type");
        assert!(Self::STAGES >= 2 && Self::STAGES <= 4, "2 to 4 stages");
        assert!(!Self::SWIZZLED || swizzle_width_ok(Self::BK), "swizzled A rows are 32, 64 or 128 bytes");
        assert!(Self::STAGE_BYTES % 128 == 0, "stages start on 128-byte lines");
        assert!(Self::THREADS <= 1024);
    };
}

impl<const T: Tile, const TM: usize, const TN: usize, const A: AStaging> GemmKernel for CpAsync<T, ThreadTile<TM, TN>, A> {
    type Elem = f32;
    const SPEC: KernelSpec = {
        let () = Self::CHECKS;
        KernelSpec::unnamed(
            RUNG,
            Dtype::F32,
            T.with_thread(TM as u32, TN as u32),
            Self::THREADS as u32,
            (Self::STAGES * Self::STAGE_BYTES) as u32,
        )
        .with_tile_rules(TileRules::THREAD_TILES.float4_copies().vector_reads().warp_tiled())
        .with_min_blocks_per_sm(Self::MIN_BLOCKS)
        .with_variant(Variant::CpAsync(A))
    };

    unsafe fn run(gemm: &GemmArgs<f32>) {
        let () = Self::CHECKS;
        let smem: *mut u8 = dynamic_shared();
        let smem_addr = shared_address(smem);
        let t = thread_idx() as usize;
        let place = Self::TILING.place(t);
        let (row0, col0) = (block_row() * Self::BM as u32, block_col() * Self::BN as u32);
        let a = gemm.a().window(row0, 0);
        let b = gemm.b().window(0, col0);
        // 16-byte copies need every row (and the base) 16-byte aligned; same for the whole block.
        let a_vec = gemm.lda % 4 == 0 && gemm.a as usize % 16 == 0;
        let b_vec = gemm.ldb % 4 == 0 && gemm.b as usize % 16 == 0;
        let k_tiles = gemm.k.div_ceil(Self::BK as u32);
        // A block whose tiles lie wholly inside A and B, every slice full and every row aligned,
        // copies without edge checks or zero-fill sizes (the whole block decides once).
        let interior = a_vec && b_vec && gemm.k % Self::BK as u32 == 0 && a.covers(Self::BM as u32, 0) && b.covers(0, Self::BN as u32);

        let a_offset = |stage: usize| stage * Self::STAGE_BYTES;
        let b_offset = |stage: usize| stage * Self::STAGE_BYTES + Self::A_BYTES;

        // Issues this thread's copies of slice `kt` into buffer `stage` (no commit).
        let load = |kt: u32, stage: usize| {
            let k0 = kt * Self::BK as u32;
            let (a_src, b_src) = (a.window(0, k0), b.window(k0, 0));
            let a_base = smem_addr + a_offset(stage) as u32;
            let b_base = smem_addr + b_offset(stage) as u32;
            if interior {
                if Self::SWIZZLED {
                    copy_chunks_inside(a_base, &a_src, Self::BM, Self::BK, Self::THREADS, t, |r, c| swizzled_chunk(r, c, Self::BK));
                } else {
                    copy_transposed_inside(a_base, &a_src, Self::BM, Self::BK, Self::AT_STRIDE, Self::THREADS, t);
                }
                copy_chunks_inside(b_base, &b_src, Self::BK, Self::BN, Self::THREADS, t, |r, c| ((r * Self::BN + 4 * c) * 4) as u32);
                return;
            }
            if Self::SWIZZLED {
                copy_chunks(a_base, &a_src, Self::BM, Self::BK, Self::THREADS, t, a_vec, |r, c| swizzled_chunk(r, c, Self::BK));
            } else {
                copy_transposed(a_base, &a_src, Self::BM, Self::BK, Self::AT_STRIDE, Self::THREADS, t);
            }
            copy_chunks(b_base, &b_src, Self::BK, Self::BN, Self::THREADS, t, b_vec, |r, c| ((r * Self::BN + 4 * c) * 4) as u32);
        };

        // ANCHOR: pipeline
        // Prologue: slices 0 .. STAGES-2 in flight, one group each (empty past the end).
        for s in 0..Self::STAGES - 1 {
            if (s as u32) < k_tiles {
                load(s as u32, s);
            }
            cp_async_commit_group();
        }

        let reader = SwizzledReader::<TM>::new(&place, Self::BK);
        let mut acc = ThreadTile::<TM, TN>::zero();
        let (mut read_stage, mut write_stage) = (0, Self::STAGES - 1);
        for kt in 0..k_tiles {
            // This thread's part of slice kt has landed (the STAGES-2 newer groups may still be in
            // flight); after the barrier, everyone's part. The barrier also means every warp is done
            // with slice kt-1, whose buffer (`write_stage`) the next copies overwrite.
            cp_async_wait_pending(Self::STAGES - 2);
            sync_threads();
            let next = kt + Self::STAGES as u32 - 1;
            if next < k_tiles {
                load(next, write_stage);
            }
            cp_async_commit_group();
            // ANCHOR_END: pipeline

            // SAFETY: the spec's shared-memory size holds every stage; this tile lies inside stage
            // `read_stage`'s buffer.
            let b_tile = unsafe { SmemTile::new(smem.wrapping_add(b_offset(read_stage)) as *mut f32, Self::BK, Self::BN) };
            let a_ptr = smem.wrapping_add(a_offset(read_stage));
            for chunk in 0..Self::BK / Self::UNROLL {
                for g in 0..Self::UNROLL / 4 {
                    let k = chunk * Self::UNROLL + 4 * g;
                    let a_vals = if Self::SWIZZLED {
                        // SAFETY: the caller's guarantee for `gemm` and this block's shared
                        // memory, passed on.
                        unsafe { reader.load(a_ptr, k / 4) }
                    } else {
                        // SAFETY: the spec's shared-memory size holds every stage; this tile lies
                        // inside the current stage's buffer.
                        let at = unsafe { SmemTile::new(a_ptr as *mut f32, Self::BK, Self::AT_STRIDE) };
                        transposed_four::<TM>(&at, k, &place)
                    };
                    four_steps(&mut acc, &a_vals, &b_tile, k, &place);
                }
            }
            read_stage = if read_stage + 1 == Self::STAGES { 0 } else { read_stage + 1 };
            write_stage = if write_stage + 1 == Self::STAGES { 0 } else { write_stage + 1 };
        }
        // Only empty groups can be pending here: no copy writes shared memory after the loop.

        store_tile(&gemm.c().window(row0, col0), &acc, &place);
    }
}

/// Issues thread `t`'s copies of the `rows × cols` window at `src`'s origin into a shared tile
/// at shared address `base`, where the 16-byte chunk of row `r` holding columns `4c .. 4c + 4`
/// lies at byte `offset(r, c)`. Threads take chunks in turn (neighbours take neighbouring chunks
/// of a row: coalesced reads, and whole 128-byte lines of writes).
///
/// With `vec` (rows 16-byte aligned) one zero-filling 16-byte `cp.async.cg` per chunk, `src_bytes`
/// counting the floats inside the matrix; a chunk wholly outside reads nothing (`src_bytes` = 0,
/// the window origin, always inside, stands in as the address). Without `vec`, four 4-byte
/// zero-filling copies per chunk.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn copy_chunks(
    base: u32,
    src: &Matrix<f32>,
    rows: usize,
    cols: usize,
    threads: usize,
    t: usize,
    vec: bool,
    offset: impl Fn(usize, usize) -> u32,
) {
    let per_row = cols / 4;
    for i in 0..rows * per_row / threads {
        let id = t + i * threads;
        let (r, c) = (id / per_row, id % per_row);
        let dst = base + offset(r, c);
        let (row, col) = (r as u32, 4 * c as u32);
        if vec {
            let inside = if row < src.rows { src.cols.saturating_sub(col).min(4) } else { 0 };
            let from = if inside > 0 { src.ptr(row, col) } else { src.ptr(0, 0) };
            // SAFETY: the destination lies in the stage's tile; the source is inside the matrix,
            // or the size read is 0.
            unsafe { cp_async_cg_16_zfill(dst, from, 4 * inside) };
        } else {
            for e in 0..4u32 {
                let inside = src.contains(row, col + e);
                let from = if inside { src.ptr(row, col + e) } else { src.ptr(0, 0) };
                // SAFETY: the destination lies in the stage's tile; the source is inside the
                // matrix, or the size read is 0.
                unsafe { cp_async_ca_4_zfill(dst + 4 * e, from, if inside { 4 } else { 0 }) };
            }
        }
    }
}

/// [`copy_chunks`] for a window wholly inside its matrix with 16-byte-aligned rows: one plain
/// 16-byte `cp.async.cg` per chunk, no sizes to compute.
#[inline(always)]
fn copy_chunks_inside(base: u32, src: &Matrix<f32>, rows: usize, cols: usize, threads: usize, t: usize, offset: impl Fn(usize, usize) -> u32) {
    let per_row = cols / 4;
    for i in 0..rows * per_row / threads {
        let id = t + i * threads;
        let (r, c) = (id / per_row, id % per_row);
        // SAFETY: interior block: the source chunk lies inside the matrix and the destination in
        // the stage's tile.
        unsafe { cp_async_cg_16(base + offset(r, c), src.ptr(r as u32, 4 * c as u32)) };
    }
}

/// [`copy_transposed`] for a window wholly inside A: plain 4-byte copies.
#[inline(always)]
fn copy_transposed_inside(base: u32, src: &Matrix<f32>, bm: usize, bk: usize, stride: usize, threads: usize, t: usize) {
    for i in 0..bm * bk / threads {
        let e = t + i * threads;
        let (m, k) = ((e / bk) as u32, (e % bk) as u32);
        // SAFETY: interior block: the source chunk lies inside the matrix and the destination in
        // the stage's tile.
        unsafe { cp_async_ca_4(base + 4 * (k * stride as u32 + m), src.ptr(m, k)) };
    }
}

/// Issues thread `t`'s 4-byte copies of the `bm × bk` window of A at `src`'s origin into the
/// transposed tile at shared address `base` (`bk` rows of `stride` floats): element (m, k) goes
/// to row k, column m. A warp takes `32 / bk` rows of A × `bk` columns: reads of whole 32-byte
/// sectors, and with the padded stride its 32 stores hit 32 different banks (for `bk = 8`).
#[inline(always)]
// ANCHOR: copy_transposed
fn copy_transposed(base: u32, src: &Matrix<f32>, bm: usize, bk: usize, stride: usize, threads: usize, t: usize) {
    for i in 0..bm * bk / threads {
        let e = t + i * threads;
        let (m, k) = ((e / bk) as u32, (e % bk) as u32);
        let inside = src.contains(m, k);
        let from = if inside { src.ptr(m, k) } else { src.ptr(0, 0) };
        let dst = base + 4 * (k * stride as u32 + m);
        // SAFETY: the destination lies in the stage's tile; the source is inside the matrix, or
        // the size read is 0.
        unsafe { cp_async_ca_4_zfill(dst, from, if inside { 4 } else { 0 }) };
    }
}
// ANCHOR_END: copy_transposed

entries! {
    elem = f32;
    sgemm_10_cp_async_128x128x8_w64x32_t8x8_s2_at => CpAsync<{ Tile::block(128, 128, 8).with_warp(64, 32).with_stages(2) }, ThreadTile<8, 8>, { AStaging::Transposed }>,
    sgemm_10_cp_async_128x128x8_w64x32_t8x8_s3_at => CpAsync<{ Tile::block(128, 128, 8).with_warp(64, 32).with_stages(3) }, ThreadTile<8, 8>, { AStaging::Transposed }>,
    sgemm_10_cp_async_128x128x8_w64x32_t8x8_s4_at => CpAsync<{ Tile::block(128, 128, 8).with_warp(64, 32).with_stages(4) }, ThreadTile<8, 8>, { AStaging::Transposed }>,
    sgemm_10_cp_async_128x128x8_w64x32_t8x8_s3_sw => CpAsync<{ Tile::block(128, 128, 8).with_warp(64, 32).with_stages(3) }, ThreadTile<8, 8>, { AStaging::Swizzled }>,
    sgemm_10_cp_async_128x128x16_w64x32_t8x8_s3_sw => CpAsync<{ Tile::block(128, 128, 16).with_warp(64, 32).with_stages(3) }, ThreadTile<8, 8>, { AStaging::Swizzled }>,
    sgemm_10_cp_async_128x128x32_w64x32_t8x8_s3_sw => CpAsync<{ Tile::block(128, 128, 32).with_warp(64, 32).with_stages(3) }, ThreadTile<8, 8>, { AStaging::Swizzled }>,
    sgemm_10_cp_async_128x128x16_w64x32_t8x8_s4_sw => CpAsync<{ Tile::block(128, 128, 16).with_warp(64, 32).with_stages(4) }, ThreadTile<8, 8>, { AStaging::Swizzled }>,
}
