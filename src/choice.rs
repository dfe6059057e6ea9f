//! The one module that chooses: which kernel, split of K and staging the automatic choice runs
//! for a problem, and why. Its API is [`plan`], which plans without a GPU given the SM count
//! ([`Gemm::plan`](crate::api::Gemm::plan) calls it with the GPU's); [`Plan::reason`] says which
//! of the questions below decided.
//!
//! **The order of questions.** For a problem of element type `dtype` on a GPU of `sms` SMs
//! ([`plan`]):
//! 1. A decode step (`nt`, M ≤ `decode_rows(dtype)`: 2 rows for bf16 and f16, 4 for fp32; one
//!    product of at least `DECODE_MIN_COLUMNS` columns) runs the decode GEMV whose block holds
//!    all M rows (`decode_kernel`): the weight is read once.
//! 2. Where the measured dispatch table ([`crate::dispatch::Table`]) has a shape within `NEAR`
//!    (1: a factor of two in one size) of the problem (`table_choice`; the distance is the sum of
//!    the log₂ distances of M, N, K and the batch count, plus a penalty where the alignment or the
//!    layout differs), that row decides: its kernel in the problem's layout and type (its twin by
//!    key: [`KernelKey`](crate::catalog::KernelKey)), staged or split as the row was. An unstaged,
//!    unsplit persistent tile is then refined by rounds of tiles on this GPU: the other width if
//!    it takes the problem in fewer rounds (`width_twin`), and the stream-K twin where the last
//!    round would leave SMs idle (`stream_k_twin`).
//! 3. Else the cost model (`cost`) ranks every plan the tuner could time (`model_plans`: each
//!    candidate kernel, staged or not, K whole or cut into 2 to `MAX_SPLITS` slices) and the
//!    cheapest runs (`modelled`).
//! 4. Else the catalog's fixed order (`candidates_for`), ending with the general kernel, which
//!    takes every valid problem; K is split where the launch fills at most half the SMs and K
//!    is deep enough for slices (`split_count`).
//!
//! **Invariants.** Every plan returned runs: its kernel's `geometry` accepts the problem it
//! reads (the staged copy, the slices of K). Twins are found by key, never by editing names.
//! "Best" means one thing: the automatic choice (the CLI's `best`, `best-bf16`, `best-f16`).
//!
//! **Cost.** A plan is made once per problem (a scan of the table's rows and of the catalog);
//! launching it costs nothing more.

use rgemm_spec::{Dtype, CStore, KernelKind, Layout, Schedule, Tile, Variant};

use crate::api::{KernelChoice, Plan, SplitK, Tail};
use crate::catalog::{self, Kernel, Launch, all, find};
use crate::dispatch::{Row, Table};
use crate::error::{Error, Result};
use crate::problem::{Batch, LeadingDims, Problem};

