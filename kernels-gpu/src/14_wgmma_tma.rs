//! # Rung 14 — wgmma fed by the copy engine, with warp specialisation
//!
//! **Idea.** Rung 13 multiplies with `wgmma` but still makes every thread copy tiles with
//! `cp.async` and meet every other thread at a block barrier once per K-tile; the tensor cores
//! idle at each barrier. Here the copying leaves the multiplying warps: one thread of a *producer*
//! warpgroup asks the copy engine (TMA, `device/tma.rs`, maps encoded by `src/tma.rs`) for whole
//! boxes of A and B, which it writes into shared memory already 128-byte swizzled as `wgmma` reads
//! them, with zeros outside the matrix (tails cost nothing). The *consumer* warpgroups (64 rows ×
//! `bn` columns of C each) wait only on the mbarrier of the stage they read.
//!
//! **Invariants.**
//! - A ring of `stages` buffers with two mbarriers each. `full[s]` completes when the engine has
//!   delivered `STAGE_BYTES` (full boxes: the zeros it writes count); `empty[s]` when every
//!   consumer warp (of the cluster) has read stage `s`. The `i`-th use of a stage waits for phase
//!   `i` of `full[s]` (parity `i % 2`), the producer's `i`-th refill for phase `i - 1` of
//!   `empty[s]`. Every wait is bounded: a wrong byte count traps after 20 s.
//! - A consumer keeps one wgmma group in flight (`wait_group 1`), then releases the previous stage.
//! - Registers: 40 per producer thread, 232 per consumer thread (`setmaxnreg`), compiled under
//!   65536 / 384 = 168: the block holds 384 · 168 = 64512 registers and 128 · 40 + 256 · 232 =
//!   64512, so the exchange always succeeds. (A warpgroup that asks for more than the others gave
//!   back waits in `setmaxnreg.inc` for ever: 48 for the producer hangs every launch.)
//! - The engine needs 16-byte-aligned rows and batch strides: the catalog refuses the rung
//!   otherwise, and `best` falls back to rung 13.
//!
//! **Cost.** Taking the copies off the multiplying warps is the large step over rung 13. What
//! remains is the epilogue, a per-tile cost (consumers cannot multiply while they store C), which
//! pair stores, TMA stores and the persistent launch cut. The TMA-store kernels round a bare
//! 16-bit C as they stage it and store it like an f32 C; they apply any other fused epilogue
//! (bias, activation, beta, the auxiliary output: `crate::epilogue`) to the values they stage in
//! shared memory (`store_fused_through_shared`), at the cost of a second pass over each staged
//! slice; stream-K's kernels leave it to the epilogue pass.
//!
//! **Parts**, as warp-specialised kernels are usually cut: `run` initialises the ring and hands
//! the block's `Work` to the producer (`produce`, one K-tile at a time by `load_k_tile`) and to
//! each consumer (`consume`: the K loop `mainloop`, stream-K's combine, then the `epilogue`: from
//! the registers, through the copy engine, or through the fused epilogue); the tile order is
//! [`tile_order`]'s.
//!
//! The parameters (`S`: [`Schedule`], `ST`: [`CStore`], `L`: the storage of A and B, clusters), the
//! persistent tile order, the epilogues and clusters in detail, and what was measured:
//! `book/src/rung-14-wgmma-tma.md` and `docs/perf/`.

use crate::epilogue::{ColumnBias, FusedOutput, activate, rounded_bits};
use crate::prelude::*;
use crate::spec::stream_k::StreamKWorkspace;
use crate::stream_k_combine::{self, PART_THREADS, Piece, StreamKSchedule};
use crate::tile_order;
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::ladder(
    14,
    "wgmma_tma",
    "TMA loads into an mbarrier ring, one producer warpgroup and wgmma consumer warpgroups",
);

/// Tile `T`: a `bm × bn` block tile (`bm / 64` consumer warpgroups of 64 rows each, plus the
/// producer), K-tiles of `bk` = 64, `stages` buffers.
///
/// `S` ([`Schedule`]) is the launch: [`Schedule::DataParallel`] (one block per tile),
/// [`Schedule::Persistent`] (at most one block per SM; only the launch changes, the kernel loops
/// over tiles either way) or [`Schedule::StreamK`] (persistent, a last round's tiles cut by K).
///
/// `ST` ([`CStore`]) picks how C is written: [`CStore::Scalar`], [`CStore::Pairs`],
/// [`CStore::TmaStore`].
///
/// `L` is the storage of A and B ([`Nn`], [`Nt`], [`Tn`], [`Tt`]): K-major operands arrive as
/// boxes of 128-byte rows, MN-major ones as 64 × 64 panels ([`Major`]); the loop, the ring and
/// the epilogue are the same for all four.
///
/// `CLUSTER_M` (1 or 2, not persistent): blocks of neighbouring block rows that form a cluster;
/// each loads `1 / CLUSTER_M` of the B panels and the copy engine writes them into every block of
/// the cluster.
///
/// `FLUSH` (FP8 only, rung 16): K-tiles between additions of the tensor cores' sums into f32
/// registers; 0 leaves the whole sum to the tensor cores (the only choice for 16-bit types).
pub struct WgmmaTma<
    E,
    const T: Tile,
    const S: Schedule = { Schedule::DataParallel },
    const ST: CStore = { CStore::Scalar },
    L = Nn,
    const CLUSTER_M: u32 = 1,
    const FLUSH: u32 = 0,
>(PhantomData<(E, L)>);

