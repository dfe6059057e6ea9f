//! Checked loads and stores (see [`super::memory`]).

use std::panic::Location;

use super::memory::{Kind, Space, check};

/// A load from global or shared memory, checked for bounds, alignment and shared-memory races.
///
/// # Safety
/// As on the GPU; a bad address is reported as a fault instead of read.
#[track_caller]
pub unsafe fn load<T: Copy>(p: *const T) -> T {
    check(p as usize, size_of::<T>(), align_of::<T>(), Kind::Read, Space::Any, "load", Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { p.read() }
}

/// A store to global or shared memory, checked like [`load`]; inputs (A, B) are read-only.
///
/// # Safety
/// As on the GPU; a bad address is reported as a fault instead of written.
#[track_caller]
pub unsafe fn store<T: Copy>(p: *mut T, value: T) {
    check(p as usize, size_of::<T>(), align_of::<T>(), Kind::Write, Space::Any, "store", Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { p.write(value) }
}
