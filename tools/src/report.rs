//! Results of `rgemm bench` and `rgemm tune`: the record (written as JSON and CSV, read back by
//! `rgemm chart`), and the tables printed at the end of a run. Nothing here touches the GPU, so
//! all of it is tested on the CPU.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::timing::Timing;
use rgemm::catalog::{Dtype, Kernel};
use crate::tool_error::{ToolError, ToolResult};
use rgemm::problem::{Activation, Bias, FusedEpilogue, Problem};

use crate::suite::{Case, Shape};

/// Version of the JSON layout; bumped when a field changes meaning.
pub const SCHEMA: u32 = 1;

fn one_after_another() -> String {
    "one after another".into()
}

fn f32_name() -> String {
    "f32".into()
}

fn no_epilogue() -> String {
    "none".into()
}

/// One run of `rgemm bench` or `rgemm tune`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema: u32,
    /// `bench` or `tune`.
    pub command: String,
    pub rgemm_version: String,
    /// The commit rgemm was built from, when known.
    pub git_commit: Option<String>,
    /// When the run started, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date_utc: String,
    pub device: DeviceRecord,
    /// Element type of A and B (`f32`, `bf16`, `f16`).
    pub dtype: String,
    /// Element type of C (and of the bias and the auxiliary output); reports written before it
    /// was recorded ran f32 C.
    #[serde(default = "f32_name")]
    pub out_dtype: String,
    /// What was applied before the store, as `--epilogue` spells it ([`epilogue_name`]); reports
    /// written before it was recorded applied none.
    #[serde(default = "no_epilogue")]
    pub epilogue: String,
    pub warmup: usize,
    /// Timed launches per kernel and size.
    pub iters: usize,
    /// Bytes written between timed launches to evict the L2 cache (0: not flushed).
    pub l2_flush_bytes: u64,
    /// How cuBLAS and the kernels were timed against one another ([`crate::timing::Order`]);
    /// reports written before it was recorded timed them one after another.
    #[serde(default = "one_after_another")]
    pub timing: String,
    /// Seed of the random inputs.
    pub seed: u64,
    /// The kernels of the run, in the order they were run.
    pub kernels: Vec<KernelRecord>,
    pub sizes: Vec<SizeRecord>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceRecord {
    pub name: String,
    /// `9.0`.
    pub compute_capability: String,
    pub multiprocessors: u32,
    pub clock_mhz: f64,
    pub l2_bytes: u64,
    pub memory_bytes: u64,
    /// The CUDA version the driver supports.
    pub driver_cuda_version: Option<String>,
    /// The peak the `% of peak` column divides by, for this run's element type.
    pub peak_tflops: f64,
    /// How that peak was computed.
    pub peak_formula: String,
    /// Peak memory bandwidth in GB/s (2 transfers per memory clock × bus width); absent in
    /// older reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_gbps: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelRecord {
    pub name: String,
    pub rung: u8,
    /// Short name for charts: `r3`, or `r3a`, `r3b` when a rung has several configurations.
    pub label: String,
}

/// One problem size: cuBLAS and every kernel on the same operands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizeRecord {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    /// Layout of A and B (`nn` when absent) and products in the batch (1 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<u32>,
    /// The case's class in a run of the evaluation suite ([`crate::eval_suite::Class`]); absent
    /// in other runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Why the size was not run at all (it does not fit in device memory).
    pub skipped: Option<String>,
    /// The baseline: the faster of the classic cuBLAS call and cuBLASLt (older reports: the
    /// classic call).
    pub cublas: Option<Stats>,
    /// The two cuBLAS timings the baseline was chosen from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cublas_classic: Option<Stats>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cublas_lt: Option<Stats>,
    /// Why cuBLAS has no timing, if it has none.
    pub cublas_error: Option<String>,
    /// Why no cuBLAS call runs this output type and epilogue, where none does (the ratio is then
    /// none; not a failure); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_baseline: Option<String>,
    pub runs: Vec<RunRecord>,
}

/// One kernel on one size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub kernel: String,
    pub outcome: Outcome,
    pub timing: Option<Stats>,
    /// The validation verdict, as `rgemm run` prints it.
    pub check: Option<String>,
    /// Why the kernel was skipped or what went wrong.
    pub note: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Validated and timed.
    Pass,
    /// Timed, but the result was wrong.
    Fail,
    /// Not run: the kernel rejects the size, or the size does not fit in memory.
    Skipped,
    /// A CUDA error stopped it.
    Error,
    /// Timed, not validated: the tuner validates only the fastest plan of each shape (every
    /// candidate is a catalog kernel the tests validate).
    Timed,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::Skipped => "skipped",
            Outcome::Error => "ERROR",
            Outcome::Timed => "timed",
        }
    }

    /// Failed validation or a CUDA error: the run exits non-zero.
    pub fn is_failure(self) -> bool {
        matches!(self, Outcome::Fail | Outcome::Error)
    }
}

