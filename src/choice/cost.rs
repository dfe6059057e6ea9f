//! What a plan should cost on a Hopper GPU: the model the automatic choice ranks candidate plans
//! by where no measured shape is near ([`super::plan`]).
//!
//! **The idea.** A plan's time is a fixed start, one launch cost per kernel it queues, the main
//! product, and the extra passes: the copies of A and B a staged plan makes and the sum a split
//! plan makes. The main product is the slower of its compute and its memory traffic, plus a part
//! of the faster one (they overlap, not perfectly):
//! - **compute**: the tiles of C (times the slices of K) are dealt to the SMs in rounds
//!   (fractional rounds for stream-K, whole ones otherwise); a round costs its tile's k-steps,
//!   each `2·BM·BN·BK` flops at the SM's rate for the instruction family times the tile's
//!   efficiency, plus a fixed fill and drain per tile. Small tiles and shallow pipelines reach a
//!   smaller part of the peak ([`tile_efficiency`]).
//! - **memory**: A and B read once from HBM (reuse between tiles is served by L2), C (or the
//!   partials) written once, at a part of the HBM bandwidth.
//! - the **decode GEMV** reads the weight once per block of rows and does its multiply-adds on
//!   the CUDA cores: the slower of that traffic and that arithmetic; the **dot-product kernel**
//!   streams A and B once per window of C, each block at a limited rate, so its slices of K must
//!   give it enough blocks.
//!
//! **Invariants.** The estimate is positive and finite for every plan the library can build,
//! grows with K at a fixed plan shape, and does not depend on the data. It ranks plans; it is no
//! timing (`rgemm run` prints it beside the measured time).
//!
//! **Where the constants come from.** Datasheet figures for the rates (tensor-core flops per
//! clock, the HBM bandwidth); the efficiencies and fixed costs were fitted to the tuning runs in
//! `docs/perf/` (every dispatch candidate timed on every tuning-suite shape, bf16 and f32), which
//! `tests/cost_model.rs` replays: the model's pick must stay near the fastest measured plan
//! there. The GEMV's rate per warp and the dot-product kernel's constants are first estimates from
//! the kernels' design (loads in flight per warp), not yet fitted: no tuning run has timed a GEMV
//! of a few columns or the dot-product kernel. The small-products kernel's efficiency and per-tile
//! cost are fitted to its own tuning run (`rgemm tune --cases` on batches of small products that
//! are in no suite). The evaluation suite never informs any of them.
//!
//! **Cost.** A few dozen flops per plan; the choice estimates a few hundred plans per problem.

use rgemm_spec::{Dtype, KernelKind, Schedule};

use crate::api::Plan;

