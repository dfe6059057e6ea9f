//! Running a grid: blocks spread over a few OS threads, and inside a block one stackful coroutine
//! per GPU thread.
//!
//! A block's threads take turns on one OS thread and switch only at synchronisation points
//! (barriers, warp collectives, polls of an mbarrier), so a run is deterministic and a switch costs tens
//! of nanoseconds. Running each thread up to its next barrier before the next thread starts is a
//! legal GPU schedule, and the most revealing one: a thread that reads shared memory before the
//! others have written it sees stale data, and the race checker in [`super::memory`] names it.
//!
//! A fault (an out-of-bounds access, a race, a barrier some thread never reaches) is recorded with
//! its kernel, block and thread, and the faulting thread unwinds; the block's other threads are
//! unwound when its coroutines are dropped, and the launch returns the fault as an error.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe, Location};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};

use super::context::{Block, EmulatedLaunch, Fault, Lane, State, is_abort, set_running};
use super::records::{Group, Shadow};

/// Stack of one emulated thread. Kernels keep their tiles in registers (local arrays), a few KiB
/// at most; pages are only committed when touched.
const STACK_BYTES: usize = 256 << 10;

/// Runs `body` (one kernel, called by every thread) over the grid of `launch`.
///
/// Blocks are independent and run in parallel, one OS thread per core; the first fault (in block
/// order, so reports are reproducible) is returned.
pub fn launch(launch: &EmulatedLaunch<'_>, body: &(dyn Fn() + Sync)) -> Result<(), Fault> {
    assert!(launch.threads > 0, "a block needs at least one thread");
    let blocks = launch.grid.0 as usize * launch.grid.1 as usize * launch.grid.2 as usize;
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(blocks).max(1);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let faults = Mutex::new(Vec::new());
    // The scheduler only reads `launch` through a raw pointer that lives no longer than this call.
    let launch_ptr = launch as *const EmulatedLaunch<'_> as *const EmulatedLaunch<'static>;
    let launch_addr = launch_ptr as usize;
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let mut stacks = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= blocks {
                        break;
                    }
                    let plane = launch.grid.0 as usize * launch.grid.1 as usize;
                    let idx = ((i % launch.grid.0 as usize) as u32, (i % plane / launch.grid.0 as usize) as u32, (i / plane) as u32);
                    if let Err(fault) = run_block(launch_addr as *const EmulatedLaunch<'static>, idx, body, &mut stacks) {
                        faults.lock().unwrap().push((i, fault));
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let mut faults = faults.into_inner().unwrap();
    faults.sort_by_key(|(i, _)| *i);
    faults.into_iter().next().map_or(Ok(()), |(_, f)| Err(f))
}

/// 128-byte aligned storage for shared memory.
#[derive(Clone, Copy)]
#[repr(C, align(128))]
struct Line([u8; 128]);

fn run_block(
    launch: *const EmulatedLaunch<'static>,
    idx: (u32, u32, u32),
    body: &(dyn Fn() + Sync),
    stacks: &mut Vec<DefaultStack>,
) -> Result<(), Fault> {
    // SAFETY: `launch` points to the caller's launch, which outlives this block.
    let l = unsafe { &*launch };
    let n = l.threads as usize;
    let smem_bytes = l.smem_bytes as usize;
    // Uninitialised shared memory reads as NaN (all ones), so a kernel that reads what nobody
    // wrote gets a result that fails the check instead of a lucky zero.
    let mut smem = vec![Line([0xff; 128]); smem_bytes.div_ceil(128)];
    let block = Block {
        launch,
        idx,
        smem: smem.as_mut_ptr() as *mut u8,
        smem_bytes,
        shadow: RefCell::new(vec![Shadow::default(); smem_bytes.div_ceil(2)]),
        epoch: Cell::new(1),
        states: (0..n).map(|_| Cell::new(State::Ready)).collect(),
        warps: (0..n.div_ceil(32)).map(|w| Group::new((n - 32 * w).min(32) as u32)).collect(),
        warpgroups: (0..n.div_ceil(128)).map(|w| Group::new((n - 128 * w).min(128) as u32)).collect(),
        mbarriers: RefCell::default(),
        named_barriers: RefCell::new((0..16).map(|_| Default::default()).collect()),
        bulk_reads: RefCell::default(),
        fault: RefCell::new(None),
    };
    let lanes: Vec<Lane> = (0..n as u32).map(|tid| Lane::new(tid, &block)).collect();
    let mut threads: Vec<Coroutine<(), (), (), DefaultStack>> = lanes
        .iter()
        .map(|lane| {
            let stack = stacks.pop().unwrap_or_else(|| DefaultStack::new(STACK_BYTES).expect("allocate a coroutine stack"));
            let lane: *const Lane = lane;
            // SAFETY: `lanes`, `block` and `body` outlive the coroutines, which are all finished
            // or unwound before this function returns.
            unsafe {
                Coroutine::with_stack_unchecked(stack, move |y: &Yielder<(), ()>, ()| {
                    (*lane).started(y);
                    body();
                    super::tma::bulk_at_exit();
                })
            }
        })
        .collect();

    let result = schedule(&block, &lanes, &mut threads);
    set_running(None);
    for mut t in threads {
        t.force_unwind();
        stacks.push(t.into_stack());
    }
    result
}

/// Resumes runnable threads in thread order until all have exited or the block faults.
fn schedule(block: &Block, lanes: &[Lane], threads: &mut [Coroutine<(), (), (), DefaultStack>]) -> Result<(), Fault> {
    let n = lanes.len();
    let (mut at_barrier, mut exited, mut idle_passes) = (0usize, 0usize, 0u32);
    let fault = |thread: u32, message: String| {
        block.record(thread, message);
        Err(block.fault.borrow().clone().unwrap())
    };
    loop {
        let (mut resumed, mut spins) = (0, 0);
        for t in 0..n {
            if !matches!(block.states[t].get(), State::Ready | State::Spinning) {
                continue;
            }
            block.states[t].set(State::Ready);
            set_running(Some(&lanes[t]));
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| threads[t].resume(())));
            resumed += 1;
            match outcome {
                Ok(CoroutineResult::Return(())) => {
                    block.states[t].set(State::Exited);
                    exited += 1;
                    if let Some(w) = waiting_at_barrier(block) {
                        return fault(t as u32, barrier_not_reached(w, block));
                    }
                }
                Ok(CoroutineResult::Yield(())) => match block.states[t].get() {
                    State::Spinning => spins += 1,
                    State::Barrier(here) => {
                        at_barrier += 1;
                        if exited > 0 {
                            let gone = (0..n).find(|&u| matches!(block.states[u].get(), State::Exited)).unwrap();
                            return fault(gone as u32, barrier_not_reached(t, block));
                        }
                        if at_barrier == n {
                            if let Some(u) = (0..n).find(|&u| !matches!(block.states[u].get(), State::Barrier(l) if same(l, here))) {
                                let State::Barrier(there) = block.states[u].get() else { unreachable!() };
                                return fault(
                                    u as u32,
                                    format!("barrier divergence: thread {u} waits at the barrier at {there} while thread 0 waits at {here} (a barrier inside a divergent branch?)"),
                                );
                            }
                            at_barrier = 0;
                            block.epoch.set(block.epoch.get() + 1);
                            block.states.iter().for_each(|s| s.set(State::Ready));
                        }
                    }
                    _ => {}
                },
                Err(payload) => {
                    if !is_abort(payload.as_ref()) {
                        let what = payload
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| payload.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "unknown panic".into());
                        block.record(t as u32, format!("panicked: {what}"));
                    }
                    return Err(block.fault.borrow().clone().unwrap());
                }
            }
        }
        if exited == n {
            return Ok(());
        }
        if resumed == 0 {
            return Err(deadlock(block));
        }
        // Every runnable thread only polled a condition that nothing can change any more.
        idle_passes = if resumed == spins { idle_passes + 1 } else { 0 };
        if idle_passes > 2 {
            let t = (0..n).find(|&u| matches!(block.states[u].get(), State::Spinning)).unwrap_or(0);
            return fault(t as u32, "deadlock: every running thread waits on an mbarrier phase that can no longer complete".into());
        }
    }
}

