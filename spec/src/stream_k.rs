//! The stream-K schedule's arithmetic, shared by the kernels and the host: which pieces
//! (whole tiles, then slices of K of the last round's tiles) each block of a persistent launch
//! computes, and the workspace a launch needs. The kernels-gpu `stream_k_combine` module holds the
//! idea, the invariants and the device side (how the slices' partial sums are combined).

/// A slice is at least this many K-tiles: shorter ones would cost more in partial sums than the
/// idle SMs they save.
pub const MIN_SLICE_K_TILES: u32 = 4;

/// How a launch's tiles are shared out: whole tiles round by round, then the tiles of the last
/// round in slices of K.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamKSchedule {
    /// K-tiles per tile.
    k_tiles: u32,
    /// Blocks of the launch: whole tile `t` is block `t mod blocks`'s.
    blocks: u32,
    /// Tiles `0 .. whole` are computed whole; each of the others is cut into `slices` slices.
    whole: u32,
    slices: u32,
    /// Blocks `0 .. sliced` take one slice each: block `b` slice `b mod slices` of tile
    /// `whole + b / slices`.
    sliced: u32,
}

/// What a block computes next: K-tiles `k_begin .. k_end` of `tile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The tile of C, in the launch's order of tiles.
    pub tile: u32,
    /// The first K-tile of the piece.
    pub k_begin: u32,
    /// One past the piece's last K-tile.
    pub k_end: u32,
}

/// The pieces of one block, in the order it computes them.
pub struct Pieces {
    schedule: StreamKSchedule,
    block: u32,
    next_whole: u32,
    slice_done: bool,
}

impl StreamKSchedule {
    /// Every tile whole: block `b` takes tiles `b, b + blocks, …` (a plain persistent launch).
    #[inline]
    pub const fn whole_tiles(tiles: u32, k_tiles: u32, blocks: u32) -> StreamKSchedule {
        StreamKSchedule { k_tiles, blocks, whole: tiles, slices: 1, sliced: 0 }
    }

    /// `tiles` tiles of `k_tiles` K-tiles on `blocks` blocks: the tiles of a last round at most
    /// half full cut into equal slices of K, else every tile whole.
    #[inline]
    pub const fn new(tiles: u32, k_tiles: u32, blocks: u32) -> StreamKSchedule {
        let whole = StreamKSchedule::whole_tiles(tiles, k_tiles, blocks);
        if blocks < 2 || tiles % blocks == 0 {
            return whole;
        }
        // As many slices as the idle blocks allow, each at least `MIN_SLICE_K_TILES` long.
        let last_round = tiles % blocks;
        let (by_blocks, by_size) = (blocks / last_round, k_tiles / MIN_SLICE_K_TILES);
        let slices = if by_blocks < by_size { by_blocks } else { by_size };
        if slices < 2 {
            return whole;
        }
        StreamKSchedule { k_tiles, blocks, whole: tiles - last_round, slices, sliced: last_round * slices }
    }

    /// Blocks of the launch.
    #[inline]
    pub const fn blocks(&self) -> u32 {
        self.blocks
    }

    /// Tiles computed whole (the others are cut into slices of K).
    #[inline]
    pub const fn whole(&self) -> u32 {
        self.whole
    }

    /// The pieces block `block` computes.
    #[inline]
    pub fn pieces(&self, block: u32) -> Pieces {
        Pieces { schedule: *self, block, next_whole: block, slice_done: block >= self.sliced }
    }

    /// Whether `piece` is part of a tile (its partial sum must be added to the others').
    #[inline]
    pub fn is_partial(&self, piece: &Piece) -> bool {
        piece.k_begin > 0 || piece.k_end < self.k_tiles
    }

    /// The first K-tile of slice `i` of a tile (`i ≤ slices`).
    #[inline]
    fn slice_start(&self, i: u32) -> u32 {
        (i as u64 * self.k_tiles as u64 / self.slices as u64) as u32
    }

    /// The blocks holding the slices of sliced tile `tile`, first and last, in K order.
    #[inline]
    pub fn sharers(&self, tile: u32) -> (u32, u32) {
        let first = (tile - self.whole) * self.slices;
        (first, first + self.slices - 1)
    }
}

impl Iterator for Pieces {
    type Item = Piece;

    /// Whole tiles first (`block, block + blocks, …`), then the block's slice, if it has one.
    #[inline(always)]
    fn next(&mut self) -> Option<Piece> {
        let p = &self.schedule;
        if self.next_whole < p.whole {
            let tile = self.next_whole;
            self.next_whole = self.next_whole.saturating_add(p.blocks);
            return Some(Piece { tile, k_begin: 0, k_end: p.k_tiles });
        }
        if !self.slice_done {
            self.slice_done = true;
            // `max(1)`: a plan with slices has them, but the compiler cannot know that.
            let (slices, i) = (p.slices.max(1), self.block % p.slices.max(1));
            let tile = p.whole + self.block / slices;
            return Some(Piece { tile, k_begin: p.slice_start(i), k_end: p.slice_start(i + 1) });
        }
        None
    }
}

