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

use crate::prelude::*;

pub const RUNG: Rung = Rung { number: 6, slug: "vectorized", idea: "float4 global loads and stores, float4 shared reads of B" };

/// Float4s a thread holds in registers for one tile copy, at most (the staging array has this
/// many; the copy uses the first `VECS`, and the compiler drops the rest).
pub(crate) const MAX_VECS: usize = 8;

/// Float4s on their way from global to shared memory, in registers.
pub(crate) type Staging = [[f32; 4]; MAX_VECS];

/// Copies a `rows × cols` slice of a row-major matrix into a row-major shared tile, float4 by
/// float4, with `threads` threads: consecutive threads take consecutive float4s of a row, so a
/// warp reads 512 contiguous bytes when the rows are long enough (coalesced) and writes them to
/// consecutive shared addresses (no bank conflicts).
///
/// The shape is a value, built from the kernel's constants (stable Rust cannot compute const
/// generic arguments such as `BM·BN/(TM·TN)` threads); after inlining every index is folded.
#[derive(Clone, Copy)]
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
pub(crate) struct RowMajorCopy {
    rows: usize,
    cols: usize,
    threads: usize,
}

impl RowMajorCopy {
    /// Checked when a kernel's `SPEC` is evaluated, i.e. at compile time. (`inline` keeps this
    /// function, used only in constants, out of the PTX.)
    #[inline(always)]
    pub(crate) const fn new(rows: usize, cols: usize, threads: usize) -> Self {
        assert!(cols % 4 == 0, "rows are copied as float4s");
        assert!((rows * cols / 4) % threads == 0, "the tile's float4s must divide evenly among the threads");
        assert!(rows * cols / 4 / threads <= MAX_VECS, "more float4s per thread than the staging array holds");
        RowMajorCopy { rows, cols, threads }
    }

    /// Float4s each thread copies.
    #[inline(always)]
    pub(crate) const fn vecs(&self) -> usize {
        self.rows * self.cols / 4 / self.threads
    }

    /// (row, column) of float4 number `i` of thread `t`.
    #[inline(always)]
    fn coords(&self, t: usize, i: usize) -> (usize, usize) {
        let e = i * self.threads + t;
        (e / (self.cols / 4), e % (self.cols / 4) * 4)
    }

    /// Reads thread `t`'s float4s of the slice whose origin is `src`'s into registers (see
    /// [`fetch_float4s`]).
    #[inline(always)]
    pub(crate) fn fetch(&self, t: usize, src: &Matrix<f32>) -> Staging {
        let fast = src.rows_align4() && src.covers(self.rows as u32, self.cols as u32);
        fetch_float4s(src, fast, self.vecs(), |i| self.coords(t, i))
    }

    /// [`fetch`](Self::fetch) for a caller that knows the slice lies wholly inside the matrix with
    /// 16-byte aligned rows: vector loads only, no checks.
    #[inline(always)]
    pub(crate) fn fetch_inside(&self, t: usize, src: &Matrix<f32>) -> Staging {
        fetch_float4s(src, true, self.vecs(), |i| self.coords(t, i))
    }

    /// Writes what [`fetch`](Self::fetch) read to the shared tile `dst` (`rows × stride`, stride
    /// a multiple of 4).
    #[inline(always)]
    pub(crate) fn store(&self, t: usize, s: &Staging, dst: &SmemTile) {
        for i in 0..self.vecs() {
            let (r, c) = self.coords(t, i);
            // SAFETY: `coords` stays inside `dst`'s `rows × stride`, at a multiple of 4 floats
            // (16-byte aligned).
            unsafe { st_shared_v4(dst.ptr(r, c), s[i]) }
        }
    }
}

/// Reads `count` float4s of a slice whose origin is `src`'s into registers, float4 `i` from
/// (row, column) `coords(i)` of the slice: vector loads when `fast` (the whole slice is
/// inside the matrix and its rows are 16-byte aligned; the caller decides, the same way for the
/// whole block), scalar zero-filled loads otherwise.
#[inline(always)]
// ANCHOR: fetch
pub(crate) fn fetch_float4s(src: &Matrix<f32>, fast: bool, count: usize, coords: impl Fn(usize) -> (usize, usize)) -> Staging {
    let mut s = [[0.0; 4]; MAX_VECS];
    for i in 0..count {
        let (r, c) = coords(i);
        s[i] = if fast {
            // Inside and aligned: checked by the caller for the whole slice.
            // SAFETY: `fast`: the caller checked the whole slice lies inside `src` with
            // 16-byte-aligned rows.
            unsafe { ld_global_v4(src.ptr(r as u32, c as u32)) }
        } else {
            src.get4_or_zero(r as u32, c as u32)
        };
    }
    s
}
// ANCHOR_END: fetch

/// Writes the epilogue of four accumulators to (row, col..col + 4) of `c`: one float4 (plus one
/// float4 load of the old C when beta ≠ 0) when all four exist and the row is aligned, else
/// element by element with bounds checks.
#[inline(always)]
// ANCHOR: store4
pub(crate) fn store4(c: &Output, row: u32, col: u32, acc: [f32; 4]) {
    if c.holds4(row, col) {
        let p = c.ptr(row, col);
        // SAFETY: `holds4`: all four elements lie inside C and `p` is 16-byte aligned.
        unsafe { st_global_v4(p, c.blend4(acc, || ld_global_v4(p))) }
    } else {
        for e in 0..4 {
            c.store(row, col + e as u32, acc[e]);
        }
    }
}
// ANCHOR_END: store4

/// The epilogue of a whole thread tile through [`store4`]: accumulators (i, 4q .. 4q + 4) go to
/// row `row(i)`, columns `col4(q) .. col4(q) + 4` of `c`. Rungs 6, 7, 8, 10 and 11 share this
/// loop and differ only in where a thread's rows and runs of four columns lie. (Rung 9 keeps its
/// own loop nest: with 8×16 thread tiles this flat one does not unroll and `acc` goes to local
/// memory.)
#[inline(always)]
pub(crate) fn store_thread_tile<const TM: usize, const TN: usize>(
    c: &Output,
    acc: &ThreadTile<TM, TN>,
    row: impl Fn(usize) -> usize,
    col4: impl Fn(usize) -> usize,
) {
    for i in 0..TM {
        for q in 0..TN / 4 {
            store4(c, row(i) as u32, col4(q) as u32, acc.get4(i, 4 * q));
        }
    }
}

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

    unsafe fn run(gemm: &Gemm<f32>) {
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
