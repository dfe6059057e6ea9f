//! The benchmark runner behind `rgemm bench` and `rgemm tune`: every kernel × size, validated
//! once, timed with cuBLAS on the same operands, L2 flushed between timed launches. The timing
//! itself is [`crate::timing`] (re-exported here).

use rgemm::api::{KernelChoice, Plan};
use rgemm::catalog::{Dtype, Kernel};
use crate::tool_error::{ToolError, ToolResult};
use rgemm::gpu::Gpu;
use crate::baseline::Library;
use rgemm::problem::{FusedEpilogue, LeadingDims, Problem};

use crate::suite::Case;
use crate::report::{self, DeviceRecord, Outcome, Report, RunRecord, SizeRecord, Stats};
use crate::verify::{self, Judged, PlanOperands};

pub use crate::timing::{Contender, L2Flush, Order, Timing, time, time_contenders, time_in_turn, time_interleaved, time_sustained};

/// The sizes `rgemm bench` runs by default: squares, then shapes that stress one dimension and an
/// odd shape no tile divides.
pub const DEFAULT_SIZES: &[Case] = &[
    Case::plain((1024, 1024, 1024)),
    Case::plain((2048, 2048, 2048)),
    Case::plain((4096, 4096, 4096)),
    Case::plain((8192, 8192, 8192)),
    Case::plain((4096, 4096, 1024)),
    Case::plain((8192, 1024, 4096)),
    Case::plain((3001, 2999, 3003)),
];

/// What a benchmark run does.
#[derive(Clone, Debug)]
pub struct BenchPlan {
    /// `bench` or `tune` (recorded in the report).
    pub command: String,
    pub dtype: Dtype,
    /// What runs each case: the listed `kernels`, or library plans (`kernels` is then empty).
    pub runs: Runs,
    pub kernels: Vec<Kernel>,
    pub sizes: Vec<Case>,
    /// The class of each case of `sizes`, in order, recorded in the report (a run of the
    /// evaluation suite: [`crate::eval_suite::Suite::classes`]); empty for runs without classes.
    pub classes: Vec<String>,
    /// Leading dimensions for every case (tight where `None`).
    pub ld: LeadingDims,
    /// The output type and the fused epilogue of every case ([`FusedEpilogue::NONE`]: f32 C,
    /// nothing applied). With anything else every run is a plan checked through the same
    /// epilogue, and cuBLAS runs the same output type and epilogue where it has them.
    pub epilogue: FusedEpilogue,
    pub warmup: usize,
    pub iters: usize,
    pub seed: u64,
    /// Write 2× L2 between timed launches.
    pub flush_l2: bool,
    /// How cuBLAS and the kernels of a case are timed against one another.
    pub order: Order,
    /// With [`Runs::Auto`]: the automatic choice tuned on the GPU, each case's fastest plan
    /// kept in this cache ([`KernelChoice::Tuned`]); `None`: the untuned choice.
    pub tune_cache: Option<rgemm::choice::TuneCache>,
    pub git_commit: Option<String>,
}

/// What a benchmark run times on each case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// Each kernel of [`BenchPlan::kernels`], launched directly.
    Listed,
    /// The plan the automatic choice makes for the case (kernel, split, staging).
    Auto,
    /// Every candidate plan of the dispatch table's tuner ([`rgemm::choice::candidate_plans`]),
    /// timed; only the fastest validated.
    Candidates,
}

impl BenchPlan {
    /// Steps reported to the progress callback: per size, a check per kernel, cuBLAS, and a
    /// timing per kernel.
    pub fn steps(&self) -> u64 {
        (self.sizes.len() * (2 * self.kernels.len().max(1) + 1)) as u64
    }
}

/// The device as a report records it, with the peak for `dtype`.
pub fn device_record(gpu: &Gpu, dtype: Dtype) -> DeviceRecord {
    let i = &gpu.info;
    let peak_formula = match dtype {
        Dtype::F32 => "fp32 CUDA cores: SMs × 128 lanes × 2 flops × clock",
        Dtype::Bf16 | Dtype::F16 => "dense tensor cores: SMs × 4096 flops per clock × clock",
        Dtype::E4m3 => "dense FP8 tensor cores: SMs × 8192 flops per clock × clock",
    };
    DeviceRecord {
        name: i.name.clone(),
        compute_capability: format!("{}.{}", i.compute_capability.0, i.compute_capability.1),
        multiprocessors: i.multiprocessors,
        clock_mhz: i.clock_khz as f64 / 1e3,
        l2_bytes: i.l2_bytes,
        memory_bytes: i.memory_bytes,
        driver_cuda_version: i.driver_cuda_version.clone(),
        peak_tflops: crate::peaks::peak_tflops(i, dtype),
        peak_formula: peak_formula.to_string(),
        memory_gbps: Some(i.memory_gbps),
    }
}

