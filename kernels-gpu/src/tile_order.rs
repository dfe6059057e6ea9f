//! The order in which a kernel that walks the tiles of C itself (rungs 14 and 15) visits them.
//!
//! **Idea.** Tiles are numbered column by column inside groups of a few block rows: the blocks
//! running at the same time (consecutive tile numbers) then share rows of A and columns of B,
//! which stay in L2, instead of sweeping all of B's columns for one block row.
//!
//! **Invariants.** [`tile_coords`] is a bijection from `0 .. tiles_m · tiles_n` onto the tiles
//! (a last group of fewer rows is walked the same way), so every tile is visited once whatever
//! the group height.
//!
//! **Cost.** A division and a remainder per tile.

use crate::spec::Schedule;

/// Block rows per tile group: blocks running at the same time share rows of A and columns of B in
/// L2.
pub const GROUP_M: u32 = 8;

/// Block rows per tile group of a persistent launch. One round of tiles (one per block, at most
/// one block per SM) then spans about as many bytes of A as of B (16 block rows of 128 by 8 block
/// columns of 256 at 4096³) instead of all of B's columns for eight block rows, so less of each
/// round comes from DRAM; the book's rung-14 chapter has what it changed.
pub const PERSISTENT_GROUP_M: u32 = 16;

/// Block rows per tile group under `schedule`: [`PERSISTENT_GROUP_M`] for a persistent launch,
/// [`GROUP_M`] otherwise.
#[inline(always)]
pub const fn group_rows(schedule: Schedule) -> u32 {
    if schedule.is_persistent() { PERSISTENT_GROUP_M } else { GROUP_M }
}

/// Block row and column of tile `t` of `tiles_m × tiles_n`: groups of `group` block rows,
/// column-major inside a group.
#[inline(always)]
pub fn tile_coords(t: u32, tiles_m: u32, tiles_n: u32, group: u32) -> (u32, u32) {
    // `max(1)`: never zero for a tile that exists, but the compiler cannot know that.
    let per_group = (group * tiles_n).max(1);
    let first_row = t / per_group * group;
    let rows = tiles_m.saturating_sub(first_row).clamp(1, group);
    let i = t % per_group;
    (first_row + i % rows, i / rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tile once, for groups taller and shorter than the grid.
    #[test]
    fn every_tile_once() {
        for (tiles_m, tiles_n) in [(1, 1), (3, 5), (8, 8), (17, 3), (33, 16)] {
            for group in [GROUP_M, PERSISTENT_GROUP_M] {
                let mut seen = std::vec![false; (tiles_m * tiles_n) as usize];
                for t in 0..tiles_m * tiles_n {
                    let (row, col) = tile_coords(t, tiles_m, tiles_n, group);
                    assert!(row < tiles_m && col < tiles_n, "tile {t} of {tiles_m} × {tiles_n} at ({row}, {col})");
                    assert!(!std::mem::replace(&mut seen[(row * tiles_n + col) as usize], true), "({row}, {col}) twice");
                }
            }
        }
    }
}
