//! The register-tiled FP32 inner loop of rung 9, shared by the asynchronous rungs (10 and 11).
//!
//! Rung 9 fixed how a warp computes its tile: `(BM/WM)·(BN/WN)` warps, each lane accumulating
//! `TM × TN` values of C in registers ([`ThreadTile`]), B read from a row-major shared tile as
//! float4s that neighbouring lanes take side by side (conflict-free, and lanes of one column share
//! them by broadcast). What changes from rung 10 on is only *how A reaches shared memory*, and so
//! how a lane reads its `TM` values of A:
//!
//! - [`AStaging::Transposed`]: rung 9's `Aᵀ` tile (`BK × (BM + 4)`), a lane's rows are `TM/4`
//!   blocks of 4 consecutive rows (`SUB_M` apart), read per step `kk` as `TM/4` float4s along M.
//! - [`AStaging::Swizzled`]: A kept row-major, as a copy that cannot transpose (16-byte `cp.async`,
//!   the TMA engine) leaves it, stored with the 128-byte XOR swizzle of [`swizzle_128b`]. A float4
//!   now runs along K: one `ld.shared.v4` gives a row's values for 4 steps, so a lane reads its
//!   `TM` rows once per 4 steps: `TM` float4s per 4 steps, the same `TM/4` per step as the
//!   transposed tile. The cost is registers: 4 steps of A (`4·TM` floats) are live at once
//!   instead of one step's `TM`. To keep those reads conflict-free, a lane's rows are *strided*:
//!   row `lr + i·(WM/TM)` for `i < TM`, where `lr` is the lane's row in the warp's lane grid. The
//!   8 distinct rows a warp reads together are then consecutive, and with the swizzle (chunk `c` of
//!   128-byte line `l` stored at `c ^ (l % 8)`) 8 consecutive rows of a 32-, 64- or 128-byte-row
//!   tile land in 8 different 16-byte bank groups. (Rung 9's 4-row blocks would put them 4 rows
//!   apart, which the swizzle maps onto only 2 bank groups: a 4-way conflict.)
//!
//! Everything here is a value built from the kernels' constants; after inlining every index folds.

use crate::prelude::*;

/// The block → warp → thread mapping of rung 9, for a block tile `bm × bn`, warp tiles `wm × wn`
/// and thread tiles `tm × tn`.
#[derive(Clone, Copy)]
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
pub(crate) struct WarpTiling {
    pub bm: usize,
    pub bn: usize,
    pub wm: usize,
    pub wn: usize,
    pub tm: usize,
    pub tn: usize,
    pub layout: AStaging,
}

impl WarpTiling {
    /// Checked at compile time, when a kernel's `SPEC` is evaluated.
    #[inline(always)]
    pub(crate) const fn new(bm: usize, bn: usize, wm: usize, wn: usize, tm: usize, tn: usize, layout: AStaging) -> Self {
        let tile = Tile::block(bm as u32, bn as u32, 1).with_warp(wm as u32, wn as u32).with_thread(tm as u32, tn as u32);
        if let Err(reason) = TileRules::check_warp_tiles(&tile) {
            panic!("{}", reason);
        }
        assert!(tm % 4 == 0 && tn % 4 == 0, "thread tiles are made of 4×4 blocks");
        WarpTiling { bm, bn, wm, wn, tm, tn, layout }
    }

    /// Threads that compute (32 per warp tile).
    pub(crate) const fn threads(&self) -> usize {
        (self.bm / self.wm) * (self.bn / self.wn) * 32
    }

    /// Registers a computing thread needs, roughly: accumulators, operands of two steps (or four
    /// steps of A with the swizzled layout), and about 24 for addresses and loop state.
    pub(crate) const fn regs_estimate(&self) -> usize {
        let a = match self.layout {
            AStaging::Transposed => 2 * self.tm,
            AStaging::Swizzled => 4 * self.tm,
        };
        self.tm * self.tn + a + 2 * self.tn + 24
    }

    const fn lanes_m(&self) -> usize {
        self.wm / self.tm
    }

    const fn lanes_n(&self) -> usize {
        self.wn / self.tn
    }

    /// Where thread `t` works: its rows and columns of the block tile.
    #[inline(always)]
    pub(crate) fn place(&self, t: usize) -> Place {
        let (warp, lane) = (t / 32, t % 32);
        let warp_m = warp / (self.bn / self.wn) * self.wm;
        let warp_n = warp % (self.bn / self.wn) * self.wn;
        let (lr, lc) = (lane / self.lanes_n(), lane % self.lanes_n());
        let (m0, m_step) = match self.layout {
            AStaging::Transposed => (warp_m + lr * 4, 4 * self.lanes_m()),
            AStaging::Swizzled => (warp_m + lr, self.lanes_m()),
        };
        Place { m0, m_step, n0: warp_n + lc * 4, n_step: 4 * self.lanes_n(), layout: self.layout }
    }
}

/// A thread's rows and columns of the block tile. Columns: `TN/4` runs of 4, `n_step` apart.
/// Rows: `TM/4` runs of 4 (`m_step` apart) for the transposed layout, `TM` single rows
/// `m_step` apart for the swizzled one.
#[derive(Clone, Copy)]
pub(crate) struct Place {
    pub m0: usize,
    pub m_step: usize,
    pub n0: usize,
    pub n_step: usize,
    layout: AStaging,
}

impl Place {
    /// Row of accumulator row `i`.
    #[inline(always)]
    pub(crate) fn row(&self, i: usize) -> usize {
        match self.layout {
            AStaging::Transposed => self.m0 + i / 4 * self.m_step + i % 4,
            AStaging::Swizzled => self.m0 + i * self.m_step,
        }
    }

