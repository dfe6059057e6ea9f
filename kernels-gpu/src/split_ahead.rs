//! Splitting ahead: 3×TF32's shared operand split once, before the product, into a workspace.
//!
//! Rung 15 splits its shared-memory operand S (A, but B in `tt`) into a tf32 high part and a
//! remainder inside the K-loop, every K-tile: a pass through shared memory and a barrier of both
//! warpgroups. For `tn` it must also transpose S there, since the tensor cores read tf32 only
//! K-major. These kernels do that work once, in global memory, before the product: each element
//! `x` of A becomes `hi = x` (the tensor cores read its high 19 bits) and `lo = x − trunc(x)`
//! (exact), both K-major, and the product's copy engine then loads both parts as it loads A
//! (`tf32x3::Presplit`). The values the tensor cores see are those of rung 15's `Raw` split.
//!
//! Workspace layout (the one home of it: the host's [`presplit_layout`] and the product's planes
//! follow it): matrix `i` of the batch is two planes of `rows × dst_ld` floats, its high part in
//! plane `2i`, its remainder in plane `2i + 1`; `dst_ld ≥ cols` and a multiple of 4, so every row
//! starts on a 16-byte boundary whatever A's own leading dimension. The padding is never read.
//!
//! Cost: one read of A and two writes of its size, against the `2·M·N·K` flops of the product,
//! and a workspace twice A's size.

use crate::device::*;

pub use rgemm_spec::helpers::{SPLIT_SMEM_BYTES, SPLIT_THREADS, SPLIT_TILE, presplit_layout, split_launch};

/// `x` as the tensor cores read it: its low 13 bits cleared (truncated to tf32).
#[inline(always)]
pub fn trunc_tf32(x: f32) -> f32 {
    f32::from_bits(x.to_bits() & !0x1fff)
}

/// `x` as the pair rung 15's `Raw` split gives: `(x, x − trunc(x))`. The first the tensor cores
/// truncate as they read it; the second is exact.
#[inline(always)]
pub fn raw_parts(x: f32) -> (f32, f32) {
    (x, x - trunc_tf32(x))
}

/// Splits A stored row by row (`rows × cols`, K-major: `nn`, `nt`) into the workspace.
/// Launch with [`SPLIT_THREADS`] threads, a grid of `⌈cols / 32⌉ × rows′ × batch` blocks (any
/// `rows′ ≥ 1`: each block walks the tiles of rows `32·y, 32·(y + rows′), …`).
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn split_tf32_rows(src: *const f32, dst: *mut f32, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64) {
    crate::device::start_after_previous_grid();
    // SAFETY: the launch's contract, passed on.
    unsafe { split::<false>(src, dst, rows, cols, src_ld, dst_ld, src_stride) }
}

/// Splits A stored transposed (`cols × rows`: K × M, `tn`, `tt`) into the K-major workspace, through a
/// shared-memory tile. Launch as `split_tf32_rows`, with [`SPLIT_SMEM_BYTES`] of shared memory.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn split_tf32_transposed(src: *const f32, dst: *mut f32, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64) {
    crate::device::start_after_previous_grid();
    // SAFETY: the launch's contract, passed on.
    unsafe { split::<true>(src, dst, rows, cols, src_ld, dst_ld, src_stride) }
}

/// The body of both splits, for the GPU and the emulator: block (bx, by) of matrix `block_batch()`
/// splits the tiles of columns `32·bx..` (of K) and rows `32·y..` (of M) of the K-major result for
/// y = by, by + the grid's rows, … (a grid has at most 65 535 rows of blocks).
///
/// Element (r, c) (row of M, column of K) is `src[r·src_ld + c]`, or with `TRANSPOSED`
/// `src[c·src_ld + r]`; matrix z of `src` starts `z·src_stride` elements in. Every access is of
/// one element, 32 consecutive ones across a warp, so A may have any leading dimension and
/// alignment. A transposed tile is read along its stored rows, kept in shared memory, and written
/// along K. (Four-element vectors were measured slower for the transposed split: fewer loads in
/// flight per thread for the same bytes.)
///
/// # Safety
/// `src` holds the matrices as described, `dst` room for the workspace of the module's layout
/// (`dst_ld ≥ cols`); launched as `split_tf32_rows` says.
#[inline(always)]
pub unsafe fn split<const TRANSPOSED: bool>(src: *const f32, dst: *mut f32, rows: u32, cols: u32, src_ld: u32, dst_ld: u32, src_stride: u64) {
    let (tx, ty) = (thread_idx() % SPLIT_TILE, thread_idx() / SPLIT_TILE);
    let c0 = block_col() * SPLIT_TILE;
    let (_, row_blocks) = grid_dims();
    let z = block_batch() as usize;
    let plane = rows as usize * dst_ld as usize;
    let src = src.wrapping_add(z * src_stride as usize);
    let hi = dst.wrapping_add(2 * z * plane);
    let lo = hi.wrapping_add(plane);
    let put = |r: u32, c: u32, x: f32| {
        let (h, l) = raw_parts(x);
        let at = r as usize * dst_ld as usize + c as usize;
        // SAFETY: r < rows and c < cols: inside both planes of matrix z (the contract above).
        unsafe {
            store(hi.wrapping_add(at), h);
            store(lo.wrapping_add(at), l);
        }
    };
    let rows_per_pass = (SPLIT_THREADS / SPLIT_TILE) as usize;
    // tile[j][i] = element (r0 + i, c0 + j): stored row c0 + j of `src`, read along it. Rows 33
    // floats apart: reading a column down the rows meets 32 different banks.
    let tile = dynamic_shared::<f32>();
    let cell = |j: u32, i: u32| tile.wrapping_add((j * (SPLIT_TILE + 1) + i) as usize);
    let mut r0 = block_row() * SPLIT_TILE;
    while r0 < rows {
        if !TRANSPOSED {
            let c = c0 + tx;
            for j in (ty..SPLIT_TILE).step_by(rows_per_pass) {
                let r = r0 + j;
                if r < rows && c < cols {
                    // SAFETY: (r, c) lies inside matrix z of `src`.
                    put(r, c, unsafe { load(src.wrapping_add(r as usize * src_ld as usize + c as usize)) });
                }
            }
        } else {
            let r = r0 + tx;
            for j in (ty..SPLIT_TILE).step_by(rows_per_pass) {
                let c = c0 + j;
                if r < rows && c < cols {
                    // SAFETY: stored row c, column r of matrix z of `src`; the cell lies in the
                    // block's SPLIT_SMEM_BYTES of shared memory.
                    unsafe { store(cell(j, tx), load(src.wrapping_add(c as usize * src_ld as usize + r as usize))) };
                }
            }
            sync_threads();
            let c = c0 + tx;
            for j in (ty..SPLIT_TILE).step_by(rows_per_pass) {
                let r = r0 + j;
                if r < rows && c < cols {
                    // SAFETY: the cell was written above (the same bounds) before the barrier.
                    put(r, c, unsafe { load(cell(tx, j)) });
                }
            }
            // Every thread has read the tile before the next one is written over it.
            sync_threads();
        }
        r0 += row_blocks * SPLIT_TILE;
    }
}
