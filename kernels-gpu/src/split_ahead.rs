//! Splitting ahead: 3×TF32's shared operand split once, before the product, into a workspace.
//!
//! Rung 15 splits its shared-memory operand S (A for `nn` and `tn`) into a tf32 high part and a
//! remainder inside the K-loop, every K-tile: a pass through shared memory and a barrier of both
//! warpgroups. For `tn` it must also transpose S there, since the tensor cores read tf32 only
//! K-major. These kernels do that work once, in global memory, before the product: each element
//! `x` of A becomes `hi = x` (the tensor cores read its high 19 bits) and `lo = x − trunc(x)`
//! (exact), both K-major, and the product's copy engine then loads both parts as it loads A
//! (`tf32x3::Presplit`). The values the tensor cores see are those of rung 15's `Raw` split.
//!
//! Workspace layout (the one home of it: the host's [`presplit_layout`] and the product's planes
//! follow it): matrix `i` of the batch is two planes of `rows × dst_ld` floats, its high part in
//! plane `2i`, its remainder in plane `2i + 1`; `dst_ld ≥ cols` and a multiple of 4, so every row
//! starts on a 16-byte boundary whatever A's own leading dimension. The padding is never read.
//!
//! **Streamed.** The split and the product overlap: the split is a small grid (a quarter of the
//! SMs, one block each) that walks A in *chunks* of [`CHUNK_ROWS`] rows (one block row of the
//! product) by [`CHUNK_COLS`] columns of K, in the order the product's blocks need them
//! ([`Chunks::nth`]), and raises each chunk's flag once it is written. The product does not wait
//! for the split's grid to end: its blocks take the SMs the split leaves free, and before its copy
//! engine loads a K-tile of A the issuing thread makes sure that chunk is written ([`SplitRow`]).
//! The split is bound by DRAM, the product by the tensor cores, so the SMs that compute while the
//! split streams lose nothing to it.
//!
//! **Invariants.**
//! - Each block row of each matrix (a *row*) has [`ROW_WORDS`] + one flag per chunk: the number
//!   of its chunks written, the number of product blocks done with it, and each chunk's flag (0,
//!   then 1 once written). The last product block done with a row sets all of them back to
//!   zero, so they are zero before and after every launch (a fresh workspace of flags is zeroed).
//! - A product block waits for nothing when the row's count says every chunk is written (the
//!   common case once the split is ahead: one acquiring load per tile); otherwise it waits for
//!   each chunk's flag before the copies of the chunk's K-tiles.
//! - The split waits for the grid before it *before* it lets the product start
//!   ([`split_tf32_rows`]): the product's blocks may then run before the split ends, but never
//!   while the grid before the split (an earlier product reading the same flags) still runs.
//! - The product waits for nothing else before its first access: every flag it acquires was
//!   raised after the split's wait for the grid before, so what that grid wrote is visible to it.
//! - A chunk's writers fence the generic proxy against the async one before the barrier that
//!   precedes the flag, and the product fences again after acquiring it: the copy engine (async
//!   proxy) reads what the split's threads stored (generic proxy).
//!
//! Cost: one read of A and two writes of its size, against the `2·M·N·K` flops of the product,
//! on the SMs the split holds while it runs; a workspace twice A's size and a flag per chunk.

use crate::device::*;

/// Rows of M in a chunk: one block row of the product's tiles (rung 15's `BM`, which checks it).
pub const CHUNK_ROWS: u32 = 128;
/// Columns of K in a chunk: four of the product's K-tiles of 32.
pub const CHUNK_COLS: u32 = 128;
/// Threads per block of the split: 32 warps, each thread 16 elements of a chunk (all loads in
/// flight at once: the split has few blocks, so each must keep many bytes on the way).
pub const SPLIT_THREADS: u32 = 1024;
/// Shared memory of the transposing split: a chunk as stored, 128 rows of K by 128 + 1 floats
/// (the extra float moves each row to another bank, so reading a column meets no conflicts).
pub const SPLIT_SMEM_BYTES: u32 = CHUNK_COLS * (CHUNK_ROWS + 1) * 4;
/// Words of a row's flags before its chunks' own: the chunks written, the product blocks done.
pub const ROW_WORDS: u32 = 2;
/// Blocks of the split's grid for a GPU of `sms` SMs: a quarter of them (at least one), enough
/// to keep DRAM busy; the product's blocks take the others meanwhile.
pub const fn split_blocks(sms: u32) -> u32 {
    if sms / 4 > 1 { sms / 4 } else { 1 }
}

