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
//! So this kernel is small on purpose: 4 warps, a 64×64 tile of C, K-tiles 32 deep staged once
//! through 10 KiB of shared memory, the tensor cores through `mma.sync` (rung 12's fragments,
//! `device/mma.rs`). An SM holds several such blocks, each with its loads in flight while another
//! multiplies. The operands are copied as they are stored, 16 bytes at a time (element by
//! element where a row is not whole 16-byte pieces or runs past the matrix), into tiles whose
//! rows are padded by 16 bytes, so `ldmatrix` reads them without bank conflicts; a transposed
//! operand is transposed by `ldmatrix.trans` on the way to the registers, not by the copy. Each
//! thread loads the next K-tile into registers while the warps multiply the current one.
//!
//! **Invariants.** Any M, N, K ≥ 1, any layout (one entry per layout), any leading dimension and
//! alignment: what lies outside A or B is read as zero, what lies outside C is not written. A
//! block walks the products of its grid plane (`z, z + planes, …`), so a batch may exceed the
//! grid's planes. C is written through the fused epilogue ([`crate::epilogue`]).
//!
//! **Cost.** Operands once from memory per tile row and column (a product larger than the tile
//! reads them again from L2); two block barriers per K-tile; `mma.sync` reaches a part of what
//! `wgmma` does, which is no loss where memory decides.

use crate::prelude::*;
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
/// Elements of padding after each row of a staged tile: 16 bytes, so eight rows that `ldmatrix`
/// reads together start in eight different 16-byte bank groups (rows of 80 or 144 bytes).
const PAD: u32 = 8;
/// 16-byte pieces a thread copies per operand and K-tile: a 64×32 tile is 256 of them.
const PIECES: usize = ((BM * BK / 8) / THREADS) as usize;

/// One operand's K-tile as stored in global memory (`rows × width` 16-bit elements, the width
/// along the stored rows), at `offset` bytes into the block's shared memory, rows `width + PAD`
/// elements apart.
#[derive(Clone, Copy)]
struct Staged {
    offset: u32,
    width: u32,
}

impl Staged {
    /// Bytes of the tile: 256 pieces of 16 bytes, plus the padding of each row.
    const fn bytes(self) -> u32 {
        (BM * BK / self.width) * (self.width + PAD) * 2
    }

    /// Shared-memory byte offset of element (`row`, `col`) of the tile.
    #[inline(always)]
    const fn at(self, row: u32, col: u32) -> u32 {
        self.offset + (row * (self.width + PAD) + col) * 2
    }

    /// Row and column of the 16-byte piece `p` (0..256) of the tile.
    #[inline(always)]
    const fn piece(self, p: u32) -> (u32, u32) {
        let per_row = self.width / 8;
        (p / per_row, p % per_row * 8)
    }
}

/// Floats between two rows of the tile of C staged in shared memory on its way out: 8 more than
/// a row, so the 16 lanes of a half-warp that store pairs of columns of four rows hit 32 banks.
const C_PITCH: u32 = BN + 8;
/// Shared memory for the operands' K-tiles: room for the larger arrangement of a tile (rows along
/// K or not), for each operand.
const TILES_BYTES: u32 = {
    let (along_k, across) = (Staged { offset: 0, width: BK }.bytes(), Staged { offset: 0, width: BM }.bytes());
    2 * if along_k > across { along_k } else { across }
};
/// Shared memory of a block: the K-tiles, then, reusing it, the tile of C.
const SMEM_BYTES: u32 = if TILES_BYTES > BM * C_PITCH * 4 { TILES_BYTES } else { BM * C_PITCH * 4 };
const _: () = {
    assert!(BM == BN && (BM * BK / 8) % THREADS == 0 && BM % WM == 0 && BN % WN == 0 && (BM / WM) * (BN / WN) * 32 == THREADS);
};

/// The eight elements of a 16-byte piece as four 32-bit words, the first element in the low half
/// of the first word.
type Piece = [u32; 4];

/// Many small products (see the module documentation), element type `E`, layout `L`.
pub struct Batched<E, L>(PhantomData<(E, L)>);

