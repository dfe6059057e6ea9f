//! What a plan should cost on a Hopper GPU: the model the automatic choice ranks candidate plans
//! by where no measured shape is near ([`super::plan`]).
//!
//! **The idea.** A plan's time is a fixed start, one launch cost per kernel it queues, the main
//! product, and the extra passes: the copies of A and B a staged plan makes and the sum a split
//! plan makes. The main product is the slower of its compute and its memory traffic, plus a part
//! of the faster one (they overlap, not perfectly):
//! - **compute**: the tiles of C (times the slices of K) are dealt to the SMs in rounds
//!   (fractional rounds for stream-K, whole ones otherwise, and a fixed cost for stream-K's sum of
//!   cut tiles); a round costs its tile's k-steps, each `2·BM·BN·BK` flops at the SM's rate for
//!   the instruction family times the tile's efficiency, plus a fixed fill per tile and the store
//!   of the tile's C at the rate of its store (element by element, by pairs, or by the copy
//!   engine). Small tiles and shallow pipelines reach a smaller part of the peak
//!   ([`Model::tile_efficiency`]).
//! - **memory**: A and B read once from HBM (reuse between tiles is served by L2), C (or the
//!   partials) written once, at the bandwidth a tile kernel's copies reach.
//! - the **decode GEMV** reads the weight once per block of rows and does its multiply-adds on
//!   the CUDA cores: the slower of that traffic and that arithmetic; the **dot-product kernel**
//!   streams A and B once per window of C, each block at a limited rate, so its slices of K must
//!   give it enough blocks.
//!
//! **Invariants.** The estimate is positive and finite for every plan the library can build,
//! grows with K at a fixed plan shape, and does not depend on the data. It ranks plans; it is no
//! timing (`rgemm run` prints it beside the measured time).
//!
//! **Where the constants come from.** The rates per clock are datasheet figures; every other
//! constant of [`Model::FITTED`] (efficiencies, bandwidths reached, fixed costs) was fitted by
//! `rgemm fit` to tuning runs in `docs/perf/` in which every candidate plan of each shape was
//! timed: the fitting suite (shapes drawn as the evaluation suite's are, from another seed, on an
//! H200), batches of small products, and the tuning suite (H100, bf16 and f32). The fit lowers
//! the geometric mean of the regret of the model's pick (its plan's time over the fastest's)
//! with a small weight on the estimates' log error, so a constant is the value that ranks plans
//! best, not a measurement of the named quantity: where a kernel loses for reasons the model
//! does not describe, its constants absorb it (the GEMV's bandwidth, fitted low, stands for its
//! rows done one after another on M of 3 and more). `tests/cost_model.rs` replays the runs: the
//! model's pick must stay near the fastest measured plan there. The evaluation suite never
//! informs any constant (`tests/eval_suite.rs` keeps the fitting suite apart from it).
//!
//! **Cost.** A few dozen flops per plan; the choice estimates a few hundred plans per problem.

use rgemm_spec::{CStore, Dtype, KernelKind, Schedule};

use crate::api::Plan;

