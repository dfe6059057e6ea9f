//! mbarriers: arrival counts, transaction bytes and phases, kept beside shared memory (keyed by
//! the barrier's shared address) rather than in its 8 bytes.
//!
//! Copies of the copy engine (see [`super::tma`]) are attached to the barrier they signal and land
//! in shared memory only when a thread polls that barrier: a kernel that reads the tile without
//! waiting reads what was there before, and fails its check.

use std::panic::Location;

use super::context::{Block, State, fail, lane};
use super::records::Mbarrier;
use super::memory::{self, Kind, Space};

/// Checks the barrier's 8 bytes and returns its state.
fn barrier<'a>(block: &'a Block, addr: u32, what: &str, at: &Location<'_>) -> std::cell::RefMut<'a, Mbarrier> {
    if addr % 8 != 0 || addr as usize + 8 > block.smem_bytes {
        fail(format!("{what}: mbarrier address {addr:#x} is misaligned or outside the {} bytes of shared memory, at {at}", block.smem_bytes));
    }
    std::cell::RefMut::map(block.mbarriers.borrow_mut(), |m| match m.get_mut(&addr) {
        Some(b) => b,
        None => fail(format!("{what} on shared address {addr:#x}, which holds no initialised mbarrier, at {at}")),
    })
}

impl Mbarrier {
    /// Completes the phase once every arrival and every announced byte is in.
    fn advance(&mut self) {
        if self.pending == 0 && self.tx == 0 {
            self.phase += 1;
            self.pending = self.expected;
        }
    }
}

#[track_caller]
pub unsafe fn mbarrier_init(addr: u32, arrivals: u32) {
    let at = Location::caller();
    let block = lane().block();
    // The barrier's bytes are written like any shared store, so a race on them is caught.
    memory::check(block.smem as usize + addr as usize, 8, 8, Kind::Write, Space::Shared, "mbarrier.init", at);
    if arrivals == 0 {
        fail(format!("mbarrier.init with an arrival count of 0 at {at}"));
    }
    let state = Mbarrier { expected: arrivals, pending: arrivals, tx: 0, phase: 0, copies: Vec::new() };
    block.mbarriers.borrow_mut().insert(addr, state);
}

/// Orders the initialisation before the copy engine's use of the barrier: nothing to do when
/// copies are delivered by the emulator itself.
pub fn fence_mbarrier_init() {}

#[track_caller]
pub unsafe fn mbarrier_arrive(addr: u32) {
    arrive(addr, 0, "mbarrier.arrive", Location::caller());
}

#[track_caller]
pub unsafe fn mbarrier_arrive_expect_tx(addr: u32, bytes: u32) {
    arrive(addr, bytes, "mbarrier.arrive.expect_tx", Location::caller());
}

fn arrive(addr: u32, bytes: u32, what: &str, at: &Location<'_>) {
    let block = lane().block();
    let mut bar = barrier(block, addr, what, at);
    if bar.pending == 0 {
        drop(bar);
        fail(format!("{what}: more arrivals than the {} the mbarrier at {addr:#x} expects, at {at}", block.mbarriers.borrow()[&addr].expected));
    }
    bar.tx += bytes as i64;
    bar.pending -= 1;
    bar.advance();
}

/// Delivers the barrier's copies in flight, then answers whether the phase of parity `parity` has
/// completed (the current phase is the one still collecting). A `false` lets the other threads
/// run before this one polls again.
#[track_caller]
pub unsafe fn mbarrier_try_wait(addr: u32, parity: u32) -> bool {
    let at = Location::caller();
    let lane = lane();
    let block = lane.block();
    let done = {
        let mut bar = barrier(block, addr, "mbarrier.try_wait", at);
        for (dst, bytes) in std::mem::take(&mut bar.copies) {
            // SAFETY: `dst` and the box size were checked against the block's shared arena when
            // the copy was issued.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), block.smem.add(dst as usize), bytes.len()) };
            memory::written_by_copy_engine(block, dst as usize, bytes.len());
            bar.tx -= bytes.len() as i64;
        }
        bar.advance();
        bar.phase % 2 != parity % 2
    };
    if !done {
        lane.suspend(State::Spinning);
    }
    done
}

#[track_caller]
pub unsafe fn mbarrier_wait(addr: u32, parity: u32) {
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    while !unsafe { mbarrier_try_wait(addr, parity) } {}
}

/// Attaches a copy to the barrier at `bar` (for [`super::tma`]).
pub(super) fn attach_copy(block: &Block, bar: u32, dst: u32, bytes: Vec<u8>, at: &Location<'_>) {
    barrier(block, bar, "cp.async.bulk.tensor", at).copies.push((dst, bytes));
}

/// Nanoseconds since the first call in this process (`%globaltimer` on the GPU).
pub fn global_timer_ns() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64
}

/// How long the GPU's [`mbarrier_wait`] polls before it traps. The emulator needs no timeout: a
/// phase that can never complete is a deadlock its scheduler reports at once.
pub const MBARRIER_TIMEOUT_NS: u64 = 20_000_000_000;