/// The split's entry and its shared memory for A stored transposed (`tn`) or not. The GPU's
/// launch and the emulator's both take it from here.
pub fn split_entry(transposed: bool) -> (&'static str, u32) {
    if transposed { ("split_tf32_transposed", SPLIT_SMEM_BYTES) } else { ("split_tf32_rows", 0) }
}

/// `x` as the tensor cores read it: its low 13 bits cleared (truncated to tf32).
#[inline(always)]
pub fn trunc_tf32(x: f32) -> f32 {
    f32::from_bits(x.to_bits() & !0x1fff)
}

/// `x` as the pair rung 15's `Raw` split gives: `(x, x − trunc(x))`. The first the tensor cores
/// truncate as they read it; the second is exact.
#[inline(always)]
pub fn raw_parts(x: f32) -> (f32, f32) {
    (x, x - trunc_tf32(x))
}

/// Floats of the workspace for `matrices` matrices of `rows × cols`, and its leading dimension
/// (whole 16-byte rows). `None` when it would not fit in `u64`.
pub fn presplit_layout(matrices: u64, rows: u64, cols: u32) -> Option<(u64, u32)> {
    let ld = cols.next_multiple_of(4);
    Some((matrices.checked_mul(2)?.checked_mul(rows)?.checked_mul(ld as u64)?, ld))
}

/// The chunks of the split of `matrices` matrices of `rows × cols` (rows of M, columns of K), and
/// the order the split writes them in: matrix by matrix, and in each, groups of `group` panels
/// (block rows of the product, [`CHUNK_ROWS`] rows each) one after the other, and in a group
/// the chunks column by column of K. The product walks its tiles in groups of the same number
/// of block rows (its `GROUP_M`), so its first blocks need the first group, and they read K from
/// its start while the split runs ahead of them along it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunks {
    pub panels: u32,
    pub columns: u32,
    pub matrices: u32,
    pub group: u32,
}

impl Chunks {
    pub const fn new(rows: u32, cols: u32, matrices: u32, group: u32) -> Chunks {
        Chunks { panels: rows.div_ceil(CHUNK_ROWS), columns: cols.div_ceil(CHUNK_COLS), matrices, group: if group == 0 { 1 } else { group } }
    }

    /// Chunks in all.
    pub const fn count(&self) -> u64 {
        self.panels as u64 * self.columns as u64 * self.matrices as u64
    }

    /// Words of flags in all (each row's [`ROW_WORDS`] and its chunks'): `None` past `u32`.
    pub const fn flag_words(&self) -> Option<u32> {
        match (self.panels as u64 * (self.columns as u64 + ROW_WORDS as u64)).checked_mul(self.matrices as u64) {
            Some(n) if n <= u32::MAX as u64 => Some(n as u32),
            _ => None,
        }
    }

    /// The `i`-th chunk the split writes: (matrix, panel, column of chunks).
    #[inline(always)]
    pub fn nth(&self, i: u32) -> (u32, u32, u32) {
        // `max(1)`: never zero for a chunk that exists, but the compiler cannot know that.
        let per_matrix = (self.panels * self.columns).max(1);
        let (z, j) = (i / per_matrix, i % per_matrix);
        let per_group = (self.group * self.columns).max(1);
        let first = j / per_group * self.group;
        let in_group = self.panels.saturating_sub(first).clamp(1, self.group);
        let j = j % per_group;
        (z, first + j % in_group, j / in_group)
    }

    /// Index of the first flag word of row `panel` of matrix `z` (its count of chunks written);
    /// chunk `column`'s flag is at `ROW_WORDS + column` from it.
    #[inline(always)]
    pub fn row(&self, z: u32, panel: u32) -> usize {
        (z as usize * self.panels as usize + panel as usize) * (self.columns as usize + ROW_WORDS as usize)
    }
}

