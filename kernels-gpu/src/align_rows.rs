//! Aligned rows: a copy of an operand whose rows are not whole 16-byte units.
//!
//! The copy engine (TMA) that feeds the fastest kernels reads a matrix only when every row starts
//! on a 16-byte boundary: the leading dimension times the element size must be a multiple of 16.
//! A 4095×4095 bf16 matrix has 8190-byte rows, so rungs 14 and 15 refuse it. Rather than fall back
//! to kernels that load element by element, the host copies such an operand into a workspace whose
//! rows are padded to 16-byte units and runs the fast kernel on the copy (`api::Plan`'s staging).
//! The padding is never read: the tensor map's extents are the matrix's, not the rows'.
//!
//! Invariant: `dst_ld ≥ cols`, `src_ld ≥ cols`; a batch of `grid z` matrices, `src_stride` and
//! `dst_stride` elements apart. Cost: one read and one write of the operand, against the `2·M·N·K`
//! flops of the product it feeds: small where the product is large (K and the other operand's
//! extent long), and the dispatch table measures whether it pays. The grid is a few blocks per SM
//! ([`copy_grid`]), each thread [`COPY_ROWS_AT_ONCE`] rows at a time with all their loads issued
//! before their stores: a block per row of 256 elements spent more on starting blocks than on
//! the bytes, and kept few of them in flight.

use crate::device::*;

pub use rgemm_spec::helpers::{COPY_ROWS_AT_ONCE, COPY_THREADS, copy_grid};


/// Copies `rows × cols` 2-byte elements of matrix `block_batch()` from `src` (rows `src_ld`
/// apart, matrices `src_stride` apart) to `dst` (rows `dst_ld`, matrices `dst_stride` apart).
/// Launch with [`COPY_THREADS`] threads, a grid of `⌈cols / COPY_THREADS⌉ × rows′ × batch` blocks
/// (any `rows′ ≥ 1`, [`copy_grid`]: each block walks the rows in runs of [`COPY_ROWS_AT_ONCE`],
/// runs `y, y + rows′, …`).
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn copy_rows_b16(src: *const u16, dst: *mut u16, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64, dst_stride: u64) {
    crate::device::start_after_previous_grid();
    // SAFETY: the launch's contract, passed on.
    unsafe { copy_rows(src, dst, rows, cols, src_ld, dst_ld, src_stride, dst_stride) }
}

/// As [`copy_rows_b16`], for 1-byte elements (FP8).
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn copy_rows_b8(src: *const u8, dst: *mut u8, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64, dst_stride: u64) {
    crate::device::start_after_previous_grid();
    // SAFETY: the launch's contract, passed on.
    unsafe { copy_rows(src, dst, rows, cols, src_ld, dst_ld, src_stride, dst_stride) }
}

/// As [`copy_rows_b16`], for 4-byte elements.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn copy_rows_b32(src: *const u32, dst: *mut u32, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64, dst_stride: u64) {
    crate::device::start_after_previous_grid();
    // SAFETY: the launch's contract, passed on.
    unsafe { copy_rows(src, dst, rows, cols, src_ld, dst_ld, src_stride, dst_stride) }
}

/// The body of the copies, for the GPU and the emulator.
///
/// # Safety
/// `src` holds the batch's matrices as described (rows `src_ld ≥ cols` apart, matrices
/// `src_stride` apart), `dst` room for them with rows `dst_ld ≥ cols` and matrices `dst_stride`
/// apart; launched as [`COPY_THREADS`] says.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn copy_rows<T: Copy + Default>(src: *const T, dst: *mut T, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64, dst_stride: u64) {
    let col = block_col() * COPY_THREADS + thread_idx();
    let (_, step) = grid_dims();
    if col >= cols {
        return;
    }
    let z = block_batch() as usize;
    let (src, dst) = (src.wrapping_add(z * src_stride as usize), dst.wrapping_add(z * dst_stride as usize));
    const N: usize = COPY_ROWS_AT_ONCE as usize;
    let mut first = block_row() as u64 * N as u64;
    while first < rows as u64 {
        let mut v = [T::default(); N];
        for (i, x) in v.iter_mut().enumerate() {
            let row = first + i as u64;
            if row < rows as u64 {
                // SAFETY: (row, col) lies inside matrix z of `src` (the contract above).
                *x = unsafe { load(src.wrapping_add(row as usize * src_ld as usize + col as usize)) };
            }
        }
        for (i, &x) in v.iter().enumerate() {
            let row = first + i as u64;
            if row < rows as u64 {
                // SAFETY: (row, col) lies inside matrix z of `dst` (the contract above).
                unsafe { store(dst.wrapping_add(row as usize * dst_ld as usize + col as usize), x) };
            }
        }
        first += step as u64 * N as u64;
    }
}