/// The constants of the model: datasheet rates, and the efficiencies and fixed costs fitted to
/// tuning runs ([`Model::FITTED`]; `rgemm fit` refits them). Every field is a positive number;
/// [`Model::parameters`] names the ones a fit may move. The fields say what each constant stands
/// for in the model; fitted, a constant is the value that ranks plans best (see the
/// [module](self)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// The clock the rates assume under a sustained GEMM load, in Hz.
    pub clock_hz: f64,
    /// Dense bf16/f16 tensor-core flops per clock per SM (wgmma).
    pub tensor_flops_per_clock: f64,
    /// Dense TF32 tensor-core flops per clock per SM; 3×TF32 makes three products per product.
    pub tf32_flops_per_clock: f64,
    /// f32 fused multiply-adds of the CUDA cores, as flops per clock per SM.
    pub simt_flops_per_clock: f64,
    /// The HBM bandwidth a tile kernel's copies reach, in bytes per second.
    pub tile_bytes_per_s: f64,
    /// The HBM bandwidth the decode GEMV's loads reach, in bytes per second.
    pub gemv_bytes_per_s: f64,
    /// Bytes per second one GEMV warp streams from its row of W (a few 512-byte loads in
    /// flight): with few columns of C, too few warps to reach the HBM bandwidth.
    pub gemv_warp_bytes_per_s: f64,
    /// The decode GEMV's multiply-adds, in flops per second per SM, for 16-bit and for f32
    /// operands (its warps do one row of x after another, so its time grows with M).
    pub gemv_flops_per_sm: [f64; 2],
    /// Bytes per second one block of the dot-product kernel streams: its slices need many
    /// blocks to reach HBM speed.
    pub dot_block_bytes_per_s: f64,
    /// The dot-product kernel's part of the CUDA cores' peak.
    pub dot_efficiency: f64,
    /// The general kernel's part of the CUDA cores' peak.
    pub general_efficiency: f64,
    /// The small-products kernel's part of the tensor cores' peak in its k-loop.
    pub batched_efficiency: f64,
    /// Seconds a small-products tile costs beyond its k-steps (its first copies' round trip
    /// and its store of C).
    pub batched_tile_s: f64,
    /// The share of the tensor cores' peak a tile reaches in its k-loop, by tile shape: 3×TF32
    /// (rung 15), then 128×256, 128×192, 128×128, 64×256, 64×128, 64×64 and any other.
    pub tile_efficiency: [f64; 8],
    /// The share of the peak the rungs before the copy engine feeds warpgroups reach: rungs
    /// 12–13, 11, 9–10 and the others.
    pub early_rung_efficiency: [f64; 4],
    /// The part of the peak a pipeline of no bytes in flight would keep; the rest grows with
    /// the bytes in flight up to [`Model::pipeline_full_bytes`].
    pub pipeline_floor: f64,
    /// Bytes in flight (stages × the A and B slices of one k-step) at which a pipeline reaches
    /// its tile's efficiency.
    pub pipeline_full_bytes: f64,
    /// Seconds a tile costs beyond its k-steps: filling the pipeline.
    pub tile_fill_s: f64,
    /// The part of [`Model::tile_fill_s`] a persistent kernel pays per tile.
    pub persistent_fill_share: f64,
    /// Bytes of C per second one SM stores, by the store of C: from the registers one element
    /// at a time, by pairs, and through shared memory by the copy engine.
    pub store_bytes_per_s_per_sm: [f64; 3],
    /// Seconds a stream-K plan pays to sum the slices of its cut tiles.
    pub stream_k_fixup_s: f64,
    /// Bytes per second at which a staged plan copies A and B into rows of 16 bytes.
    pub copy_bytes_per_s: f64,
    /// Bytes per second at which a split plan's sum reads its partials and writes C.
    pub sum_bytes_per_s: f64,
    /// Bytes per second of C that a plan writes when C's rows do not start on 16 bytes (one
    /// element at a time), charged on top of the product.
    pub unaligned_c_bytes_per_s: f64,
    /// Seconds every plan costs whatever it does (the first launch, the pipeline's start).
    pub fixed_s: f64,
    /// Seconds each further kernel a plan queues costs (a copy, a tail of K, a sum).
    pub launch_s: f64,
    /// The part of the faster of compute and memory that does not hide under the slower.
    pub overlap_miss: f64,
}

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

/// What `plan` should cost on a GPU of `sms` SMs, by [`Model::FITTED`].
pub fn estimate(plan: &Plan, sms: u32) -> Estimate {
    Model::FITTED.estimate(plan, sms)
}

/// Tiles of C (windows, for the dot-product kernel) that `kernel` covers one product of
/// `problem` with.
pub fn tiles_per_product(kernel: crate::Kernel, problem: &crate::Problem) -> u64 {
    let t = kernel.spec.tile;
    problem.m.div_ceil(t.bm) as u64 * problem.n.div_ceil(t.bn) as u64
}

/// The slower of `compute` and `memory`, plus the part `miss` of the faster that does not
/// overlap.
fn overlapped(compute: f64, memory: f64, miss: f64) -> f64 {
    compute.max(memory) + miss * compute.min(memory)
}

