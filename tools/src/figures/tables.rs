//! The book's measured numbers, generated from the recorded bench JSON (`rgemm bench` output in
//! `docs/perf/`): one ladder table per element type and one sentence per rung, so that every
//! chapter quotes the same run, with the L2 flushed before every launch.

use std::fs;
use std::path::Path;

use serde_json::Value;

use rgemm::catalog::Dtype;

/// The recorded bench the book quotes: `rgemm bench` for f32, bf16 and f16, L2 flushed.
pub const BENCH_DIR: &str = "2026-11-22-h100-bench";

/// Rungs measured outside the ladder's run (added after it), each from its own recorded bench:
/// (file under docs/perf, rung). Their chapters say which run their sentence comes from.
pub const LATER_RUNS: &[(&str, u8)] = &[("2026-11-23-h100-tf32/f32-run3.json", 15)];

/// One kernel's median at one size.
pub struct Run {
    pub kernel: String,
    pub rung: u8,
    pub tflops: f64,
    pub median_ms: f64,
}

/// One problem size of a bench.
pub struct Size {
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub cublas: f64,
    pub runs: Vec<Run>,
}

/// One recorded `rgemm bench` (one element type).
pub struct BenchRecord {
    pub dtype: Dtype,
    pub file: String,
    pub device: String,
    pub commit: String,
    pub date: String,
    pub peak_tflops: f64,
    pub peak_formula: String,
    pub l2_flush_bytes: u64,
    pub iters: u64,
    pub sizes: Vec<Size>,
    /// The ladder's own run ([`BENCH_DIR`]), or a later run of one rung ([`LATER_RUNS`]).
    pub ladder: bool,
}

fn field<'a>(v: &'a Value, key: &str, file: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| format!("{file}: no field `{key}`"))
}

/// Reads the f32, bf16 and f16 bench JSON of [`BENCH_DIR`].
pub fn load(repo: &Path) -> Result<Vec<BenchRecord>, String> {
    let mut out = Vec::new();
    let ladder = [Dtype::F32, Dtype::Bf16, Dtype::F16].map(|d| (format!("docs/perf/{BENCH_DIR}/{}.json", d.name()), d, None));
    let later = LATER_RUNS.iter().map(|&(f, rung)| (format!("docs/perf/{f}"), Dtype::F32, Some(rung)));
    for (file, dtype, only_rung) in ladder.into_iter().chain(later) {
        let text = fs::read_to_string(repo.join(&file)).map_err(|e| format!("cannot read {file}: {e}"))?;
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
        let f = |key: &str| field(&v, key, &file);
        let dev = f("device")?;
        let str_of = |v: &Value| v.as_str().unwrap_or_default().to_string();
        let mut sizes = Vec::new();
        for s in f("sizes")?.as_array().ok_or(format!("{file}: sizes"))? {
            let num = |k: &str| s.get(k).and_then(Value::as_u64).ok_or(format!("{file}: size without {k}"));
            let cublas = s.pointer("/cublas/tflops").and_then(Value::as_f64).ok_or(format!("{file}: size without cuBLAS"))?;
            let mut runs = Vec::new();
            for r in s.get("runs").and_then(Value::as_array).ok_or(format!("{file}: size without runs"))? {
                if r.get("outcome").and_then(Value::as_str) != Some("pass") {
                    continue;
                }
                let kernel = str_of(&r["kernel"]);
                // A later run may hold configurations renamed or removed since: only the rung's
                // kernels that the catalog still has are quoted.
                let spec = match (rgemm::catalog::find(&kernel), only_rung) {
                    (Ok(k), _) => k.spec,
                    (Err(_), Some(_)) => continue,
                    (Err(e), None) => return Err(format!("{file}: {e}")),
                };
                if only_rung.is_some_and(|rung| rung != spec.rung.number) {
                    continue;
                }
                runs.push(Run {
                    kernel,
                    rung: spec.rung.number,
                    tflops: r.pointer("/timing/tflops").and_then(Value::as_f64).ok_or(format!("{file}: run without tflops"))?,
                    median_ms: r.pointer("/timing/median_ms").and_then(Value::as_f64).ok_or(format!("{file}: run without median"))?,
                });
            }
            sizes.push(Size { m: num("m")?, n: num("n")?, k: num("k")?, cublas, runs });
        }
        out.push(BenchRecord {
            dtype,
            file: file.clone(),
            device: str_of(&dev["name"]),
            commit: str_of(f("git_commit")?),
            date: str_of(f("date_utc")?),
            peak_tflops: dev["peak_tflops"].as_f64().ok_or("no peak_tflops")?,
            peak_formula: str_of(&dev["peak_formula"]),
            l2_flush_bytes: f("l2_flush_bytes")?.as_u64().unwrap_or(0),
            iters: f("iters")?.as_u64().unwrap_or(0),
            sizes,
            ladder: only_rung.is_none(),
        });
    }
    Ok(out)
}

