//! The copy engine (Tensor Memory Accelerator, sm_90): one thread asks for a whole 2D box of a
//! matrix described by a tensor map; the engine writes it to shared memory (zeros where the box
//! leaves the matrix) and reports the bytes on an mbarrier.
//!
//! The engine also stores: a box of shared memory goes to the matrix (the parts outside it are
//! dropped). Stores are tracked per thread in *bulk groups*, like `cp.async` groups: the issuing
//! thread commits them and waits until their reads of shared memory are done before that memory
//! is written again (or the block exits).

use core::arch::asm;

use super::TensorMap;

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
// ANCHOR: tma_load_2d
pub unsafe fn tma_load_2d(dst: u32, map: *const TensorMap, x: i32, y: i32, bar: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
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
// ANCHOR_END: tma_load_2d

/// [`tma_load_2d`] for a three-dimensional map: the box at (column `x`, row `y`) of plane `z`
/// (rgemm's maps are a batch of matrices, one plane per product).
///
/// ```ptx
/// cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes
///     [dst], [map, {x, y, z}], [bar];
/// ```
///
/// # Safety
/// As for [`tma_load_2d`].
#[inline(always)]
pub unsafe fn tma_load_3d(dst: u32, map: *const TensorMap, x: i32, y: i32, z: i32, bar: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [{d}], [{m}, {{{x}, {y}, {z}}}], [{b}];",
            d = in(reg32) dst,
            m = in(reg64) map,
            x = in(reg32) x,
            y = in(reg32) y,
            z = in(reg32) z,
            b = in(reg32) bar,
            options(nostack),
        )
    }
}

/// [`tma_load_3d`] for a four-dimensional map: the box at (column `x` of a panel, row `y`, panel
/// `p`, plane `z`), several panels side by side in one load (`spec::BoxSpan::Panels`).
///
/// ```ptx
/// cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes
///     [dst], [map, {x, y, p, z}], [bar];
/// ```
///
/// # Safety
/// As for [`tma_load_2d`].
#[inline(always)]
pub unsafe fn tma_load_4d(dst: u32, map: *const TensorMap, x: i32, y: i32, p: i32, z: i32, bar: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [{d}], [{m}, {{{x}, {y}, {p}, {z}}}], [{b}];",
            d = in(reg32) dst,
            m = in(reg64) map,
            x = in(reg32) x,
            y = in(reg32) y,
            p = in(reg32) p,
            z = in(reg32) z,
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
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { asm!("prefetch.tensormap [{m}];", m = in(reg64) map, options(nostack)) }
}

/// Copies the box in shared memory at `src` to the box whose first element is (column `x`, row
/// `y`) of the matrix described by `map`; elements outside the matrix are not written. Joins
/// this thread's open bulk group.
///
/// ```ptx
/// cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [map, {x, y}], [src];
/// ```
///
/// # Safety
/// `map` must point to a valid tensor map in global memory, `src` to the box in shared memory
/// (aligned like a load's destination), written by the generic proxy only before a
/// [`fence_proxy_async_shared`](super::fence_proxy_async_shared) and a barrier that orders those
/// writes before this call. The box must stay unchanged until a [`bulk_wait_group_read`] covers
/// this store.
#[inline(always)]
// ANCHOR: tma_store_2d
pub unsafe fn tma_store_2d(map: *const TensorMap, x: i32, y: i32, src: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [{m}, {{{x}, {y}}}], [{s}];",
            m = in(reg64) map,
            x = in(reg32) x,
            y = in(reg32) y,
            s = in(reg32) src,
            options(nostack),
        )
    }
}
// ANCHOR_END: tma_store_2d

/// [`tma_store_2d`] for a three-dimensional map: to the box at (column `x`, row `y`) of plane `z`.
///
/// ```ptx
/// cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [map, {x, y, z}], [src];
/// ```
///
/// # Safety
/// As for [`tma_store_2d`].
#[inline(always)]
pub unsafe fn tma_store_3d(map: *const TensorMap, x: i32, y: i32, z: i32, src: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [{m}, {{{x}, {y}, {z}}}], [{s}];",
            m = in(reg64) map,
            x = in(reg32) x,
            y = in(reg32) y,
            z = in(reg32) z,
            s = in(reg32) src,
            options(nostack),
        )
    }
}

/// Closes this thread's bulk copies issued since the last commit into one bulk group.
///
/// ```ptx
/// cp.async.bulk.commit_group;
/// ```
#[inline(always)]
pub fn bulk_commit_group() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("cp.async.bulk.commit_group;", options(nostack)) }
}

/// Waits until at most `N` of this thread's bulk groups still *read* their shared-memory source
/// (their writes to global memory may still be on the way; a kernel that does not read its
/// output needs no more).
///
/// ```ptx
/// cp.async.bulk.wait_group.read N;
/// ```
#[inline(always)]
pub fn bulk_wait_group_read<const N: u32>() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("cp.async.bulk.wait_group.read {n};", n = const N, options(nostack)) }
}
