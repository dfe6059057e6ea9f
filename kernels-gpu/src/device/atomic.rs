//! Communication between blocks through global memory: a release/acquire fence and an atomic
//! counter. Stream-K (`crate::stream_k_combine`) uses them so that the blocks sharing a tile of C can
//! hand each other their partial sums; nothing else in rgemm talks across blocks.

use core::arch::asm;

/// Orders this thread's memory accesses before the fence against those after it, for every
/// thread of the GPU (CUDA's `__threadfence()`): a block's stores of a partial sum, then this,
/// then the arrival on the tile's counter; on the other side the counter, then this, then the
/// loads of the partials.
///
/// ```ptx
/// fence.acq_rel.gpu;
/// ```
#[inline(always)]
pub fn fence_acq_rel_gpu() {
    // SAFETY: a fence has no operands: it orders memory accesses and touches none.
    unsafe { asm!("fence.acq_rel.gpu;", options(nostack)) }
}

/// Adds `v` to the counter at `p` and returns its value before the add, with acquire and release
/// semantics for the whole GPU.
///
/// ```ptx
/// atom.acq_rel.gpu.global.add.u32 %r, [%rd], %v;
/// ```
///
/// # Safety
/// `p` is 4-byte aligned and points to writable global memory.
#[inline(always)]
pub unsafe fn atom_add_acq_rel_gpu(p: *mut u32, v: u32) -> u32 {
    let old: u32;
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only the
    // four bytes at `p`.
    unsafe { asm!("atom.acq_rel.gpu.global.add.u32 {old}, [{p}], {v};", old = out(reg32) old, p = in(reg64) p, v = in(reg32) v, options(nostack)) };
    old
}
