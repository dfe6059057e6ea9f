//! Twins of `device/atomic.rs`: the host's own atomics, since the emulator's blocks run on
//! several OS threads at once.

use std::panic::Location;
use std::sync::atomic::{AtomicU32, Ordering, fence};

use super::memory::{Kind, Space, check};

/// `fence.acq_rel.gpu`: a host fence of the same strength.
pub fn fence_acq_rel_gpu() {
    fence(Ordering::AcqRel);
}

/// `atom.acq_rel.gpu.global.add.u32`, checked as a global read and write of 4 aligned bytes.
///
/// # Safety
/// As on the GPU; a bad address is reported as a fault instead of touched.
#[track_caller]
pub unsafe fn atom_add_acq_rel_gpu(p: *mut u32, v: u32) -> u32 {
    let at = Location::caller();
    check(p as usize, 4, 4, Kind::Read, Space::Global, "atom.global.add", at);
    check(p as usize, 4, 4, Kind::Write, Space::Global, "atom.global.add", at);
    // SAFETY: checked above: inside a writable global region and 4-byte aligned; every access to
    // the counter goes through this function, so it is only ever accessed atomically.
    unsafe { AtomicU32::from_ptr(p) }.fetch_add(v, Ordering::AcqRel)
}
