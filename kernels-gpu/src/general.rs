//! # The general kernel: every layout, any leading dimension, any alignment
//!
//! The ladder's kernels are fast on the problems they were built for; this one is correct on
//! every problem the library takes, so that the automatic choice never has to refuse one. It is
//! rung 3's shared-memory tiling with the operand reads made layout-aware: element (r, c) of
//! op(A) is element (r, c) of A as stored, or (c, r) when the layout stores A transposed (likewise
//! B). Reads are scalar (no alignment needed), widened to f32 ([`Widen`]) in shared memory, and
//! outside the matrix read as zero.
//!
//! Batches: a block loops over the products `z, z + planes, ...` of its grid plane, so a batch
//! may hold more products than the grid has planes (65,535).
//!
//! Cost: one global load per element per tile like rung 3, uncoalesced along the transposed
//! dimension. It is the fallback, not a rung (number 0): the automatic choice tries it last.

use crate::prelude::*;
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::beside(KernelKind::Fallback, "general", "any layout, leading dimension and alignment: the fallback");

/// Edge of the square tiles of A, B and C; one thread per element of C's tile.
const BS: usize = 16;

/// The general kernel for element type `E` and storage `L`.
pub struct General<E, L>(PhantomData<(E, L)>);

impl<E: Widen, L: Storage> General<E, L> {
    /// Element (`r`, `c`) of an operand as the product sees it, from its stored matrix.
    #[inline(always)]
    fn get(stored: &Matrix<E>, transposed: bool, r: u32, c: u32) -> f32 {
        let (sr, sc) = if transposed { (c, r) } else { (r, c) };
        // SAFETY: read only inside the stored matrix.
        if stored.contains(sr, sc) { unsafe { stored.get(sr, sc) }.widen() } else { 0.0 }
    }
}

impl<E: Widen + ElemType, L: Storage> GemmKernel for General<E, L> {
    type Elem = E;
    const SPEC: KernelSpec = KernelSpec::unnamed(
        RUNG,
        E::DTYPE,
        Tile::block(BS as u32, BS as u32, BS as u32),
        (BS * BS) as u32,
        (2 * SmemTile::elems(BS, BS) * 4) as u32,
    )
    .with_layout(L::LAYOUT)
    .with_any_alignment_and_batch_loop()
    .with_fused_epilogue(Fusion::Full);

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        // SAFETY: the caller's guarantee, for each product of the batch.
        unsafe { gemm.for_each_product(Self::product) };
    }
}

impl<E: Widen + ElemType, L: Storage> General<E, L> {
    /// One product of the batch: rung 3's loop with layout-aware reads.
    #[inline(always)]
    unsafe fn product(gemm: &GemmArgs<E>) {
        // SAFETY: the spec gives the block two BS × BS tiles of f32.
        let a_tile = unsafe { SmemTile::new(dynamic_shared(), BS, BS) };
        // SAFETY: as above, right after the first tile.
        let b_tile = unsafe { SmemTile::new(a_tile.end(), BS, BS) };
        let (a_t, b_t) = (L::LAYOUT.a.is_t(), L::LAYOUT.b.is_t());
        let (a, b) = (gemm.stored_a(a_t), gemm.stored_b(b_t));

        let t = thread_idx() as usize;
        let (ty, tx) = (t / BS, t % BS);
        let bs = BS as u32;
        let (row0, col0) = (block_row() * bs, block_col() * bs);
        let mut acc = 0.0;
        let mut k0 = 0;
        while k0 < gemm.k {
            a_tile.set(ty, tx, Self::get(&a, a_t, row0 + ty as u32, k0 + tx as u32));
            b_tile.set(ty, tx, Self::get(&b, b_t, k0 + ty as u32, col0 + tx as u32));
            sync_threads();
            for i in 0..BS {
                acc = fma(a_tile.get(ty, i), b_tile.get(i, tx), acc);
            }
            sync_threads();
            k0 += bs;
        }
        gemm.fused_c().window(row0, col0).store(ty as u32, tx as u32, acc);
    }
}

entries! {
    for E in (sgemm: f32, bgemm: Bf16, hgemm: F16);
    sgemm_00_general_16x16x16 | bgemm_00_general_16x16x16 | hgemm_00_general_16x16x16 => General<E, Nn>,
    sgemm_00_general_16x16x16_nt | bgemm_00_general_16x16x16_nt | hgemm_00_general_16x16x16_nt => General<E, Nt>,
    sgemm_00_general_16x16x16_tn | bgemm_00_general_16x16x16_tn | hgemm_00_general_16x16x16_tn => General<E, Tn>,
    sgemm_00_general_16x16x16_tt | bgemm_00_general_16x16x16_tt | hgemm_00_general_16x16x16_tt => General<E, Tt>,
}