/// Timed launches of one kernel (or cuBLAS) on one size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Milliseconds of every timed launch, sorted.
    pub samples_ms: Vec<f64>,
    /// The same milliseconds in round order where the run timed its contenders in turn (the i-th
    /// of each in the same round: [`crate::timing::Timing::rounds_ms`]); empty otherwise and in
    /// reports written before they were kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds_ms: Vec<f64>,
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    /// Half the interquartile range relative to the median.
    pub spread: f64,
    /// TFLOP/s at the median.
    pub tflops: f64,
}

impl Stats {
    /// Finite, positive times (in round order too, where kept: one per sample) and a speed below
    /// 10⁶ TFLOP/s (what a report can hold and a chart can scale to).
    pub fn is_plausible(&self) -> bool {
        let time_ok = |ms: f64| ms.is_finite() && ms > 0.0;
        time_ok(self.median_ms) && time_ok(self.min_ms) && time_ok(self.max_ms) && self.samples_ms.iter().chain(&self.rounds_ms).all(|&ms| time_ok(ms))
            && (self.rounds_ms.is_empty() || self.rounds_ms.len() == self.samples_ms.len())
            && (0.0..1e6).contains(&self.tflops)
    }

    pub fn new(timing: &Timing, problem: &Problem) -> Stats {
        let median_ms = timing.median_ms();
        Stats {
            samples_ms: timing.samples_ms.clone(),
            rounds_ms: timing.rounds_ms.clone(),
            median_ms,
            min_ms: timing.min_ms(),
            max_ms: timing.max_ms(),
            spread: timing.spread(),
            tflops: problem.tflops(median_ms),
        }
    }
}

impl SizeRecord {
    pub fn new(problem: &Problem) -> SizeRecord {
        SizeRecord {
            m: problem.m,
            n: problem.n,
            k: problem.k,
            layout: (problem.layout != rgemm::problem::Layout::NN).then(|| problem.layout.name().to_string()),
            batch: (problem.batch > 1).then_some(problem.batch),
            class: None,
            skipped: None,
            cublas: None,
            cublas_classic: None,
            cublas_lt: None,
            cublas_error: None,
            no_baseline: None,
            runs: Vec::new(),
        }
    }

    /// The case this size is (shape, layout, batch).
    pub fn case(&self) -> Case {
        let layout = self.layout.as_deref().and_then(rgemm::problem::Layout::named).unwrap_or(rgemm::problem::Layout::NN);
        Case { shape: self.shape(), layout, batch: self.batch.unwrap_or(1) as u64 }
    }

    pub fn shape(&self) -> Shape {
        (self.m as u64, self.n as u64, self.k as u64)
    }

    pub fn name(&self) -> String {
        self.case().to_string()
    }

    /// Kernel time as a fraction of cuBLAS's speed (1.0 = as fast as cuBLAS).
    pub fn fraction_of_cublas(&self, run: &RunRecord) -> Option<f64> {
        Some(self.cublas.as_ref()?.median_ms / run.timing.as_ref()?.median_ms)
    }

    /// [`Self::fraction_of_cublas`] round by round: the median over the rounds of cuBLAS's time
    /// over the kernel's in the same round ([`crate::timing::paired_ratio`]). `None` where the two
    /// were not timed in turn or the report predates round order.
    pub fn paired_fraction_of_cublas(&self, run: &RunRecord) -> Option<f64> {
        crate::timing::paired_ratio(&self.cublas.as_ref()?.rounds_ms, &run.timing.as_ref()?.rounds_ms)
    }
}

impl RunRecord {
    pub fn skipped(kernel: &str, reason: String) -> RunRecord {
        RunRecord { kernel: kernel.to_string(), outcome: Outcome::Skipped, timing: None, check: None, note: Some(reason) }
    }
}

impl Report {
    /// Failed validations and CUDA errors.
    pub fn failures(&self) -> usize {
        self.sizes.iter().flat_map(|s| &s.runs).filter(|r| r.outcome.is_failure()).count()
            + self.sizes.iter().filter(|s| s.cublas_error.is_some() && s.skipped.is_none()).count()
    }

