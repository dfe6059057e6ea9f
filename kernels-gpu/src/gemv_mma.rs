//! # Decode GEMV on the tensor cores: up to 16 rows of x in one `mma` tile
//!
//! The GEMV of [`crate::gemv`] gives each warp one column of C and does the multiply-adds of its
//! `MT` rows of x one after another, re-reading every row of x from L1 for each 16 bytes of W it
//! streams: at 16 rows the warps move sixteen times W's bytes through L1 for each byte of W that
//! comes from memory. Here a warp owns 8 columns of C (8 rows of W) and all 16 rows of x, and
//! multiplies them with `mma.sync.m16n8k16` (x is the 16×16 A tile, W's rows the 16×8 B tile):
//! W is read once, x once per 8 columns, and a warp's multiply-adds for 32 of K are two
//! instructions.
//!
//! **The fragments straight from memory.** `mma`'s fragment layout gives lane `l` (group
//! `g = l / 4`, thread `t = l % 4`) the elements k = 2t, 2t+1, 2t+8, 2t+9 of its rows of A (g and
//! g+8) and of its column of B (g) (`device/mma.rs`). A dot product does not care in which
//! order its terms are summed, so the kernel lets the logical k stand for any physical k, as long
//! as A and B agree: lane `l` reads 16 bytes, eight elements, at physical `k = 8t` of row g of W
//! and of rows g and g+8 of x, and hands elements 0–3 to one `mma` and 4–7 to the next. The
//! lanes that share `t` (and so a logical k) read the same physical k, so the two operands agree
//! and no shuffle or shared memory is needed: a warp step is 32 of K, 512 bytes of W.
//!
//! **Bytes in flight.** Each warp reads `U` steps of W and x before it multiplies any (`U` × 16
//! bytes per lane in flight), since a decode layer has too few warps for one load each to cover
//! the memory's latency. Where N is small (a 4096-wide layer is 512 warps of 8 columns) that is
//! still too few: with `KS` > 1 the block's warps split K `KS` ways, warp `ks` taking every
//! `KS`-th group of `U` steps, and add their tiles through shared memory at the end.
//!
//! Invariants: a block is 8 warps over `8 · 8 / KS` columns of C and 16 rows; rows past M,
//! columns past N and k past K read as zero (and so add nothing), and where a leading dimension
//! or a matrix is not 16-byte aligned every element is read on its own, so any M, N, K,
//! alignment and batch runs (M over 16 takes a block row per 16 rows, reading W again: the
//! automatic choice does not ask that of it). Every `mma` runs with all 32 lanes of its warp,
//! and every warp reaches the block's one barrier (a warp whose columns lie past N reads
//! nothing). Cost: W once per 16 rows, x once per 8 columns from cache; `KS` > 1 adds
//! `(KS − 1)` tiles of 16 × 8 partial sums per column group through shared memory and a barrier.

use crate::prelude::*;
use core::marker::PhantomData;

/// Warps per block; each computes 8 columns of C.
const WARPS: u32 = 8;
/// Rows of x per block: the `mma` tile's M.
const ROWS: u32 = 16;
/// Columns of C per warp: the `mma` tile's N.
const COLS: u32 = 8;
/// K per warp step: 32 lanes reading 8 elements each, 4 lanes (the `t` of a group) along K.
const STEP_K: u32 = 32;

/// 16 rows of x per block, 8 columns of C per warp, `U` steps of K read before they are
/// multiplied, the block's warps split `KS` ways along K (a divisor of 8).
pub struct GemvMma<E, const U: usize, const KS: usize>(PhantomData<E>);

impl<E: HalfElem, const U: usize, const KS: usize> GemmKernel for GemvMma<E, U, KS> {
    type Elem = E;
    const SPEC: KernelSpec = KernelSpec::unnamed(
        crate::gemv::RUNG,
        E::DTYPE,
        Tile::block(ROWS, Self::GROUPS * COLS, STEP_K * U as u32).with_warp(ROWS, COLS),
        32 * WARPS,
        Self::PARTIAL_BYTES,
    )
    .with_layout(Layout::NT)
    .with_any_alignment_and_batch_loop()
    .with_fused_epilogue(Fusion::Full)
    .with_variant(Variant::GemvMma);

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        // SAFETY: the caller's guarantee, for each product of the batch.
        unsafe { gemm.for_each_product(Self::product) };
    }
}

impl<E: HalfElem, const U: usize, const KS: usize> GemvMma<E, U, KS> {
    /// Groups of 8 columns per block, each computed by `KS` warps.
    const GROUPS: u32 = WARPS / KS as u32;
    /// Shared memory for the partial tiles of the warps past the first along K: 32 lanes × 4.
    const PARTIAL_BYTES: u32 = (KS as u32 - 1) * Self::GROUPS * 32 * 4 * 4;

