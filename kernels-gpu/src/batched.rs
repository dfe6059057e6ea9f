//! # Many small products: one 64×64 tile per block, many blocks per SM
//!
//! Attention heads, experts and small blocks of a factorisation make thousands of products of a
//! few dozen rows each. The ladder's top rungs are built for one large product: a 128×256 tile,
//! a ring of stages that holds most of an SM's shared memory and one block per SM. On a 40×40×40
//! product such a block waits for one round trip of the copy engine, multiplies a corner of its
//! tile and stores; the SM has nothing else to do meanwhile. The work is bound by memory (each
//! element of A and B is used at most 64 times), so what counts is how many bytes are in flight,
//! and that is a matter of how many blocks share an SM.
//!
//! So this kernel is small on purpose: 4 warps, a 64×64 tile of C, a ring of four K-tiles 32 deep
//! (32 KiB of shared memory), the tensor cores through `mma.sync` (rung 12's fragments,
//! `device/mma.rs`). An SM holds several such blocks, and each block has three K-tiles in flight
//! from its start: a product with K ≤ 96 is requested whole before the first multiplication. The
//! operands are copied as they are stored, 16 bytes per `cp.async` (rung 12's `copy_tile`: zero
//! fill past the matrix, element by element through registers where rows are not 16-byte
//! aligned), into 128-byte-swizzled tiles that `ldmatrix` reads without bank conflicts; a
//! transposed operand is transposed by `ldmatrix.trans` on the way to the registers, not by the
//! copy.
//!
//! **Invariants.** Any M, N, K ≥ 1, any layout (one entry per layout), any leading dimension and
//! alignment (16-byte copies where a matrix and its rows start on 16 bytes, checked per product):
//! what lies outside A or B is read as zero, what lies outside C is not written. One product per
//! plane of the grid, so at most 65,535 products (the catalog refuses more): a loop over the
//! batch would keep its state in registers that the blocks sharing an SM do not have. C is written
//! through the fused epilogue ([`crate::epilogue`]), from a tile of f32 staged in the ring's
//! shared memory: under the plain epilogue four neighbouring elements per vector store (rows of
//! C on four elements) or element by element without the fused epilogue's decisions; element by
//! element through it under any other.
//!
//! **Cost.** Operands once from memory per tile row and column (a product larger than the tile
//! reads them again from L2); one block barrier per K-tile; `mma.sync` reaches a part of what
//! `wgmma` does, which is no loss where memory decides.

use crate::prelude::*;
use crate::tile_loader::{aligned_rows, copy_tile};
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::beside(KernelKind::Batched, "batched", "many small products: a 64×64 tile of mma.sync per block, any layout, many blocks per SM");

/// The block's tile of C and the depth of a K-tile.
const BM: u32 = 64;
const BN: u32 = 64;
const BK: u32 = 32;
/// Four warps in a 2×2 grid, each a 32×32 tile of C as 2 × 4 mma tiles of 16×8.
const THREADS: u32 = 128;
const WM: u32 = 32;
const WN: u32 = 32;
const MT: usize = 2;
const NT: usize = 4;
/// K-tiles in the ring: three in flight while the fourth is multiplied.
const STAGES: u32 = 4;
/// Bytes of one operand's K-tile (64 × 32 elements in either orientation) and of one stage.
const TILE_BYTES: u32 = BM * BK * 2;
const STAGE_BYTES: u32 = 2 * TILE_BYTES;

/// Floats between two rows of the tile of C staged in shared memory on its way out: 8 more than
/// a row, so the 16 lanes of a half-warp that store pairs of columns of four rows hit 32 banks.
const C_PITCH: u32 = BN + 8;
/// Shared memory of a block: the ring of K-tiles, then, reusing it, the tile of C.
const SMEM_BYTES: u32 = if STAGES * STAGE_BYTES > BM * C_PITCH * 4 { STAGES * STAGE_BYTES } else { BM * C_PITCH * 4 };
const _: () = {
    assert!(SwizzledTile::valid_width(BK as usize) && SwizzledTile::valid_width(BM as usize) && TILE_BYTES % 1024 == 0);
    assert!(BM == BN && (BM * BK / 8) % THREADS == 0 && BM % WM == 0 && BN % WN == 0 && (BM / WM) * (BN / WN) * 32 == THREADS);
};

