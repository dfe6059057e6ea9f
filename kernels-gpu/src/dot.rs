//! # Dot products: a few outputs over a very long K, A and B read once
//!
//! When M·N is tiny and K is long (3 × 3 × 352 792: a Gram matrix of a few long vectors, a
//! reduction written as a product), every tile kernel wastes its tile: a 64 × 64 tensor-core tile
//! computes 4096 outputs to keep nine. The product is bound by reading A and B once, `(M + N)·K`
//! elements, so the kernel to run is a reduction: each thread walks K in chunks (`KC` elements:
//! 16 bytes, or 8 for 16-bit types in a window 16 wide), keeps the `MT × NT` products of its
//! chunks in registers, and the block sums them at the end. Parallelism comes from split-K
//! (`choice::split_with`): the slices of K are the batch, one block each, and `reduce_splits`
//! adds their partials into C.
//!
//! **Invariants.** A block computes an `MT × NT` window of C (rows and columns past M and N are
//! skipped), over the whole K of its product; thread `t` reads the chunks starting at
//! k = KC·t, KC·(t + 256), ... An operand whose elements run along K in memory (A stored M×K,
//! B stored N×K, or a single stored column, as a vector B of `nn`) whose rows start on a chunk's
//! size is read one vector per chunk; one stored with K down its columns (B of `nn`, A of `tt`)
//! whose rows start on 16 bytes is read a row of the window at a time, in 16-byte vectors; a
//! chunk past K's end, and every other operand, is read element by element with a bounds check,
//! so any layout, leading dimension, alignment and batch runs, and a larger M or N only takes
//! more blocks. (Split-K's slices keep the vectors: each starts on a multiple of 16 bytes of K.)
//!
//! **Cost.** A and B once: `MT + NT` loads per chunk (vectors where the layout allows),
//! `MT·NT` multiply-adds per element of K, and one reduction of `MT·NT` sums per block through
//! shared memory. The chunks of the smaller window are kept while the other's are streamed past
//! them, so registers hold `min(MT, NT) · KC` elements, not both windows.

use crate::gemv::Packed;
use crate::prelude::*;
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::beside(KernelKind::Dot, "dot", "a few outputs over a long K: a reduction per block, K split across blocks");

/// Threads per block, each over every `THREADS`-th chunk of K.
const THREADS: usize = 256;
/// Warps per block.
const WARPS: usize = THREADS / 32;
/// Blocks an SM holds at once (the launch bound caps the registers to let it): more blocks, more
/// loads in flight.
const BLOCKS_PER_SM: u32 = 2;

/// An `MT × NT` window of C per block, for storage `L`.
pub struct Dot<E, L, const MT: usize, const NT: usize>(PhantomData<(E, L)>);

impl<E: Packed, L: Storage, const MT: usize, const NT: usize> GemmKernel for Dot<E, L, MT, NT> {
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

/// One operand as the dot products read it: its `w`-th row (A) or column (B) along K.
struct Operand<E> {
    stored: Matrix<E>,
    /// K runs along the stored rows (A stored M×K, B stored N×K).
    k_major: bool,
    /// Whole chunks of a row along K are one aligned vector each.
    vectors: bool,
    /// Stored rows (one per k) run across the window and start on 16 bytes: a window's part of
    /// one is whole vectors where the window's width is a multiple of `PER_VEC`.
    across_vectors: bool,
}

impl<E: Packed> Operand<E> {
    /// The operand read in chunks of `kc` elements.
    fn new(stored: Matrix<E>, k_major: bool, kc: usize) -> Self {
        // Elements along K are adjacent where K runs along the stored rows, or where the operand
        // is a single stored column (its rows one element long).
        let (kc, per) = (kc as u32, E::PER_VEC as u32);
        let along_k = if k_major { stored.ld % kc == 0 } else { stored.ld == 1 };
        let start = stored.ptr(0, 0) as usize;
        let vectors = along_k && start % (kc as usize * core::mem::size_of::<E>()) == 0;
        Operand { stored, k_major, vectors, across_vectors: !k_major && stored.ld % per == 0 && start % 16 == 0 }
    }

    /// Whether row (column) `w` of the operand exists.
    #[inline(always)]
    fn holds(&self, w: u32) -> bool {
        w < if self.k_major { self.stored.rows } else { self.stored.cols }
    }