impl<E: WgmmaElem, const T: Tile, const S: Schedule, const ST: CStore, L: Storage, const CLUSTER_M: u32, const FLUSH: u32> WgmmaTma<E, T, S, ST, L, CLUSTER_M, FLUSH> {
    const BM: usize = T.bm as usize;
    pub(crate) const BN: usize = T.bn as usize;
    const STAGES: usize = T.stages as usize;
    const CLUSTER: u32 = CLUSTER_M;
    const PERSISTENT: bool = S.is_persistent();
    const STREAM_K: bool = matches!(S, Schedule::StreamK);
    /// C is written by the copy engine ([`CStore::TmaStore`]) where beta is 0.
    const TMA_STORE: bool = matches!(ST, CStore::TmaStore);
    /// The kernel applies every fused epilogue through its C buffers
    /// ([`store_fused_through_shared`](Self::store_fused_through_shared)); with stream-K's combine
    /// beside it the consumer's registers spill, so stream-K leaves the epilogue to the sum.
    const FUSES: bool = Self::TMA_STORE && !Self::STREAM_K;
    /// Block rows per group of the tile order ([`tile_order`]).
    const GROUP_ROWS: u32 = tile_order::group_rows(S);
    const BK: usize = T.bk as usize;
    const CONSUMERS: usize = Self::BM / 64;
    const THREADS: usize = 128 * (1 + Self::CONSUMERS);
    /// Bytes of one row of a K-tile (K-major): one 128-byte swizzle row, whatever the type.
    const ROW_BYTES: usize = Self::BK * E::BYTES;
    /// `wgmma`s per K-tile: each takes 32 bytes of K.
    const K_STEPS: usize = Self::ROW_BYTES / 32;
    const A_BYTES: usize = Self::BM * Self::ROW_BYTES;
    /// One 64 × 64 panel of an operand stored MN-major (64 rows of K, 128-byte rows of M or N).
    const PANEL_BYTES: usize = SwizzledTile::bytes(Self::BK, 64);
    /// A stored K×M (`Op::T`): M-major panels; row-major A is K-major.
    const A_T: bool = L::LAYOUT.a.is_t();
    /// B stored N×K (`Op::T`): K-major; row-major B is N-major panels.
    const B_T: bool = L::LAYOUT.b.is_t();
    /// How the tensor cores read each stage's tiles: K-major, or MN-major panels of
    /// [`PANEL_BYTES`](Self::PANEL_BYTES).
    const A_MAJOR: Major = if Self::A_T { Major::Mn { panel_bytes: Self::PANEL_BYTES as u32 } } else { Major::K };
    const B_MAJOR: Major = if Self::B_T { Major::K } else { Major::Mn { panel_bytes: Self::PANEL_BYTES as u32 } };
    const STAGE_BYTES: usize = Self::A_BYTES + Self::BN * Self::ROW_BYTES;
    /// With the TMA store, each consumer warpgroup stages C in two slice buffers of 64 rows × 32
    /// floats, after the stages, used in turn.
    const C_SLICE: usize = 32;
    const C_SLICE_BYTES: usize = SwizzledF32Rows::bytes(64);
    const C_BUFFERS: usize = Self::STAGES * Self::STAGE_BYTES;
    const C_BUFFERS_BYTES: usize = if Self::TMA_STORE { Self::CONSUMERS * 2 * Self::C_SLICE_BYTES } else { 0 };
    /// The mbarriers sit after the stages (and C buffers): `full[0..STAGES]`, then `empty[0..STAGES]`.
    const BARRIERS: usize = Self::C_BUFFERS + Self::C_BUFFERS_BYTES;
    /// With stream-K, one word per consumer warpgroup after the barriers: whether it was the last
    /// to finish a shared tile ([`stream_k_combine::combine`]).
    const FLAGS: usize = Self::BARRIERS + 2 * 8 * Self::STAGES;
    const SMEM_BYTES: usize = Self::FLAGS + if Self::STREAM_K { 4 * Self::CONSUMERS } else { 0 };
    /// With stream-K, each consumer warpgroup is one part of a tile: 128 threads × 128
    /// accumulators.
    const WORKSPACE: StreamKWorkspace = StreamKWorkspace { parts: Self::CONSUMERS as u32, part_floats: PART_THREADS * 128 };

    const VALID: () = {
        assert!(Self::BM == 64 || Self::BM == 128, "one or two consumer warpgroups of 64 rows");
        assert!(Self::BN == 64 || Self::BN == 128 || Self::BN == 192 || Self::BN == 256, "the wgmma shapes instantiated in device/wgmma.rs");
        assert!(Self::BN / 8 <= crate::unroll::UNROLL_MAX);
        assert!(Self::STAGES >= 2);
        assert!(Self::ROW_BYTES == 128, "a K-tile is one 128-byte swizzle row");
        assert!(E::BYTES == 2 || (!Self::A_T && Self::B_T), "FP8 wgmma reads K-major operands only: the nt layout");
        assert!(E::BYTES == 1 || FLUSH == 0, "16-bit types sum in the tensor cores");
        assert!(FLUSH == 0 || Self::BN <= 128, "a flushed sum holds two sets of accumulators");
        assert!(Self::CLUSTER == 1 || Self::CLUSTER == 2, "clusters of one or two block rows");
        assert!((Self::BN / 64) % Self::CLUSTER as usize == 0, "the B panels split evenly over the cluster");
        assert!(!Self::PERSISTENT || Self::CLUSTER == 1, "the persistent launch is one-dimensional, clusters are along M");
        assert!(Self::STAGE_BYTES % 1024 == 0, "every stage starts on a 1024-byte swizzle block");
        assert!(128 * PRODUCER_REGS + 128 * Self::CONSUMERS as u32 * CONSUMER_REGS <= Self::THREADS as u32 * crate::spec::register_cap(Self::THREADS as u32, MIN_BLOCKS_PER_SM), "the register exchange fits what the block holds");
        assert!(Self::BN % Self::C_SLICE == 0 && (Self::BN / Self::C_SLICE) % 2 == 0, "every tile ends on the second C buffer");
        assert!(Self::SMEM_BYTES <= 227 * 1024, "fits the shared memory of an SM");
    };

    /// One K-step `wgmma` (32 bytes of K, 64 × BN) with the transpose bits of the layout: A is
    /// M-major when stored K×M, B is N-major when stored K×N. `accumulate = false` starts a new
    /// sum in `acc`.
    #[inline(always)]
    pub(crate) unsafe fn wgmma(acc: &mut [f32; 128], desc_a: u64, desc_b: u64, accumulate: bool) {
        // SAFETY: the caller's guarantee: the descriptors point at a full stage, and all 128
        // threads of the warpgroup issue it.
        unsafe {
            match (Self::A_T, Self::B_T) {
                (false, false) => wgmma_m64::<E, 0, 1>(acc, Self::BN, desc_a, desc_b, accumulate),
                (false, true) => wgmma_m64::<E, 0, 0>(acc, Self::BN, desc_a, desc_b, accumulate),
                (true, false) => wgmma_m64::<E, 1, 1>(acc, Self::BN, desc_a, desc_b, accumulate),
                (true, true) => wgmma_m64::<E, 1, 0>(acc, Self::BN, desc_a, desc_b, accumulate),
            }
        }
    }

    /// A consumer warp is done reading the stage whose `empty` barrier is at `bar`: arrive on it
    /// in every block of the cluster (each one's producer writes into this block's stage).
    #[inline(always)]
    unsafe fn release(bar: u32) {
        if Self::CLUSTER == 1 {
            // SAFETY: the stage barriers were initialised by one thread and published by the block
            // barrier before the loop.
            unsafe { mbarrier_arrive(bar) };
        } else {
            for r in 0..Self::CLUSTER {
                // SAFETY: the stage barriers were initialised by one thread and published by the
                // block barrier before the loop.
                unsafe { mbarrier_arrive_cluster(map_shared_rank(bar, r)) };
            }
        }
    }

