//! `rgemm`: list the kernels, run one against cuBLAS and check it.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use rgemm::catalog::{self, Kernel};
use rgemm::verify::{self, Operands};
use rgemm::{check, emulate, Error, Gpu, Problem};

#[derive(Parser)]
#[command(name = "rgemm", version, about = "GEMM kernels in Rust on the GPU, checked and timed against cuBLAS")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every kernel with its tile configuration, threads and shared memory.
    List,
    /// Run one kernel: validate it against a reference, time it and cuBLAS in the same run.
    Run(RunArgs),
    /// Validate kernels (all by default) on one problem, without timing: for quick checks and
    /// for running under compute-sanitizer.
    Check(CheckArgs),
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
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run on the CPU emulator instead of the GPU (no GPU needed).
    #[arg(long)]
    emulate: bool,
}

#[derive(clap::Args)]
struct RunArgs {
    /// Kernel name (see `rgemm list`).
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
    #[arg(long, default_value_t = 20)]
    iters: usize,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run on the CPU emulator instead of the GPU: checks the result and reports out-of-bounds
    /// accesses, races and barrier errors; no timing (CPU time says nothing about the GPU).
    #[arg(long)]
    emulate: bool,
}

/// Sizes are read as u64 so that a negative or oversized value gets a sentence, not a wrap.
fn parse_size(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| format!("'{s}' is not a size; sizes are whole numbers from 1 to {}", rgemm::problem::MAX_DIM))
}

fn main() -> ExitCode {
    // A panic would be a bug in rgemm; still, the user gets one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| eprintln!("error: internal error: {info}")));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            eprintln!("{first} (see `rgemm --help`)");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::List => list(),
        Command::Run(args) => run(&args),
        Command::Check(args) => check_kernels(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn list() -> Result<ExitCode, Error> {
    println!("{:<40} {:>4} {:>18} {:>7} {:>8}  idea", "kernel", "rung", "tile BMxBNxBK", "threads", "smem B");
    for k in catalog::all() {
        let t = &k.spec.tile;
        println!(
            "{:<40} {:>4} {:>18} {:>7} {:>8}  {}",
            k.name(),
            k.spec.rung.number,
            format!("{}x{}x{}", t.bm, t.bn, t.bk),
            k.spec.threads,
            k.spec.smem_bytes,
            k.spec.rung.idea
        );
    }
    println!("\nEvery kernel accepts any M, N, K >= 1 whose grid fits (ceil(M/BM) <= 65535 block rows).");
    Ok(ExitCode::SUCCESS)
}

fn run(args: &RunArgs) -> Result<ExitCode, Error> {
    // Everything that can be checked without a GPU is checked first.
    let kernel: Kernel = catalog::find(&args.kernel)?;
    let default = if args.emulate { 128 } else { 2048 };
    let size = |v: Option<u64>| v.unwrap_or(default);
    let problem = Problem::new(size(args.m), size(args.n), size(args.k), args.alpha, args.beta)?;
    kernel.launch(&problem)?;
    if args.emulate {
        return run_emulated(kernel, &problem, args.seed);
    }
    let gpu = Gpu::open()?;
    gpu.require_memory(Operands::bytes(&problem))?;

    println!("device   {} ({} SMs, compute capability {}.{})", gpu.info.name, gpu.info.multiprocessors, gpu.info.compute_capability.0, gpu.info.compute_capability.1);
    println!("problem  {problem}, seed {}", args.seed);
    let verdict = verify::verify(&gpu, kernel, &problem, args.seed)?;

    let inputs = check::Inputs::random(&problem, kernel.spec.dtype, args.seed);
    let ops = Operands::upload(&gpu, &problem, &inputs)?;
    let cmp = verify::time_against_cublas(&gpu, kernel, &problem, &ops, 3, args.iters)?;
    let (k_ms, c_ms) = (cmp.kernel.median_ms(), cmp.cublas.median_ms());
    println!("kernel   {:<40} {:>10.4} ms {:>8.2} TFLOP/s (spread ±{:.1}%)", kernel.name(), k_ms, problem.tflops(k_ms), 100.0 * cmp.kernel.spread());
    let baseline = if kernel.spec.dtype == catalog::Dtype::F32 { "cublasSgemm".to_string() } else { format!("cublasGemmEx {}", kernel.spec.dtype.name()) };
    println!("cuBLAS   {:<40} {:>10.4} ms {:>8.2} TFLOP/s (spread ±{:.1}%)", baseline, c_ms, problem.tflops(c_ms), 100.0 * cmp.cublas.spread());
    println!("ratio    {:.1}% of cuBLAS (median of {} launches each)", 100.0 * c_ms / k_ms, args.iters.max(1));
    println!("check    {verdict}");
    Ok(if verdict.passed() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `run --emulate`: the kernel on the CPU, checked against f64; a fault is a failed check.
fn run_emulated(kernel: Kernel, problem: &Problem, seed: u64) -> Result<ExitCode, Error> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("device   CPU emulator ({cores} threads): no cuBLAS and no timing under emulation");
    println!("problem  {problem}, seed {seed}");
    let start = std::time::Instant::now();
    let verdict = emulate::verify(kernel, problem, seed);
    println!("kernel   {:<40} emulated in {:.2} s", kernel.name(), start.elapsed().as_secs_f64());
    report_emulated(verdict)
}

/// Prints an emulated verdict; a fault the emulator caught fails like a wrong result (exit 1).
fn report_emulated(verdict: Result<verify::Verdict, Error>) -> Result<ExitCode, Error> {
    match verdict {
        Ok(v) => {
            println!("check    {v}");
            Ok(if v.passed() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Err(Error::Fault(fault)) => {
            println!("check    FAIL: {fault}");
            Ok(ExitCode::FAILURE)
        }
        Err(e) => Err(e),
    }
}

fn check_kernels(args: &CheckArgs) -> Result<ExitCode, Error> {
    let kernels: Vec<Kernel> = if args.kernel.is_empty() {
        catalog::all().collect()
    } else {
        args.kernel.iter().map(|name| catalog::find(name)).collect::<Result<_, _>>()?
    };
    let problem = Problem::new(args.m, args.n, args.k, args.alpha, args.beta)?;
    for kernel in &kernels {
        kernel.launch(&problem)?;
    }
    if args.emulate {
        println!("device   CPU emulator; problem {problem}, seed {}", args.seed);
        let mut failed = 0;
        for &kernel in &kernels {
            let (line, passed) = match emulate::verify(kernel, &problem, args.seed) {
                Ok(v) => (v.to_string(), v.passed()),
                Err(Error::Fault(fault)) => (format!("FAIL: {fault}"), false),
                Err(e) => return Err(e),
            };
            failed += usize::from(!passed);
            println!("{:<44} {line}", kernel.name());
        }
        println!("{} passed, {failed} failed", kernels.len() - failed);
        return Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE });
    }
    let gpu = Gpu::open()?;
    println!("device   {}; problem {problem}, seed {}", gpu.info.name, args.seed);
    let mut failed = 0;
    for &kernel in &kernels {
        let verdict = verify::verify(&gpu, kernel, &problem, args.seed)?;
        failed += usize::from(!verdict.passed());
        println!("{:<44} {verdict}", kernel.name());
    }
    println!("{} passed, {failed} failed", kernels.len() - failed);
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
