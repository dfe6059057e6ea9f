//! Small kernels that demonstrate one instruction's semantics each. They are not GEMMs and not in
//! the catalog; the GPU tests launch them by name (`lesson_*`) and check the rule they teach, and
//! the emulator's tests run the same bodies on the CPU.

use crate::device::*;
use crate::layout::TensorMap;

/// Box loaded by [`lesson_tma_box`]: 32 × 32 f32.
pub const TMA_BOX: u32 = 32;

/// One copy-engine load of a `TMA_BOX²` box at column `x`, row `y` of the matrix behind `map`,
/// written row-major to `out`. The test places the box over the matrix's corner: the part outside
/// reads as zeros.
///
/// Shared memory: the mbarrier at byte 0, the box at byte 1024. Launch with 32 threads and
/// `1024 + 4·TMA_BOX²` bytes.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn lesson_tma_box(map: *const TensorMap, out: *mut f32, x: i32, y: i32) {
    unsafe { tma_box(map, out, x, y) }
}

/// The body of `lesson_tma_box`, for the GPU and the emulator.
///
/// # Safety
/// As for a launch of `lesson_tma_box`: `map` describes a matrix, `out` holds `TMA_BOX²` floats.
#[inline(always)]
pub unsafe fn tma_box(map: *const TensorMap, out: *mut f32, x: i32, y: i32) {
    let base = dynamic_shared::<u8>();
    let bar = shared_address(base);
    let tile = base.wrapping_add(1024) as *const f32;
    let bytes = TMA_BOX * TMA_BOX * 4;
    if thread_idx() == 0 {
        unsafe {
            mbarrier_init(bar, 1);
            fence_mbarrier_init();
        }
    }
    sync_threads();
    if thread_idx() == 0 {
        // One arrival that also announces the bytes the copy will deliver; the phase completes
        // when both have happened.
        unsafe {
            mbarrier_arrive_expect_tx(bar, bytes);
            tma_load_2d(shared_address(tile), map, x, y, bar);
        }
    }
    unsafe { mbarrier_wait(bar, 0) };
    let mut i = thread_idx();
    while i < TMA_BOX * TMA_BOX {
        unsafe { store(out.add(i as usize), load(tile.add(i as usize))) };
        i += 32;
    }
}

/// Halves in the shared tile of [`lesson_ldmatrix_x2`]: 128 rows × 16, element `i` holding `i`.
pub const LDMATRIX_TILE: u32 = 128 * 16;

/// Every warp loads two 8×8 matrices with `ldmatrix.x2` from a 128×16 tile of 16-bit integers
/// (element `i` holds `i`); lane `l` gives the row address `offsets[l]` (in elements). Warp 0 of
/// block 0 writes its two result registers per lane to `out[2·lane ..]`, so the host can print
/// which thread holds which elements; launched wide, the kernel lets a profiler count the
/// shared-memory wavefronts and bank conflicts each address pattern costs.
///
/// Launch with 512 threads and `2·LDMATRIX_TILE` bytes of shared memory.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn lesson_ldmatrix_x2(offsets: *const u32, out: *mut u32) {
    unsafe { ldmatrix_x2_lesson(offsets, out) }
}

/// The body of `lesson_ldmatrix_x2`, for the GPU and the emulator.
///
/// # Safety
/// As for a launch of `lesson_ldmatrix_x2`: `offsets` holds 32 row offsets inside the tile,
/// `out` 64 words.
#[inline(always)]
pub unsafe fn ldmatrix_x2_lesson(offsets: *const u32, out: *mut u32) {
    let tile = dynamic_shared::<u16>();
    let mut i = thread_idx();
    while i < LDMATRIX_TILE {
        let value = i as u16;
        unsafe { store(tile.add(i as usize), value) };
        i += 512;
    }
    sync_threads();
    let lane = lane_idx();
    let row = unsafe { tile.add(load(offsets.add(lane as usize)) as usize) };
    let regs = unsafe { ldmatrix_x2(shared_address(row)) };
    if block_col() == 0 && warp_idx() == 0 {
        unsafe {
            store(out.add(2 * lane as usize), regs[0]);
            store(out.add(2 * lane as usize + 1), regs[1]);
        }
    }
}
