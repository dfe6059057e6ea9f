//! Small kernels that demonstrate one instruction's semantics each. They are not GEMMs and not in
//! the catalog; the GPU tests launch them by name (`lesson_*`) and check the rule they teach, and
//! the emulator's tests run the same bodies on the CPU.

use crate::device::*;
use crate::device::TensorMap;

/// Box loaded by the kernel `lesson_tma_box`: 32 × 32 f32.
pub const TMA_BOX: u32 = 32;

/// One copy-engine load of a `TMA_BOX²` box at column `x`, row `y` of the matrix behind `map`,
/// written row-major to `out`. The test places the box over the matrix's corner: the part outside
/// reads as zeros.
///
/// Shared memory: the mbarrier at byte 0, the box at byte 1024. Launch with 32 threads and
/// `1024 + 4·TMA_BOX²` bytes.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
// ANCHOR: lesson_tma_box
pub unsafe extern "gpu-kernel" fn lesson_tma_box(map: *const TensorMap, out: *mut f32, x: i32, y: i32) {
    // SAFETY: the host launches the lesson as its doc says: a tensor map and `TMA_BOX²` floats of
    // `out`.
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
        // SAFETY: one thread initialises the barrier in the block's shared memory before the block
        // barrier below.
        unsafe {
            mbarrier_init(bar, 1);
            fence_mbarrier_init();
        }
    }
    sync_threads();
    if thread_idx() == 0 {
        // One arrival that also announces the bytes the copy will deliver; the phase completes
        // when both have happened.
        // SAFETY: the box fits the shared memory after byte 1024, and the barrier expects exactly
        // its bytes.
        unsafe {
            mbarrier_arrive_expect_tx(bar, bytes);
            tma_load_2d(shared_address(tile), map, x, y, bar);
        }
    }
    // SAFETY: the barrier was initialised by thread 0 and published by the block barrier above.
    unsafe { mbarrier_wait(bar, 0) };
    let mut i = thread_idx();
    while i < TMA_BOX * TMA_BOX {
        // SAFETY: `i` < `TMA_BOX²`: inside the box in shared memory and inside `out`.
        unsafe { store(out.add(i as usize), load(tile.add(i as usize))) };
        i += 32;
    }
}
// ANCHOR_END: lesson_tma_box

/// Halves in the shared tile of the kernel `lesson_ldmatrix_x2`: 128 rows × 16, element `i` holding `i`.
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
    // SAFETY: the host launches the lesson as its doc says: 32 offsets inside the tile, 64 words
    // of `out`.
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
        // SAFETY: `i` < `LDMATRIX_TILE`: inside the tile the launch's shared memory holds.
        unsafe { store(tile.add(i as usize), value) };
        i += 512;
    }
    sync_threads();
    let lane = lane_idx();
    // SAFETY: the caller's offsets lie inside the tile, and `offsets` holds 32 of them.
    let row = unsafe { tile.add(load(offsets.add(lane as usize)) as usize) };
    // SAFETY: each lane's address is a 16-byte row inside the stage's tile, which the wait above
    // made complete.
    let regs = unsafe { ldmatrix_x2(shared_address(row)) };
    if block_col() == 0 && warp_idx() == 0 {
        // SAFETY: `out` holds 64 words: two per lane.
        unsafe {
            store(out.add(2 * lane as usize), regs[0]);
            store(out.add(2 * lane as usize + 1), regs[1]);
        }
    }
}

/// Floats one thread copies per chunk in the cp.async lessons (one 16-byte copy).
pub const CHUNK: u32 = 4;

/// The bit pattern shared memory is poisoned with before a copy: a quiet NaN no copy produces.
pub const POISON: u32 = 0x7fc0_dead;

/// Zero-fill: thread 0 makes three 16-byte copies of `src[0..4]` into shared memory that was
/// filled with [`POISON`]: chunk 0 with `src_bytes` (0..=16) read bytes, chunk 1 with the
/// ignore-src predicate set, chunk 2 with it clear; chunk 3 is not a destination. Writes the 16
/// words of shared memory to `out`. Expected: chunk 0 holds the first `src_bytes` bytes of `src`
/// and zeros after them, exactly; chunk 1 zeros; chunk 2 the source; chunk 3 still poison.
/// Launch with 32 threads and 64 bytes of shared memory.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn lesson_cp_async_zfill(src: *const f32, out: *mut u32, src_bytes: u32) {
    let smem = dynamic_shared::<u32>();
    let t = thread_idx();
    if t < 16 {
        // SAFETY: `t` < 16: inside the launch's 64 bytes of shared memory.
        unsafe { *smem.add(t as usize) = POISON };
    }
    sync_threads();
    if t == 0 {
        let base = shared_address(smem);
        // SAFETY: three 16-byte chunks inside the 64 bytes of shared memory; `src` holds at least
        // one chunk.
        unsafe {
            cp_async_ca_16_zfill(base, src, src_bytes);
            cp_async_ca_16_unless(base + 16, src, true);
            cp_async_ca_16_unless(base + 32, src, false);
        }
        cp_async_commit_group();
        cp_async_wait_group::<0>();
    }
    sync_threads();
    if t < 16 {
        // SAFETY: `t` < 16: inside shared memory and inside `out`.
        unsafe { *out.add(t as usize) = *smem.add(t as usize) };
    }
}

