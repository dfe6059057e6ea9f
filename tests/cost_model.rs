//! The cost model of the automatic choice (`src/choice/cost.rs`): replayed on the tuning runs
//! it was fitted to, its pick must stay near the fastest measured plan; on the evaluation suite
//! every plan it picks must run (its kernel takes what it reads) and cost more as K grows. CPU
//! only: the measurements are the committed JSON of `docs/perf/`.

use std::path::Path;

use rgemm::api::{Gemm, KernelChoice};
use rgemm::catalog::{self, Dtype};
use rgemm::choice::{self, cost};
use rgemm::{Layout, Problem};

/// The tuning runs the model's constants were fitted to: every dispatch candidate of the type
/// timed on every tuning-suite shape (H100, 132 SMs), and on batches of small products that are
/// in no suite (H200, 132 SMs; the small-products kernel's constants were fitted to run 167, this
/// is the same tuning run of the kernel with its idle warps trimmed; run 171's, at five blocks per
/// SM, puts the model's worst pick at 1.251×: `docs/perf/2026-11-28-h200.md`).
const TUNING_RUNS: &[&str] =
    &["docs/perf/2026-11-26-h100-run78/tune-bf16.json", "docs/perf/2026-11-27-h100-run138/tune-f32.json", "docs/perf/2026-11-28-h200-run170/tune-batched.json"];

fn problem_of(size: &serde_json::Value) -> Problem {
    let dim = |k: &str| size[k].as_u64().unwrap_or_else(|| panic!("a size without {k}"));
    let layout = size["layout"].as_str().map_or(Layout::NN, |l| Layout::named(l).unwrap_or_else(|| panic!("layout {l}")));
    let batch = size["batch"].as_u64().unwrap_or(1);
    Gemm::new(dim("m"), dim("n"), dim("k")).layout(layout).packed_batch(batch).problem().unwrap()
}

#[test]
fn the_model_picks_near_the_fastest_measured_plan_of_the_tuning_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for run in TUNING_RUNS {
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root.join(run)).unwrap()).unwrap();
        let sms = json["device"]["multiprocessors"].as_u64().unwrap() as u32;
        let (mut log_regret, mut worst, mut cases) = (0.0f64, (1.0f64, String::new()), 0);
        for size in json["sizes"].as_array().unwrap() {
            let problem = problem_of(size);
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
        assert!(geomean <= 1.04, "{run}: the model's picks take {geomean:.3}× the fastest plan's time (geometric mean)");
        assert!(worst.0 <= 1.25, "{run}: worst pick {:.3}×: {}", worst.0, worst.1);
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
