//! Loads and stores of global and shared memory, for every access a kernel makes through a
//! pointer ([`crate::view`] uses nothing else).
//!
//! On the GPU they are plain dereferences, so LLVM emits the same `ld`/`st` it would for `*p`, with
//! the state space inferred from where the pointer came from (a kernel argument is `.global`,
//! [`dynamic_shared`](super::dynamic_shared) is `.shared`). They exist so that the emulator can
//! check each access: the emulated versions fault on out-of-bounds, misaligned and racing ones.

/// Loads `*p`.
///
/// ```ptx
/// ld.global.b32 %r, [%rd];    // or ld.shared.b32, per the pointer's origin
/// ```
///
/// # Safety
/// `p` is aligned and points to readable global or shared memory.
#[inline(always)]
pub unsafe fn load<T: Copy>(p: *const T) -> T {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { *p }
}

/// Stores `value` to `*p`.
///
/// ```ptx
/// st.global.b32 [%rd], %r;    // or st.shared.b32
/// ```
///
/// # Safety
/// `p` is aligned and points to writable global or shared memory.
#[inline(always)]
pub unsafe fn store<T: Copy>(p: *mut T, value: T) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { *p = value }
}
