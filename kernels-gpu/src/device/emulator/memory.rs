//! Checked memory: every global and shared access of an emulated kernel goes through
//! [`check`], which finds the state space of the address, faults on what the hardware would
//! punish (out of bounds, misaligned, a store to an input), and for shared memory tracks who
//! wrote and read each 2-byte granule since the last barrier, to report races.

use std::panic::Location;

use super::context::{Block, fail, lane};
use super::records::{MANY, NO_SPAN, NONE, READERS, Shadow};

/// Which memory an access must be in: generic loads and stores may hit either; instructions that
/// name a state space (`ld.global`, `ldmatrix`, `cp.async`'s source) must hit theirs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Space {
    Any,
    Global,
    Shared,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Read,
    Write,
}

/// Checks an access of `size` bytes at `addr` by the current thread and returns the space it is
/// in. `align` is the alignment the instruction requires.
pub(super) fn check(addr: usize, size: usize, align: usize, kind: Kind, space: Space, what: &str, at: &Location<'_>) -> Space {
    check_by(lane().tid, addr, size, align, kind, space, what, at)
}

/// [`check`] for an access made on behalf of thread `tid` of the current block: the lanes of a
/// warp collective each supply an address that the instruction reads for them.
#[allow(clippy::too_many_arguments)]
pub(super) fn check_by(tid: u32, addr: usize, size: usize, align: usize, kind: Kind, space: Space, what: &str, at: &Location<'_>) -> Space {
    let block = lane().block();
    let verb = match kind {
        Kind::Read => "read",
        Kind::Write => "write",
    };
    if addr % align != 0 {
        fail(format!("misaligned {what} {verb} of {size} bytes at {addr:#x} (needs {align}-byte alignment) at {at}"));
    }
    let base = block.smem as usize;
    if addr >= base && addr + size <= base + block.smem_bytes {
        if space == Space::Global {
            fail(format!("{what} {verb} of a shared-memory address (offset {:#x}) where global memory is required, at {at}", addr - base));
        }
        shared_access(block, tid, addr - base, size, kind, at);
        return Space::Shared;
    }
    let regions = block.launch().regions;
    if let Some(r) = regions.iter().find(|r| addr >= r.start && addr + size <= r.start + r.len) {
        if space == Space::Shared {
            fail(format!("{what} {verb} of a global address (in {}) where shared memory is required, at {at}", r.name));
        }
        if kind == Kind::Write && !r.writable {
            fail(format!("{what} write to the read-only input {} (byte {}) at {at}", r.name, addr - r.start));
        }
        return Space::Global;
    }
    // Shared memory is a host allocation of its own per block: an address just past it (or just
    // before it) is a shared-memory overrun.
    if addr.wrapping_sub(base) < block.smem_bytes + (1 << 16) || base.wrapping_sub(addr) <= 1 << 12 {
        fail(format!(
            "out-of-bounds shared {verb} of {size} bytes at offset {} (the block has {} bytes of dynamic shared memory) at {at}",
            addr as isize - base as isize,
            block.smem_bytes
        ));
    }
    let nearest = regions
        .iter()
        .map(|r| {
            if addr >= r.start {
                let past = addr + size - (r.start + r.len);
                (past, format!("{past} bytes past the end of {} ({} bytes)", r.name, r.len))
            } else {
                (r.start - addr, format!("{} bytes before the start of {}", r.start - addr, r.name))
            }
        })
        .min_by_key(|(d, _)| *d)
        .map_or_else(|| "no global memory is allocated".to_string(), |(_, s)| s);
    fail(format!("out-of-bounds global {verb} of {size} bytes at {addr:#x}: {nearest}, at {at}"))
}