    /// Writes a consumer warpgroup's 64 × BN accumulators to C at (`row0`, `col0`) from the
    /// registers: `d[4j + i]` is row 16·warp + g + 8·(i / 2), column 8j + 2t + i % 2 of the
    /// warpgroup's tile (as in rung 13), so each thread holds pairs of neighbouring columns.
    #[inline(always)]
    fn store_from_registers(c: &Output, acc: &[f32; 128], row0: u32, col0: u32) {
        let (warp_in_wg, lane) = (warp_idx() % 4, lane_idx());
        let c = c.window(row0 + warp_in_wg * 16 + lane / 4, col0 + lane % 4 * 2);
        unroll!(Self::BN / 8, |j| {
            let col = (j * 8) as u32;
            if matches!(ST, CStore::Scalar) {
                c.store(0, col, acc[4 * j]);
                c.store(0, col + 1, acc[4 * j + 1]);
                c.store(8, col, acc[4 * j + 2]);
                c.store(8, col + 1, acc[4 * j + 3]);
            } else {
                c.store2(0, col, [acc[4 * j], acc[4 * j + 1]]);
                c.store2(8, col, [acc[4 * j + 2], acc[4 * j + 3]]);
            }
        });
    }

    /// Stages consumer warpgroup `cw`'s accumulators, times `scale`, in its two C buffers, one
    /// 64 × 32 slice at a time, and hands each full slice to `drain(q, buffer)` (slice `q` of the
    /// tile's columns): the 128 threads write the slice to a swizzled buffer, fence it for the
    /// copy engine and meet at the warpgroup's named barrier before `drain` runs. The two buffers
    /// alternate; before a buffer is written again, a TMA store of it (two slices back, possibly
    /// of the previous tile) must have read it, which the warpgroup's first thread waits for, and
    /// every thread must have left the `drain` that read it, which the barrier that opens the
    /// buffer ensures.
    ///
    /// What happens to each value on the way in is `staging`'s ([`Staging`]); it is staged in
    /// type `OUT` (bf16 and f16 in the buffer's 16-bit layout, [`SwizzledF32Rows::at_16bit`]).
    /// One copy per type, so that the loop the warps run holds no other type's instructions.
    #[inline(always)]
    fn stage_slices<const OUT: Dtype>(acc: &[f32; 128], cw: u32, staging: Staging, drain: impl Fn(usize, SwizzledF32Rows)) {
        let smem = dynamic_shared::<u8>();
        let leader = thread_idx() % 128 == 0;
        let (warp_in_wg, lane) = (warp_idx() % 4, lane_idx());
        let (r, c) = (warp_in_wg * 16 + lane / 4, lane % 4 * 2);
        let barrier = 1 + cw;
        let slice_groups = Self::C_SLICE / 8;
        unroll!(Self::BN / 8, |j| {
            let q = j / slice_groups;
            let buffer = SwizzledF32Rows::new(Self::C_BUFFERS + (2 * cw as usize + q % 2) * Self::C_SLICE_BYTES);
            if j % slice_groups == 0 {
                if leader {
                    bulk_wait_group_read::<1>();
                }
                named_barrier_sync::<128>(barrier);
            }
            let col = (j % slice_groups * 8) as u32 + c;
            // The bias of this thread's two columns (the tile's columns `at`, `at + 1`), read
            // once for both rows; unchecked where the whole tile lies inside C.
            let at = (j * 8) as u32 + c;
            let (bx, by) = if staging.bias.spans(Self::BN as u32) {
                // SAFETY: both columns lie inside the tile, which lies inside C.
                unsafe { (staging.bias.inside(at, OUT), staging.bias.inside(at + 1, OUT)) }
            } else {
                (staging.bias.at(at, OUT), staging.bias.at(at + 1, OUT))
            };
            for h in 0..2 {
                let mut x = staging.scale * acc[4 * j + 2 * h] + bx;
                let mut y = staging.scale * acc[4 * j + 2 * h + 1] + by;
                if staging.relu {
                    (x, y) = (activate(Activation::Relu, x), activate(Activation::Relu, y));
                }
                let row = r + 8 * h as u32;
                match OUT {
                    Dtype::F32 => {
                        let p = smem.wrapping_add(buffer.at(row, col) as usize) as *mut f32;
                        // SAFETY: inside this warpgroup's staging buffer, at an 8-byte-aligned pair.
                        unsafe { st_shared_v2(p, [x, y]) };
                    }
                    Dtype::Bf16 | Dtype::F16 => {
                        let pair = rounded_bits(OUT, x) | rounded_bits(OUT, y) << 16;
                        let p = smem.wrapping_add(buffer.at_16bit(row, col) as usize) as *mut u32;
                        // SAFETY: inside this warpgroup's staging buffer, at a 4-byte-aligned pair.
                        unsafe { store(p, pair) };
                    }
                    // Never C's type (the host refuses it); `OUT` is a constant, so this arm is
                    // gone from every kernel.
                    Dtype::E4m3 => trap(),
                }
            }
            if j % slice_groups == slice_groups - 1 {
                fence_proxy_async_shared();
                named_barrier_sync::<128>(barrier);
                drain(q, buffer);
            }
        });
    }

    /// [`store_through_tma`](Self::store_through_tma) in C's type `out`, chosen once per tile.
    ///
    /// # Safety
    /// As for `store_through_tma`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn store_typed(out: Dtype, map_c: *const TensorMap, staging: Staging, acc: &[f32; 128], cw: u32, row0: u32, col0: u32, z: u32) {
        // SAFETY: the caller's guarantee, for each arm.
        match out {
            // C is never FP8 (the host refuses it); not a trap here: a trap on the consumer's path
            // makes ptxas serialise its wgmmas.
            Dtype::F32 | Dtype::E4m3 => unsafe { Self::store_through_tma::<{ Dtype::F32 }>(map_c, staging, acc, cw, row0, col0, z) },
            Dtype::Bf16 => unsafe { Self::store_through_tma::<{ Dtype::Bf16 }>(map_c, staging, acc, cw, row0, col0, z) },
            Dtype::F16 => unsafe { Self::store_through_tma::<{ Dtype::F16 }>(map_c, staging, acc, cw, row0, col0, z) },
        }
    }

    /// Writes consumer warpgroup `cw`'s accumulators (times alpha; beta must be 0) to C at
    /// (`row0`, `col0`) through the copy engine: each staged slice ([`stage_slices`](Self::stage_slices))
    /// leaves by one TMA store, which the warpgroup's first thread issues.
    #[inline(always)]
    unsafe fn store_through_tma<const OUT: Dtype>(map_c: *const TensorMap, staging: Staging, acc: &[f32; 128], cw: u32, row0: u32, col0: u32, z: u32) {
        let base = shared_address(dynamic_shared::<u8>());
        let leader = thread_idx() % 128 == 0;
        Self::stage_slices::<OUT>(acc, cw, staging, |q, buffer| {
            if leader {
                // SAFETY: the buffer was written and fenced by this warpgroup (barrier before
                // `drain`); the map is the host's map of C.
                unsafe { tma_store_3d(map_c, (col0 as usize + q * Self::C_SLICE) as i32, row0 as i32, z as i32, base + buffer.offset()) };
                bulk_commit_group();
            }
        });
    }

    /// Writes consumer warpgroup `cw`'s sums through the fused epilogue `c` (the output type, the
    /// bias, the activation, beta and the auxiliary output: [`crate::epilogue`]) at (`row0`,
    /// `col0`), in two phases per slice. First the raw sums are staged in the C buffers, as for
    /// the TMA store ([`stage_slices`](Self::stage_slices)); then each warp reads one row of the
    /// slice back at a time (lane = column) and sends each value through the epilogue to C. The
    /// epilogue's code then runs in a loop over the buffer, beside the accumulators still in
    /// registers instead of among them: written into the fragment's own stores it took the
    /// kernel's register budget (see the module docs). Stores are a warp's 32 neighbouring
    /// columns of one row: 128 bytes of f32, 64 of a 16-bit C.
    #[inline(always)]
    fn store_fused_through_shared(c: &FusedOutput, acc: &[f32; 128], cw: u32, row0: u32, col0: u32) {
        let smem = dynamic_shared::<u8>();
        let (warp_in_wg, lane) = (warp_idx() % 4, lane_idx());
        Self::stage_slices::<{ Dtype::F32 }>(acc, cw, Staging::scaled(1.0), |q, buffer| {
            let out = c.window(row0, col0 + (q * Self::C_SLICE) as u32);
            let mut row = warp_in_wg;
            while row < 64 {
                let p = smem.wrapping_add(buffer.at(row, lane) as usize) as *const f32;
                // SAFETY: inside this warpgroup's staging buffer, written before the barrier.
                let v = unsafe { load(p) };
                out.store(row, lane, v);
                row += 4;
            }
        });
    }
}

