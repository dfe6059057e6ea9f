//! # Rung 12 — tensor cores with `mma.sync`
//!
//! **Idea.** From here on A and B are 16-bit (bf16 or f16) and the multiplications run on the
//! tensor cores: `mma.sync.m16n8k16` makes one warp compute a 16×8 block of C from fragments spread
//! over its registers (the table is in `device/mma.rs`). Everything else feeds those fragments: a
//! warp tile of `MT × NT` mma tiles reuses each fragment from registers, `ldmatrix.x4` (and
//! `.trans` for row-major B) loads them from shared memory, and `cp.async` keeps `STAGES` K-tiles
//! in flight.
//!
//! **Invariants.** Shared tiles are XOR-swizzled (chunk `c` of 128-byte line `l` at `c ^ (l % 8)`,
//! `swizzle.rs`; B as 64-column panels), so `ldmatrix` reads and `cp.async` writes are
//! conflict-free. Each thread commits one group per K-tile (empty past the end), so "tile `kt` has
//! arrived" is `wait_group(STAGES - 2)`, and one barrier per tile publishes it and frees the buffer
//! of tile `kt - 1`. Every M, N, K ≥ 1 works: zero-filled copies past the edges, predicated stores,
//! element-wise loads through registers for rows that are not 16-byte aligned.
//!
//! **Cost.** The floor is the tensor cores' dense 16-bit peak; `mma.sync` is Ampere's instruction,
//! issued per warp from registers that `ldmatrix` must fill, and the next rung replaces both.
//! [`MmaSyncPipelined`] (`_fp`) loads the fragments of step `kk + 1` while step `kk` computes, and
//! its interior blocks copy with plain `cp.async` from immediate offsets
//! ([`SwizzledTile::moved`]).
//!
//! Tiles, the pipeline, fragments, the pipelined variant and the measured speed:
//! `book/src/rung-12-mma-sync.md` (and `book/src/ldmatrix.md`, `book/src/mma-fragments.md`).

use crate::prelude::*;
use crate::tile_loader::{aligned_rows, copy_interior_tile, TileLoader};
use core::marker::PhantomData;

/// Rung 12's plain kernel under a short name, for the variants that reuse its parts.
type Basic<E, const T: Tile, W> = MmaSync<E, T, W>;

pub const RUNG: Rung = Rung::ladder(12, "mma_sync", "tensor cores: ldmatrix + mma.sync from swizzled, cp.async-pipelined tiles");

/// A warp's tile as `MT × NT` mma tiles of 16×8: a warp tile of `16·MT × 8·NT`, `MT·NT·4` f32
/// accumulators per thread. A type rather than part of the [`Tile`] value, because `MT` and `NT`
/// size the fragment and accumulator arrays.
pub struct WarpMmas<const MT: usize, const NT: usize>;

/// Elements `E`, tile `T`: a `bm × bn` block tile, K-tiles `bk` deep, `stages` shared-memory
/// buffers; each warp computes a [`WarpMmas<MT, NT>`] tile. Warps: `(bm / 16MT) · (bn / 8NT)`.
pub struct MmaSync<E, const T: Tile, W>(PhantomData<(E, W)>);

impl<E: HalfElem, const T: Tile, const MT: usize, const NT: usize> MmaSync<E, T, WarpMmas<MT, NT>> {
    const BM: usize = T.bm as usize;
    const BN: usize = T.bn as usize;
    const BK: usize = T.bk as usize;
    const STAGES: usize = T.stages as usize;
    const WM: usize = 16 * MT;
    const WN: usize = 8 * NT;
    const THREADS: usize = (Self::BM / Self::WM) * (Self::BN / Self::WN) * 32;

    /// Bytes of A's tile and of one stage for K-tiles `bk` deep. The K-tile depth is a value, not
    /// only `T`'s: [`MmaSyncPipelined`] runs this pipeline with 32-deep K-tiles on its edges.
    #[inline(always)]
    const fn a_bytes(bk: usize) -> usize {
        SwizzledTile::bytes(Self::BM, bk)
    }
    #[inline(always)]
    const fn stage_bytes(bk: usize) -> usize {
        Self::a_bytes(bk) + SwizzledTile::bytes(bk, Self::BN)
    }