impl<E: HalfElem, L: Storage> GemmKernel for Batched<E, L> {
    type Elem = E;
    const SPEC: KernelSpec = KernelSpec::unnamed(RUNG, E::DTYPE, Tile::block(BM, BN, BK).with_warp(WM, WN), THREADS, SMEM_BYTES)
        .with_layout(L::LAYOUT)
        .with_any_alignment_and_batch_loop()
        .with_fused_epilogue(Fusion::Full)
        .with_min_blocks_per_sm(4);

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        // SAFETY: the caller's guarantee, for each product of the batch.
        unsafe { gemm.for_each_product(Self::product) };
    }
}

impl<E: HalfElem, L: Storage> Batched<E, L> {
    const A_T: bool = L::LAYOUT.a.is_t();
    const B_T: bool = L::LAYOUT.b.is_t();
    /// A's K-tile as stored: `BM × BK` (M×K), or `BK × BM` (stored K×M); B's in the second
    /// half of the shared memory: `BK × BN` (K×N), or `BN × BK` (stored N×K).
    const A_TILE: Staged = Staged { offset: 0, width: if Self::A_T { BM } else { BK } };
    const B_TILE: Staged = Staged { offset: TILES_BYTES / 2, width: if Self::B_T { BK } else { BN } };

    /// Piece (`row`, `col`) of `stored` (a window of an operand as stored), zero where it lies
    /// outside: one 16-byte load where the piece is whole and `vectors` (16-byte rows), element
    /// by element otherwise.
    #[inline(always)]
    fn fetch(stored: &Matrix<E>, row: u32, col: u32, vectors: bool) -> Piece {
        if vectors && stored.contains(row, col + 7) {
            // SAFETY: the piece lies inside the matrix, whose rows start on 16 bytes.
            return unsafe { ld_global_v4(stored.ptr(row, col) as *const f32) }.map(f32::to_bits);
        }
        let mut words = [0u32; 4];
        unroll!(8, |j| {
            if stored.contains(row, col + j as u32) {
                // SAFETY: contains.
                let bits = unsafe { stored.get(row, col + j as u32) }.bits() as u32;
                words[j / 2] |= bits << (16 * (j % 2));
            }
        });
        words
    }

    /// This thread's pieces of K-tile `k0` of one operand: `stored` is the operand as stored
    /// and `tile` its staged tile; (`r0`, `c0`) is the tile's corner in `stored`.
    #[inline(always)]
    fn fetch_tile(stored: &Matrix<E>, tile: Staged, r0: u32, c0: u32, vectors: bool) -> [Piece; PIECES] {
        let window = stored.window(r0, c0);
        let mut pieces = [[0u32; 4]; PIECES];
        unroll!(PIECES, |i| {
            let (row, col) = tile.piece(thread_idx() + (i as u32) * THREADS);
            pieces[i] = Self::fetch(&window, row, col, vectors);
        });
        pieces
    }

    /// Writes this thread's pieces into `tile`.
    ///
    /// # Safety
    /// No thread reads the tile until a barrier after this.
    #[inline(always)]
    unsafe fn stash(smem: *mut u8, tile: Staged, pieces: [Piece; PIECES]) {
        unroll!(PIECES, |i| {
            let (row, col) = tile.piece(thread_idx() + (i as u32) * THREADS);
            // SAFETY: the piece's 16 bytes lie inside the tile (16-byte aligned: rows of 80 or
            // 144 bytes, pieces 16 bytes apart), inside this block's shared memory.
            unsafe { st_shared_v4(smem.add(tile.at(row, col) as usize) as *mut f32, pieces[i].map(f32::from_bits)) };
        });
    }

