//! `rgemm`: list the kernels, run one against cuBLAS and check it, benchmark the ladder, tune
//! configurations, and chart the results.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use rgemm_tools::bench::{self, BenchPlan, Order, Runs};
use rgemm::catalog::{self, Dtype, Kernel};
use rgemm_tools::baseline::Library;
use rgemm::problem::{Batch, Layout, LeadingDims};
use rgemm_tools::suite::{self, Case, Shape};
use rgemm_tools::eval_suite::{self, Suite};
use rgemm_tools::ptxas;
use rgemm_tools::report::{self, Report};
use rgemm_tools::verify;
use rgemm::{api, dispatch, Gpu, Problem};
use rgemm_tools::{chart, emulate, ToolError as Error};

#[derive(Parser)]
#[command(name = "rgemm", version, about = "GEMM kernels in Rust on the GPU, checked and timed against cuBLAS")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every kernel with its threads, shared memory, registers (from ptxas) and the sizes
    /// it takes.
    List(ListArgs),
    /// Run one kernel: validate it against a reference, time it and cuBLAS in the same run.
    Run(RunArgs),
    /// Validate kernels (all by default) on one problem, without timing: for quick checks and
    /// for running under compute-sanitizer.
    Check(CheckArgs),
    /// Benchmark kernels (each rung at its best configuration by default) against cuBLAS over
    /// several sizes; writes a table, JSON, CSV and a chart.
    Bench(BenchArgs),
    /// Time every configuration of the chosen rungs at one size and report the best per rung.
    Tune(TuneArgs),
    /// Draw the chart of a `bench` or `tune` JSON file (no GPU needed).
    Chart(ChartArgs),
    /// Fit the cost model's constants to tuning runs (`rgemm tune --suite fit --json FILE`) and
    /// print how well its picks do before and after, per class (no GPU needed).
    Fit {
        /// A tuning run's JSON (repeatable).
        #[arg(long, required = true)]
        json: Vec<PathBuf>,
    },
    /// Launch a lesson kernel (see kernels-gpu/src/lesson_kernels.rs):
    /// `ldmatrix` prints which lane holds which elements of `ldmatrix.x2` for four address
    /// patterns, each launched on --blocks blocks of 512 threads so a profiler can count
    /// shared-memory wavefronts and bank conflicts (`ncu --metrics
    /// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum rgemm lesson ldmatrix`);
    /// `cp_async_no_barrier` reads another warp's cp.async data without a barrier (a hazard under
    /// compute-sanitizer racecheck), `cp_async_with_barrier` with one (clean).
    Lesson {
        name: LessonName,
        /// Blocks of the ldmatrix launches.
        #[arg(long, default_value_t = 1024, allow_negative_numbers = true)]
        blocks: u32,
    },
    /// Draw the book's figures and measured-number tables from the kernels' code and the bench
    /// JSON in docs/perf (no GPU needed); writes book/src/figures and book/src/generated.
    Figures {
        /// Repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
    },
    /// Write the files the library ships so that a dependent builds on stable Rust: the PTX
    /// module (ptx/kernels.ptx) and the catalog (src/entries.rs), from the kernels just built
    /// (no GPU needed).
    Generate {
        /// Repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LessonName {
    /// Fragment layout of ldmatrix.x2 and the four address patterns of the bank-conflict study.
    #[value(name = "ldmatrix")]
    Ldmatrix,
    /// Reads another warp's cp.async data without a barrier (a hazard under racecheck).
    #[value(name = "cp_async_no_barrier")]
    CpAsyncNoBarrier,
    /// The same with the barrier (clean under racecheck).
    #[value(name = "cp_async_with_barrier")]
    CpAsyncWithBarrier,
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Kernels to run (repeatable; see `rgemm list`); default: every rung of --dtype at its
    /// best configuration. `best`, `best-bf16` or `best-f16` alone (with --sizes): the automatic
    /// choice for each size.
    #[arg(long)]
    kernel: Vec<String>,
    /// Comma-separated sizes: N for N×N×N, MxNxK or BxMxNxK (a batch of B), each optionally
    /// with :nn, :nt, :tn or :tt [default: 1024,2048,4096,8192,4096x4096x1024,8192x1024x4096,3001x2999x3003]
    #[arg(long, value_parser = parse_cases, allow_hyphen_values = true, conflicts_with = "suite")]
    sizes: Option<CaseList>,
    /// A named suite of cases instead of --sizes: `real` (the tuning suite: LLM linear layers,
    /// unaligned, deep K, batched, the four layouts) or `eval` (the evaluation suite: shapes in no
    /// dispatch table, by class), each run by the kernel the automatic choice picks.
    #[arg(long)]
    suite: Option<Suite>,
    /// Layout for every size that names none (nn, nt, tn, tt).
    #[arg(long, value_parser = parse_layout)]
    layout: Option<Layout>,
    /// Batch count for every size that names none.
    #[arg(long, value_parser = parse_size, allow_hyphen_values = true)]
    batch: Option<u64>,
    #[command(flatten)]
    ld: LdArgs,
    /// Element type of A and B: f32, bf16 or f16 [default: f32, or the type of the --kernel names]
    #[arg(long, value_parser = parse_dtype)]
    dtype: Option<Dtype>,
    #[command(flatten)]
    timing: TimingArgs,
    /// Folder for results.json, results.csv, chart.svg and chart.png (created if missing).
    #[arg(long, default_value = "bench-results")]
    out: PathBuf,
    /// TrueType font for the PNG chart (default: the embedded DejaVu Sans).
    #[arg(long)]
    font: Option<PathBuf>,
    /// With the automatic choice (a `best` alias or --suite): tune it on this GPU, keeping the
    /// plan timed fastest per problem in FILE (read if it exists, written as problems are tuned;
    /// one file per device). A problem FILE holds runs its plan without timing.
    #[arg(long, value_name = "FILE")]
    tune_cache: Option<PathBuf>,
    #[command(flatten)]
    epilogue: EpilogueArgs,
}

#[derive(clap::Args)]
struct ListArgs {
    /// Only the kernel names, one per line (for scripts).
    #[arg(long)]
    names: bool,
    /// Skip ptxas (no register counts).
    #[arg(long)]
    no_ptxas: bool,
    /// The instruction mix of each named kernel's hottest loop in its SASS (ptxas, then
    /// cuobjdump: the nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm wheels); repeatable.
    #[arg(long, value_name = "KERNEL")]
    sass: Vec<String>,
}