/// Runs `plan` on `gpu`. `progress(done, total, what)` is called before each step, and
/// `measured(report)` after each size with the report so far (so that a run cut short still
/// leaves what it measured). Kernels that reject a size, and sizes that do not fit in memory, are
/// recorded as skipped; failed checks and CUDA errors of one kernel are recorded and the run goes
/// on (see [`Report::failures`]).
pub fn run(gpu: &Gpu, plan: &BenchPlan, mut progress: impl FnMut(u64, u64, &str), mut measured: impl FnMut(&Report)) -> ToolResult<Report> {
    let mut flush = if plan.flush_l2 { Some(L2Flush::new(gpu)?) } else { None };
    let mut report = Report {
        schema: report::SCHEMA,
        command: plan.command.clone(),
        rgemm_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: plan.git_commit.clone(),
        date_utc: report::utc_now(),
        device: device_record(gpu, plan.dtype),
        dtype: plan.dtype.name().to_string(),
        out_dtype: plan.epilogue.output.name().to_string(),
        epilogue: report::epilogue_name(plan.epilogue),
        warmup: plan.warmup,
        iters: plan.iters.max(1),
        l2_flush_bytes: flush.as_ref().map_or(0, L2Flush::bytes),
        timing: plan.order.describe(),
        seed: plan.seed,
        kernels: Vec::new(),
        sizes: Vec::with_capacity(plan.sizes.len()),
    };
    let kernels = |sizes: &[SizeRecord]| report::kernel_records(&if plan.runs == Runs::Listed { plan.kernels.clone() } else { chosen_kernels(sizes) });
    let total = plan.steps();
    let mut done = 0u64;
    let mut step = |what: String| {
        progress(done, total, &what);
        done += 1;
    };
    for (i, case) in plan.sizes.iter().enumerate() {
        let problem = case.problem(plan.ld)?.with_epilogue(plan.epilogue);
        // An error outside any one kernel (e.g. the context died) is recorded against every
        // kernel of the size, so that the sizes already measured are still reported.
        let record = run_size(gpu, plan, &problem, flush.as_mut(), &mut step).unwrap_or_else(|e| {
            let mut record = SizeRecord::new(&problem);
            record.cublas_error = Some(e.to_string());
            record.runs = plan
                .kernels
                .iter()
                .map(|k| RunRecord { kernel: k.name().to_string(), outcome: Outcome::Error, timing: None, check: None, note: Some(e.to_string()) })
                .collect();
            record
        });
        let record = SizeRecord { class: plan.classes.get(i).cloned(), ..record };
        report.sizes.push(record);
        report.kernels = kernels(&report.sizes);
        measured(&report);
    }
    progress(total, total, "done");
    Ok(report)
}

/// The kernels the automatic choice ran, in order of first use.
fn chosen_kernels(sizes: &[SizeRecord]) -> Vec<Kernel> {
    let mut out: Vec<Kernel> = Vec::new();
    // A split plan is recorded as `<kernel>_split<S>`: its kernel is the catalog's.
    let catalog_name = |name: &str| name.rsplit_once("_split").map_or(name.to_string(), |(k, s)| if s.parse::<u32>().is_ok() { k.to_string() } else { name.to_string() });
    for kernel in sizes.iter().flat_map(|s| &s.runs).filter_map(|r| rgemm::catalog::find(&catalog_name(&r.kernel)).ok()) {
        if !out.contains(&kernel) {
            out.push(kernel);
        }
    }
    out
}

/// An error that skips a kernel or size instead of failing it: the catalog rejects the size, or
/// it does not fit in memory.
fn skip_reason(e: &ToolError) -> Option<String> {
    match e {
        ToolError::Library(rgemm::Error::Unsupported { reason, .. }) => Some(reason.clone()),
        ToolError::Library(rgemm::Error::OutOfMemory { .. }) | ToolError::OutOfHostMemory { .. } => Some(e.to_string()),
        _ => None,
    }
}

/// The record of a run that did not happen: skipped where the kernel or the size cannot run
/// ([`skip_reason`]), an error otherwise.
fn not_run(label: &str, e: &ToolError) -> RunRecord {
    match skip_reason(e) {
        Some(reason) => RunRecord::skipped(label, reason),
        None => RunRecord { kernel: label.to_string(), outcome: Outcome::Error, timing: None, check: None, note: Some(e.to_string()) },
    }
}

