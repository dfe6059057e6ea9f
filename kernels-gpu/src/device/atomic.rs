//! Communication between blocks through global memory: a release/acquire fence, an atomic
//! counter, an acquiring load and a proxy fence. Stream-K (`crate::stream_k`) uses them so that
//! the blocks sharing a tile of C can hand each other their partial sums, and the split of A
//! ahead of 3×TF32's product (`crate::split_ahead`) so that the product's copy engine reads each
//! chunk of the split as soon as it is written; nothing else in rgemm talks across blocks.

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

/// Loads the word at `p` with acquire semantics for the whole GPU: the accesses after it see
/// whatever the thread that released the value (an [`atom_add_acq_rel_gpu`] after a
/// [`fence_acq_rel_gpu`]) had seen. The poll of a flag another block raises.
///
/// ```ptx
/// ld.acquire.gpu.global.u32 %r, [%rd];
/// ```
///
/// # Safety
/// `p` is 4-byte aligned and points to global memory.
#[inline(always)]
pub unsafe fn ld_acquire_gpu(p: *const u32) -> u32 {
    let v: u32;
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction reads only the
    // four bytes at `p`.
    unsafe { asm!("ld.acquire.gpu.global.u32 {v}, [{p}];", v = out(reg32) v, p = in(reg64) p, options(nostack)) };
    v
}

/// Orders this thread's global-memory accesses through the generic proxy (loads and stores)
/// against those through the async proxy (the copy engine's loads it issues), both ways. The
/// writers of data that another block's copy engine will read call it after their stores; the
/// block that issues the copies calls it after the acquire that told it the data is there.
///
/// ```ptx
/// fence.proxy.async.global;
/// ```
#[inline(always)]
pub fn fence_proxy_async_global() {
    // SAFETY: a fence has no operands: it orders memory accesses and touches none.
    unsafe { asm!("fence.proxy.async.global;", options(nostack)) }
}
