//! # Rung 16 — FP8 operands, the sum flushed into f32
//!
//! **Idea.** Hopper's tensor cores multiply 8-bit floats (`e4m3`: 4 exponent bits, 3 mantissa
//! bits, finite up to ±448) at twice the rate of bf16, and an FP8 matrix is half the bytes. Rung
//! 14's kernel already moves bytes, not elements: a K-tile is one 128-byte swizzled row per row of
//! the tile, the copy engine fills it and a matrix descriptor describes it; one `wgmma` takes 32
//! bytes of K. So the same ring, producer, tile order and epilogues carry FP8 with a K-tile of
//! 128 elements instead of 64 and the `k32` form of the instruction (`device::wgmma`). What FP8
//! adds is in two places:
//!
//! - **K-major only.** FP8 `wgmma` has no transposed forms: both operands must have K contiguous
//!   in shared memory. A linear layer (`y = x·Wᵀ`, the `nt` layout: x is M×K, W is N×K) is
//!   exactly that; the catalog refuses other layouts with an error.
//! - **The sum.** The tensor cores add FP8 products into their accumulators with fewer bits
//!   than an f32 keeps, so a sum that runs through all of K in the tensor cores (`_noflush`)
//!   loses accuracy as K grows. Every `FLUSH` K-tiles this rung lets the tensor cores start a
//!   new sum and adds the one just finished into f32 registers (`mainloop_flushed`): the same
//!   remedy as rung 15's flush of the tf32 sums (libraries call it *promotion*). The price is a
//!   second set of accumulators (so tiles at most 128 columns wide) and a wait for the tensor
//!   cores at every flush, which the other consumer warpgroup's `wgmma`s cover.
//!
//! **Invariants.** Those of rung 14, plus: with `FLUSH > 0` a consumer holds two sets of
//! accumulators, `sum` (the tensor cores') and `acc` (f32, added to once per flush); a flush
//! waits for every group of the consumer (`wait_group 0`) before it reads `sum`, and the next
//! K-tile's first `wgmma` overwrites `sum` (scale-d 0). The stages a flush waited for are
//! released at once; between flushes one group stays in flight, as in rung 14. Per-tensor scales
//! of A and B enter as alpha (the host multiplies them in): `C = alpha·sa·sb·A·B`.
//!
//! **Cost.** Operand bytes and tensor-core time halve against bf16. A flush costs the consumer its
//! pipeline once per `FLUSH` K-tiles (64 additions per thread, and the wait); with two consumer
//! warpgroups the tensor cores stay busy with the other's tile. The measured rates, the error
//! with and without flushes, and the choice of `FLUSH`: `book/src/rung-16-fp8.md` and `docs/perf/`.

use crate::prelude::*;
use crate::stream_k_combine::Piece;
use crate::wgmma_tma::WgmmaTma;

pub const RUNG: Rung = Rung::ladder(16, "fp8", "e4m3 operands on rung 14's machinery, the tensor cores' sum flushed into f32 registers");

/// Rung 16's kernel: rung 14 ([`WgmmaTma`]) over e4m3 operands in the `nt` layout, its sums
/// flushed into f32 every `FLUSH` K-tiles (0: never).
pub type Fp8<const T: Tile, const S: Schedule, const ST: CStore, const FLUSH: u32> = WgmmaTma<E4m3, T, S, ST, Nt, 1, FLUSH>;

impl<E: WgmmaElem, const T: Tile, const S: Schedule, const ST: CStore, L: Storage, const CLUSTER_M: u32, const FLUSH: u32> WgmmaTma<E, T, S, ST, L, CLUSTER_M, FLUSH> {
    // ANCHOR: flushed
    /// Consumer warpgroup `cw`'s sum over `piece`'s K-tiles (as rung 14's `mainloop`), the
    /// tensor cores summing `FLUSH` K-tiles at a time into `sum`, each such sum then added into
    /// the f32 accumulators `acc`.
    ///
    /// Invariant: `held` says whether the previous K-tile's stage is still unreleased (its group
    /// may be in flight); a flush waits for every group and releases both.
    #[inline(always)]
    pub(crate) fn mainloop_flushed(base: u32, piece: &Piece, it: &mut u32, cw: u32, lane: u32) -> [f32; 128] {
        let mut acc = [0.0f32; 128];
        let mut sum = [0.0f32; 128];
        let mut held = false;
        for kt in piece.k_begin..piece.k_end {
            let step = (kt - piece.k_begin) % FLUSH;
            // The first K-tile of a flush starts a new sum in the tensor cores.
            Self::multiply_k_tile(base, *it, cw, &mut sum, step != 0);
            if step == FLUSH - 1 || kt + 1 == piece.k_end {
                wgmma_wait_group::<0>();
                fence_accumulators(&mut sum, Self::BN);
                if held {
                    Self::release_k_tile(base, *it - 1, lane);
                }
                Self::release_k_tile(base, *it, lane);
                held = false;
                unroll!(Self::BN / 2, |i| {
                    acc[i] += sum[i];
                });
            } else {
                // The previous K-tile's group is done: its stage can be refilled.
                wgmma_wait_group::<1>();
                if held {
                    Self::release_k_tile(base, *it - 1, lane);
                }
                held = true;
            }
            *it += 1;
        }
        acc
    }
    // ANCHOR_END: flushed
}

// A ring of 6 stages of 128 × 128 tiles (32 KiB each) or 4 of 128 × 256 (48 KiB), C through the
// copy engine (C's type, bias and activation fused: rung 14's epilogue), or by pairs from the
// registers for rows of C the copy engine cannot store.
entries! {
    elem = E4m3;
    e4m3gemm_16_fp8_128x128x128_s6_persistent_tmast_nt => Fp8<{ Tile::block(128, 128, 128).with_stages(6) }, { Schedule::Persistent }, { CStore::TmaStore }, 1>,
    e4m3gemm_16_fp8_128x128x128_s6_persistent_pairs_nt => Fp8<{ Tile::block(128, 128, 128).with_stages(6) }, { Schedule::Persistent }, { CStore::Pairs }, 1>,
    e4m3gemm_16_fp8_128x128x128_s6_tmast_nt => Fp8<{ Tile::block(128, 128, 128).with_stages(6) }, { Schedule::DataParallel }, { CStore::TmaStore }, 1>,
    e4m3gemm_16_fp8_128x128x128_s6_persistent_tmast_flush4_nt => Fp8<{ Tile::block(128, 128, 128).with_stages(6) }, { Schedule::Persistent }, { CStore::TmaStore }, 4>,
    e4m3gemm_16_fp8_128x128x128_s6_persistent_tmast_noflush_nt => Fp8<{ Tile::block(128, 128, 128).with_stages(6) }, { Schedule::Persistent }, { CStore::TmaStore }, 0>,
    e4m3gemm_16_fp8_128x256x128_s4_persistent_tmast_noflush_nt => Fp8<{ Tile::block(128, 256, 128).with_stages(4) }, { Schedule::Persistent }, { CStore::TmaStore }, 0>,
}