    pub fn dtype(&self) -> Option<Dtype> {
        rgemm::catalog::dtype_named(&self.dtype)
    }

    /// The output type and the epilogue of the run; `None` where the report names ones this
    /// rgemm does not know.
    pub fn fused_epilogue(&self) -> Option<FusedEpilogue> {
        let output = rgemm::catalog::dtype_named(&self.out_dtype)?;
        let (bias, activation, aux) = parse_epilogue(&self.epilogue).ok()?;
        Some(FusedEpilogue { output, bias, activation, aux })
    }

    /// The label of kernel `name` in this report (its name when it is not listed).
    pub fn label(&self, name: &str) -> String {
        self.kernels.iter().find(|k| k.name == name).map_or_else(|| name.to_string(), |k| k.label.clone())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serializes")
    }

    pub fn from_json(text: &str, path: &str) -> ToolResult<Report> {
        let invalid = |message: String| ToolError::InvalidReport { path: path.to_string(), message };
        // The schema first, so that a report of another version says so rather than naming a field.
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
        match value.get("schema").and_then(serde_json::Value::as_u64) {
            Some(schema) if schema == u64::from(SCHEMA) => {}
            Some(schema) => return Err(invalid(format!("schema {schema} (this rgemm reads schema {SCHEMA})"))),
            None => return Err(invalid("no schema number: not a report written by rgemm bench or tune".into())),
        }
        let report: Report = serde_json::from_value(value).map_err(|e| invalid(e.to_string()))?;
        for size in &report.sizes {
            let timings = size.cublas.iter().chain(size.runs.iter().filter_map(|r| r.timing.as_ref()));
            if let Some(bad) = timings.into_iter().find(|t| !t.is_plausible()) {
                return Err(invalid(format!("size {}: a timing of {} ms at {} TFLOP/s is not a measurement", size.name(), bad.median_ms, bad.tflops)));
            }
        }
        Ok(report)
    }

    pub fn read(path: &Path) -> ToolResult<Report> {
        let text = std::fs::read_to_string(path).map_err(|e| ToolError::Io(format!("cannot read {}: {e}", path.display())))?;
        Report::from_json(&text, &path.display().to_string())
    }

    pub fn write_json(&self, path: &Path) -> ToolResult<()> {
        write_file(path, self.to_json().as_bytes())
    }

    /// One row per kernel and size.
    pub fn csv_rows(&self) -> Vec<CsvRow> {
        let peak = self.device.peak_tflops;
        let mut rows = Vec::new();
        for size in &self.sizes {
            for run in &size.runs {
                let t = run.timing.as_ref();
                let rung = self.kernels.iter().find(|k| k.name == run.kernel).map_or(0, |k| k.rung);
                rows.push(CsvRow {
                    kernel: run.kernel.clone(),
                    rung,
                    dtype: self.dtype.clone(),
                    out_dtype: self.out_dtype.clone(),
                    epilogue: self.epilogue.clone(),
                    m: size.m,
                    n: size.n,
                    k: size.k,
                    outcome: run.outcome,
                    median_ms: t.map(|t| t.median_ms),
                    min_ms: t.map(|t| t.min_ms),
                    max_ms: t.map(|t| t.max_ms),
                    spread: t.map(|t| t.spread),
                    tflops: t.map(|t| t.tflops),
                    cublas_median_ms: size.cublas.as_ref().map(|c| c.median_ms),
                    cublas_tflops: size.cublas.as_ref().map(|c| c.tflops),
                    percent_of_cublas: size.fraction_of_cublas(run).map(|f| 100.0 * f),
                    percent_of_cublas_per_round: size.paired_fraction_of_cublas(run).map(|f| 100.0 * f),
                    percent_of_peak: t.filter(|_| peak > 0.0).map(|t| 100.0 * t.tflops / peak),
                    samples: t.map(|t| t.samples_ms.len()).unwrap_or(0),
                    note: run.note.clone().or_else(|| run.check.clone()).unwrap_or_default(),
                });
            }
        }
        rows
    }

    pub fn write_csv(&self, path: &Path) -> ToolResult<()> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        for row in self.csv_rows() {
            writer.serialize(row).map_err(|e| ToolError::Io(format!("cannot write CSV: {e}")))?;
        }
        let bytes = writer.into_inner().map_err(|e| ToolError::Io(format!("cannot write CSV: {e}")))?;
        write_file(path, &bytes)
    }
}