impl<E: WgmmaElem, const T: Tile, const S: Schedule, const ST: CStore, L: Storage, const CLUSTER_M: u32, const FLUSH: u32> GemmKernel for WgmmaTma<E, T, S, ST, L, CLUSTER_M, FLUSH> {
    type Elem = E;
    const SPEC: KernelSpec = {
        let () = Self::VALID;
        let fp8 = matches!(E::DTYPE, Dtype::E4m3);
        let spec = KernelSpec::unnamed(
            if fp8 { crate::fp8::RUNG } else { RUNG },
            E::DTYPE,
            T,
            Self::THREADS as u32,
            Self::SMEM_BYTES as u32,
        )
        .with_tensor_maps(TensorMaps {
            // Boxes as the operands are stored: a K-major operand in one box of 128-byte rows,
            // an MN-major one in 64 × 64 panels.
            a_box: if Self::A_T { (64, 64) } else { (Self::BM as u32, Self::BK as u32) },
            a_span: BoxSpan::One,
            a_swizzle: Swizzle::B128,
            b_box: if Self::B_T { (Self::BN as u32, Self::BK as u32) } else { (64, 64) },
            b_span: BoxSpan::One,
            b_swizzle: Swizzle::B128,
            c_box: if Self::TMA_STORE { Some((64, Self::C_SLICE as u32)) } else { None },
            c_swizzle: Swizzle::B128,
        })
        .with_min_blocks_per_sm(MIN_BLOCKS_PER_SM)
        .with_layout(L::LAYOUT)
        .with_store(ST)
        .with_fused_epilogue(if Self::FUSES { Fusion::Full } else { Fusion::None })
        .with_variant(if fp8 { Variant::Fp8(FLUSH) } else { Variant::Plain });
        let spec = spec.with_cluster_m(Self::CLUSTER);
        if Self::STREAM_K {
            spec.with_stream_k(Self::WORKSPACE)
        } else if Self::PERSISTENT {
            spec.with_persistent()
        } else {
            spec
        }
    };

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<E>) {
        let base = shared_address(dynamic_shared::<u8>());
        let (map_a, map_b, map_c) = (gemm.tensor_maps, gemm.tensor_maps.wrapping_add(1), gemm.tensor_maps.wrapping_add(2));
        let tid = thread_idx();
        let wg = tid / 128;

        if tid == 0 {
            // SAFETY: thread 0, before the block (cluster) barrier below; the maps are the host's
            // tensor maps of A, B (and C), passed in `gemm`.
            unsafe { Self::init(base, map_a, map_b, map_c) };
        }
        // The only block-wide barrier: the mbarriers exist before anyone uses them (in a cluster,
        // before the other block's copies and arrivals can reach them).
        if Self::CLUSTER > 1 { cluster_sync() } else { sync_threads() }

        let work = Self::work(gemm);
        if wg == 0 {
            // SAFETY: the caller's guarantee; the barriers are initialised and published above.
            unsafe { Self::produce(gemm, base, map_a, map_b, &work, tid) };
        } else {
            // SAFETY: as above.
            unsafe { Self::consume(gemm, base, map_c, &work, wg - 1) };
        }
        // No block of a cluster may exit while the other can still arrive on its barriers.
        if Self::CLUSTER > 1 {
            cluster_sync();
        }
    }
}

/// A block's share of a launch: the tiles of C it computes, whole or in slices of K, in order.
/// The producer and the consumers of the block walk the same pieces in the same order, so the
/// `it`-th K-tile each of them handles lies in the same stage of the ring.
#[derive(Clone, Copy)]
struct Work {
    /// Tiles of C per product of the batch: `tiles_m` rows of clusters × `tiles_n` block columns
    /// (`tiles` of them, at least 1).
    tiles_m: u32,
    tiles_n: u32,
    tiles: u32,
    /// The product of the batch that tile 0 belongs to (the entry point has moved `gemm` to it).
    first_product: u32,
    /// The pieces of every block of the launch, and this block (or cluster) among them.
    plan: StreamKSchedule,
    block: u32,
    /// This block's rank in its cluster (0 without clusters).
    rank: u32,
}

impl Work {
    /// The product of the batch that tile `t` of the launch belongs to.
    #[inline(always)]
    fn product(&self, t: u32) -> u32 {
        self.first_product + t / self.tiles
    }
}

impl<E: WgmmaElem, const T: Tile, const S: Schedule, const ST: CStore, L: Storage, const CLUSTER_M: u32, const FLUSH: u32> WgmmaTma<E, T, S, ST, L, CLUSTER_M, FLUSH> {
    /// The `full` mbarrier of stage `s` of the ring at shared address `base`: complete when the
    /// copy engine has delivered the stage's bytes.
    #[inline(always)]
    fn full(base: u32, s: u32) -> u32 {
        base + (Self::BARRIERS + 8 * s as usize) as u32
    }

    /// The `empty` mbarrier of stage `s`: complete when every consumer warp (of the cluster) has
    /// read the stage.
    #[inline(always)]
    fn empty(base: u32, s: u32) -> u32 {
        base + (Self::BARRIERS + 8 * (Self::STAGES + s as usize)) as u32
    }

    /// The stage of a block's `it`-th K-tile.
    #[inline(always)]
    fn stage_of(it: u32) -> u32 {
        it % Self::STAGES as u32
    }

    /// How many times the stage of the `it`-th K-tile was used before: the phase of its `full`
    /// barrier to wait for (parity `round % 2`).
    #[inline(always)]
    fn round_of(it: u32) -> u32 {
        it / Self::STAGES as u32
    }

