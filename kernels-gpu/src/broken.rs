//! Kernels with the bugs the emulator exists to catch, one bug each. They are test fixtures: host
//! only, never in the catalog or the PTX. `tests/emulator.rs` runs each and asserts the fault.
//!
//! Each is a correct kernel of the ladder with one line changed, named after what is wrong.

use crate::prelude::*;

const RUNG: Rung = Rung::beside(KernelKind::Fixture, "broken", "deliberately wrong kernels for the emulator's tests");

const BS: usize = 16;
const SPEC: KernelSpec = KernelSpec::unnamed(RUNG, Dtype::F32, Tile::block(16, 16, 16), 256, (2 * BS * BS * 4) as u32);

/// Rung 3 with one of its two barriers left out (`WHICH` = 1: the one after loading the tiles, so
/// threads read elements other threads have not written yet; 2: the one after the dot products,
/// so fast threads overwrite a tile slow threads are still reading, which only shows when K
/// needs more than one tile).
pub struct MissingBarrier<const WHICH: u8>;

impl<const WHICH: u8> GemmKernel for MissingBarrier<WHICH> {
    type Elem = f32;
    const SPEC: KernelSpec = SPEC;

    unsafe fn run(gemm: &GemmArgs<f32>) {
        // SAFETY: the spec gives the block two BS × BS tiles of f32 (this one and the next); the
        // fixture's one bug lies elsewhere.
        let a_tile = unsafe { SmemTile::new(dynamic_shared(), BS, BS) };
        // SAFETY: as above, right after the first tile.
        let b_tile = unsafe { SmemTile::new(a_tile.end(), BS, BS) };
        let t = thread_idx() as usize;
        let (ty, tx) = (t / BS, t % BS);
        let (row0, col0) = (block_row() * BS as u32, block_col() * BS as u32);
        let (a, b) = (gemm.a().window(row0, 0), gemm.b().window(0, col0));
        let mut acc = 0.0;
        let mut k0 = 0;
        while k0 < gemm.k {
            a_tile.set(ty, tx, a.get_or_zero(ty as u32, k0 + tx as u32));
            b_tile.set(ty, tx, b.get_or_zero(k0 + ty as u32, tx as u32));
            // ANCHOR: missing_barrier
            if WHICH != 1 {
                sync_threads();
            }
            // ANCHOR_END: missing_barrier
            for i in 0..BS {
                acc = fma(a_tile.get(ty, i), b_tile.get(i, tx), acc);
            }
            if WHICH != 2 {
                sync_threads();
            }
            k0 += BS as u32;
        }
        gemm.c().window(row0, col0).store(ty as u32, tx as u32, acc);
    }
}

/// Rung 2 whose dot product runs one step too far (`0..=k`): it reads one element past each row
/// of A and one row past the end of B.
pub struct OffByOneTail;

impl GemmKernel for OffByOneTail {
    type Elem = f32;
    const SPEC: KernelSpec = KernelSpec::unnamed(RUNG, Dtype::F32, Tile::block(16, 16, 1), 256, 0);

    unsafe fn run(gemm: &GemmArgs<f32>) {
        let t = thread_idx();
        let (row, col) = (block_row() * 16 + t / 16, block_col() * 16 + t % 16);
        let (a, b, c) = (gemm.a(), gemm.b(), gemm.c());
        if !c.contains(row, col) {
            return;
        }
        let mut acc = 0.0;
        for i in 0..=gemm.k {
            // SAFETY: the emulator checks every access; where this line reads outside A or B that is
            // the fixture's bug (the loop bound says which).
            acc = fma(unsafe { a.get(row, i) }, unsafe { b.get(i, col) }, acc);
        }
        c.store(row, col, acc);
    }
}

/// Rung 3 that handles the tail the rung-2 way, returning early for threads outside C: they never
/// reach the barrier the others wait at.
pub struct EarlyExit;

impl GemmKernel for EarlyExit {
    type Elem = f32;
    const SPEC: KernelSpec = SPEC;