fn run_size(gpu: &Gpu, plan: &BenchPlan, problem: &Problem, mut flush: Option<&mut L2Flush>, step: &mut impl FnMut(String)) -> ToolResult<SizeRecord> {
    // The automatic choice runs the library's plan (its kernel, and a split of K if it picks
    // one), the tuner every candidate plan. Listed kernels run directly, or, with an output type
    // or an epilogue, each by its named plan (with the epilogue pass where the kernel does not
    // apply the epilogue itself; a kernel that can take neither is skipped).
    let chosen;
    let sms = gpu.info.multiprocessors;
    let plans: Option<Vec<ToolResult<Plan>>> = match plan.runs {
        Runs::Auto => {
            let choice = plan.tune_cache.clone().map_or(KernelChoice::Auto, KernelChoice::Tuned);
            Some(vec![Ok(rgemm::choice::plan_on_gpu(gpu, plan.dtype, problem, &choice)?)])
        }
        Runs::Candidates => Some(rgemm::choice::candidate_plans(plan.dtype, problem, sms).into_iter().map(Ok).collect()),
        Runs::Listed if !problem.epilogue.is_none() => {
            Some(plan.kernels.iter().map(|k| Ok(rgemm::choice::plan(k.spec.dtype, problem, &KernelChoice::Named(k.name().into()), sms)?)).collect())
        }
        Runs::Listed => None,
    };
    let plan = match (&plans, plan.runs) {
        (Some(ps), Runs::Auto | Runs::Candidates) => {
            chosen = BenchPlan { kernels: ps.iter().flatten().map(Plan::kernel).collect(), ..plan.clone() };
            &chosen
        }
        _ => plan,
    };
    let planned = |i: usize| plans.as_ref().map(|ps| &ps[i]);
    let label = |i: usize| match planned(i) {
        Some(Ok(p)) => p.name(),
        _ => plan.kernels[i].name().to_string(),
    };
    let mut record = SizeRecord::new(problem);
    let name = record.name();
    if let Err(e) = verify::require_memory(gpu, problem) {
        let reason = skip_reason(&e).ok_or(e)?;
        for _ in 0..2 * plan.kernels.len() + 1 {
            step(format!("{name}: skipped"));
        }
        record.runs = plan.kernels.iter().map(|k| RunRecord::skipped(k.name(), reason.clone())).collect();
        record.skipped = Some(reason);
        return Ok(record);
    }

    // Validation: once per kernel, each on operands of its own (freed before the timing). The
    // tuner validates after the timing, only the fastest plan (see below).
    let tuning = plan.runs == Runs::Candidates;
    for (i, &kernel) in plan.kernels.iter().enumerate() {
        if tuning {
            record.runs.push(RunRecord { kernel: label(i), outcome: Outcome::Timed, timing: None, check: None, note: None });
            continue;
        }
        step(format!("{name} {}: check", label(i)));
        let verdict = match planned(i) {
            Some(Ok(p)) => verify::judge_plan(gpu, p, plan.seed).map(|(v, _)| v),
            Some(Err(e)) => {
                record.runs.push(not_run(&label(i), e));
                continue;
            }
            None => verify::verify(gpu, kernel, problem, plan.seed).map(Judged::Plain),
        };
        record.runs.push(match verdict {
            Ok(verdict) => RunRecord {
                kernel: label(i),
                outcome: if verdict.passed() { Outcome::Pass } else { Outcome::Fail },
                timing: None,
                check: Some(verdict.to_string()),
                note: None,
            },
            Err(e) => not_run(&label(i), &e),
        });
    }

    // Timing: cuBLAS and every kernel that ran its check, on the same operands.
    step(format!("{name}: cuBLAS and the kernels, timed {}", plan.order.describe()));
    let ops_owned = match PlanOperands::upload(gpu, problem, plan.dtype, plan.seed) {
        Ok(ops) => ops,
        Err(e) => {
            let reason = skip_reason(&e).ok_or(e)?;
            for run in record.runs.iter_mut().filter(|r| !matches!(r.outcome, Outcome::Skipped)) {
                run.note = Some(format!("not timed: {reason}"));
            }
            record.cublas_error = Some(reason);
            for _ in 0..plan.kernels.len() {
                step(format!("{name}: not timed"));
            }
            return Ok(record);
        }
    };
    // Each cuBLAS call that runs this output type and epilogue (both for a plain product), then
    // every kernel that ran its check, in the plan's order (see `timing`): a listed kernel
    // launched on the problem directly, a library plan with its own launches (a staged plan's
    // kernel reads the copies, not this problem).
    let ops = &ops_owned;
    let libraries = crate::baseline::libraries_for(plan.dtype, problem);
    let mut launches = ops.cublas_launches(gpu, libraries);
    // The run of each kernel launch after them.
    let mut timed_runs = Vec::new();
    for (i, (run, &kernel)) in record.runs.iter_mut().zip(&plan.kernels).enumerate() {
        if !matches!(run.outcome, Outcome::Pass | Outcome::Fail | Outcome::Timed) {
            continue;
        }
        match planned(i) {
            Some(Ok(library_plan)) => launches.push(Box::new(move || ops.run_plan(gpu, library_plan))),
            // Recorded as not run above.
            Some(Err(_)) => continue,
            None => match kernel.geometry(problem) {
                Ok(g) => launches.push(Box::new(move || ops.launch(gpu, kernel, &g))),
                Err(e) => {
                    run.outcome = Outcome::Error;
                    run.note = Some(e.to_string());
                    continue;
                }
            },
        }
        timed_runs.push(i);
    }
    let mut contenders: Vec<Contender<'_>> = launches.iter_mut().map(|l| &mut **l as Contender<'_>).collect();
    let mut timings = time_contenders(gpu, plan.order, plan.warmup, plan.iters, flush.as_deref_mut(), &mut contenders)?.into_iter();
    let mut errors = Vec::new();
    for (&library, timing) in libraries.iter().zip(timings.by_ref()) {
        match timing {
            Ok(t) => match library {
                Library::Classic => record.cublas_classic = Some(Stats::new(&t, problem)),
                Library::Lt => record.cublas_lt = Some(Stats::new(&t, problem)),
            },
            Err(e) => errors.push(format!("{}: {e}", library.name())),
        }
    }
    record.cublas = [&record.cublas_classic, &record.cublas_lt].into_iter().flatten().min_by(|x, y| x.median_ms.total_cmp(&y.median_ms)).cloned();
    if record.cublas.is_none() {
        // No cuBLAS call runs this output type and epilogue: no ratio, and no failure.
        match verify::no_baseline(plan.dtype, problem) {
            Some(why) => record.no_baseline = Some(why),
            None => record.cublas_error = Some(errors.join("; ")),
        }
    }
    for (i, timing) in timed_runs.into_iter().zip(timings) {
        let run = &mut record.runs[i];
        match timing {
            Ok(t) => run.timing = Some(Stats::new(&t, problem)),
            Err(e) => {
                run.outcome = Outcome::Error;
                run.note = Some(e.to_string());
            }
        }
    }
    drop(contenders);
    drop(launches);
    for i in 0..plan.kernels.len() {
        step(format!("{name} {}: timed", label(i)));
    }
    if let (Runs::Candidates, Some(ps)) = (plan.runs, &plans) {
        drop(ops_owned);
        validate_fastest(gpu, plan, ps, &mut record.runs)?;
    }
    Ok(record)
}