    /// The shapes this kernel is written for with K-tiles `bk` deep, checked when the
    /// specification is built.
    const fn check(bk: usize) {
        let (bm, bn) = (Self::BM, Self::BN);
        assert!(bm % Self::WM == 0 && bn % Self::WN == 0, "warp tiles must divide the block tile");
        assert!(NT % 2 == 0, "B fragments are loaded two n-tiles at a time");
        assert!(bk % 16 == 0, "K-tiles are whole mma steps");
        assert!(SwizzledTile::valid_width(bk) && SwizzledTile::valid_width(bn), "tile widths: 32 or multiples of 64");
        assert!((bm * bk / 8) % Self::THREADS == 0 && (bk * bn / 8) % Self::THREADS == 0, "copies split evenly");
        assert!(Self::a_bytes(bk) % 1024 == 0 && Self::stage_bytes(bk) % 1024 == 0, "tiles start on swizzle blocks");
        assert!(Self::STAGES >= 2);
    }
    const VALID: () = Self::check(Self::BK);

    /// Shared-memory tiles of A (`bm × bk`) and B (`bk × bn`) of one stage.
    #[inline(always)]
    const fn tiles(stage: usize, bk: usize) -> (SwizzledTile, SwizzledTile) {
        let base = stage * Self::stage_bytes(bk);
        (SwizzledTile::new(base, Self::BM, bk), SwizzledTile::new(base + Self::a_bytes(bk), bk, Self::BN))
    }
}

impl<E: HalfElem, const T: Tile, const MT: usize, const NT: usize> GemmKernel for MmaSync<E, T, WarpMmas<MT, NT>> {
    type Elem = E;
    const SPEC: KernelSpec = {
        let () = Self::VALID;
        KernelSpec::unnamed(
            RUNG,
            E::DTYPE,
            T.with_warp(Self::WM as u32, Self::WN as u32),
            Self::THREADS as u32,
            (Self::STAGES * Self::stage_bytes(Self::BK)) as u32,
        )
    };

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        // SAFETY: the caller's guarantee for `gemm` and this block's shared memory, passed on.
        let acc = unsafe { Self::accumulate(gemm, Self::BK) };
        Self::store(gemm, &acc);
    }
}

impl<E: HalfElem, const T: Tile, const MT: usize, const NT: usize> MmaSync<E, T, WarpMmas<MT, NT>> {
    /// The first row and column of this block's tile of C, and of this warp's tile within it.
    #[inline(always)]
    fn corners() -> (u32, u32, u32, u32) {
        let warp = warp_idx() as usize;
        let (wm0, wn0) = ((warp / (Self::BN / Self::WN) * Self::WM) as u32, (warp % (Self::BN / Self::WN) * Self::WN) as u32);
        (block_row() * Self::BM as u32, block_col() * Self::BN as u32, wm0, wn0)
    }