#[derive(clap::Args)]
struct TuneArgs {
    /// Rungs to tune (repeatable); default: every rung of --dtype.
    #[arg(long, allow_negative_numbers = true)]
    rung: Vec<u8>,
    /// Element type of A and B: f32, bf16 or f16.
    #[arg(long, default_value = "f32", value_parser = parse_dtype)]
    dtype: Dtype,
    /// Problem size: N for N×N×N, or MxNxK.
    #[arg(long, default_value = "4096", value_parser = parse_shape, allow_hyphen_values = true)]
    size: Shape,
    /// Tune the dispatcher instead: every candidate plan (each fast kernel that takes the shape,
    /// directly and with K split, and the cost model's cheapest plans) on every case of the named
    /// suite (`real`, whose fastest plans make the dispatch table; `fit`, whose timings `rgemm fit`
    /// fits the cost model to; `eval`, the evaluation suite, is never tuned on).
    #[arg(long, conflicts_with_all = ["rung", "size"])]
    suite: Option<Suite>,
    /// Tune the dispatcher on these cases instead (as `bench --sizes`: MxNxK or BxMxNxK, each
    /// optionally with :nn, :nt, :tn or :tt), e.g. shapes the suite lacks.
    #[arg(long, value_parser = parse_cases, allow_hyphen_values = true, conflicts_with_all = ["rung", "size", "suite"])]
    cases: Option<CaseList>,
    /// With --suite or --cases: write the fastest plan per case into this dispatch table. --suite
    /// replaces the type's rows (other element types' rows are kept); --cases replaces only the
    /// rows of its cases and notes them as measured since. The automatic choice reads the table
    /// from RGEMM_DISPATCH_TABLE; the repository's dispatch/h100.tsv is built in.
    #[arg(long)]
    table: Option<PathBuf>,
    #[command(flatten)]
    timing: TimingArgs,
    /// Also write the results as JSON to this file (`rgemm chart --input` draws it).
    #[arg(long)]
    json: Option<PathBuf>,
}

/// How `bench` and `tune` time each kernel.
#[derive(clap::Args)]
struct TimingArgs {
    /// Timed launches per kernel and size (median, min, max and spread are reported).
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    iters: u64,
    /// Untimed launches first.
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    warmup: u64,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    seed: u64,
    /// Do not flush the L2 cache between timed launches.
    #[arg(long)]
    no_flush: bool,
    /// Time cuBLAS and each kernel alone, each after this many milliseconds of its own launches
    /// back to back (the clock it settles at under the power limit), instead of all in turn
    /// (the same clocks for all).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u32).range(1..=600_000))]
    sustain: Option<u32>,
}

/// Leading dimensions (`run`, `check`, `bench`); each defaults to the stored row length.
#[derive(clap::Args, Clone, Copy)]
struct LdArgs {
    /// Elements between rows of A as stored (at least K, or M for layouts tn/tt).
    #[arg(long, value_parser = parse_size, allow_hyphen_values = true)]
    lda: Option<u64>,
    /// Elements between rows of B as stored (at least N, or K for layouts nt/tt).
    #[arg(long, value_parser = parse_size, allow_hyphen_values = true)]
    ldb: Option<u64>,
    /// Elements between rows of C (at least N).
    #[arg(long, value_parser = parse_size, allow_hyphen_values = true)]
    ldc: Option<u64>,
}

impl LdArgs {
    fn dims(&self) -> LeadingDims {
        LeadingDims { lda: self.lda, ldb: self.ldb, ldc: self.ldc }
    }
}

/// Layout, leading dimensions and batch of `run` and `check`.
#[derive(clap::Args, Clone, Copy)]
struct ShapeArgs {
    /// How A and B are stored: nn (row-major), nt (B stored N×K), tn (A stored K×M), tt.
    #[arg(long, default_value = "nn", value_parser = parse_layout)]
    layout: Layout,
    #[command(flatten)]
    ld: LdArgs,
    /// Products in a strided batch (matrices packed one after another).
    #[arg(long, default_value = "1", value_parser = parse_size, allow_hyphen_values = true)]
    batch: u64,
}

impl ShapeArgs {
    fn problem(&self, m: u64, n: u64, k: u64, alpha: f32, beta: f32) -> Result<Problem, Error> {
        suite::refuse_empty_k(k)?;
        Ok(Problem::general(m, n, k, alpha, beta, self.layout, self.ld.dims(), Batch::packed(self.batch))?)
    }
}

impl TimingArgs {
    fn plan(&self, command: &str, dtype: Dtype, kernels: Vec<Kernel>, sizes: Vec<Case>) -> BenchPlan {
        BenchPlan {
            command: command.into(),
            dtype,
            runs: if kernels.is_empty() { Runs::Auto } else { Runs::Listed },
            kernels,
            sizes,
            classes: Vec::new(),
            ld: LeadingDims::default(),
            epilogue: rgemm::FusedEpilogue::NONE,
            warmup: self.warmup as usize,
            iters: self.iters as usize,
            seed: self.seed,
            flush_l2: !self.no_flush,
            order: self.sustain.map_or(Order::InTurn, |warm_ms| Order::Sustained { warm_ms }),
            tune_cache: None,
            git_commit: git_commit(),
        }
    }
}

#[derive(clap::Args)]
struct ChartArgs {
    /// A results.json written by `rgemm bench` or `rgemm tune --json`.
    #[arg(long)]
    input: PathBuf,
    /// Folder for chart.svg and chart.png [default: the input's folder]
    #[arg(long)]
    out: Option<PathBuf>,
    /// TrueType font for the PNG (default: the embedded DejaVu Sans).
    #[arg(long)]
    font: Option<PathBuf>,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Kernels to check (repeatable); all when omitted.
    #[arg(long)]
    kernel: Vec<String>,
    #[arg(long, default_value = "67", value_parser = parse_size, allow_hyphen_values = true)]
    m: u64,
    #[arg(long, default_value = "45", value_parser = parse_size, allow_hyphen_values = true)]
    n: u64,
    #[arg(long, default_value = "33", value_parser = parse_size, allow_hyphen_values = true)]
    k: u64,
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    alpha: f32,
    #[arg(long, default_value_t = 0.5, allow_negative_numbers = true)]
    beta: f32,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    seed: u64,
    /// Run on the CPU emulator instead of the GPU (no GPU needed).
    #[arg(long)]
    emulate: bool,
    #[command(flatten)]
    shape: ShapeArgs,
    /// Skip (with a `SKIPPED name: reason` line) named kernels that cannot run this problem, such
    /// as TMA kernels when N or K is not a multiple of 4, instead of failing. Without --kernel,
    /// every kernel is checked and such kernels are always skipped this way.
    #[arg(long)]
    skip_unsupported: bool,
    #[command(flatten)]
    epilogue: EpilogueArgs,
}