    unsafe fn run(gemm: &GemmArgs<f32>) {
        // SAFETY: the spec gives the block two BS × BS tiles of f32 (this one and the next); the
        // fixture's one bug lies elsewhere.
        let a_tile = unsafe { SmemTile::new(dynamic_shared(), BS, BS) };
        // SAFETY: as above, right after the first tile.
        let b_tile = unsafe { SmemTile::new(a_tile.end(), BS, BS) };
        let t = thread_idx() as usize;
        let (ty, tx) = (t / BS, t % BS);
        let (row0, col0) = (block_row() * BS as u32, block_col() * BS as u32);
        let (a, b, c) = (gemm.a().window(row0, 0), gemm.b().window(0, col0), gemm.c().window(row0, col0));
        if !c.contains(ty as u32, tx as u32) {
            return;
        }
        let mut acc = 0.0;
        let mut k0 = 0;
        while k0 < gemm.k {
            a_tile.set(ty, tx, a.get_or_zero(ty as u32, k0 + tx as u32));
            b_tile.set(ty, tx, b.get_or_zero(k0 + ty as u32, tx as u32));
            sync_threads();
            for i in 0..BS {
                acc = fma(a_tile.get(ty, i), b_tile.get(i, tx), acc);
            }
            sync_threads();
            k0 += BS as u32;
        }
        c.store(ty as u32, tx as u32, acc);
    }
}

/// Rung 3 whose tile load branches on the tail and waits at a barrier in each branch: threads in
/// and outside A wait at different barriers.
pub struct DivergentBarrier;

impl GemmKernel for DivergentBarrier {
    type Elem = f32;
    const SPEC: KernelSpec = SPEC;

    unsafe fn run(gemm: &GemmArgs<f32>) {
        // SAFETY: the spec gives the block two BS × BS tiles of f32 (this one and the next); the
        // fixture's one bug lies elsewhere.
        let a_tile = unsafe { SmemTile::new(dynamic_shared(), BS, BS) };
        // SAFETY: as above, right after the first tile.
        let b_tile = unsafe { SmemTile::new(a_tile.end(), BS, BS) };
        let t = thread_idx() as usize;
        let (ty, tx) = (t / BS, t % BS);
        let (row0, col0) = (block_row() * BS as u32, block_col() * BS as u32);
        let (a, b) = (gemm.a().window(row0, 0), gemm.b().window(0, col0));
        let mut acc = 0.0;
        let mut k0 = 0;
        while k0 < gemm.k {
            b_tile.set(ty, tx, b.get_or_zero(k0 + ty as u32, tx as u32));
            if a.contains(ty as u32, k0 + tx as u32) {
                // SAFETY: none: this unchecked read of A is the fixture's bug, for the emulator to catch.
                a_tile.set(ty, tx, unsafe { a.get(ty as u32, k0 + tx as u32) });
                sync_threads();
            } else {
                a_tile.set(ty, tx, 0.0);
                sync_threads();
            }
            for i in 0..BS {
                acc = fma(a_tile.get(ty, i), b_tile.get(i, tx), acc);
            }
            sync_threads();
            k0 += BS as u32;
        }
        gemm.c().window(row0, col0).store(ty as u32, tx as u32, acc);
    }
}

/// Rung 3 loading its tiles with `cp.async` but never waiting for the copies: the barrier orders
/// the threads, not the copy engine, so the dot products read shared memory before the tiles
/// arrive.
pub struct CpAsyncWithoutWait;

impl GemmKernel for CpAsyncWithoutWait {
    type Elem = f32;
    const SPEC: KernelSpec = SPEC;