    /// This warp's tile of `A·B`, in the mma accumulator layout, from K-tiles `bk` deep (`T`'s, or
    /// 32 on the edges of [`MmaSyncPipelined`]).
    ///
    /// # Safety
    /// As for [`GemmKernel::run`]; `bk` passes [`check`](Self::check), in a constant expression.
    #[inline(always)]
    unsafe fn accumulate(gemm: &GemmArgs<E>, bk: usize) -> [[[f32; 4]; NT]; MT] {
        let smem: *mut u8 = dynamic_shared();
        let smem_addr = shared_address(smem);
        let (tid, lane) = (thread_idx(), lane_idx());
        let (row0, col0, wm0, wn0) = Self::corners();
        let (a, b) = (gemm.a().window(row0, 0), gemm.b().window(0, col0));
        let (a_vec, b_vec) = aligned_rows(gemm);
        let k_tiles = gemm.k.div_ceil(bk as u32);

        let loader = TileLoader { smem, smem_addr, a, b, a_vec, b_vec, tid, threads: Self::THREADS };
        // Issue the copies of K-tile `kt` into buffer `stage`.
        let load = |kt: u32, stage: usize| {
            let (a_tile, b_tile) = Self::tiles(stage, bk);
            // SAFETY: the caller's guarantee for `gemm` and this block's shared memory, passed on.
            unsafe { loader.load(a_tile, b_tile, kt * bk as u32, Self::BM, Self::BN, bk) };
        };

        // ANCHOR: pipeline
        // Prologue: the first STAGES-1 tiles in flight, one group each.
        for s in 0..Self::STAGES - 1 {
            if (s as u32) < k_tiles {
                load(s as u32, s);
            }
            cp_async_commit_group();
        }

        let mut acc = [[[0.0f32; 4]; NT]; MT];
        let (mut read_stage, mut write_stage) = (0, Self::STAGES - 1);
        for kt in 0..k_tiles {
            // Tile kt has landed for this thread; after the barrier, for every thread. The barrier
            // also means every warp is done with tile kt-1, whose buffer is `write_stage`.
            cp_async_wait_pending(Self::STAGES - 2);
            sync_threads();
            let next = kt + Self::STAGES as u32 - 1;
            if next < k_tiles {
                load(next, write_stage);
            }
            cp_async_commit_group();
            // ANCHOR_END: pipeline

            // ANCHOR: fragments
            let (a_tile, b_tile) = Self::tiles(read_stage, bk);
            for kk in 0..bk / 16 {
                let k = (kk * 16) as u32;
                // Lane l addresses row l % 16, columns 8·(l / 16) .. +8 of a 16×16 block: the
                // four 8×8 matrices of ldmatrix.x4 in fragment order (see device/ldmatrix.rs).
                let (r16, c8) = (lane % 16, lane / 16 * 8);
                let mut af = [[0u32; 4]; MT];
                for (mt, f) in af.iter_mut().enumerate() {
                    // SAFETY: each lane's address is a 16-byte row inside the stage's tile, which
                    // the wait above made complete.
                    *f = unsafe { ldmatrix_x4(smem_addr + a_tile.chunk(wm0 + (mt * 16) as u32 + r16, k + c8)) };
                }
                let mut bf = [[0u32; 2]; NT];
                for np in 0..NT / 2 {
                    // SAFETY: each lane's address is a 16-byte row inside the stage's tile, which
                    // the wait above made complete.
                    let r = unsafe { ldmatrix_x4_trans(smem_addr + b_tile.chunk(k + r16, wn0 + (np * 16) as u32 + c8)) };
                    bf[2 * np] = [r[0], r[1]];
                    bf[2 * np + 1] = [r[2], r[3]];
                }
                for mt in 0..MT {
                    for nt in 0..NT {
                        mma_m16n8k16::<E>(&mut acc[mt][nt], af[mt], bf[nt]);
                    }
                }
            }
            // ANCHOR_END: fragments
            read_stage = if read_stage + 1 == Self::STAGES { 0 } else { read_stage + 1 };
            write_stage = if write_stage + 1 == Self::STAGES { 0 } else { write_stage + 1 };
        }
        // No copies of real tiles are pending here (the last groups are empty), so the shared
        // memory can be left as is.
        acc
    }

    /// Writes `alpha·acc + beta·C` for this warp's tile.
    #[inline(always)]
    fn store(gemm: &GemmArgs<E>, acc: &[[[f32; 4]; NT]; MT]) {
        let (row0, col0, wm0, wn0) = Self::corners();
        let lane = lane_idx();
        // ANCHOR: epilogue
        // CStore: lane (g, t) holds rows g and g+8, columns 2t and 2t+1 of each 16×8 tile.
        let c = gemm.c().window(row0 + wm0, col0 + wn0);
        let (g, t2) = (lane / 4, lane % 4 * 2);
        for mt in 0..MT {
            for nt in 0..NT {
                let (r, col) = ((mt * 16) as u32 + g, (nt * 8) as u32 + t2);
                let d = acc[mt][nt];
                c.store(r, col, d[0]);
                c.store(r, col + 1, d[1]);
                c.store(r + 8, col, d[2]);
                c.store(r + 8, col + 1, d[3]);
            }
        }
        // ANCHOR_END: epilogue
    }
}

/// The chunks of a lane's `ldmatrix` rows for step 0 of its warp tile in stage 0: of A, row
/// `wm0 + l % 16`, column `8·(l / 16)`; of B, row `l % 16`, column `wn0 + 8·(l / 16)` (lane `l`
/// addresses row `l % 16`, columns `8·(l / 16) .. +8` of a 16×16 block: the four 8×8 matrices of
/// `ldmatrix.x4` in fragment order, see `device/ldmatrix.rs`). Every other step, fragment and
/// stage is a [`SwizzledTile::moved`] of these from the stage's address.
#[derive(Clone, Copy)]
struct LaneChunks {
    a: u32,
    b: u32,
}

/// The operands of one 16-deep mma step of a warp tile: `MT` A fragments (16×16 each) and `NT`
/// B fragments (16×8 each), as `ldmatrix` leaves them.
#[derive(Clone, Copy)]
struct StepFragments<const MT: usize, const NT: usize> {
    a: [[u32; 4]; MT],
    b: [[u32; 2]; NT],
}

