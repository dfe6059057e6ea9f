//! Swizzled shared-memory tiles: 16-bit tiles for the tensor-core rungs 12–14, the f32
//! helpers (`SwizzledF32Rows`, `swizzle_128b`) of rungs 10, 11, 14 and 15, and the `wgmma`
//! descriptor of rungs 13–15.
//!
//! Shared memory has 32 banks of 4 bytes: one 128-byte line spans every bank once, as eight
//! 16-byte *chunks*. The tensor-core loads (`ldmatrix`, `wgmma`) read eight rows of a tile at the
//! same column, 16 bytes per row. In a plain row-major tile with 128-byte rows those eight chunks
//! all sit at the same place of their lines, in the same four banks: an 8-way bank conflict.
//!
//! The 128-byte XOR swizzle moves chunk `c` of line `l` to chunk `c ^ (l % 8)`. The eight rows
//! read together are eight consecutive lines, so they land in eight different chunk positions,
//! one per group of four banks: no conflict. Writing a whole row (eight neighbouring chunks) only
//! permutes its chunks within the line, so the copies into the tile stay conflict-free too. On
//! byte offsets the swizzle is one XOR, bits 4–6 ^= bits 7–9:
//! `offset ^ ((offset >> 3) & 0x70)`, a permutation within each 1024-byte block.
//!
//! It is also exactly the pattern the Hopper copy engine (TMA) writes and `wgmma` reads in its
//! "128-byte swizzle" mode, so the wgmma rungs keep this layout as is and only describe it to the
//! hardware: [`wgmma_descriptor`] (see `13_wgmma.rs`).
//!
//! Tiles wider than 64 elements are stored as column *panels* 64 elements (128 bytes) wide, one
//! after the other, each panel row-major and swizzled: a row never spans more than one line.
//! Tiles 32 elements wide (64-byte rows) use the same XOR: line `l` then holds rows `2l` and
//! `2l+1`, and eight consecutive rows still fall on eight distinct chunk positions
//! (`(r % 2)·4 + c` XOR `(r / 2) % 8` takes eight different values for `r` in an aligned
//! group of eight).

use crate::device::{Swizzle, matrix_descriptor};

/// The 128-byte XOR swizzle of a byte offset inside a 1024-byte-aligned block: chunk `c` of
/// 128-byte line `l` goes to chunk `c ^ (l % 8)`.
#[inline(always)]
// ANCHOR: swizzle_128b
pub const fn swizzle_128b(offset: u32) -> u32 {
    offset ^ ((offset >> 3) & 0x70)
}
// ANCHOR_END: swizzle_128b

/// A `rows × cols` tile of 16-bit elements in shared memory, in swizzled column panels of
/// `min(cols, 64)` elements (see the module documentation). Addresses are byte offsets from
/// the start of the block's dynamic shared memory; `offset` must be a multiple of 1024 so the
/// swizzle pattern starts where the hardware expects it.
#[derive(Clone, Copy)]
pub struct SwizzledTile {
    offset: u32,
    rows: u32,
    row_bytes: u32,
}

impl SwizzledTile {
    /// The tile at byte `offset` of shared memory. `cols` must be 32 or a multiple of 64.
    #[inline(always)]
    pub const fn new(offset: usize, rows: usize, cols: usize) -> Self {
        let row_bytes = if cols < 64 { cols * 2 } else { 128 };
        SwizzledTile { offset: offset as u32, rows: rows as u32, row_bytes: row_bytes as u32 }
    }

    /// Whether [`SwizzledTile::new`] accepts a tile `cols` wide.
    pub const fn valid_width(cols: usize) -> bool {
        cols == 32 || (cols >= 64 && cols % 64 == 0)
    }

    /// Bytes a `rows × cols` tile occupies.
    pub const fn bytes(rows: usize, cols: usize) -> usize {
        rows * cols * 2
    }

    /// Bytes from one column panel to the next (the panel's rows × 128 bytes).
    #[inline(always)]
    pub const fn panel_bytes(&self) -> u32 {
        self.rows * self.row_bytes
    }

    /// Shared-memory offset of the tile's first byte.
    #[inline(always)]
    pub const fn offset(&self) -> u32 {
        self.offset
    }

    /// Byte offset of the 16-byte chunk holding columns `col .. col + 8` of `row`; `col` is a
    /// multiple of 8.
    #[inline(always)]
    // ANCHOR: chunk
    pub const fn chunk(&self, row: u32, col: u32) -> u32 {
        let panel_cols = self.row_bytes / 2;
        let (panel, c) = (col / panel_cols, col % panel_cols);
        self.offset + panel * self.panel_bytes() + swizzle_128b(row * self.row_bytes + c * 2)
    }
    // ANCHOR_END: chunk

    /// The shared address `base` plus the offset of the chunk `dr` rows down and `dc` columns
    /// right of the chunk at offset `at`, a value of [`chunk`](Self::chunk)`(row, col)`, without
    /// recomputing the swizzle: kernels compute one chunk per lane and reach the others with one
    /// XOR and an immediate offset. Moving down by whole 1024-byte blocks keeps the XOR pattern
    /// (an addition), and moving right within a 128-byte line only flips bits of the chunk index,
    /// which commutes with the XOR. So `dr · row bytes` must be a multiple of 1024 (see
    /// [`moves_by_blocks`](Self::moves_by_blocks)), and `dc / 8` must share no bit with the index
    /// (0–7) of the chunk of (row, col) within its 128-byte line, their sum staying below 8.
    ///
    /// `base` is added before the row move so that the move stays a separate addition (an
    /// immediate offset of the instruction) rather than being merged into the XOR.
    #[inline(always)]
    // ANCHOR: moved
    pub const fn moved(&self, base: u32, at: u32, dr: u32, dc: u32) -> u32 {
        base + (at ^ (dc * 2)) + dr * self.row_bytes
    }
    // ANCHOR_END: moved

