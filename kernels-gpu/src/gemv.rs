//! # Decode GEMV: a few rows of x against a weight stored N×K, at memory speed
//!
//! A language model generating one token multiplies a handful of rows of activations `x` (M×K,
//! M from 1 to 16) by a weight stored N×K (`y = x·Wᵀ`, layout `nt`). Every element of W is used
//! M times, so the product is bound by reading W once: the tile kernels, built to reuse each
//! element a hundred times, spend most of their time waiting for it. Here each warp owns one
//! column n of C, i.e. one row of W, and streams it: lane `l` reads 16 bytes at `k = 8·l + 256·s`
//! (a warp reads 512 contiguous bytes per step), multiplies them by the same 16 bytes of each of
//! the block's `MT` rows of x (which stay in L1 and L2: they are shared by every warp), and
//! accumulates in f32. Five `shfl.xor` exchanges sum the 32 lanes, each halving the partial
//! sums a lane keeps (a transposing butterfly), so that lane `l` ends with row `l / (32 / MT)`'s
//! sum and stores it through the fused epilogue.
//!
//! Invariants: a block is 8 warps over 8 columns of C and `MT` rows; rows of x past M and the K
//! tail are skipped element by element, and where a leading dimension or a matrix is not 16-byte
//! aligned every element is read on its own, so any M, N, K, alignment and batch runs. Cost: W
//! once (per `MT` rows), x once per column from cache, no shared memory and no block barrier.

use crate::prelude::*;
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::beside(KernelKind::Gemv, "gemv", "a few rows of x against W stored N×K: one warp per column of C, W read once");

/// Warps per block; each computes one column of C.
const WARPS: usize = 8;

/// An element type read 16 bytes at a time.
pub trait Packed: Widen + ElemType + Copy {
    /// Elements in 16 bytes.
    const PER_VEC: usize;
    /// The elements of 16 bytes (read as four 32-bit words), widened; the first `PER_VEC` count.
    fn widen16(words: [f32; 4]) -> [f32; 8];
}

impl Packed for f32 {
    const PER_VEC: usize = 4;
    #[inline(always)]
    fn widen16(w: [f32; 4]) -> [f32; 8] {
        [w[0], w[1], w[2], w[3], 0.0, 0.0, 0.0, 0.0]
    }
}

/// Two 16-bit elements per word, the first in the low half (little-endian).
#[inline(always)]
fn halves<E: Widen>(w: [f32; 4], make: impl Fn(u16) -> E) -> [f32; 8] {
    let b = w.map(f32::to_bits);
    let (lo, hi) = (|i: usize| make(b[i] as u16).widen(), |i: usize| make((b[i] >> 16) as u16).widen());
    [lo(0), hi(0), lo(1), hi(1), lo(2), hi(2), lo(3), hi(3)]
}

impl Packed for Bf16 {
    const PER_VEC: usize = 8;
    #[inline(always)]
    fn widen16(w: [f32; 4]) -> [f32; 8] {
        halves(w, Bf16)
    }
}

impl Packed for F16 {
    const PER_VEC: usize = 8;
    #[inline(always)]
    fn widen16(w: [f32; 4]) -> [f32; 8] {
        halves(w, F16)
    }
}

/// `MT` rows of x per block, 8 columns of C; `BLOCKS` blocks per SM asked of ptxas (0: its own
/// guess). Left to guess, ptxas held the 4-row kernels to 48 registers and spilled; told four
/// blocks, it has 64 and needs them. The 1- and 16-row kernels fit what it picks.
pub struct Gemv<E, const MT: usize, const BLOCKS: u32>(PhantomData<E>);

impl<E: Packed, const MT: usize, const BLOCKS: u32> GemmKernel for Gemv<E, MT, BLOCKS> {
    type Elem = E;
    const SPEC: KernelSpec = KernelSpec::unnamed(
        RUNG,
        E::DTYPE,
        Tile::block(MT as u32, WARPS as u32, (32 * E::PER_VEC) as u32),
        (32 * WARPS) as u32,
        0,
    )
    .with_layout(Layout::NT)
    .with_any_alignment_and_batch_loop()
    .with_fused_epilogue(Fusion::Full)
    .with_min_blocks_per_sm(BLOCKS);

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        // SAFETY: the caller's guarantee, for each product of the batch.
        unsafe { gemm.for_each_product(Self::product) };
    }
}