/// Many small products (see the module documentation), element type `E`, layout `L`.
pub struct Batched<E, L>(PhantomData<(E, L)>);

impl<E: HalfElem, L: Storage> GemmKernel for Batched<E, L> {
    type Elem = E;
    const SPEC: KernelSpec = KernelSpec::unnamed(RUNG, E::DTYPE, Tile::block(BM, BN, BK).with_warp(WM, WN), THREADS, SMEM_BYTES)
        .with_layout(L::LAYOUT)
        .with_any_alignment()
        .with_fused_epilogue(Fusion::Full)
        .with_min_blocks_per_sm(5);

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        // SAFETY: the caller's guarantee (the entry has moved the operands to this block's product).
        unsafe { Self::product(gemm) };
    }
}

impl<E: HalfElem, L: Storage> Batched<E, L> {
    const A_T: bool = L::LAYOUT.a.is_t();
    const B_T: bool = L::LAYOUT.b.is_t();
    /// The K-tiles as stored (rows, columns): A's `BM × BK` (M×K), or `BK × BM` (stored K×M);
    /// B's `BK × BN` (K×N), or `BN × BK` (stored N×K).
    const A_SHAPE: (u32, u32) = if Self::A_T { (BK, BM) } else { (BM, BK) };
    const B_SHAPE: (u32, u32) = if Self::B_T { (BN, BK) } else { (BK, BN) };

    /// The swizzled tiles of A and B in stage `stage` of the ring.
    #[inline(always)]
    const fn tiles(stage: u32) -> (SwizzledTile, SwizzledTile) {
        let base = (stage * STAGE_BYTES) as usize;
        let ((ar, ac), (br, bc)) = (Self::A_SHAPE, Self::B_SHAPE);
        (SwizzledTile::new(base, ar as usize, ac as usize), SwizzledTile::new(base + TILE_BYTES as usize, br as usize, bc as usize))
    }

    /// `acc += A·B` over the K-tile in `stage`: two mma steps of 16 for this warp's 32×32 tile.
    ///
    /// # Safety
    /// The stage's tiles are complete (waited for and published by a barrier).
    #[inline(always)]
    unsafe fn multiply(smem_addr: u32, stage: u32, wm0: u32, wn0: u32, acc: &mut [[[f32; 4]; NT]; MT]) {
        let lane = lane_idx();
        let (a, b) = Self::tiles(stage);
        for kk in 0..BK / 16 {
            let k = kk * 16;
            let mut af = [[0u32; 4]; MT];
            for (mt, f) in af.iter_mut().enumerate() {
                let m = wm0 + (mt as u32) * 16;
                // SAFETY: every lane's address is a 16-byte row of the stage's tile (the fragment
                // tables of device/ldmatrix.rs and device/mma.rs).
                *f = unsafe {
                    if Self::A_T {
                        // Stored K×M: lane l names row k + l%8 + 8·(l/16) at column m + 8·((l/8)%2).
                        ldmatrix_x4_trans(smem_addr + a.chunk(k + lane % 8 + lane / 16 * 8, m + lane / 8 % 2 * 8))
                    } else {
                        // Stored M×K: lane l names row m + l%16 at column k + 8·(l/16).
                        ldmatrix_x4(smem_addr + a.chunk(m + lane % 16, k + lane / 16 * 8))
                    }
                };
            }
            let mut bf = [[0u32; 2]; NT];
            for np in 0..NT / 2 {
                let n = wn0 + (np as u32) * 16;
                // SAFETY: as above.
                let r = unsafe {
                    if Self::B_T {
                        // Stored N×K: lane l names row n + l%8 + 8·(l/16) at column k + 8·((l/8)%2).
                        ldmatrix_x4(smem_addr + b.chunk(n + lane % 8 + lane / 16 * 8, k + lane / 8 % 2 * 8))
                    } else {
                        // Stored K×N: lane l names row k + l%16 at column n + 8·(l/16).
                        ldmatrix_x4_trans(smem_addr + b.chunk(k + lane % 16, n + lane / 16 * 8))
                    }
                };
                bf[2 * np] = [r[0], r[1]];
                bf[2 * np + 1] = [r[2], r[3]];
            }
            for mt in 0..MT {
                for nt in 0..NT {
                    mma_m16n8k16::<E>(&mut acc[mt][nt], af[mt], bf[nt]);
                }
            }
        }
    }

