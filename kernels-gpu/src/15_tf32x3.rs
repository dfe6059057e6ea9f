//! # Rung 15 — fp32 accuracy from the tf32 tensor cores (3×TF32)
//!
//! **Idea.** The tensor cores take fp32 only as tf32 (10 of the 23 mantissa bits). Split each
//! input into `hi = rna(x)` and `lo = rna(x − hi)`, both tf32, and compute
//! `a·b ≈ hi_a·hi_b + hi_a·lo_b + lo_a·hi_b` with three tf32 `wgmma` products, dropping only
//! `lo_a·lo_b` (at most 2⁻²²·|a·b|): fp32 accuracy at tensor-core speed. The tensor cores
//! truncate what they read, so the roundings may be left to them ([`OperandSplit`]): [`OperandSplit::Raw`] computes
//! only `hi = trunc(x)` and the exact `lo = x − hi`, two instructions per value, at a looser bound.
//!
//! **Invariants.** `wgmma` reads tf32 only K-major from shared memory, so the kernel computes
//! `Cᵀ = Bᵀ·Aᵀ` (or `C` for `tt` without [`OperandSplit::Presplit`]): the K-major operand S is split in shared memory (`lo` beside it,
//! `hi` over it, or left for the tensor cores to truncate with [`OperandSplit::Truncated`] and [`OperandSplit::Raw`]; `tn`
//! transposes it on the way), the other, R, is loaded into registers and split there into the
//! wgmma fragments, every fragment a value computed after the wait for the previous group. The
//! tensor cores' sums are cut toward zero, so every few K-tiles ([`FlushEvery`]) the chunk is
//! added into fp32 registers (`sum`) and restarted from zero. A wgmma reads its register
//! operand until a `wait_group` covers it, so a warpgroup waits for its previous group
//! (`wait_group 0`) before it writes the next fragments. Thread 0 issues the copy engine's loads
//! into a ring of `stages` stages, refilling a stage one K-tile after the warps released it (so
//! it never waits for the release, and asks while the tensor cores still work); the copy engine
//! needs 16-byte-aligned rows, and the catalog refuses this rung otherwise. Thread 0 computes
//! too, and each load costs its warpgroup time whatever its size, so a tile comes in one load
//! where it can: an MN-major tile's four panels through a four-dimensional tensor map (where the
//! matrix's columns are whole panels, [`whole_panels`]), a split-ahead A's two planes as one box
//! ([`BoxSpan`]). With [`OperandSplit::Presplit`] the
//! host splits S (A) ahead of the product into a workspace, K-major in every layout
//! ([`crate::split_ahead`]), and the copy engine loads both parts: no split and no barrier in the
//! K-loop, for a pass over A before it.
//!
//! **Cost.** Three tensor-core products per fp32 product (at most a third of the dense tf32 rate)
//! plus the splits on the CUDA cores; two warpgroups and no producer warpgroup, because `sum`,
//! the chunk and the fragments need up to 255 registers per thread.
//!
//! **Parts.** No warpgroup only copies (the registers are the consumers'), so thread 0 is the
//! producer besides its share of the arithmetic: `fill` asks for a tile's first `stages` K-tiles
//! and `refill` for each later one from inside the K loop (`mainloop`: split, fragments, `issue`,
//! flush); the `epilogue` writes the sums. The tile order is [`tile_order`]'s.
//!
//! The error bounds, the flushes, the layouts, the block, its speed and accuracy against cuBLAS
//! SGEMM: `book/src/rung-15-tf32x3.md` (and how it got there: `book/src/appendix-history.md`).

use crate::prelude::*;
use crate::tile_order;
use core::marker::PhantomData;

pub const RUNG: Rung = Rung::ladder(
    15,
    "tf32x3",
    "fp32 on tf32 tensor cores: each operand split into a tf32 high part and a remainder, three wgmma products",
);

/// Tile `T`: a 128 × 128 block tile of C (two warpgroups of 64 columns each), K-tiles of
/// `bk` = 32, `stages` buffers.
///
/// `F` ([`Flush`]): every [`FlushEvery`]`<n>` K-tiles the tensor cores' accumulators are added
/// into fp32 registers (see the module documentation). `SP` ([`OperandSplit`]) is how the operands are
/// split: [`OperandSplit::Rounded`], [`OperandSplit::Truncated`] (the shared operand) or [`OperandSplit::Raw`] (both, without rounding).
/// `L` is the storage of A and B ([`Nn`], [`Nt`], [`Tn`], [`Tt`]; see *Layouts* in the rung's
/// book chapter).
pub struct Tf32x3<const T: Tile, F, const SP: OperandSplit = { OperandSplit::Rounded }, L = Nn>(PhantomData<(F, L)>);