    /// The block's setup, by thread 0 before the block barrier: each stage's two mbarriers, and
    /// the tensor maps fetched into the copy engine's cache.
    ///
    /// # Safety
    /// Thread 0 only, before any thread (of the cluster) uses the barriers; the maps are the
    /// host's tensor maps of A and B (and of C with [`CStore::TmaStore`]).
    #[inline(always)]
    unsafe fn init(base: u32, map_a: *const TensorMap, map_b: *const TensorMap, map_c: *const TensorMap) {
        for s in 0..Self::STAGES as u32 {
            // SAFETY: thread 0 initialises each stage's barriers, in this block's shared
            // memory, before any use.
            unsafe {
                mbarrier_init(Self::full(base, s), 1);
                // Every consumer warp of every block of the cluster releases the stage: the
                // producer refills it in all of them.
                mbarrier_init(Self::empty(base, s), 4 * Self::CONSUMERS as u32 * Self::CLUSTER);
            }
        }
        fence_mbarrier_init();
        // SAFETY: the caller's guarantee.
        unsafe {
            tma_prefetch_map(map_a);
            tma_prefetch_map(map_b);
            if Self::TMA_STORE {
                tma_prefetch_map(map_c);
            }
        }
    }

    /// This block's [`Work`]: work is handed out per cluster, `CLUSTER` block rows × one block
    /// column of C, the block of rank r taking row `CLUSTER · cluster_row + r`.
    #[inline(always)]
    fn work(gemm: &GemmArgs<E>) -> Work {
        let (tiles_m, tiles_n) = (gemm.m.div_ceil(Self::BM as u32 * Self::CLUSTER), gemm.n.div_ceil(Self::BN as u32));
        // `max(1)`: never zero for a problem that exists, but the compiler cannot know that.
        let tiles = (tiles_m * tiles_n).max(1);
        // A persistent launch has one plane of blocks and walks the tiles of every product of the
        // batch (tile `t` of product `t / tiles`); an ordinary launch has one plane per product
        // and the entry point has already moved `gemm` to it.
        let products = if Self::PERSISTENT { gemm.batch } else { 1 };
        let all_tiles = tiles * products;
        let k_tiles = gemm.k.div_ceil(Self::BK as u32);
        let (block, blocks) = if Self::CLUSTER > 1 { cluster_linear() } else { block_linear() };
        // Block `block` takes tiles `block, block + blocks, …` whole; with stream-K the tiles of
        // a last round at most half full are cut into slices of K for the idle blocks.
        let plan = if Self::STREAM_K { StreamKSchedule::new(all_tiles, k_tiles, blocks) } else { StreamKSchedule::whole_tiles(all_tiles, k_tiles, blocks) };
        let rank = if Self::CLUSTER > 1 { cluster_rank() } else { 0 };
        Work { tiles_m, tiles_n, tiles, first_product: gemm.z, plan, block, rank }
    }

    /// Block row and column of C of launch tile `t` for this block (its rank's row of the
    /// cluster's tile), in the tile order ([`tile_order`]).
    #[inline(always)]
    fn tile_of(work: &Work, t: u32) -> (u32, u32) {
        let (cluster_row, tile_col) = tile_order::tile_coords(t % work.tiles, work.tiles_m, work.tiles_n, Self::GROUP_ROWS);
        (cluster_row * Self::CLUSTER + work.rank, tile_col)
    }

    // ANCHOR: producer
    /// The producer warpgroup: one thread asks the copy engine for every K-tile of every piece
    /// of the block's [`Work`], in order, into the ring; the other threads have nothing to do and
    /// give their registers to the consumers (`setmaxnreg`).
    ///
    /// Invariant: the `it`-th K-tile goes to stage `it % STAGES`, refilled only once the
    /// consumers have released its previous contents (phase `round - 1` of `empty`).
    ///
    /// # Safety
    /// Called by the whole producer warpgroup after the barriers are initialised; `map_a` and
    /// `map_b` are the host's maps of A and B.
    #[inline(always)]
    unsafe fn produce(gemm: &GemmArgs<E>, base: u32, map_a: *const TensorMap, map_b: *const TensorMap, work: &Work, tid: u32) {
        setmaxnreg_dec::<PRODUCER_REGS>();
        if tid == 0 {
            let mut it = 0u32;
            for piece in work.plan.pieces(work.block) {
                let t = piece.tile;
                let (tile_row, tile_col) = Self::tile_of(work, t);
                let (row0, col0) = ((tile_row * Self::BM as u32) as i32, (tile_col * Self::BN as u32) as i32);
                let z = work.product(t);
                for kt in piece.k_begin..piece.k_end {
                    // SAFETY: the caller's guarantee; K-tiles are loaded in the consumers' order.
                    unsafe { Self::load_k_tile(gemm, base, map_a, map_b, it, (kt * Self::BK as u32) as i32, row0, col0, z, work.rank) };
                    it += 1;
                }
            }
        }
    }