/// The plan for `problem` with operands of `dtype` on a GPU of `sms` multiprocessors. With
/// [`KernelChoice::Auto`] the measured dispatch table ([`crate::dispatch`]) picks the kernel and
/// whether K is split (or, where no measured shape is near, the cost model does); where no
/// measured row's kernel takes the problem, the catalog's order does, ending with the general
/// kernel, which takes every valid problem (the [module](self) says in which order these are
/// asked). The problem is validated again first ([`Problem::checked`]). [`Plan::reason`] says
/// what decided, [`Plan::name`] what runs.
///
/// Planning needs no GPU: what a plan runs on an H100 (132 SMs) can be asked anywhere, and
/// [`Plan::run`](crate::api::Plan::run) later launches it on the GPU given then.
///
/// ```rust
/// use rgemm::{Layout, Problem, api::{Gemm, KernelChoice}, catalog::Dtype, choice};
///
/// // A decode step of a linear layer (one row of x, W stored N×K): the GEMV that reads W once.
/// let decode = Gemm::new(1, 4096, 4096).layout(Layout::NT).problem()?;
/// let plan = choice::plan(Dtype::Bf16, &decode, &KernelChoice::Auto, 132)?;
/// assert!(plan.kernel().name().contains("_gemv_"), "{}", plan.name());
///
/// // A square product: the dispatch table's nearest measured shape decides, and says so.
/// let square = Problem::new(4096, 4096, 4096, 1.0, 0.0)?;
/// let plan = choice::plan(Dtype::Bf16, &square, &KernelChoice::Auto, 132)?;
/// assert_eq!((plan.kernel().spec.dtype, plan.splits()), (Dtype::Bf16, 1));
/// assert!(plan.reason().starts_with("nearest measured shape"));
///
/// // Few tiles of C and a deep K: K is cut into slices that fill the SMs.
/// let deep = Problem::new(128, 128, 16384, 1.0, 0.0)?;
/// let plan = choice::plan(Dtype::Bf16, &deep, &KernelChoice::Auto, 132)?;
/// assert!(plan.splits() > 1 && plan.name().ends_with(&format!("_split{}", plan.splits())));
///
/// // A named kernel runs as named, or the plan is an error.
/// let named = KernelChoice::Named("bgemm_00_general_16x16x16".into());
/// assert_eq!(choice::plan(Dtype::Bf16, &square, &named, 132)?.name(), "bgemm_00_general_16x16x16");
/// assert!(choice::plan(Dtype::F32, &square, &named, 132).is_err()); // a bf16 kernel
/// # Ok::<(), rgemm::Error>(())
/// ```
pub fn plan(dtype: Dtype, problem: &Problem, choice: &KernelChoice, sms: u32) -> Result<Plan> {
    // The fields of a `Problem` are public: validate them again, so that a plan (whose `run` is
    // safe) only ever holds a problem `Problem::general` accepts.
    let checked = problem.checked()?;
    let problem = &checked;
    fp8_layout(dtype, problem, choice)?;
    if let KernelChoice::Tuned(cache) = choice {
        if let Some(plan) = cache.cached(dtype, problem, sms) {
            return Ok(plan);
        }
        let mut plan = self::plan(dtype, problem, &KernelChoice::Auto, sms)?;
        plan.reason = format!("not tuned yet (the cache has no plan of this problem on {sms} SMs): the automatic choice; {}", plan.reason);
        return Ok(plan);
    }
    if problem.k == 0 {
        return Plan::scaling(problem, dtype, choice);
    }
    if let KernelChoice::Auto = choice {
        if let Some(kernel) = decode_kernel(dtype, problem) {
            let reason = format!("a decode step (nt, M ≤ {}): the GEMV whose block holds all M rows", decode_rows(dtype));
            if let Some(plan) = Plan::new(problem, kernel, false, false, sms, reason) {
                return Ok(plan);
            }
        }
        let table = crate::dispatch::table();
        let near = table_choice(&table, dtype, problem).filter(|chosen| chosen.distance <= NEAR);
        if near.is_none() {
            if let Some(plan) = modelled(dtype, problem, sms) {
                return Ok(plan);
            }
        }
        if let Some(chosen) = near {
            let mut reason = chosen.reason(&table);
            let mut kernel = chosen.kernel;
            if !chosen.staged && !chosen.split {
                if let Some(twin) = width_twin(kernel, problem, sms) {
                    reason += &format!(
                        "; the {}-wide tile, which takes it in less time by rounds of tiles on {sms} SMs (a last round that stream-K cuts and the narrower tile's rounds charged as measured)",
                        twin.spec.tile.bn
                    );
                    kernel = twin;
                }
                if let Some(twin) = stream_k_twin(kernel, problem, sms) {
                    reason += &format!("; its stream-K twin, which cuts the last round of tiles on {sms} SMs");
                    kernel = twin;
                }
            }
            if let Some(twin) = fusing_twin(kernel, problem) {
                reason += "; its twin that stores C through shared memory, which applies the epilogue itself";
                kernel = twin;
            }
            if let Some(plan) = Plan::new(problem, kernel, chosen.staged, chosen.split, sms, reason) {
                return Ok(plan);
            }
        }
    }
    let plan = |kernel, geometry, split, reason: &str, automatic| Plan { problem: *problem, kernel, geometry, staging: None, split, reason: reason.to_string(), automatic }.with_epilogue_pass();
    match choice {
        // (A tuned choice returned above.)
        KernelChoice::Auto | KernelChoice::Tuned(_) => {
            let (kernel, geometry) = catalog_choice(dtype, problem)?;
            let split = split_k(dtype, problem, &geometry, sms);
            plan(kernel, geometry, split, "no measured shape's kernel takes it: the first of the catalog's candidates that does", true).ok_or_else(|| no_epilogue_pass(kernel))
        }
        KernelChoice::Named(_) => {
            let (kernel, geometry) = choose(dtype, problem, choice)?;
            plan(kernel, geometry, None, "named", false).ok_or_else(|| no_epilogue_pass(kernel))
        }
    }
}