/// The clock the rates assume under a sustained GEMM load, in Hz.
pub const CLOCK_HZ: f64 = 1.75e9;
/// Dense bf16/f16 tensor-core flops per clock per SM (wgmma).
pub const TENSOR_FLOPS_PER_CLOCK: f64 = 4096.0;
/// Dense TF32 tensor-core flops per clock per SM; 3×TF32 makes three products per product.
pub const TF32_FLOPS_PER_CLOCK: f64 = 2048.0;
/// f32 fused multiply-adds of the CUDA cores, as flops per clock per SM.
pub const SIMT_FLOPS_PER_CLOCK: f64 = 256.0;
/// HBM bandwidth in bytes per second, a little under the H100 SXM's datasheet figure (an H200's
/// is higher, which scales every memory-bound plan alike and so keeps the ranking).
pub const HBM_BYTES_PER_S: f64 = 3.0e12;
/// The part of the HBM bandwidth a tile kernel's copies reach.
pub const TILE_MEMORY_EFFICIENCY: f64 = 0.8;
/// The part of the HBM bandwidth the decode GEMV's loads reach.
pub const GEMV_MEMORY_EFFICIENCY: f64 = 0.95;
/// Bytes per second one GEMV warp streams from its row of W (a few 512-byte loads in flight):
/// with few columns of C, too few warps to reach the HBM bandwidth.
pub const GEMV_WARP_BYTES_PER_S: f64 = 2.5e9;
/// Bytes per second one block of the dot-product kernel streams (eight warps, each with a few
/// scalar loads per operand row in flight): its slices need many blocks to reach HBM speed.
pub const DOT_BLOCK_BYTES_PER_S: f64 = 1.6e10;
/// The dot-product kernel's part of the CUDA cores' peak (a few multiply-adds per element
/// loaded).
pub const DOT_EFFICIENCY: f64 = 0.5;
/// The decode GEMV's multiply-adds, in flops per second per SM, for 16-bit and for f32 operands
/// (its warps do one row of x after another, so its time grows with M; a 16-bit load brings two
/// elements).
pub const GEMV_FLOPS_PER_SM: [f64; 2] = [9.5e10, 3.8e10];
/// The general kernel's part of the CUDA cores' peak.
pub const GENERAL_EFFICIENCY: f64 = 0.12;
/// The small-products kernel's part of the tensor cores' peak in its k-loop (`mma.sync` on
/// 64×64 tiles, each SM shared by several blocks whose copies, barriers and fragment loads issue
/// between the multiplications).
pub const BATCHED_EFFICIENCY: f64 = 0.16;
/// Seconds a small-products tile costs beyond its k-steps: its first copies' round trip and its
/// store of C through the epilogue, element by element.
pub const BATCHED_TILE_S: f64 = 5e-6;
/// Bytes per second at which a staged plan copies A and B into rows of 16 bytes (per byte of the
/// source).
pub const COPY_BYTES_PER_S: f64 = 1.5e12;
/// Bytes per second of C that a plan writes when C's rows do not start on 16 bytes (one element
/// at a time), charged on top of the product.
pub const UNALIGNED_C_BYTES_PER_S: f64 = 0.45e12;
/// Seconds every plan costs whatever it does (the first launch, the pipeline's start).
pub const FIXED_S: f64 = 6e-6;
/// Seconds each further kernel a plan queues costs (a copy, a tail of K, a sum).
pub const LAUNCH_S: f64 = 2.5e-6;
/// Seconds a tile costs beyond its k-steps: filling the pipeline and storing C.
pub const TILE_FILL_S: f64 = 2.5e-6;
/// The part of [`TILE_FILL_S`] a persistent kernel pays per tile.
pub const PERSISTENT_FILL_SHARE: f64 = 0.5;
/// The part of the faster of compute and memory that does not hide under the slower.
pub const OVERLAP_MISS: f64 = 0.25;

/// A plan's estimated time, in seconds, and its parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The whole: what plans are ranked by.
    pub seconds: f64,
    /// The main product's arithmetic, as if memory were free.
    pub compute_s: f64,
    /// The main product's HBM traffic, as if arithmetic were free.
    pub memory_s: f64,
    /// Copies, the tail of K, the sum and their launches.
    pub extra_s: f64,
}

/// The share of its instruction family's peak a tile reaches in its k-loop: larger tiles reuse
/// each loaded element more and hide more latency; a pipeline that holds less than about 192 KiB
/// in flight reaches less.
pub fn tile_efficiency(kernel: crate::Kernel) -> f64 {
    let spec = kernel.spec;
    let t = spec.tile;
    let by_shape = match (spec.rung.number, t.bm, t.bn) {
        (15, _, _) => 0.85,
        (_, 128, 256) => 0.80,
        (_, 128, 192) => 0.78,
        (_, 128, 128) => 0.70,
        (_, 64, 256) => 0.62,
        (_, 64, 128) => 0.55,
        (_, 64, 64) => 0.40,
        _ => 0.50,
    };
    // The rungs before the copy engine feeds warpgroups: their loads stall the tensor cores.
    let by_rung = match spec.rung.number {
        14 | 15 => 1.0,
        12 | 13 => 0.2,
        11 => 0.8,
        9 | 10 => 0.7,
        _ => 0.5,
    };
    let in_flight = (t.stages * t.bk * spec.dtype.bytes() * (t.bm + t.bn)) as f64;
    let pipeline = if spec.rung.number == 15 { 1.0 } else { (0.6 + 0.4 * in_flight / 196_608.0).min(1.0) };
    by_shape * by_rung * pipeline
}