/// A row of the CSV file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CsvRow {
    pub kernel: String,
    pub rung: u8,
    pub dtype: String,
    /// The report's output type and epilogue; absent from files written before they were kept
    /// (f32 C, none).
    #[serde(default = "f32_name")]
    pub out_dtype: String,
    #[serde(default = "no_epilogue")]
    pub epilogue: String,
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub outcome: Outcome,
    pub median_ms: Option<f64>,
    pub min_ms: Option<f64>,
    pub max_ms: Option<f64>,
    pub spread: Option<f64>,
    pub tflops: Option<f64>,
    pub cublas_median_ms: Option<f64>,
    pub cublas_tflops: Option<f64>,
    pub percent_of_cublas: Option<f64>,
    /// The same ratio taken round by round (`SizeRecord::paired_fraction_of_cublas`); absent
    /// from files written before it was kept.
    #[serde(default)]
    pub percent_of_cublas_per_round: Option<f64>,
    pub percent_of_peak: Option<f64>,
    pub samples: usize,
    /// The validation verdict, or why the kernel was skipped.
    pub note: String,
}

pub fn read_csv(path: &Path) -> ToolResult<Vec<CsvRow>> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| ToolError::Io(format!("cannot read {}: {e}", path.display())))?;
    reader
        .deserialize()
        .collect::<std::result::Result<Vec<CsvRow>, _>>()
        .map_err(|e| ToolError::InvalidReport { path: path.display().to_string(), message: e.to_string() })
}

/// Writes `bytes` to `path` through a temporary file beside it and a rename, so that a process
/// stopped mid-write (a bench cut off by a time limit) leaves the previous file whole.
pub fn write_file(path: &Path, bytes: &[u8]) -> ToolResult<()> {
    let fail = |e: std::io::Error| ToolError::Io(format!("cannot write {}: {e}", path.display()));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

/// `--epilogue`'s spelling of `e`'s bias, activation and auxiliary output (not its output type):
/// `[bias-|row-bias-][relu|gelu-tanh|gelu-erf|silu][-aux]`, or `none`; [`parse_epilogue`] reads
/// it back.
pub fn epilogue_name(e: FusedEpilogue) -> String {
    let bias = match e.bias {
        Bias::None => None,
        Bias::PerColumn => Some("bias"),
        Bias::PerRow => Some("row-bias"),
    };
    let activation = (e.activation != Activation::Identity).then(|| e.activation.name());
    let parts: Vec<&str> = [bias, activation, e.aux.then_some("aux")].into_iter().flatten().collect();
    if parts.is_empty() { "none".into() } else { parts.join("-") }
}

/// `[bias-|row-bias-][relu|gelu|gelu-tanh|gelu-erf|silu][-aux]` (`gelu` is the tanh form), or
/// `none`: the bias, the activation and whether the auxiliary output is written.
pub fn parse_epilogue(s: &str) -> Result<(Bias, Activation, bool), String> {
    let bad = || format!("'{s}' is no epilogue: [bias-|row-bias-][relu|gelu|gelu-erf|silu][-aux] (e.g. bias-gelu, relu, bias-silu-aux), or none");
    if s == "none" {
        return Ok((Bias::None, Activation::Identity, false));
    }
    let (rest, aux) = match s.strip_suffix("-aux").or_else(|| (s == "aux").then_some("")) {
        Some(rest) => (rest, true),
        None => (s, false),
    };
    let (bias, act) = if let Some(r) = rest.strip_prefix("row-bias") {
        (Bias::PerRow, r)
    } else if let Some(r) = rest.strip_prefix("bias") {
        (Bias::PerColumn, r)
    } else {
        (Bias::None, rest)
    };
    let act = act.strip_prefix('-').unwrap_or(act);
    let activation = match act {
        "" => Activation::Identity,
        "relu" => Activation::Relu,
        "gelu" | "gelu-tanh" => Activation::GeluTanh,
        "gelu-erf" => Activation::GeluErf,
        "silu" => Activation::Silu,
        _ => return Err(bad()),
    };
    if bias == Bias::None && activation == Activation::Identity && !aux {
        return Err(bad());
    }
    Ok((bias, activation, aux))
}

/// Chart labels for `kernels`: `r{rung}`, with a letter per configuration when a rung has more
/// than one (`r3a`, `r3b`).
pub fn labels(kernels: &[Kernel]) -> Vec<String> {
    let mut seen: Vec<u8> = Vec::new();
    kernels
        .iter()
        .map(|k| {
            let rung = k.spec.rung.number;
            let count = kernels.iter().filter(|o| o.spec.rung.number == rung).count();
            let index = seen.iter().filter(|&&r| r == rung).count();
            seen.push(rung);
            if count == 1 { format!("r{rung}") } else { format!("r{rung}{}", letters(index)) }
        })
        .collect()
}

/// 0 → a, 25 → z, 26 → aa.
fn letters(mut i: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).expect("ascii")
}

