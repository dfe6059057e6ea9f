//! Vector loads and stores (`ld.global.v4.f32`, `st.global.v2.f32` and friends), checked:
//! alignment to the vector's size and the state space the instruction names.

use std::panic::Location;

use super::memory::{Kind, Space, check};

fn access(p: usize, kind: Kind, space: Space, what: &str, at: &Location<'_>) {
    check(p, 16, 16, kind, space, what, at);
}

fn access2(p: usize, kind: Kind, space: Space, what: &str, at: &Location<'_>) {
    check(p, 8, 8, kind, space, what, at);
}

#[track_caller]
pub unsafe fn ld_global_v2(p: *const f32) -> [f32; 2] {
    access2(p as usize, Kind::Read, Space::Global, "ld.global.v2", Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { (p as *const [f32; 2]).read() }
}

#[track_caller]
pub unsafe fn st_global_v2(p: *mut f32, v: [f32; 2]) {
    access2(p as usize, Kind::Write, Space::Global, "st.global.v2", Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { (p as *mut [f32; 2]).write(v) }
}

#[track_caller]
pub unsafe fn ld_global_v4(p: *const f32) -> [f32; 4] {
    access(p as usize, Kind::Read, Space::Global, "ld.global.v4", Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { (p as *const [f32; 4]).read() }
}

#[track_caller]
pub unsafe fn st_global_v4(p: *mut f32, v: [f32; 4]) {
    access(p as usize, Kind::Write, Space::Global, "st.global.v4", Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { (p as *mut [f32; 4]).write(v) }
}

#[track_caller]
pub unsafe fn ld_shared_v4(p: *const f32) -> [f32; 4] {
    access(p as usize, Kind::Read, Space::Shared, "ld.shared.v4", Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { (p as *const [f32; 4]).read() }
}

#[track_caller]
pub unsafe fn st_shared_v4(p: *mut f32, v: [f32; 4]) {
    access(p as usize, Kind::Write, Space::Shared, "st.shared.v4", Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { (p as *mut [f32; 4]).write(v) }
}

#[track_caller]
pub unsafe fn st_shared_v2(p: *mut f32, v: [f32; 2]) {
    access2(p as usize, Kind::Write, Space::Shared, "st.shared.v2", Location::caller());
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { (p as *mut [f32; 2]).write(v) }
}
