//! Tables of recorded runs beyond the ladder: the four layouts at 4096³, the real-shape suites,
//! and the same kernels in several processes. Each is drawn from `rgemm bench` JSON under
//! `docs/perf/` and lands in `book/src/generated/`, so a new run changes a constant here and
//! `rgemm figures`, not prose. [`fill_blocks`] fills the README's generated block (the ladder
//! table of [`super::featured`]).

use std::path::Path;

use crate::report::{Outcome, Report, SizeRecord};

/// `rgemm bench` of the fastest kernels of each type in all four layouts at 4096³
/// (`library.sh layouts`), bf16 and f32.
/// (f32 from the first process of run 137, rung 15 split ahead in every layout: the same bench.)
pub const LAYOUT_RUNS: [&str; 2] = ["docs/perf/2026-11-27-h100-run102/layouts-bf16.json", "docs/perf/2026-11-27-h100-run137/f32-p1.json"];

/// `rgemm bench --suite real` per type, with the built-in dispatch table.
/// (f32 from run 138, with the f32 rows of the table it measured.)
pub const SUITE_RUNS: [&str; 2] = ["docs/perf/2026-11-27-h100-run122/suite-bf16/results.json", "docs/perf/2026-11-27-h100-run138/suite-f32/results.json"];

/// `rgemm bench --suite eval` per type: shapes no table holds and the tuner never saw, with the
/// automatic choice of the commit named, and bf16 again with the choice tuned on the GPU
/// (`--tune-cache`, from an empty cache). (bf16 untuned from run 194, the small-products kernel
/// storing plain C by quads; tuned from run 179, an earlier commit; f16 from run 196, whose
/// kernels are run 194's; f32 from run 185, an earlier commit whose f32 kernels are the same.)
pub const EVAL_RUNS: [&str; 4] = [
    "docs/perf/2026-11-29-h200-run194/eval-bf16.json",
    "docs/perf/2026-11-29-h200-run179/eval-bf16-tuned.json",
    "docs/perf/2026-11-29-h200-run196/eval-f16.json",
    "docs/perf/2026-11-29-h200-run185/eval-f32.json",
];

/// `rgemm bench --kernel best-bf16 --sizes … --out-dtype bf16|f32 [--epilogue E]`, one report
/// per epilogue, the plain product first: the automatic choice's plan against the best cuBLAS
/// with the same output type and epilogue, timed in turn (run 180: C's type, a column bias and
/// ReLU applied as rung 14 stages C; GELU, which takes the fused pass, from run 177). The cost
/// over the plain product is given only for reports of the plain product's run.
pub const EPILOGUE_RUNS: [&str; 8] = [
    "docs/perf/2026-11-29-h200-run180/bench-none.json",
    "docs/perf/2026-11-29-h200-run180/bench-bias.json",
    "docs/perf/2026-11-29-h200-run180/bench-bias-relu.json",
    "docs/perf/2026-11-29-h200-run180/bench-relu.json",
    "docs/perf/2026-11-29-h200-run177/bench-bias-gelu.json",
    "docs/perf/2026-11-29-h200-run180/bench-f32-bias.json",
    "docs/perf/2026-11-29-h200-run180/bench-square.json",
    "docs/perf/2026-11-29-h200-run180/bench-batched.json",
];

/// The same bench in separate processes (each with its own cuBLAS figure), one prefix per type
/// and way of timing: the files `<prefix>-p<i>.json`. Timed in turn, round order kept: bf16, f16
/// and f32 (rung 15's 3×TF32 `_presplit` and rung 11 `_wa_df`, the entries `best` runs) from the
/// five processes of run 155 of 2026-11-27, the three types in turn within each process; each
/// alone after two seconds of its own launches: rungs 14 and 15 in the three processes of run 151.
pub const PROCESS_RUNS: [&str; 6] = [
    "docs/perf/2026-11-27-h100-run155/bf16",
    "docs/perf/2026-11-27-h100-run155/f16",
    "docs/perf/2026-11-27-h100-run155/f32",
    "docs/perf/2026-11-27-h100-run151/bf16-sustained",
    "docs/perf/2026-11-27-h100-run151/f16-sustained",
    "docs/perf/2026-11-27-h100-run151/f32-sustained",
];