    unsafe fn run(gemm: &GemmArgs<f32>) {
        // SAFETY: the spec gives the block two BS × BS tiles of f32 (this one and the next); the
        // fixture's one bug lies elsewhere.
        let a_tile = unsafe { SmemTile::new(dynamic_shared(), BS, BS) };
        // SAFETY: as above, right after the first tile.
        let b_tile = unsafe { SmemTile::new(a_tile.end(), BS, BS) };
        let t = thread_idx() as usize;
        let (ty, tx) = (t / BS, t % BS);
        let (row0, col0) = (block_row() * BS as u32, block_col() * BS as u32);
        let (a, b) = (gemm.a().window(row0, 0), gemm.b().window(0, col0));
        let mut acc = 0.0;
        let mut k0 = 0;
        while k0 < gemm.k {
            let (ka, kb) = (k0 + tx as u32, k0 + ty as u32);
            // Four bytes each, zero-filled outside the matrix (the source then stays unread).
            let (a_in, b_in) = (a.contains(ty as u32, ka), b.contains(kb, tx as u32));
            // SAFETY: the shared-memory layout is the spec's; the fixture's one bug lies elsewhere,
            // for the emulator to catch.
            unsafe {
                cp_async_ca_4_zfill(shared_address(a_tile.ptr(ty, tx)), if a_in { a.ptr(ty as u32, ka) } else { a.ptr(0, 0) }, 4 * a_in as u32);
                cp_async_ca_4_zfill(shared_address(b_tile.ptr(ty, tx)), if b_in { b.ptr(kb, tx as u32) } else { b.ptr(0, 0) }, 4 * b_in as u32);
            }
            cp_async_commit_group();
            sync_threads();
            for i in 0..BS {
                acc = fma(a_tile.get(ty, i), b_tile.get(i, tx), acc);
            }
            sync_threads();
            k0 += BS as u32;
        }
        gemm.c().window(row0, col0).store(ty as u32, tx as u32, acc);
    }
}

/// Rung 1 (16×16 blocks, [`crate::naive::Naive`]) with one mistake after its dot product, chosen by `WHAT`:
/// - [`NaiveWithBug::PREFETCH_PAST_A`]: it also reads the last element of the row of A one block (16
///   rows) further down, as an unguarded prefetch of the next tile would, and ignores it; in the
///   last block row that is up to 16 rows past A's end.
/// - [`NaiveWithBug::STORE_TO_A`]: it stores its result into A as well as into C.
/// - [`NaiveWithBug::RAW_STORE_TO_B`]: it writes into B with a plain `*ptr = v`, past the device module
///   (so past the emulator's access checks): only the comparison of B after the launch sees it.
/// - [`NaiveWithBug::MISALIGNED_LOAD`]: it reads four floats of A with one vector load from column 1,
///   which is not 16-byte aligned.
pub struct NaiveWithBug<const WHAT: u8>;

impl NaiveWithBug<0> {
    pub const PREFETCH_PAST_A: u8 = 1;
    pub const STORE_TO_A: u8 = 2;
    pub const RAW_STORE_TO_B: u8 = 3;
    pub const MISALIGNED_LOAD: u8 = 4;
}

impl<const WHAT: u8> GemmKernel for NaiveWithBug<WHAT> {
    type Elem = f32;
    const SPEC: KernelSpec = KernelSpec::unnamed(RUNG, Dtype::F32, Tile::block(16, 16, 1), 256, 0);

    unsafe fn run(gemm: &GemmArgs<f32>) {
        let t = thread_idx();
        let (row, col) = (block_row() * 16 + t % 16, block_col() * 16 + t / 16);
        let (a, b, c) = (gemm.a(), gemm.b(), gemm.c());
        if !c.contains(row, col) {
            return;
        }
        let mut acc = 0.0;
        for i in 0..gemm.k {
            // SAFETY: the emulator checks every access; where this line reads outside A or B that is
            // the fixture's bug (the loop bound says which).
            acc = fma(unsafe { a.get(row, i) }, unsafe { b.get(i, col) }, acc);
        }
        c.store(row, col, acc);
        // SAFETY: none; each arm is the fixture's bug, for the emulator (which checks every access
        // made through the device module) to catch.
        match WHAT {
            1 => {
                // SAFETY: the shared-memory layout is the spec's; the fixture's one bug lies elsewhere,
                // for the emulator to catch.
                let _next_tile = unsafe { a.get(row + 16, gemm.k - 1) };
            }
            // SAFETY: the shared-memory layout is the spec's; the fixture's one bug lies elsewhere,
            // for the emulator to catch.
            2 => unsafe { store(a.ptr(row, 0) as *mut f32, acc) },
            // SAFETY: as above: the write into B is the fixture's bug.
            3 => unsafe { *(b.ptr(0, col) as *mut f32) = acc },
            4 => {
                // SAFETY: the shared-memory layout is the spec's; the fixture's one bug lies elsewhere,
                // for the emulator to catch.
                let _four = unsafe { ld_global_v4(a.ptr(row, 1)) };
            }
            _ => {}
        }
    }
}

