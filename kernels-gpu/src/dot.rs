//! # Dot products: a few outputs over a very long K, A and B read once
//!
//! When M·N is tiny and K is long (3 × 3 × 352 792: a Gram matrix of a few long vectors, a
//! reduction written as a product), every tile kernel wastes its tile: a 64 × 64 tensor-core tile
//! computes 4096 outputs to keep nine. The product is bound by reading A and B once, `(M + N)·K`
//! elements, so the kernel to run is a reduction: each thread walks K in steps of the block,
//! keeps the `MT × NT` products of its elements in registers, and the block sums them at the end.
//! Parallelism comes from split-K (`choice::split_with`): the slices of K are the batch, one block
//! each, and `reduce_splits` adds their partials into C.
//!
//! Invariants: a block computes an `MT × NT` window of C (rows and columns past M and N are
//! skipped), over the whole K of its product; thread `t` reads k = t, t + 256, ...; every element
//! is read on its own and widened to f32, so any layout, leading dimension, alignment and batch
//! runs, and a larger M or N only takes more blocks. Cost: A and B once (each row of the window
//! read by consecutive threads at consecutive k where K is the stored row, else a stored row of
//! `MT` or `NT` elements per thread), `MT·NT` fused multiply-adds per k, and one reduction of
//! `MT·NT` sums per block through shared memory.

use crate::prelude::*;
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::beside(KernelKind::Dot, "dot", "a few outputs over a long K: a reduction per block, K split across blocks");

/// Threads per block, each over every `THREADS`-th element of K.
const THREADS: usize = 256;
/// Warps per block.
const WARPS: usize = THREADS / 32;
/// Steps of K a thread loads before it multiplies (loads in flight).
const UNROLL: usize = 2;
/// Blocks an SM holds at once (the launch bound caps the registers to let it): more blocks, more
/// loads in flight.
const BLOCKS_PER_SM: u32 = 2;

/// An `MT × NT` window of C per block, for storage `L`.
pub struct Dot<E, L, const MT: usize, const NT: usize>(PhantomData<(E, L)>);

impl<E: Widen + ElemType, L: Storage, const MT: usize, const NT: usize> GemmKernel for Dot<E, L, MT, NT> {
    type Elem = E;
    const SPEC: KernelSpec = KernelSpec::unnamed(RUNG, E::DTYPE, Tile::block(MT as u32, NT as u32, THREADS as u32), THREADS as u32, (WARPS * MT * NT * 4) as u32)
        .with_layout(L::LAYOUT)
        .with_any_alignment_and_batch_loop()
        .with_fused_epilogue(Fusion::Full)
        .with_min_blocks_per_sm(BLOCKS_PER_SM);

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        // SAFETY: the caller's guarantee, for each product of the batch.
        unsafe { gemm.for_each_product(Self::product) };
    }
}

impl<E: Widen + ElemType, L: Storage, const MT: usize, const NT: usize> Dot<E, L, MT, NT> {
    /// Element (`r`, `c`) of an operand as the product sees it, from its stored matrix; 0 outside.
    #[inline(always)]
    fn get(stored: &Matrix<E>, transposed: bool, r: u32, c: u32) -> f32 {
        let (sr, sc) = if transposed { (c, r) } else { (r, c) };
        // SAFETY: read only inside the stored matrix.
        if stored.contains(sr, sc) { unsafe { stored.get(sr, sc) }.widen() } else { 0.0 }
    }

