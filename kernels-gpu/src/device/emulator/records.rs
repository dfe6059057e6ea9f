//! The state each family of emulated instructions keeps for a block or for one of its threads:
//! race-detection shadows of shared memory, warp rendezvous, mbarriers, named barriers, and the
//! copies a thread has in flight. Plain data, held by the block and its lanes
//! ([`super::context`]); the family's module next to each type gives it its meaning.
//!
//! Invariant: this module uses nothing else of the emulator, so the context that holds these
//! records and the instruction modules that read them depend on it, never the other way round.
//!
//! Cost: one shadow per 2 bytes of a block's shared memory, the rest a few words per barrier,
//! warp and copy in flight.

use std::any::TypeId;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::panic::Location;

/// No thread: a granule nobody wrote or read since the last barrier.
pub(super) const NONE: u32 = u32::MAX;
/// More readers than [`READERS`] remember by name.
pub(super) const MANY: u32 = u32::MAX - 1;

/// Readers of a granule remembered by name (the `wgmma`s of up to this many warpgroups reading
/// one operand tile, say), so that a named barrier they all pass can order them against a later
/// write; beyond that they are `MANY`.
pub(super) const READERS: usize = 4;

/// No reader: an empty span.
pub(super) const NO_SPAN: (u32, u32) = (u32::MAX, 0);

/// Who last wrote a granule of shared memory and who read it, each with the barrier epoch it
/// happened in ([`super::memory`]). `readers` holds distinct threads, `NONE` after the last one, or
/// `MANY` first; `span` the lowest and highest reader, so that a named barrier of every thread in
/// between (a warpgroup reading a word one of them wrote) still orders `MANY` readers against a
/// later write.
#[derive(Clone, Copy)]
pub(super) struct Shadow {
    pub writer: u32,
    pub write_epoch: u32,
    pub readers: [u32; READERS],
    pub read_epoch: u32,
    pub span: (u32, u32),
}

impl Default for Shadow {
    fn default() -> Self {
        Shadow { writer: NONE, write_epoch: 0, readers: [NONE; READERS], read_epoch: 0, span: NO_SPAN }
    }
}

/// The rendezvous of one warp or warpgroup for a collective ([`super::warp`]).
pub(super) struct Group {
    pub lanes: u32,
    pub arrived: Cell<u32>,
    /// Per lane: its input, its output slot, and the types they point to.
    pub slots: RefCell<Vec<(*const (), *mut (), TypeId)>>,
}

impl Group {
    /// A group of `lanes` threads (fewer than its width for the last group of an odd-sized block).
    pub fn new(lanes: u32) -> Group {
        Group { lanes, arrived: Cell::new(0), slots: RefCell::new(vec![(std::ptr::null(), std::ptr::null_mut(), TypeId::of::<()>()); lanes as usize]) }
    }
}

/// One mbarrier's state ([`super::mbarrier`]).
pub(super) struct Mbarrier {
    /// Arrivals each phase expects, and those still missing in the current phase.
    pub expected: u32,
    pub pending: u32,
    /// Transaction bytes announced (`expect_tx`) minus bytes delivered; may dip below zero when a
    /// copy lands before its announcement, as on the hardware.
    pub tx: i64,
    /// Completed phases; the current phase's parity is `phase % 2`.
    pub phase: u32,
    /// Copies in flight that signal this barrier: (shared offset, bytes).
    pub copies: Vec<(u32, Vec<u8>)>,
}

/// A block's mbarriers, by shared address.
pub(super) type Mbarriers = HashMap<u32, Mbarrier>;

/// One named barrier ([`super::thread`]): the count its current round expects and the threads
/// that have arrived.
#[derive(Default)]
pub(super) struct NamedBarrier {
    pub threads: u32,
    pub waiting: Vec<u32>,
}

/// One `cp.async` copy in flight ([`super::async_copy`]): its shared-memory destination and the
/// bytes it will write there.
pub(super) struct CpAsyncCopy {
    pub dst: u32,
    pub bytes: Vec<u8>,
    pub at: &'static Location<'static>,
}

/// A thread's `cp.async` copies: the group still open, and the committed groups, oldest first.
#[derive(Default)]
pub(super) struct CpAsyncGroups {
    pub open: Vec<CpAsyncCopy>,
    pub committed: VecDeque<Vec<CpAsyncCopy>>,
}

/// A thread's copy-engine stores ([`super::tma`]): the group still open and the committed groups,
/// oldest first; each store as the (shared offset, bytes) it reads.
#[derive(Default)]
pub(super) struct BulkGroups {
    pub open: Vec<(u32, u32)>,
    pub committed: VecDeque<Vec<(u32, u32)>>,
}