    /// First column of the run of 4 that accumulator columns `4q .. 4q + 4` hold.
    #[inline(always)]
    pub(crate) fn col4(&self, q: usize) -> usize {
        self.n0 + q * self.n_step
    }
}

/// Byte offset of the 16-byte chunk holding columns `4c .. 4c + 4` of row `r` of a row-major
/// swizzled f32 tile with `cols` columns (8, 16 or 32: rows of 32, 64 or 128 bytes).
#[inline(always)]
pub(crate) const fn swizzled_chunk(r: usize, c: usize, cols: usize) -> u32 {
    swizzle_128b((r * cols * 4 + c * 16) as u32)
}

/// Whether [`swizzled_chunk`] supports rows of `cols` floats.
pub(crate) const fn swizzle_width_ok(cols: usize) -> bool {
    cols == 8 || cols == 16 || cols == 32
}

/// Reads a thread's A operands from a swizzled tile: one float4 (4 K-steps) per row.
///
/// The 128-byte swizzle XORs a row's chunk index with bits 7–9 of the row's byte offset, so rows
/// 1024 bytes apart are swizzled alike: when a thread's rows are that far apart (8 rows of 128
/// bytes, as in every configuration of rung 11), chunk `c` of row `i` is chunk `c` of its first
/// row plus `i` row steps, and one XOR per chunk serves all rows (the rest are immediate offsets).
#[derive(Clone, Copy)]
pub(crate) struct SwizzledReader<const TM: usize> {
    /// Per row: byte offset of the row's first chunk, already XOR-ed with the row's line mask.
    rows: [u32; TM],
    /// Bytes between the thread's rows when they are a multiple of 1024, else 0.
    alike_step: u32,
}

impl<const TM: usize> SwizzledReader<TM> {
    /// The reader for `place`'s rows of a tile `cols` floats wide.
    #[inline(always)]
    pub(crate) fn new(place: &Place, cols: usize) -> Self {
        let mut rows = [0u32; TM];
        for (i, r) in rows.iter_mut().enumerate() {
            // Chunk 0 of the row, swizzled: the row's offset XOR its line's mask. For chunk c the
            // offset is this XOR 16·c (the chunk bits of an unswizzled row offset are free).
            *r = swizzled_chunk(place.row(i), 0, cols);
        }
        let step = (place.m_step * cols * 4) as u32;
        SwizzledReader { rows, alike_step: if step % 1024 == 0 { step } else { 0 } }
    }

    /// `a[i][u]` = A(row `i` of this thread, column `4c + u`) from the tile at `tile`.
    ///
    /// # Safety
    /// `tile` points to a swizzled tile in this block's shared memory holding the rows.
    #[inline(always)]
    pub(crate) unsafe fn load(&self, tile: *const u8, c: usize) -> [[f32; 4]; TM] {
        let mut a = [[0.0f32; 4]; TM];
        let first = self.rows[0] ^ (16 * c as u32);
        for i in 0..TM {
            let offset = if self.alike_step > 0 { first + i as u32 * self.alike_step } else { self.rows[i] ^ (16 * c as u32) };
            // SAFETY: inside the shared tile (the loop bounds are the tile's), at a
            // 16-byte-aligned float4.
            a[i] = unsafe { ld_shared_v4(tile.wrapping_add(offset as usize) as *const f32) };
        }
        a
    }
}

/// Four K-steps of rung 9's outer products: `acc += a[·][u] ⊗ B(k + u, ·)` for `u < 4`, with B
/// read as float4s from row-major `b` at the thread's columns.
#[inline(always)]
pub(crate) fn four_steps<const TM: usize, const TN: usize>(
    acc: &mut ThreadTile<TM, TN>,
    a: &[[f32; 4]; TM],
    b: &SmemTile,
    k: usize,
    place: &Place,
) {
    // Unrolled for certain (`unroll_short!`): `a[i][u]` with a run-time `u` would send `a` to
    // local memory, as LLVM leaves these loops rolled for thread tiles of 128 accumulators.
    unroll_short!(4, |u| {
        let mut b_row = [0.0f32; TN];
        unroll_short!(TN / 4, |q| {
            // SAFETY: inside the shared tile (the loop bounds are the tile's), at a
            // 16-byte-aligned float4.
            let v = unsafe { ld_shared_v4(b.ptr(k + u, place.col4(q))) };
            b_row[4 * q..4 * q + 4].copy_from_slice(&v);
        });
        let mut a_col = [0.0f32; TM];
        unroll_short!(TM, |i| {
            a_col[i] = a[i][u];
        });
        acc.outer_product(&a_col, &b_row);
    });
}

/// Rung 9's A operands for 4 K-steps from the transposed tile `at`: `a[i][u]` = `Aᵀ(k + u, row i)`.
#[inline(always)]
pub(crate) fn transposed_four<const TM: usize>(at: &SmemTile, k: usize, place: &Place) -> [[f32; 4]; TM] {
    let mut a = [[0.0f32; 4]; TM];
    for u in 0..4 {
        for mi in 0..TM / 4 {
            // SAFETY: inside the shared tile (the loop bounds are the tile's), at a
            // 16-byte-aligned float4.
            let v = unsafe { ld_shared_v4(at.ptr(k + u, place.row(4 * mi))) };
            for e in 0..4 {
                a[4 * mi + e][u] = v[e];
            }
        }
    }
    a
}

/// The epilogue: each run of 4 accumulators to C at this thread's place, through
/// [`store4`](crate::copy::store4) (float4 when inside and aligned, else element by element;
/// beta = 0 never reads C).
#[inline(always)]
pub(crate) fn store_tile<const TM: usize, const TN: usize>(c: &Output, acc: &ThreadTile<TM, TN>, place: &Place) {
    crate::copy::store_thread_tile(c, acc, |i| place.row(i), |q| place.col4(q));
}
