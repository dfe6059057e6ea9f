//! The copy engine (Tensor Memory Accelerator, sm_90): one thread asks for a whole 2D box of a
//! matrix described by a tensor map; the engine writes it to shared memory (zeros where the box
//! leaves the matrix) and reports the bytes on an mbarrier.

use core::arch::asm;

use crate::layout::TensorMap;

/// Copies the box whose first element is (column `x`, row `y`) of the matrix described by `map`
/// into shared memory at `dst`, and signals its bytes as transactions on the mbarrier `bar`.
///
/// ```ptx
/// cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
///     [dst], [map, {x, y}], [bar];
/// ```
/// Coordinates are signed: a box may start before the matrix as well as run past its end.
///
/// # Safety
/// `map` must point to a valid tensor map in global memory, `dst` to enough shared memory
/// (aligned to 128 bytes, 1024 with 128-byte swizzle), `bar` to an initialised mbarrier whose
/// current phase expects these bytes.
#[inline(always)]
pub unsafe fn tma_load_2d(dst: u32, map: *const TensorMap, x: i32, y: i32, bar: u32) {
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [{d}], [{m}, {{{x}, {y}}}], [{b}];",
            d = in(reg32) dst,
            m = in(reg64) map,
            x = in(reg32) x,
            y = in(reg32) y,
            b = in(reg32) bar,
            options(nostack),
        )
    }
}

/// Fetches the tensor map into the engine's cache ahead of the first copy.
///
/// ```ptx
/// prefetch.tensormap [map];
/// ```
///
/// # Safety
/// `map` must point to a tensor map in global memory.
#[inline(always)]
pub unsafe fn tma_prefetch_map(map: *const TensorMap) {
    unsafe { asm!("prefetch.tensormap [{m}];", m = in(reg64) map, options(nostack)) }
}