/// Splits A stored row by row (`rows × cols`, K-major: `nn`, `nt`) into the workspace, chunk by
/// chunk, raising each chunk's flag in `flags` (zero at the start, [`Chunks::count`] of them).
/// Launch with [`SPLIT_THREADS`] threads and any number of blocks in one plane
/// ([`split_blocks`]); A's `matrices` matrices start `src_stride` elements apart.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "gpu-kernel" fn split_tf32_rows(src: *const f32, dst: *mut f32, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64, matrices: u32, group: u32, flags: *mut u32) {
    // The grid before this one (an earlier product, which reads the flags) has ended before the
    // product after it may start: wait first, then let it start.
    crate::device::wait_for_previous_grid();
    crate::device::let_next_grid_start();
    // SAFETY: the launch's contract, passed on.
    unsafe { split::<false>(src, dst, rows, cols, src_ld, dst_ld, src_stride, Chunks::new(rows, cols, matrices, group), flags) }
}

/// Splits A stored transposed (`cols × rows`: K × M, `tn`) into the K-major workspace, through
/// shared memory. Launch as `split_tf32_rows`, with [`SPLIT_SMEM_BYTES`] of shared memory.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "gpu-kernel" fn split_tf32_transposed(src: *const f32, dst: *mut f32, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64, matrices: u32, group: u32, flags: *mut u32) {
    // As in `split_tf32_rows`.
    crate::device::wait_for_previous_grid();
    crate::device::let_next_grid_start();
    // SAFETY: the launch's contract, passed on.
    unsafe { split::<true>(src, dst, rows, cols, src_ld, dst_ld, src_stride, Chunks::new(rows, cols, matrices, group), flags) }
}

