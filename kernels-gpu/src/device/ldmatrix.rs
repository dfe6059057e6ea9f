//! `ldmatrix`: a warp loads 8×8 matrices of 16-bit elements from shared memory straight into the
//! register fragments that `mma.sync` consumes.
//!
//! Each 8×8 matrix is eight rows of 16 contiguous bytes; every row may start anywhere (16-byte
//! aligned), which is what lets a kernel keep its tiles in a swizzled layout. With `.x1`, `.x2`,
//! `.x4` the warp loads 1, 2 or 4 matrices at once; lanes `8i .. 8i+7` supply the addresses of
//! the eight rows of matrix `i` (lane `8i + r` gives row `r`; with `.x1`/`.x2` the addresses of
//! the lanes past 8 or 16 are ignored but must still be valid).
//!
//! Fragment layout (result register `i` holds matrix `i`), for lane `l`:
//! - plain: the two elements at row `l / 4`, columns `2·(l % 4)` and `2·(l % 4) + 1`, in the
//!   low and high half of the register;
//! - `.trans`: the matrix is transposed on the way: row `2·(l % 4)` and `2·(l % 4) + 1` of
//!   column `l / 4`. A row-major K×N tile read with `.trans` gives the "column" (`.col`) B
//!   fragment of `mma.sync`, without transposing anything in memory.

use core::arch::asm;

/// Loads one 8×8 matrix; lanes 0–7 give the row addresses.
///
/// ```ptx
/// ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%r_addr];
/// ```
///
/// # Safety
/// `addr` is a 16-byte-aligned shared address; all 32 lanes of the warp execute it together.
#[inline(always)]
pub unsafe fn ldmatrix_x1(addr: u32) -> u32 {
    let r0: u32;
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {{{}}}, [{}];", out(reg32) r0, in(reg32) addr, options(readonly, nostack))
    }
    r0
}

/// Loads two 8×8 matrices; lanes 0–15 give the row addresses.
///
/// ```ptx
/// ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r0, %r1}, [%r_addr];
/// ```
///
/// # Safety
/// As for [`ldmatrix_x1`].
#[inline(always)]
pub unsafe fn ldmatrix_x2(addr: u32) -> [u32; 2] {
    let (r0, r1): (u32, u32);
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {{{}, {}}}, [{}];",
            out(reg32) r0, out(reg32) r1, in(reg32) addr, options(readonly, nostack)
        )
    }
    [r0, r1]
}

/// Loads four 8×8 matrices; every lane gives one row address.
///
/// ```ptx
/// ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%r_addr];
/// ```
/// With lane `l` pointing at row `l % 16`, column `8·(l / 16)` of a row-major 16×16 tile of A,
/// the four registers are exactly the A fragment of `mma.m16n8k16` (see [`super::mma`]).
///
/// # Safety
/// As for [`ldmatrix_x1`].
#[inline(always)]
// ANCHOR: ldmatrix_x4
pub unsafe fn ldmatrix_x4(addr: u32) -> [u32; 4] {
    let (r0, r1, r2, r3): (u32, u32, u32, u32);
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{}, {}, {}, {}}}, [{}];",
            out(reg32) r0, out(reg32) r1, out(reg32) r2, out(reg32) r3, in(reg32) addr,
            options(readonly, nostack)
        )
    }
    [r0, r1, r2, r3]
}
// ANCHOR_END: ldmatrix_x4

/// Loads one 8×8 matrix, transposed.
///
/// ```ptx
/// ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r0}, [%r_addr];
/// ```
///
/// # Safety
/// As for [`ldmatrix_x1`].
#[inline(always)]
pub unsafe fn ldmatrix_x1_trans(addr: u32) -> u32 {
    let r0: u32;
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {{{}}}, [{}];",
            out(reg32) r0, in(reg32) addr, options(readonly, nostack)
        )
    }
    r0
}

/// Loads two 8×8 matrices, transposed.
///
/// ```ptx
/// ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r0, %r1}, [%r_addr];
/// ```
///
/// # Safety
/// As for [`ldmatrix_x1`].
#[inline(always)]
pub unsafe fn ldmatrix_x2_trans(addr: u32) -> [u32; 2] {
    let (r0, r1): (u32, u32);
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{{}, {}}}, [{}];",
            out(reg32) r0, out(reg32) r1, in(reg32) addr, options(readonly, nostack)
        )
    }
    [r0, r1]
}

/// Loads four 8×8 matrices, transposed.
///
/// ```ptx
/// ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r0, %r1, %r2, %r3}, [%r_addr];
/// ```
/// With lane `l` pointing at row (k) `l % 16`, column (n) `8·(l / 16)` of a row-major 16×16
/// tile of B, registers 0–1 are the B fragment of `mma.m16n8k16` for columns 0–7 and
/// registers 2–3 the one for columns 8–15.
///
/// # Safety
/// As for [`ldmatrix_x1`].
#[inline(always)]
pub unsafe fn ldmatrix_x4_trans(addr: u32) -> [u32; 4] {
    let (r0, r1, r2, r3): (u32, u32, u32, u32);
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{{}, {}, {}, {}}}, [{}];",
            out(reg32) r0, out(reg32) r1, out(reg32) r2, out(reg32) r3, in(reg32) addr,
            options(readonly, nostack)
        )
    }
    [r0, r1, r2, r3]
}
