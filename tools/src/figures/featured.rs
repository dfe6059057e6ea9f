//! The featured kernel of each rung (the configuration `BEST` in `src/catalog.rs` names) and
//! where its measurement comes from: the ladder's run where that run timed it, else the first
//! later run of [`FEATURED_RUNS`] that did. A rung whose featured kernel no recorded run timed is
//! said to be unmeasured, never shown with another kernel's number. The rung chapters' sentences,
//! the ladder table of the README and the book, the ladder chart and the roofline all read this.

use std::path::Path;

use rgemm::catalog::{self, Dtype};

use crate::report::{Outcome, Report, SizeRecord};

/// The ladder's own run: `rgemm bench` of every rung at its configuration of the day, f32, bf16
/// and f16 (`<dtype>.json`), one process, L2 flushed, timed one after another.
pub const LADDER_RUN: &str = "docs/perf/2026-11-22-h100-bench";

/// Later runs, searched in this order for a featured kernel the ladder's run did not time: the
/// files `<prefix>-p<i>.json` of one run in several processes, each timed in turn against the
/// best cuBLAS. Run 155 of 2026-11-27 timed the entries `best` runs (rung 14 `_persistent_tmast`,
/// rung 11 `_wa_df`, rung 15 `_presplit`); run 150, on another H100 the same day, rung 15's `_raw`;
/// run 189 of 2026-11-29, on an H200, rung 16 (FP8, `nt`, bf16 C) against cuBLASLt FP8.
pub const FEATURED_RUNS: [&str; 5] = [
    "docs/perf/2026-11-27-h100-run155/bf16",
    "docs/perf/2026-11-27-h100-run155/f16",
    "docs/perf/2026-11-27-h100-run155/f32",
    "docs/perf/2026-11-27-h100-run150/f32",
    "docs/perf/2026-11-29-h200-run189/e4m3",
];

/// The highest rung of the ladder.
pub const TOP_RUNG: u8 = 16;

/// One size of a featured kernel: medians over the processes that ran it.
#[derive(Clone, Debug)]
pub struct Point {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub tflops: f64,
    pub cublas_tflops: f64,
    /// cuBLAS's median time over the kernel's, in percent (the median over processes).
    pub percent_of_cublas: f64,
    /// Processes that timed this size.
    pub processes: usize,
}

impl Point {
    pub fn size_name(&self) -> String {
        if self.m == self.n && self.n == self.k { format!("{}³", self.m) } else { format!("{}×{}×{}", self.m, self.n, self.k) }
    }
}

/// Where a measurement comes from.
#[derive(Clone, Debug)]
pub struct Source {
    /// The JSON file, or the `<prefix>-p*.json` pattern, relative to the repository root.
    pub files: String,
    pub device: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub commit: String,
    /// How the contenders were timed (`one after another`, `in turn`).
    pub timing: String,
    pub processes: usize,
    /// Whether the baseline is the faster of the classic cuBLAS call and cuBLASLt (else the
    /// classic call alone).
    pub best_cublas: bool,
    /// The ladder's own run.
    pub ladder: bool,
}

impl Source {
    /// `cuBLAS` or `the best cuBLAS`.
    pub fn baseline(&self) -> &'static str {
        if self.best_cublas { "the best cuBLAS" } else { "cuBLAS" }
    }

    /// One line: device, date, commit, processes, timing and the files.
    pub fn provenance(&self) -> String {
        let processes = if self.processes == 1 { "one process".to_string() } else { format!("median of {} processes", self.processes) };
        let baseline = if self.best_cublas {
            "against the faster of the classic cuBLAS call and cuBLASLt"
        } else {
            "against the classic cuBLAS call (`cublasSgemm`, `cublasGemmEx`)"
        };
        format!("{}, {}, commit `{}`, {processes} timed {} {baseline}, L2 flushed; `{}`", self.device, self.date, self.commit, self.timing, self.files)
    }
}

/// A rung's featured kernel and its measurement, if any run has one.
#[derive(Clone, Debug)]
pub struct Featured {
    pub rung: u8,
    pub dtype: Dtype,
    pub kernel: &'static str,
    pub measured: Option<(Source, Vec<Point>)>,
}

impl Featured {
    /// The size `m`³, if measured there.
    pub fn at(&self, m: u32) -> Option<&Point> {
        self.measured.as_ref()?.1.iter().find(|p| (p.m, p.n, p.k) == (m, m, m))
    }

    /// The datasheet roof it is judged by ([`crate::peaks::datasheet_roof`]).
    pub fn roof(&self) -> (f64, &'static str) {
        crate::peaks::datasheet_roof(self.dtype, self.rung)
    }
}