/// Forgets the shared-memory accesses of the threads in `participants` (a named barrier they all
/// reached orders them against what they do next). Accesses by other threads are kept, and so is
/// a read by more threads than [`READERS`] unless every thread between its lowest and highest
/// reader took part.
pub(super) fn ordered_by_barrier(block: &Block, participants: &[u32]) {
    let mut member = vec![false; block.states.len()];
    participants.iter().for_each(|&t| member[t as usize] = true);
    // below[t]: participants with an index below t.
    let below: Vec<u32> = std::iter::once(0).chain(member.iter().scan(0, |n, &m| { *n += m as u32; Some(*n) })).collect();
    let all_inside = |(lo, hi): (u32, u32)| lo <= hi && (hi as usize) < member.len() && below[hi as usize + 1] - below[lo as usize] == hi - lo + 1;
    let inside = |t: u32| t != NONE && t != MANY && member[t as usize];
    for s in block.shadow.borrow_mut().iter_mut() {
        // Epoch 0 precedes every epoch: the access no longer counts as concurrent.
        if inside(s.writer) {
            (s.writer, s.write_epoch) = (NONE, 0);
        }
        if s.readers[0] == MANY && all_inside(s.span) {
            s.readers = [NONE; READERS];
        }
        if s.readers[0] != MANY {
            // Keep the readers outside, in order, at the front.
            let mut kept = 0;
            for i in 0..READERS {
                let r = s.readers[i];
                s.readers[i] = NONE;
                if r != NONE && !inside(r) {
                    s.readers[kept] = r;
                    kept += 1;
                }
            }
        }
        if s.readers[0] == NONE {
            (s.read_epoch, s.span) = (0, NO_SPAN);
        }
    }
}

/// Race detection: within one barrier epoch, a granule written by one thread must not be read or
/// written by another, and one read by another thread must not be overwritten.
fn shared_access(block: &Block, tid: u32, offset: usize, size: usize, kind: Kind, at: &Location<'_>) {
    if kind == Kind::Write {
        let reads = block.bulk_reads.borrow();
        if let Some(&(start, len, issuer)) = reads.iter().find(|&&(start, len, _)| offset < (start + len) as usize && start as usize <= offset + size - 1) {
            drop(reads);
            fail(format!(
                "shared-memory write at offset {offset:#x} into the {len} bytes at {start:#x} that a TMA store of thread {issuer} still reads (missing cp.async.bulk.wait_group.read, or a barrier after it) at {at}"
            ));
        }
    }
    let epoch = block.epoch.get();
    let mut shadow = block.shadow.borrow_mut();
    for g in offset / 2..(offset + size).div_ceil(2) {
        let s = &mut shadow[g];
        let written_by_other = s.write_epoch == epoch && s.writer != tid && s.writer != NONE;
        let race = match kind {
            Kind::Read if written_by_other => Some(format!("reads shared memory that thread {} wrote", s.writer)),
            Kind::Write if written_by_other => Some(format!("writes shared memory that thread {} also wrote", s.writer)),
            Kind::Write if s.read_epoch == epoch && s.readers.iter().any(|&r| r != tid && r != NONE) => Some(if s.readers[0] == MANY {
                "overwrites shared memory that other threads read".to_string()
            } else {
                let other = s.readers.iter().find(|&&r| r != tid && r != NONE).copied().unwrap_or(NONE);
                format!("overwrites shared memory that thread {other} read")
            }),
            _ => None,
        };
        if let Some(race) = race {
            drop(shadow);
            fail(format!(
                "shared-memory race at offset {:#x}: this thread {race} with no barrier in between (missing sync_threads?) at {at}",
                2 * g
            ));
        }
        if kind == Kind::Read {
            let first = s.read_epoch != epoch || s.readers[0] == NONE;
            let (lo, hi) = if first { NO_SPAN } else { s.span };
            s.span = (lo.min(tid), hi.max(tid));
        }
        match kind {
            Kind::Read if s.read_epoch != epoch || s.readers[0] == NONE => {
                s.readers = [NONE; READERS];
                (s.readers[0], s.read_epoch) = (tid, epoch);
            }
            Kind::Read if s.readers[0] == MANY || s.readers.contains(&tid) => {}
            Kind::Read => match s.readers.iter().position(|&r| r == NONE) {
                Some(free) => s.readers[free] = tid,
                None => {
                    s.readers = [NONE; READERS];
                    s.readers[0] = MANY;
                }
            },
            Kind::Write => (s.writer, s.write_epoch) = (tid, epoch),
        }
    }
}

/// Marks shared bytes as written by the copy engine: every thread waits for it explicitly (on an
/// mbarrier), so reading them is not a race.
pub(super) fn written_by_copy_engine(block: &Block, offset: usize, size: usize) {
    let mut shadow = block.shadow.borrow_mut();
    for g in offset / 2..(offset + size).div_ceil(2) {
        shadow[g] = Shadow::default();
    }
}