    /// One product of the batch.
    ///
    /// # Safety
    /// As for [`GemmKernel::run`].
    #[inline(always)]
    unsafe fn product(gemm: &GemmArgs<E>) {
        let smem: *mut u8 = dynamic_shared();
        let smem_addr = shared_address(smem);
        let (tid, warp) = (thread_idx(), warp_idx());
        let (row0, col0) = (block_row() * BM, block_col() * BN);
        let (wm0, wn0) = (warp / (BN / WN) * WM, warp % (BN / WN) * WN);
        let (a, b) = (gemm.stored_a(Self::A_T), gemm.stored_b(Self::B_T));
        let (a_vec, b_vec) = aligned_rows(gemm);
        let k_tiles = gemm.k.div_ceil(BK);

        // Issue the copies of K-tile `kt` into `stage`: each operand's window as stored, at the
        // block's rows (columns) and the K-tile's depth, inside the matrix (row0 < M, col0 < N,
        // kt·BK < K).
        let load = |kt: u32, stage: u32| {
            let k0 = kt * BK;
            let (a_tile, b_tile) = Self::tiles(stage);
            let a_window = if Self::A_T { a.window(k0, row0) } else { a.window(row0, k0) };
            let b_window = if Self::B_T { b.window(col0, k0) } else { b.window(k0, col0) };
            let ((ar, ac), (br, bc)) = (Self::A_SHAPE, Self::B_SHAPE);
            // SAFETY: the tiles lie in this block's shared memory (the ring); the windows' origins
            // lie inside their matrices (above).
            unsafe {
                copy_tile(smem, smem_addr, a_tile, a_window, ar as usize, ac as usize, a_vec, tid, THREADS as usize);
                copy_tile(smem, smem_addr, b_tile, b_window, br as usize, bc as usize, b_vec, tid, THREADS as usize);
            }
        };

        // Prologue: the first STAGES - 1 K-tiles in flight, one group each (empty past K).
        for s in 0..STAGES - 1 {
            if s < k_tiles {
                load(s, s);
            }
            cp_async_commit_group();
        }
        let mut acc = [[[0.0f32; 4]; NT]; MT];
        // Whether this warp's tile reaches into C (row0 < M and col0 < N: the block's tile does).
        let busy = wm0 < gemm.m - row0 && wn0 < gemm.n - col0;
        let (mut read, mut write) = (0, STAGES - 1);
        for kt in 0..k_tiles {
            // K-tile kt has landed for this thread; after the barrier, for every thread. The
            // barrier also means every warp is done with K-tile kt - 1, whose stage is `write`.
            cp_async_wait_pending((STAGES - 2) as usize);
            sync_threads();
            if kt + STAGES - 1 < k_tiles {
                load(kt + STAGES - 1, write);
            }
            cp_async_commit_group();
            // A warp whose tile lies wholly outside C (a product smaller than the block's tile)
            // has nothing to multiply: its sums stay zero and are never stored.
            if busy {
                // SAFETY: the stage's copies are complete and published (above).
                unsafe { Self::multiply(smem_addr, read, wm0, wn0, &mut acc) };
            }
            read = if read + 1 == STAGES { 0 } else { read + 1 };
            write = if write + 1 == STAGES { 0 } else { write + 1 };
        }
        // Every warp is done with the ring (and no copy is pending: the groups past K are empty)
        // before the tile of C overwrites it.
        sync_threads();
        // SAFETY: as just said; the block's shared memory holds SMEM_BYTES.
        unsafe { Self::store(gemm, smem, row0, col0, wm0, wn0, &acc) };
    }