/// The body of both splits, for the GPU and the emulator: block `b` of `blocks` splits chunks
/// `b, b + blocks, …` in [`Chunks::nth`]'s order, and after each raises its flag.
///
/// Element (r, c) (row of M, column of K) is `src[r·src_ld + c]`, or with `TRANSPOSED`
/// `src[c·src_ld + r]`; matrix z of `src` starts `z·src_stride` elements in. Every access is of
/// one element, 32 consecutive ones across a warp, so A may have any leading dimension and
/// alignment; each thread issues its 16 loads before it stores anything. A transposed chunk is
/// read along its stored rows, kept in shared memory, and written along K.
///
/// # Safety
/// `src` holds the matrices as described, `dst` room for the workspace of the module's layout
/// (`dst_ld ≥ cols`), `flags` the chunks' flags, zero; launched as `split_tf32_rows` says.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn split<const TRANSPOSED: bool>(src: *const f32, dst: *mut f32, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64, chunks: Chunks, flags: *mut u32) {
    let (warp, lane) = (thread_idx() / 32, lane_idx());
    let plane = rows as usize * dst_ld as usize;
    // tile[j][i] = element (r0 + i, c0 + j): stored row c0 + j of `src`, read along it. Rows
    // 129 floats apart: reading a column down the rows meets 32 different banks.
    let tile = dynamic_shared::<f32>();
    let cell = |j: u32, i: u32| tile.wrapping_add((j * (CHUNK_ROWS + 1) + i) as usize);
    let count = chunks.count().min(u32::MAX as u64) as u32;
    let (mut i, blocks) = block_linear();
    while i < count {
        let (z, panel, column) = chunks.nth(i);
        let (r0, c0) = (panel * CHUNK_ROWS, column * CHUNK_COLS);
        let src = src.wrapping_add(z as usize * src_stride as usize);
        let hi = dst.wrapping_add(2 * z as usize * plane);
        let lo = hi.wrapping_add(plane);
        // Thread (warp, lane) takes rows `warp + 32j` and columns `lane + 32q` of the chunk, as
        // it is read (stored rows) and as it is written (rows of M).
        let at = |j: usize, q: usize| (warp + 32 * j as u32, lane + 32 * q as u32);
        let mut x = [[0.0f32; 4]; 4];
        for (j, row) in x.iter_mut().enumerate() {
            for (q, v) in row.iter_mut().enumerate() {
                let (u, w) = at(j, q);
                // Read as stored: (row r, column c) of the K-major result, or stored row c of K.
                let (r, c) = if TRANSPOSED { (r0 + w, c0 + u) } else { (r0 + u, c0 + w) };
                if r < rows && c < cols {
                    let e = if TRANSPOSED { c as usize * src_ld as usize + r as usize } else { r as usize * src_ld as usize + c as usize };
                    // SAFETY: (r, c) lies inside matrix z of `src`.
                    *v = unsafe { load(src.wrapping_add(e)) };
                }
            }
        }
        if TRANSPOSED {
            for (j, row) in x.iter().enumerate() {
                for (q, v) in row.iter().enumerate() {
                    let (u, w) = at(j, q);
                    // SAFETY: the cell lies in the block's SPLIT_SMEM_BYTES of shared memory.
                    unsafe { store(cell(u, w), *v) };
                }
            }
            sync_threads();
            for (j, row) in x.iter_mut().enumerate() {
                for (q, v) in row.iter_mut().enumerate() {
                    let (u, w) = at(j, q);
                    // SAFETY: the cell was written above, before the barrier.
                    *v = unsafe { load(cell(w, u)) };
                }
            }
        }
        for (j, row) in x.iter().enumerate() {
            for (q, &v) in row.iter().enumerate() {
                let (u, w) = at(j, q);
                let (r, c) = (r0 + u, c0 + w);
                if r < rows && c < cols {
                    let (h, l) = raw_parts(v);
                    let e = r as usize * dst_ld as usize + c as usize;
                    // SAFETY: r < rows and c < cols: inside both planes of matrix z (the contract).
                    unsafe {
                        store(hi.wrapping_add(e), h);
                        store(lo.wrapping_add(e), l);
                    }
                }
            }
        }
        // The chunk is written: every thread fences its stores for the copy engine, the block
        // meets (which also frees the tile for the next chunk), and one thread releases the flag.
        fence_proxy_async_global();
        sync_threads();
        if thread_idx() == 0 {
            fence_acq_rel_gpu();
            let row = flags.wrapping_add(chunks.row(z, panel));
            // SAFETY: the chunk's flag and its row's count, inside `flags`; only atomics touch
            // them. The flag first: a count that says every chunk is written implies every flag.
            unsafe {
                atom_add_acq_rel_gpu(row.wrapping_add((ROW_WORDS + column) as usize), 1);
                atom_add_acq_rel_gpu(row, 1);
            }
        }
        i += blocks;
    }
}

/// Nanoseconds [`SplitRow::await_chunk`] waits for a flag before it gives up.
pub const CHUNK_TIMEOUT_NS: u64 = 20_000_000_000;

/// The product's side of one row's flags, held by the thread that issues a block's copies for
/// one tile: [`open`](SplitRow::open) at the tile's start, [`await_chunk`](SplitRow::await_chunk)
/// before the copies of each chunk, [`close`](SplitRow::close) after the tile's last copy.
#[derive(Clone, Copy)]
pub struct SplitRow {
    /// The row's first flag word (its count of chunks written).
    row: *mut u32,
    columns: u32,
    /// Product blocks that read the row.
    readers: u32,
    /// Every chunk of the row was written when the tile started.
    written: bool,
}

impl SplitRow {
    /// No row: for the threads that issue no copies, and for products that read A as given.
    pub const NONE: SplitRow = SplitRow { row: core::ptr::null_mut(), columns: 0, readers: 0, written: true };

    /// Row `panel` of matrix `z` in the split's flags at `flags`, read by `readers` product
    /// blocks: one acquiring load of its count.
    ///
    /// # Safety
    /// `flags` are the flags of the split queued before this product, laid out by `chunks`.
    #[inline(always)]
    pub unsafe fn open(flags: *mut u32, chunks: &Chunks, z: u32, panel: u32, readers: u32) -> SplitRow {
        let row = flags.wrapping_add(chunks.row(z, panel));
        // SAFETY: the caller's guarantee: the row's count, inside the flags.
        let written = unsafe { ld_acquire_gpu(row) } == chunks.columns;
        if written {
            fence_proxy_async_global();
        }
        SplitRow { row, columns: chunks.columns, readers, written }
    }

