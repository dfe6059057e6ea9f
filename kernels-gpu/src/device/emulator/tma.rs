//! The copy engine (TMA) on the emulator: 2D box loads with zero fill outside the matrix and the
//! shared-memory swizzles, described by tensor maps the emulator itself encodes ([`tensor_map`]),
//! since the driver's encoding is opaque; and 2D box stores, clipped to the matrix.
//!
//! A store reads its shared-memory box when issued, as a read by the issuing thread (so a box
//! that other threads wrote with no barrier in between is a race), and writes the matrix at once.
//! Until a `cp.async.bulk.wait_group.read` of the issuing thread covers it, the box counts as
//! still being read: any write into it is a fault, and so is the thread exiting first.

use std::panic::Location;

use super::launch::{fail, lane};
use super::memory::{self, Kind, Space};
use super::mbarrier;
use crate::layout::TensorMap;
use crate::spec::Swizzle;

/// Marks a map as the emulator's own (the driver's maps are opaque and cannot be read here).
const MAGIC: u64 = 0x7267_656d_6d5f_746d; // "rgemm_tm"

/// Encodes a tensor map for the emulator: a row-major `rows × cols` matrix of `elem_bytes`-byte
/// elements at host address `base`, read in `box_rows × box_cols` boxes. Refuses what
/// `cuTensorMapEncodeTiled` refuses for such a map.
pub fn tensor_map(base: usize, elem_bytes: u32, rows: u32, cols: u32, box_rows: u32, box_cols: u32, swizzle: Swizzle) -> Result<TensorMap, String> {
    let row_bytes = box_cols * elem_bytes;
    let span = swizzle_span(swizzle);
    if box_rows == 0 || box_cols == 0 || box_rows > 256 || box_cols > 256 {
        return Err(format!("box {box_rows}×{box_cols}: each side must be 1..=256"));
    }
    if row_bytes % 16 != 0 {
        return Err(format!("box rows of {row_bytes} bytes: must be a multiple of 16"));
    }
    if span > 0 && row_bytes > span {
        return Err(format!("box rows of {row_bytes} bytes exceed the {span}-byte swizzle span"));
    }
    if (cols as u64 * elem_bytes as u64) % 16 != 0 || base % 16 != 0 {
        return Err("rows of the matrix must start on 16-byte boundaries".into());
    }
    let mut words = [0u64; 16];
    words[..8].copy_from_slice(&[MAGIC, base as u64, elem_bytes as u64, rows as u64, cols as u64, box_rows as u64, box_cols as u64, span as u64]);
    Ok(TensorMap(words))
}

/// Bytes of the swizzle pattern's row (the box row may not be longer); 0 for none.
fn swizzle_span(s: Swizzle) -> u32 {
    match s {
        Swizzle::None => 0,
        Swizzle::B32 => 32,
        Swizzle::B64 => 64,
        Swizzle::B128 => 128,
    }
}

/// Where byte `offset` of a box lands in shared memory: the 16-byte chunk index (address bits
/// 4..) is XORed with the 128-byte row index (bits 7..), over `span / 16` chunks. The pattern is
/// a function of the shared address itself, which is why swizzled boxes must be aligned to it.
pub fn swizzled(addr: u32, span: u32) -> u32 {
    if span == 0 {
        return addr;
    }
    let mask = span / 16 - 1;
    addr ^ (((addr >> 7) & mask) << 4)
}

/// `cp.async.bulk.tensor.2d`: reads the box at (column `x`, row `y`) now (the inputs do not
/// change during a launch) and attaches it to the mbarrier `bar`, where it lands when a thread
/// polls the barrier.
#[track_caller]
pub unsafe fn tma_load_2d(dst: u32, map: *const TensorMap, x: i32, y: i32, bar: u32) {
    let at = Location::caller();
    let block = lane().block();
    memory::check(map as usize, size_of::<TensorMap>(), 64, Kind::Read, Space::Global, "tensor map", at);
    let TensorMap(w) = unsafe { map.read() };
    if w[0] != MAGIC {
        fail(format!("tma_load_2d: the tensor map at {map:?} was not encoded by the emulator (device::emulator::tensor_map), at {at}"));
    }
    let (base, elem, rows, cols, box_rows, box_cols, span) = (w[1] as usize, w[2] as usize, w[3] as i64, w[4] as i64, w[5] as usize, w[6] as usize, w[7] as u32);
    let bytes = box_rows * box_cols * elem;
    let align = if span == 0 { 128 } else { 8 * span };
    if dst % align != 0 || dst as usize + bytes > block.smem_bytes {
        fail(format!(
            "tma_load_2d: a {bytes}-byte box at shared address {dst:#x} (must be {align}-byte aligned and inside the {} bytes of shared memory), at {at}",
            block.smem_bytes
        ));
    }
    let mut data = vec![0u8; bytes];
    for r in 0..box_rows {
        let row = y as i64 + r as i64;
        for c in 0..box_cols {
            let col = x as i64 + c as i64;
            let linear = ((r * box_cols + c) * elem) as u32;
            let to = (swizzled(dst + linear, span) - dst) as usize;
            if (0..rows).contains(&row) && (0..cols).contains(&col) {
                let from = base + (row * cols + col) as usize * elem;
                memory::check(from, elem, elem, Kind::Read, Space::Global, "tma_load_2d source", at);
                unsafe { std::ptr::copy_nonoverlapping(from as *const u8, data.as_mut_ptr().add(to), elem) };
            }
        }
    }
    mbarrier::attach_copy(block, bar, dst, data, at);
}