impl<const T: Tile, F: Flush, const SP: OperandSplit, L: Storage> Tf32x3<T, F, SP, L> {
    /// Rows of the tile: the wgmma's N.
    const BM: usize = T.bm as usize;
    const BN: usize = T.bn as usize;
    const BK: usize = T.bk as usize;
    const STAGES: usize = T.stages as usize;
    const FLUSH: u32 = F::INTERVAL;
    const TRUNCATED: bool = SP.truncated();
    const ROUNDED_LO: bool = SP.rounded_lo();
    const PRESPLIT: bool = SP.presplit();
    const WARPGROUPS: usize = Self::BN / 64;
    const THREADS: usize = 128 * Self::WARPGROUPS;
    /// The shared operand S is B (stored N×K) and the register operand R is A: the tensor cores
    /// compute C itself (`tt`, A not split ahead). Otherwise S is A, R is B, and they compute Cᵀ.
    const S_IS_B: bool = L::LAYOUT.a.is_t() && L::LAYOUT.b.is_t() && !Self::PRESPLIT;
    /// S stored K-major (rows of K: one box of 128 rows, split in place); else MN-major (`tn`: four
    /// panels, transposed by the split).
    /// With [`OperandSplit::Presplit`] S is A, split and made K-major by the host whatever its layout.
    const S_K_MAJOR: bool = if Self::PRESPLIT { true } else if Self::S_IS_B { L::LAYOUT.b.is_t() } else { !L::LAYOUT.a.is_t() };
    /// R stored K-major (`nt`: one box of 128 rows of K); else MN-major panels.
    const R_K_MAJOR: bool = if Self::S_IS_B { !L::LAYOUT.a.is_t() } else { L::LAYOUT.b.is_t() };
    /// One operand's K-tile: 128 rows of M or N by 32 of K, 128-byte swizzled (K-major: 128
    /// 128-byte rows; MN-major: four panels of 32 rows of K by 32 of M or N).
    const TILE_BYTES: usize = Self::BM * Self::BK * 4;
    const PANEL: usize = 32;
    const PANEL_BYTES: usize = Self::BK * Self::PANEL * 4;
    /// An MN-major tile's panels, side by side in shared memory: one load of the copy engine
    /// where the matrix's columns are whole panels (`whole_panels`), else one load each.
    const PANELS_SPAN: BoxSpan = BoxSpan::Panels((Self::BM / Self::PANEL) as u32);
    /// A is stored MN-major and loaded as it is (not split ahead).
    const A_PANELS: bool = L::LAYOUT.a.is_t() && !Self::PRESPLIT;
    /// What one load of A spans (the spec's tensor maps; see `load_tile`): an MN-major tile's
    /// panels, or a split-ahead A's two planes.
    const A_SPAN: BoxSpan = if Self::A_PANELS { Self::PANELS_SPAN } else if Self::PRESPLIT { BoxSpan::Planes(2) } else { BoxSpan::One };
    /// What one load of B spans: its panels where it is MN-major, except in `nn` without the
    /// split ahead (`_raw` and the rounded splits), where B's tile in one load measured slower
    /// than panel by panel (the book's *One load per tile*).
    const B_SPAN: BoxSpan = if L::LAYOUT.b.is_t() || (!L::LAYOUT.a.is_t() && !Self::PRESPLIT) { BoxSpan::One } else { Self::PANELS_SPAN };
    /// A stage: S (raw, then its high part) | S's low part | R.
    const LO: usize = Self::TILE_BYTES;
    const R: usize = 2 * Self::TILE_BYTES;
    const STAGE_BYTES: usize = 3 * Self::TILE_BYTES;
    /// What the copy engine writes per stage (and what `full` expects): S and R, and with
    /// [`OperandSplit::Presplit`] S's low part.
    const TMA_BYTES: usize = if Self::PRESPLIT { 3 } else { 2 } * Self::TILE_BYTES;
    /// float4s of S per K-tile each thread splits.
    const SPLITS_PER_THREAD: usize = Self::TILE_BYTES / 16 / Self::THREADS;
    /// The mbarriers sit after the stages: `full[0..STAGES]`, then `empty[0..STAGES]`.
    const BARRIERS: usize = Self::STAGES * Self::STAGE_BYTES;
    const SMEM_BYTES: usize = Self::BARRIERS + 2 * 8 * Self::STAGES;

    const VALID: () = {
        assert!(Self::BM == 128 && Self::BN == 128 && Self::BK == 32, "the fragments, the wgmma shape and the split are written for 128 × 128 × 32");
        assert!(Self::STAGES >= 2);
        assert!(Self::FLUSH >= 1);
        assert!(Self::BM == Self::BN, "S and R trade places with the layout");
        assert!(Self::BM / 8 <= crate::unroll::UNROLL_MAX);
        assert!(Self::STAGE_BYTES % 1024 == 0 && Self::TILE_BYTES % 1024 == 0, "every tile starts on a 1024-byte swizzle block");
        assert!(Self::TILE_BYTES % (16 * Self::THREADS) == 0, "the split divides evenly among the threads");
        assert!(Self::BM / Self::PANEL * 64 == Self::THREADS, "two warps transpose each panel of an MN-major S");
        assert!(Self::SMEM_BYTES <= 227 * 1024, "fits the shared memory of an SM");
    };