    #[inline(always)]
    unsafe fn product(gemm: &GemmArgs<E>) {
        const { assert!(KS >= 1 && WARPS as usize % KS == 0) };
        let (warp, lane) = (warp_idx(), lane_idx());
        let (g, t) = (lane / 4, lane % 4);
        let (group, ks) = (warp % Self::GROUPS, warp / Self::GROUPS);
        let n0 = (block_col() * Self::GROUPS + group) * COLS;
        let w = gemm.stored_b(true).window(n0 + g, 0); // row n0 + g of W (none past N)
        let row0 = block_row() * ROWS;
        let x = gemm.a().window(row0, 0); // 16 rows of x (fewer at the bottom)
        let vectors = gemm.lda % 8 == 0 && gemm.ldb % 8 == 0 && gemm.a as usize % 16 == 0 && gemm.b as usize % 16 == 0;
        let mut acc = [0.0f32; 4];
        // The same for the whole warp: every `mma` below runs with all its lanes.
        let live = n0 < gemm.n;
        let stride = STEP_K * U as u32 * KS as u32;
        let mut kw = ks * STEP_K * U as u32;
        while live && kw < gemm.k {
            let (mut wv, mut xa, mut xb) = ([[0u32; 4]; U], [[0u32; 4]; U], [[0u32; 4]; U]);
            unroll!(U, |u| {
                let k = kw + STEP_K * u as u32 + 8 * t;
                // SAFETY: `eight` reads only elements inside the matrices (the rest are zero).
                unsafe {
                    wv[u] = eight(&w, 0, k, vectors);
                    xa[u] = eight(&x, g, k, vectors);
                    xb[u] = eight(&x, g + 8, k, vectors);
                }
            });
            unroll!(U, |u| {
                mma_m16n8k16::<E>(&mut acc, [xa[u][0], xb[u][0], xa[u][1], xb[u][1]], [wv[u][0], wv[u][1]]);
                mma_m16n8k16::<E>(&mut acc, [xa[u][2], xb[u][2], xa[u][3], xb[u][3]], [wv[u][2], wv[u][3]]);
            });
            kw += stride;
        }
        if KS > 1 {
            // The warps past the first along K hand their tiles to the first, lane by lane.
            let partials: *mut f32 = dynamic_shared();
            let slot = |ks: u32| ((((ks - 1) * Self::GROUPS + group) * 32 + lane) * 4) as usize;
            if ks > 0 {
                unroll!(4, |i| {
                    // SAFETY: ks < KS, group < GROUPS, lane < 32: inside the spec's shared memory.
                    unsafe { store(partials.add(slot(ks) + i), acc[i]) };
                });
            }
            sync_threads();
            if ks > 0 {
                return;
            }
            for other in 1..KS as u32 {
                unroll!(4, |i| {
                    // SAFETY: as above; written before the barrier.
                    acc[i] += unsafe { load(partials.add(slot(other) + i)) };
                });
            }
        }
        // The accumulator fragment: (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1) of the warp's tile.
        let c = gemm.fused_c().window(row0, n0);
        c.store(g, 2 * t, acc[0]);
        c.store(g, 2 * t + 1, acc[1]);
        c.store(g + 8, 2 * t, acc[2]);
        c.store(g + 8, 2 * t + 1, acc[3]);
    }
}

/// Elements `k..k + 8` of row `r` of `m` as four words of two (the lower k in the low half),
/// zero where they lie past the matrix: nothing read for a row past its last (a decode step
/// of fewer than 16 rows), one 16-byte load where `vectors` holds and all eight lie inside, else
/// one load per element inside.
///
/// # Safety
/// `m` describes memory the kernel may read (its rows and columns); with `vectors`, its rows
/// start 16-byte aligned and `k` is a multiple of 8.
#[inline(always)]
unsafe fn eight<E: HalfElem>(m: &Matrix<E>, r: u32, k: u32, vectors: bool) -> [u32; 4] {
    if r >= m.rows {
        return [0; 4];
    }
    if vectors && k < m.cols && m.cols - k >= 8 {
        // SAFETY: all eight elements lie inside row r, 16-byte aligned (the caller's guarantee).
        return unsafe { ld_global_v4(m.ptr(r, k) as *const f32) }.map(f32::to_bits);
    }
    let mut out = [0u32; 4];
    unroll!(8, |j| {
        let kj = k + j as u32;
        if m.contains(r, kj) {
            // SAFETY: inside the matrix (checked).
            out[j / 2] |= (unsafe { m.get(r, kj) }.bits() as u32) << (16 * (j % 2));
        }
    });
    out
}

entries! {
    for E in (bgemm: Bf16, hgemm: F16);
    bgemm_00_gemv_16x64x128_w16x8_mma_nt | hgemm_00_gemv_16x64x128_w16x8_mma_nt => GemvMma<E, 4, 1>,
    bgemm_00_gemv_16x16x128_w16x8_mma_nt | hgemm_00_gemv_16x16x128_w16x8_mma_nt => GemvMma<E, 4, 4>,
}