impl<E: Packed, const MT: usize, const BLOCKS: u32> Gemv<E, MT, BLOCKS> {
    /// One product of the batch.
    #[inline(always)]
    unsafe fn product(gemm: &GemmArgs<E>) {
        let (warp, lane) = (warp_idx(), lane_idx());
        let n = block_col() * WARPS as u32 + warp;
        let row0 = block_row() * MT as u32;
        // The whole warp leaves together: the exchanges below need every lane.
        if n >= gemm.n {
            return;
        }
        let w = gemm.stored_b(true).window(n, 0); // row n of W: K elements
        let x = gemm.a().window(row0, 0); // MT rows of x (fewer at the bottom)
        let per = E::PER_VEC as u32;
        let vectors = gemm.lda % per == 0 && gemm.ldb % per == 0 && gemm.a as usize % 16 == 0 && gemm.b as usize % 16 == 0;
        let mut acc = [0.0f32; MT];
        let mut k0 = lane * per;
        let step = 32 * per;
        // Every index into `acc` and the vectors is a constant after unrolling (else they would
        // go to local memory). Two loops, so that the hot one holds only the vector path: whole
        // 16-byte vectors while they last, then the rest element by element.
        if vectors {
            while k0 + per <= gemm.k {
                // SAFETY: k0..k0 + PER_VEC lies inside row n of W and every row of x; 16-byte aligned.
                let wv = E::widen16(unsafe { ld_global_v4(w.ptr(0, k0) as *const f32) });
                unroll!(MT, |m| {
                    if x.contains(m as u32, k0) {
                        // SAFETY: as above, for row m of x.
                        let xv = E::widen16(unsafe { ld_global_v4(x.ptr(m as u32, k0) as *const f32) });
                        unroll!(E::PER_VEC, |j| {
                            acc[m] = fma(xv[j], wv[j], acc[m]);
                        });
                    }
                });
                k0 += step;
            }
        }
        while k0 < gemm.k {
            unroll!(E::PER_VEC, |j| {
                let k = k0 + j as u32;
                if k < gemm.k {
                    // SAFETY: k < K: inside row n of W.
                    let wk = unsafe { w.get(0, k) }.widen();
                    unroll!(MT, |m| {
                        if x.contains(m as u32, k) {
                            // SAFETY: contains.
                            acc[m] = fma(unsafe { x.get(m as u32, k) }.widen(), wk, acc[m]);
                        }
                    });
                }
            });
            k0 += step;
        }
        // The sum over the lanes, transposed: each exchange halves the partial sums a lane keeps,
        // so after five of them lane `l` holds row `l / (32 / MT)`'s whole sum (16 exchanges
        // for 16 rows instead of 80, and the epilogue's code runs in MT lanes at a time).
        fold::<16, MT>(&mut acc, lane);
        fold::<8, MT>(&mut acc, lane);
        fold::<4, MT>(&mut acc, lane);
        fold::<2, MT>(&mut acc, lane);
        fold::<1, MT>(&mut acc, lane);
        let lanes_per_row = 32 / MT as u32;
        if lane % lanes_per_row == 0 {
            gemm.fused_c().window(row0, n).store(lane / lanes_per_row, 0, acc[0]);
        }
    }
}

// A block reads 16 bytes per lane and step: 128 elements of f32 per warp, 256 of bf16 or f16.
/// One exchange of the warp's transposing sum, the one over lane bit `O` (taken from 16 down to
/// 1). Before it a lane holds `MT·O/16` partial sums in `v` (at least one): lanes whose bit `O` is
/// set keep the upper half and the others the lower half, each adding its partner's copy of what
/// it keeps (one `shfl.xor` per kept value); with one sum left, it just adds the partner's. `MT`
/// is a power of two up to 32, so the halves stay whole.
#[inline(always)]
fn fold<const O: u32, const MT: usize>(v: &mut [f32; MT], lane: u32) {
    const { assert!(MT.is_power_of_two() && MT <= 32 && O.is_power_of_two() && O <= 16) };
    let half = MT * O as usize / 32;
    if half == 0 {
        v[0] += shfl_xor::<O>(v[0]);
        return;
    }
    let upper = lane & O != 0;
    unroll!(half, |i| {
        let (keep, send) = if upper { (v[i + half], v[i]) } else { (v[i], v[i + half]) };
        v[i] = keep + shfl_xor::<O>(send);
    });
}

entries! {
    for E in (sgemm: f32, bgemm: Bf16, hgemm: F16);
    sgemm_00_gemv_1x8x128_nt | bgemm_00_gemv_1x8x256_nt | hgemm_00_gemv_1x8x256_nt => Gemv<E, 1, 0>,
    sgemm_00_gemv_4x8x128_nt | bgemm_00_gemv_4x8x256_nt | hgemm_00_gemv_4x8x256_nt => Gemv<E, 4, 4>,
    sgemm_00_gemv_16x8x128_nt | bgemm_00_gemv_16x8x256_nt | hgemm_00_gemv_16x8x256_nt => Gemv<E, 16, 0>,
}