#[derive(clap::Args)]
struct RunArgs {
    /// Kernel name (see `rgemm list`), or `best`, `best-bf16`, `best-f16`, `best-e4m3`: the fastest known
    /// kernel of that type that supports the size.
    #[arg(long)]
    kernel: String,
    /// Rows of A and C [default: 2048, or 128 with --emulate].
    #[arg(long, value_parser = parse_size, allow_hyphen_values = true)]
    m: Option<u64>,
    /// Columns of B and C [default: 2048, or 128 with --emulate].
    #[arg(long, value_parser = parse_size, allow_hyphen_values = true)]
    n: Option<u64>,
    /// Columns of A, rows of B [default: 2048, or 128 with --emulate].
    #[arg(long, value_parser = parse_size, allow_hyphen_values = true)]
    k: Option<u64>,
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    alpha: f32,
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    beta: f32,
    /// Timed launches (the median is reported).
    #[arg(long, default_value_t = 20, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    iters: u64,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    seed: u64,
    /// Run on the CPU emulator instead of the GPU: checks the result and reports out-of-bounds
    /// accesses, races and barrier errors; no timing (CPU time says nothing about the GPU).
    #[arg(long)]
    emulate: bool,
    /// With the automatic choice (a `best` alias or --suite): tune it on this GPU, keeping the
    /// plan timed fastest per problem in FILE (read if it exists, written as problems are tuned;
    /// one file per device). A problem FILE holds runs its plan without timing.
    #[arg(long, value_name = "FILE")]
    tune_cache: Option<PathBuf>,
    #[command(flatten)]
    shape: ShapeArgs,
    #[command(flatten)]
    epilogue: EpilogueArgs,
}

/// The output type and the fused epilogue of `run`, `check` and `bench`: checked against f64
/// through the same epilogue, timed against cuBLAS (cuBLASLt for an epilogue) with the same ones.
#[derive(clap::Args, Clone, Copy)]
struct EpilogueArgs {
    /// The element type of C (and of the bias and the auxiliary output): f32, bf16 or f16.
    #[arg(long, default_value = "f32", value_parser = parse_dtype)]
    out_dtype: Dtype,
    /// Applied before the store: [bias-|row-bias-][relu|gelu|gelu-erf|silu][-aux], e.g.
    /// bias-gelu (a bias over N, GELU in its tanh form), relu, bias, bias-silu-aux; none.
    #[arg(long, default_value = "none", value_parser = report::parse_epilogue)]
    epilogue: (rgemm::Bias, rgemm::Activation, bool),
}

impl EpilogueArgs {
    fn fused(&self) -> rgemm::FusedEpilogue {
        let (bias, activation, aux) = self.epilogue;
        rgemm::FusedEpilogue { output: self.out_dtype, bias, activation, aux }
    }
}

/// Sizes are read as u64 so that a negative or oversized value gets a sentence, not a wrap.
fn parse_size(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| format!("'{s}' is not a size; sizes are whole numbers from 1 to {}", rgemm::problem::MAX_DIM))
}

/// The value of `--sizes` (a newtype, so clap takes the list as one value).
#[derive(Clone, Debug)]
struct CaseList(Vec<Case>);

fn parse_cases(s: &str) -> Result<CaseList, String> {
    suite::parse_cases(s).map(CaseList).map_err(|e| e.to_string())
}

fn parse_layout(s: &str) -> Result<Layout, String> {
    Layout::named(s.trim()).ok_or_else(|| format!("'{s}' is not a layout; use nn, nt, tn or tt"))
}

fn parse_shape(s: &str) -> Result<Shape, String> {
    suite::parse_shape(s).map_err(|e| e.to_string())
}

fn parse_dtype(s: &str) -> Result<Dtype, String> {
    catalog::dtype_named(s.trim()).ok_or_else(|| format!("'{s}' is not an element type; use f32, bf16, f16 or e4m3"))
}