    /// The producer's `it`-th K-tile: the boxes of A (rows `row0..`) and B (columns `col0..`)
    /// from column (or row) `k0` of K of product `z`, into stage `it % STAGES`, once the
    /// consumers have released it. In a cluster the block loads its share of B's panels into
    /// every block of the cluster.
    ///
    /// # Safety
    /// As for [`produce`](Self::produce), by its one issuing thread.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn load_k_tile(gemm: &GemmArgs<E>, base: u32, map_a: *const TensorMap, map_b: *const TensorMap, it: u32, k0: i32, row0: i32, col0: i32, z: u32, rank: u32) {
        let (s, round) = (Self::stage_of(it), Self::round_of(it));
        let (full, empty) = (Self::full(base, s), Self::empty(base, s));
        let stage = base + s * Self::STAGE_BYTES as u32;
        let (za, zb) = (gemm.plane_a(z), gemm.plane_b(z));
        // SAFETY: the stage is refilled only after its `empty` wait; the boxes fit its buffer and
        // `full` expects their bytes.
        unsafe {
            if round > 0 {
                // The consumers have released this stage's previous tile.
                mbarrier_wait(empty, (round - 1) & 1);
            }
            mbarrier_arrive_expect_tx(full, Self::STAGE_BYTES as u32);
            if Self::A_T {
                // A stored K×M: one 64 × 64 panel per consumer warpgroup.
                for p in 0..Self::BM / 64 {
                    tma_load_3d(stage + (p * Self::PANEL_BYTES) as u32, map_a, row0 + 64 * p as i32, k0, za, full);
                }
            } else {
                tma_load_3d(stage, map_a, k0, row0, za, full);
            }
            let b_stage = stage + Self::A_BYTES as u32;
            if Self::B_T {
                // B stored N×K: one box of BN rows of 128 bytes.
                tma_load_3d(b_stage, map_b, k0, col0, zb, full);
            } else {
                for p in 0..Self::BN / 64 {
                    let dst = b_stage + (p * Self::PANEL_BYTES) as u32;
                    let x = col0 + 64 * p as i32;
                    if Self::CLUSTER == 1 {
                        tma_load_3d(dst, map_b, x, k0, zb, full);
                    } else if p as u32 % Self::CLUSTER == rank {
                        // This block's share of B, into every block of the cluster.
                        tma_load_3d_multicast(dst, map_b, x, k0, zb, full, ((1u32 << Self::CLUSTER) - 1) as u16);
                    }
                }
            }
        }
    }
    // ANCHOR_END: producer

    /// Consumer warpgroup `cw`: rows `64·cw .. 64·cw + 63` of each tile of the block's [`Work`].
    /// For each piece it multiplies the piece's K-tiles ([`mainloop`](Self::mainloop)); with
    /// stream-K a slice hands its partial sum over unless it is the last of its tile's slices
    /// ([`stream_k_combine::combine`]); then it writes its rows of the tile ([`epilogue`](Self::epilogue)).
    ///
    /// Invariant: it reads the K-tiles in the producer's order (the same pieces), so its `it`-th
    /// K-tile is the producer's.
    ///
    /// # Safety
    /// Called by the whole warpgroup after the barriers are initialised; `map_c` is the host's map
    /// of C when the spec asks for one.
    #[inline(always)]
    unsafe fn consume(gemm: &GemmArgs<E>, base: u32, map_c: *const TensorMap, work: &Work, cw: u32) {
        setmaxnreg_inc::<CONSUMER_REGS>();
        let lane = lane_idx();
        let mut it = 0u32;
        for piece in work.plan.pieces(work.block) {
            let t = piece.tile;
            let (tile_row, tile_col) = Self::tile_of(work, t);
            let z = work.product(t);
            let mut acc = if FLUSH > 0 { Self::mainloop_flushed(base, &piece, &mut it, cw, lane) } else { Self::mainloop(base, &piece, &mut it, cw, lane) };

            if Self::STREAM_K && work.plan.is_partial(&piece) {
                let flag = dynamic_shared::<u8>().wrapping_add(Self::FLAGS + 4 * cw as usize) as *mut u32;
                // SAFETY: all 128 threads of this warpgroup call it; the workspace is the
                // host's, sized by the spec's `WORKSPACE` for this launch; the flag word and
                // named barrier `1 + cw` are this warpgroup's.
                if !unsafe { stream_k_combine::combine(&work.plan, gemm.workspace, Self::WORKSPACE, work.block, &piece, cw, &mut acc, flag, 1 + cw) } {
                    // Another block finishes the tile.
                    continue;
                }
            }

            let (row0, col0) = (tile_row * Self::BM as u32 + cw * 64, tile_col * Self::BN as u32);
            // SAFETY: the caller's guarantee.
            unsafe { Self::epilogue(gemm, map_c, &acc, cw, row0, col0, z) };
        }
        if Self::TMA_STORE && thread_idx() % 128 == 0 {
            // The block's shared memory must outlive the stores that read it.
            bulk_wait_group_read::<0>();
        }
    }

    // ANCHOR: consumer
    /// Consumer warpgroup `cw`'s sum over `piece`'s K-tiles, from the ring at `base` (the block's
    /// `*it`-th K-tile onwards; `*it` moves past them): for each, wait for its stage and issue
    /// its `wgmma`s as one group ([`multiply_k_tile`](Self::multiply_k_tile)), and release the
    /// previous K-tile's stage once its group is done.
    ///
    /// Invariant: one wgmma group stays in flight (`wait_group 1`), so a stage is released one
    /// K-tile after it was read, and the last one after the final `wait_group 0`; each warp
    /// arrives once (lane 0).
    #[inline(always)]
    fn mainloop(base: u32, piece: &Piece, it: &mut u32, cw: u32, lane: u32) -> [f32; 128] {
        let mut acc = [0.0f32; 128];
        for kt in piece.k_begin..piece.k_end {
            Self::multiply_k_tile(base, *it, cw, &mut acc, true);
            // Tile kt-1's group is done: its stage can be refilled.
            wgmma_wait_group::<1>();
            if kt > piece.k_begin {
                Self::release_k_tile(base, *it - 1, lane);
            }
            *it += 1;
        }
        wgmma_wait_group::<0>();
        fence_accumulators(&mut acc, Self::BN);
        if piece.k_end > piece.k_begin {
            Self::release_k_tile(base, *it - 1, lane);
        }
        acc
    }

    /// Waits until the block's `it`-th K-tile is in its stage of the ring at `base` (`full`),
    /// then issues its `wgmma`s for consumer warpgroup `cw` into `acc` and commits them as one
    /// group; the first of them starts a new sum unless `accumulate`.
    #[inline(always)]
    pub(crate) fn multiply_k_tile(base: u32, it: u32, cw: u32, acc: &mut [f32; 128], accumulate: bool) {
        let s = Self::stage_of(it);
        // SAFETY: the stage barriers were initialised by one thread and published by the block
        // barrier before the loop.
        unsafe { mbarrier_wait(Self::full(base, s), Self::round_of(it) & 1) };
        let stage = base + s * Self::STAGE_BYTES as u32;
        // This warpgroup's 64 rows of A: 64 K-major rows, or M-major panel `cw`.
        let a_part = stage + cw * if Self::A_T { Self::PANEL_BYTES as u32 } else { (64 * Self::ROW_BYTES) as u32 };
        let b_part = stage + Self::A_BYTES as u32;
        wgmma_fence();
        for kk in 0..Self::K_STEPS {
            let desc_a = wgmma_descriptor(a_part, kk, Self::A_MAJOR);
            let desc_b = wgmma_descriptor(b_part, kk, Self::B_MAJOR);
            // SAFETY: the descriptors point at the stage's swizzled tiles, complete and fenced
            // for the async proxy by the wait above.
            unsafe { Self::wgmma(acc, desc_a, desc_b, accumulate || kk > 0) };
        }
        wgmma_commit_group();
    }

    /// A consumer warp (its lane 0) is done reading the block's `it`-th K-tile: its stage can be
    /// refilled.
    #[inline(always)]
    pub(crate) fn release_k_tile(base: u32, it: u32, lane: u32) {
        if lane == 0 {
            // SAFETY: `empty` barriers are initialised before the loop; the caller's group that
            // read the stage is complete.
            unsafe { Self::release(Self::empty(base, Self::stage_of(it))) };
        }
    }
    // ANCHOR_END: consumer

    /// Consumer warpgroup `cw` writes its sums `acc` (64 rows × BN) to C at (`row0`, `col0`) of
    /// product `z` ([`CStoreBy`]): through the copy engine with [`CStore::TmaStore`] where beta
    /// is 0 (C need not be read) and rows of C are whole 16-byte pieces, C's type, a column bias
    /// and ReLU applied as each value is staged; any other fused epilogue in a pass over the
    /// staged buffer; else from the registers ([`CStore::Scalar`], [`CStore::Pairs`]).
    ///
    /// # Safety
    /// Called by the whole warpgroup; `map_c` is the host's map of C when the spec asks for one,
    /// and the C buffers are this block's.
    #[inline(always)]
    unsafe fn epilogue(gemm: &GemmArgs<E>, map_c: *const TensorMap, acc: &[f32; 128], cw: u32, row0: u32, col0: u32, z: u32) {
        let g = if Self::PERSISTENT { gemm.at_batch(z) } else { *gemm };
        // The copy engine's store writes a row of C in whole 16-byte pieces: where a row of N
        // values ends inside one, it wrote the rest of that piece into C's padding (observed on
        // an H200, `docs/perf` run 162), so such a C is stored by the threads.
        // Decided once per tile, then one call per path: each call inlines its own copy of the
        // staging loop (the copy engine's twice, bare and with the bias), none with another's.
        let store = if Self::FUSES && g.epilogue != 0 {
            let c = g.fused_c();
            let e = c.epilogue;
            if e.applies_per_value() && c.beta == 0.0 && g.n as usize * c.elem_bytes() % 16 == 0 {
                // A bias, ReLU and C's type at most: applied as each value is staged, C stored
                // by the copy engine; C's type alone in the plain copy of the staging.
                let bias = if matches!(e.bias, Bias::None) && matches!(e.activation, Activation::Identity) {
                    None
                } else {
                    Some((c.window(row0, col0).column_bias(), matches!(e.activation, Activation::Relu)))
                };
                CStoreBy::CopyEngine { out: e.output, bias }
            } else {
                CStoreBy::FusedPass
            }
        } else if Self::TMA_STORE && g.beta == 0.0 && g.n % 4 == 0 {
            CStoreBy::CopyEngine { out: Dtype::F32, bias: None }
        } else {
            CStoreBy::Threads
        };
        match store {
            CStoreBy::CopyEngine { out, bias: None } => {
                let staging = Staging { scale: g.alpha, bias: ColumnBias::NONE, relu: false };
                // SAFETY: the caller's guarantee: `map_c` is the host's tensor map of C (of C's
                // type), and the buffers are this block's.
                unsafe { Self::store_typed(out, map_c, staging, acc, cw, row0, col0, z) };
            }
            CStoreBy::CopyEngine { out, bias: Some((bias, relu)) } => {
                let staging = Staging { scale: g.alpha, bias, relu };
                // SAFETY: as above.
                unsafe { Self::store_typed(out, map_c, staging, acc, cw, row0, col0, z) };
            }
            CStoreBy::FusedPass => Self::store_fused_through_shared(&g.fused_c(), acc, cw, row0, col0),
            CStoreBy::Threads => Self::store_from_registers(&g.c(), acc, row0, col0),
        }
    }
}