/// The element type that represents rung `rung`: f32 where it has an f32 kernel (rungs 1-11 and
/// 15), else bf16 (rungs 12-14).
pub fn rung_dtype(rung: u8) -> Dtype {
    [Dtype::F32, Dtype::Bf16, Dtype::E4m3].into_iter().find(|&d| catalog::best_of_rung(rung, d).is_some()).unwrap_or(Dtype::Bf16)
}

fn read(repo: &Path, file: &str) -> Result<Report, String> {
    Report::read(&repo.join(file)).map_err(|e| format!("{file}: {e}"))
}

/// Square products, unbatched, in `nn` (in `nt` for FP8, the only layout it reads): the
/// ladder's sizes.
fn is_ladder_size(s: &SizeRecord, dtype: Option<Dtype>) -> bool {
    let layout = if dtype == Some(Dtype::E4m3) { "nt" } else { "nn" };
    s.m == s.n && s.n == s.k && s.layout.as_deref().is_none_or(|l| l == layout) && s.batch.unwrap_or(1) == 1
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    crate::timing::median(&v)
}

/// `kernel`'s points in `reports` (processes of one run), medians over the processes.
fn points(reports: &[Report], kernel: &str) -> Vec<Point> {
    let mut sizes: Vec<(u32, u32, u32)> = Vec::new();
    for r in reports {
        for s in r.sizes.iter().filter(|s| is_ladder_size(s, r.dtype())) {
            if s.runs.iter().any(|x| x.kernel == kernel && x.outcome == Outcome::Pass) && !sizes.contains(&(s.m, s.n, s.k)) {
                sizes.push((s.m, s.n, s.k));
            }
        }
    }
    sizes
        .into_iter()
        .map(|(m, n, k)| {
            let mut tflops = Vec::new();
            let mut cublas = Vec::new();
            let mut percent = Vec::new();
            for r in reports {
                let Some(s) = r.sizes.iter().find(|s| is_ladder_size(s, r.dtype()) && (s.m, s.n, s.k) == (m, n, k)) else { continue };
                let Some(run) = s.runs.iter().find(|x| x.kernel == kernel && x.outcome == Outcome::Pass) else { continue };
                let (Some(t), Some(c), Some(f)) = (run.timing.as_ref(), s.cublas.as_ref(), s.fraction_of_cublas(run)) else { continue };
                tflops.push(t.tflops);
                cublas.push(c.tflops);
                percent.push(100.0 * f);
            }
            let processes = tflops.len();
            Point { m, n, k, tflops: median(tflops), cublas_tflops: median(cublas), percent_of_cublas: median(percent), processes }
        })
        .filter(|p| p.processes > 0)
        .collect()
}

fn source(reports: &[Report], files: String, ladder: bool) -> Source {
    let first = &reports[0];
    Source {
        files,
        device: first.device.name.clone(),
        date: first.date_utc.chars().take(10).collect(),
        commit: first.git_commit.clone().unwrap_or_else(|| "unknown".into()),
        timing: first.timing.clone(),
        processes: reports.len(),
        best_cublas: first.sizes.iter().any(|s| s.cublas_lt.is_some()),
        ladder,
    }
}

/// The processes `<prefix>-p1.json`, `<prefix>-p2.json`, … of one run.
pub fn processes(repo: &Path, prefix: &str) -> Result<Vec<Report>, String> {
    let mut reports = Vec::new();
    for i in 1.. {
        let file = format!("{prefix}-p{i}.json");
        if !repo.join(&file).exists() {
            break;
        }
        reports.push(read(repo, &file)?);
    }
    if reports.is_empty() {
        return Err(format!("{prefix}-p1.json: missing"));
    }
    Ok(reports)
}

/// Every rung from 1 to [`TOP_RUNG`], with its featured kernel and where it was measured.
pub fn featured(repo: &Path) -> Result<Vec<Featured>, String> {
    let mut ladder = Vec::new();
    for dtype in [Dtype::F32, Dtype::Bf16, Dtype::F16] {
        let file = format!("{LADDER_RUN}/{}.json", dtype.name());
        ladder.push((dtype, file.clone(), read(repo, &file)?));
    }
    let mut later = Vec::new();
    for prefix in FEATURED_RUNS {
        later.push((prefix, processes(repo, prefix)?));
    }
    let mut out = Vec::new();
    for rung in 1..=TOP_RUNG {
        let dtype = rung_dtype(rung);
        let kernel = catalog::best_of_rung(rung, dtype).ok_or(format!("rung {rung} has no {} kernel", dtype.name()))?.name();
        let mut measured = None;
        for (d, file, report) in &ladder {
            let pts = points(std::slice::from_ref(report), kernel);
            if *d == dtype && !pts.is_empty() {
                measured = Some((source(std::slice::from_ref(report), file.clone(), true), pts));
            }
        }
        if measured.is_none() {
            for (prefix, reports) in &later {
                let pts = points(reports, kernel);
                if reports[0].dtype() == Some(dtype) && !pts.is_empty() {
                    measured = Some((source(reports, format!("{prefix}-p*.json"), false), pts));
                    break;
                }
            }
        }
        out.push(Featured { rung, dtype, kernel, measured });
    }
    Ok(out)
}

