//! The tile copies of the fp32 rungs 6–9, and their float4 epilogue: global → registers →
//! shared memory, one float4 per instruction where the slice lies inside aligned rows, scalar and
//! zero-filled elsewhere.
//!
//! - [`RowMajorCopy`] (rung 6): a row-major slice into a row-major shared tile; consecutive threads
//!   take consecutive float4s of a row (coalesced reads, conflict-free writes).
//! - [`TransposedCopy`] (rung 7): a slice of row-major A into a transposed, padded tile (`Aᵀ`), so
//!   a thread's column of A becomes a float4 run; the pad keeps the scalar stores conflict-free.
//! - [`fetch_float4s`] and [`store4`]: the choice between vector and scalar access (block-uniform
//!   for the fetch; per address for the store, so that C may start anywhere).
//! - [`store_thread_tile`]: a thread tile's epilogue through [`store4`].
//!
//! Invariants: slices split evenly into float4s among the threads, and tile rows are whole float4s
//! (asserted when a copy is built, at compile time); a `fast` fetch only where the caller checked
//! the whole slice lies inside the matrix with 16-byte-aligned rows. The rung files say why each
//! copy has the shape it has; this module is where the code lives once.

use crate::prelude::*;

/// Float4s a thread holds in registers for one tile copy, at most (the staging array has this
/// many; the copy uses the first `VECS`, and the compiler drops the rest).
pub(crate) const MAX_VECS: usize = 8;

/// Float4s on their way from global to shared memory, in registers.
pub(crate) type StagedFloat4s = [[f32; 4]; MAX_VECS];

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
    pub(crate) fn fetch(&self, t: usize, src: &Matrix<f32>) -> StagedFloat4s {
        let fast = src.rows_align4() && src.covers(self.rows as u32, self.cols as u32);
        fetch_float4s(src, fast, self.vecs(), |i| self.coords(t, i))
    }

    /// [`fetch`](Self::fetch) for a caller that knows the slice lies wholly inside the matrix with
    /// 16-byte aligned rows: vector loads only, no checks.
    #[inline(always)]
    pub(crate) fn fetch_inside(&self, t: usize, src: &Matrix<f32>) -> StagedFloat4s {
        fetch_float4s(src, true, self.vecs(), |i| self.coords(t, i))
    }

    /// Writes what [`fetch`](Self::fetch) read to the shared tile `dst` (`rows × stride`, stride
    /// a multiple of 4).
    #[inline(always)]
    pub(crate) fn store(&self, t: usize, s: &StagedFloat4s, dst: &SmemTile) {
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
pub(crate) fn fetch_float4s(src: &Matrix<f32>, fast: bool, count: usize, coords: impl Fn(usize) -> (usize, usize)) -> StagedFloat4s {
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
/// float4 load of the old C when beta ≠ 0) when all four exist and their address is 16-byte
/// aligned, else element by element with bounds checks.
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
    // Unrolled for certain: a run-time index would send the accumulators to local memory.
    unroll_short!(TM, |i| {
        unroll_short!(TN / 4, |q| {
            store4(c, row(i) as u32, col4(q) as u32, acc.get4(i, 4 * q));
        });
    });
}

/// Floats of padding at the end of each row of the transposed A tile (see the module docs).
pub(crate) const A_PAD: usize = 4;

/// Copies a `bm × bk` slice of row-major A into a `bk × (bm + A_PAD)` shared tile, transposed,
/// with `threads` threads. Float4 number `e` of the slice goes to warp `e / 32`, lane `e % 32`;
/// a warp takes 16 rows × 8 columns, lane `l` row `l % 16`, columns `8·p + 4·(l / 16)`.
#[derive(Clone, Copy)]
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
pub(crate) struct TransposedCopy {
    bm: usize,
    bk: usize,
    threads: usize,
}

impl TransposedCopy {
    /// Checked when a kernel's `SPEC` is evaluated, i.e. at compile time.
    #[inline(always)]
    pub(crate) const fn new(bm: usize, bk: usize, threads: usize) -> Self {
        assert!(bm % 16 == 0 && bk % 8 == 0, "a warp copies 16 rows × 8 columns of A");
        assert!(threads % 32 == 0, "whole warps");
        assert!((bm * bk / 4) % threads == 0, "the A tile's float4s must divide evenly among the threads");
        assert!(bm * bk / 4 / threads <= MAX_VECS, "more float4s per thread than the staging array holds");
        TransposedCopy { bm, bk, threads }
    }

    /// Floats one row of the transposed tile occupies.
    pub(crate) const fn stride(bm: usize) -> usize {
        bm + A_PAD
    }

    #[inline(always)]
    const fn vecs(&self) -> usize {
        self.bm * self.bk / 4 / self.threads
    }

    /// (row, column) in the `bm × bk` slice of A of float4 number `i` of thread `t`.
    #[inline(always)]
    fn coords(&self, t: usize, i: usize) -> (usize, usize) {
        let e = i * self.threads + t;
        let (warp, lane) = (e / 32, e % 32);
        let pairs = self.bk / 8; // 8-column blocks across the slice
        (warp / pairs * 16 + lane % 16, (warp % pairs) * 8 + lane / 16 * 4)
    }

    /// Reads thread `t`'s float4s of the A slice whose origin is `src`'s (see
    /// [`fetch_float4s`]).
    #[inline(always)]
    pub(crate) fn fetch(&self, t: usize, src: &Matrix<f32>) -> StagedFloat4s {
        let fast = src.rows_align4() && src.covers(self.bm as u32, self.bk as u32);
        fetch_float4s(src, fast, self.vecs(), |i| self.coords(t, i))
    }

    /// [`fetch`](Self::fetch) for a caller that knows the slice lies wholly inside the matrix with
    /// 16-byte aligned rows: vector loads only, no checks.
    #[inline(always)]
    pub(crate) fn fetch_inside(&self, t: usize, src: &Matrix<f32>) -> StagedFloat4s {
        fetch_float4s(src, true, self.vecs(), |i| self.coords(t, i))
    }

    /// Writes what [`fetch`](Self::fetch) read, transposed: element (r, c + j) of the slice to
    /// row c + j, column r of `dst`.
    #[inline(always)]
    // ANCHOR: transposed_store
    pub(crate) fn store(&self, t: usize, s: &StagedFloat4s, dst: &SmemTile) {
        for i in 0..self.vecs() {
            let (r, c) = self.coords(t, i);
            for j in 0..4 {
                dst.set(c + j, r, s[i][j]);
            }
        }
    }
    // ANCHOR_END: transposed_store
}