/// One process whose two medians at 8192³ landed on different clock steps (the ratio of the
/// medians 105.8%): the variance appendix's figure of the rounds, drawn from its `rounds_ms`.
pub const ROUNDS_RUN: &str = "docs/perf/2026-11-27-h100-run149/bf16-p3.json";

fn read(repo: &Path, file: &str) -> Result<Report, String> {
    Report::read(&repo.join(file)).map_err(|e| format!("{file}: {e}"))
}

/// The fastest passing run of a size: (kernel, % of the best cuBLAS, median ms).
fn fastest(size: &SizeRecord) -> Option<(&str, f64, f64)> {
    size.runs
        .iter()
        .filter(|r| r.outcome == Outcome::Pass)
        .filter_map(|r| Some((r.kernel.as_str(), 100.0 * size.fraction_of_cublas(r)?, r.timing.as_ref()?.median_ms)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

fn source(report: &Report, file: &str) -> String {
    format!("{}, {}, commit {}, timed {}; `{file}`", report.device.name, report.date_utc, report.git_commit.as_deref().unwrap_or("unknown"), report.timing)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    crate::timing::median(&v)
}

/// A suite run's cases: (case, the plan's kernel, % of the best cuBLAS), in run order.
pub fn suite_rows(report: &Report) -> Vec<(String, String, f64)> {
    report
        .sizes
        .iter()
        .filter_map(|s| {
            let run = s.runs.first()?;
            Some((s.name(), run.kernel.clone(), 100.0 * s.fraction_of_cublas(run)?))
        })
        .collect()
}

/// The geometric mean of percentages (of the best cuBLAS), as a percentage.
pub fn geomean(percents: impl ExactSizeIterator<Item = f64>) -> f64 {
    let n = percents.len().max(1) as f64;
    (percents.map(|p| (p / 100.0).ln()).sum::<f64>() / n).exp() * 100.0
}

/// Per layout, the fastest kernel of each type, its % of the best cuBLAS and its distance from
/// NN in those points; and its speed against NN's fastest kernel (NN's time over its time), since
/// cuBLAS itself is not equally fast in every layout.
pub fn layouts(repo: &Path) -> Result<String, String> {
    let reports = LAYOUT_RUNS.iter().map(|f| read(repo, f)).collect::<Result<Vec<_>, _>>()?;
    let mut t = String::from("| layout |");
    for r in &reports {
        t += &format!(" {0} (fastest kernel) | {0} − NN | {0} speed vs NN |", r.dtype);
    }
    t += "\n| --- |";
    t += &" ---: | ---: | ---: |".repeat(reports.len());
    t.push('\n');
    let layout_of = |s: &SizeRecord| s.layout.clone().unwrap_or_else(|| "nn".into());
    for layout in ["nn", "nt", "tn", "tt"] {
        t += &format!("| {layout} |");
        for r in &reports {
            let pick = |l: &str| r.sizes.iter().filter(|s| layout_of(s) == l && (s.m, s.n, s.k) == (4096, 4096, 4096)).find_map(fastest);
            match (pick(layout), pick("nn")) {
                (Some((kernel, pct, ms)), Some((_, nn, nn_ms))) => {
                    let short = kernel.rsplit_once("_s").map_or(kernel, |(_, tail)| tail);
                    t += &format!(" {pct:.1}% (`…_s{short}`) | {:+.1} | {:.1}% |", pct - nn, 100.0 * nn_ms / ms);
                }
                _ => t += " – | – | – |",
            }
        }
        t.push('\n');
    }
    t.push('\n');
    for (r, f) in reports.iter().zip(LAYOUT_RUNS) {
        t += &format!("{}: {}.  \n", r.dtype, source(r, f));
    }
    Ok(t)
}

/// Per type: cases, geometric mean, the lowest case, and every case passing.
pub fn suites(repo: &Path) -> Result<String, String> {
    let mut t = String::from("| type | cases | geometric mean | lowest case | checks |\n| --- | ---: | ---: | --- | --- |\n");
    let mut sources = String::new();
    for f in SUITE_RUNS {
        let r = read(repo, f)?;
        let rows = suite_rows(&r);
        let geomean = geomean(rows.iter().map(|row| row.2));
        let (low_case, low) = rows.iter().min_by(|a, b| a.2.total_cmp(&b.2)).map(|row| (row.0.clone(), row.2)).unwrap_or_default();
        let checks = if r.failures() == 0 { "all passed".to_string() } else { format!("{} failed", r.failures()) };
        t += &format!("| {} | {} | **{geomean:.1}%** | {low:.1}% ({low_case}) | {checks} |\n", r.dtype, rows.len());
        sources += &format!("{}: {}.  \n", r.dtype, source(&r, f));
    }
    Ok(format!("{t}\n{sources}"))
}

/// Per size and epilogue of [`EPILOGUE_RUNS`]: the plan, its median, % of the best cuBLAS with the
/// same output type and epilogue, and what the epilogue adds to the plain product of the first
/// report at the same size.
pub fn epilogues(repo: &Path) -> Result<String, String> {
    let mut t = String::from(
        "| size | C | epilogue | plan | median ms | % of the best cuBLAS | over the plain product |\n| --- | --- | --- | --- | ---: | ---: | ---: |\n",
    );
    let mut sources = String::new();
    let mut plain: Vec<(String, f64)> = Vec::new();
    let run_of = |f: &str| Path::new(f).parent().map(Path::to_path_buf);
    for (i, f) in EPILOGUE_RUNS.iter().enumerate() {
        let r = read(repo, f)?;
        let same_run = run_of(f) == run_of(EPILOGUE_RUNS[0]);
        for size in &r.sizes {
            let Some((kernel, pct, ms)) = fastest(size) else { continue };
            let name = size.name();
            if i == 0 {
                plain.push((name.clone(), ms));
            }
            let over = match plain.iter().find(|(n, _)| *n == name) {
                Some((_, base)) if i > 0 && same_run && r.out_dtype == "bf16" => format!("{:+.1}%", 100.0 * (ms / base - 1.0)),
                _ => "–".to_string(),
            };
            t += &format!("| `{name}` | {} | {} | `{kernel}` | {ms:.4} | {pct:.1}% | {over} |\n", r.out_dtype, r.epilogue);
        }
        sources += &format!("{}: {}.  \n", r.epilogue, source(&r, f));
    }
    Ok(format!("{t}\n{sources}"))
}

/// Per type and class of the evaluation suite: cases, geometric mean and minimum as % of the best
/// cuBLAS, and the slowest case ([`crate::eval_suite::markdown`]).
pub fn eval(repo: &Path) -> Result<String, String> {
    let mut t = String::new();
    for f in EVAL_RUNS {
        let r = read(repo, f)?;
        let summary = crate::eval_suite::summarize(&crate::eval_suite::measured(&r));
        let checks = if r.failures() == 0 { "every check passed".to_string() } else { format!("{} checks failed", r.failures()) };
        // A run whose plans were tuned on the GPU says so in its command (`rgemm bench --tune-cache`).
        let how = if r.command.contains("tuned") { ", the choice tuned on the GPU (`--tune-cache`, from an empty cache)" } else { ", the automatic choice" };
        t += &format!("**{}{how}** ({checks}; {}):

{}
", r.dtype, source(&r, f), crate::eval_suite::markdown(&summary));
    }
    Ok(t)
}

/// Per type, kernel and size: the median, lowest and highest % of the best cuBLAS over the
/// processes of [`PROCESS_RUNS`].
pub fn processes(repo: &Path) -> Result<String, String> {
    // Each process's % of cuBLAS from the two medians, and (where the report kept round order)
    // round by round: `SizeRecord::paired_fraction_of_cublas`.
    let mut t = String::from(
        "| type | kernel | size | timed | processes | median | lowest | highest | per round: median | lowest | highest |\n\
         | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let mut sources = String::new();
    for prefix in PROCESS_RUNS {
        let mut reports = Vec::new();
        for i in 1.. {
            let file = format!("{prefix}-p{i}.json");
            if !repo.join(&file).exists() {
                break;
            }
            reports.push(read(repo, &file)?);
        }
        let Some(first) = reports.first() else { return Err(format!("{prefix}-p1.json: missing")) };
        let dtype = &first.dtype;
        // Every (size, kernel) that passed in some process, in the order of first appearance (a
        // process cut short holds fewer sizes); kernels the catalog no longer has are left out.
        let mut keys: Vec<(String, String)> = Vec::new();
        for r in &reports {
            for s in &r.sizes {
                for run in s.runs.iter().filter(|x| x.outcome == Outcome::Pass && rgemm::catalog::find(&x.kernel).is_ok()) {
                    let key = (s.name(), run.kernel.clone());
                    if !keys.contains(&key) {
                        keys.push(key);
                    }
                }
            }
        }
        for (size, kernel) in keys {
            let percents = |ratio: fn(&SizeRecord, &crate::report::RunRecord) -> Option<f64>| -> Vec<f64> {
                reports
                    .iter()
                    .filter_map(|r| {
                        let s = r.sizes.iter().find(|s| s.name() == size)?;
                        let x = s.runs.iter().find(|x| x.kernel == kernel && x.outcome == Outcome::Pass)?;
                        Some(100.0 * ratio(s, x)?)
                    })
                    .collect()
            };
            let summary = |pcts: Vec<f64>| -> String {
                if pcts.is_empty() {
                    return "– | – | –".into();
                }
                let (lo, hi) = pcts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &p| (lo.min(p), hi.max(p)));
                format!("**{:.1}%** | {lo:.1}% | {hi:.1}%", median(pcts))
            };
            let of_medians = percents(SizeRecord::fraction_of_cublas);
            let n = of_medians.len();
            t += &format!("| {dtype} | `{kernel}` | {size} | {} | {n} | {} | {} |\n", first.timing, summary(of_medians), summary(percents(SizeRecord::paired_fraction_of_cublas)));
        }
        sources += &format!("{dtype}: {} processes (each row counts those that ran its size), {} (kernels the catalog no longer has are left out).  \n", reports.len(), source(first, &format!("{prefix}-p*.json")));
    }
    Ok(format!("{t}\n{sources}"))
}

/// The tables by name: each is written to `book/src/generated/<name>.md`.
pub fn tables(repo: &Path) -> Result<Vec<(String, String)>, String> {
    Ok(vec![("layouts".to_string(), layouts(repo)?), ("suites".to_string(), suites(repo)?), ("eval".to_string(), eval(repo)?), ("epilogues".to_string(), epilogues(repo)?), ("processes".to_string(), processes(repo)?)])
}

/// `text` with the lines between `<!-- generated: NAME -->` and the next
/// `<!-- end generated -->` replaced by the table NAME of `tables`; a block without its table,
/// or a table without its block, is an error.
pub fn fill_blocks(text: &str, tables: &[(String, String)]) -> Result<String, String> {
    const START: &str = "<!-- generated: ";
    const END: &str = "<!-- end generated -->";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut filled = Vec::new();
    while let Some(a) = rest.find(START) {
        let name_end = rest[a..].find(" -->").ok_or("an unterminated generated marker")? + a;
        let name = &rest[a + START.len()..name_end];
        let (_, table) = tables.iter().find(|(n, _)| n == name).ok_or(format!("no generated table `{name}`"))?;
        let b = rest[name_end..].find(END).ok_or(format!("`{name}` has no `{END}`"))? + name_end;
        out += &rest[..name_end + 4];
        out += "\n";
        out += table;
        rest = &rest[b..];
        filled.push(name.to_string());
    }
    out += rest;
    match tables.iter().find(|(n, _)| !filled.contains(n)) {
        Some((n, _)) => Err(format!("no block `{START}{n} -->`")),
        None => Ok(out),
    }
}

/// The release of ptxas the resources table was assembled with, as its first line names it.
const RESOURCES_VERSION: &str = "<!-- ptxas release: ";

/// Registers per thread, shared memory and local memory (stack plus spills) of every kernel of
/// the catalog, rung by rung, as `ptxas` (`RGEMM_PTXAS`, the `nvidia-cuda-nvcc` wheel, or PATH)
/// assembles the PTX the host loads. Register counts belong to a release of ptxas: where the
/// one found is not the release `committed` (the file in the repository) names, the committed
/// table is kept as it is rather than redrawn with other numbers.
pub fn resources(committed: Option<&str>) -> Result<String, String> {
    let ptxas = crate::ptxas::find_ptxas().ok_or("the resources table needs ptxas: pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS")?;
    let version = crate::ptxas::ptxas_version(&ptxas).map_err(|e| e.to_string())?;
    if let Some(text) = committed {
        let recorded = text.lines().find_map(|l| l.strip_prefix(RESOURCES_VERSION)).map(|l| l.trim_end_matches(" -->"));
        if recorded.is_some_and(|r| r != version) {
            return Ok(text.to_string());
        }
    }
    let entries = crate::ptxas::loaded_module_resources(&ptxas, &version, || {}).map_err(|e| e.to_string())?;
    let mut t = format!("<!-- generated by `rgemm figures` with ptxas; do not edit -->\n{RESOURCES_VERSION}{version} -->\n");
    let resources = |name: &str| {
        entries.iter().find(|(n, _)| n == name).map_or(("–".to_string(), "–".to_string()), |(_, r)| (r.registers.to_string(), r.local_bytes().to_string()))
    };
    let mut rung = None;
    for k in rgemm::catalog::all() {
        let r = k.spec.rung;
        if rung != Some((r.number, r.slug)) {
            rung = Some((r.number, r.slug));
            // The ladder's rungs keep the anchors `#rung-N` their chapters link to; the
            // library's own kernels (rung 0) are named by what they are.
            t += &match r.number {
                0 => format!("\n## Rung 0, {}\n\n{} ([Choosing a kernel per shape](dispatch.md))\n\n", r.slug, r.idea),
                n => format!("\n## Rung {n}\n\n[Rung {n}: {}](rung-{n:02}-{}.md)\n\n", r.idea, r.slug.replace('_', "-")),
            };
            t += "| kernel | threads | shared memory (B) | registers | local memory (B) |\n| --- | ---: | ---: | ---: | ---: |\n";
        }
        let (regs, local) = resources(k.name());
        t += &format!("| `{}` | {} | {} | {regs} | {local} |\n", k.name(), k.spec.threads, k.spec.smem_bytes);
    }
    // Entries of the module that are no catalog kernel: the library's helpers (split-K's
    // reduction, the row copies of staged plans) and the lessons.
    let mut helpers: Vec<&String> = entries.iter().map(|(n, _)| n).filter(|n| rgemm::catalog::find(n).is_err()).collect();
    helpers.sort();
    t += "\n## Helpers and lessons\n\nEntries of the module that are not GEMM kernels of the catalog.\n\n| entry | registers | local memory (B) |\n| --- | ---: | ---: |\n";
    for name in helpers {
        let (regs, local) = resources(name);
        t += &format!("| `{name}` | {regs} | {local} |\n");
    }
    Ok(t)
}