/// The book's title of rung `rung`'s chapter and its file, from `book/src/SUMMARY.md`
/// (`- [Rung 1: naive](rung-01-naive.md)`).
pub fn chapter(summary: &str, rung: u8) -> Option<(String, String)> {
    let prefix = format!("- [Rung {rung}: ");
    let line = summary.lines().find(|l| l.trim_start().starts_with(&prefix))?.trim_start();
    let (title, rest) = line[prefix.len()..].split_once("](")?;
    let file = rest.split(')').next()?;
    Some((title.to_string(), file.to_string()))
}

/// A rung chapter's sentence (`book/src/generated/rung-NN.md`): the featured kernel at each
/// size it was measured at, against cuBLAS and against its datasheet roof, and where from.
pub fn sentence(f: &Featured) -> String {
    let head = "<!-- generated by `rgemm figures` from the bench JSON; do not edit -->\n";
    let (roof, roof_name) = f.roof();
    let Some((src, pts)) = &f.measured else {
        return format!(
            "{head}> **Not measured yet**: no run recorded in `docs/perf` timed `{}`, the configuration this rung features (`BEST` in `src/catalog.rs`); \
             [How we got here](appendix-history.md) has the runs of its earlier configurations.\n",
            f.kernel
        );
    };
    let parts: Vec<String> = pts
        .iter()
        .map(|p| {
            format!(
                "**{:.2} TFLOP/s** at {} ({:.1}% of {}'s {:.2}, {:.1}% of the {roof_name}, {roof:.0} TFLOP/s)",
                p.tflops,
                p.size_name(),
                p.percent_of_cublas,
                src.baseline(),
                p.cublas_tflops,
                100.0 * p.tflops / roof
            )
        })
        .collect();
    let from = if src.ladder { "the ladder's run, L2 flushed, see [the numbers](numbers.md)".to_string() } else { src.provenance() };
    format!("{head}> **Measured** (`{}`; {from}): {}.\n", f.kernel, parts.join("; "))
}

/// The ladder at 4096³ as one table: each rung's chapter, featured kernel, speed, % of cuBLAS
/// and of its roof, and a letter naming the run, the runs listed below it.
pub fn ladder_table(featured: &[Featured], summary: &str, chapter_dir: &str) -> String {
    let mut t = String::from("| rung | chapter | featured kernel | TFLOP/s | % of cuBLAS | % of roof | run |\n| ---: | --- | --- | ---: | ---: | ---: | :-: |\n");
    let mut runs: Vec<Source> = Vec::new();
    for f in featured {
        let (title, file) = chapter(summary, f.rung).unwrap_or_else(|| (format!("rung {}", f.rung), String::new()));
        let title = if file.is_empty() { title } else { format!("[{title}]({chapter_dir}{file})") };
        let (roof, _) = f.roof();
        match (f.at(4096), &f.measured) {
            (Some(p), Some((src, _))) => {
                let i = runs.iter().position(|r| r.files == src.files).unwrap_or_else(|| {
                    runs.push(src.clone());
                    runs.len() - 1
                });
                let letter = (b'A' + i as u8) as char;
                t += &format!("| {} | {title} | `{}` | {:.1} | {:.1}% | {:.0}% ({roof:.0}) | {letter} |\n", f.rung, f.kernel, p.tflops, p.percent_of_cublas, 100.0 * p.tflops / roof);
            }
            _ => t += &format!("| {} | {title} | `{}` | – | – | – | not measured |\n", f.rung, f.kernel),
        }
    }
    t.push('\n');
    for (i, r) in runs.iter().enumerate() {
        t += &format!("{}: {}.  \n", (b'A' + i as u8) as char, r.provenance());
    }
    t += "Roofs: the dense datasheet peaks, fp32 67 TFLOP/s, bf16 989, FP8 1979; rung 15 (three tf32 products per fp32 product) a third of tf32's 495. Rung 16 runs `nt` (FP8 reads K-major operands only) against cuBLASLt FP8, the only cuBLAS call that takes FP8.\n";
    t
}