fn main() -> ExitCode {
    // `rgemm list | head`: a closed pipe ends the process quietly, as for other command-line
    // tools, instead of failing the next write.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE, before any thread is started, touches no
    // Rust state.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // A panic would be a bug in rgemm; still, the user gets one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let message = payload.downcast_ref::<&str>().copied().or_else(|| payload.downcast_ref::<String>().map(String::as_str)).unwrap_or("panic");
        let place = info.location().map_or_else(String::new, |l| format!(" at {}:{}", l.file(), l.line()));
        eprintln!("error: internal error{place}: {}", message.split_whitespace().collect::<Vec<_>>().join(" "));
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("{} (see `rgemm --help`)", one_line(&e));
            return ExitCode::from(2);
        }
    };
    if let Some(path) = std::env::var_os("RGEMM_DISPATCH_TABLE") {
        match dispatch::Table::read(Path::new(&path)) {
            Ok(table) => dispatch::use_table(table),
            Err(e) => {
                eprintln!("error: RGEMM_DISPATCH_TABLE: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let result = match cli.command {
        Command::List(args) => list(&args),
        Command::Run(args) => run(&args),
        Command::Check(args) => check_kernels(&args),
        Command::Bench(args) => bench_command(&args),
        Command::Tune(args) => tune_command(&args),
        Command::Chart(args) => chart_command(&args),
        Command::Fit { json } => fit_command(&json),
        Command::Lesson { name: LessonName::Ldmatrix, blocks } => lesson_ldmatrix(blocks),
        Command::Lesson { name: LessonName::CpAsyncNoBarrier, .. } => lesson("cp_async_no_barrier"),
        Command::Lesson { name: LessonName::CpAsyncWithBarrier, .. } => lesson("cp_async_with_barrier"),
        Command::Generate { repo } => rgemm_tools::generate::write(&repo).map(|changed| {
            for path in &changed {
                println!("wrote {}", path.display());
            }
            if changed.is_empty() {
                println!("the generated files are current");
            }
            ExitCode::SUCCESS
        }),
        Command::Figures { repo } => rgemm_tools::figures::write(&repo).map_err(Error::InvalidArgument).map(|written| {
            println!("wrote {} files under {}", written.len(), repo.display());
            ExitCode::SUCCESS
        }),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// clap's message without its usage block, on one line: the error, the missing arguments or the
/// closest valid name it suggests.
fn one_line(e: &clap::Error) -> String {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) {
        return "error: a command is needed: list, run, check, bench, tune, chart, lesson or figures".into();
    }
    let rendered = e.render().to_string();
    let parts: Vec<&str> = rendered.lines().take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information")).map(str::trim).filter(|l| !l.is_empty()).collect();
    let mut line = String::new();
    for part in parts {
        let sep = if line.is_empty() { "" } else if part.starts_with("tip:") { "; " } else { " " };
        line.push_str(sep);
        line.push_str(part);
    }
    if line.is_empty() { "error: invalid arguments".into() } else { line }
}

fn list(args: &ListArgs) -> Result<ExitCode, Error> {
    if !args.sass.is_empty() {
        return sass_mix(&args.sass);
    }
    if args.names {
        catalog::all().for_each(|k| println!("{}", k.name()));
        return Ok(ExitCode::SUCCESS);
    }
    let (resources, source) = if args.no_ptxas { (Vec::new(), "not asked for (--no-ptxas)".to_string()) } else { ptxas_resources() };
    println!("registers and local memory per thread: {source}");
    let width = catalog::all().map(|k| k.name().len()).max().unwrap_or(0);
    let mut rung = 0;
    for k in catalog::all() {
        if k.spec.rung.number != rung {
            rung = k.spec.rung.number;
            println!("\nrung {rung}: {}", k.spec.rung.idea);
            println!("  {:<width$} {:>7} {:>8} {:>5} {:>7}  sizes", "kernel", "threads", "smem B", "regs", "local B");
        }
        let (regs, local) = match resources.iter().find(|(name, _)| name == k.name()) {
            Some((_, r)) => (r.registers.to_string(), r.local_bytes().to_string()),
            None => ("-".into(), "-".into()),
        };
        let mut sizes = k.size_rule();
        if k.spec.min_blocks_per_sm > 1 {
            sizes.push_str(&format!("; {} blocks per SM", k.spec.min_blocks_per_sm));
        }
        if k.spec.stream_k.is_some() {
            sizes.push_str("; one block per SM walks the tiles, a last round at most half full cut by K");
        } else if k.spec.persistent {
            sizes.push_str("; one block per SM walks the tiles");
        }
        println!("  {:<width$} {:>7} {:>8} {:>5} {:>7}  {sizes}", k.name(), k.spec.threads, k.spec.smem_bytes, regs, local);
    }
    println!("\nEvery kernel also needs its grid to fit: ceil(M / BM) <= 65535 block rows.");
    for &(alias, dtype) in rgemm::choice::BEST_ALIASES {
        let candidates: Vec<&str> = rgemm::choice::best_candidates(dtype).iter().map(|k| k.name()).collect();
        let tried = if candidates.is_empty() { "no kernel of this type yet".to_string() } else { candidates.join(", ") };
        println!("--kernel {alias:<9} tries, in order: {tried}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Every entry's resources as ptxas assembles the PTX the host loads, and where they come from;
/// none (with the reason) when ptxas is missing or fails, since the list is useful without them.
fn ptxas_resources() -> (Vec<(String, ptxas::Resources)>, String) {
    let Some(ptxas) = ptxas::find_ptxas() else {
        return (Vec::new(), "- (ptxas not found: pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS)".into());
    };
    let source = |version: &str| format!("ptxas {version}, sm_90a, the PTX as loaded (launch bounds included)");
    let version = match ptxas::ptxas_version(&ptxas) {
        Ok(v) => v,
        Err(e) => return (Vec::new(), format!("- ({e})")),
    };
    match ptxas::loaded_module_resources(&ptxas, &version, || eprintln!("assembling the kernels with {} ...", ptxas.display())) {
        Ok(entries) => (entries, source(&version)),
        Err(e) => (Vec::new(), format!("- ({e})")),
    }
}

/// `rgemm list --sass`: each kernel's hottest loop, its size and its instruction mix.
fn sass_mix(names: &[String]) -> Result<ExitCode, Error> {
    let kernels = names.iter().map(|n| catalog::find(n)).collect::<Result<Vec<_>, _>>()?;
    let ptxas = ptxas::find_ptxas().ok_or_else(|| Error::Ptxas("ptxas not found: pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS".into()))?;
    let cuobjdump = rgemm_tools::sass::find_cuobjdump(&ptxas)
        .ok_or_else(|| Error::Ptxas("cuobjdump not found: pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm, or set RGEMM_CUOBJDUMP".into()))?;
    println!("SASS of ptxas {} for sm_90a, disassembled by {}", ptxas::ptxas_version(&ptxas)?, cuobjdump.display());
    for kernel in kernels {
        let sass = rgemm_tools::sass::disassemble(&ptxas, &cuobjdump, kernel.name())?;
        match rgemm_tools::sass::hottest_loop(&sass) {
            Some(l) => {
                let mix: Vec<String> = l.counts.iter().take(8).map(|(op, n)| format!("{op} {n}")).collect();
                let math: Vec<String> = rgemm_tools::sass::MATH.iter().filter(|m| l.count(m) > 0).map(|m| format!("{m} {:.1}%", 100.0 * l.share(m))).collect();
                println!("{}: hottest loop {:#x}..{:#x}, {} instructions; {}; {}", kernel.name(), l.first, l.last, l.instructions, math.join(", "), mix.join(", "));
            }
            None => println!("{}: no loop with FFMA, HMMA or HGMMA", kernel.name()),
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run(args: &RunArgs) -> Result<ExitCode, Error> {
    // Everything that can be checked without a GPU is checked first.
    let default = if args.emulate { 128 } else { 2048 };
    let size = |v: Option<u64>| v.unwrap_or(default);
    let problem = args.shape.problem(size(args.m), size(args.n), size(args.k), args.alpha, args.beta)?.with_epilogue(args.epilogue.fused());
    let kernel: Kernel = rgemm::choice::resolve(&args.kernel, &problem)?;
    let alias = rgemm::choice::best_alias(&args.kernel);
    if args.tune_cache.is_some() && (alias.is_none() || args.emulate) {
        return Err(Error::InvalidArgument("--tune-cache tunes the automatic choice on the GPU: give a `best` alias as --kernel, without --emulate".into()));
    }
    let tune_cache = args.tune_cache.as_ref().map(rgemm::choice::TuneCache::open).transpose()?;
    if args.emulate {
        verify::emulator_takes(kernel, &problem)?;
        return run_emulated(&args.kernel, kernel, &problem, args.seed);
    }
    // A `best` alias is the automatic choice's plan, made on the GPU; a named kernel's is not.
    match alias {
        Some(_) => kernel.geometry(&problem).map(drop)?,
        None => verify::gpu_takes(kernel, &problem)?,
    }
    verify::require_host_memory(&problem)?;
    let gpu = Gpu::open()?;
    verify::require_memory(&gpu, &problem)?;

    println!("device   {} ({} SMs, compute capability {}.{})", gpu.info.name, gpu.info.multiprocessors, gpu.info.compute_capability.0, gpu.info.compute_capability.1);
    println!("problem  {problem}, seed {}", args.seed);
    // A `best` alias runs what the library's automatic choice plans (kernel and split of K);
    // a named kernel runs alone (with an output type or an epilogue, with the epilogue pass where
    // it does not apply the epilogue itself).
    let plan = match alias {
        Some(dtype) => match tune_cache {
            Some(cache) => rgemm::choice::plan_on_gpu(&gpu, dtype, &problem, &api::KernelChoice::Tuned(cache))?,
            None => rgemm::choice::plan(dtype, &problem, &api::KernelChoice::Auto, gpu.info.multiprocessors)?,
        },
        None => rgemm::choice::plan(kernel.spec.dtype, &problem, &api::KernelChoice::Named(args.kernel.clone()), gpu.info.multiprocessors)?,
    };
    explain_choice(&args.kernel, &plan);
    let (verdict, ops) = verify::judge_plan(&gpu, &plan, args.seed)?;
    let (ours, baselines) = verify::time_plan_against_cublas(&gpu, &plan, &ops, 3, args.iters as usize)?;
    let k_ms = ours.median_ms();
    println!("kernel   {:<40} {:>10.4} ms {:>8.2} TFLOP/s (spread ±{:.1}%)", plan.name(), k_ms, problem.tflops(k_ms), 100.0 * ours.spread());
    let estimate = rgemm::choice::cost::estimate(&plan, gpu.info.multiprocessors);
    println!(
        "model    {:<40} {:>10.4} ms (compute {:.4}, memory {:.4}, copies, tail and sum {:.4})",
        "the cost model's estimate of this plan",
        estimate.seconds * 1e3,
        estimate.compute_s * 1e3,
        estimate.memory_s * 1e3,
        estimate.extra_s * 1e3
    );
    let dtype = plan.kernel().spec.dtype;
    for (library, timing) in &baselines {
        let name = match library {
            Library::Classic if dtype == Dtype::F32 => "cublasSgemm".to_string(),
            Library::Classic => format!("cublasGemmEx {}", dtype.name()),
            Library::Lt => "cublasLtMatmul (heuristic, 32 MiB workspace)".to_string(),
        };
        let ms = timing.median_ms();
        println!("cuBLAS   {:<40} {:>10.4} ms {:>8.2} TFLOP/s (spread ±{:.1}%)", name, ms, problem.tflops(ms), 100.0 * timing.spread());
    }
    let same = if problem.epilogue.is_none() { "" } else { " with this output type and epilogue" };
    match baselines.iter().min_by(|x, y| x.1.median_ms().total_cmp(&y.1.median_ms())) {
        Some((best, timing)) => {
            let per_round = rgemm_tools::timing::paired_ratio(&timing.rounds_ms, &ours.rounds_ms).map_or(String::new(), |r| format!(", {:.1}% round by round", 100.0 * r));
            println!("ratio    {:.1}% of the best cuBLAS{same} ({}; median of {} launches each{per_round})", 100.0 * timing.median_ms() / k_ms, best.name(), args.iters);
        }
        None => println!("ratio    none: {}", verify::no_baseline(dtype, &problem).unwrap_or_default()),
    }
    println!("check    {verdict}");
    Ok(if verdict.passed() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// For a `best` alias: the plan the automatic choice made and why (the dispatch table's nearest
/// measured shape, or the catalog's order).
fn explain_choice(name: &str, plan: &api::Plan) {
    if rgemm::choice::best_alias(name).is_none() {
        return;
    }
    println!("best     {name} is {} for this problem", plan.name());
    println!("         why: {}", plan.reason());
}

/// `run --emulate`: the kernel on the CPU, checked against f64 (through the output type and the
/// epilogue, which the kernel must apply itself: the emulator runs no epilogue pass); a fault is
/// a failed check.
fn run_emulated(name: &str, kernel: Kernel, problem: &Problem, seed: u64) -> Result<ExitCode, Error> {
    emulate::check_size(problem)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("device   CPU emulator ({cores} threads): no cuBLAS and no timing under emulation");
    println!("problem  {problem}, seed {seed}");
    if rgemm::choice::best_alias(name).is_some() {
        println!("best     {name} is {} for this problem (the GPU's plan may also split K)", kernel.name());
    }
    let start = std::time::Instant::now();
    let verdict = verify::judge_emulated(kernel, problem, seed);
    println!("kernel   {:<40} emulated in {:.2} s", kernel.name(), start.elapsed().as_secs_f64());
    let (line, passed) = verdict_line(verdict)?;
    println!("check    {line}");
    Ok(if passed { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// A verdict as printed, and whether it passed; a fault the emulator caught is a failed check,
/// any other error stops the command.
fn verdict_line(verdict: Result<verify::Judged, Error>) -> Result<(String, bool), Error> {
    match verdict {
        Ok(v) => Ok((v.to_string(), v.passed())),
        Err(Error::Fault(fault)) => Ok((format!("FAIL: {fault}"), false)),
        Err(e) => Err(e),
    }
}

/// One line per kernel with its verdict from `verify`, then the totals; exit 1 if any failed.
fn print_checks(kernels: &[Kernel], mut verify: impl FnMut(Kernel) -> Result<verify::Judged, Error>) -> Result<ExitCode, Error> {
    let mut failed = 0;
    for &kernel in kernels {
        let (line, passed) = verdict_line(verify(kernel))?;
        failed += usize::from(!passed);
        println!("{:<44} {line}", kernel.name());
    }
    println!("{} passed, {failed} failed", kernels.len() - failed);
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn check_kernels(args: &CheckArgs) -> Result<ExitCode, Error> {
    let problem = args.shape.problem(args.m, args.n, args.k, args.alpha, args.beta)?.with_epilogue(args.epilogue.fused());
    let kernels: Vec<Kernel> = if args.kernel.is_empty() {
        catalog::all().collect()
    } else {
        args.kernel.iter().map(|name| rgemm::choice::resolve(name, &problem)).collect::<Result<_, _>>()?
    };
    // Memory before anything is allocated; without a GPU there is nothing to skip for: say so
    // first, in one line.
    if args.emulate {
        emulate::check_size(&problem)?;
    } else {
        verify::require_host_memory(&problem)?;
    }
    // Whether each kernel runs this problem where it is checked (on the emulator, an epilogue
    // only where the kernel applies it itself) is known without a GPU.
    let mut runnable = Vec::new();
    for kernel in kernels {
        let takes = if args.emulate { verify::emulator_takes(kernel, &problem) } else { verify::gpu_takes(kernel, &problem) };
        match takes {
            Ok(()) => runnable.push(kernel),
            // Named kernels must run; the whole catalog skips what this problem excludes, and says so.
            Err(rgemm::Error::Unsupported { reason, .. }) if args.skip_unsupported || args.kernel.is_empty() => println!("SKIPPED {}: {reason}", kernel.name()),
            Err(e) => return Err(e.into()),
        }
    }
    let kernels = runnable;
    let seed = args.seed;
    if args.emulate {
        println!("device   CPU emulator; problem {problem}, seed {seed}");
        return print_checks(&kernels, |kernel| verify::judge_emulated(kernel, &problem, seed));
    }
    let gpu = Gpu::open()?;
    println!("device   {}; problem {problem}, seed {seed}", gpu.info.name);
    print_checks(&kernels, |kernel| verify::judge_kernel(&gpu, kernel, &problem, seed))
}

/// The commit to record: `RGEMM_COMMIT` from the environment (the GPU bundle sets it), else the
/// one this binary was built from.
fn git_commit() -> Option<String> {
    std::env::var("RGEMM_COMMIT").ok().filter(|c| !c.trim().is_empty()).map(|c| c.trim().to_string()).or_else(|| option_env!("RGEMM_GIT_COMMIT").map(String::from))
}

/// The kernels of a bench run and their element type: the named ones (all of one type, which
/// must match --dtype when both are given), else the ladder of --dtype.
fn bench_kernels(names: &[String], dtype: Option<Dtype>) -> Result<(Vec<Kernel>, Dtype), Error> {
    if names.is_empty() {
        let dtype = dtype.unwrap_or(Dtype::F32);
        let ladder = catalog::ladder(dtype);
        if ladder.is_empty() {
            return Err(Error::InvalidArgument(format!("the catalog has no {} kernels (`rgemm list` shows every kernel)", dtype.name())));
        }
        return Ok((ladder, dtype));
    }
    let mut kernels: Vec<Kernel> = Vec::new();
    for name in names {
        if rgemm::choice::best_alias(name).is_some() {
            return Err(Error::InvalidArgument(format!("'{name}' depends on the size: give it alone with --sizes, and bench runs the automatic choice for each size")));
        }
        let kernel = catalog::find(name)?;
        if !kernels.contains(&kernel) {
            kernels.push(kernel);
        }
    }
    let dtype = dtype.unwrap_or(kernels[0].spec.dtype);
    if let Some(other) = kernels.iter().find(|k| k.spec.dtype != dtype) {
        return Err(Error::InvalidArgument(format!(
            "{} takes {} operands but this run is {}: one run compares kernels of one element type with cuBLAS of that type",
            other.name(),
            other.spec.dtype.name(),
            dtype.name()
        )));
    }
    Ok((kernels, dtype))
}

/// Whether a run reports its progress as lines (stderr is no terminal) rather than as a bar.
fn progress_lines() -> bool {
    !std::io::stderr().is_terminal()
}

/// A progress bar on stderr while a run goes (hidden when stderr is not a terminal).
fn progress_bar(total: u64) -> indicatif::ProgressBar {
    if progress_lines() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}").map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar
}

/// Runs `plan` with a progress bar. Without a terminal (a log file, a remote run) each step is
/// a line on stderr with the time since the start, and with `partial`, each measured size is
/// printed and the JSON so far written there: a run cut short still shows how far it got.
fn run_plan(gpu: &Gpu, plan: &BenchPlan, partial: Option<&Path>) -> Result<Report, Error> {
    let bar = progress_bar(plan.steps());
    let lines = progress_lines();
    let start = std::time::Instant::now();
    let report = bench::run(
        gpu,
        plan,
        |done, total, what| {
            bar.set_position(done);
            bar.set_message(what.to_string());
            if lines {
                eprintln!("{:>8.1} s  {done}/{total}  {what}", start.elapsed().as_secs_f64());
            }
        },
        |so_far| {
            if let (true, Some(json)) = (lines, partial) {
                print!("{}", report::last_size_table(so_far));
                if let Err(e) = so_far.write_json(json) {
                    eprintln!("warning: {e}");
                }
            }
        },
    );
    bar.finish_and_clear();
    report
}

fn create_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Io(format!("cannot create {}: {e}", dir.display())))
}

fn bench_command(args: &BenchArgs) -> Result<ExitCode, Error> {
    // `--kernel best` (or best-bf16, best-f16) alone: the automatic choice for each size.
    let alias = match args.kernel.as_slice() {
        [one] => rgemm::choice::best_alias(one),
        _ => None,
    };
    let (kernels, dtype) = if args.suite.is_some() {
        if !args.kernel.is_empty() {
            return Err(Error::InvalidArgument("--suite runs the automatic choice for each case; leave out --kernel".into()));
        }
        (Vec::new(), args.dtype.unwrap_or(Dtype::F32))
    } else if let Some(alias_dtype) = alias {
        if let Some(dtype) = args.dtype.filter(|d| *d != alias_dtype) {
            return Err(Error::InvalidArgument(format!("--kernel {} is the automatic choice for {} operands, but --dtype is {}", args.kernel[0], alias_dtype.name(), dtype.name())));
        }
        if args.sizes.is_none() {
            return Err(Error::InvalidArgument(format!("--kernel {} runs the automatic choice for each size: give --sizes", args.kernel[0])));
        }
        (Vec::new(), alias_dtype)
    } else {
        bench_kernels(&args.kernel, args.dtype)?
    };
    if args.tune_cache.is_some() && !kernels.is_empty() {
        return Err(Error::InvalidArgument("--tune-cache tunes the automatic choice: give --suite or a `best` alias as the only --kernel".into()));
    }
    let tune_cache = args.tune_cache.as_ref().map(rgemm::choice::TuneCache::open).transpose()?;
    let mut sizes = match args.suite { Some(named) => named.cases(), None => args.sizes.clone().map_or_else(|| bench::DEFAULT_SIZES.to_vec(), |list| list.0) };
    let epilogue = args.epilogue.fused();
    let mut problems = Vec::with_capacity(sizes.len());
    for case in &mut sizes {
        if let Some(layout) = args.layout.filter(|_| case.layout == Layout::NN) {
            case.layout = layout;
        }
        if let Some(batch) = args.batch.filter(|_| case.batch == 1) {
            case.batch = batch;
        }
        problems.push(case.problem(args.ld.dims())?.with_epilogue(epilogue));
    }
    // A named kernel that launches on some of the sizes but runs this output type and epilogue
    // on none of them (it neither applies the epilogue nor can leave it to the epilogue pass)
    // would only be skipped: refuse it now.
    for &kernel in kernels.iter().filter(|_| !args.kernel.is_empty()) {
        let takes: Vec<_> = problems.iter().filter(|p| kernel.geometry(p).is_ok()).map(|p| verify::gpu_takes(kernel, p)).collect();
        if takes.iter().all(Result::is_err)
            && let Some(Err(e)) = takes.into_iter().next()
        {
            return Err(e.into());
        }
    }
    if let Some(font) = &args.font {
        chart::find_font(Some(font))?;
    }
    let gpu = Gpu::open()?;
    // Before the run, so that a folder that cannot be made fails now, not after it.
    create_dir(&args.out)?;
    let mut plan = args.timing.plan("bench", dtype, kernels, sizes);
    plan.ld = args.ld.dims();
    plan.epilogue = epilogue;
    plan.classes = args.suite.map_or_else(Vec::new, Suite::classes);
    if tune_cache.is_some() {
        // The report says that its plans were tuned on this GPU (its title and run line).
        plan.command = "bench, the choice tuned on this GPU,".into();
    }
    plan.tune_cache = tune_cache;
    let report = run_plan(&gpu, &plan, Some(&args.out.join("results.json")))?;
    // Printed size by size already where there is no terminal (see `run_plan`).
    print!("{}", if progress_lines() { report::footer(&report) } else { report::table(&report) });
    if args.suite == Some(Suite::Eval) {
        print!("\n% of the best cuBLAS per class:\n\n{}", eval_suite::markdown(&eval_suite::summarize(&eval_suite::measured(&report))));
    }
    write_outputs(&report, &args.out, args.font.as_deref())?;
    Ok(if report.failures() == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// results.json, results.csv and the charts; a chart that cannot be drawn is a warning, since
/// `rgemm chart` can draw it later from the JSON.
fn write_outputs(report: &Report, dir: &Path, font: Option<&Path>) -> Result<(), Error> {
    let json = dir.join("results.json");
    let csv = dir.join("results.csv");
    report.write_json(&json)?;
    report.write_csv(&csv)?;
    println!("\nwrote    {}, {}", json.display(), csv.display());
    match chart::write_charts(report, dir, font) {
        Ok(written) => print_charts(&written),
        Err(e) => eprintln!("warning: {e}; `rgemm chart --input {}` can draw it later", json.display()),
    }
    Ok(())
}

fn print_charts(written: &chart::Written) {
    match &written.png {
        Some(png) => println!("wrote    {}, {}", written.svg.display(), png.display()),
        None => println!("wrote    {}", written.svg.display()),
    }
    if let Some(note) = &written.png_note {
        println!("note     {note}");
    }
}

fn tune_command(args: &TuneArgs) -> Result<ExitCode, Error> {
    if let Some(named) = args.suite {
        if named == Suite::Fit && args.table.is_some() {
            return Err(Error::InvalidArgument("the fitting suite's timings fit the cost model (`rgemm fit`), not the dispatch table: drop --table".into()));
        }
        return tune_plans(args, named.tunable_cases()?, named.classes(), TableUpdate::Replace);
    }
    if let Some(cases) = &args.cases {
        return tune_plans(args, cases.0.clone(), Vec::new(), TableUpdate::Merge);
    }
    if args.table.is_some() {
        return Err(Error::InvalidArgument("--table is written by a tune of the dispatcher: add --suite real or --cases".into()));
    }
    let available = catalog::rungs(args.dtype);
    if available.is_empty() {
        return Err(Error::InvalidArgument(format!("the catalog has no {} kernels (`rgemm list` shows every kernel)", args.dtype.name())));
    }
    let mut rungs = if args.rung.is_empty() { available.clone() } else { args.rung.clone() };
    rungs.sort_unstable();
    rungs.dedup();
    if let Some(missing) = rungs.iter().find(|r| !available.contains(r)) {
        let list: Vec<String> = available.iter().map(u8::to_string).collect();
        return Err(Error::InvalidArgument(format!("rung {missing} has no {} kernels; {} rungs: {}", args.dtype.name(), args.dtype.name(), list.join(", "))));
    }
    let kernels: Vec<Kernel> = rungs.iter().flat_map(|&r| catalog::configurations(r, args.dtype)).collect();
    check_json_path(args.json.as_deref())?;
    let gpu = Gpu::open()?;
    let plan = args.timing.plan("tune", args.dtype, kernels, vec![Case::plain(args.size)]);
    let report = run_plan(&gpu, &plan, args.json.as_deref())?;
    print!("{}", report::tune_table(&report));
    write_json(&report, args.json.as_deref())?;
    Ok(if report.failures() == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `rgemm fit`: the cost model refitted to the tuning runs, with the regret of its picks (and of
/// the automatic choice's) before and after, per class.
fn fit_command(paths: &[PathBuf]) -> Result<ExitCode, Error> {
    use rgemm::choice::cost::Model;
    use rgemm_tools::fit;
    let mut cases = Vec::new();
    for path in paths {
        cases.extend(fit::cases_of(&Report::read(path)?)?);
    }
    if cases.is_empty() {
        return Err(Error::InvalidArgument("the runs hold no case with two timed plans of today's catalog".into()));
    }
    println!("{} cases, {} timed plans", cases.len(), cases.iter().map(|c| c.plans.len()).sum::<usize>());
    let all: Vec<&fit::FitCase> = cases.iter().collect();
    let fitted = fit::fit(&all, &Model::FITTED, |sweep, objective| println!("sweep {sweep}: objective {objective:.5}"));
    let (held_out, held_out_worst) = fit::cross_validated(&all, &Model::FITTED);
    println!("two-fold cross-validation: the fitted model's pick at {held_out:.3}× the fastest on the cases it was not fitted to (geometric mean), worst {held_out_worst:.3}×");
    let mut classes: Vec<String> = cases.iter().map(|c| c.class.clone()).collect();
    classes.sort();
    classes.dedup();
    println!("\n{:<18} {:>5} {:>22} {:>22} {:>22}", "class", "cases", "automatic (gm, worst)", "model (gm, worst)", "fitted (gm, worst)");
    for class in classes.iter().map(Some).chain([None]) {
        let chosen: Vec<&fit::FitCase> = cases.iter().filter(|c| class.is_none_or(|name| &c.class == name)).collect();
        let summary = |r: Vec<f64>| {
            let (geomean, worst) = fit::summary(r);
            format!("{geomean:.3}, {worst:.3}")
        };
        let automatic: Vec<f64> = chosen.iter().filter_map(|c| c.automatic.map(|i| c.regret(i))).collect();
        let timed = automatic.len();
        let auto_text = if timed == 0 { "-".to_string() } else { format!("{} ({timed})", summary(automatic)) };
        let model = |m: &Model| {
            let (geomean, worst) = fit::regrets(&chosen, m);
            format!("{geomean:.3}, {worst:.3}")
        };
        println!("{:<18} {:>5} {:>22} {:>22} {:>22}", class.map_or("all", |c| c.as_str()), chosen.len(), auto_text, model(&Model::FITTED), model(&fitted));
    }
    println!("\ncases where the automatic choice's pick is over 1.2× the fastest:");
    for case in cases.iter() {
        if let Some(i) = case.automatic.filter(|&i| case.regret(i) > 1.2) {
            let fastest = case.plans.iter().min_by(|x, y| x.1.total_cmp(&y.1)).map_or(String::new(), |p| p.0.name());
            println!("  {:<14} {}: {} at {:.2}× ({}; the fastest: {fastest})", case.class, case.problem, case.plans[i].0.name(), case.regret(i), if case.table_decided { "the table" } else { "not the table" });
        }
    }
    let decided: Vec<&fit::FitCase> = cases.iter().filter(|c| c.table_decided && c.automatic.is_some()).collect();
    if !decided.is_empty() {
        let (table, _) = fit::summary(decided.iter().filter_map(|c| c.automatic.map(|i| c.regret(i))));
        let (model, _) = fit::regrets(&decided, &fitted);
        println!("\nthe dispatch table decided {} cases: its picks at {table:.3}×, the fitted model's at {model:.3}× (in sample)", decided.len());
    }
    println!("\nfitted parameters (was):");
    for ((name, value), (_, was)) in fitted.parameters().into_iter().zip(Model::FITTED.parameters()) {
        println!("  {name:<34} {value:>10.3e}   ({was:.3e})");
    }
    Ok(ExitCode::SUCCESS)
}

fn check_json_path(path: Option<&Path>) -> Result<(), Error> {
    match path.filter(|p| p.is_dir()) {
        Some(path) => Err(Error::InvalidArgument(format!("--json {} is a folder; name a file to write", path.display()))),
        None => Ok(()),
    }
}

fn write_json(report: &Report, path: Option<&Path>) -> Result<(), Error> {
    if let Some(path) = path {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            create_dir(parent)?;
        }
        report.write_json(path)?;
        println!("\nwrote    {}", path.display());
    }
    Ok(())
}

/// How a tune of the dispatcher changes the table it writes.
#[derive(Clone, Copy, PartialEq)]
enum TableUpdate {
    /// The suite's rows of the type replace all the type's rows.
    Replace,
    /// The cases' rows replace rows of the same shapes; the rest stay.
    Merge,
}

/// `rgemm tune --suite real` or `--cases`: every candidate plan on every case; the fastest per
/// case, and with --table the dispatch table.
fn tune_plans(args: &TuneArgs, cases: Vec<Case>, classes: Vec<String>, update: TableUpdate) -> Result<ExitCode, Error> {
    check_json_path(args.json.as_deref())?;
    let existing = match &args.table {
        Some(path) if path.is_dir() => return Err(Error::InvalidArgument(format!("--table {} is a folder; name a file to write", path.display()))),
        Some(path) if path.exists() => Some(dispatch::Table::read(path)?),
        _ => None,
    };
    let gpu = Gpu::open()?;
    let mut plan = args.timing.plan("tune", args.dtype, Vec::new(), cases);
    plan.runs = Runs::Candidates;
    plan.classes = classes;
    let report = run_plan(&gpu, &plan, args.json.as_deref())?;
    let rows = rgemm_tools::tune::rows_of(&report)?;
    println!("{:<24} {:<64} {:>9}", "case", "fastest plan", "% cuBLAS");
    for row in &rows {
        println!("{:<24} {:<64} {:>8.1}%", row.case_name(), row.plan_name(), row.percent);
    }
    write_json(&report, args.json.as_deref())?;
    if let Some(path) = &args.table {
        let mut table = existing.unwrap_or_default();
        let device = format!("{} ({} SMs)", gpu.info.name, gpu.info.multiprocessors);
        let date = report.date_utc.get(..10).unwrap_or(&report.date_utc).to_string();
        let commit = report.git_commit.clone().unwrap_or_else(|| "unknown".into());
        match update {
            TableUpdate::Replace => {
                let notes = vec![
                    ("device".to_string(), device),
                    ("date".to_string(), date),
                    ("commit".to_string(), commit),
                    ("regenerate".to_string(), "rgemm tune --suite real --dtype f32 --table dispatch/h100.tsv, then --dtype bf16; then the rows measured since, with --cases".to_string()),
                ];
                table.replace(args.dtype, rows, notes);
            }
            TableUpdate::Merge => {
                let names: Vec<String> = rows.iter().map(|r| r.case_name()).collect();
                let what = format!("{} from `rgemm tune --cases` on {device} (commit {commit}, {date})", names.join(", "));
                table.merge(rows, &what);
            }
        }
        std::fs::write(path, table.to_text()).map_err(|e| Error::Io(format!("cannot write {}: {e}", path.display())))?;
        println!("wrote    {}", path.display());
    }
    Ok(if report.failures() == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn chart_command(args: &ChartArgs) -> Result<ExitCode, Error> {
    let report = Report::read(&args.input)?;
    let dir = match &args.out {
        Some(dir) => dir.clone(),
        None => args.input.parent().filter(|p| !p.as_os_str().is_empty()).map_or_else(|| PathBuf::from("."), Path::to_path_buf),
    };
    create_dir(&dir)?;
    let written = chart::write_charts(&report, &dir, args.font.as_deref())?;
    print_charts(&written);
    Ok(ExitCode::SUCCESS)
}

fn lesson_ldmatrix(blocks: u32) -> Result<ExitCode, Error> {
    if blocks == 0 || blocks > 65_535 {
        return Err(Error::InvalidArgument(format!("--blocks {blocks}: choose 1..=65535")));
    }
    let gpu = Gpu::open()?;
    println!("ldmatrix.sync.aligned.m8n8.x2.shared.b16 on a 128x16 tile of 16-bit integers, element i = i");
    for pattern in rgemm_tools::lesson::ldmatrix_patterns() {
        let regs = rgemm_tools::lesson::ldmatrix_x2(&gpu, &pattern, blocks)?;
        println!("\n{}; lane offsets {:?}", pattern.name, &pattern.offsets[..16]);
        for (m, name) in ["r0 (matrix 0)", "r1 (matrix 1)"].iter().enumerate() {
            println!("  {name}: each lane's two elements, lanes 0-31 in rows of four");
            for quad in regs.chunks(4) {
                let cells: Vec<String> = quad.iter().map(|r| format!("{:4} {:4}", r[m] & 0xffff, r[m] >> 16)).collect();
                println!("    {}", cells.join("  |  "));
            }
        }
    }
    gpu.synchronize()?;
    Ok(ExitCode::SUCCESS)
}

/// Runs one race lesson (see `rgemm_tools::lesson`); meant to run under compute-sanitizer racecheck.
fn lesson(name: &str) -> Result<ExitCode, Error> {
    let gpu = Gpu::open()?;
    let right = rgemm_tools::lesson::run_race_lesson(&gpu, name)?;
    println!("lesson {name}: values read {} (racecheck decides whether it was a race)", if right { "right this time" } else { "WRONG" });
    Ok(ExitCode::SUCCESS)
}