/// The flops per second one SM reaches with `kernel`'s instruction family at full efficiency.
fn peak_per_sm(kernel: crate::Kernel) -> f64 {
    let per_clock = match (kernel.spec.rung.kind, kernel.spec.rung.number, kernel.spec.dtype) {
        (_, 15, _) => TF32_FLOPS_PER_CLOCK / 3.0,
        (KernelKind::Batched, _, Dtype::Bf16 | Dtype::F16) | (_, 12..=14, Dtype::Bf16 | Dtype::F16) => TENSOR_FLOPS_PER_CLOCK,
        _ => SIMT_FLOPS_PER_CLOCK,
    };
    per_clock * CLOCK_HZ
}

/// The slower of `compute` and `memory`, plus the part of the faster that does not overlap.
fn overlapped(compute: f64, memory: f64) -> f64 {
    compute.max(memory) + OVERLAP_MISS * compute.min(memory)
}

/// Seconds for `tiles` tiles of `k` deep on `sms` SMs with `kernel`: rounds of tiles (fractional
/// for stream-K, which cuts the last round) times a tile's k-steps and fill.
fn tiles_time(kernel: crate::Kernel, tiles: f64, k: u64, sms: u32) -> f64 {
    let spec = kernel.spec;
    let t = spec.tile;
    // Blocks an SM holds at once: one of the tensor-core rungs' tiles, several of the others'.
    let resident = match (spec.rung.kind, spec.rung.number) {
        (KernelKind::Fallback, _) => 8.0,
        (_, 12..) => 1.0,
        _ => spec.min_blocks_per_sm.max(1) as f64,
    };
    let slots = sms.max(1) as f64 * resident;
    let efficiency = match spec.rung.kind {
        KernelKind::Fallback => GENERAL_EFFICIENCY,
        KernelKind::Batched => BATCHED_EFFICIENCY,
        _ => tile_efficiency(kernel),
    };
    let step = 2.0 * (t.bm * t.bn * t.bk) as f64 / (peak_per_sm(kernel) / resident * efficiency);
    let rounds = match spec.schedule() {
        Schedule::StreamK => (tiles / slots).max(1.0),
        _ => (tiles / slots).ceil(),
    };
    // A persistent block's ring runs on from one tile into the next: only part of a tile's fill
    // is paid again.
    let fill = match (spec.rung.kind, spec.schedule().is_persistent()) {
        (KernelKind::Batched, _) => BATCHED_TILE_S,
        (_, true) => TILE_FILL_S * PERSISTENT_FILL_SHARE,
        (_, false) => TILE_FILL_S,
    };
    rounds * (k.div_ceil(t.bk as u64) as f64 * step + fill)
}

/// Tiles of C (windows, for the dot-product kernel) that `kernel` covers one product of
/// `problem` with.
pub fn tiles_per_product(kernel: crate::Kernel, problem: &crate::Problem) -> u64 {
    let t = kernel.spec.tile;
    problem.m.div_ceil(t.bm) as u64 * problem.n.div_ceil(t.bn) as u64
}