    /// `x` as the tf32 pair (hi, lo): `hi = rna(x)`, `lo = rna(x − hi)`.
    #[inline(always)]
    // ANCHOR: split
    fn split(x: f32) -> (f32, f32) {
        let hi = cvt_rna_tf32(x);
        (hi, cvt_rna_tf32(x - hi))
    }
    // ANCHOR_END: split

    /// `x` as the tensor cores read it: its low 13 bits cleared (truncated to tf32).
    #[inline(always)]
    fn trunc(x: f32) -> f32 {
        crate::split_ahead::trunc_tf32(x)
    }

    /// `x` as the tensor cores' two parts under [`OperandSplit`]: with [`OperandSplit::Rounded`]
    /// `(rna(x), rna(x − rna(x)))`, with [`OperandSplit::Truncated`] `(trunc(x), rna(x − trunc(x)))`, with
    /// [`OperandSplit::Raw`] `(trunc(x), x − trunc(x))`. The tensor cores truncate what they read to its high 19
    /// bits, so `trunc(x)` reads as `x` would; it is already computed for `lo`, and a transposing
    /// split stores it straight from that instruction instead of copying `x` into place.
    #[inline(always)]
    fn parts(x: f32) -> (f32, f32) {
        if !Self::TRUNCATED {
            Self::split(x)
        } else {
            let hi = Self::trunc(x);
            let lo = x - hi;
            (hi, if Self::ROUNDED_LO { cvt_rna_tf32(lo) } else { lo })
        }
    }

    /// Thread `tid` splits its float4s of the stage's K-major tile of S at `stage`: `lo` into the
    /// tile after it, and with [`OperandSplit::Rounded`] `hi` over the raw values.
    #[inline(always)]
    unsafe fn split_in_place(stage: *mut u8, tid: u32) {
        for i in 0..Self::SPLITS_PER_THREAD {
            let offset = 16 * (tid as usize + Self::THREADS * i);
            let raw = stage.wrapping_add(offset) as *mut f32;
            let lo = stage.wrapping_add(Self::LO + offset) as *mut f32;
            // SAFETY: both float4s lie in this stage's two tiles of S (offset < TILE_BYTES),
            // 16-byte aligned; the stage is this block's and the copy engine has filled it (`full`).
            unsafe {
                let v = ld_shared_v4(raw);
                let [(h0, l0), (h1, l1), (h2, l2), (h3, l3)] = [Self::parts(v[0]), Self::parts(v[1]), Self::parts(v[2]), Self::parts(v[3])];
                if !Self::TRUNCATED {
                    st_shared_v4(raw, [h0, h1, h2, h3]);
                }
                st_shared_v4(lo, [l0, l1, l2, l3]);
            }
        }
    }

    /// `tn`: thread `tid` transposes one 4 × 4 block of the stage's M-major tile of S (four
    /// panels of 32 rows of K × 32 of M) into the K-major tile wgmma reads: `hi` over the same
    /// 16 KiB (panel p holds exactly rows `32p..32p + 32` of the K-major tile), `lo` into the
    /// tile after it. Panel p is the two warps `2p, 2p + 1`; they meet between reading and
    /// writing. Block (kb, mb) of the panel (rows `4kb..`, columns `4mb..`) goes to thread `u` of
    /// the panel with `kb = u % 8`, `mb = kb ^ (u / 8)`: the eight threads of a quarter warp read
    /// eight different 16-byte chunks of the swizzled rows, and write eight different ones.
    #[inline(always)]
    unsafe fn split_transposed(stage: *mut u8, tid: u32) {
        let (p, u) = (tid / 64, tid % 64);
        let (kb, mb) = (u % 8, (u % 8) ^ (u / 8));
        let panel = SwizzledF32Rows::new(p as usize * Self::PANEL_BYTES);
        let k_major = SwizzledF32Rows::new(0);
        let at = |offset: u32| stage.wrapping_add(offset as usize) as *mut f32;
        let mut x = [[0.0f32; 4]; 4];
        for (j, row) in x.iter_mut().enumerate() {
            // SAFETY: row 4kb + j, columns 4mb.. of panel p: a 16-byte-aligned float4 inside this
            // stage's tile of S, which the copy engine has filled (`full`).
            *row = unsafe { ld_shared_v4(at(panel.at(4 * kb + j as u32, 4 * mb))) };
        }
        // The panel is read by both its warps before either writes over it.
        named_barrier_sync::<64>(PANEL_BARRIER + p);
        for i in 0..4 {
            let [(h0, l0), (h1, l1), (h2, l2), (h3, l3)] = [Self::parts(x[0][i]), Self::parts(x[1][i]), Self::parts(x[2][i]), Self::parts(x[3][i])];
            let offset = k_major.at(Self::PANEL as u32 * p + 4 * mb + i as u32, 4 * kb);
            // SAFETY: row 32p + 4mb + i, columns 4kb.. of the K-major tile: a 16-byte-aligned
            // float4 inside panel p's 4 KiB, which both its warps have read (barrier above), and
            // the same float4 of the low tile.
            unsafe {
                st_shared_v4(at(offset), [h0, h1, h2, h3]);
                st_shared_v4(at(Self::LO as u32 + offset), [l0, l1, l2, l3]);
            }
        }
    }