/// The tuner's validation: the fastest timed plan is checked; if it fails, the next fastest,
/// until one passes (the failures stay recorded).
fn validate_fastest(gpu: &Gpu, plan: &BenchPlan, plans: &[ToolResult<Plan>], runs: &mut [RunRecord]) -> ToolResult<()> {
    let mut order: Vec<usize> = (0..runs.len()).filter(|&i| runs[i].outcome == Outcome::Timed && runs[i].timing.is_some()).collect();
    let ms = |i: usize| runs[i].timing.as_ref().map_or(f64::INFINITY, |t| t.median_ms);
    order.sort_by(|&x, &y| ms(x).total_cmp(&ms(y)));
    for i in order {
        let Ok(candidate) = &plans[i] else { continue };
        let verdict = verify::judge_plan(gpu, candidate, plan.seed).map(|(v, _)| v);
        match verdict {
            Ok(v) => {
                runs[i].outcome = if v.passed() { Outcome::Pass } else { Outcome::Fail };
                runs[i].check = Some(v.to_string());
                if v.passed() {
                    return Ok(());
                }
            }
            Err(e) => match skip_reason(&e) {
                Some(reason) => runs[i].note = Some(format!("not validated: {reason}")),
                None => {
                    runs[i].outcome = Outcome::Error;
                    runs[i].note = Some(e.to_string());
                }
            },
        }
    }
    Ok(())
}