    /// One product of the batch: this block's window of C over all of K.
    #[inline(always)]
    unsafe fn product(gemm: &GemmArgs<E>) {
        let (a_t, b_t) = (L::LAYOUT.a.is_t(), L::LAYOUT.b.is_t());
        let (a, b) = (gemm.stored_a(a_t), gemm.stored_b(b_t));
        let (row0, col0) = (block_row() * MT as u32, block_col() * NT as u32);
        let t = thread_idx();
        // Every index into `acc`, `x` and `y` is a constant after unrolling (else they would go
        // to local memory); `unroll_short!` writes out at most 16 copies, so the nests stay small.
        let mut acc = [[0.0f32; NT]; MT];
        let mut k0 = t;
        while k0 < gemm.k {
            // UNROLL steps of K, each its loads then its multiply-adds: the loads of one step do
            // not wait for the multiply-adds of the one before, so several are in flight.
            for u in 0..UNROLL {
                let k = k0 + (u * THREADS) as u32;
                let mut x = [0.0f32; MT];
                let mut y = [0.0f32; NT];
                unroll_short!(MT, |i| { x[i] = Self::get(&a, a_t, row0 + i as u32, k); });
                unroll_short!(NT, |j| { y[j] = Self::get(&b, b_t, k, col0 + j as u32); });
                unroll_short!(MT, |i| {
                    unroll_short!(NT, |j| { acc[i][j] = fma(x[i], y[j], acc[i][j]); });
                });
            }
            k0 += (UNROLL * THREADS) as u32;
        }
        // The block's sums: a butterfly within each warp, then warp 0 adds the warps' sums.
        let partials: *mut f32 = dynamic_shared();
        let (warp, lane) = (warp_idx() as usize, lane_idx());
        unroll_short!(MT, |i| {
            unroll_short!(NT, |j| {
                let mut v = acc[i][j];
                v += shfl_xor::<16>(v);
                v += shfl_xor::<8>(v);
                v += shfl_xor::<4>(v);
                v += shfl_xor::<2>(v);
                v += shfl_xor::<1>(v);
                if lane == 0 {
                    // SAFETY: warp < WARPS, i·NT + j < MT·NT: inside the spec's shared memory.
                    unsafe { store(partials.add(warp * MT * NT + i * NT + j), v) };
                }
            });
        });
        sync_threads();
        let out = (t as usize) < MT * NT;
        if out {
            let (i, j) = (t as usize / NT, t as usize % NT);
            let mut sum = 0.0f32;
            for w in 0..WARPS {
                // SAFETY: as above; written before the barrier.
                sum += unsafe { load(partials.add(w * MT * NT + i * NT + j)) };
            }
            gemm.fused_c().window(row0, col0).store(i as u32, j as u32, sum);
        }
    }
}

// Windows for the shapes of dot products: square, tall and wide.
entries! {
    for E in (sgemm: f32, bgemm: Bf16, hgemm: F16);
    sgemm_00_dot_4x4x256 | bgemm_00_dot_4x4x256 | hgemm_00_dot_4x4x256 => Dot<E, Nn, 4, 4>,
    sgemm_00_dot_4x4x256_nt | bgemm_00_dot_4x4x256_nt | hgemm_00_dot_4x4x256_nt => Dot<E, Nt, 4, 4>,
    sgemm_00_dot_4x4x256_tn | bgemm_00_dot_4x4x256_tn | hgemm_00_dot_4x4x256_tn => Dot<E, Tn, 4, 4>,
    sgemm_00_dot_4x4x256_tt | bgemm_00_dot_4x4x256_tt | hgemm_00_dot_4x4x256_tt => Dot<E, Tt, 4, 4>,
    sgemm_00_dot_16x1x256 | bgemm_00_dot_16x1x256 | hgemm_00_dot_16x1x256 => Dot<E, Nn, 16, 1>,
    sgemm_00_dot_16x1x256_nt | bgemm_00_dot_16x1x256_nt | hgemm_00_dot_16x1x256_nt => Dot<E, Nt, 16, 1>,
    sgemm_00_dot_16x1x256_tn | bgemm_00_dot_16x1x256_tn | hgemm_00_dot_16x1x256_tn => Dot<E, Tn, 16, 1>,
    sgemm_00_dot_16x1x256_tt | bgemm_00_dot_16x1x256_tt | hgemm_00_dot_16x1x256_tt => Dot<E, Tt, 16, 1>,
    sgemm_00_dot_1x16x256 | bgemm_00_dot_1x16x256 | hgemm_00_dot_1x16x256 => Dot<E, Nn, 1, 16>,
    sgemm_00_dot_1x16x256_nt | bgemm_00_dot_1x16x256_nt | hgemm_00_dot_1x16x256_nt => Dot<E, Nt, 1, 16>,
    sgemm_00_dot_1x16x256_tn | bgemm_00_dot_1x16x256_tn | hgemm_00_dot_1x16x256_tn => Dot<E, Tn, 1, 16>,
    sgemm_00_dot_1x16x256_tt | bgemm_00_dot_1x16x256_tt | hgemm_00_dot_1x16x256_tt => Dot<E, Tt, 1, 16>,
}
