//! Stream-K: the tiles of the last round cut by K, so that no SM idles at the end. This module is
//! its device side, where the blocks sharing a tile combine their partial sums; the schedule's
//! arithmetic (who computes which piece) is `rgemm_spec::stream_k`, shared with the host.
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