    /// Writes the block's tile of C through the fused epilogue: the warps' accumulators into
    /// shared memory (rows of [`C_PITCH`] floats), then each warp a row of C at a time, its lanes
    /// on neighbouring columns, so the stores to C are whole segments in any output type; only
    /// the rows and columns that lie inside C are visited.
    ///
    /// # Safety
    /// No thread reads the staged K-tiles any more; the block's shared memory holds
    /// [`SMEM_BYTES`].
    #[inline(always)]
    unsafe fn store(gemm: &GemmArgs<E>, smem: *mut u8, row0: u32, col0: u32, wm0: u32, wn0: u32, acc: &[[[f32; 4]; NT]; MT]) {
        let tile = smem as *mut f32;
        // Lane (g, t) holds rows g and g + 8, columns 2t and 2t + 1 of each 16×8 mma tile.
        let lane = lane_idx();
        let (g, t2) = (lane / 4, lane % 4 * 2);
        for mt in 0..MT {
            for nt in 0..NT {
                let (r, col) = (wm0 + (mt * 16) as u32 + g, wn0 + (nt * 8) as u32 + t2);
                let d = acc[mt][nt];
                // SAFETY: (r, col) and (r + 8, col) lie in the 64 × C_PITCH tile, 8-byte
                // aligned (col is even, C_PITCH too).
                unsafe {
                    st_shared_v2(tile.add((r * C_PITCH + col) as usize), [d[0], d[1]]);
                    st_shared_v2(tile.add(((r + 8) * C_PITCH + col) as usize), [d[2], d[3]]);
                }
            }
        }
        sync_threads();
        // Only the part of the tile that lies inside C.
        let c = gemm.fused_c().window(row0, col0);
        let (rows, cols) = (c.rows.min(BM), c.cols.min(BN));
        let warp = warp_idx();
        if c.stores_quads() {
            // The plain epilogue: four neighbouring columns per lane, one vector store each, a
            // row of 64 per half-warp.
            let (half, q) = (lane / 16, lane % 16 * 4);
            let mut r = 2 * warp + half;
            while r < rows {
                if q < cols {
                    // SAFETY: inside the tile (16-byte aligned: C_PITCH and q are multiples of
                    // 4), which every warp wrote before the barrier; `stores_quads` holds (above).
                    unsafe { c.store4(r, q, ld_shared_v4(tile.add((r * C_PITCH + q) as usize))) };
                }
                r += 2 * THREADS / 32;
            }
        } else {
            // Element by element; the plain epilogue without the fused one's decisions per
            // element.
            // SAFETY: every warp wrote the tile before the barrier.
            unsafe {
                if c.is_plain() {
                    each_staged(tile, rows, cols, |r, col, v| c.store_plain(r, col, v));
                } else {
                    each_staged(tile, rows, cols, |r, col, v| c.store(r, col, v));
                }
            }
        }
        // Every thread has read its values before the next product's K-tiles overwrite them.
        sync_threads();
    }
}

/// Calls `put(r, col, v)` for each element `v` of the staged tile of C inside `rows × cols`: a
/// warp per row, its lanes on neighbouring columns (64 columns: two per lane).
///
/// # Safety
/// `tile` is the block's staged tile of C (rows of [`C_PITCH`] floats), written before a barrier.
#[inline(always)]
unsafe fn each_staged(tile: *const f32, rows: u32, cols: u32, put: impl Fn(u32, u32, f32)) {
    let (warp, lane) = (warp_idx(), lane_idx());
    let mut r = warp;
    while r < rows {
        let mut col = lane;
        while col < cols {
            // SAFETY: inside the tile (the caller's guarantee).
            put(r, col, unsafe { load(tile.add((r * C_PITCH + col) as usize)) });
            col += 32;
        }
        r += THREADS / 32;
    }
}

entries! {
    for E in (bgemm: Bf16, hgemm: F16);
    bgemm_00_batched_64x64x32_w32x32 | hgemm_00_batched_64x64x32_w32x32 => Batched<E, Nn>,
    bgemm_00_batched_64x64x32_w32x32_nt | hgemm_00_batched_64x64x32_w32x32_nt => Batched<E, Nt>,
    bgemm_00_batched_64x64x32_w32x32_tn | hgemm_00_batched_64x64x32_w32x32_tn => Batched<E, Tn>,
    bgemm_00_batched_64x64x32_w32x32_tt | hgemm_00_batched_64x64x32_w32x32_tt => Batched<E, Tt>,
}
