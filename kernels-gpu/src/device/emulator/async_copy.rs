//! `cp.async` on the emulator: each copy reads its source when issued (the inputs do not change
//! during a launch) and writes shared memory only when a `wait_group` of the issuing thread covers
//! its group. So a thread that reads a tile before waiting reads what was there before, and the
//! bytes count as written by the issuing thread at the wait: another thread reading them without
//! a barrier after that wait is a race, exactly the hazard of the hardware.

use std::panic::Location;

use super::context::{fail, lane};
use super::records::CpAsyncCopy;
use super::memory::{self, Kind, Space};

/// Issues a copy of `size` bytes of which the first `src_bytes` come from `src` and the rest are
/// zeros.
fn issue(dst: u32, src: usize, size: u32, src_bytes: u32, at: &'static Location<'static>) {
    let lane = lane();
    let block = lane.block();
    if src_bytes > size {
        fail(format!("cp.async of {size} bytes with src_bytes = {src_bytes} (at most the copy size), at {at}"));
    }
    if dst % size != 0 || dst as usize + size as usize > block.smem_bytes {
        fail(format!(
            "cp.async of {size} bytes to shared address {dst:#x}: misaligned or outside the {} bytes of shared memory, at {at}",
            block.smem_bytes
        ));
    }
    let mut bytes = vec![0u8; size as usize];
    if src_bytes > 0 {
        // The source must be aligned to the copy size even when only part of it is read.
        if src % size as usize != 0 {
            fail(format!("cp.async of {size} bytes from {src:#x}: the source must be {size}-byte aligned, at {at}"));
        }
        memory::check(src, src_bytes as usize, 1, Kind::Read, Space::Global, "cp.async source", at);
        // SAFETY: the caller of the `cp.async` twin passed `src` with `src_bytes` readable bytes.
        unsafe { std::ptr::copy_nonoverlapping(src as *const u8, bytes.as_mut_ptr(), src_bytes as usize) };
    }
    lane.cp_async.borrow_mut().open.push(CpAsyncCopy { dst, bytes, at });
}

/// Writes a group's copies to shared memory, as stores of the issuing thread.
fn land(group: Vec<CpAsyncCopy>) {
    let block = lane().block();
    for c in group {
        let to = block.smem as usize + c.dst as usize;
        memory::check(to, c.bytes.len(), 1, Kind::Write, Space::Shared, "cp.async destination", c.at);
        // SAFETY: `to` is the destination in the block's shared arena, checked when the copy was
        // issued.
        unsafe { std::ptr::copy_nonoverlapping(c.bytes.as_ptr(), to as *mut u8, c.bytes.len()) };
    }
}

macro_rules! sized {
    ($($name:ident, $size:literal;)+) => {$(
        #[track_caller]
        pub unsafe fn $name<T>(dst: u32, src: *const T) {
            issue(dst, src as usize, $size, $size, Location::caller());
        }
    )+};
}

macro_rules! zfill {
    ($($name:ident, $size:literal;)+) => {$(
        #[track_caller]
        pub unsafe fn $name<T>(dst: u32, src: *const T, src_bytes: u32) {
            issue(dst, src as usize, $size, src_bytes, Location::caller());
        }
    )+};
}

macro_rules! unless {
    ($($name:ident, $size:literal;)+) => {$(
        #[track_caller]
        pub unsafe fn $name<T>(dst: u32, src: *const T, ignore: bool) {
            issue(dst, src as usize, $size, if ignore { 0 } else { $size }, Location::caller());
        }
    )+};
}

sized! {
    cp_async_ca_4, 4;
    cp_async_ca_8, 8;
    cp_async_ca_16, 16;
    cp_async_cg_16, 16;
}

zfill! {
    cp_async_ca_4_zfill, 4;
    cp_async_ca_8_zfill, 8;
    cp_async_ca_16_zfill, 16;
    cp_async_cg_16_zfill, 16;
}

unless! {
    cp_async_ca_4_unless, 4;
    cp_async_ca_8_unless, 8;
    cp_async_ca_16_unless, 16;
    cp_async_cg_16_unless, 16;
}

/// Closes the open group (possibly empty).
pub fn cp_async_commit_group() {
    let lane = lane();
    let mut groups = lane.cp_async.borrow_mut();
    let open = std::mem::take(&mut groups.open);
    groups.committed.push_back(open);
}

/// Lands this thread's oldest groups until at most `N` committed groups remain in flight.
pub fn cp_async_wait_group<const N: u32>() {
    cp_async_wait_pending(N as usize);
}

/// Lands every copy of this thread, committed or not.
pub fn cp_async_wait_all() {
    let lane = lane();
    let all: Vec<CpAsyncCopy> = {
        let mut groups = lane.cp_async.borrow_mut();
        let open = std::mem::take(&mut groups.open);
        groups.committed.drain(..).flatten().chain(open).collect()
    };
    land(all);
}

/// [`cp_async_wait_group`] with the count as a value; above 7, like the GPU version, waits for all.
pub fn cp_async_wait_pending(n: usize) {
    if n > 7 {
        return cp_async_wait_all();
    }
    let lane = lane();
    loop {
        let Some(group) = ({
            let mut groups = lane.cp_async.borrow_mut();
            if groups.committed.len() > n { groups.committed.pop_front() } else { None }
        }) else {
            return;
        };
        land(group);
    }
}