    /// Elements `w0 .. w0 + W` of the window at `k` (an operand stored with K down its columns),
    /// widened; 0 outside the matrix. Whole vectors where `across_vectors` holds, the window lies inside
    /// the matrix and `w0` is a multiple of `W`, itself a multiple of `PER_VEC`.
    #[inline(always)]
    fn across<const W: usize>(&self, w0: u32, k: u32) -> [f32; W] {
        let mut v = [0.0f32; W];
        let per = E::PER_VEC;
        if self.across_vectors && W % E::PER_VEC == 0 && k < self.stored.rows && w0 + W as u32 <= self.stored.cols {
            unroll_short!(W / E::PER_VEC, |q| {
                // SAFETY: stored row k exists and holds the window's columns; the vector starts on
                // 16 bytes (the matrix and its rows do, and w0 + q·PER_VEC is a multiple of
                // PER_VEC: w0 is one of W).
                let part = E::widen16(unsafe { ld_global_v4(self.stored.ptr(k, w0 + (q * per) as u32) as *const f32) });
                unroll_short!(E::PER_VEC, |e| { v[q * per + e] = part[e]; });
            });
        } else {
            unroll_short!(W, |j| {
                // SAFETY: read only inside the stored matrix.
                if self.stored.contains(k, w0 + j as u32) {
                    v[j] = unsafe { self.stored.get(k, w0 + j as u32) }.widen();
                }
            });
        }
        v
    }
}

impl<E: Packed, L: Storage, const MT: usize, const NT: usize> Dot<E, L, MT, NT> {
    /// Elements of K per chunk: one 16-byte vector, or 8 bytes for 16-bit elements in a window 16
    /// wide (its 16 chunks in flight, widened, with the other side's, would not fit the registers
    /// two blocks per SM leave a thread).
    const KC: usize = if (MT > 8 || NT > 8) && E::PER_VEC == 8 { E::PER_VEC / 2 } else { E::PER_VEC };

    /// Elements `k0 .. k0 + KC` of row (column) `w`, widened; 0 outside the matrix. `whole`: the
    /// chunk lies inside K. `KC` is `PER_VEC` (one 16-byte vector) or half of it (8 bytes).
    #[inline(always)]
    fn chunk(op: &Operand<E>, w: u32, k0: u32, whole: bool) -> [f32; 8] {
        let at = |k: u32| if op.k_major { (w, k) } else { (k, w) };
        if whole && op.vectors && op.holds(w) {
            let p = {
                let (r, c) = at(k0);
                op.stored.ptr(r, c) as *const f32
            };
            // SAFETY: the chunk lies inside the matrix (row `w` exists, k0 + KC ≤ K) and runs
            // along one stored row, or down a column of one element per row; it starts on its own
            // size (`vectors`: the matrix and every row do, and k0 is a multiple of KC).
            let words = unsafe {
                if Self::KC == E::PER_VEC {
                    ld_global_v4(p)
                } else {
                    let [w0, w1] = ld_global_v2(p);
                    [w0, w1, 0.0, 0.0]
                }
            };
            return E::widen16(words);
        }
        let mut v = [0.0f32; 8];
        unroll_short!(Self::KC, |i| {
            let (r, c) = at(k0 + i as u32);
            // SAFETY: read only inside the stored matrix.
            if op.stored.contains(r, c) {
                v[i] = unsafe { op.stored.get(r, c) }.widen();
            }
        });
        v
    }

    /// [`chunk`](Self::chunk) for an operand read by vectors, a whole chunk, without a branch: a
    /// row (column) `w` past the matrix reads row 0 and counts as zeros, so a step's loads can
    /// all be in flight at once.
    #[inline(always)]
    fn vector_chunk(op: &Operand<E>, w: u32, k0: u32) -> [f32; 8] {
        let held = op.holds(w);
        let w = if held { w } else { 0 };
        let p = (if op.k_major { op.stored.ptr(w, k0) } else { op.stored.ptr(k0, w) }) as *const f32;
        // SAFETY: the caller's guarantee: `vectors` holds and k0 + KC ≤ K, so the chunk of row
        // `w` (or 0, which every matrix has) lies inside the matrix, aligned to its size.
        let words = unsafe {
            if Self::KC == E::PER_VEC {
                ld_global_v4(p)
            } else {
                let [w0, w1] = ld_global_v2(p);
                [w0, w1, 0.0, 0.0]
            }
        };
        let v = E::widen16(words);
        if held { v } else { [0.0; 8] }
    }