impl<const MT: usize, const NT: usize> StepFragments<MT, NT> {
    const EMPTY: Self = StepFragments { a: [[0; 4]; MT], b: [[0; 2]; NT] };

    /// Loads step `k` (a multiple of 16) from the stage at shared address `stage_addr`, whose
    /// tiles have the shapes of `a_tile` and `b_tile` (those of stage 0).
    ///
    /// # Safety
    /// The stage lies in this block's shared memory; all 32 lanes call it together.
    #[inline(always)]
    unsafe fn load(stage_addr: u32, a_tile: SwizzledTile, b_tile: SwizzledTile, lane: LaneChunks, k: u32) -> Self {
        let mut f = Self::EMPTY;
        for mt in 0..MT {
            // SAFETY: each lane's address is a 16-byte row inside the stage's tile, which the wait
            // above made complete.
            f.a[mt] = unsafe { ldmatrix_x4(a_tile.moved(stage_addr, lane.a, (mt * 16) as u32, k)) };
        }
        for np in 0..NT / 2 {
            // SAFETY: each lane's address is a 16-byte row inside the stage's tile, which the wait
            // above made complete.
            let r = unsafe { ldmatrix_x4_trans(b_tile.moved(stage_addr, lane.b, k, (np * 16) as u32)) };
            f.b[2 * np] = [r[0], r[1]];
            f.b[2 * np + 1] = [r[2], r[3]];
        }
        f
    }

    /// `acc += A · B` for this step: `MT · NT` mmas.
    #[inline(always)]
    fn mma<E: HalfElem>(&self, acc: &mut [[[f32; 4]; NT]; MT]) {
        for mt in 0..MT {
            for nt in 0..NT {
                mma_m16n8k16::<E>(&mut acc[mt][nt], self.a[mt], self.b[nt]);
            }
        }
    }
}


/// Rung 12 with the latencies hidden (see the module documentation): fragments of the next mma
/// step are loaded while the tensor cores work on the current one, across the K-tile boundary too,
/// and interior blocks copy without edge checks. Same tiles, layout and tails as [`MmaSync`];
/// `BK` is 32 or 64 (an even number of mma steps, so the step `kk` uses fragment buffer `kk % 2`
/// in every K-tile). `MIN_BLOCKS` blocks share an SM (`.minnctapersm`; 1 leaves ptxas free).
pub struct MmaSyncPipelined<E, const T: Tile, W, const MIN_BLOCKS: usize = 1>(PhantomData<(E, W)>);

impl<E: HalfElem, const T: Tile, const MT: usize, const NT: usize, const MIN_BLOCKS: usize> MmaSyncPipelined<E, T, WarpMmas<MT, NT>, MIN_BLOCKS> {
    const BM: usize = T.bm as usize;
    const BN: usize = T.bn as usize;
    const BK: usize = T.bk as usize;
    const STAGES: usize = T.stages as usize;
    const WM: usize = 16 * MT;
    const WN: usize = 8 * NT;
    const THREADS: usize = (Self::BM / Self::WM) * (Self::BN / Self::WN) * 32;
    const A_BYTES: usize = SwizzledTile::bytes(Self::BM, Self::BK);
    const STAGE_BYTES: usize = Self::A_BYTES + SwizzledTile::bytes(Self::BK, Self::BN);
    /// mma steps per K-tile.
    const STEPS: usize = Self::BK / 16;

    const VALID: () = {
        Basic::<E, T, WarpMmas<MT, NT>>::check(Self::BK);
        Basic::<E, T, WarpMmas<MT, NT>>::check(32);
        assert!(Self::BK % 32 == 0, "an even number of mma steps per K-tile");
        assert!(Self::THREADS % (Self::BK / 8) == 0 && Self::THREADS % (Self::BN / 8) == 0, "a thread copies one column of chunks");
        assert!(MIN_BLOCKS >= 1 && MIN_BLOCKS * Self::STAGES * Self::STAGE_BYTES <= 227 * 1024, "shared memory of MIN_BLOCKS blocks");
        // Fragment addresses are moves from one chunk per lane (SwizzledTile::moved): down by
        // whole swizzle blocks, right within one 128-byte line.
        let (a_tile, b_tile) = Self::tiles(0);
        assert!(a_tile.moves_by_blocks(16) && b_tile.moves_by_blocks(16));
        assert!(Self::BK <= 64 && 64 % Self::WN == 0, "steps and n-tiles stay within a 128-byte line");
        // So are the fast copies' moves (see copy_interior_tile).
        assert!(a_tile.moves_by_blocks((Self::THREADS / (Self::BK / 8)) as u32) && b_tile.moves_by_blocks((Self::THREADS / (Self::BN / 8)) as u32));
    };