    /// `acc += A·B` over the staged K-tile: two mma steps of 16 for this warp's 32×32 tile.
    ///
    /// # Safety
    /// The staged tiles are complete (a barrier after every thread's `stash`).
    #[inline(always)]
    unsafe fn multiply(smem_addr: u32, wm0: u32, wn0: u32, acc: &mut [[[f32; 4]; NT]; MT]) {
        let lane = lane_idx();
        let (a, b) = (Self::A_TILE, Self::B_TILE);
        for kk in 0..BK / 16 {
            let k = kk * 16;
            let mut af = [[0u32; 4]; MT];
            for (mt, f) in af.iter_mut().enumerate() {
                let m = wm0 + (mt as u32) * 16;
                // SAFETY: every lane's address is a 16-byte row of the staged tile (the
                // fragment tables of device/ldmatrix.rs and device/mma.rs).
                *f = unsafe {
                    if Self::A_T {
                        // Stored K×M: lane l names row k + l%8 + 8·(l/16) at column m + 8·((l/8)%2).
                        ldmatrix_x4_trans(smem_addr + a.at(k + lane % 8 + lane / 16 * 8, m + lane / 8 % 2 * 8))
                    } else {
                        // Stored M×K: lane l names row m + l%16 at column k + 8·(l/16).
                        ldmatrix_x4(smem_addr + a.at(m + lane % 16, k + lane / 16 * 8))
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
                        ldmatrix_x4(smem_addr + b.at(n + lane % 8 + lane / 16 * 8, k + lane / 8 % 2 * 8))
                    } else {
                        // Stored K×N: lane l names row k + l%16 at column n + 8·(l/16).
                        ldmatrix_x4_trans(smem_addr + b.at(k + lane % 16, n + lane / 16 * 8))
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
        let warp = warp_idx();
        let (row0, col0) = (block_row() * BM, block_col() * BN);
        let (wm0, wn0) = (warp / (BN / WN) * WM, warp % (BN / WN) * WN);
        let (a, b) = (gemm.stored_a(Self::A_T), gemm.stored_b(Self::B_T));
        // 16-byte loads where every row of an operand starts on 16 bytes.
        let vectors = |m: &Matrix<E>| m.ld % 8 == 0 && m.ptr(0, 0) as usize % 16 == 0;
        let (a_vec, b_vec) = (vectors(&a), vectors(&b));
        // The corner of K-tile k0 in each operand as stored.
        let a_corner = |k0: u32| if Self::A_T { (k0, row0) } else { (row0, k0) };
        let b_corner = |k0: u32| if Self::B_T { (col0, k0) } else { (k0, col0) };
        let fetch = |k0: u32| {
            let ((ar, ac), (br, bc)) = (a_corner(k0), b_corner(k0));
            (Self::fetch_tile(&a, Self::A_TILE, ar, ac, a_vec), Self::fetch_tile(&b, Self::B_TILE, br, bc, b_vec))
        };

        let mut acc = [[[0.0f32; 4]; NT]; MT];
        let mut next = fetch(0);
        let mut k0 = 0;
        while k0 < gemm.k {
            // SAFETY: the previous K-tile's multiplications ended at the barrier below.
            unsafe {
                Self::stash(smem, Self::A_TILE, next.0);
                Self::stash(smem, Self::B_TILE, next.1);
            }
            sync_threads();
            // The next K-tile's loads are in flight while this one is multiplied.
            if k0 + BK < gemm.k {
                next = fetch(k0 + BK);
            }
            // SAFETY: every thread stashed its pieces before the barrier.
            unsafe { Self::multiply(smem_addr, wm0, wn0, &mut acc) };
            // Every warp is done reading the tiles before they are overwritten.
            sync_threads();
            k0 += BK;
        }

        // SAFETY: every warp is done with the staged tiles (the barrier ending the loop).
        unsafe { Self::store(gemm, smem, row0, col0, wm0, wn0, &acc) };
    }

    /// Writes the block's tile of C through the fused epilogue: the warps' accumulators into
    /// shared memory (rows of [`C_PITCH`] floats), then each warp a row of C at a time, its lanes
    /// on neighbouring columns, so the stores to C are whole segments in any output type.
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
        let c = gemm.fused_c().window(row0, col0);
        let mut i = thread_idx();
        while i < BM * BN {
            let (r, col) = (i / BN, i % BN);
            // SAFETY: inside the tile, which every warp wrote before the barrier.
            let v = unsafe { load(tile.add((r * C_PITCH + col) as usize)) };
            c.store(r, col, v);
            i += THREADS;
        }
        // Every thread has read its values before the next product's K-tiles overwrite them.
        sync_threads();
    }
}

entries! {
    for E in (bgemm: Bf16, hgemm: F16);
    bgemm_00_batched_64x64x32_w32x32 | hgemm_00_batched_64x64x32_w32x32 => Batched<E, Nn>,
    bgemm_00_batched_64x64x32_w32x32_nt | hgemm_00_batched_64x64x32_w32x32_nt => Batched<E, Nt>,
    bgemm_00_batched_64x64x32_w32x32_tn | hgemm_00_batched_64x64x32_w32x32_tn => Batched<E, Tn>,
    bgemm_00_batched_64x64x32_w32x32_tt | hgemm_00_batched_64x64x32_w32x32_tt => Batched<E, Tt>,
}
