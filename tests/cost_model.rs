//! The cost model of the automatic choice (`src/choice/cost.rs`): replayed on the tuning runs
//! it was fitted to, its pick must stay near the fastest measured plan; on the evaluation suite
//! every plan it picks must run (its kernel takes what it reads) and cost more as K grows. CPU
//! only: the measurements are the committed JSON of `docs/perf/`.

use std::path::Path;

use rgemm::api::{Gemm, KernelChoice};
use rgemm::catalog::{self, Dtype};
use rgemm::choice::{self, cost};
use rgemm::{Layout, Problem};

/// Tuning runs with every candidate plan of each shape timed, and how near the fastest the
/// model's pick must stay there (geometric mean, worst), on the shapes the model decides (a
/// decode step runs its GEMV without it). The model is fitted (`rgemm fit`) to these four runs
/// together: the fitting suite on an H200 (`rgemm tune --suite fit`, run 183), batches of small
/// products that are in no suite (H200, run 170), and the tuning suite on an H100 in bf16 and f32
/// (runs 78 and 138). The evaluation suite never informs it (`tests/eval_suite.rs`).
const TUNING_RUNS: &[(&str, f64, f64)] = &[
    ("docs/perf/2026-11-26-h100-run78/tune-bf16.json", 1.04, 1.25),
    ("docs/perf/2026-11-27-h100-run138/tune-f32.json", 1.04, 1.25),
    ("docs/perf/2026-11-28-h200-run170/tune-batched.json", 1.05, 1.35),
    ("docs/perf/2026-11-29-h200-run183/fit-bf16.json", 1.04, 1.6),
];

fn problem_of(size: &serde_json::Value) -> Problem {
    let dim = |k: &str| size[k].as_u64().unwrap_or_else(|| panic!("a size without {k}"));
    let layout = size["layout"].as_str().map_or(Layout::NN, |l| Layout::named(l).unwrap_or_else(|| panic!("layout {l}")));
    let batch = size["batch"].as_u64().unwrap_or(1);
    Gemm::new(dim("m"), dim("n"), dim("k")).layout(layout).packed_batch(batch).problem().unwrap()
}

#[test]
fn the_model_picks_near_the_fastest_measured_plan_of_the_tuning_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for &(run, most_geomean, most_worst) in TUNING_RUNS {
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root.join(run)).unwrap()).unwrap();
        let sms = json["device"]["multiprocessors"].as_u64().unwrap() as u32;
        let dtype = catalog::dtype_named(json["dtype"].as_str().unwrap()).unwrap();
        let (mut log_regret, mut worst, mut cases) = (0.0f64, (1.0f64, String::new()), 0);
        for size in json["sizes"].as_array().unwrap() {
            let problem = problem_of(size);
            if choice::decode_kernel(dtype, &problem).is_some() {
                // A decode step runs its GEMV without asking the model.
                continue;
            }
            // (measured ms, estimated s) of every plan of the run the catalog still has.
            let mut timed = Vec::new();
            let (mut runs, mut known) = (0, 0);
            for run in size["runs"].as_array().unwrap() {
                let Some(ms) = run["timing"]["median_ms"].as_f64() else { continue };
                runs += 1;
                let (kernel, staged, splits) = rgemm::dispatch::split_plan_name(run["kernel"].as_str().unwrap());
                let Ok(kernel) = catalog::find(&kernel) else { continue };
                let Ok(plan) = choice::plan_split(&problem, kernel, staged, splits) else { continue };
                known += 1;
                timed.push((ms, cost::estimate(&plan, sms).seconds, plan.name()));
            }
            assert!(known * 10 >= runs * 9, "{run} {problem}: only {known} of {runs} timed plans are plans today");
            let best = timed.iter().map(|t| t.0).fold(f64::INFINITY, f64::min);
            let pick = timed.iter().min_by(|x, y| x.1.total_cmp(&y.1)).unwrap();
            let regret = pick.0 / best;
            log_regret += regret.ln();
            cases += 1;
            if regret > worst.0 {
                worst = (regret, format!("{problem}: picks {} ({:.4} ms), the fastest took {best:.4} ms", pick.2, pick.0));
            }
        }
        let geomean = (log_regret / cases as f64).exp();
        println!("{run}: {cases} shapes, the model's pick at {geomean:.3}× the fastest (geometric mean), worst {:.3}× ({})", worst.0, worst.1);
        assert!(geomean <= most_geomean, "{run}: the model's picks take {geomean:.3}× the fastest plan's time (geometric mean)");
        assert!(worst.0 <= most_worst, "{run}: worst pick {:.3}×: {}", worst.0, worst.1);
    }
}