pub fn kernel_records(kernels: &[Kernel]) -> Vec<KernelRecord> {
    kernels
        .iter()
        .zip(labels(kernels))
        .map(|(k, label)| KernelRecord { name: k.name().to_string(), rung: k.spec.rung.number, label })
        .collect()
}

/// The current time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    utc_timestamp(secs)
}

/// Seconds since 1970-01-01T00:00:00Z as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian calendar).
pub fn utc_timestamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

fn fmt_opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or_else(|| "-".to_string(), f)
}

/// The header lines of a report: device, peak, run settings.
pub fn header(report: &Report) -> String {
    let d = &report.device;
    let mut out = String::new();
    let driver = d.driver_cuda_version.as_deref().map_or(String::new(), |v| format!(", driver supports CUDA {v}"));
    let _ = writeln!(out, "device   {} ({} SMs at {:.0} MHz, compute capability {}, L2 {} MiB{driver})", d.name, d.multiprocessors, d.clock_mhz, d.compute_capability, d.l2_bytes >> 20);
    let _ = writeln!(out, "peak     {:.1} TFLOP/s {} ({})", d.peak_tflops, report.dtype, d.peak_formula);
    let flush = if report.l2_flush_bytes > 0 { format!("L2 flushed ({} MiB written) before each launch", report.l2_flush_bytes >> 20) } else { "L2 not flushed".to_string() };
    let commit = report.git_commit.as_deref().unwrap_or("unknown");
    let fused = if report.out_dtype == "f32" && report.epilogue == "none" { String::new() } else { format!(" (C in {}, epilogue {})", report.out_dtype, report.epilogue) };
    let _ = writeln!(out, "run      {} {}{fused}, median of {} launches after {} warm-ups, timed {}, {flush}; seed {}; {}; commit {commit}", report.command, report.dtype, report.iters, report.warmup, report.timing, report.seed, report.date_utc);
    out
}

/// `% cuBLAS` is cuBLAS's median time over the kernel's; `per round` the median of that ratio
/// taken round by round where the two were timed in turn (`SizeRecord::paired_fraction_of_cublas`).
const TABLE_HEADER: &str = "kernel                                        TFLOP/s   median ms    spread  % cuBLAS per round    % peak  check";

fn row(report: &Report, size: &SizeRecord, run: &RunRecord, marker: &str) -> String {
    let t = run.timing.as_ref();
    let peak = report.device.peak_tflops;
    let verdict = match run.outcome {
        Outcome::Pass => "PASS".to_string(),
        Outcome::Fail => format!("FAIL: {}", run.check.as_deref().unwrap_or("")),
        Outcome::Skipped => format!("skipped: {}", run.note.as_deref().unwrap_or("")),
        Outcome::Error => format!("ERROR: {}", run.note.as_deref().unwrap_or("")),
        Outcome::Timed => "timed (not validated)".to_string(),
    };
    format!(
        "{:<44}{marker}{:>8} {:>11} {:>9} {:>9} {:>9} {:>9}  {verdict}",
        run.kernel,
        fmt_opt(t.map(|t| t.tflops), |v| format!("{v:.2}")),
        fmt_opt(t.map(|t| t.median_ms), |v| format!("{v:.4}")),
        fmt_opt(t.map(|t| t.spread), |v| format!("±{:.1}%", 100.0 * v)),
        fmt_opt(size.fraction_of_cublas(run), |v| format!("{:.1}%", 100.0 * v)),
        fmt_opt(size.paired_fraction_of_cublas(run), |v| format!("{:.1}%", 100.0 * v)),
        fmt_opt(t.map(|t| t.tflops).filter(|_| peak > 0.0), |v| format!("{:.1}%", 100.0 * v / peak)),
    )
}