/// [`plan`] on `gpu`, which is what [`Gemm::plan`](crate::api::Gemm::plan) calls: with
/// [`KernelChoice::Tuned`], a problem the cache does not hold yet is timed on `gpu` now and its
/// fastest plan recorded ([`TuneCache`]); any other choice plans as [`plan`] does with the GPU's
/// SM count.
///
/// ```no_run
/// use rgemm::{Gpu, Layout, api::{Gemm, KernelChoice}, catalog::Dtype, choice::{self, TuneCache}};
/// # fn main() -> rgemm::Result<()> {
/// let gpu = Gpu::open()?;
/// let cache = TuneCache::open("rgemm.tune")?;
/// let prefill = Gemm::new(384, 4096, 14336).layout(Layout::NT).problem()?;
/// let first = choice::plan_on_gpu(&gpu, Dtype::Bf16, &prefill, &KernelChoice::Tuned(cache.clone()))?; // times a few plans
/// let again = choice::plan_on_gpu(&gpu, Dtype::Bf16, &prefill, &KernelChoice::Tuned(cache.clone()))?; // reads the cache
/// assert_eq!(first.name(), again.name());
/// println!("{}: {}", again.name(), again.reason());
/// # Ok(()) }
/// ```
pub fn plan_on_gpu(gpu: &crate::gpu::Gpu, dtype: Dtype, problem: &Problem, choice: &KernelChoice) -> Result<Plan> {
    match choice {
        KernelChoice::Tuned(cache) => tuned::tuned(gpu, dtype, &problem.checked()?, cache),
        _ => plan(dtype, problem, choice, gpu.info.multiprocessors),
    }
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// `kernel` on `problem` as the caller decides it (for tuning and tests): on copies of A and B
/// with 16-byte rows if `staged`, with K split as [`split_count`] says if `split` (and it pays).
/// The problem is validated again; an error when the kernel does not take the problem so.
pub fn plan_on(problem: &Problem, kernel: Kernel, staged: bool, split: bool, sms: u32) -> Result<Plan> {
    let checked = problem.checked()?;
    Plan::new(&checked, kernel, staged, split, sms, "named, with its staging and split".into()).ok_or_else(|| Error::Unsupported {
        kernel: kernel.name().into(),
        reason: kernel.geometry(&checked).err().map_or_else(|| "not with this staging".to_string(), |e| e.to_string()),
    })
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// `kernel` on `problem` with K cut into exactly `splits` slices (1: whole) and their tail, on
/// staged copies of A and B if `staged`: a plan the cost model weighs ([`model_plans`]), for
/// tests and tuning. The problem is validated again; an error when the kernel does not take it so.
pub fn plan_split(problem: &Problem, kernel: Kernel, staged: bool, splits: u32) -> Result<Plan> {
    let checked = problem.checked()?;
    Plan::with_splits(&checked, kernel, staged, splits, "named, with its staging and slices of K".into()).ok_or_else(|| Error::Unsupported {
        kernel: kernel.name().into(),
        reason: kernel.geometry(&checked).err().map_or_else(|| format!("not staged {staged} with {splits} slices of K"), |e| e.to_string()),
    })
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Every plan a tune of the dispatcher times for `problem` (`rgemm tune --suite`): each fast
/// kernel of `dtype` ([`dispatch_candidates`]; a dot-product kernel only for a few windows of C,
/// as the cost model weighs it) that takes it, or else takes it on copies of A and B with 16-byte
/// rows (`Problem::with_aligned_rows`), run directly and split when [`split_count`] would split
/// it; then the automatic choice's plan and the cost model's [`FIT_PLANS`] cheapest of
/// [`model_plans`] not among them, so that a fit of the model has timings of the plans it ranks
/// first.
pub fn candidate_plans(dtype: Dtype, problem: &Problem, sms: u32) -> Vec<Plan> {
    let mut plans: Vec<Plan> = Vec::new();
    for kernel in dispatch_candidates(dtype).into_iter().filter(|k| weighed(*k, problem)) {
        let staged = kernel.geometry(problem).is_err();
        for split in [false, true] {
            let reason = "tuning: every candidate".to_string();
            if let Some(plan) = Plan::new(problem, kernel, staged, split, sms, reason) {
                if plan.splits() > 1 || !split {
                    plans.push(plan);
                }
            }
        }
    }
    let automatic = plan(dtype, problem, &KernelChoice::Auto, sms).ok().filter(|p| problem.k > 0 && p.kernel().spec.dtype == dtype);
    for extra in automatic.into_iter().chain(ranked_model_plans(dtype, problem, sms).into_iter().map(|(_, p)| p).take(FIT_PLANS)) {
        if !plans.iter().any(|p| p.name() == extra.name()) {
            plans.push(extra);
        }
    }
    plans
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// How many of the cost model's cheapest plans a tune of the dispatcher times besides the
/// direct and split plan of each kernel ([`candidate_plans`]).
pub const FIT_PLANS: usize = 16;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
pub mod cost;
mod tuned;
pub use tuned::TuneCache;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// How far (in [`distance`] units) the nearest measured shape may be for the dispatch table to
/// decide; farther, the cost model does ([`modelled`]). One unit is a factor of two in one size.
pub const NEAR: f64 = 1.0;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The most slices of K the cost model weighs ([`model_plans`]).
pub const MAX_SPLITS: u32 = 256;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The most windows of C a dot-product kernel may take for the cost model to weigh it: each
/// window reads its rows of A and columns of B again, so the kernel is for a handful of outputs.
pub const MAX_DOT_WINDOWS: u64 = 4;

/// Whether the cost model weighs `kernel` for `problem`: any kernel but a dot-product one whose
/// windows of C exceed [`MAX_DOT_WINDOWS`], or a GEMV whose block does not hold all M rows (it
/// would read the weight once per block of rows, which is what the GEMV exists to avoid).
fn weighed(kernel: Kernel, problem: &Problem) -> bool {
    match kernel.spec.rung.kind {
        KernelKind::Dot => cost::tiles_per_product(kernel, problem) <= MAX_DOT_WINDOWS,
        KernelKind::Gemv => problem.m <= kernel.spec.tile.bm,
        _ => true,
    }
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Every plan the cost model weighs for `problem`: each of the tuner's candidates
/// ([`dispatch_candidates`]; a dot-product kernel only for a few windows of C, see
/// [`MAX_DOT_WINDOWS`]) that takes it, on the operands as given or staged, with K whole or cut
/// into a power of two of slices from 2 to [`MAX_SPLITS`], each at least [`MIN_SLICE`] deep
/// (single products only).
pub fn model_plans(dtype: Dtype, problem: &Problem) -> Vec<Plan> {
    let mut plans = Vec::new();
    for kernel in dispatch_candidates(dtype).into_iter().filter(|k| weighed(*k, problem)) {
        for staged in [false, true] {
            let mut splits = 1;
            while splits <= MAX_SPLITS && (splits == 1 || (problem.batch == 1 && problem.k / splits >= MIN_SLICE)) {
                match Plan::with_splits(problem, kernel, staged, splits, String::new()) {
                    Some(plan) => plans.push(plan),
                    // Neither staged nor given takes it: no more slices will.
                    None if splits == 1 => break,
                    None => {}
                }
                splits *= 2;
            }
        }
    }
    plans
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The plan the cost model ([`cost::estimate`]) ranks first among [`model_plans`] on a GPU of
/// `sms` SMs, its reason saying so; `None` when no candidate takes the problem.
pub fn modelled(dtype: Dtype, problem: &Problem, sms: u32) -> Option<Plan> {
    let ranked = ranked_model_plans(dtype, problem, sms);
    let count = ranked.len();
    let (estimate, mut plan) = ranked.into_iter().next()?;
    plan.reason = format!(
        "no measured shape within distance {NEAR}: the cost model's cheapest of {count} plans ({:.1} µs estimated on {sms} SMs){}",
        estimate.seconds * 1e6,
        plan.reason
    );
    Some(plan)
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// [`model_plans`] with their estimates on a GPU of `sms` SMs, cheapest first (plans the model
/// ties keep [`model_plans`]' order): what the automatic choice, the tuner and a tune of the
/// dispatcher take the model's cheapest plans from.
pub fn ranked_model_plans(dtype: Dtype, problem: &Problem, sms: u32) -> Vec<(cost::Estimate, Plan)> {
    let mut ranked: Vec<(cost::Estimate, Plan)> = model_plans(dtype, problem).into_iter().map(|p| (cost::estimate(&p, sms), p)).collect();
    ranked.sort_by(|x, y| x.0.seconds.total_cmp(&y.0.seconds));
    ranked
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Slices of K are at least this deep: fewer multiply-adds per partial and the workspace traffic
/// outweighs the parallelism.
pub const MIN_SLICE: u32 = 256;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// How many slices of K pay for `problem` launched as `geometry`: when the direct launch fills at
/// most half the SMs and K holds at least two slices of [`MIN_SLICE`], the largest power of two
/// `S` of slices that divides K into multiples of [`MIN_SLICE`], with `S` times the tiles still
/// at most one per SM (at most 64 slices); `None` when no split pays. Only single products are
/// split.
pub fn split_count(problem: &Problem, geometry: &Launch, sms: u32) -> Option<u32> {
    let tiles = geometry.tiles();
    if problem.batch != 1 || tiles * 2 > sms as u64 {
        return None;
    }
    let k = problem.k;
    let mut splits = 1u32;
    while splits < 64 && tiles * (2 * splits) as u64 <= sms as u64 && k % (2 * splits * MIN_SLICE) == 0 {
        splits *= 2;
    }
    (splits >= 2).then_some(splits)
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// `problem` as `splits` slices of K run by `kernel`, if `kernel` takes the slices (the general
/// kernel and the GEMV, which read any alignment, are never split; the dot-product kernel, which
/// does too, is built to be). Each slice is K / `splits`
/// rounded down to whole 16-byte units of the element type, so that every slice starts on 16
/// bytes; the K the slices leave (fewer than `splits` such units) is one more product, the
/// [`Tail`], summed with them.
pub fn split_with(kernel: Kernel, problem: &Problem, splits: u32) -> Option<SplitK> {
    // One slice: each product of the batch into the workspace, the epilogue by the sum (see
    // `Plan`). Several: a single product's slices of K.
    if (kernel.spec.any_alignment && kernel.spec.rung.kind != KernelKind::Dot) || splits < 1 || (splits > 1 && problem.batch != 1) {
        return None;
    }
    let unit = 16 / kernel.spec.dtype.bytes();
    let slice = if splits == 1 { problem.k } else { problem.k / splits / unit * unit };
    if slice == 0 {
        return None;
    }
    let rest = problem.k - slice * splits;
    let (m, n, slice) = (problem.m as u64, problem.n as u64, slice as u64);
    // Elements from one slice's A (B) to the next's.
    let (step_a, step_b) = (if problem.layout.a.is_t() { slice * problem.lda as u64 } else { slice }, if problem.layout.b.is_t() { slice } else { slice * problem.ldb as u64 });
    let (count, stride_a, stride_b) = if splits == 1 { (problem.batch as u64, problem.stride_a, problem.stride_b) } else { (splits as u64, step_a, step_b) };
    // Partials packed, each starting on a 16-byte boundary.
    let stride_c = (m * n).next_multiple_of(4);
    let ld = LeadingDims { lda: Some(problem.lda as u64), ldb: Some(problem.ldb as u64), ldc: Some(n) };
    let batch = Batch { count, stride_a: Some(stride_a), stride_b: Some(stride_b), stride_c: Some(stride_c) };
    let sliced = Problem::general(m, n, slice, 1.0, 0.0, problem.layout, ld, batch).ok()?;
    let geometry = kernel.geometry(&sliced).ok()?;
    let tail = match rest {
        0 => None,
        rest => {
            let tail = Problem::general(m, n, rest as u64, 1.0, 0.0, problem.layout, ld, Batch::packed(1)).ok()?;
            let geometry = kernel.geometry(&tail).ok()?;
            Some(Tail { problem: tail, geometry, offset: [step_a * splits as u64, step_b * splits as u64] })
        }
    };
    Some(SplitK { splits, kernel, problem: sliced, geometry, tail })
}

/// Why a kernel without the fused epilogue cannot take a problem with one: its product cannot
/// be written to the workspace for the sum to apply the epilogue (the general kernels, which
/// take any alignment, are never split).
fn no_epilogue_pass(kernel: Kernel) -> Error {
    Error::Unsupported { kernel: kernel.name().into(), reason: "it writes f32 C with nothing fused, and cannot write its product to the workspace for the epilogue to be applied after".into() }
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// How to split `problem`'s K when the catalog's order (not the dispatch table) chose its kernel:
/// [`split_count`] slices, run by the first candidate that takes them.
pub fn split_k(dtype: Dtype, problem: &Problem, geometry: &Launch, sms: u32) -> Option<SplitK> {
    let splits = split_count(problem, geometry, sms)?;
    candidates_for(dtype, problem).into_iter().find_map(|kernel| split_with(kernel, problem, splits))
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The kernel for `problem` as given: the named one, the decode GEMV for a decode step
/// ([`decode_kernel`]), or the dispatch table's choice among its
/// unstaged rows ([`table_choice_direct`]),
/// else the first of the type's candidates that takes it ([`candidates_for`]: for a
/// linear layer of at most [`decode_rows`] rows the decode GEMV first, the general
/// kernel of its layout last).
pub fn choose(dtype: Dtype, problem: &Problem, choice: &KernelChoice) -> Result<(Kernel, Launch)> {
    fp8_layout(dtype, problem, choice)?;
    match choice {
        KernelChoice::Named(name) => {
            let kernel = catalog::find(name)?;
            if kernel.spec.dtype != dtype {
                return Err(Error::WrongElementType { plan: kernel.spec.dtype.name(), given: dtype.name() });
            }
            let geometry = kernel.geometry(problem)?;
            Ok((kernel, geometry))
        }
        KernelChoice::Auto | KernelChoice::Tuned(_) => {
            // The GEMV or the table's kernel where it takes the problem (its epilogue included),
            // else the catalog's first that does.
            let table = decode_kernel(dtype, problem).or_else(|| table_choice_direct(&crate::dispatch::table(), dtype, problem).map(|chosen| chosen.kernel));
            match table.and_then(|kernel| kernel.geometry(problem).ok().map(|geometry| (kernel, geometry))) {
                Some(chosen) => Ok(chosen),
                None => catalog_choice(dtype, problem),
            }
        }
    }
}

/// The first of the catalog's candidates for `problem` that takes it
/// ([`catalog::candidates_for`]), with its launch: the automatic choice where the dispatch table
/// has no kernel for the problem.
fn catalog_choice(dtype: Dtype, problem: &Problem) -> Result<(Kernel, Launch)> {
    // A kernel that neither applies the problem's epilogue nor can write its product to the
    // workspace for the sum to apply it (the any-alignment kernels) is no candidate.
    let candidates: Vec<Kernel> = candidates_for(dtype, problem).into_iter().filter(|k| k.applies_epilogue(problem) || split_with(*k, problem, 1).is_some()).collect();
    let kernel = first_supporting(&candidates, problem, "auto")?;
    let geometry = kernel.geometry(problem)?;
    Ok((kernel, geometry))
}

/// FP8 operands are read K-major only (rung 16): the error for any other layout, whatever the
/// choice.
fn fp8_layout(dtype: Dtype, problem: &Problem, choice: &KernelChoice) -> Result<()> {
    if dtype != Dtype::E4m3 || problem.layout == Layout::NT {
        return Ok(());
    }
    let kernel = if let KernelChoice::Named(name) = choice { name.clone() } else { "auto".into() };
    let reason = format!("FP8 (e4m3) operands are read K-major only, A stored M×K and B stored N×K (layout nt); this problem's layout is {}", problem.layout.name());
    Err(Error::Unsupported { kernel, reason })
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// A kernel by name, where the `best` aliases stand for the automatic choice's kernel for
/// `problem` (the dispatch table's, see [`choose`]).
pub fn resolve(name: &str, problem: &Problem) -> Result<Kernel> {
    match best_alias(name) {
        Some(dtype) => choose(dtype, problem, &KernelChoice::Auto).map(|(kernel, _)| kernel),
        None => catalog::find(name),
    }
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The aliases `best` (fp32), `best-bf16`, `best-f16` and `best-e4m3`, and the element type each
/// stands for.
pub const BEST_ALIASES: &[(&str, Dtype)] = &[("best", Dtype::F32), ("best-bf16", Dtype::Bf16), ("best-f16", Dtype::F16), ("best-e4m3", Dtype::E4m3)];

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The element type a `best` alias stands for, or `None` when `name` is not an alias.
pub fn best_alias(name: &str) -> Option<Dtype> {
    BEST_ALIASES.iter().find(|(alias, _)| *alias == name).map(|&(_, dtype)| dtype)
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The kernels `best` tries for `dtype`, in order: the [`catalog::BEST`] entries of that type as listed,
/// then the representative of each rung without an entry, highest rung first.
pub fn best_candidates(dtype: Dtype) -> Vec<Kernel> {
    let mut out: Vec<Kernel> = catalog::BEST.iter().filter_map(|name| find(name).ok()).filter(|k| k.spec.dtype == dtype).collect();
    for number in catalog::rungs(dtype).into_iter().rev() {
        if !out.iter().any(|k| k.spec.rung.number == number) {
            out.extend(catalog::best_of_rung(number, dtype));
        }
    }
    out
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Every kernel of `dtype` in the order the automatic choice tries them: [`best_candidates`],
/// then the remaining configurations (layout variants among them), highest rung first, the
/// general kernel (which takes every problem) last, without the kernels that run only when
/// named ([`runs_only_when_named`]).
pub fn auto_candidates(dtype: Dtype) -> Vec<Kernel> {
    let mut out = best_candidates(dtype);
    let mut rest: Vec<Kernel> = all().filter(|k| k.spec.dtype == dtype && !out.contains(k) && !runs_only_when_named(*k)).collect();
    rest.sort_by_key(|k| std::cmp::Reverse(k.spec.rung.number));
    out.extend(rest);
    out
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Whether the automatic choice leaves `kernel` out: the FP8 kernels that leave the whole sum to
/// the tensor cores (`_noflush`, less accurate as K grows: rung 16), and the tensor-core decode
/// GEMV (`_mma`, `kernels-gpu/src/gemv_mma.rs`), which neither the dispatch table nor the cost
/// model has timings of yet.
pub fn runs_only_when_named(kernel: Kernel) -> bool {
    matches!(kernel.spec.variant, Variant::Fp8(0) | Variant::GemvMma)
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Rungs below this one teach (naive loops to shared-memory tiles) and are never the fastest
/// kernel of a shape: the tuner ([`candidate_plans`]) leaves them out.
pub const FIRST_DISPATCH_RUNG: u8 = 9;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The kernels the tuner times for the dispatch table: every kernel of `dtype` from
/// [`FIRST_DISPATCH_RUNG`] up, and the general and decode kernels (number 0), in
/// [`auto_candidates`] order.
pub fn dispatch_candidates(dtype: Dtype) -> Vec<Kernel> {
    auto_candidates(dtype).into_iter().filter(|k| k.spec.rung.number == 0 || k.spec.rung.number >= FIRST_DISPATCH_RUNG).collect()
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Rows of x up to which the automatic choice runs a decode GEMV (`kernels-gpu/src/gemv.rs`) on
/// a linear layer (`nt`) of `dtype`: the weight is read once and each element is used at most
/// this many times, so the product is bound by memory. A GEMV warp reads its row of W once for
/// all the block's rows of x but does their multiply-adds one after another, so its time grows
/// with M, while a 64-row tile kernel's stays that of reading W: for bf16 and f16 the 64 × 64
/// tile with a deep ring is the faster from 3 rows on (the dispatch table's rows at M = 4 and
/// 16); fp32 keeps the GEMV up to 4 rows, where its table has no row between 1 and 16.
pub const fn decode_rows(dtype: Dtype) -> u32 {
    match dtype {
        Dtype::F32 => 4,
        Dtype::Bf16 | Dtype::F16 => 2,
        // No FP8 GEMV.
        Dtype::E4m3 => 0,
    }
}

/// For a decode step (a linear layer, `nt`, of at most [`decode_rows`] rows): the decode GEMVs
/// whose block holds all of M, fewest rows first (empty for any other problem).
fn decode_candidates(dtype: Dtype, problem: &Problem) -> Vec<Kernel> {
    if problem.m > decode_rows(dtype) {
        return Vec::new();
    }
    gemvs_holding(dtype, problem)
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Whether `kernel` is a decode GEMV (`kernels-gpu/src/gemv.rs`).
pub fn is_gemv(kernel: Kernel) -> bool {
    kernel.spec.rung.kind == KernelKind::Gemv
}

/// The decode GEMVs of `dtype` whose block holds all of `problem`'s rows, fewest rows first, for
/// a linear layer (`nt`; empty for any other layout).
fn gemvs_holding(dtype: Dtype, problem: &Problem) -> Vec<Kernel> {
    if problem.layout != Layout::NT {
        return Vec::new();
    }
    let mut gemvs: Vec<Kernel> = all().filter(|k| k.spec.dtype == dtype && is_gemv(*k) && !runs_only_when_named(*k) && k.spec.tile.bm >= problem.m).collect();
    gemvs.sort_by_key(|k| k.spec.tile.bm);
    gemvs
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The decode GEMV to run where a dispatch-table row names one: the first GEMV whose block holds
/// all of M and takes the problem (a row measured at one row of x may be nearest to three or
/// four). `None` when no GEMV holds M rows.
pub fn gemv_for(dtype: Dtype, problem: &Problem) -> Option<Kernel> {
    gemvs_holding(dtype, problem).into_iter().find(|k| k.geometry(problem).is_ok())
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// What the width rule charges a round of 192-wide tiles per column of C, in percent of a round
/// of 256-wide ones: the narrower tile copies more bytes per element of C and spreads its costs
/// per tile over fewer columns (fitted on the tuning suite's measurements: `docs/perf/` and the
/// book's appendix "How we got here", rung 14).
pub const NARROW_ROUND_PERCENT: u64 = 105;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// What the width rule charges a last round that the stream-K twin cuts into slices, in percent
/// of a whole round (fitted on the same measurements, with two to five slices).
pub const CUT_ROUND_PERCENT: u64 = 80;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Rung 14's persistent TMA-store tile in its other width (`_128x192x64_s4_persistent_tmast` ↔
/// `_128x256x64_s4_persistent_tmast`, same element type and layout) when that width takes
/// `problem` in less time by rounds: the columns of C the busiest SM computes per block row (the
/// tiles' rows and K are the same), `⌈tiles / sms⌉ × BN`, with a last round that the kernel's
/// stream-K twin would cut counted as [`CUT_ROUND_PERCENT`] of a round and the narrower tile's
/// rounds at [`NARROW_ROUND_PERCENT`]. Ties go to the wider tile. The dispatch table's rows say
/// which width was fastest at a measured size; between rows this keeps a size the nearest row's
/// width divides badly (1760³ near the 1536³ row: two rounds of 192-wide tiles or one of 256)
/// from taking it. `None` when `kernel` is neither or the other width is not in the catalog.
pub fn width_twin(kernel: Kernel, problem: &Problem, sms: u32) -> Option<Kernel> {
    let key = kernel.spec.key();
    if key.schedule != Schedule::Persistent || key.store != CStore::TmaStore {
        return None;
    }
    let other_bn = match key.tile.bn {
        192 => 256,
        256 => 192,
        _ => return None,
    };
    let other = catalog::find_key(key.with_tile(Tile { bn: other_bn, ..key.tile }))?;
    let widest = kernel.spec.tile.bn.max(other.spec.tile.bn);
    let cost = |k: Kernel| {
        let (tiles, sms) = (k.geometry(problem).ok()?.tiles(), sms.max(1) as u64);
        let rounds_percent = match stream_k_twin(k, problem, sms as u32) {
            Some(_) => tiles / sms * 100 + CUT_ROUND_PERCENT,
            None => tiles.div_ceil(sms) * 100,
        };
        let per_column = if k.spec.tile.bn < widest { NARROW_ROUND_PERCENT } else { 100 };
        Some(rounds_percent * k.spec.tile.bn as u64 * per_column)
    };
    let (mine, theirs) = (cost(kernel)?, cost(other)?);
    (theirs < mine || (theirs == mine && other.spec.tile.bn > kernel.spec.tile.bn)).then_some(other)
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The stream-K twin of a persistent kernel (the same kernel named `_streamk` for `_persistent`,
/// kernels-gpu/src/stream_k_combine.rs) when it would cut the last round of `problem`'s tiles on `sms`
/// SMs; `None` when there is no twin or it would leave every tile whole. Where it cuts, the twin
/// was measured faster; where it does not, the persistent kernel is, by a little (the book's
/// appendix "How we got here"): the automatic choice asks this after the dispatch table has
/// chosen.
pub fn stream_k_twin(kernel: Kernel, problem: &Problem, sms: u32) -> Option<Kernel> {
    let key = kernel.spec.key();
    if key.schedule != Schedule::Persistent {
        return None;
    }
    let twin = catalog::find_key(key.with_schedule(Schedule::StreamK))?;
    if kernel.applies_epilogue(problem) && !twin.applies_epilogue(problem) {
        // Stream-K's kernels leave a fused epilogue to a second pass over C.
        return None;
    }
    let tiles = u32::try_from(twin.geometry(problem).ok()?.tiles()).ok()?;
    let k_tiles = problem.k.div_ceil(twin.spec.tile.bk);
    let plan = rgemm_spec::stream_k::StreamKSchedule::new(tiles, k_tiles, sms);
    (plan != rgemm_spec::stream_k::StreamKSchedule::whole_tiles(tiles, k_tiles, sms)).then_some(twin)
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Where `kernel` does not apply `problem`'s fused epilogue itself (its plan would write the
/// product to the workspace for a second pass), the same kernel storing C through shared memory
/// ([`CStore::TmaStore`]), which does, if the catalog has it and it takes the problem; for a
/// stream-K kernel, whose cut tiles leave their sums (and so the epilogue) to that pass, its
/// persistent twin of that store.
pub fn fusing_twin(kernel: Kernel, problem: &Problem) -> Option<Kernel> {
    if kernel.applies_epilogue(problem) {
        return None;
    }
    let key = kernel.spec.key().with_store(CStore::TmaStore);
    [key, key.with_schedule(Schedule::Persistent)]
        .into_iter()
        .filter_map(catalog::find_key)
        .find(|twin| twin.applies_epilogue(problem) && twin.geometry(problem).is_ok())
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// For a decode step (`nt`, at most [`decode_rows`] rows): [`gemv_for`], the first GEMV whose
/// block holds all of M and takes the problem. The automatic choice runs it ahead of the dispatch
/// table, whose nearest measured row may be a one-row GEMV's: the GEMV of a block of M rows reads
/// the weight once, one of fewer rows once per block row.
pub fn decode_kernel(dtype: Dtype, problem: &Problem) -> Option<Kernel> {
    if problem.m > decode_rows(dtype) || problem.batch != 1 || problem.n < DECODE_MIN_COLUMNS {
        return None;
    }
    gemv_for(dtype, problem)
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The fewest columns of C for which a single product of at most [`decode_rows`] rows runs the
/// decode GEMV without asking the cost model: a GEMV warp streams one column's row of W, and
/// fewer than about eight warps per SM (a thousand columns on 132 SMs) cannot keep enough loads
/// in flight to reach the HBM bandwidth. Narrower products (a dot product's one column, a
/// decode step's attention over a short context) and batches are the cost model's to weigh.
pub const DECODE_MIN_COLUMNS: u32 = 1024;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The kernels the automatic choice (and `best`) tries for `problem`, in order: for a linear
/// layer of at most [`decode_rows`] rows the decode kernels whose block takes all its rows,
/// fewest rows first; then [`auto_candidates`].
pub fn candidates_for(dtype: Dtype, problem: &Problem) -> Vec<Kernel> {
    let mut out = decode_candidates(dtype, problem);
    out.extend(auto_candidates(dtype));
    out
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The first of `candidates` that can run `problem`; if none can, why the first one cannot.
pub fn first_supporting(candidates: &[Kernel], problem: &Problem, what: &str) -> Result<Kernel> {
    let mut first_reason = None;
    for kernel in candidates {
        match kernel.geometry(problem) {
            Ok(_) => return Ok(*kernel),
            Err(Error::Unsupported { reason, .. }) => {
                first_reason.get_or_insert(format!("{}: {reason}", kernel.name()));
            }
            Err(e) => return Err(e),
        }
    }
    Err(Error::Unsupported {
        kernel: what.to_string(),
        reason: first_reason.map_or_else(|| "the catalog has no kernel of this type".to_string(), |r| format!("no candidate supports it ({r})")),
    })
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Why each kernel tried before `chosen` in `candidates` was passed over for `problem`: (name,
/// the catalog's reason), in the order they were tried.
pub fn passed_over(candidates: &[Kernel], chosen: Kernel, problem: &Problem) -> Vec<(&'static str, String)> {
    candidates
        .iter()
        .take_while(|k| **k != chosen)
        .filter_map(|k| match k.geometry(problem) {
            Err(Error::Unsupported { reason, .. }) => Some((k.name(), reason)),
            _ => None,
        })
        .collect()
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Whether `problem`'s A and B rows (and batch strides) are whole 16-byte units for `dtype`,
/// which the copy-engine kernels need.
pub fn aligned(dtype: Dtype, problem: &Problem) -> bool {
    let per = 16 / dtype.bytes() as u64;
    let strides_ok = problem.batch == 1 || (problem.stride_a % per == 0 && problem.stride_b % per == 0);
    problem.lda as u64 % per == 0 && problem.ldb as u64 % per == 0 && strides_ok
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// How far a measured row is from a problem: log₂ distances of M, N, K and the batch count,
/// plus 4 when the alignment differs and 0.25 when the layout does.
pub fn distance(row: &Row, dtype: Dtype, problem: &Problem) -> f64 {
    let log = |x: u32| (x.max(1) as f64).log2();
    let d = |a: u32, b: u32| (log(a) - log(b)).abs();
    let mut total = d(row.m, problem.m) + d(row.n, problem.n) + d(row.k, problem.k) + d(row.batch, problem.batch);
    if row.aligned != aligned(dtype, problem) {
        total += 4.0;
    }
    if row.layout != problem.layout {
        total += 0.25;
    }
    total
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// How much farther than the nearest measured row (in [`distance`] units: a factor of 16 in one
/// size, or the other alignment) a row may be and still decide for a problem.
pub const WINDOW: f64 = 4.0;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// `kernel`'s configuration in `layout` (its key with that layout), if the catalog has it.
pub fn in_layout(kernel: Kernel, layout: Layout) -> Option<Kernel> {
    catalog::find_key(kernel.spec.key().with_layout(layout))
}

/// The kernel of `dtype` a row's kernel stands for: itself, or for f16 its f16 twin (its key in
/// f16) when the row is bf16's.
fn for_dtype(kernel: Kernel, dtype: Dtype) -> Option<Kernel> {
    match (kernel.spec.dtype, dtype) {
        (r, d) if r == d => Some(kernel),
        (Dtype::Bf16, Dtype::F16) => catalog::find_key(kernel.spec.key().with_dtype(Dtype::F16)),
        _ => None,
    }
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// What the table says for `problem`: the kernel, whether it reads aligned copies of A and B and
/// whether K is split (as in its row), and the row.
pub struct Choice<'t> {
    /// The kernel to run: the row's, in the problem's layout and element type (its twin by key),
    /// or the decode GEMV whose block holds all of M where the row names a smaller one. Its
    /// `geometry` accepts the problem it reads.
    pub kernel: Kernel,
    /// Whether it reads copies of A and B with 16-byte rows ([`Problem::with_aligned_rows`]),
    /// as the row's plan did.
    pub staged: bool,
    /// Whether K is split, as the row's plan was ([`split_count`] then gives the slices for
    /// this problem).
    pub split: bool,
    /// The measured row that decided.
    pub row: &'t Row,
    /// How far the row is from the problem ([`distance`]): 0 for the measured shape itself.
    pub distance: f64,
}

impl Choice<'_> {
    /// Why: the nearest measured shape whose plan takes the problem.
    pub fn reason(&self, table: &Table) -> String {
        let r = self.row;
        let at = [table.note("device"), table.note("date")].into_iter().flatten().collect::<Vec<_>>().join(", ");
        // A GEMV row run with the GEMV that holds all of the problem's rows says so.
        let holding = is_gemv(self.kernel) && for_dtype(r.kernel, self.kernel.spec.dtype) != Some(self.kernel);
        format!(
            "nearest measured shape {} ({}, distance {:.2}): {} ran at {:.1}% of the best cuBLAS there{}{}",
            r.case_name(),
            r.dtype.name(),
            self.distance,
            r.plan_name(),
            r.percent,
            if at.is_empty() { String::new() } else { format!(" ({at})") },
            if holding { "; run as the GEMV whose block holds all M rows" } else { "" }
        )
    }
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The table's choice for `problem` in `dtype` (see the module documentation), or `None`
/// when no row's kernel takes it.
pub fn table_choice<'t>(table: &'t Table, dtype: Dtype, problem: &Problem) -> Option<Choice<'t>> {
    choose_among(table, dtype, problem, true)
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// As [`table_choice`], among the rows that run the problem as given (not staged): the kernel
/// for a caller that launches one kernel on the operands it has.
pub fn table_choice_direct<'t>(table: &'t Table, dtype: Dtype, problem: &Problem) -> Option<Choice<'t>> {
    choose_among(table, dtype, problem, false)
}

fn choose_among<'t>(table: &'t Table, dtype: Dtype, problem: &Problem, staged_rows: bool) -> Option<Choice<'t>> {
    let own = table.rows.iter().any(|r| r.dtype == dtype);
    let mut rows: Vec<(f64, &Row)> = table
        .rows
        .iter()
        .filter(|r| staged_rows || !r.staged)
        .filter(|r| if own { r.dtype == dtype } else { for_dtype(r.kernel, dtype).is_some() })
        .map(|r| (distance(r, dtype, problem), r))
        .collect();
    rows.sort_by(|x, y| x.0.total_cmp(&y.0));
    // Rows much farther than the nearest one do not speak for this problem (a GEMV measured
    // on one row says nothing of 2048 rows): beyond [`WINDOW`] the catalog's order decides.
    let nearest = rows.first().map_or(0.0, |r| r.0);
    let staged = problem.with_aligned_rows(dtype.bytes() as u64).map(|(p, _)| p);
    rows.into_iter().take_while(|(d, _)| *d <= nearest + WINDOW).find_map(|(distance, row)| {
        let kernel = in_layout(for_dtype(row.kernel, dtype)?, problem.layout)?;
        // A row that names a decode GEMV says the GEMV is fastest there; run the one whose
        // block holds all of M (one of fewer rows would read the weight once per block row).
        let kernel = if is_gemv(kernel) && kernel.spec.tile.bm < problem.m { gemv_for(dtype, problem)? } else { kernel };
        let reads = if row.staged { staged.as_ref()? } else { problem };
        (kernel.spec.dtype == dtype && kernel.geometry(reads).is_ok()).then_some(Choice { kernel, staged: row.staged, split: row.splits > 1, row, distance })
    })
}