    /// Whether moving down by `rows` rows moves by whole 1024-byte swizzle blocks (as
    /// [`moved`](Self::moved) requires).
    pub const fn moves_by_blocks(&self, rows: u32) -> bool {
        rows * self.row_bytes % 1024 == 0
    }
}

/// The 64-byte XOR swizzle of a byte offset inside a 512-byte-aligned block: chunk `c` (of four)
/// of 128-byte line `l` goes to chunk `c ^ (l % 4)` (`CU_TENSOR_MAP_SWIZZLE_64B`).
#[inline(always)]
pub const fn swizzle_64b(offset: u32) -> u32 {
    offset ^ ((offset >> 3) & 0x30)
}

/// A tile of `f32` with 128-byte rows (32 floats) in shared memory, 128-byte swizzled: the layout
/// the copy engine reads for a box 32 floats wide with `SWIZZLE_128B` (a TMA store of C). Threads
/// that write pairs of columns `2t, 2t + 1` of eight consecutive rows (the wgmma accumulator
/// layout) hit eight different chunk positions, so the writes are free of bank conflicts.
#[derive(Clone, Copy)]
pub struct SwizzledF32Rows {
    offset: u32,
}

impl SwizzledF32Rows {
    /// Floats per row.
    pub const COLS: usize = 32;

    /// The tile at byte `offset` of shared memory, a multiple of 1024.
    #[inline(always)]
    pub const fn new(offset: usize) -> Self {
        SwizzledF32Rows { offset: offset as u32 }
    }

    /// Bytes a tile of `rows` rows occupies.
    pub const fn bytes(rows: usize) -> usize {
        rows * Self::COLS * 4
    }

    /// Shared-memory offset of the tile's first byte.
    #[inline(always)]
    pub const fn offset(&self) -> u32 {
        self.offset
    }

    /// Byte offset of element (row, col); an even `col` starts an 8-byte pair that stays together.
    #[inline(always)]
    pub const fn at(&self, row: u32, col: u32) -> u32 {
        self.offset + swizzle_128b(row * 128 + col * 4)
    }

    /// Byte offset of element (row, col) of the same buffer holding 16-bit values instead, in
    /// rows of 64 bytes (the front half of the buffer) under the 64-byte swizzle: the layout the
    /// copy engine reads for a box 32 16-bit values wide with `SWIZZLE_64B`. An even `col`
    /// starts a 4-byte pair that stays together. Eight consecutive rows from an even one share
    /// the column's chunk index in pairs (rows `2l` and `2l + 1` fill 128-byte line `l`), the
    /// XOR with `l % 4` moves each pair to another chunk, and the two rows of a pair sit in
    /// different halves of the line: eight different chunk positions, so the threads of the
    /// wgmma accumulator layout write them free of bank conflicts.
    #[inline(always)]
    pub const fn at_16bit(&self, row: u32, col: u32) -> u32 {
        self.offset + swizzle_64b(row * 64 + col * 2)
    }
}

/// Which dimension of a `wgmma` operand is contiguous in its 128-byte-swizzled shared tile of
/// 16-bit elements (or of tf32, which is only read K-major).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Major {
    /// K contiguous (A stored M×K, B stored N×K; `imm-trans` 0): 128-byte rows of 64 K-values
    /// (32 of tf32), groups of 8 rows 1024 bytes apart.
    K,
    /// M or N contiguous (A stored K×M, B stored K×N; `imm-trans` 1): column panels 64 wide, one
    /// 128-byte row per k, `panel_bytes` apart.
    Mn { panel_bytes: u32 },
}

/// The `wgmma` matrix descriptor of K-slice `kk` (32 bytes of K: 16 16-bit elements, or the 8 tf32
/// of a `k8` wgmma) of an operand tile at shared address `tile` (1024-byte aligned), stored with
/// the 128-byte swizzle of this module:
/// - [`Major::K`]: stride byte offset 1024 (from one group of 8 rows to the next), leading byte
///   offset unused for swizzled K-major tiles (set to 16); the slice starts `32·kk` bytes into
///   each row, which the hardware allows inside an aligned swizzle block because it applies the
///   XOR to the final address bits.
/// - [`Major::Mn`]: stride byte offset 1024 (from one group of 8 k-rows to the next), leading
///   byte offset the panel size (from one 64-wide group of M or N to the next); the slice starts
///   16 rows of 128 bytes further per `kk`.
#[inline(always)]
pub const fn wgmma_descriptor(tile: u32, kk: usize, major: Major) -> u64 {
    match major {
        Major::K => matrix_descriptor(tile + (kk * 32) as u32, 16, 1024, Swizzle::B128),
        Major::Mn { panel_bytes } => matrix_descriptor(tile + (kk * 16 * 128) as u32, panel_bytes, 1024, Swizzle::B128),
    }
}
