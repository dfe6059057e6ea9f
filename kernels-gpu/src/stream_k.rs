//! Stream-K: the tiles of the last round cut by K, so that no SM idles at the end.
//!
//! **Idea.** A persistent launch gives `blocks` blocks (stream-K: one per SM) the tiles of C in
//! rounds: 288 tiles on 132 SMs are 2.18 rounds of work that take 3, the last with 108 SMs idle. Stream-K
//! cuts each tile of the last round into equal slices of K, as many as the idle blocks allow:
//! here each of the 24 tiles into 5 slices, 120 blocks computing one *piece* (a partial sum over
//! some of the tile's K-tiles) each, and the round takes about a fifth of the time. The blocks
//! sharing a tile add their pieces: each writes its partial sum to the workspace and arrives on
//! the tile's counter; the one that arrives last (whoever it is) adds up all the partials, its own
//! too, in K order, and writes C. Nobody ever waits for another block, so the order in which
//! blocks run does not matter (the emulator's OS threads take the blocks one at a time each, in
//! whatever order, so a block may run after every other has finished).
//!
//! The slices all start at once: the blocks reading the same rows of A
//! (or columns of B) are at the same few places along K, as in a round of whole tiles, and the
//! operands they share stay in L2. (Runs of equal length laid end to end over several tiles, as in
//! stream-K's original form, put every block at its own place along K; that form was slower than
//! whole rounds at every size tried, see the book.) A last round more than half full is left
//! whole: cutting it gains at most what the partial sums cost.

//! **Invariants.**
//! - With `s` slices, block `b` computes slice `b mod s` (K-tiles `⌊i·K/s⌋ .. ⌊(i+1)·K/s⌋` for
//!   slice `i`) of the `b / s`-th sliced tile, after its whole tiles: a tile's slices belong to
//!   consecutive blocks, in K order, and a block has at most one, kept in its slot of the
//!   workspace.
//! - Every sliced tile has one counter per part (a part is the rows one group of threads owns,
//!   e.g. a consumer warpgroup). It is zero when the launch starts; the last arriver sets it back
//!   to zero, so the next launch finds it so.
//! - The sum is formed in K order whoever arrives last: the result is the same from run to run.
//!
//! **Cost.** A partial piece costs a write of its accumulators (`parts · part_floats` floats) and
//! the last arriver reads them all back: a few hundred KiB per slice, against the part of the
//! last round it saves. The workspace: one slot per block and a counter per sliced tile and part.

use crate::device::*;

/// Threads that own one part of a tile and meet at its named barrier (one warpgroup).
pub const PART_THREADS: u32 = 128;

pub use rgemm_spec::stream_k::{MIN_SLICE_K_TILES, Piece, Pieces, StreamKSchedule, StreamKWorkspace};

/// Where block `b`'s partial sum of part `part` goes in workspace `ws`.
fn partial(schedule: &StreamKSchedule, ws: *mut u32, w: StreamKWorkspace, b: u32, part: u32) -> *mut f32 {
    let slot = (b as u64 * w.parts as u64 + part as u64) * w.part_floats as u64;
    ws.wrapping_add((w.counter_words(schedule.blocks()) + slot) as usize) as *mut f32
}

/// The counter of part `part` of sliced tile `tile`.
fn counter(schedule: &StreamKSchedule, ws: *mut u32, w: StreamKWorkspace, tile: u32, part: u32) -> *mut u32 {
    ws.wrapping_add(((tile - schedule.whole()) * w.parts + part) as usize)
}

/// Adds this block's partial sum `acc` of part `part` of `piece`'s tile to the others'.
/// Returns `true` for the last of the tile's blocks to arrive, with the whole sum in `acc`
/// (added in K order): it writes C. The others return `false`, their part handed over.
///
/// Thread `i` of the part's [`PART_THREADS`] keeps its `N` accumulators as floats
/// `(4j + c)` ↦ `4·(j·PART_THREADS + i) + c` of the partial: each group of four is one
/// coalesced 16-byte access per thread.
///
/// # Safety
/// Called by all [`PART_THREADS`] threads of the part (and only them) with the same
/// arguments; `ws` is the launch's workspace, sized by `w` for this plan's blocks; `barrier`
/// is the part's named barrier; `flag` a word of shared memory that only this part uses.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn combine<const N: usize>(schedule: &StreamKSchedule, ws: *mut u32, w: StreamKWorkspace, block: u32, piece: &Piece, part: u32, acc: &mut [f32; N], flag: *mut u32, barrier: u32) -> bool {
    let me = (thread_idx() % PART_THREADS) as usize;
    let at = |p: *mut f32, j: usize| p.wrapping_add(4 * (j * PART_THREADS as usize + me));
    let own = partial(schedule, ws, w, block, part);
    unroll!(N / 4, |j| {
        // SAFETY: inside this block's slot (`part_floats ≥ N · PART_THREADS`), 16-byte aligned.
        unsafe { st_global_v4(at(own, j), [acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]]) };
    });
    // Release: the partial is written before the arrival below (every thread's stores).
    fence_acq_rel_gpu();
    named_barrier_sync::<PART_THREADS>(barrier);
    let (first, last) = schedule.sharers(piece.tile);
    if me == 0 {
        let counter = counter(schedule, ws, w, piece.tile, part);
        let sharers = last - first + 1;
        // SAFETY: the counter is inside the workspace's counters (at most 2·blocks shared
        // tiles); only these atomics touch it.
        let done = unsafe { atom_add_acq_rel_gpu(counter, 1) } + 1 == sharers;
        if done {
            // Every sharer has arrived; none touches the counter again in this launch.
            // SAFETY: as above.
            unsafe { atom_add_acq_rel_gpu(counter, sharers.wrapping_neg()) };
        }
        // SAFETY: the part's own word of shared memory (the caller's guarantee).
        unsafe { store(flag, done as u32) };
    }
    named_barrier_sync::<PART_THREADS>(barrier);
    // SAFETY: written by the part's first thread before the barrier above.
    if unsafe { load(flag) } == 0 {
        return false;
    }
    // Acquire: the other partials are read after the counter said they were written.
    fence_acq_rel_gpu();
    // The sum in K order, this block's own partial read back like the others': the same
    // result whichever block arrived last.
    *acc = [0.0; N];
    for b in first..=last {
        let partial = partial(schedule, ws, w, b, part);
        unroll!(N / 4, |j| {
            // SAFETY: block b's slot for this tile, written and released before its arrival.
            let v = unsafe { ld_global_v4(at(partial, j)) };
            for c in 0..4 {
                acc[4 * j + c] += v[c];
            }
        });
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

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