/// `wait_group N`: each of the 32 threads commits two groups, an *older* one copying
/// `src[4t..4t+4]` and a *newer* one copying
/// eight more chunks of `src`, [`WAIT_STRIDE`] floats apart, then waits with `cp.async.wait_group pending` (`pending` = 0, 1 or 2; 2 waits
/// for nothing) and reads its shared memory back at once (before any other wait: a deliberate read
/// of possibly pending data, which is the point of the lesson), writing 9 chunks per thread to
/// `out`: the older one, then the eight newer ones. Shared memory starts as [`POISON`]. A chunk
/// that reads as poison had not landed. The host passes cold memory (not in L2) so copies take
/// DRAM latency. Launch with 32 threads and `32 · 9 · 16` bytes of shared memory.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn lesson_cp_async_wait_group(src: *const f32, out: *mut u32, pending: u32) {
    let smem = dynamic_shared::<u32>();
    let t = thread_idx() as usize;
    let words = (WAIT_CHUNKS * CHUNK) as usize;
    let mine = smem.wrapping_add(t * words);
    for w in 0..words {
        // SAFETY: `w` < `words`: this thread's own stretch of the launch's shared memory.
        unsafe { *mine.add(w) = POISON };
    }
    let base = shared_address(mine);
    // SAFETY: the destinations are this thread's stretch; the sources lie inside `src` (host-sized
    // for `WAIT_STRIDE`).
    unsafe {
        // Older group: one chunk.
        cp_async_cg_16(base, src.add(4 * t));
        cp_async_commit_group();
        // Newer group: eight chunks, each from its own 64 KiB stretch (separate DRAM pages).
        for j in 1..WAIT_CHUNKS as usize {
            cp_async_cg_16(base + 16 * j as u32, src.add(j * WAIT_STRIDE as usize + 4 * t));
        }
        cp_async_commit_group();
    }
    match pending {
        0 => cp_async_wait_group::<0>(),
        1 => cp_async_wait_group::<1>(),
        _ => cp_async_wait_group::<2>(),
    }
    // Read what is there now, then write it out.
    let mut seen = [0u32; (WAIT_CHUNKS * CHUNK) as usize];
    for w in 0..words {
        // SAFETY: this thread's own stretch (a racy read of pending copies is the lesson, hence
        // volatile).
        seen[w] = unsafe { core::ptr::read_volatile(mine.add(w)) };
    }
    cp_async_wait_all();
    for w in 0..words {
        // SAFETY: `out` holds `32 · words` words.
        unsafe { *out.add(t * words + w) = seen[w] };
    }
}

/// Chunks per thread in the kernel `lesson_cp_async_wait_group`: one older, the rest newer.
pub const WAIT_CHUNKS: u32 = 9;
/// Floats between the newer group's chunks of one thread (64 KiB).
pub const WAIT_STRIDE: u32 = 16384;

/// Trap 1, without the barrier: 64 threads each copy one chunk of `src` to shared memory
/// (`cp.async`, commit, `wait_group 0`), then thread `t` reads the chunk of thread `(t + 32) % 64`,
/// in the other warp, and writes it to `out`. `wait_group` covers only the calling thread's own
/// copies: nothing orders the other warp's copy before this read. compute-sanitizer's racecheck
/// reports the hazard (`rgemm lesson cp_async_no_barrier` under `--racecheck-report all`; the default report mode
/// printed none on the GPU this was checked on; the counts are in `docs/perf/`). Launch with 64 threads and 1024 bytes of shared memory.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn lesson_cp_async_no_barrier(src: *const f32, out: *mut f32) {
    // SAFETY: the host launches the lesson as its doc says: 64 threads, 64 chunks of `src` and
    // `out`.
    unsafe { neighbour_copy(src, out, false) }
}

/// Trap 1, with the barrier: as [`lesson_cp_async_no_barrier`] with `bar.sync` between the
/// wait and the read: clean under racecheck.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "gpu-kernel" fn lesson_cp_async_with_barrier(src: *const f32, out: *mut f32) {
    // SAFETY: the host launches the lesson as its doc says: 64 threads, 64 chunks of `src` and
    // `out`.
    unsafe { neighbour_copy(src, out, true) }
}

#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn neighbour_copy(src: *const f32, out: *mut f32, barrier: bool) {
    let smem = dynamic_shared::<f32>();
    let t = thread_idx() as usize;
    // SAFETY: thread `t`'s chunk of shared memory and of `src` (64 chunks each).
    unsafe {
        cp_async_cg_16(shared_address(smem.add(4 * t)), src.add(4 * t));
    }
    cp_async_commit_group();
    cp_async_wait_group::<0>();
    if barrier {
        sync_threads();
    }
    let other = (t + 32) % 64;
    for e in 0..4 {
        // SAFETY: `t`, `other` < 64: inside the 64 chunks of shared memory and `out`.
        unsafe { *out.add(4 * t + e) = *smem.add(4 * other + e) };
    }
}