    /// This thread's values of R for the wgmma A fragments of the four 8-deep steps of the stage
    /// at `stage`, raw: `[4·kk + i]`. Warpgroup `wg`'s wgmma row r is row (of N, or of M for
    /// `tt`) `64·wg + r` of R's tile, step kk's column c is `8·kk + c` of K.
    ///
    /// MN-major R (rows of K): fragment value i of thread (g, t) lies in row `t + 4·(i / 2)` of the
    /// step, column `g + 8·(i % 2)`. Loaded in that order, one load of a warp reads four
    /// consecutive rows and two 16-byte chunks of each, and the 128-byte swizzle gives rows t and
    /// t ^ 1 the same two chunks: two-way bank conflicts. Threads of odd t load their two rows in
    /// the other order (value `i ^ 2` at load i), so each load's four rows land in four different
    /// chunk pairs, and swap the values back into place.
    #[inline(always)]
    unsafe fn r_values(stage: *mut u8, wg: u32) -> [f32; 16] {
        let (warp_in_wg, lane) = (warp_idx() % 4, lane_idx());
        let (g, t) = (lane / 4, lane % 4);
        let swap = !Self::R_K_MAJOR && t % 2 == 1;
        let mut x = [0.0f32; 16];
        for kk in 0..Self::BK / 8 {
            for i in 0..4 {
                let j = if swap { i ^ 2 } else { i } as u32;
                let r = 64 * wg + 16 * warp_in_wg + g + 8 * (j % 2);
                let k = 8 * kk as u32 + t + 4 * (j / 2);
                let at = if Self::R_K_MAJOR {
                    SwizzledF32Rows::new(Self::R).at(r, k)
                } else {
                    // Step kk lies 8 rows of K (one swizzle period, 1024 bytes) below step 0, at
                    // the same chunks: one address per value i, and the steps as offsets from it.
                    let panel = (r / Self::PANEL as u32) as usize;
                    let step0 = SwizzledF32Rows::new(Self::R + panel * Self::PANEL_BYTES).at(k - 8 * kk as u32, r % Self::PANEL as u32);
                    step0 + SwizzledF32Rows::bytes(8) as u32 * kk as u32
                };
                // SAFETY: (r, k) lies inside the stage's tile of R, which the copy engine filled.
                x[4 * kk + i] = unsafe { load(stage.wrapping_add(at as usize) as *const f32) };
            }
            for i in 0..2 {
                let (a, b) = (x[4 * kk + i], x[4 * kk + i + 2]);
                (x[4 * kk + i], x[4 * kk + i + 2]) = if swap { (b, a) } else { (a, b) };
            }
        }
        x
    }

    /// The fragments of [`r_values`](Self::r_values), split: `(hi[kk], lo[kk])` as bit patterns
    /// ([`split`](Self::split), or with [`OperandSplit::Raw`] `(trunc(x), x − trunc(x))`).
    ///
    /// Every fragment is a value computed here, after the wait for the previous group, never a
    /// loaded value itself: the loop's next loads of R are issued before that wait and, in PTX,
    /// land in the same registers each iteration, which a `wgmma` still in flight may be reading.
    /// With [`OperandSplit::Raw`] the high part is masked to what the tensor cores would read anyway.
    #[inline(always)]
    fn split_fragments(x: &[f32; 16]) -> ([[u32; 4]; 4], [[u32; 4]; 4]) {
        let mut hi = [[0u32; 4]; 4];
        let mut lo = [[0u32; 4]; 4];
        for kk in 0..4 {
            for i in 0..4 {
                let x = x[4 * kk + i];
                let (h, l) = if Self::ROUNDED_LO {
                    Self::split(x)
                } else {
                    let hi = Self::trunc(x);
                    (hi, x - hi)
                };
                hi[kk][i] = h.to_bits();
                lo[kk][i] = l.to_bits();
            }
        }
        (hi, lo)
    }