/// The model's fitted constants, by name, for [`Model::parameters`] and [`Model::with`]: one
/// list, so that a name always means the same field.
fn fitted_fields(model: &mut Model) -> [(&'static str, &mut f64); 32] {
    let Model {
        tile_bytes_per_s,
        gemv_bytes_per_s,
        gemv_warp_bytes_per_s,
        gemv_flops_per_sm: [gemv_16bit, gemv_f32],
        dot_block_bytes_per_s,
        dot_efficiency,
        general_efficiency,
        batched_efficiency,
        batched_tile_s,
        tile_efficiency: [tf32x3, e128x256, e128x192, e128x128, e64x256, e64x128, e64x64, other],
        pipeline_floor,
        pipeline_full_bytes,
        tile_fill_s,
        persistent_fill_share,
        store_bytes_per_s_per_sm: [store_scalar, store_pairs, store_tma],
        stream_k_fixup_s,
        copy_bytes_per_s,
        sum_bytes_per_s,
        unaligned_c_bytes_per_s,
        fixed_s,
        launch_s,
        overlap_miss,
        ..
    } = model;
    [
        ("tile_bytes_per_s", tile_bytes_per_s),
        ("gemv_bytes_per_s", gemv_bytes_per_s),
        ("gemv_warp_bytes_per_s", gemv_warp_bytes_per_s),
        ("gemv_flops_per_sm.16bit", gemv_16bit),
        ("gemv_flops_per_sm.f32", gemv_f32),
        ("dot_block_bytes_per_s", dot_block_bytes_per_s),
        ("dot_efficiency", dot_efficiency),
        ("general_efficiency", general_efficiency),
        ("batched_efficiency", batched_efficiency),
        ("batched_tile_s", batched_tile_s),
        ("tile_efficiency.tf32x3", tf32x3),
        ("tile_efficiency.128x256", e128x256),
        ("tile_efficiency.128x192", e128x192),
        ("tile_efficiency.128x128", e128x128),
        ("tile_efficiency.64x256", e64x256),
        ("tile_efficiency.64x128", e64x128),
        ("tile_efficiency.64x64", e64x64),
        ("tile_efficiency.other", other),
        ("pipeline_floor", pipeline_floor),
        ("pipeline_full_bytes", pipeline_full_bytes),
        ("tile_fill_s", tile_fill_s),
        ("persistent_fill_share", persistent_fill_share),
        ("store_bytes_per_s_per_sm.scalar", store_scalar),
        ("store_bytes_per_s_per_sm.pairs", store_pairs),
        ("store_bytes_per_s_per_sm.tma", store_tma),
        ("stream_k_fixup_s", stream_k_fixup_s),
        ("copy_bytes_per_s", copy_bytes_per_s),
        ("sum_bytes_per_s", sum_bytes_per_s),
        ("unaligned_c_bytes_per_s", unaligned_c_bytes_per_s),
        ("fixed_s", fixed_s),
        ("launch_s", launch_s),
        ("overlap_miss", overlap_miss),
    ]
}

impl Model {
    /// The constants the automatic choice ranks plans by, from `rgemm fit` on the four tuning
    /// runs `tests/cost_model.rs` replays.
    pub const FITTED: Model = Model {
        clock_hz: 1.75e9,
        tensor_flops_per_clock: 4096.0,
        tf32_flops_per_clock: 2048.0,
        simt_flops_per_clock: 256.0,
        tile_bytes_per_s: 3.2e12,
        gemv_bytes_per_s: 1.06e12,
        gemv_warp_bytes_per_s: 2.2e9,
        gemv_flops_per_sm: [3.89e14, 3.11e14],
        dot_block_bytes_per_s: 1.29e10,
        dot_efficiency: 0.108,
        general_efficiency: 0.16,
        batched_efficiency: 0.16,
        batched_tile_s: 1.21e-6,
        tile_efficiency: [0.773, 0.909, 1.0, 0.796, 0.770, 0.688, 0.40, 1.0],
        early_rung_efficiency: [0.2, 0.8, 0.7, 0.5],
        pipeline_floor: 0.99,
        pipeline_full_bytes: 9.99e4,
        tile_fill_s: 2.5e-6,
        persistent_fill_share: 1.0,
        store_bytes_per_s_per_sm: [7.11e11, 7.18e10, 2.57e14],
        stream_k_fixup_s: 1.71e-6,
        copy_bytes_per_s: 4.5e12,
        sum_bytes_per_s: 1.1e12,
        unaligned_c_bytes_per_s: 1.42e12,
        fixed_s: 7.44e-6,
        launch_s: 3.03e-6,
        overlap_miss: 0.094,
    };

    /// The constants a fit may move, by name (`tile_efficiency.128x256`, `launch_s`, ...), with
    /// their values.
    pub fn parameters(&self) -> Vec<(&'static str, f64)> {
        let mut copy = *self;
        fitted_fields(&mut copy).into_iter().map(|(name, value)| (name, *value)).collect()
    }

    /// This model with the parameter `name` ([`Model::parameters`]) set to `value`; `None` for
    /// an unknown name or a value that is not positive and finite.
    pub fn with(&self, name: &str, value: f64) -> Option<Model> {
        if !(value.is_finite() && value > 0.0) {
            return None;
        }
        let mut model = *self;
        let (_, field) = fitted_fields(&mut model).into_iter().find(|(n, _)| *n == name)?;
        *field = value;
        Some(model)
    }

    /// The share of its instruction family's peak `kernel`'s tile reaches in its k-loop: larger
    /// tiles reuse each loaded element more and hide more latency; a pipeline that holds fewer
    /// than [`Model::pipeline_full_bytes`] in flight reaches less.
    pub fn tile_efficiency(&self, kernel: crate::Kernel) -> f64 {
        let spec = kernel.spec;
        let t = spec.tile;
        let by_shape = match (spec.rung.number, t.bm, t.bn) {
            (15, _, _) => self.tile_efficiency[0],
            (_, 128, 256) => self.tile_efficiency[1],
            (_, 128, 192) => self.tile_efficiency[2],
            (_, 128, 128) => self.tile_efficiency[3],
            (_, 64, 256) => self.tile_efficiency[4],
            (_, 64, 128) => self.tile_efficiency[5],
            (_, 64, 64) => self.tile_efficiency[6],
            _ => self.tile_efficiency[7],
        };
        // The rungs before the copy engine feeds warpgroups: their loads stall the tensor cores.
        let by_rung = match spec.rung.number {
            14..=16 => 1.0,
            12 | 13 => self.early_rung_efficiency[0],
            11 => self.early_rung_efficiency[1],
            9 | 10 => self.early_rung_efficiency[2],
            _ => self.early_rung_efficiency[3],
        };
        let in_flight = (t.stages * t.bk * spec.dtype.bytes() * (t.bm + t.bn)) as f64;
        let pipeline = if spec.rung.number == 15 { 1.0 } else { (self.pipeline_floor + (1.0 - self.pipeline_floor) * in_flight / self.pipeline_full_bytes).min(1.0) };
        by_shape * by_rung * pipeline
    }

    /// The flops per second one SM reaches with `kernel`'s instruction family at full
    /// efficiency.
    fn peak_per_sm(&self, kernel: crate::Kernel) -> f64 {
        let per_clock = match (kernel.spec.rung.kind, kernel.spec.rung.number, kernel.spec.dtype) {
            (_, 15, _) => self.tf32_flops_per_clock / 3.0,
            (KernelKind::Batched, _, Dtype::Bf16 | Dtype::F16) | (_, 12..=14, Dtype::Bf16 | Dtype::F16) => self.tensor_flops_per_clock,
            // FP8 runs at twice the 16-bit rate.
            (_, 16, Dtype::E4m3) => 2.0 * self.tensor_flops_per_clock,
            _ => self.simt_flops_per_clock,
        };
        per_clock * self.clock_hz
    }

    /// Seconds for `tiles` tiles of `k` deep on `sms` SMs with `kernel`, each storing `c_tile`
    /// bytes of C: rounds of tiles (fractional for stream-K, which cuts the last round) times a
    /// tile's k-steps, fill and store.
    fn tiles_time(&self, kernel: crate::Kernel, tiles: f64, k: u64, c_tile: f64, sms: u32) -> f64 {
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
            KernelKind::Fallback => self.general_efficiency,
            KernelKind::Batched => self.batched_efficiency,
            _ => self.tile_efficiency(kernel),
        };
        let step = 2.0 * (t.bm * t.bn * t.bk) as f64 / (self.peak_per_sm(kernel) / resident * efficiency);
        let (rounds, fixup) = match spec.schedule() {
            Schedule::StreamK if tiles > slots && tiles % slots != 0.0 => (tiles / slots, self.stream_k_fixup_s),
            Schedule::StreamK => ((tiles / slots).max(1.0), 0.0),
            _ => ((tiles / slots).ceil(), 0.0),
        };
        // A persistent block's ring runs on from one tile into the next: only part of a tile's
        // fill is paid again.
        let fill = match (spec.rung.kind, spec.schedule().is_persistent()) {
            (KernelKind::Batched, _) => self.batched_tile_s,
            (_, true) => self.tile_fill_s * self.persistent_fill_share,
            (_, false) => self.tile_fill_s,
        };
        let store_rate = match spec.store {
            CStore::Scalar => self.store_bytes_per_s_per_sm[0],
            CStore::Pairs => self.store_bytes_per_s_per_sm[1],
            CStore::TmaStore => self.store_bytes_per_s_per_sm[2],
        };
        let store = c_tile * resident / store_rate;
        rounds * (k.div_ceil(t.bk as u64) as f64 * step + fill + store) + fixup
    }

    /// What `plan` should cost on a GPU of `sms` SMs.
    pub fn estimate(&self, plan: &Plan, sms: u32) -> Estimate {
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
            let bandwidth = self.gemv_bytes_per_s.min(n * blocks * batch * self.gemv_warp_bytes_per_s);
            memory = ((n * blocks + m) * k as f64 * elem * batch + c_bytes) / bandwidth;
            let rate = if kernel.spec.dtype == Dtype::F32 { self.gemv_flops_per_sm[1] } else { self.gemv_flops_per_sm[0] };
            compute = 2.0 * m * n * k as f64 * batch / (rate * sms.max(1) as f64);
        } else if kernel.spec.rung.kind == KernelKind::Dot {
            // Each block streams its window's rows of A and columns of B over its slice of K; the
            // slices (or the batch) give the blocks.
            let t = kernel.spec.tile;
            let windows = tiles_per_product(kernel, p) as f64 * batch;
            let blocks = windows * plan.split.as_ref().map_or(1.0, |s| s.problem.batch as f64 / batch.max(1.0)).max(1.0);
            let resident = blocks.min(sms.max(1) as f64 * kernel.spec.min_blocks_per_sm.max(1) as f64);
            let read = windows * (t.bm + t.bn) as f64 * k as f64 * elem;
            memory = (read + c_bytes) / self.tile_bytes_per_s.min(resident * self.dot_block_bytes_per_s);
            compute = 2.0 * windows * (t.bm * t.bn) as f64 * k as f64 / (sms.max(1) as f64 * self.simt_flops_per_clock * self.clock_hz * self.dot_efficiency);
        } else {
            let t = kernel.spec.tile;
            let tiles = tiles_per_product(kernel, p) as f64 * batch;
            let (splits, slice) = match &plan.split {
                Some(s) if s.splits > 1 => (s.splits as f64, s.problem.k as u64),
                _ => (1.0, k),
            };
            // A split plan's slices store f32 partials.
            let c_tile = (t.bm * t.bn) as f64 * if splits > 1.0 { 4.0 } else { out };
            compute = self.tiles_time(kernel, tiles * splits, slice, c_tile, sms);
            let writes = if splits > 1.0 { m * n * 4.0 * splits } else { c_bytes };
            memory = (operands + writes) / self.tile_bytes_per_s;
        }
        if let Some(s) = &plan.split {
            // The sum (one per product of the batch) reads every plane and writes C; the tail is
            // one more product.
            let planes = (s.problem.batch + u32::from(s.tail.is_some())) as f64;
            extra += self.launch_s * batch + (m * n * 4.0 * planes + c_bytes) / self.sum_bytes_per_s;
            if let Some(tail) = &s.tail {
                let (t, tiles) = (kernel.spec.tile, tiles_per_product(kernel, p) as f64);
                let tail_s = match kernel.spec.rung.kind {
                    KernelKind::Dot => tiles * (t.bm + t.bn) as f64 * tail.problem.k as f64 * elem / self.dot_block_bytes_per_s,
                    _ => self.tiles_time(kernel, tiles, tail.problem.k as u64, (t.bm * t.bn) as f64 * 4.0, sms),
                };
                extra += self.launch_s + tail_s;
            }
        }
        if let Some(staging) = &plan.staging {
            let copied = [m, n].iter().zip(staging.copy).filter(|(_, c)| *c).map(|(rows, _)| rows * k as f64 * elem * batch).sum::<f64>();
            extra += self.launch_s + copied / self.copy_bytes_per_s;
        }
        if p.ldc as u64 * out as u64 % 16 != 0 {
            extra += c_bytes / self.unaligned_c_bytes_per_s;
        }
        Estimate { seconds: self.fixed_s + overlapped(compute, memory, self.overlap_miss) + extra, compute_s: compute, memory_s: memory, extra_s: extra }
    }
}
