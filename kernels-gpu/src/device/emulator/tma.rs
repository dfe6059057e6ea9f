//! The copy engine (TMA) on the emulator: box loads with zero fill outside the matrix and the
//! shared-memory swizzles, described by tensor maps the emulator itself encodes ([`tensor_map`],
//! [`tensor_map_3d`], [`tensor_map_spanning`]), since the driver's encoding is opaque; and box
//! stores, clipped to the matrix. A map is a batch of row-major matrices (planes); 2D copies
//! address plane 0. A load may span several boxes ([`BoxSpan`]): panels side by side (a
//! four-dimensional map, only of a matrix of whole panels) or consecutive planes.
//!
//! A store reads its shared-memory box when issued, as a read by the issuing thread (so a box
//! that other threads wrote with no barrier in between is a race), and writes the matrix at once.
//! Until a `cp.async.bulk.wait_group.read` of the issuing thread covers it, the box counts as
//! still being read: any write into it is a fault, and so is the thread exiting first.

use std::panic::Location;

use super::context::{fail, lane};
use super::memory::{self, Kind, Space};
use super::mbarrier;
use crate::device::TensorMap;
use crate::spec::{BoxSpan, Swizzle, whole_panels};

/// Marks a map as the emulator's own (the driver's maps are opaque and cannot be read here).
const MAGIC: u64 = 0x7267_656d_6d5f_746d; // "rgemm_tm"

/// Encodes a tensor map for the emulator: a row-major `rows × cols` matrix of `elem_bytes`-byte
/// elements at host address `base`, read in `box_rows × box_cols` boxes. Refuses what
/// `cuTensorMapEncodeTiled` refuses for such a map.
pub fn tensor_map(base: usize, elem_bytes: u32, rows: u32, cols: u32, box_rows: u32, box_cols: u32, swizzle: Swizzle) -> Result<TensorMap, String> {
    tensor_map_3d(base, elem_bytes, (rows, cols, cols as u64), (1, 0), box_rows, box_cols, swizzle)
}

/// [`tensor_map`] for a batch: `planes.0` matrices of `shape.0 × shape.1` elements with rows
/// `shape.2` elements apart, matrix `i` at `base + i·planes.1` elements.
pub fn tensor_map_3d(
    base: usize,
    elem_bytes: u32,
    shape: (u32, u32, u64),
    planes: (u32, u64),
    box_rows: u32,
    box_cols: u32,
    swizzle: Swizzle,
) -> Result<TensorMap, String> {
    tensor_map_spanning(base, elem_bytes, shape, planes, (box_rows, box_cols, BoxSpan::One), swizzle)
}

/// [`tensor_map_3d`] whose loads span `span` boxes of `box_rows × box_cols`: with
/// [`BoxSpan::Panels`] a four-dimensional map (columns within a panel of `box_cols`, rows,
/// panels, planes), refused unless the columns are whole panels (the host encodes one only
/// then, [`whole_panels`]); with [`BoxSpan::Planes`] a three-dimensional map whose boxes are that
/// many planes deep.
pub fn tensor_map_spanning(
    base: usize,
    elem_bytes: u32,
    shape: (u32, u32, u64),
    planes: (u32, u64),
    (box_rows, box_cols, span): (u32, u32, BoxSpan),
    swizzle: Swizzle,
) -> Result<TensorMap, String> {
    let (rows, cols, ld) = shape;
    let (depth, plane_stride) = planes;
    let row_bytes = box_cols * elem_bytes;
    let swizzle_bytes = swizzle_span(swizzle);
    let (rank, panels, box_planes) = match span {
        BoxSpan::One => (3, 1, 1),
        BoxSpan::Panels(n) => (4, n, 1),
        BoxSpan::Planes(n) => (3, 1, n),
    };
    if box_rows == 0 || box_cols == 0 || box_rows > 256 || box_cols > 256 || panels == 0 || panels > 256 || box_planes == 0 || box_planes > 256 {
        return Err(format!("box {box_rows}×{box_cols} spanning {span:?}: each side must be 1..=256"));
    }
    if row_bytes % 16 != 0 {
        return Err(format!("box rows of {row_bytes} bytes: must be a multiple of 16"));
    }
    if swizzle_bytes > 0 && row_bytes > swizzle_bytes {
        return Err(format!("box rows of {row_bytes} bytes exceed the {swizzle_bytes}-byte swizzle span"));
    }
    // The hardware accepts shorter rows, but does not lay them out as the XOR of their dense
    // addresses modelled here (64-byte rows under the 128-byte pattern, `docs/perf` run 175).
    if swizzle_bytes > 0 && row_bytes < swizzle_bytes {
        return Err(format!("box rows of {row_bytes} bytes under the {swizzle_bytes}-byte swizzle: shorter rows than the pattern's are not modelled"));
    }
    if (ld * elem_bytes as u64) % 16 != 0 || base % 16 != 0 || ld < cols as u64 {
        return Err("rows of the matrix must start on 16-byte boundaries".into());
    }
    if depth == 0 || (depth > 1 && (plane_stride * elem_bytes as u64) % 16 != 0) {
        return Err("matrices of the batch must start on 16-byte boundaries".into());
    }
    if rank == 4 && !whole_panels(cols as u64, box_cols) {
        return Err(format!("{cols} columns are not whole panels of {box_cols}: no four-dimensional map"));
    }
    let mut words = [0u64; 16];
    words[..14].copy_from_slice(&[
        MAGIC,
        base as u64,
        elem_bytes as u64,
        rows as u64,
        cols as u64,
        box_rows as u64,
        box_cols as u64,
        swizzle_bytes as u64,
        ld,
        depth as u64,
        plane_stride,
        rank,
        panels as u64,
        box_planes as u64,
    ]);
    Ok(TensorMap(words))
}