    /// Splits R's values into the K-tile's fragments (after the wait for the group that last read
    /// their registers) and issues its twelve wgmmas as one group; with `fresh`, the first starts
    /// the tensor cores' sums from zero.
    #[inline(always)]
    // ANCHOR: issue
    fn issue(stage: u32, r: &mut [f32; 16], fresh: bool, acc: &mut [f32; 128]) {
        // The fragments are computed after the wait, not hoisted above it.
        fence_operands_16(r);
        let (hi_r, lo_r) = Self::split_fragments(r);
        wgmma_fence();
        for kk in 0..Self::BK / 8 {
            let desc_hi = wgmma_descriptor(stage, kk, Major::K);
            let desc_lo = wgmma_descriptor(stage + Self::LO as u32, kk, Major::K);
            // SAFETY: the whole warpgroup issues these on tiles of this stage, which stays
            // unchanged until the group is waited for and the stage released.
            unsafe {
                wgmma_m64k8_tf32_rs::<128>(acc, lo_r[kk], desc_hi, !(fresh && kk == 0));
                wgmma_m64k8_tf32_rs::<128>(acc, hi_r[kk], desc_lo, true);
                wgmma_m64k8_tf32_rs::<128>(acc, hi_r[kk], desc_hi, true);
            }
        }
        wgmma_commit_group();
    }
    // ANCHOR_END: issue

    /// The wgmmas of global iteration `it - 1` are done: this warp releases its stage (one arrival
    /// per warp), in the loop and after the last K-tile of a tile.
    #[inline(always)]
    fn release(base: u32, it: u32, lane: u32) {
        if lane == 0 {
            // SAFETY: an initialised barrier of this block.
            unsafe { mbarrier_arrive(Self::empty(base, (it - 1) % Self::STAGES as u32)) };
        }
    }

    /// At K-tile kt (from 2 on), after the split barrier, thread 0 asks for K-tile kt-2+`STAGES`
    /// into kt-2's stage. Every warp released that stage in the previous iteration, before it
    /// reached this barrier, so the copy starts without waiting, and it is asked for while the
    /// tensor cores still run K-tile kt-1's group rather than between its end and the next group.
    /// Split ahead there is no barrier: the warpgroups run apart, and the first thread of each
    /// asks in turn (of warpgroup kt mod 2), so that each pays for every other K-tile's loads
    /// (with the barrier each K-tile's loads hold both warpgroups wherever they are issued, and
    /// taking turns measured slower); it waits for the release (`empty`) if a warp lags.
    #[inline(always)]
    fn refill(it: u32, kt: u32, k_tiles: u32, tid: u32, (tm, tn): (u32, u32), src: Sources, base: u32) {
        let stages = Self::STAGES as u32;
        let issuer = if Self::PRESPLIT { 128 * (kt % Self::WARPGROUPS as u32) } else { 0 };
        if tid == issuer && kt >= 2 && kt - 2 + stages < k_tiles {
            // SAFETY: see `load`.
            unsafe { Self::load(it - 2 + stages, kt - 2 + stages, tm, tn, src, base) };
        }
    }

    /// `sum += acc`, rounded to nearest (the first `BM / 2` accumulators).
    #[inline(always)]
    fn flush(sum: &mut [f32; 128], acc: &[f32; 128]) {
        unroll!(Self::BM / 8, |j| {
            for i in 0..4 {
                sum[4 * j + i] += acc[4 * j + i];
            }
        });
    }

    /// Thread 0 asks the copy engine for K-tile `kt` of tile (`tm`, `tn`) into the stage of
    /// global iteration `it`, once every warp has released that stage's previous contents; from
    /// the planes of `src`.
    #[inline(always)]
    unsafe fn load(it: u32, kt: u32, tm: u32, tn: u32, Sources { maps, planes, whole }: Sources, base: u32) {
        let s = it % Self::STAGES as u32;
        let round = it / Self::STAGES as u32;
        let (full, empty) = (Self::full(base, s), Self::empty(base, s));
        let stage = base + s * Self::STAGE_BYTES as u32;
        let (row0, col0, k0) = ((tm * Self::BM as u32) as i32, (tn * Self::BN as u32) as i32, (kt * Self::BK as u32) as i32);
        // (map, plane, first row of M or N, whole panels) of A and of B, then of S and of R.
        // Split ahead, A's matrix p is planes 2p (high part) and 2p + 1 (remainder) of the host's
        // workspace, which one load brings side by side (`BoxSpan::Planes(2)`).
        let plane_a = if Self::PRESPLIT { 2 * planes.0 } else { planes.0 };
        let (a, b) = ((maps, plane_a, row0, whole.0), (maps.wrapping_add(1), planes.1, col0, whole.1));
        let (s_op, r_op) = if Self::S_IS_B { (b, a) } else { (a, b) };
        // SAFETY: the stage and its barriers are this block's; the previous contents were
        // released (`empty`) before they are overwritten; the maps are the host's.
        unsafe {
            if round > 0 {
                mbarrier_wait(empty, (round - 1) & 1);
            }
            mbarrier_arrive_expect_tx(full, Self::TMA_BYTES as u32);
            Self::load_tile(stage, s_op, Self::S_K_MAJOR, k0, full);
            Self::load_tile(stage + Self::R as u32, r_op, Self::R_K_MAJOR, k0, full);
        }
    }

