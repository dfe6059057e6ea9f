//! `rgemm fit`: the cost model's constants ([`rgemm::choice::cost::Model`]) fitted to the timings
//! of tuning runs (`rgemm tune --suite fit --json ...`: every candidate plan of every case timed
//! in turn).
//!
//! **The idea.** The model ranks plans; what matters is the plan it ranks first. For a case whose
//! timed plans are `P`, the model's pick is the plan of `P` it estimates cheapest, and its
//! *regret* is that plan's measured time over the fastest measured time (1: the model picked the
//! fastest). The fit lowers the geometric mean of the regrets over all cases, plus a small
//! weight on the squared log error of every estimate (so that the estimate `rgemm run` prints
//! stays a time, and so that the search has a slope where the picks do not change). It moves one
//! parameter at a time by a factor from a shrinking list, keeping a move when the objective
//! falls ([`fit`]); parameters that are shares stay at most 1.
//!
//! **Invariants.** Only the runs given are read: the fitting suite's and the tuning suite's,
//! never the evaluation suite's (a run of it has no candidate timings, and `rgemm tune --suite
//! eval` is refused). Cases whose plans the catalog no longer has are left out.
//!
//! **Cost.** The plans are built once; each objective costs one estimate per timed plan (a few
//! thousand), and a fit a few thousand objectives: seconds.

use rgemm::catalog;
use rgemm::choice::{self, cost::Model};
use rgemm::dispatch::split_plan_name;
use rgemm::problem::LeadingDims;
use rgemm::Problem;
use rgemm::api::Plan;

use crate::report::{Outcome, Report};
use crate::tool_error::ToolResult;

/// The weight of the mean squared log error of the estimates against the mean log regret.
pub const CALIBRATION_WEIGHT: f64 = 0.02;

/// One case of a tuning run: its problem, its class (where the run recorded one), every timed
/// plan with its measured median in seconds, and the automatic choice's plan today.
pub struct FitCase {
    /// The problem every plan of the case solves.
    pub problem: Problem,
    /// The class the suite gave the case, or `-`.
    pub class: String,
    /// Streaming multiprocessors of the GPU the run timed on.
    pub sms: u32,
    /// The timed plans and their measured times, in seconds.
    pub plans: Vec<(Plan, f64)>,
    /// The index in `plans` of the automatic choice's plan today, where it was timed.
    pub automatic: Option<usize>,
    /// Whether a measured shape of the dispatch table decided the automatic choice's plan.
    pub table_decided: bool,
}

impl FitCase {
    /// The fastest measured time.
    pub fn fastest(&self) -> f64 {
        self.plans.iter().map(|p| p.1).fold(f64::INFINITY, f64::min)
    }

    /// The index of the plan `model` estimates cheapest.
    pub fn pick(&self, model: &Model) -> usize {
        let estimates = self.plans.iter().map(|(plan, _)| model.estimate(plan, self.sms).seconds);
        estimates.enumerate().min_by(|x, y| x.1.total_cmp(&y.1)).map_or(0, |(i, _)| i)
    }

    /// The measured time of plan `i` over the fastest.
    pub fn regret(&self, i: usize) -> f64 {
        self.plans[i].1 / self.fastest()
    }
}

/// The cases of a tuning report whose plans are plans today, each with at least two timed plans.
pub fn cases_of(report: &Report) -> ToolResult<Vec<FitCase>> {
    let dtype = catalog::dtype_named(&report.dtype)
        .ok_or_else(|| crate::tool_error::ToolError::InvalidArgument(format!("the report's type '{}' is unknown", report.dtype)))?;
    let sms = report.device.multiprocessors;
    let mut cases = Vec::new();
    for size in &report.sizes {
        let problem = size.case().problem(LeadingDims::default())?;
        let mut plans = Vec::new();
        for run in &size.runs {
            if !matches!(run.outcome, Outcome::Pass | Outcome::Timed) {
                continue;
            }
            let Some(timing) = &run.timing else { continue };
            let (name, staged, splits) = split_plan_name(&run.kernel);
            let Ok(kernel) = catalog::find(&name) else { continue };
            let Ok(plan) = choice::plan_split(&problem, kernel, staged, splits) else { continue };
            plans.push((plan, timing.median_ms * 1e-3));
        }
        if plans.len() < 2 {
            continue;
        }
        let planned = choice::plan(dtype, &problem, &rgemm::api::KernelChoice::Auto, sms).ok();
        let automatic = planned.as_ref().and_then(|a| plans.iter().position(|(p, _)| p.name() == a.name()));
        let table_decided = planned.is_some_and(|a| a.reason().starts_with("nearest measured shape"));
        cases.push(FitCase { problem, class: size.class.clone().unwrap_or_else(|| "-".into()), sms, plans, automatic, table_decided });
    }
    Ok(cases)
}