fn cublas_row(report: &Report, size: &SizeRecord) -> String {
    let peak = report.device.peak_tflops;
    let classic = if report.dtype == "f32" { "cublasSgemm".to_string() } else { format!("cublasGemmEx {}", report.dtype) };
    // The row is the faster of the two calls where both were timed: say which.
    let name = match (&size.cublas_classic, &size.cublas_lt) {
        (Some(c), Some(lt)) => format!("cuBLAS best: {}", if lt.median_ms < c.median_ms { "cublasLtMatmul".to_string() } else { classic }),
        // An epilogue only cuBLASLt fuses, or none that cuBLAS has.
        (None, Some(_)) => "cuBLAS (cublasLtMatmul)".to_string(),
        _ if size.no_baseline.is_some() => "cuBLAS".to_string(),
        _ => format!("cuBLAS ({classic})"),
    };
    match (&size.cublas, &size.cublas_error) {
        (Some(c), _) => format!(
            "{name:<44} {:>8.2} {:>11.4} {:>9} {:>9} {:>9} {:>9}",
            c.tflops,
            c.median_ms,
            format!("±{:.1}%", 100.0 * c.spread),
            "100.0%",
            if c.rounds_ms.is_empty() { "-" } else { "100.0%" },
            if peak > 0.0 { format!("{:.1}%", 100.0 * c.tflops / peak) } else { "-".into() }
        ),
        (None, Some(e)) => format!("{name:<44} {:>8} {:>11} {:>9} {:>9} {:>9} {:>9}  ERROR: {e}", "-", "-", "-", "-", "-", "-"),
        (None, None) => {
            let why = size.no_baseline.as_ref().map_or_else(|| "not timed".to_string(), |why| format!("none: {why}"));
            format!("{name:<44} {:>8} {:>11} {:>9} {:>9} {:>9} {:>9}  {why}", "-", "-", "-", "-", "-", "-")
        }
    }
}

/// The table `rgemm bench` prints: per size, cuBLAS and then each kernel in run order.
pub fn table(report: &Report) -> String {
    let mut out = header(report);
    for size in &report.sizes {
        out += &size_section(report, size);
    }
    out + &footer(report)
}

/// The table of the report's last size (after the header when it is the first): what a run
/// prints as it goes, one size at a time; [`footer`] ends it.
pub fn last_size_table(report: &Report) -> String {
    let head = if report.sizes.len() == 1 { header(report) } else { String::new() };
    head + &report.sizes.last().map_or(String::new(), |size| size_section(report, size))
}

