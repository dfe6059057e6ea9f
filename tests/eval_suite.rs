//! The evaluation suite (`rgemm_tools::eval_suite`, `rgemm bench --suite eval`): at least 150
//! valid cases in every class, within the suite's limits, drawn the same on every call, and
//! disjoint from every shape the tuner measured: every row of every table in `dispatch/` and every
//! case of the tuning suite. CPU only.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rgemm::dispatch::Table;
use rgemm::{Layout, LeadingDims};
use rgemm_tools::eval_suite::{self, Class, EvalCase, Key, Suite, key};
use rgemm_tools::suite::real_suite;

/// Every table file in `dispatch/`, parsed.
fn tables() -> Vec<(String, Table)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("dispatch");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "tsv")).collect();
    paths.sort();
    paths.into_iter().map(|p| (p.display().to_string(), Table::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))).collect()
}

#[test]
fn disjoint_from_every_tuned_shape() {
    let mut tuned: HashMap<Key, String> = HashMap::new();
    let tables = tables();
    assert!(!tables.is_empty(), "dispatch/ has no table");
    for (path, table) in &tables {
        assert!(!table.rows.is_empty(), "{path} has no rows");
        for row in &table.rows {
            let k = (row.m as u64, row.n as u64, row.k as u64, row.layout, row.batch as u64);
            tuned.insert(k, format!("{path}: {} row {}", row.dtype.name(), row.case_name()));
        }
    }
    for case in real_suite() {
        tuned.insert(key(&case), format!("the tuning suite's {case}"));
    }
    let clashes: Vec<String> = eval_suite::eval_suite()
        .iter()
        .filter_map(|e| tuned.get(&key(&e.case)).map(|t| format!("{} ({}, {}) is {t}", e.case, e.class, e.what)))
        .collect();
    assert!(
        clashes.is_empty(),
        "the evaluation suite must hold no shape the tuner measured (a tune of an evaluation shape makes it in-sample: drop that row, or draw the suite anew with another SEED):\n{}",
        clashes.join("\n")
    );
}

#[test]
fn every_class_has_its_cases() {
    let suite = eval_suite::eval_suite();
    assert!(suite.len() >= 150, "{} cases", suite.len());
    for class in Class::ALL {
        let n = suite.iter().filter(|e| e.class == class).count();
        assert!(n > 0, "class {class} has no cases");
        assert_eq!(n, class.count(), "class {class}");
        assert_eq!(Class::named(class.name()), Some(class));
    }
    assert_eq!(suite.len(), Class::ALL.iter().map(|c| c.count()).sum::<usize>());
    // The same order as the classes: a report lists them in turn.
    let order: Vec<Class> = suite.iter().map(|e| e.class).collect();
    assert!(order.is_sorted());
}

#[test]
fn cases_are_valid_distinct_and_within_limits() {
    let suite = eval_suite::eval_suite();
    let mut seen = HashSet::new();
    for EvalCase { case, class, what } in &suite {
        let (m, n, k) = case.shape;
        assert!(m > 0 && n > 0 && k > 0 && case.batch > 0, "{case} ({class})");
        let problem = case.problem(LeadingDims::default()).unwrap_or_else(|e| panic!("{case} ({class}): {e}"));
        let general = rgemm::Problem::general(m, n, k, 1.0, 0.0, case.layout, LeadingDims::default(), rgemm::Batch::packed(case.batch)).unwrap();
        assert_eq!(problem, general);
        assert!(eval_suite::within_limits(case), "{case} ({class}) exceeds the suite's limits");
        assert!(seen.insert(key(case)), "{case} twice");
        assert!(!what.is_empty());
        // Each class is what it says.
        match class {
            Class::Decode => assert!(m <= 16 && case.batch == 1, "{case}"),
            Class::Prefill => assert!((128..=8192).contains(&m) && case.batch == 1, "{case}"),
            Class::Attention => assert!(case.batch > 1 && (case.layout == Layout::NT || case.layout == Layout::NN), "{case}"),
            Class::SmallBatched => assert!([m, n, k].iter().all(|d| (32..=128).contains(d)) && (256..=4096).contains(&case.batch), "{case}"),
            Class::DeepK => assert!(k >= 16384 && m <= 1024 && n <= 1024, "{case}"),
            Class::Dot => assert!(m * n <= 16 && k >= 65536, "{case}"),
            Class::TinyK => assert!(k <= 16 && m >= 512 && n >= 512, "{case}"),
            Class::RandomAligned => assert!([m, n, k].iter().all(|d| d % 8 == 0) && eval_suite::rows_aligned(case), "{case}"),
            Class::RandomUnaligned => assert!(!eval_suite::rows_aligned(case), "{case}"),
        }
    }
    // Linear layers are nt (GPT-2's Conv1D: nn); random shapes come in every layout.
    for class in [Class::RandomAligned, Class::RandomUnaligned, Class::SmallBatched, Class::DeepK, Class::Dot] {
        for layout in Layout::ALL {
            assert!(suite.iter().any(|e| e.class == class && e.case.layout == layout), "{class} has no {} case", layout.name());
        }
    }
    assert!(suite.iter().any(|e| e.class == Class::Decode && e.case.layout == Layout::NT));
}