/// The geometric mean of the model's regrets over `cases`, and the worst.
pub fn regrets(cases: &[&FitCase], model: &Model) -> (f64, f64) {
    summary(cases.iter().map(|case| case.regret(case.pick(model))))
}

/// The geometric mean of `regrets` and the worst (1 and 1 for none).
pub fn summary(regrets: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let (mut log_sum, mut worst, mut count) = (0.0, 1.0f64, 0usize);
    for r in regrets {
        log_sum += r.ln();
        worst = worst.max(r);
        count += 1;
    }
    ((log_sum / count.max(1) as f64).exp(), worst)
}

/// What the fit lowers: the mean log regret plus [`CALIBRATION_WEIGHT`] times the mean squared
/// log error of the estimates.
pub fn objective(cases: &[&FitCase], model: &Model) -> f64 {
    let (mut regret, mut error, mut estimates) = (0.0, 0.0, 0usize);
    for case in cases {
        let fastest = case.fastest();
        let mut best = (f64::INFINITY, 0.0);
        for (plan, seconds) in &case.plans {
            let e = model.estimate(plan, case.sms).seconds;
            error += (e / seconds).ln().powi(2);
            estimates += 1;
            if e < best.0 {
                best = (e, *seconds);
            }
        }
        regret += (best.1 / fastest).ln();
    }
    regret / cases.len().max(1) as f64 + CALIBRATION_WEIGHT * error / estimates.max(1) as f64
}

/// Whether the parameter `name` is a share of something (of a peak, of a cost): a fit keeps it
/// at most 1.
fn is_share(name: &str) -> bool {
    matches!(name, "persistent_fill_share" | "overlap_miss" | "pipeline_floor") || name.ends_with("efficiency") || name.starts_with("tile_efficiency.")
}

/// `start` with its parameters moved one at a time, by factors from a shrinking list, while
/// [`objective`] falls; `progress` hears each sweep's objective.
pub fn fit(cases: &[&FitCase], start: &Model, mut progress: impl FnMut(usize, f64)) -> Model {
    let mut model = *start;
    let mut best = objective(cases, &model);
    for (sweep, factor) in [2.0f64, 2.0, 2.0, 1.5, 1.5, 1.5, 1.25, 1.25, 1.25, 1.1, 1.1, 1.1, 1.05, 1.05].into_iter().enumerate() {
        for (name, _) in start.parameters() {
            loop {
                let value = model.parameters().into_iter().find(|p| p.0 == name).map_or(1.0, |p| p.1);
                let mut moved = false;
                for candidate in [value * factor, value / factor] {
                    let candidate = if is_share(name) { candidate.min(1.0) } else { candidate };
                    let Some(trial) = model.with(name, candidate) else { continue };
                    let score = objective(cases, &trial);
                    if score < best - 1e-9 {
                        (model, best, moved) = (trial, score, true);
                        break;
                    }
                }
                if !moved {
                    break;
                }
            }
        }
        progress(sweep, best);
    }
    model
}

/// `model`'s fitted parameters, one `name = value` line each, to three significant digits.
pub fn literal(model: &Model) -> String {
    model.parameters().into_iter().map(|(name, value)| format!("{name} = {value:.3e}\n")).collect()
}

/// Two-fold cross-validation of [`fit`]: the model fitted to the cases of even index judged on
/// the odd ones, and the other way round; the geometric mean and the worst of the held-out
/// regrets, over all cases. What a fit promises for shapes it has not seen.
pub fn cross_validated(cases: &[&FitCase], start: &Model) -> (f64, f64) {
    let mut held_out = Vec::with_capacity(cases.len());
    for held in [0, 1] {
        let train: Vec<&FitCase> = cases.iter().enumerate().filter(|(i, _)| i % 2 != held).map(|(_, c)| *c).collect();
        let model = fit(&train, start, |_, _| {});
        held_out.extend(cases.iter().enumerate().filter(|(i, _)| i % 2 == held).map(|(_, c)| c.regret(c.pick(&model))));
    }
    summary(held_out)
}
