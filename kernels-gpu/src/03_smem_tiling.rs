//! # Rung 3 — shared-memory tiling
//!
//! In rung 2 every element of A is read from global memory N times and every element of B M times.
//! Here a block first copies a `BS × BS` tile of A and one of B into shared memory (each thread
//! copies one element of each), waits at a barrier, and then every thread computes its partial dot
//! product from shared memory. Each global element is now read N/BS (or M/BS) times: BS times less
//! traffic. Two barriers per step: the first so no thread reads a tile before it is complete, the
//! second so no thread overwrites a tile another thread is still reading.
//!
//! Tails: elements outside A or B are stored as zeros, so a partial tile adds nothing.
//!
//! Cost: global traffic falls `BS`×, but each multiply-add now needs two shared-memory loads, and
//! every step two barriers: shared-memory bandwidth and the barriers bound it, far above the
//! arithmetic floor.
//!
//! Measured speed and what limits it at each size: `book/src/rung-03-smem-tiling.md` and `docs/perf/`.

use crate::prelude::*;

pub const RUNG: Rung = Rung::ladder(3, "smem_tiling", "stage BS×BS tiles of A and B in shared memory");

/// `BS × BS` tiles of A, B and C; `BS²` threads, one element of each per thread.
pub struct SmemTiling<const BS: usize>;

impl<const BS: usize> GemmKernel for SmemTiling<BS> {
    type Elem = f32;
    const SPEC: KernelSpec = KernelSpec::unnamed(
        RUNG,
        Dtype::F32,
        Tile::block(BS as u32, BS as u32, BS as u32),
        (BS * BS) as u32,
        (2 * SmemTile::elems(BS, BS) * 4) as u32,
    );

    // ANCHOR: run
    unsafe fn run(gemm: &GemmArgs<f32>) {
        // SAFETY: the spec's shared-memory size holds this tile at the block's dynamic shared base.
        let a_tile = unsafe { SmemTile::new(dynamic_shared(), BS, BS) };
        // SAFETY: the spec's shared-memory size holds this tile right after the previous one.
        let b_tile = unsafe { SmemTile::new(a_tile.end(), BS, BS) };

        let t = thread_idx() as usize;
        let (ty, tx) = (t / BS, t % BS);
        let bs = BS as u32;
        let (row0, col0) = (block_row() * bs, block_col() * bs);
        let a = gemm.a().window(row0, 0);
        let b = gemm.b().window(0, col0);

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
            k0 += bs;
        }
        gemm.c().window(row0, col0).store(ty as u32, tx as u32, acc);
    }
    // ANCHOR_END: run
}

entries! {
    elem = f32;
    sgemm_03_smem_tiling_32x32x32 => SmemTiling<32>,
    sgemm_03_smem_tiling_16x16x16 => SmemTiling<16>,
}