/// Checks and decodes a tensor map: (base, element bytes, rows, cols, box rows, box cols, span).
fn decode(map: *const TensorMap, what: &str, at: &Location<'_>) -> (usize, usize, i64, i64, usize, usize, u32) {
    memory::check(map as usize, size_of::<TensorMap>(), 64, Kind::Read, Space::Global, "tensor map", at);
    let TensorMap(w) = unsafe { map.read() };
    if w[0] != MAGIC {
        fail(format!("{what}: the tensor map at {map:?} was not encoded by the emulator (device::emulator::tensor_map), at {at}"));
    }
    (w[1] as usize, w[2] as usize, w[3] as i64, w[4] as i64, w[5] as usize, w[6] as usize, w[7] as u32)
}

/// A thread's copy-engine stores: the group still open and the committed groups, oldest first;
/// each store as the (shared offset, bytes) it reads.
#[derive(Default)]
pub(crate) struct BulkGroups {
    open: Vec<(u32, u32)>,
    committed: std::collections::VecDeque<Vec<(u32, u32)>>,
}

/// `cp.async.bulk.tensor.2d.global.shared::cta.bulk_group`: writes the shared box at `src` to the
/// matrix at (column `x`, row `y`), dropping what lies outside it.
#[track_caller]
pub unsafe fn tma_store_2d(map: *const TensorMap, x: i32, y: i32, src: u32) {
    let at = Location::caller();
    let lane = lane();
    let block = lane.block();
    let (base, elem, rows, cols, box_rows, box_cols, span) = decode(map, "tma_store_2d", at);
    let bytes = box_rows * box_cols * elem;
    let align = if span == 0 { 128 } else { 8 * span };
    if src % align != 0 || src as usize + bytes > block.smem_bytes {
        fail(format!(
            "tma_store_2d: a {bytes}-byte box at shared address {src:#x} (must be {align}-byte aligned and inside the {} bytes of shared memory), at {at}",
            block.smem_bytes
        ));
    }
    let smem = block.smem as usize;
    for r in 0..box_rows {
        let row = y as i64 + r as i64;
        for c in 0..box_cols {
            let col = x as i64 + c as i64;
            let linear = ((r * box_cols + c) * elem) as u32;
            let from = smem + swizzled(src + linear, span) as usize;
            memory::check(from, elem, elem, Kind::Read, Space::Shared, "tma_store_2d source", at);
            if (0..rows).contains(&row) && (0..cols).contains(&col) {
                let to = base + (row * cols + col) as usize * elem;
                memory::check(to, elem, elem, Kind::Write, Space::Global, "tma_store_2d destination", at);
                unsafe { std::ptr::copy_nonoverlapping(from as *const u8, to as *mut u8, elem) };
            }
        }
    }
    lane.bulk.borrow_mut().open.push((src, bytes as u32));
    block.bulk_reads.borrow_mut().push((src, bytes as u32, lane.tid));
}

/// `cp.async.bulk.commit_group`: closes this thread's open bulk group.
pub fn bulk_commit_group() {
    let mut bulk = lane().bulk.borrow_mut();
    let open = std::mem::take(&mut bulk.open);
    bulk.committed.push_back(open);
}

/// `cp.async.bulk.wait_group.read N`: every committed group but the newest `N` has finished
/// reading shared memory; its boxes may be written again (by other threads after a barrier: the
/// reads stay recorded as this thread's).
pub fn bulk_wait_group_read<const N: u32>() {
    let lane = lane();
    let mut bulk = lane.bulk.borrow_mut();
    let mut reads = lane.block().bulk_reads.borrow_mut();
    while bulk.committed.len() > N as usize {
        for (src, bytes) in bulk.committed.pop_front().unwrap() {
            if let Some(i) = reads.iter().position(|&r| r == (src, bytes, lane.tid)) {
                reads.swap_remove(i);
            }
        }
    }
}

/// A thread must not exit while its stores still read shared memory (the block's shared memory
/// is released when its threads are gone).
pub(super) fn bulk_at_exit() {
    let lane = lane();
    let bulk = lane.bulk.borrow();
    let pending = bulk.open.len() + bulk.committed.iter().map(Vec::len).sum::<usize>();
    if pending > 0 {
        drop(bulk);
        fail(format!("thread exits with {pending} TMA stores still reading shared memory (missing cp.async.bulk.commit_group / wait_group.read 0)"));
    }
}

/// `prefetch.tensormap`: only checks that `map` is readable global memory.
#[track_caller]
pub unsafe fn tma_prefetch_map(map: *const TensorMap) {
    memory::check(map as usize, size_of::<TensorMap>(), 64, Kind::Read, Space::Global, "prefetch.tensormap", Location::caller());
}