    /// One operand's K-tile from `k0` into `dst`, as it is stored: K-major in one box of 128
    /// rows (split ahead, with the remainder's box after it), MN-major in four panels of 32 rows
    /// of K (columns `mn0 + 32p..`): one load where the matrix's columns are whole panels
    /// (`whole`, the host then encodes the four-dimensional map), else one load per panel.
    ///
    /// # Safety
    /// As [`tma_load_3d`]: `dst` holds the tile's bytes of this block's shared memory that no one
    /// reads until `full` completes, and `map` is the host's map of the operand.
    #[inline(always)]
    unsafe fn load_tile(dst: u32, (map, plane, mn0, whole): (*const TensorMap, i32, i32, bool), k_major: bool, k0: i32, full: u32) {
        // SAFETY: the caller's guarantee.
        unsafe {
            if k_major {
                tma_load_3d(dst, map, k0, mn0, plane, full);
            } else if whole {
                tma_load_4d(dst, map, 0, k0, mn0 / Self::PANEL as i32, plane, full);
            } else {
                for p in 0..Self::BM / Self::PANEL {
                    tma_load_3d(dst + (p * Self::PANEL_BYTES) as u32, map, mn0 + (p * Self::PANEL) as i32, k0, plane, full);
                }
            }
        }
    }

    #[inline(always)]
    fn full(base: u32, s: u32) -> u32 {
        base + (Self::BARRIERS + 8 * s as usize) as u32
    }

    #[inline(always)]
    fn empty(base: u32, s: u32) -> u32 {
        base + (Self::BARRIERS + 8 * (Self::STAGES + s as usize)) as u32
    }

    /// Writes warpgroup `wg`'s sums to C: `sum[4j + i]` is wgmma row `16·warp + g + 8·(i / 2)`
    /// (row `64·wg + ...` of R's tile), wgmma column `8j + 2t + i % 2` (row of S's tile). R's rows
    /// are columns of C and S's rows rows of C (Cᵀ), except for `tt`, where it is the other way
    /// round and each thread holds pairs of neighbouring elements of a row.
    #[inline(always)]
    fn epilogue(c: &Output, sum: &[f32; 128], row0: u32, col0: u32, wg: u32) {
        let (warp_in_wg, lane) = (warp_idx() % 4, lane_idx());
        let r = 64 * wg + warp_in_wg * 16 + lane / 4;
        let s = lane % 4 * 2;
        if Self::S_IS_B {
            let c = c.window(row0 + r, col0 + s);
            unroll!(Self::BM / 8, |j| {
                let col = (j * 8) as u32;
                c.store2(0, col, [sum[4 * j], sum[4 * j + 1]]);
                c.store2(8, col, [sum[4 * j + 2], sum[4 * j + 3]]);
            });
        } else {
            let c = c.window(row0 + s, col0 + r);
            unroll!(Self::BM / 8, |j| {
                let row = (j * 8) as u32;
                c.store(row, 0, sum[4 * j]);
                c.store(row + 1, 0, sum[4 * j + 1]);
                c.store(row, 8, sum[4 * j + 2]);
                c.store(row + 1, 8, sum[4 * j + 3]);
            });
        }
    }
}

impl<const T: Tile, F: Flush, const SP: OperandSplit, L: Storage> GemmKernel for Tf32x3<T, F, SP, L> {
    type Elem = f32;
    const SPEC: KernelSpec = {
        let () = Self::VALID;
        KernelSpec::unnamed(
            RUNG,
            Dtype::F32,
            T,
            Self::THREADS as u32,
            Self::SMEM_BYTES as u32,
        )
        .with_tensor_maps(TensorMaps {
            // Boxes as the operands are stored: a K-major operand in one box of 128-byte rows,
            // an MN-major one in 32 × 32 panels, as many as `A_SPAN` and `B_SPAN` say per load.
            a_box: if Self::A_PANELS { (Self::BK as u32, Self::PANEL as u32) } else { (Self::BM as u32, Self::BK as u32) },
            a_span: Self::A_SPAN,
            a_swizzle: Swizzle::B128,
            b_box: if L::LAYOUT.b.is_t() { (Self::BN as u32, Self::BK as u32) } else { (Self::BK as u32, Self::PANEL as u32) },
            b_span: Self::B_SPAN,
            b_swizzle: Swizzle::B128,
            c_box: None,
            c_swizzle: Swizzle::None,
        })
        .with_min_blocks_per_sm(1)
        .with_layout(L::LAYOUT)
        .with_split_ahead(Self::PRESPLIT)
        .with_variant(Variant::Tf32x3(SP, F::INTERVAL))
    };