#[test]
fn the_models_plans_on_the_evaluation_suite_run_and_cost_more_with_more_k() {
    for dtype in [Dtype::Bf16, Dtype::F32] {
        for case in rgemm_tools::eval_suite::eval_suite() {
            let problem = case.case.problem(rgemm::LeadingDims::default()).unwrap();
            let plan = choice::plan(dtype, &problem, &KernelChoice::Auto, 132).unwrap();
            let reads = plan.problem();
            assert!(plan.kernel().spec.dtype == dtype);
            let estimate = cost::estimate(&plan, 132);
            assert!(estimate.seconds.is_finite() && estimate.seconds > 0.0, "{problem}: {estimate:?}");
            println!("{} {:<16} {:<40} {:>9.1} µs  {}", dtype.name(), case.class.name(), case.case.to_string(), estimate.seconds * 1e6, plan.name());
            if let Some(deeper) = Gemm::new(reads.m as u64, reads.n as u64, reads.k as u64 * 2).layout(reads.layout).packed_batch(reads.batch as u64).problem().ok() {
                // The same plan twice as deep (where the copies are the same: a deeper K may
                // align what was not).
                if let Some(twice) = choice::plan_split(&deeper, plan.kernel(), plan.staged() != [false, false], plan.splits()).ok().filter(|t| t.staged() == plan.staged()) {
                    assert!(cost::estimate(&twice, 132).seconds > estimate.seconds, "{problem}: {} costs no more at twice the K", plan.name());
                }
            }
        }
    }
}

#[test]
fn every_fitted_constant_is_named_positive_and_set_alone() {
    let fitted = cost::Model::FITTED;
    let parameters = fitted.parameters();
    let mut names: Vec<&str> = parameters.iter().map(|p| p.0).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), parameters.len(), "a name given twice");
    for (name, value) in &parameters {
        assert!(value.is_finite() && *value > 0.0, "{name} = {value}");
        let moved = fitted.with(name, value * 2.0).unwrap_or_else(|| panic!("{name} cannot be set"));
        for ((other, before), (_, after)) in parameters.iter().zip(moved.parameters()) {
            assert_eq!(after, if other == name { before * 2.0 } else { *before }, "setting {name} moved {other}");
        }
        assert!(fitted.with(name, 0.0).is_none() && fitted.with(name, f64::NAN).is_none(), "{name}");
    }
    assert!(fitted.with("no_such_constant", 1.0).is_none());
}

/// `rgemm fit` on a small tuning run: it reads every case with timed plans, never raises its
/// objective, keeps every constant positive, and its regrets are ratios to the fastest (≥ 1).
#[test]
fn a_fit_lowers_its_objective_and_keeps_the_model_valid() {
    use rgemm_tools::fit;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/perf/2026-11-28-h200-run170/tune-batched.json");
    let report = rgemm_tools::report::Report::read(&path).unwrap();
    let cases = fit::cases_of(&report).unwrap();
    assert!(cases.len() >= 10, "{} cases", cases.len());
    let all: Vec<&fit::FitCase> = cases.iter().collect();
    let start = cost::Model::FITTED.with("launch_s", 4.0 * cost::Model::FITTED.launch_s).unwrap();
    let mut sweeps = Vec::new();
    let fitted = fit::fit(&all, &start, |_, objective| sweeps.push(objective));
    assert!(fit::objective(&all, &fitted) <= fit::objective(&all, &start));
    assert!(sweeps.windows(2).all(|w| w[1] <= w[0]), "{sweeps:?}");
    assert!(fitted.parameters().iter().all(|(_, v)| v.is_finite() && *v > 0.0));
    let (geomean, worst) = fit::regrets(&all, &fitted);
    assert!((1.0..=worst).contains(&geomean), "{geomean} {worst}");
    for case in &cases {
        assert!(case.plans.len() >= 2 && case.regret(case.pick(&fitted)) >= 1.0);
    }
}