fn provenance(r: &BenchRecord) -> String {
    format!(
        "{}, `rgemm bench --dtype {}`, commit `{}`, {}; median of {} launches, L2 flushed ({} MiB written) before each; `{}`.",
        r.device,
        r.dtype.name(),
        r.commit,
        r.date,
        r.iters,
        r.l2_flush_bytes >> 20,
        r.file
    )
}

fn size_name(s: &Size) -> String {
    if s.m == s.n && s.n == s.k { format!("{}³", s.m) } else { format!("{}×{}×{}", s.m, s.n, s.k) }
}

/// The generated Markdown files: (file name, contents).
pub fn markdown(bench: &[BenchRecord]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for r in bench.iter().filter(|r| r.ladder) {
        let mut t = String::new();
        t.push_str("<!-- generated by `rgemm figures` from the bench JSON; do not edit -->\n\n");
        for s in &r.sizes {
            t.push_str(&format!("**{} at {}** (cuBLAS {:.2} TFLOP/s; peak {:.1} TFLOP/s = {})\n\n", r.dtype.name(), size_name(s), s.cublas, r.peak_tflops, r.peak_formula));
            t.push_str("| rung | kernel | TFLOP/s | median ms | % of cuBLAS | % of peak |\n| ---: | --- | ---: | ---: | ---: | ---: |\n");
            for run in &s.runs {
                t.push_str(&format!(
                    "| {} | `{}` | {:.2} | {:.4} | {:.1}% | {:.1}% |\n",
                    run.rung,
                    run.kernel,
                    run.tflops,
                    run.median_ms,
                    100.0 * run.tflops / s.cublas,
                    100.0 * run.tflops / r.peak_tflops
                ));
            }
            t.push('\n');
        }
        t.push_str(&format!("Source: {}\n", provenance(r)));
        out.push((format!("ladder-{}.md", r.dtype.name()), t));
    }
    // One sentence per rung, for the rung chapters.
    let mut rungs: Vec<u8> = bench.iter().flat_map(|r| r.sizes.iter().flat_map(|s| s.runs.iter().map(|x| x.rung))).collect();
    rungs.sort();
    rungs.dedup();
    for rung in rungs {
        let mut parts = Vec::new();
        let mut kernel_names = Vec::new();
        let mut source = "the ladder's run, L2 flushed, see [the numbers](numbers.md)".to_string();
        for r in bench.iter().filter(|r| r.dtype != Dtype::F16) {
            if !r.ladder && r.sizes.iter().any(|s| s.runs.iter().any(|x| x.rung == rung)) {
                source = format!("a later run, {}, commit `{}`, L2 flushed; `{}`", r.date, r.commit, r.file);
            }
            for s in &r.sizes {
                for run in s.runs.iter().filter(|x| x.rung == rung) {
                    if !kernel_names.contains(&run.kernel) {
                        kernel_names.push(run.kernel.clone());
                    }
                    parts.push(format!(
                        "**{:.2} TFLOP/s** at {} ({:.1}% of cuBLAS's {:.2}, {:.1}% of the {} peak)",
                        run.tflops,
                        size_name(s),
                        100.0 * run.tflops / s.cublas,
                        s.cublas,
                        100.0 * run.tflops / r.peak_tflops,
                        r.dtype.name()
                    ));
                }
            }
        }
        let names: Vec<String> = kernel_names.iter().map(|k| format!("`{k}`")).collect();
        let text = format!(
            "<!-- generated by `rgemm figures` from the bench JSON; do not edit -->\n> **Measured** ({}; {}): {}.\n",
            names.join(", "),
            source,
            parts.join("; ")
        );
        out.push((format!("rung-{rung:02}.md"), text));
    }
    out
}
