//! Split-K: the second half of a GEMM whose K was cut into slices.
//!
//! A problem with few tiles of C and a long K leaves most SMs idle: 256×256×131072 has two
//! 128×256 tiles for 132 SMs. Cut K into `S` slices and the GEMM kernel computes `S` partial
//! products, one per slice, as a strided batch (slice `s` of A starts `s·K/S` columns in, of B
//! `s·K/S` rows down) into a workspace of `S` matrices of M×N: `S` times the tiles to share out.
//! This kernel then sums the partials into C, in a fixed order (slice 0, 1, …), so the result is
//! the same from run to run: no atomics whose order changes it.
//!
//! Invariant: the workspace holds `splits` M×N matrices, slice after slice, `plane` floats apart
//! (M·N rounded up to whole 16 bytes, so each starts aligned for the GEMM kernel's stores). Cost: one read
//! of `splits·M·N` floats and one write (and read, when beta ≠ 0) of C, against the `2·M·N·K`
//! flops of the products; worth it when K is long compared with `splits`.

use crate::device::*;

pub use rgemm_spec::helpers::REDUCE_THREADS;

/// `C = act(alpha·Σ_s W[s] + beta·C + bias)` over the `splits` partial products in `ws` (M×N
/// each, `plane` floats apart), into C (M×N, rows `ldc` apart, of the epilogue's output type;
/// [`crate::epilogue`]). Launch with [`REDUCE_THREADS`] threads, a grid of
/// `⌈N / REDUCE_THREADS⌉ × rows` blocks (any number of rows: each block walks rows `y, y +
/// rows, …`).
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "gpu-kernel" fn reduce_splits(ws: *const f32, c: *mut u8, m: u32, n: u32, ldc: u32, splits: u32, plane: u64, alpha: f32, beta: f32, epilogue: u32, bias: *const u8, aux: *mut u8) {
    crate::device::start_after_previous_grid();
    let out = crate::epilogue::FusedOutput::new(c, m, n, ldc, alpha, beta, epilogue, bias, aux);
    // SAFETY: the launch's contract, passed on.
    unsafe { reduce(ws, &out, splits, plane) }
}

/// The body of `reduce_splits`, for the GPU and the emulator: every element of `c` gets the sum
/// of its partials through the epilogue.
///
/// # Safety
/// `ws` holds `splits` matrices of `c.rows × c.cols` floats, `plane ≥ rows·cols` floats apart;
/// `c` (with its bias and auxiliary output) is the caller's to write; launched as
/// `reduce_splits` says.
#[inline(always)]
pub unsafe fn reduce(ws: *const f32, c: &crate::epilogue::FusedOutput, splits: u32, plane: u64) {
    let (m, n) = (c.rows, c.cols);
    let col = block_col() * REDUCE_THREADS + thread_idx();
    let (_, rows) = grid_dims();
    if col >= n {
        return;
    }
    let plane = plane as usize;
    let mut row = block_row();
    while row < m {
        let at = row as usize * n as usize + col as usize;
        let mut sum = 0.0f32;
        for s in 0..splits as usize {
            // SAFETY: s < splits, (row, col) inside M×N: inside the workspace.
            sum += unsafe { load(ws.add(s * plane + at)) };
        }
        c.store(row, col, sum);
        row += rows;
    }
}