    #[inline(always)]
    const fn tiles(stage: usize) -> (SwizzledTile, SwizzledTile) {
        let base = stage * Self::STAGE_BYTES;
        (SwizzledTile::new(base, Self::BM, Self::BK), SwizzledTile::new(base + Self::A_BYTES, Self::BK, Self::BN))
    }

    /// This warp's tile of `A·B` for an interior block (see `run`).
    ///
    /// # Safety
    /// As for [`GemmKernel::run`]; the block is interior.
    #[inline(always)]
    unsafe fn accumulate_interior(gemm: &GemmArgs<E>) -> [[[f32; 4]; NT]; MT] {
        let smem_addr = shared_address(dynamic_shared::<u8>());
        let (tid, lane) = (thread_idx(), lane_idx());
        let (row0, col0, wm0, wn0) = Basic::<E, T, WarpMmas<MT, NT>>::corners();
        let (a, b) = (gemm.a().window(row0, 0), gemm.b().window(0, col0));
        let k_tiles = gemm.k / Self::BK as u32;

        // ANCHOR: pipelined_load
        // Issue the copies of K-tile `kt` into buffer `stage`.
        let load = |kt: u32, stage: usize| {
            let (a_tile, b_tile) = Self::tiles(stage);
            let k0 = kt * Self::BK as u32;
            // SAFETY: interior block: every chunk of both tiles lies inside A and B with
            // 16-byte-aligned rows.
            unsafe {
                copy_interior_tile(smem_addr, a_tile, a.window(0, k0), Self::BM, Self::BK, tid, Self::THREADS);
                copy_interior_tile(smem_addr, b_tile, b.window(k0, 0), Self::BK, Self::BN, tid, Self::THREADS);
            }
        };
        // ANCHOR_END: pipelined_load
        let (a_tile0, b_tile0) = Self::tiles(0);
        let (r16, c8) = (lane % 16, lane / 16 * 8);
        let lane_chunks = LaneChunks { a: a_tile0.chunk(wm0 + r16, c8), b: b_tile0.chunk(r16, wn0 + c8) };
        let fragments = |stage: usize, step: usize| {
            let stage_addr = smem_addr + (stage * Self::STAGE_BYTES) as u32;
            // SAFETY: the caller's guarantee for `gemm` and this block's shared memory, passed on.
            unsafe { StepFragments::<MT, NT>::load(stage_addr, a_tile0, b_tile0, lane_chunks, (step * 16) as u32) }
        };
        let next = |stage: usize| if stage + 1 == Self::STAGES { 0 } else { stage + 1 };

        // ANCHOR: pipelined
        // Prologue: the first STAGES-1 tiles in flight, one group each; wait for tile 0 and load
        // the fragments of its first step.
        for s in 0..Self::STAGES - 1 {
            if (s as u32) < k_tiles {
                load(s as u32, s);
            }
            cp_async_commit_group();
        }
        cp_async_wait_pending(Self::STAGES - 2);
        sync_threads();

        let mut acc = [[[0.0f32; 4]; NT]; MT];
        // Step kk of every K-tile uses buffer kk % 2; buffer 0 holds the first step of tile 0.
        let mut frags = [fragments(0, 0), StepFragments::<MT, NT>::EMPTY];
        let (mut read_stage, mut write_stage) = (0, Self::STAGES - 1);
        for kt in 0..k_tiles {
            // Buffer `write_stage` held tile kt-1, which every warp finished reading before the
            // barrier of the previous iteration.
            let ahead = kt + Self::STAGES as u32 - 1;
            if ahead < k_tiles {
                load(ahead, write_stage);
            }
            cp_async_commit_group();

            // Unrolled: the fragment buffers must be indexed by constants to stay in registers.
            unroll!(Self::STEPS, |kk| {
                // Load the operands of the following step before the mmas of this one.
                if kk + 1 < Self::STEPS {
                    frags[(kk + 1) % 2] = fragments(read_stage, kk + 1);
                } else if kt + 1 < k_tiles {
                    // The following step is the first of tile kt+1: wait until it has landed for
                    // this thread, then for every thread. The barrier also means every warp has
                    // read all of tile kt (its last step is in registers), so the next iteration
                    // may overwrite that buffer.
                    cp_async_wait_pending(Self::STAGES - 2);
                    sync_threads();
                    frags[0] = fragments(next(read_stage), 0);
                }
                frags[kk % 2].mma::<E>(&mut acc);
            });
            read_stage = next(read_stage);
            write_stage = next(write_stage);
        }
        // ANCHOR_END: pipelined
        acc
    }
}