    #[inline(always)]
    unsafe fn run(gemm: &GemmArgs<f32>) {
        let smem = dynamic_shared::<u8>();
        let base = shared_address(smem);
        let maps = gemm.tensor_maps;
        let src = Self::sources(gemm);
        let tid = thread_idx();
        let wg = tid / 128;
        let lane = lane_idx();

        if tid == 0 {
            // SAFETY: thread 0, before the block barrier below; the host passes two valid tensor
            // maps in global memory.
            unsafe { Self::init(base, maps) };
        }
        // The only block-wide barrier: the mbarriers exist before anyone uses them.
        sync_threads();

        let (tiles_m, tiles_n) = (gemm.m.div_ceil(Self::BM as u32), gemm.n.div_ceil(Self::BN as u32));
        let tiles = tiles_m * tiles_n;
        let k_tiles = gemm.k.div_ceil(Self::BK as u32);
        let (first_tile, tile_stride) = block_linear();
        // Global iteration (K-tile) count of this block: stage `it % STAGES`, round `it / STAGES`.
        let mut it = 0u32;
        let mut t = first_tile;
        while t < tiles {
            let (tm, tn) = tile_order::tile_coords(t, tiles_m, tiles_n, tile_order::GROUP_M);
            if tid == 0 {
                // SAFETY: thread 0, after the barriers were initialised and published.
                unsafe { Self::fill(it, k_tiles, (tm, tn), src, base) };
            }
            let sum = Self::mainloop(smem, base, src, &mut it, k_tiles, (tm, tn), tid, lane);
            Self::epilogue(&gemm.c(), &sum, tm * Self::BM as u32, tn * Self::BN as u32, wg);
            t += tile_stride;
        }
    }
}

impl<const T: Tile, F: Flush, const SP: OperandSplit, L: Storage> Tf32x3<T, F, SP, L> {
    /// Where this block's copies read: its product of a batch (the planes of A and B), and
    /// whether an MN-major tile comes in one load: the stored columns of A (K × M when
    /// transposed) and of B (K × N) are whole panels, as the host's encoding asks too.
    #[inline(always)]
    fn sources(gemm: &GemmArgs<f32>) -> Sources {
        let one_load = |span: BoxSpan, cols: u32| matches!(span.on_columns(cols as u64, Self::PANEL as u32), BoxSpan::Panels(_));
        Sources {
            maps: gemm.tensor_maps,
            planes: (gemm.plane_a(gemm.z), gemm.plane_b(gemm.z)),
            whole: (one_load(Self::A_SPAN, gemm.m), one_load(Self::B_SPAN, gemm.n)),
        }
    }

    /// The block's setup, by thread 0 before the block barrier: each stage's two mbarriers, and
    /// the tensor maps of A and B fetched into the copy engine's cache.
    ///
    /// # Safety
    /// Thread 0 only, before any thread uses the barriers; `maps` are the host's two maps.
    #[inline(always)]
    unsafe fn init(base: u32, maps: *const TensorMap) {
        for s in 0..Self::STAGES as u32 {
            // SAFETY: the barriers lie after the stages, inside the block's shared memory.
            unsafe {
                mbarrier_init(Self::full(base, s), 1);
                // Every warp releases the stage.
                mbarrier_init(Self::empty(base, s), 4 * Self::WARPGROUPS as u32);
            }
        }
        fence_mbarrier_init();
        // SAFETY: the caller's guarantee.
        unsafe {
            tma_prefetch_map(maps);
            tma_prefetch_map(maps.wrapping_add(1));
        }
    }

    /// The producer's part at the start of tile (`tm`, `tn`): thread 0 asks for its first
    /// `STAGES` K-tiles (fewer if K is shorter), the block's K-tiles `it ..`; the loop asks for
    /// the others ([`refill`](Self::refill)).
    ///
    /// # Safety
    /// Thread 0, after the barriers are initialised and published.
    #[inline(always)]
    unsafe fn fill(it: u32, k_tiles: u32, (tm, tn): (u32, u32), src: Sources, base: u32) {
        for kt in 0..k_tiles.min(Self::STAGES as u32) {
            // SAFETY: see `load`.
            unsafe { Self::load(it + kt, kt, tm, tn, src, base) };
        }
    }

