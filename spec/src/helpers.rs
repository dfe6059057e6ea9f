//! The launch contracts of the module's helper entries (the split-K sum, the copies to 16-byte
//! rows, the split of A ahead of 3×TF32): what the host and the emulator need to launch them,
//! and the kernels to assume.

/// Threads per block of the split-K sum (`reduce_splits`).
pub const REDUCE_THREADS: u32 = 256;

/// Threads per block of the copies to 16-byte rows (`copy_rows_b8`, `copy_rows_b16`, `copy_rows_b32`).
pub const COPY_THREADS: u32 = 256;

/// Rows a thread copies at once: its loads of them all issued before its stores.
pub const COPY_ROWS_AT_ONCE: u32 = 8;

/// Threads a Hopper SM holds at once.
const SM_THREADS: u32 = 2048;

/// The grid of a copy of `planes` matrices of `rows × cols` on a GPU of `sms` SMs: columns of
/// blocks across a row, and rows of blocks (at most `max_grid_rows`) such that the launch has
/// about as many blocks as the SMs hold at once (`SM_THREADS` each), every block walking its rows
/// [`COPY_ROWS_AT_ONCE`] at a time. The GPU's launch and the emulator's test take it from here.
#[inline]
pub fn copy_grid(rows: u32, cols: u32, planes: u32, sms: u32, max_grid_rows: u32) -> (u32, u32) {
    let x = cols.div_ceil(COPY_THREADS).max(1);
    let resident = sms.max(1) * (SM_THREADS / COPY_THREADS);
    let per_plane = resident.div_ceil(x.saturating_mul(planes.max(1))).max(1);
    (x, rows.div_ceil(COPY_ROWS_AT_ONCE).min(per_plane).min(max_grid_rows).max(1))
}

/// Side of the square tile a block of the split of A splits: 32 × 32 elements.
pub const SPLIT_TILE: u32 = 32;
/// Threads per block of the split of A: 32 columns × 8 rows, each thread four elements of the tile.
pub const SPLIT_THREADS: u32 = 256;
/// Shared memory of the transposing split: one 32 × 33 tile of f32 (the extra column moves each
/// row to another bank, so reading a column meets no conflicts).
pub const SPLIT_SMEM_BYTES: u32 = SPLIT_TILE * (SPLIT_TILE + 1) * 4;

/// Floats of the split-ahead workspace for `matrices` matrices of `rows × cols`, and its leading
/// dimension (whole 16-byte rows). `None` when it would not fit in `u64`.
#[inline]
pub fn presplit_layout(matrices: u64, rows: u64, cols: u32) -> Option<(u64, u32)> {
    let ld = cols.next_multiple_of(4);
    Some((matrices.checked_mul(2)?.checked_mul(rows)?.checked_mul(ld as u64)?, ld))
}

/// How the host launches the split of a `rows × cols` result (one plane of the grid per matrix,
/// [`SPLIT_THREADS`] threads): the entry, the grid's columns and rows (at most `max_grid_rows`:
/// the blocks walk the rest) and the shared memory. The GPU's launch and the emulator's both
/// take it from here.
#[inline]
pub fn split_launch(transposed: bool, rows: u32, cols: u32, max_grid_rows: u32) -> (&'static str, (u32, u32), u32) {
    let grid = (cols.div_ceil(SPLIT_TILE), rows.div_ceil(SPLIT_TILE).min(max_grid_rows));
    if transposed { ("split_tf32_transposed", grid, SPLIT_SMEM_BYTES) } else { ("split_tf32_rows", grid, 0) }
}
