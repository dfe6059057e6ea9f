//! Asynchronous copies from global to shared memory (`cp.async`, sm_80+).
//!
//! A thread issues a copy and goes on; the copy engine moves the bytes in the background. Copies
//! are gathered into *groups*: `commit_group` closes the group of every copy this thread issued
//! since the last commit, and `wait_group N` blocks until at most `N` of this thread's groups are
//! still in flight. Waiting covers only the calling thread's copies: a block barrier afterwards
//! makes every thread's copies visible to every other thread.
//!
//! `dst` is a shared-memory address from [`shared_address`](super::shared_address); `src` must
//! point to global memory and be aligned to the copy size.
//!
//! Three forms:
//! - plain: copy `4`, `8` or `16` bytes;
//! - zero-fill (`src_bytes`): copy the first `src_bytes` bytes (0 to the copy size) and write
//!   zeros for the rest, so a tile that hangs over the edge of a matrix reads zeros there; with
//!   `src_bytes == 0` nothing is read from `src`;
//! - ignore-src (`ignore`): when `ignore` is true, read nothing and write zeros.
//!
//! `.ca` caches the source in L1 and L2, `.cg` in L2 only (16-byte copies only); tiles that one
//! block reads once go through `.cg`.

use core::arch::asm;

macro_rules! cp_async_sized {
    ($(#[$doc:meta])* $name:ident, $ptx:literal, $size:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `dst` must be a shared address of this block, `src` a global address, both aligned
        /// to the copy size; the bytes are in place only after a `wait_group` that covers them.
        #[inline(always)]
        pub unsafe fn $name<T>(dst: u32, src: *const T) {
            // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches
            // only what it names.
            unsafe {
                asm!(concat!($ptx, " [{d}], [{s}], ", $size, ";"), d = in(reg32) dst, s = in(reg64) src, options(nostack))
            }
        }
    };
}

// ANCHOR: zfill
macro_rules! cp_async_zfill {
    ($(#[$doc:meta])* $name:ident, $ptx:literal, $size:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// As for the plain form; `src_bytes` is at most the copy size, and the first
        /// `src_bytes` bytes at `src` must be readable.
        #[inline(always)]
        pub unsafe fn $name<T>(dst: u32, src: *const T, src_bytes: u32) {
            // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches
            // only what it names.
            unsafe {
                asm!(
                    concat!($ptx, " [{d}], [{s}], ", $size, ", {n};"),
                    d = in(reg32) dst, s = in(reg64) src, n = in(reg32) src_bytes, options(nostack)
                )
            }
        }
    };
}
// ANCHOR_END: zfill

macro_rules! cp_async_ignore {
    ($(#[$doc:meta])* $name:ident, $ptx:literal, $size:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// As for the plain form when `ignore` is false; when it is true nothing is read.
        #[inline(always)]
        pub unsafe fn $name<T>(dst: u32, src: *const T, ignore: bool) {
            // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches
            // only what it names.
            unsafe {
                asm!(
                    "{{",
                    ".reg .pred p;",
                    "setp.ne.u32 p, {i}, 0;",
                    concat!($ptx, " [{d}], [{s}], ", $size, ", p;"),
                    "}}",
                    d = in(reg32) dst, s = in(reg64) src, i = in(reg32) ignore as u32, options(nostack)
                )
            }
        }
    };
}

cp_async_sized!(
    /// Copies 4 bytes, cached in L1 and L2.
    ///
    /// ```ptx
    /// cp.async.ca.shared.global [%r_dst], [%rd_src], 4;
    /// ```
    cp_async_ca_4, "cp.async.ca.shared.global", "4"
);
cp_async_sized!(
    /// Copies 8 bytes, cached in L1 and L2.
    ///
    /// ```ptx
    /// cp.async.ca.shared.global [%r_dst], [%rd_src], 8;
    /// ```
    cp_async_ca_8, "cp.async.ca.shared.global", "8"
);
cp_async_sized!(
    /// Copies 16 bytes, cached in L1 and L2.
    ///
    /// ```ptx
    /// cp.async.ca.shared.global [%r_dst], [%rd_src], 16;
    /// ```
    cp_async_ca_16, "cp.async.ca.shared.global", "16"
);
cp_async_sized!(
    /// Copies 16 bytes, cached in L2 only.
    ///
    /// ```ptx
    /// cp.async.cg.shared.global [%r_dst], [%rd_src], 16;
    /// ```
    cp_async_cg_16, "cp.async.cg.shared.global", "16"
);
cp_async_zfill!(
    /// Copies the first `src_bytes` of 4 bytes and zero-fills the rest (L1 and L2).
    ///
    /// ```ptx
    /// cp.async.ca.shared.global [%r_dst], [%rd_src], 4, %r_src_bytes;
    /// ```
    cp_async_ca_4_zfill, "cp.async.ca.shared.global", "4"
);
cp_async_zfill!(
    /// Copies the first `src_bytes` of 8 bytes and zero-fills the rest (L1 and L2).
    ///
    /// ```ptx
    /// cp.async.ca.shared.global [%r_dst], [%rd_src], 8, %r_src_bytes;
    /// ```
    cp_async_ca_8_zfill, "cp.async.ca.shared.global", "8"
);
cp_async_zfill!(
    /// Copies the first `src_bytes` of 16 bytes and zero-fills the rest (L1 and L2).
    ///
    /// ```ptx
    /// cp.async.ca.shared.global [%r_dst], [%rd_src], 16, %r_src_bytes;
    /// ```
    cp_async_ca_16_zfill, "cp.async.ca.shared.global", "16"
);
cp_async_zfill!(
    /// Copies the first `src_bytes` of 16 bytes and zero-fills the rest (L2 only). Rungs 10, 12
    /// and 13 copy their edge tiles with this: rows past M or N and columns past K get
    /// `src_bytes = 0`.
    ///
    /// ```ptx
    /// cp.async.cg.shared.global [%r_dst], [%rd_src], 16, %r_src_bytes;
    /// ```
    cp_async_cg_16_zfill, "cp.async.cg.shared.global", "16"
);
cp_async_ignore!(
    /// Copies 4 bytes, or writes 4 zero bytes when `ignore` is true (L1 and L2).
    ///
    /// ```ptx
    /// setp.ne.u32 p, %r_ignore, 0;
    /// cp.async.ca.shared.global [%r_dst], [%rd_src], 4, p;
    /// ```
    cp_async_ca_4_unless, "cp.async.ca.shared.global", "4"
);
cp_async_ignore!(
    /// Copies 8 bytes, or writes 8 zero bytes when `ignore` is true (L1 and L2).
    ///
    /// ```ptx
    /// setp.ne.u32 p, %r_ignore, 0;
    /// cp.async.ca.shared.global [%r_dst], [%rd_src], 8, p;
    /// ```
    cp_async_ca_8_unless, "cp.async.ca.shared.global", "8"
);
cp_async_ignore!(
    /// Copies 16 bytes, or writes 16 zero bytes when `ignore` is true (L1 and L2).
    ///
    /// ```ptx
    /// setp.ne.u32 p, %r_ignore, 0;
    /// cp.async.ca.shared.global [%r_dst], [%rd_src], 16, p;
    /// ```
    cp_async_ca_16_unless, "cp.async.ca.shared.global", "16"
);
cp_async_ignore!(
    /// Copies 16 bytes, or writes 16 zero bytes when `ignore` is true (L2 only).
    ///
    /// ```ptx
    /// setp.ne.u32 p, %r_ignore, 0;
    /// cp.async.cg.shared.global [%r_dst], [%rd_src], 16, p;
    /// ```
    cp_async_cg_16_unless, "cp.async.cg.shared.global", "16"
);

/// Closes the group of every `cp.async` this thread issued since its last commit. A commit with
/// no copies makes an empty group, which completes at once: pipelines commit every step so the
/// group count stays in step with the tile count.
///
/// ```ptx
/// cp.async.commit_group;
/// ```
#[inline(always)]
// ANCHOR: groups
pub fn cp_async_commit_group() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("cp.async.commit_group;", options(nostack)) }
}

/// Waits until at most `N` of this thread's committed groups are still in flight.
///
/// ```ptx
/// cp.async.wait_group N;
/// ```
#[inline(always)]
pub fn cp_async_wait_group<const N: u32>() {
// ANCHOR_END: groups
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("cp.async.wait_group {n};", n = const N, options(nostack)) }
}

/// Waits until all of this thread's copies, committed or not, are complete.
///
/// ```ptx
/// cp.async.wait_all;
/// ```
#[inline(always)]
pub fn cp_async_wait_all() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("cp.async.wait_all;", options(nostack)) }
}

/// [`cp_async_wait_group`] with the count as a value, for counts computed from const generics
/// (which cannot be const arguments on stable Rust): `n` must fold to a constant, and the match
/// then leaves the one instruction. Counts above 7 wait for everything.
#[inline(always)]
pub fn cp_async_wait_pending(n: usize) {
    match n {
        0 => cp_async_wait_group::<0>(),
        1 => cp_async_wait_group::<1>(),
        2 => cp_async_wait_group::<2>(),
        3 => cp_async_wait_group::<3>(),
        4 => cp_async_wait_group::<4>(),
        5 => cp_async_wait_group::<5>(),
        6 => cp_async_wait_group::<6>(),
        7 => cp_async_wait_group::<7>(),
        _ => cp_async_wait_all(),
    }
}