    // ANCHOR: k_loop
    /// Both warpgroups' K loop over tile (`tm`, `tn`), the block's K-tiles `*it ..` (`*it` moves
    /// past them): the sum of each thread's 128 elements of C. Per K-tile: wait for its stage,
    /// split S there (unless it arrived split) and read R's values, meet at the split barrier,
    /// let thread 0 ask for a later K-tile ([`refill`](Self::refill)), wait for the previous
    /// group, release its stage and flush its chunk, then issue this K-tile's group
    /// ([`issue`](Self::issue)).
    ///
    /// Invariant: a stage is released one K-tile after its group was issued (after the
    /// `wait_group 0` that covers it), and refilled one K-tile after that.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn mainloop(smem: *mut u8, base: u32, src: Sources, it: &mut u32, k_tiles: u32, (tm, tn): (u32, u32), tid: u32, lane: u32) -> [f32; 128] {
        let wg = tid / 128;
        let mut sum = [0.0f32; 128];
        let mut acc = [0.0f32; 128];
        for kt in 0..k_tiles {
            let s = *it % Self::STAGES as u32;
            // SAFETY: `full(s)` is an initialised barrier of this block.
            unsafe { mbarrier_wait(Self::full(base, s), (*it / Self::STAGES as u32) & 1) };
            let stage_ptr = smem.wrapping_add(s as usize * Self::STAGE_BYTES);
            let stage = base + s * Self::STAGE_BYTES as u32;
            // SAFETY: the stage is filled and no wgmma reads it (its last readers released
            // it before the refill).
            let mut r = unsafe {
                if Self::PRESPLIT {
                    // S arrived split.
                } else if Self::S_K_MAJOR {
                    Self::split_in_place(stage_ptr, tid);
                } else {
                    Self::split_transposed(stage_ptr, tid);
                }
                Self::r_values(stage_ptr, wg)
            };
            // The split tile of S is the tensor cores' to read once both warpgroups have
            // written their halves (split ahead, once the copy engine has: `full`).
            if !Self::PRESPLIT {
                fence_proxy_async_shared();
                named_barrier_sync::<{ 128 * 2 }>(SPLIT_BARRIER);
            }
            Self::refill(*it, kt, k_tiles, tid, (tm, tn), src, base);
            // A new chunk of FLUSH K-tiles starts from zero in the tensor cores.
            let fresh = kt % Self::FLUSH == 0;
            // K-tile kt-1's group is done: its stage can be released (refilled at kt+1), its
            // sums flushed, and the registers holding its fragments written (a wgmma reads its
            // register operand asynchronously, until a wait covers it).
            wgmma_wait_group::<0>();
            fence_accumulators(&mut acc, Self::BM);
            if kt > 0 {
                Self::release(base, *it, lane);
                if fresh {
                    Self::flush(&mut sum, &acc);
                }
            }
            Self::issue(stage, &mut r, fresh, &mut acc);
            *it += 1;
        }
        wgmma_wait_group::<0>();
        fence_accumulators(&mut acc, Self::BM);
        if k_tiles > 0 {
            Self::release(base, *it, lane);
            Self::flush(&mut sum, &acc);
        }
        sum
    }
    // ANCHOR_END: k_loop
}

/// Where a block's copies read: the host's tensor maps (A, B), this product's planes of A and of
/// B, and whether the stored columns of A and of B are whole panels (`whole_panels`: an MN-major
/// tile then comes in one load).
#[derive(Clone, Copy)]
struct Sources {
    maps: *const TensorMap,
    planes: (i32, i32),
    whole: (bool, bool),
}

/// The named barrier at which the two warpgroups meet after splitting the shared operand's tile
/// (0 is the block barrier).
const SPLIT_BARRIER: u32 = 1;

/// With `tn`, the named barriers `PANEL_BARRIER + p` (p = 0..4) at which the two warps that
/// transpose panel `p` meet between reading it and writing over it.
const PANEL_BARRIER: u32 = 2;

/// How often the tensor cores' sums are added into fp32 registers: the kernel's `F` parameter.
pub trait Flush {
    /// K-tiles per chunk.
    const INTERVAL: u32;
}
/// A flush every `N` K-tiles (K = 32·N): `N = 4` in the entries without a tag, 2 in `_short`.
pub struct FlushEvery<const N: u32>;
impl<const N: u32> Flush for FlushEvery<N> {
    const INTERVAL: u32 = N;
}

entries! {
    elem = f32;
    sgemm_15_tf32x3_128x128x32_s4 => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>>,
    sgemm_15_tf32x3_128x128x32_s4_trunc => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>, { OperandSplit::Truncated }>,
    sgemm_15_tf32x3_128x128x32_s4_short => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<2>>,
    sgemm_15_tf32x3_128x128x32_s4_raw => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>, { OperandSplit::Raw }>,
    sgemm_15_tf32x3_128x128x32_s4_raw_nt => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>, { OperandSplit::Raw }, Nt>,
    sgemm_15_tf32x3_128x128x32_s4_raw_tn => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>, { OperandSplit::Raw }, Tn>,
    sgemm_15_tf32x3_128x128x32_s4_raw_tt => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>, { OperandSplit::Raw }, Tt>,
    sgemm_15_tf32x3_128x128x32_s4_presplit => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>, { OperandSplit::Presplit }>,
    sgemm_15_tf32x3_128x128x32_s4_presplit_nt => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>, { OperandSplit::Presplit }, Nt>,
    sgemm_15_tf32x3_128x128x32_s4_presplit_tn => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>, { OperandSplit::Presplit }, Tn>,
    sgemm_15_tf32x3_128x128x32_s4_presplit_tt => Tf32x3<{ Tile::block(128, 128, 32).with_stages(4) }, FlushEvery<4>, { OperandSplit::Presplit }, Tt>,
}