impl<E: HalfElem, const T: Tile, const MT: usize, const NT: usize, const MIN_BLOCKS: usize> GemmKernel
    for MmaSyncPipelined<E, T, WarpMmas<MT, NT>, MIN_BLOCKS>
{
    type Elem = E;
    const SPEC: KernelSpec = {
        let () = Self::VALID;
        let spec = KernelSpec::unnamed(
            RUNG,
            E::DTYPE,
            T.with_warp(Self::WM as u32, Self::WN as u32),
            Self::THREADS as u32,
            (Self::STAGES * Self::STAGE_BYTES) as u32,
        )
        .with_variant(Variant::MmaSyncPipelined);
        if MIN_BLOCKS > 1 { spec.with_min_blocks_per_sm(MIN_BLOCKS as u32) } else { spec }
    };

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        let (row0, col0, _, _) = Basic::<E, T, WarpMmas<MT, NT>>::corners();
        let (a_vec, b_vec) = aligned_rows(gemm);
        // Interior: the block's rows of A and columns of B all exist, every K-tile is whole and
        // every row is 16-byte aligned, so every copy is a plain one. Other blocks (at the edges
        // of C, or any block when K % BK ≠ 0 or rows are unaligned) run rung 12's plain pipeline
        // on the same block and warp tiles.
        let interior = a_vec
            && b_vec
            && gemm.k % Self::BK as u32 == 0
            && gemm.a().window(row0, 0).covers(Self::BM as u32, 1)
            && gemm.b().window(0, col0).covers(1, Self::BN as u32);
        // The plain pipeline takes K-tiles of 32 whatever BK is: half as many copies per thread
        // (and registers to address them) for BK = 64, in at most half of this kernel's shared
        // memory.
        let acc = if interior {
            // SAFETY: the caller's guarantee for `gemm` and this block's shared memory, passed on.
            unsafe { Self::accumulate_interior(gemm) }
        } else {
            // SAFETY: the caller's guarantee for `gemm` and this block's shared memory, passed on.
            unsafe { Basic::<E, T, WarpMmas<MT, NT>>::accumulate(gemm, 32) }
        };
        Basic::<E, T, WarpMmas<MT, NT>>::store(gemm, &acc);
    }
}

entries! {
    for E in (bgemm: Bf16, hgemm: F16);
    bgemm_12_mma_sync_128x128x32_w64x32_s4 | hgemm_12_mma_sync_128x128x32_w64x32_s4
        => MmaSync<E, { Tile::block(128, 128, 32).with_stages(4) }, WarpMmas<4, 4>>,
    bgemm_12_mma_sync_128x256x32_w64x64_s3 | _
        => MmaSync<E, { Tile::block(128, 256, 32).with_stages(3) }, WarpMmas<4, 8>>,
    bgemm_12_mma_sync_128x256x32_w64x64_s4 | _
        => MmaSync<E, { Tile::block(128, 256, 32).with_stages(4) }, WarpMmas<4, 8>>,
    bgemm_12_mma_sync_128x256x32_w64x64_s4_fp | _
        => MmaSyncPipelined<E, { Tile::block(128, 256, 32).with_stages(4) }, WarpMmas<4, 8>>,
    bgemm_12_mma_sync_128x256x64_w64x64_s3_fp | _
        => MmaSyncPipelined<E, { Tile::block(128, 256, 64).with_stages(3) }, WarpMmas<4, 8>>,
    bgemm_12_mma_sync_128x256x64_w64x64_s4_fp | _
        => MmaSyncPipelined<E, { Tile::block(128, 256, 64).with_stages(4) }, WarpMmas<4, 8>>,
    bgemm_12_mma_sync_256x128x64_w64x64_s4_fp | _
        => MmaSyncPipelined<E, { Tile::block(256, 128, 64).with_stages(4) }, WarpMmas<4, 8>>,
    bgemm_12_mma_sync_128x128x64_w64x64_s3_fp | hgemm_12_mma_sync_128x128x64_w64x64_s3_fp
        => MmaSyncPipelined<E, { Tile::block(128, 128, 64).with_stages(3) }, WarpMmas<4, 8>, 2>,
}