/// How a consumer's tile of C leaves ([`WgmmaTma::epilogue`]).
enum CStoreBy {
    /// Staged (times alpha, plus a column bias and then ReLU where `bias` says so: the bias
    /// and whether ReLU follows) in type `out`, and stored by the copy engine.
    CopyEngine { out: Dtype, bias: Option<(ColumnBias, bool)> },
    /// Staged as f32, then the fused epilogue in a pass over the buffer, stored by the threads.
    FusedPass,
    /// From the registers by the threads (beta ≠ 0 without a fused epilogue, or rows the copy
    /// engine cannot store).
    Threads,
}

/// What happens to each sum on its way into a C buffer ([`WgmmaTma::stage_slices`]).
#[derive(Clone, Copy)]
struct Staging {
    /// Each sum is multiplied by it (alpha; 1 where the fused store applies alpha itself).
    scale: f32,
    /// Added to each sum: the bias over the columns of the consumer's tile (zeros: none).
    bias: ColumnBias,
    /// Then ReLU ([`FusedEpilogue::applies_per_value`](crate::spec::FusedEpilogue::applies_per_value)).
    relu: bool,
}

impl Staging {
    /// Each sum times `scale`, kept in f32.
    const fn scaled(scale: f32) -> Staging {
        Staging { scale, bias: ColumnBias::NONE, relu: false }
    }
}

// The kernel's constants.

/// Registers per thread of the producer warpgroup and of each consumer warpgroup.
const PRODUCER_REGS: u32 = 40;
const CONSUMER_REGS: u32 = 232;

/// Blocks per SM the kernel asks ptxas to fit (one: `setmaxnreg` needs the SM's registers to
/// itself).
const MIN_BLOCKS_PER_SM: u32 = 1;

