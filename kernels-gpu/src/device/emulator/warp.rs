//! Warp collectives: instructions that the 32 lanes of a warp execute together (`.sync.aligned`:
//! `ldmatrix`, `mma.sync`, shuffles), or the 128 threads of a warpgroup (`wgmma`), each lane
//! contributing operands and receiving its part of the result.
//!
//! Each lane posts a pointer to its input and to its output slot and suspends; the last lane to
//! arrive checks that every lane is at the same call site, computes the results of all lanes at
//! once and wakes the others. A lane that never arrives (it exited, or waits at a block barrier)
//! leaves the others waiting, which the scheduler reports as a divergent warp.

use std::any::TypeId;
use std::mem::MaybeUninit;
use std::panic::Location;

use super::context::{State, fail, lane};

/// Which threads execute a collective together.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Scope {
    Warp,
    Warpgroup,
}

/// Runs a collective for the calling warp: every lane passes `input`; `compute` sees the inputs of
/// all lanes (indexed by lane) and returns the output of each lane; this lane gets its own.
///
/// All lanes must call it from the same place (the same instruction).
#[track_caller]
pub fn collective<I: Copy + 'static, O: Copy + 'static>(input: I, compute: impl FnOnce(&[I]) -> Vec<O>) -> O {
    collective_at(Location::caller(), Scope::Warp, input, compute)
}

/// [`collective`] for the instruction called at `at` (device functions pass their caller's place).
pub(super) fn collective_at<I: Copy + 'static, O: Copy + 'static>(
    at: &'static Location<'static>,
    scope: Scope,
    input: I,
    compute: impl FnOnce(&[I]) -> Vec<O>,
) -> O {
    let lane = lane();
    let block = lane.block();
    let width = if scope == Scope::Warp { 32 } else { 128 };
    let first = lane.tid as usize / width * width;
    let warp = if scope == Scope::Warp { &block.warps[first / 32] } else { &block.warpgroups[first / 128] };
    let me = lane.tid as usize - first;
    let ty = TypeId::of::<(I, O)>();
    let mut out = MaybeUninit::<O>::uninit();
    warp.slots.borrow_mut()[me] = (&input as *const I as *const (), out.as_mut_ptr() as *mut (), ty);
    warp.arrived.set(warp.arrived.get() + 1);
    if warp.arrived.get() < warp.lanes {
        // The last lane writes `out` before this lane runs again.
        lane.suspend(State::Collective(at, width as u32));
        // SAFETY: the last lane to arrive wrote `out` (below) before resuming this lane.
        return unsafe { out.assume_init() };
    }
    warp.arrived.set(0);
    for u in 0..warp.lanes as usize {
        if u == me {
            continue;
        }
        let State::Collective(there, _) = block.states[first + u].get() else { unreachable!("an arrived lane waits") };
        if (there.file(), there.line(), there.column()) != (at.file(), at.line(), at.column()) || warp.slots.borrow()[u].2 != ty {
            fail(format!("divergence: thread {} waits at the collective at {there}, this thread is at {at}", first + u));
        }
    }
    let slots = warp.slots.borrow().clone();
    // SAFETY: every slot was filled with a pointer to a live `I` (the type id was checked above).
    let inputs: Vec<I> = slots.iter().map(|&(p, _, _)| unsafe { *(p as *const I) }).collect();
    let outputs = compute(&inputs);
    assert_eq!(outputs.len(), inputs.len(), "a collective returns one output per lane");
    for (u, (&(_, o, _), value)) in slots.iter().zip(&outputs).enumerate() {
        if u != me {
            // SAFETY: each slot's output pointer is the suspended lane's live `MaybeUninit<O>`.
            unsafe { (o as *mut O).write(*value) };
            block.states[first + u].set(State::Ready);
        }
    }
    outputs[me]
}
