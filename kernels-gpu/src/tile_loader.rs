//! The tile loader of the 16-bit rungs 12 and 13: K-tiles of A and B copied from global memory
//! into 128-byte-swizzled shared tiles with 16-byte `cp.async` (zero-filled past the matrix
//! edges), or element by element through registers where rows are not 16-byte aligned.
//!
//! - [`TileLoader`]: a block's windows of A and B and which copies apply; `load` issues one K-tile.
//! - [`copy_tile`]: the general copy (any M, N, K, any alignment).
//! - [`copy_interior_tile`]: the fast path for tiles wholly inside aligned matrices (no edge
//!   checks; one per-thread address, the rest immediates and block-wide offsets).
//!
//! Invariants: a tile lies in the block's dynamic shared memory and the window's origin inside
//! its matrix (the callers' `# Safety`); the caller commits and waits for the copies
//! (`cp.async.commit_group` / `wait_group`) and passes a barrier before reading them.

use crate::prelude::*;

/// Copies the `rows × cols` tile at the origin of `src` into the swizzled `tile` with plain 16-byte
/// `cp.async.cg`: the fast path for tiles wholly inside the matrix with 16-byte-aligned rows, no
/// edge checks and no zero-fill. Chunks are dealt out as in [`copy_tile`] (chunk `tid + i·threads`),
/// and since `threads` is a multiple of the chunks per row, a thread copies one column of chunks,
/// `dr = threads / chunks_per_row` rows apart. So its first chunk is the only per-thread address:
/// the others are `i·dr` rows on, the same shared-memory move for every thread (an immediate, as
/// `dr` rows are whole swizzle blocks) and the same source offset `i·dr·ld` (a value the whole
/// block shares).
///
/// # Safety
/// As for [`copy_tile`], and the whole window lies inside the matrix with 16-byte-aligned rows;
/// `tile.moves_by_blocks(dr)`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
// ANCHOR: copy_interior
pub(crate) unsafe fn copy_interior_tile<E: HalfElem>(smem_addr: u32, tile: SwizzledTile, src: Matrix<E>, rows: usize, cols: usize, tid: u32, threads: usize) {
    let chunks_per_row = cols / 8;
    let (r0, c) = (tid / chunks_per_row as u32, tid % chunks_per_row as u32 * 8);
    let dr = (threads / chunks_per_row) as u32;
    let (first_dst, first_src) = (tile.chunk(r0, c), src.window(r0, c));
    for i in 0..rows * chunks_per_row / threads {
        let r = i as u32 * dr;
        // SAFETY: interior block: the source chunk lies inside the matrix and the destination in
        // the stage's tile.
        unsafe { cp_async_cg_16(tile.moved(smem_addr, first_dst, r, 0), first_src.ptr(r, 0)) };
    }
}
// ANCHOR_END: copy_interior

/// Whether the rows of A and of B start on 16-byte boundaries (so 16-byte `cp.async` applies):
/// leading dimensions multiples of 8 elements, and the matrices themselves 16-byte aligned.
#[inline(always)]
pub(crate) fn aligned_rows<E>(gemm: &GemmArgs<E>) -> (bool, bool) {
    (gemm.lda % 8 == 0 && gemm.a as usize % 16 == 0, gemm.ldb % 8 == 0 && gemm.b as usize % 16 == 0)
}

/// What a block needs to copy its K-tiles of A and B into shared memory: the block's windows of
/// A (at its first row, column 0) and B (row 0, its first column), and which copies apply.
#[derive(Clone, Copy)]
pub(crate) struct TileLoader<E> {
    pub smem: *mut u8,
    pub smem_addr: u32,
    pub a: Matrix<E>,
    pub b: Matrix<E>,
    pub a_vec: bool,
    pub b_vec: bool,
    pub tid: u32,
    pub threads: usize,
}

impl<E: HalfElem> TileLoader<E> {
    /// Copies the `bm × bk` tile of A and the `bk × bn` tile of B at depth `k0` into `a_tile` and
    /// `b_tile` (asynchronously where the rows are aligned: the caller commits and waits).
    ///
    /// # Safety
    /// As for [`copy_tile`]; `k0` < K.
    #[inline(always)]
    pub unsafe fn load(&self, a_tile: SwizzledTile, b_tile: SwizzledTile, k0: u32, bm: usize, bn: usize, bk: usize) {
        // SAFETY: the caller's guarantee (`# Safety` above), passed on for both tiles.
        unsafe {
            copy_tile(self.smem, self.smem_addr, a_tile, self.a.window(0, k0), bm, bk, self.a_vec, self.tid, self.threads);
            copy_tile(self.smem, self.smem_addr, b_tile, self.b.window(k0, 0), bk, bn, self.b_vec, self.tid, self.threads);
        }
    }
}

/// Copies the `rows × cols` window of `src` at its origin into the swizzled `tile`, 16 bytes
/// (8 elements) per copy, the block's `threads` threads taking chunks in turn (neighbouring
/// threads take neighbouring chunks of a row: coalesced reads). Parts of the window outside the
/// matrix read as zeros.
///
/// With `vec`, each chunk is one `cp.async.cg` whose `src_bytes` counts the elements inside the
/// matrix (the rest zero-filled; 0 reads nothing, and the window origin, always inside the matrix,
/// stands in as the address); the caller commits and waits. Without `vec` (rows not 16-byte
/// aligned), the elements go through registers and plain stores: complete when this returns.
///
/// # Safety
/// `tile` lies in this block's dynamic shared memory (`smem`, at shared address `smem_addr`),
/// and the origin of `src` is inside its matrix.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
// ANCHOR: copy_tile
pub(crate) unsafe fn copy_tile<E: HalfElem>(
    smem: *mut u8,
    smem_addr: u32,
    tile: SwizzledTile,
    src: Matrix<E>,
    rows: usize,
    cols: usize,
    vec: bool,
    tid: u32,
    threads: usize,
) {
    let chunks_per_row = cols / 8;
    for i in 0..rows * chunks_per_row / threads {
        let id = tid as usize + i * threads;
        let (r, c) = ((id / chunks_per_row) as u32, (id % chunks_per_row * 8) as u32);
        let offset = tile.chunk(r, c);
        if vec {
            let valid = if r < src.rows { src.cols.saturating_sub(c).min(8) } else { 0 };
            let from = if valid > 0 { src.ptr(r, c) } else { src.ptr(0, 0) };
            // SAFETY: the destination lies in the stage's tile; the source is inside the matrix,
            // or the size read is 0.
            unsafe { cp_async_cg_16_zfill(smem_addr + offset, from, valid * 2) };
        } else {
            let to = smem.wrapping_add(offset as usize) as *mut u16;
            for e in 0..8 {
                // SAFETY: read only inside the matrix (checked on the same line).
                let v = if src.contains(r, c + e) { unsafe { src.get(r, c + e) }.bits() } else { 0 };
                // SAFETY: `to` is this thread's chunk of the stage's tile; `e` < the chunk's 8
                // halves.
                unsafe { store(to.add(e as usize), v) };
            }
        }
    }
}
// ANCHOR_END: copy_tile