// Every configuration in both element types (f16 has no rows of its own in the dispatch table: it
// takes the twin of every bf16 row), but the persistent kernel with scalar stores.
entries! {
    for E in (bgemm: Bf16, hgemm: F16);
    bgemm_14_wgmma_tma_128x256x64_s4 | hgemm_14_wgmma_tma_128x256x64_s4
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }>,
    bgemm_14_wgmma_tma_128x256x64_s4_persistent | _
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::Persistent }>,
    bgemm_14_wgmma_tma_128x128x64_s6 | hgemm_14_wgmma_tma_128x128x64_s6
        => WgmmaTma<E, { Tile::block(128, 128, 64).with_stages(6) }>,
    bgemm_14_wgmma_tma_128x256x64_s4_pairs | hgemm_14_wgmma_tma_128x256x64_s4_pairs
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::DataParallel }, { CStore::Pairs }>,
    bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs | hgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::Persistent }, { CStore::Pairs }>,
    bgemm_14_wgmma_tma_128x256x64_s4_tmast | hgemm_14_wgmma_tma_128x256x64_s4_tmast
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::DataParallel }, { CStore::TmaStore }>,
    bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast | hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::Persistent }, { CStore::TmaStore }>,
    bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast | hgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::StreamK }, { CStore::TmaStore }>,
    bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs_nt | hgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs_nt
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::Persistent }, { CStore::Pairs }, Nt>,
    bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs_tn | hgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs_tn
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::Persistent }, { CStore::Pairs }, Tn>,
    bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs_tt | hgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs_tt
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::Persistent }, { CStore::Pairs }, Tt>,
    bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt | hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::Persistent }, { CStore::TmaStore }, Nt>,
    bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_tn | hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_tn
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::Persistent }, { CStore::TmaStore }, Tn>,
    bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_tt | hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_tt
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::Persistent }, { CStore::TmaStore }, Tt>,
    bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast_nt | hgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast_nt
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::StreamK }, { CStore::TmaStore }, Nt>,
    bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast_tn | hgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast_tn
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::StreamK }, { CStore::TmaStore }, Tn>,
    bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast_tt | hgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast_tt
        => WgmmaTma<E, { Tile::block(128, 256, 64).with_stages(4) }, { Schedule::StreamK }, { CStore::TmaStore }, Tt>,
    // Narrower tiles for linear layers of few rows (more tiles for the SMs; `rgemm tune` decides).
    bgemm_14_wgmma_tma_128x128x64_s6_pairs_nt | hgemm_14_wgmma_tma_128x128x64_s6_pairs_nt
        => WgmmaTma<E, { Tile::block(128, 128, 64).with_stages(6) }, { Schedule::DataParallel }, { CStore::Pairs }, Nt>,
    bgemm_14_wgmma_tma_64x256x64_s4_pairs_nt | hgemm_14_wgmma_tma_64x256x64_s4_pairs_nt
        => WgmmaTma<E, { Tile::block(64, 256, 64).with_stages(4) }, { Schedule::DataParallel }, { CStore::Pairs }, Nt>,
    bgemm_14_wgmma_tma_64x128x64_s4_pairs_nt | hgemm_14_wgmma_tma_64x128x64_s4_pairs_nt
        => WgmmaTma<E, { Tile::block(64, 128, 64).with_stages(4) }, { Schedule::DataParallel }, { CStore::Pairs }, Nt>,
    // Linear layers of 3 to 128 rows are bound by reading the weight once: 64 × 64 (or 64 × 128)
    // tiles give the SMs enough blocks without splitting K (no partial sums, no second launch),
    // and a ring of 12 (or 8) stages keeps that many K-tiles of the weight in flight per SM.
    bgemm_14_wgmma_tma_64x128x64_s8_pairs_nt | hgemm_14_wgmma_tma_64x128x64_s8_pairs_nt
        => WgmmaTma<E, { Tile::block(64, 128, 64).with_stages(8) }, { Schedule::DataParallel }, { CStore::Pairs }, Nt>,
    bgemm_14_wgmma_tma_64x64x64_s12_pairs_nt | hgemm_14_wgmma_tma_64x64x64_s12_pairs_nt
        => WgmmaTma<E, { Tile::block(64, 64, 64).with_stages(12) }, { Schedule::DataParallel }, { CStore::Pairs }, Nt>,
    bgemm_14_wgmma_tma_64x64x64_s12_tmast_nt | hgemm_14_wgmma_tma_64x64x64_s12_tmast_nt
        => WgmmaTma<E, { Tile::block(64, 64, 64).with_stages(12) }, { Schedule::DataParallel }, { CStore::TmaStore }, Nt>,
    // The same tiles storing C through shared memory, which applies a fused epilogue (bias,
    // activation, a 16-bit C) on the way out where the pair stores cannot.
    bgemm_14_wgmma_tma_128x128x64_s6_tmast | hgemm_14_wgmma_tma_128x128x64_s6_tmast
        => WgmmaTma<E, { Tile::block(128, 128, 64).with_stages(6) }, { Schedule::DataParallel }, { CStore::TmaStore }>,
    bgemm_14_wgmma_tma_128x128x64_s6_tmast_nt | hgemm_14_wgmma_tma_128x128x64_s6_tmast_nt
        => WgmmaTma<E, { Tile::block(128, 128, 64).with_stages(6) }, { Schedule::DataParallel }, { CStore::TmaStore }, Nt>,
    bgemm_14_wgmma_tma_64x256x64_s4_tmast_nt | hgemm_14_wgmma_tma_64x256x64_s4_tmast_nt
        => WgmmaTma<E, { Tile::block(64, 256, 64).with_stages(4) }, { Schedule::DataParallel }, { CStore::TmaStore }, Nt>,
    bgemm_14_wgmma_tma_64x128x64_s8_tmast_nt | hgemm_14_wgmma_tma_64x128x64_s8_tmast_nt
        => WgmmaTma<E, { Tile::block(64, 128, 64).with_stages(8) }, { Schedule::DataParallel }, { CStore::TmaStore }, Nt>,
    // The same narrow tile for small square-ish products (1000³: 128 tiles of 64 × 128 where
    // 128 × 128 makes 64 for 132 SMs); with K of a thousand or so a block's whole life is the
    // ring filling, so the 8-stage ring has half of K in flight at once.
    bgemm_14_wgmma_tma_64x128x64_s4_pairs | hgemm_14_wgmma_tma_64x128x64_s4_pairs
        => WgmmaTma<E, { Tile::block(64, 128, 64).with_stages(4) }, { Schedule::DataParallel }, { CStore::Pairs }>,
    bgemm_14_wgmma_tma_64x128x64_s8_pairs | hgemm_14_wgmma_tma_64x128x64_s8_pairs
        => WgmmaTma<E, { Tile::block(64, 128, 64).with_stages(8) }, { Schedule::DataParallel }, { CStore::Pairs }>,
    bgemm_14_wgmma_tma_64x128x64_s8_tmast | hgemm_14_wgmma_tma_64x128x64_s8_tmast
        => WgmmaTma<E, { Tile::block(64, 128, 64).with_stages(8) }, { Schedule::DataParallel }, { CStore::TmaStore }>,
    // The narrow tiles for A stored K×M (`tn`, `tt`): thin products (4096 × 16 × 4096 `tn`) make
    // 32 tiles of 128 × 256 for 132 SMs, 64 of 64 × 64 or 64 × 128.
    bgemm_14_wgmma_tma_64x128x64_s8_tmast_tn | hgemm_14_wgmma_tma_64x128x64_s8_tmast_tn
        => WgmmaTma<E, { Tile::block(64, 128, 64).with_stages(8) }, { Schedule::DataParallel }, { CStore::TmaStore }, Tn>,
    bgemm_14_wgmma_tma_64x128x64_s8_tmast_tt | hgemm_14_wgmma_tma_64x128x64_s8_tmast_tt
        => WgmmaTma<E, { Tile::block(64, 128, 64).with_stages(8) }, { Schedule::DataParallel }, { CStore::TmaStore }, Tt>,
    bgemm_14_wgmma_tma_64x64x64_s12_tmast_tn | hgemm_14_wgmma_tma_64x64x64_s12_tmast_tn
        => WgmmaTma<E, { Tile::block(64, 64, 64).with_stages(12) }, { Schedule::DataParallel }, { CStore::TmaStore }, Tn>,
    bgemm_14_wgmma_tma_64x64x64_s12_tmast_tt | hgemm_14_wgmma_tma_64x64x64_s12_tmast_tt
        => WgmmaTma<E, { Tile::block(64, 64, 64).with_stages(12) }, { Schedule::DataParallel }, { CStore::TmaStore }, Tt>,
    // Tiles 192 wide (wgmma n192) for the sizes that are multiples of 192 (1536, 2304, 3072): 64
    // or 96 tiles a round where 128 × 256 leaves SMs idle or takes a third round.
    bgemm_14_wgmma_tma_128x192x64_s4_tmast | hgemm_14_wgmma_tma_128x192x64_s4_tmast
        => WgmmaTma<E, { Tile::block(128, 192, 64).with_stages(4) }, { Schedule::DataParallel }, { CStore::TmaStore }>,
    bgemm_14_wgmma_tma_128x192x64_s4_persistent_tmast | hgemm_14_wgmma_tma_128x192x64_s4_persistent_tmast
        => WgmmaTma<E, { Tile::block(128, 192, 64).with_stages(4) }, { Schedule::Persistent }, { CStore::TmaStore }>,
}