/// What `plan` should cost on a GPU of `sms` SMs.
pub fn estimate(plan: &Plan, sms: u32) -> Estimate {
    let p = plan.problem();
    let kernel = plan.kernel();
    let elem = kernel.spec.dtype.bytes() as f64;
    let out = p.epilogue.output.bytes() as f64;
    let (m, n, k, batch) = (p.m as f64, p.n as f64, p.k as u64, p.batch as f64);
    let operands = (m + n) * k as f64 * elem * batch;
    let c_bytes = m * n * out * batch;
    let mut extra = 0.0;
    let (compute, memory);
    if kernel.spec.rung.kind == KernelKind::Gemv {
        // The weight once per block of rows, x once.
        let blocks = (p.m.div_ceil(kernel.spec.tile.bm.max(1))) as f64;
        // One warp per column of C and block of rows: too few warps cannot fill the bandwidth.
        let bandwidth = (HBM_BYTES_PER_S * GEMV_MEMORY_EFFICIENCY).min(n * blocks * batch * GEMV_WARP_BYTES_PER_S);
        memory = ((n * blocks + m) * k as f64 * elem * batch + c_bytes) / bandwidth;
        let rate = if kernel.spec.dtype == Dtype::F32 { GEMV_FLOPS_PER_SM[1] } else { GEMV_FLOPS_PER_SM[0] };
        compute = 2.0 * m * n * k as f64 * batch / (rate * sms.max(1) as f64);
    } else if kernel.spec.rung.kind == KernelKind::Dot {
        // Each block streams its window's rows of A and columns of B over its slice of K; the
        // slices (or the batch) give the blocks.
        let t = kernel.spec.tile;
        let windows = tiles_per_product(kernel, p) as f64 * batch;
        let blocks = windows * plan.split.as_ref().map_or(1.0, |s| s.problem.batch as f64 / batch.max(1.0)).max(1.0);
        let resident = blocks.min(sms.max(1) as f64 * kernel.spec.min_blocks_per_sm.max(1) as f64);
        let read = windows * (t.bm + t.bn) as f64 * k as f64 * elem;
        memory = (read + c_bytes) / (HBM_BYTES_PER_S * TILE_MEMORY_EFFICIENCY).min(resident * DOT_BLOCK_BYTES_PER_S);
        compute = 2.0 * windows * (t.bm * t.bn) as f64 * k as f64 / (sms.max(1) as f64 * SIMT_FLOPS_PER_CLOCK * CLOCK_HZ * DOT_EFFICIENCY);
    } else {
        let tiles = tiles_per_product(kernel, p) as f64 * batch;
        let (splits, slice) = match &plan.split {
            Some(s) if s.splits > 1 => (s.splits as f64, s.problem.k as u64),
            _ => (1.0, k),
        };
        compute = tiles_time(kernel, tiles * splits, slice, sms);
        let writes = if splits > 1.0 { m * n * 4.0 * splits } else { c_bytes };
        memory = (operands + writes) / (HBM_BYTES_PER_S * TILE_MEMORY_EFFICIENCY);
    }
    if let Some(s) = &plan.split {
        // The sum (one per product of the batch) reads every plane and writes C; the tail is one
        // more product.
        let planes = (s.problem.batch + u32::from(s.tail.is_some())) as f64;
        extra += LAUNCH_S * batch + (m * n * 4.0 * planes + c_bytes) / HBM_BYTES_PER_S;
        if let Some(tail) = &s.tail {
            let (t, tiles) = (kernel.spec.tile, tiles_per_product(kernel, p) as f64);
            let tail_s = match kernel.spec.rung.kind {
                KernelKind::Dot => tiles * (t.bm + t.bn) as f64 * tail.problem.k as f64 * elem / DOT_BLOCK_BYTES_PER_S,
                _ => tiles_time(kernel, tiles, tail.problem.k as u64, sms),
            };
            extra += LAUNCH_S + tail_s;
        }
    }
    if let Some(staging) = &plan.staging {
        let copied = [m, n].iter().zip(staging.copy).filter(|(_, c)| *c).map(|(rows, _)| rows * k as f64 * elem * batch).sum::<f64>();
        extra += LAUNCH_S + copied / COPY_BYTES_PER_S;
    }
    if p.ldc as u64 * out as u64 % 16 != 0 {
        extra += c_bytes / UNALIGNED_C_BYTES_PER_S;
    }
    Estimate { seconds: FIXED_S + overlapped(compute, memory) + extra, compute_s: compute, memory_s: memory, extra_s: extra }
}