/// A decoded map: where element (plane, row, col) lives, the box and the swizzle, the map's
/// rank, and how many panels and planes a load spans.
struct Map {
    base: usize,
    elem: usize,
    rows: i64,
    cols: i64,
    box_rows: usize,
    box_cols: usize,
    span: u32,
    ld: u64,
    depth: i64,
    plane_stride: u64,
    rank: u64,
    panels: usize,
    box_planes: usize,
}

impl Map {
    /// Bytes one load writes to shared memory.
    fn load_bytes(&self) -> usize {
        self.panels * self.box_planes * self.box_rows * self.box_cols * self.elem
    }

    /// Host address of element (`row`, `col`) of plane `z`, if it lies inside the batch.
    fn element(&self, z: i64, row: i64, col: i64) -> Option<usize> {
        let inside = (0..self.depth).contains(&z) && (0..self.rows).contains(&row) && (0..self.cols).contains(&col);
        inside.then(|| self.base + (z as u64 * self.plane_stride + row as u64 * self.ld + col as u64) as usize * self.elem)
    }
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
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { load_box(dst, map, 3, (x, y, 0, 0), bar, "tma_load_2d", Location::caller()) }
}

/// `cp.async.bulk.tensor.3d`: [`tma_load_2d`] from plane `z` of the batch (and the planes after
/// it that the map's boxes span).
#[track_caller]
pub unsafe fn tma_load_3d(dst: u32, map: *const TensorMap, x: i32, y: i32, z: i32, bar: u32) {
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { load_box(dst, map, 3, (x, y, 0, z), bar, "tma_load_3d", Location::caller()) }
}

/// `cp.async.bulk.tensor.4d`: the map's panels from panel `p` on (column `x` within a panel, row
/// `y`) of plane `z`, side by side in shared memory.
#[track_caller]
pub unsafe fn tma_load_4d(dst: u32, map: *const TensorMap, x: i32, y: i32, p: i32, z: i32, bar: u32) {
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { load_box(dst, map, 4, (x, y, p, z), bar, "tma_load_4d", Location::caller()) }
}

/// A load of rank `rank` at (column within a panel `x`, row `y`, panel `p`, plane `z`): box
/// element (plane j, panel i, row r, column c) is element (`y + r`, `(p + i)·box_cols + x + c`) of
/// plane `z + j`, zero where that lies outside the batch or (4D) outside its panel's columns,
/// and sits at element `((j·panels + i)·box_rows + r)·box_cols + c` of the box, swizzled.
#[allow(clippy::too_many_arguments)]
unsafe fn load_box(dst: u32, map: *const TensorMap, rank: u64, (x, y, p, z): (i32, i32, i32, i32), bar: u32, what: &str, at: &'static Location<'static>) {
    let block = lane().block();
    let m = decode(map, what, at);
    if m.rank != rank {
        fail(format!("{what}: the tensor map has rank {}, the load {rank}, at {at}", m.rank));
    }
    let bytes = m.load_bytes();
    let align = if m.span == 0 { 128 } else { 8 * m.span };
    if dst % align != 0 || dst as usize + bytes > block.smem_bytes {
        fail(format!(
            "{what}: a {bytes}-byte box at shared address {dst:#x} (must be {align}-byte aligned and inside the {} bytes of shared memory), at {at}",
            block.smem_bytes
        ));
    }
    let mut data = vec![0u8; bytes];
    for j in 0..m.box_planes {
        for i in 0..m.panels {
            for r in 0..m.box_rows {
                for c in 0..m.box_cols {
                    let linear = ((((j * m.panels + i) * m.box_rows + r) * m.box_cols + c) * m.elem) as u32;
                    let to = (swizzled(dst + linear, m.span) - dst) as usize;
                    // Column x + c of the innermost dimension: of the matrix (3D), or of panel
                    // p + i (4D), whose extent is the panel's width.
                    let inner = x as i64 + c as i64;
                    let col = match m.rank {
                        4 if !(0..m.box_cols as i64).contains(&inner) => None,
                        4 => Some((p as i64 + i as i64) * m.box_cols as i64 + inner),
                        _ => Some(inner),
                    };
                    if let Some(from) = col.and_then(|col| m.element(z as i64 + j as i64, y as i64 + r as i64, col)) {
                        memory::check(from, m.elem, m.elem, Kind::Read, Space::Global, "TMA load source", at);
                        // SAFETY: `from` is inside the tensor's extent (checked above), `to` inside
                        // the box buffer.
                        unsafe { std::ptr::copy_nonoverlapping(from as *const u8, data.as_mut_ptr().add(to), m.elem) };
                    }
                }
            }
        }
    }
    mbarrier::attach_copy(block, bar, dst, data, at);
}