/// One size of [`table`]: the cuBLAS row and a row per run.
fn size_section(report: &Report, size: &SizeRecord) -> String {
    let mut out = String::new();
    let class = size.class.as_deref().map_or(String::new(), |c| format!("  ({c})"));
    let _ = writeln!(out, "\n{}{class}", size.name());
    if let Some(reason) = &size.skipped {
        let _ = writeln!(out, "  skipped: {reason}");
        return out;
    }
    let _ = writeln!(out, "  {TABLE_HEADER}");
    let _ = writeln!(out, "  {}", cublas_row(report, size));
    for run in &size.runs {
        let _ = writeln!(out, "  {}", row(report, size, run, " "));
        if let Some(line) = bandwidth(report, size, run) {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}

/// The last line of [`table`]: whether every kernel that ran passed.
pub fn footer(report: &Report) -> String {
    let failures = report.failures();
    format!("\n{}\n", if failures == 0 { "every kernel that ran passed its check".to_string() } else { format!("{failures} failed (validation or CUDA error)") })
}

/// Rows or columns of C up to which a product is bound by memory (each weight element is used
/// at most this many times): the table reports its bandwidth. (Not the automatic choice's
/// `rgemm::choice::decode_rows`, the rows up to which it runs the GEMV.)
pub const MEMORY_BOUND_ROWS: u32 = 16;

/// Bytes a product moves at the least: A and B read once, C written once (and read when beta is
/// not 0), `elem` bytes per element of A and B, `c_elem` per element of C.
pub fn min_bytes(size: &SizeRecord, elem: u64, c_elem: u64, beta: bool) -> u64 {
    let (m, n, k) = (size.m as u64, size.n as u64, size.k as u64);
    let batch = size.batch.unwrap_or(1) as u64;
    batch * ((m * k + k * n) * elem + m * n * c_elem * if beta { 2 } else { 1 })
}

/// For a memory-bound product (M or N at most [`MEMORY_BOUND_ROWS`]): the bandwidth a run reached on
/// its least traffic ([`min_bytes`], beta = 0 as the benchmarks run), against the device's peak.
pub fn bandwidth(report: &Report, size: &SizeRecord, run: &RunRecord) -> Option<String> {
    let gbps = bandwidth_gbps(report, size, run.timing.as_ref()?.median_ms)?;
    Some(match report.device.memory_gbps {
        Some(peak) => format!("bandwidth {gbps:.0} GB/s on A, B and C moved once: {:.1}% of the device's {peak:.0} GB/s", 100.0 * gbps / peak),
        None => format!("bandwidth {gbps:.0} GB/s on A, B and C moved once"),
    })
}

/// GB/s of a memory-bound product ([`MEMORY_BOUND_ROWS`]) that took `ms`, on its least traffic
/// ([`min_bytes`], beta = 0 as the benchmarks run); `None` for a product that is not memory-bound.
pub fn bandwidth_gbps(report: &Report, size: &SizeRecord, ms: f64) -> Option<f64> {
    if size.m.min(size.n) > MEMORY_BOUND_ROWS {
        return None;
    }
    let elem = rgemm::catalog::dtype_named(&report.dtype)?.bytes() as u64;
    let c_elem = report.fused_epilogue()?.output.bytes() as u64;
    Some(min_bytes(size, elem, c_elem, false) as f64 / (ms * 1e-3) / 1e9)
}

/// The runs of one size grouped by rung (ladder order), each group sorted by speed, fastest first;
/// runs without a timing come last in their group.
pub fn ranked_by_rung<'a>(report: &Report, size: &'a SizeRecord) -> Vec<(u8, Vec<&'a RunRecord>)> {
    let rung_of = |name: &str| report.kernels.iter().find(|k| k.name == name).map_or(0, |k| k.rung);
    let mut rungs: Vec<u8> = size.runs.iter().map(|r| rung_of(&r.kernel)).collect();
    rungs.sort_unstable();
    rungs.dedup();
    rungs
        .into_iter()
        .map(|rung| {
            let mut runs: Vec<&RunRecord> = size.runs.iter().filter(|r| rung_of(&r.kernel) == rung).collect();
            let speed = |r: &RunRecord| match (r.outcome, &r.timing) {
                (Outcome::Pass, Some(t)) => t.tflops,
                _ => f64::NEG_INFINITY,
            };
            runs.sort_by(|a, b| speed(b).total_cmp(&speed(a)));
            (rung, runs)
        })
        .collect()
}

/// The fastest configuration of each rung that passed its check, fastest rung first.
pub fn best_per_rung<'a>(report: &Report, size: &'a SizeRecord) -> Vec<&'a RunRecord> {
    let mut best: Vec<&RunRecord> = ranked_by_rung(report, size)
        .into_iter()
        .filter_map(|(_, runs)| runs.into_iter().next().filter(|r| r.outcome == Outcome::Pass && r.timing.is_some()))
        .collect();
    best.sort_by(|a, b| b.timing.as_ref().map(|t| t.tflops).unwrap_or(0.0).total_cmp(&a.timing.as_ref().map(|t| t.tflops).unwrap_or(0.0)));
    best
}

