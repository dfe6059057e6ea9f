//! Where an emulated instruction runs: the launch it belongs to, its block and its thread (the
//! *lane*), reached through [`lane`], and [`fail`], which records a fault against that thread and
//! stops it.
//!
//! Invariants: the scheduler ([`launch.rs`](mod@super::launch)) makes a lane current ([`set_running`]) before it
//! resumes the lane's coroutine and clears it when the block is done, so every device function
//! finds its thread; a block outlives its lanes, and a launch its blocks. This module uses only
//! [`super::records`], so every instruction module can use it without a cycle.
//!
//! Cost: finding the running thread is one thread-local read per emulated instruction.

use std::cell::{Cell, RefCell};
use std::panic::{self, Location};

use corosensei::Yielder;

use super::records::{BulkGroups, CpAsyncGroups, Group, Mbarriers, NamedBarrier, Shadow};

/// A range of host memory the kernel may access as global memory.
#[derive(Clone, Copy, Debug)]
pub struct Region {
    /// Shown in fault reports ("4 bytes past the end of B").
    pub name: &'static str,
    pub start: usize,
    pub len: usize,
    pub writable: bool,
}

/// One launch: the kernel's name (for reports), the grid (x over N, y over M, z over a batch), threads per block,
/// dynamic shared memory per block, and the global memory it may touch.
pub struct EmulatedLaunch<'a> {
    pub kernel: &'a str,
    pub grid: (u32, u32, u32),
    pub threads: u32,
    pub smem_bytes: u32,
    pub regions: &'a [Region],
}

/// What the hardware would have punished, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kernel: String,
    /// (x, y, z) = (block column, block row, product of the batch).
    pub block: (u32, u32, u32),
    pub thread: u32,
    pub message: String,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: block ({}, {}", self.kernel, self.block.0, self.block.1)?;
        if self.block.2 > 0 {
            write!(f, ", {}", self.block.2)?;
        }
        write!(f, "), thread {}: {}", self.thread, self.message)
    }
}

impl std::error::Error for Fault {}

/// Where an emulated thread stands, as the scheduler sees it.
#[derive(Clone, Copy, Debug)]
pub(super) enum State {
    Ready,
    /// Polled a condition that did not hold yet (an mbarrier phase); runnable, but made no progress.
    Spinning,
    /// Waiting at the block barrier called from this place.
    Barrier(&'static Location<'static>),
    /// Waiting at a named barrier (`bar.sync id, count`) called from this place.
    NamedBarrier(&'static Location<'static>),
    /// Waiting for the rest of its group of this many threads (a warp: 32; a warpgroup: 128) at
    /// the collective called from this place.
    Collective(&'static Location<'static>, u32),
    Exited,
}

/// State shared by the threads of one block (all on one OS thread, hence `Cell`s).
pub(super) struct Block {
    pub launch: *const EmulatedLaunch<'static>,
    pub idx: (u32, u32, u32),
    /// Dynamic shared memory, 128-byte aligned like the GPU's.
    pub smem: *mut u8,
    pub smem_bytes: usize,
    /// Race-detection state per 2-byte granule of shared memory.
    pub shadow: RefCell<Vec<Shadow>>,
    /// Barriers completed so far, plus one: accesses in the same epoch are unordered.
    pub epoch: Cell<u32>,
    pub states: Vec<Cell<State>>,
    /// Rendezvous of each warp and of each warpgroup (four consecutive warps), for collectives.
    pub warps: Vec<Group>,
    pub warpgroups: Vec<Group>,
    pub mbarriers: RefCell<Mbarriers>,
    /// Named barriers 0..16 (`bar.sync id, count`; 0 is unused, see `sync_threads`).
    pub named_barriers: RefCell<Vec<NamedBarrier>>,
    /// Shared memory that copy-engine stores still read: (offset, bytes, issuing thread).
    pub bulk_reads: RefCell<Vec<(u32, u32, u32)>>,
    pub fault: RefCell<Option<Fault>>,
}

impl Block {
    pub fn launch(&self) -> &EmulatedLaunch<'static> {
        // SAFETY: the launch outlives every block of it (`launch` returns after all blocks).
        unsafe { &*self.launch }
    }

    /// Records `message` against `thread` unless an earlier fault was recorded.
    pub fn record(&self, thread: u32, message: String) {
        let mut fault = self.fault.borrow_mut();
        if fault.is_none() {
            *fault = Some(Fault { kernel: self.launch().kernel.to_string(), block: self.idx, thread, message });
        }
    }
}

/// One emulated GPU thread.
pub(super) struct Lane {
    pub tid: u32,
    pub block: *const Block,
    yielder: Cell<*const Yielder<(), ()>>,
    /// This thread's `cp.async` copies in flight.
    pub cp_async: RefCell<CpAsyncGroups>,
    /// This thread's copy-engine stores whose shared-memory reads are not yet waited for.
    pub bulk: RefCell<BulkGroups>,
}

impl Lane {
    /// Thread `tid` of `block`, not started yet.
    pub fn new(tid: u32, block: &Block) -> Lane {
        Lane { tid, block, yielder: Cell::new(std::ptr::null()), cp_async: RefCell::default(), bulk: RefCell::default() }
    }

    /// The lane's coroutine has started: `yielder` hands the OS thread back to the scheduler.
    pub fn started(&self, yielder: &Yielder<(), ()>) {
        self.yielder.set(yielder);
    }

    pub fn block(&self) -> &Block {
        // SAFETY: a block outlives its lanes (they finish or unwind before `run_block` returns).
        unsafe { &*self.block }
    }

    /// Hands the OS thread to the scheduler until it resumes this thread (after setting `state`).
    pub fn suspend(&self, state: State) {
        self.block().states[self.tid as usize].set(state);
        // SAFETY: the yielder was set when this lane's coroutine started and lives as long as it;
        // only this lane's own code suspends it.
        unsafe { (*self.yielder.get()).suspend(()) };
    }
}

thread_local! {
    static CURRENT: Cell<*const Lane> = const { Cell::new(std::ptr::null()) };
}

/// The emulated thread running on this OS thread. Device functions called outside a launch (the
/// kernel invoked directly on the host) have no thread to run as: that is a bug of the caller.
pub(super) fn lane() -> &'static Lane {
    let p = CURRENT.with(Cell::get);
    assert!(!p.is_null(), "a device function was called outside an emulated launch (use device::emulator::launch)");
    // SAFETY: non-null (checked), set by the scheduler to the running lane, which outlives the
    // call (it is reset before the lane is dropped).
    unsafe { &*p }
}

/// Unwinds the current thread after a fault; the scheduler recognises it by this payload.
struct Abort;

/// Whether a thread unwound with `payload` because of a recorded fault ([`fail`]), rather than a
/// panic of its own.
pub(super) fn is_abort(payload: &(dyn std::any::Any + Send)) -> bool {
    payload.is::<Abort>()
}

/// Makes `lane` the emulated thread running on this OS thread (`None`: no thread).
pub(super) fn set_running(lane: Option<&Lane>) {
    CURRENT.with(|c| c.set(lane.map_or(std::ptr::null(), |l| l as *const Lane)));
}

/// Records a fault of the current thread and stops it.
pub(super) fn fail(message: String) -> ! {
    let lane = lane();
    lane.block().record(lane.tid, message);
    // `resume_unwind` skips the panic hook: the fault is reported once, by the launch's result.
    panic::resume_unwind(Box::new(Abort))
}

/// `trap`: the kernel aborts; the launch reports a fault.
pub fn trap() -> ! {
    fail("trap: the kernel aborted".into())
}