/// Checks and decodes a tensor map.
fn decode(map: *const TensorMap, what: &str, at: &Location<'_>) -> Map {
    memory::check(map as usize, size_of::<TensorMap>(), 64, Kind::Read, Space::Global, "tensor map", at);
    // SAFETY: the caller passes a pointer to a 128-byte tensor map the host encoded.
    let TensorMap(w) = unsafe { map.read() };
    if w[0] != MAGIC {
        fail(format!("{what}: the tensor map at {map:?} was not encoded by the emulator (device::emulator::tensor_map), at {at}"));
    }
    Map {
        base: w[1] as usize,
        elem: w[2] as usize,
        rows: w[3] as i64,
        cols: w[4] as i64,
        box_rows: w[5] as usize,
        box_cols: w[6] as usize,
        span: w[7] as u32,
        ld: w[8],
        depth: w[9] as i64,
        plane_stride: w[10],
        rank: w[11],
        panels: w[12] as usize,
        box_planes: w[13] as usize,
    }
}

/// `cp.async.bulk.tensor.2d.global.shared::cta.bulk_group`: writes the shared box at `src` to the
/// matrix at (column `x`, row `y`), dropping what lies outside it.
#[track_caller]
pub unsafe fn tma_store_2d(map: *const TensorMap, x: i32, y: i32, src: u32) {
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { store_box(map, (x, y, 0), src, "tma_store_2d", Location::caller()) }
}

/// `cp.async.bulk.tensor.3d.global.shared::cta.bulk_group`: [`tma_store_2d`] into plane `z`.
#[track_caller]
pub unsafe fn tma_store_3d(map: *const TensorMap, x: i32, y: i32, z: i32, src: u32) {
    // SAFETY: the caller upholds the `# Safety` contract of the device twin (checked by the
    // emulator's memory model).
    unsafe { store_box(map, (x, y, z), src, "tma_store_3d", Location::caller()) }
}

unsafe fn store_box(map: *const TensorMap, (x, y, z): (i32, i32, i32), src: u32, what: &str, at: &'static Location<'static>) {
    let lane = lane();
    let block = lane.block();
    let m = decode(map, what, at);
    if m.rank != 3 || m.panels * m.box_planes != 1 {
        fail(format!("{what}: stores take maps of one box per load, at {at}"));
    }
    let bytes = m.box_rows * m.box_cols * m.elem;
    let align = if m.span == 0 { 128 } else { 8 * m.span };
    if src % align != 0 || src as usize + bytes > block.smem_bytes {
        fail(format!(
            "{what}: a {bytes}-byte box at shared address {src:#x} (must be {align}-byte aligned and inside the {} bytes of shared memory), at {at}",
            block.smem_bytes
        ));
    }
    let smem = block.smem as usize;
    for r in 0..m.box_rows {
        for c in 0..m.box_cols {
            let linear = ((r * m.box_cols + c) * m.elem) as u32;
            let from = smem + swizzled(src + linear, m.span) as usize;
            memory::check(from, m.elem, m.elem, Kind::Read, Space::Shared, "TMA store source", at);
            if let Some(to) = m.element(z as i64, y as i64 + r as i64, x as i64 + c as i64) {
                memory::check(to, m.elem, m.elem, Kind::Write, Space::Global, "TMA store destination", at);
                // SAFETY: `to` is inside the tensor's extent (checked above), `from` inside the
                // shared box.
                unsafe { std::ptr::copy_nonoverlapping(from as *const u8, to as *mut u8, m.elem) };
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