    /// Waits until chunk `column` of the row is written, unless the whole row was; then the
    /// calling thread's copies read it. Traps after [`CHUNK_TIMEOUT_NS`] (a flag that never rises
    /// is a bug, and fails the launch instead of hanging it).
    ///
    /// # Safety
    /// As for [`open`](SplitRow::open), on the row it opened, `column` one of its chunks.
    #[inline(always)]
    pub unsafe fn await_chunk(&self, column: u32) {
        if self.written {
            return;
        }
        let flag = self.row.wrapping_add((ROW_WORDS + column) as usize);
        let mut tries = 0u32;
        let mut start = 0u64;
        // SAFETY: the caller's guarantee: a flag inside the split's flags.
        while unsafe { ld_acquire_gpu(flag) } == 0 {
            tries += 1;
            if tries % 1024 == 0 {
                let now = global_timer_ns();
                if tries == 1024 {
                    start = now;
                } else if now.wrapping_sub(start) > CHUNK_TIMEOUT_NS {
                    trap();
                }
            }
        }
        fence_proxy_async_global();
    }

    /// This block is done with the row (its copies issued): the last of its readers sets the
    /// row's words back to zero for the next launch.
    ///
    /// # Safety
    /// As for [`open`](SplitRow::open); once per block that read the row, after its last
    /// [`await_chunk`](SplitRow::await_chunk).
    #[inline(always)]
    pub unsafe fn close(&self) {
        if self.row.is_null() {
            return;
        }
        // SAFETY: the row's words, inside the flags; only atomics touch them. Every reader has
        // passed its waits when the count of readers is full, so none reads a word again.
        unsafe {
            if atom_add_acq_rel_gpu(self.row.wrapping_add(1), 1) + 1 == self.readers {
                atom_add_acq_rel_gpu(self.row, self.columns.wrapping_neg());
                atom_add_acq_rel_gpu(self.row.wrapping_add(1), self.readers.wrapping_neg());
                for c in 0..self.columns {
                    atom_add_acq_rel_gpu(self.row.wrapping_add((ROW_WORDS + c) as usize), 1u32.wrapping_neg());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The split's order visits every chunk once, and each chunk's flag is its own.
    #[test]
    fn chunks_cover_every_chunk_once() {
        for (rows, cols, matrices, group) in [(1, 1, 1, 8), (128, 128, 1, 8), (4096, 4096, 1, 8), (1000, 300, 3, 8), (129, 4097, 2, 3), (2_100_000, 36, 1, 8)] {
            let chunks = Chunks::new(rows, cols, matrices, group);
            let count = chunks.count() as u32;
            assert_eq!(count as u64, rows.div_ceil(128) as u64 * cols.div_ceil(128) as u64 * matrices as u64);
            assert_eq!(chunks.flag_words(), Some(count + matrices * chunks.panels * ROW_WORDS));
            let mut seen = vec![false; chunks.flag_words().unwrap() as usize];
            let mut last = None;
            for i in 0..count {
                let (z, p, c) = chunks.nth(i);
                assert!(z < matrices && p < chunks.panels && c < chunks.columns, "{chunks:?} {i}");
                let f = chunks.row(z, p) + (ROW_WORDS + c) as usize;
                assert!(!seen[f] && f < seen.len(), "{chunks:?}: chunk {i} twice");
                assert!(z > 0 || p > 0 || f >= ROW_WORDS as usize, "a chunk's flag is not a row word");
                seen[f] = true;
                // Within a matrix and a group of panels, the columns of K come in order.
                if let Some((lz, lp, lc)) = last {
                    if lz == z && lp / chunks.group == p / chunks.group {
                        assert!(c >= lc, "{chunks:?}: column {c} after {lc}");
                    }
                }
                last = Some((z, p, c));
            }
        }
        assert_eq!(Chunks::new(u32::MAX, u32::MAX, 2, 8).flag_words(), None);
    }
}