    /// One product of the batch: this block's window of C over all of K.
    #[inline(always)]
    unsafe fn product(gemm: &GemmArgs<E>) {
        let (a_t, b_t) = (L::LAYOUT.a.is_t(), L::LAYOUT.b.is_t());
        let (a, b) = (Operand::new(gemm.stored_a(a_t), !a_t, Self::KC), Operand::new(gemm.stored_b(b_t), b_t, Self::KC));
        let (row0, col0) = (block_row() * MT as u32, block_col() * NT as u32);
        let t = thread_idx();
        let per = Self::KC as u32;
        // Every index into `acc` and the chunks is a constant after unrolling (else they would go
        // to local memory); `unroll_short!` writes out at most 16 copies, so the nests stay small.
        let mut acc = [[0.0f32; NT]; MT];
        let mut k0 = t * per;
        // Both operands by vectors: whole chunks with no branch between the loads (for windows up
        // to 8 wide: 16 chunks in flight beside the other side's would not fit the registers).
        if MT <= 8 && NT <= 8 && a.vectors && b.vectors {
            while k0 + per <= gemm.k {
                if MT >= NT {
                    let mut y = [[0.0f32; 8]; NT];
                    unroll_short!(NT, |j| { y[j] = Self::vector_chunk(&b, col0 + j as u32, k0); });
                    unroll_short!(MT, |i| {
                        let x = Self::vector_chunk(&a, row0 + i as u32, k0);
                        unroll_short!(NT, |j| {
                            for v in 0..Self::KC {
                                acc[i][j] = fma(x[v], y[j][v], acc[i][j]);
                            }
                        });
                    });
                } else {
                    let mut x = [[0.0f32; 8]; MT];
                    unroll_short!(MT, |i| { x[i] = Self::vector_chunk(&a, row0 + i as u32, k0); });
                    unroll_short!(NT, |j| {
                        let y = Self::vector_chunk(&b, col0 + j as u32, k0);
                        unroll_short!(MT, |i| {
                            for v in 0..Self::KC {
                                acc[i][j] = fma(x[i][v], y[v], acc[i][j]);
                            }
                        });
                    });
                }
                k0 += THREADS as u32 * per;
            }
        }
        // The rest (other layouts, K's last chunk) chunk by chunk, as each operand allows.
        while k0 < gemm.k {
            let whole = k0 + per <= gemm.k;
            // The smaller window's chunks stay in registers while the other's stream past them:
            // along K where its elements run along K, else a stored row (one k) at a time.
            if MT >= NT {
                let mut y = [[0.0f32; 8]; NT];
                unroll_short!(NT, |j| { y[j] = Self::chunk(&b, col0 + j as u32, k0, whole); });
                if a.across_vectors && MT % E::PER_VEC == 0 {
                    unroll_short!(Self::KC, |v| {
                        let x = a.across::<MT>(row0, k0 + v as u32);
                        unroll_short!(MT, |i| {
                            unroll_short!(NT, |j| { acc[i][j] = fma(x[i], y[j][v], acc[i][j]); });
                        });
                    });
                } else {
                    unroll_short!(MT, |i| {
                        let x = Self::chunk(&a, row0 + i as u32, k0, whole);
                        unroll_short!(NT, |j| {
                            for v in 0..Self::KC {
                                acc[i][j] = fma(x[v], y[j][v], acc[i][j]);
                            }
                        });
                    });
                }
            } else {
                let mut x = [[0.0f32; 8]; MT];
                unroll_short!(MT, |i| { x[i] = Self::chunk(&a, row0 + i as u32, k0, whole); });
                if b.across_vectors && NT % E::PER_VEC == 0 {
                    unroll_short!(Self::KC, |v| {
                        let y = b.across::<NT>(col0, k0 + v as u32);
                        unroll_short!(MT, |i| {
                            unroll_short!(NT, |j| { acc[i][j] = fma(x[i][v], y[j], acc[i][j]); });
                        });
                    });
                } else {
                    unroll_short!(NT, |j| {
                        let y = Self::chunk(&b, col0 + j as u32, k0, whole);
                        unroll_short!(MT, |i| {
                            for v in 0..Self::KC {
                                acc[i][j] = fma(x[i][v], y[v], acc[i][j]);
                            }
                        });
                    });
                }
            }
            k0 += THREADS as u32 * per;
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