/// The workspace one stream-K kernel needs per block: its parts per tile and the floats of one
/// part's partial sum. The kernel's spec carries it; the host sizes the workspace with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StreamKWorkspace {
    /// Parts of a tile (a part is the rows one group of threads owns, e.g. a consumer
    /// warpgroup), each with its own counter and partial sum.
    pub parts: u32,
    /// Floats of one part's partial sum.
    pub part_floats: u32,
}

impl StreamKWorkspace {
    /// Counters at the start, rounded up to 256 bytes so that the slots after them start aligned.
    #[inline]
    pub const fn counter_words(&self, blocks: u32) -> u64 {
        (self.counters(blocks) as u64).next_multiple_of(64)
    }

    /// The counters of a launch of `blocks` blocks, one per part of each sliced tile (fewer
    /// tiles than blocks); zero before and after every launch.
    #[inline]
    pub const fn counters(&self, blocks: u32) -> usize {
        blocks as usize * self.parts as usize
    }

    /// Bytes of the workspace for a launch of `blocks` blocks: the counters, then one slot per
    /// block of `parts · part_floats` floats. The counters must be zero before the first launch.
    #[inline]
    pub const fn bytes(&self, blocks: u32) -> u64 {
        4 * (self.counter_words(blocks) + blocks as u64 * self.parts as u64 * self.part_floats as u64)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// Every (tile, K-tile) is computed by exactly one block, whole tiles by one block, sliced
    /// tiles by consecutive blocks in K order as `sharers` says, and no block has more than one
    /// partial piece (its slot), for many shapes of launch.
    #[test]
    fn pieces_cover_every_unit_once() {
        for blocks in [1u32, 2, 3, 7, 132] {
            for tiles in [1u32, 2, 3, 5, 64, 131, 132, 133, 263, 512, 2048] {
                for k_tiles in [0u32, 1, 3, 64, 2048] {
                    let plan = StreamKSchedule::new(tiles, k_tiles, blocks);
                    let mut seen = vec![vec![u32::MAX; k_tiles as usize]; tiles as usize];
                    let mut whole_seen = vec![0u32; tiles as usize];
                    for b in 0..blocks {
                        let mut partial = 0;
                        for piece in plan.pieces(b) {
                            assert!(piece.k_begin < piece.k_end || k_tiles == 0, "{plan:?} {piece:?}");
                            whole_seen[piece.tile as usize] += 1;
                            for k in piece.k_begin..piece.k_end {
                                let s = &mut seen[piece.tile as usize][k as usize];
                                assert_eq!(*s, u32::MAX, "{plan:?}: K-tile {k} of tile {} twice", piece.tile);
                                *s = b;
                            }
                            if plan.is_partial(&piece) {
                                partial += 1;
                                let (first, last) = plan.sharers(piece.tile);
                                assert!(first <= b && b <= last && first < last, "{plan:?} {piece:?} {b}");
                            }
                        }
                        assert!(partial <= 1, "{plan:?}: block {b} has {partial} partial pieces");
                    }
                    for (t, ks) in seen.iter().enumerate() {
                        if k_tiles == 0 {
                            assert_eq!(whole_seen[t], 1, "{plan:?}: tile {t}");
                            continue;
                        }
                        assert!(ks.iter().all(|&b| b != u32::MAX), "{plan:?}: tile {t} not covered");
                        assert!(ks.windows(2).all(|w| w[0] <= w[1]), "{plan:?}: tile {t} out of K order");
                        if ks[0] != ks[ks.len() - 1] {
                            assert_eq!(plan.sharers(t as u32), (ks[0], ks[ks.len() - 1]), "{plan:?}: tile {t}");
                        }
                    }
                }
            }
        }
    }

    /// The shapes the plan exists for: 288 tiles on 132 blocks (3072³ in 128 × 256 tiles) keep
    /// two whole rounds and cut the other 24 tiles into 5 slices of K each; a last round that is
    /// more than half full (512 tiles: 116 in the last round) is left whole.
    #[test]
    fn cuts_the_last_round() {
        let plan = StreamKSchedule::new(288, 48, 132);
        assert_eq!((plan.whole, plan.slices, plan.sliced), (264, 5, 120));
        assert_eq!(StreamKSchedule::new(512, 64, 132), StreamKSchedule::whole_tiles(512, 64, 132));
        assert_eq!(StreamKSchedule::new(528, 64, 132).whole, 528, "four full rounds: nothing to share");
        let few = StreamKSchedule::new(2, 64, 132);
        assert_eq!((few.whole, few.sliced), (0, 2 * 64 / MIN_SLICE_K_TILES), "slices of at least the minimum");
        assert_eq!(StreamKSchedule::new(2, 3, 132).whole, 2, "too little K to share: whole tiles");
        // Every block's slice lies inside one tile and starts where its neighbour's ended.
        for b in 0..plan.sliced {
            let pieces: Vec<Piece> = plan.pieces(b).skip_while(|p| !plan.is_partial(p)).collect();
            assert_eq!(pieces.len(), 1, "block {b}: {pieces:?}");
            assert_eq!(pieces[0].k_begin, (b % 5) * 48 / 5);
        }
    }
}