/// Rung 3 whose B tile starts one row late: its last row lies past the block's dynamic shared
/// memory (a plain shared-memory overrun).
pub struct SharedOverrun;

impl GemmKernel for SharedOverrun {
    type Elem = f32;
    const SPEC: KernelSpec = SPEC;

    unsafe fn run(gemm: &GemmArgs<f32>) {
        // SAFETY: the spec gives the block two BS × BS tiles of f32 (this one and the next); the
        // fixture's one bug lies elsewhere.
        let a_tile = unsafe { SmemTile::new(dynamic_shared(), BS, BS) };
        // SAFETY: none; the tile's last row lies past the shared memory, the fixture's bug.
        let b_tile = unsafe { SmemTile::new(a_tile.end().wrapping_add(BS), BS, BS) };
        let t = thread_idx() as usize;
        let (ty, tx) = (t / BS, t % BS);
        let (row0, col0) = (block_row() * BS as u32, block_col() * BS as u32);
        let (a, b) = (gemm.a().window(row0, 0), gemm.b().window(0, col0));
        let mut acc = 0.0;
        let mut k0 = 0;
        while k0 < gemm.k {
            a_tile.set(ty, tx, a.get_or_zero(ty as u32, k0 + tx as u32));
            b_tile.set(ty, tx, b.get_or_zero(k0 + ty as u32, tx as u32));
            sync_threads();
            for i in 0..BS {
                acc = fma(a_tile.get(ty, i), b_tile.get(i, tx), acc);
            }
            sync_threads();
            k0 += BS as u32;
        }
        gemm.c().window(row0, col0).store(ty as u32, tx as u32, acc);
    }
}

entries! {
    elem = f32;
    broken_prefetch_past_a => NaiveWithBug<{ NaiveWithBug::PREFETCH_PAST_A }>,
    broken_store_to_a => NaiveWithBug<{ NaiveWithBug::STORE_TO_A }>,
    broken_raw_store_to_b => NaiveWithBug<{ NaiveWithBug::RAW_STORE_TO_B }>,
    broken_misaligned_vector_load => NaiveWithBug<{ NaiveWithBug::MISALIGNED_LOAD }>,
    broken_shared_overrun => SharedOverrun,
    broken_missing_barrier_before_compute => MissingBarrier<1>,
    broken_missing_barrier_after_compute => MissingBarrier<2>,
    broken_off_by_one_tail => OffByOneTail,
    broken_early_exit_before_barrier => EarlyExit,
    broken_divergent_barrier => DivergentBarrier,
    broken_cp_async_without_wait => CpAsyncWithoutWait,
}

/// The TMA lesson (`lesson_kernels::tma_box`) announcing 16 bytes more than the copy delivers: the
/// mbarrier's phase never completes and every thread waits forever.
///
/// # Safety
/// As for `lesson_kernels::tma_box`.
pub unsafe fn tma_box_expecting_too_many_bytes(map: *const crate::view::TensorMap) {
    let base = dynamic_shared::<u8>();
    let bar = shared_address(base);
    let box_bytes = crate::lesson_kernels::TMA_BOX * crate::lesson_kernels::TMA_BOX * 4;
    if thread_idx() == 0 {
        // SAFETY: the barrier is the block's, at shared offset 0; the wrong byte count is the
        // fixture's bug, for the emulator to catch.
        unsafe {
            mbarrier_init(bar, 1);
            fence_mbarrier_init();
        }
    }
    sync_threads();
    if thread_idx() == 0 {
        // SAFETY: the barrier is the block's, at shared offset 0; the wrong byte count is the
        // fixture's bug, for the emulator to catch.
        unsafe {
            mbarrier_arrive_expect_tx(bar, box_bytes + 16);
            tma_load_2d(shared_address(base.wrapping_add(1024)), map, 0, 0, bar);
        }
    }
    // SAFETY: the barrier is the block's, at shared offset 0; the wrong byte count is the
    // fixture's bug, for the emulator to catch.
    unsafe { mbarrier_wait(bar, 0) };
}