#[test]
fn the_draw_is_deterministic() {
    let first = eval_suite::eval_suite();
    assert_eq!(first, eval_suite::eval_suite());
    assert_eq!(Suite::Eval.cases(), first.iter().map(|e| e.case).collect::<Vec<_>>());
    assert_eq!(Suite::Eval.classes(), first.iter().map(|e| e.class.name().to_string()).collect::<Vec<_>>());
    // Pinned: the suite is the same on every platform and at every commit, so that runs of it
    // compare. A change to the draw that is meant changes these (and makes older runs of the
    // suite incomparable); one that is not is a bug.
    let names: Vec<String> = first.iter().map(|e| e.case.to_string()).collect();
    let fnv = names.iter().flat_map(|n| n.bytes().chain([b','])).fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    assert_eq!((names.len(), fnv), (PINNED_LEN, PINNED_FNV), "first cases: {:?}", &names[..8]);
}

const PINNED_LEN: usize = 172;
const PINNED_FNV: u64 = 11_057_289_455_276_941_473;

#[test]
fn tuning_on_the_suite_is_refused() {
    let e = Suite::Eval.tunable_cases().unwrap_err().to_string();
    assert!(e.starts_with("the evaluation suite is never tuned on"), "{e}");
    assert_eq!(Suite::Real.tunable_cases().unwrap(), real_suite());
    assert_eq!("eval".parse::<Suite>(), Ok(Suite::Eval));
    assert!("tuning".parse::<Suite>().unwrap_err().contains("the suites are real, eval, fit"));
    assert_eq!(Suite::Fit.tunable_cases().unwrap(), Suite::Fit.cases());
}

/// The cost model is fitted to the fitting suite's timings; what the evaluation suite says of
/// the choice holds only if no evaluation case is a fitting case.
#[test]
fn the_fitting_suite_is_disjoint_from_the_evaluation_suite() {
    let held_out: HashSet<Key> = eval_suite::eval_suite().iter().map(|e| key(&e.case)).collect();
    let fit = eval_suite::fit_suite();
    assert_eq!(fit.len(), PINNED_LEN);
    let shared: Vec<String> = fit.iter().filter(|e| held_out.contains(&key(&e.case))).map(|e| format!("{} ({})", e.case, e.class)).collect();
    assert!(shared.is_empty(), "fitting cases that are evaluation cases: {}", shared.join(", "));
    // Drawn from its own seed: not the evaluation suite again under another name.
    let distinct: HashSet<Key> = fit.iter().map(|e| key(&e.case)).collect();
    assert_eq!(distinct.len(), fit.len());
    for class in Class::ALL {
        assert_eq!(fit.iter().filter(|e| e.class == class).count(), class.count(), "{class}");
    }
    assert_eq!(Suite::Fit.classes(), fit.iter().map(|e| e.class.name().to_string()).collect::<Vec<_>>());
}