/// The table `rgemm tune` prints: per size, each rung's configurations fastest first (the best
/// marked `*`), then the best per rung and a `BEST` table for the catalog.
pub fn tune_table(report: &Report) -> String {
    let mut out = header(report);
    for size in &report.sizes {
        let _ = writeln!(out, "\n{}", size.name());
        if let Some(reason) = &size.skipped {
            let _ = writeln!(out, "  skipped: {reason}");
            continue;
        }
        let _ = writeln!(out, "  {TABLE_HEADER}");
        let _ = writeln!(out, "  {}", cublas_row(report, size));
        for (rung, runs) in ranked_by_rung(report, size) {
            let _ = writeln!(out, "  rung {rung}");
            for (i, run) in runs.iter().enumerate() {
                let best = i == 0 && run.outcome == Outcome::Pass && run.timing.is_some();
                let _ = writeln!(out, "  {}", row(report, size, run, if best { "*" } else { " " }));
            }
        }
        let best = best_per_rung(report, size);
        let _ = writeln!(out, "\n  best per rung at {} (fastest first):", size.name());
        for run in &best {
            let t = run.timing.as_ref().map_or(0.0, |t| t.tflops);
            let _ = writeln!(out, "    {:<44} {t:>8.2} TFLOP/s", run.kernel);
        }
        let names: Vec<String> = best.iter().map(|r| format!("\"{}\"", r.kernel)).collect();
        let _ = writeln!(out, "\n  for catalog::BEST (rungs tuned in this run; {} on {}, {}):", size.name(), report.device.name, report.date_utc);
        let _ = writeln!(out, "  pub const BEST: &[&str] = &[{}];", names.join(", "));
    }
    let failures = report.failures();
    let _ = writeln!(out, "\n{}", if failures == 0 { "every configuration that ran passed its check".to_string() } else { format!("{failures} failed (validation or CUDA error)") });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_epilogue_reads_back_from_its_name() {
        let mut names = std::collections::BTreeSet::new();
        for bias in [Bias::None, Bias::PerColumn, Bias::PerRow] {
            for activation in Activation::ALL {
                for aux in [false, true] {
                    let e = FusedEpilogue { output: Dtype::Bf16, bias, activation, aux };
                    let name = epilogue_name(e);
                    let parsed = parse_epilogue(&name);
                    if (FusedEpilogue { output: Dtype::F32, ..e }).is_none() {
                        assert_eq!((name.as_str(), parsed), ("none", Ok((Bias::None, Activation::Identity, false))));
                    } else {
                        assert_eq!(parsed, Ok((bias, activation, aux)), "{name}");
                    }
                    names.insert(name);
                }
            }
        }
        assert_eq!(names.len(), 30);
        assert_eq!(parse_epilogue("bias-gelu"), Ok((Bias::PerColumn, Activation::GeluTanh, false)));
        for bad in ["", "frob", "none-aux", "gelu-bias", "row-bias-relu-aux-aux"] {
            assert!(parse_epilogue(bad).is_err_and(|e| e.contains("is no epilogue")), "{bad}");
        }
    }

    /// A report written before the output type and the epilogue were recorded reads as f32 C
    /// with none; a size without a baseline for its epilogue is no failure and says why.
    #[test]
    fn output_type_and_epilogue_default_for_older_reports_and_a_missing_baseline_is_no_failure() {
        let size = SizeRecord::new(&Problem::new(64, 64, 64, 1.0, 0.0).unwrap());
        let report = Report {
            schema: SCHEMA,
            command: "bench".into(),
            rgemm_version: "0.1.0".into(),
            git_commit: None,
            date_utc: utc_timestamp(0),
            device: DeviceRecord {
                name: "GPU".into(),
                compute_capability: "9.0".into(),
                multiprocessors: 132,
                clock_mhz: 1980.0,
                l2_bytes: 50 << 20,
                memory_bytes: 80 << 30,
                driver_cuda_version: None,
                peak_tflops: 989.0,
                peak_formula: "tensor cores".into(),
                memory_gbps: None,
            },
            dtype: "bf16".into(),
            out_dtype: "bf16".into(),
            epilogue: "bias-silu".into(),
            warmup: 1,
            iters: 1,
            l2_flush_bytes: 0,
            timing: "in turn".into(),
            seed: 1,
            kernels: Vec::new(),
            sizes: vec![SizeRecord { no_baseline: Some("no cuBLAS baseline: cublaslt: it has no SiLU".into()), ..size }],
        };
        let back = Report::from_json(&report.to_json(), "r.json").unwrap();
        assert_eq!(back, report);
        assert_eq!(back.fused_epilogue(), Some(FusedEpilogue { output: Dtype::Bf16, bias: Bias::PerColumn, activation: Activation::Silu, aux: false }));
        assert_eq!(report.failures(), 0);
        let text = table(&report);
        assert!(text.contains("none: no cuBLAS baseline: cublaslt: it has no SiLU") && text.contains("(C in bf16, epilogue bias-silu)"), "{text}");
        let mut old: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        for field in ["out_dtype", "epilogue"] {
            old.as_object_mut().unwrap().remove(field);
        }
        let old = Report::from_json(&old.to_string(), "old.json").unwrap();
        assert_eq!((old.out_dtype.as_str(), old.epilogue.as_str(), old.fused_epilogue()), ("f32", "none", Some(FusedEpilogue::NONE)));
        assert!(!header(&old).contains("epilogue"), "{}", header(&old));
        // cuBLASLt alone timed (an epilogue the classic calls do not fuse): the row says so.
        let stats = Stats { samples_ms: vec![0.01], rounds_ms: Vec::new(), median_ms: 0.01, min_ms: 0.01, max_ms: 0.01, spread: 0.0, tflops: 1.0 };
        let lt_only = SizeRecord { cublas: Some(stats.clone()), cublas_lt: Some(stats), no_baseline: None, ..report.sizes[0].clone() };
        assert!(cublas_row(&report, &lt_only).starts_with("cuBLAS (cublasLtMatmul) "), "{}", cublas_row(&report, &lt_only));
    }
}