fn same(a: &Location<'_>, b: &Location<'_>) -> bool {
    (a.file(), a.line(), a.column()) == (b.file(), b.line(), b.column())
}

fn waiting_at_barrier(block: &Block) -> Option<usize> {
    block.states.iter().position(|s| matches!(s.get(), State::Barrier(_)))
}

fn barrier_not_reached(waiting: usize, block: &Block) -> String {
    let State::Barrier(at) = block.states[waiting].get() else { unreachable!() };
    format!("barrier not reached by every thread: this thread exited while thread {waiting} waits at the barrier at {at}")
}

/// Nothing can run: some lanes wait at a warp collective that others of their warp never reach.
fn deadlock(block: &Block) -> Fault {
    let states: Vec<State> = block.states.iter().map(Cell::get).collect();
    let describe = |s: State| match s {
        State::Exited => "has exited".to_string(),
        State::Barrier(l) => format!("waits at the block barrier at {l}"),
        State::Collective(l, _) => format!("waits at the collective at {l}"),
        State::NamedBarrier(l) => format!("waits at the named barrier at {l}"),
        State::Ready | State::Spinning => "is runnable".to_string(),
    };
    for (t, s) in states.iter().enumerate() {
        if let State::Collective(at, width) = *s {
            let first = t / width as usize * width as usize;
            let other = (first..(first + width as usize).min(states.len()))
                .find(|&u| !matches!(states[u], State::Collective(l, _) if same(l, at)))
                .unwrap_or(t);
            block.record(
                other as u32,
                format!(
                    "{} collective not reached by every thread: thread {t} waits at {at} while this thread {} (divergent code?)",
                    if width == 32 { "warp" } else { "warpgroup" },
                    describe(states[other])
                ),
            );
            return block.fault.borrow().clone().unwrap();
        }
    }
    block.record(0, format!("deadlock: no thread can run ({})", describe(states[0])));
    block.fault.borrow().clone().unwrap()
}
