//! The command line's answers to bad input: one line on stderr, a non-zero exit, no panic.
//! Tests of what it does on a GPU are ignored unless asked for (`--include-ignored`, as the GPU
//! bundle does); without a GPU the same commands are checked to say so in one line.

use std::process::{Command, Output};

use proptest::prelude::*;

fn command() -> Command {
    let bin = std::env::var("RGEMM_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_rgemm").to_string());
    Command::new(bin)
}

fn rgemm(args: &[&str]) -> Output {
    command().args(args).output().expect("run rgemm")
}

/// `rgemm` with the GPUs hidden from the driver (or no driver at all): the "no GPU" path on any
/// machine.
fn rgemm_without_gpu(args: &[&str]) -> Output {
    command().args(args).env("CUDA_VISIBLE_DEVICES", "").output().expect("run rgemm")
}

/// The one-line error of a failed invocation.
fn error_line(args: &[&str]) -> String {
    let out = rgemm(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?} should print one line, got:\n{stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("backtrace"), "{stderr}");
    stderr
}

const KERNEL: &str = "sgemm_03_smem_tiling_32x32x32";

/// The one-line "no GPU" answer of a command that needs one.
fn assert_no_gpu_sentence(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("a CUDA GPU and its driver are needed"), "{stderr}");
}

#[test]
fn unknown_kernel_suggests_names() {
    let e = error_line(&["run", "--kernel", "smem_tilin"]);
    assert!(e.contains("unknown kernel 'smem_tilin'") && e.contains("did you mean") && e.contains("smem_tiling"), "{e}");
}

#[test]
fn zero_negative_and_huge_sizes_are_refused() {
    assert!(error_line(&["run", "--kernel", KERNEL, "--m", "0"]).contains("M is 0"));
    assert!(error_line(&["run", "--kernel", KERNEL, "--n", "-5"]).contains("not a size"));
    assert!(error_line(&["run", "--kernel", KERNEL, "--k", "99999999999999999999999"]).contains("not a size"));
    assert!(error_line(&["run", "--kernel", KERNEL, "--k", "4294967296"]).contains("exceeds"));
    assert!(error_line(&["run", "--kernel", KERNEL, "--m", "abc"]).contains("not a size"));
}

#[test]
fn sizes_a_kernel_cannot_launch_are_refused_before_the_gpu() {
    // 32-row blocks: 65535 block rows at most.
    let e = error_line(&["run", "--kernel", KERNEL, "--m", "3000000", "--n", "1", "--k", "1"]);
    assert!(e.contains("cannot run this problem") && e.contains("block rows"), "{e}");
}

#[test]
fn unknown_flags_and_missing_kernel_are_one_line() {
    assert!(error_line(&["run", "--kernal", KERNEL]).contains("similar argument exists: '--kernel'"));
    assert!(error_line(&["run"]).contains("--kernel <KERNEL>"));
    assert!(error_line(&[]).contains("a command is needed"));
    error_line(&["frobnicate"]);
    assert!(error_line(&["lesson", "foo"]).contains("cp_async_no_barrier"));
    assert!(error_line(&["run", "--kernel", KERNEL, "--seed", "-1"]).contains("'-1' for '--seed"));
    assert!(error_line(&["run", "--kernel", KERNEL, "--iters", "0"]).contains("--iters"));
    assert!(error_line(&["bench", "--warmup", "20000"]).contains("--warmup"));
    assert!(error_line(&["run", "--kernel", "sgemm_9"]).contains("did you mean sgemm_09_"));
}

#[test]
fn the_emulator_refuses_sizes_it_would_take_hours_on() {
    let e = error_line(&["run", "--kernel", KERNEL, "--emulate", "--m", "30000", "--n", "30000", "--k", "30000"]);
    assert!(e.contains("the CPU emulator") && e.contains("at most"), "{e}");
}

#[test]
fn chart_refuses_reports_it_cannot_draw() {
    let dir = temp_dir("bad-report");
    let other_schema = dir.join("schema.json");
    std::fs::write(&other_schema, r#"{"schema": 99}"#).unwrap();
    assert!(error_line(&["chart", "--input", other_schema.to_str().unwrap()]).contains("schema 99"));
    let not_a_report = dir.join("other.json");
    std::fs::write(&not_a_report, r#"{"name": "x"}"#).unwrap();
    assert!(error_line(&["chart", "--input", not_a_report.to_str().unwrap()]).contains("no schema number"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn no_gpu_is_a_sentence_not_a_panic() {
    for args in [&["run", "--kernel", KERNEL, "--m", "64", "--n", "64", "--k", "64"][..], &["check", "--kernel", KERNEL], &["lesson", "cp_async_with_barrier"]] {
        assert_no_gpu_sentence(&rgemm_without_gpu(args));
    }
}

#[test]
#[ignore = "needs a GPU"]
fn run_and_check_pass_on_the_gpu() {
    let out = rgemm(&["run", "--kernel", KERNEL, "--m", "64", "--n", "64", "--k", "64"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("check    PASS"), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let out = rgemm(&["check", "--kernel", KERNEL, "--m", "300", "--n", "200", "--k", "100"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("1 passed, 0 failed"), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn list_shows_every_kernel_with_its_resources_and_sizes() {
    // ptxas is a requirement of the tests (README): missing, it fails rather than skips.
    assert!(rgemm_tools::ptxas::find_ptxas().is_some(), "ptxas not found: pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS");
    let with_ptxas = true;
    let out = rgemm(&["list"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for k in rgemm::catalog::all() {
        let line = text.lines().find(|l| l.split_whitespace().next() == Some(k.name())).unwrap_or_else(|| panic!("{} missing from list", k.name()));
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cols[1..3], [k.spec.threads.to_string(), k.spec.smem_bytes.to_string()], "{line}");
        if with_ptxas {
            assert!(cols[3].parse::<u32>().is_ok_and(|r| r > 0), "no register count: {line}");
            assert_eq!(cols[4], "0", "local memory: {line}");
        }
        assert!(line.contains(&k.size_rule()), "{line}");
    }
    let tma = text.lines().find(|l| l.trim_start().starts_with("sgemm_11_")).expect("a rung-11 kernel");
    assert!(tma.contains("nn, lda, ldb multiples of 4"), "{tma}");
}

#[test]
fn list_names_prints_only_the_names() {
    let out = rgemm(&["list", "--names"]);
    let names: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect();
    let catalog: Vec<String> = rgemm::catalog::all().map(|k| k.name().to_string()).collect();
    assert_eq!(names, catalog);
}

#[test]
fn bench_and_tune_refuse_bad_arguments_in_one_line() {
    assert!(error_line(&["bench", "--sizes", "1024,abc"]).contains("'abc' is not a size"));
    assert!(error_line(&["bench", "--sizes", "1024,,2048"]).contains("empty entry"));
    assert!(error_line(&["bench", "--sizes", "0x5x5"]).contains("M is 0"));
    assert!(error_line(&["bench", "--sizes", "-1024"]).contains("not a size"));
    assert!(error_line(&["bench", "--sizes", "4096x4096"]).contains("MxNxK"));
    assert!(error_line(&["bench", "--dtype", "f64"]).contains("not an element type"));
    assert!(error_line(&["bench", "--iters", "0"]).contains("--iters"));
    assert!(error_line(&["bench", "--kernel", "smem_tilin"]).contains("did you mean"));
    assert!(error_line(&["bench", "--kernel", "best"]).contains("give --sizes"));
    assert!(error_line(&["bench", "--kernel", "best", "--kernel", KERNEL]).contains("depends on the size"));
    assert!(error_line(&["bench", "--kernel", "best-bf16", "--sizes", "64", "--dtype", "f32"]).contains("automatic choice for bf16"));
    assert!(error_line(&["bench", "--font", "/nonexistent/font.ttf"]).contains("does not exist"));
    assert!(error_line(&["bench", "--kernel", KERNEL, "--dtype", "bf16"]).contains("takes f32 operands"));
    assert!(error_line(&["tune", "--rung", "99"]).contains("rung 99 has no f32 kernels"));
    assert!(error_line(&["tune", "--size", "-3"]).contains("not a size"));
    assert!(error_line(&["tune", "--rung", "x"]).contains("--rung"));
    assert!(error_line(&["tune", "--table", "t.tsv"]).contains("add --suite real or --cases"));
    assert!(error_line(&["tune", "--cases", "4096x0x16"]).contains("N is 0"));
    if rgemm::catalog::rungs(rgemm::catalog::Dtype::Bf16).is_empty() {
        assert!(error_line(&["bench", "--dtype", "bf16"]).contains("no bf16 kernels"));
        assert!(error_line(&["tune", "--dtype", "bf16"]).contains("no bf16 kernels"));
    }
}

#[test]
fn run_accepts_best() {
    // `best` resolves on the CPU, before the GPU is needed.
    assert_no_gpu_sentence(&rgemm_without_gpu(&["run", "--kernel", "best", "--m", "64", "--n", "64", "--k", "64"]));
    assert!(error_line(&["run", "--kernel", "best", "--m", "20000000", "--n", "1", "--k", "1"]).contains("no candidate supports it"));
}

#[test]
#[ignore = "needs a GPU"]
fn run_accepts_best_on_the_gpu() {
    let out = rgemm(&["run", "--kernel", "best", "--m", "64", "--n", "64", "--k", "64"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("best     best is ") && stdout.contains("PASS"), "{stdout}");
}

/// Finding 3: 4194304³ passed the emulator's size check (M·N·K wrapped u64 to 0) and the process
/// aborted allocating 64 TiB (exit 134); `check` built its inputs before any memory check.
#[test]
fn sizes_whose_product_overflows_are_refused_before_anything_is_allocated() {
    let huge = ["--m", "4194304", "--n", "4194304", "--k", "4194304"];
    let wide = "sgemm_05_blocktile_2d_128x128x8_t8x8";
    let e = error_line(&[&["run", "--emulate", "--kernel", wide][..], &huge].concat());
    assert!(e.contains("multiply-adds") && e.contains("at most"), "{e}");
    let e = error_line(&[&["check", "--emulate", "--kernel", wide][..], &huge].concat());
    assert!(e.contains("multiply-adds"), "{e}");
    // Valid sizes, hundreds of TiB of inputs: refused by the host-memory check, GPU or not.
    for command in ["run", "check"] {
        let e = error_line(&[&[command, "--kernel", wide][..], &huge].concat());
        assert!(e.contains("not enough host memory"), "{e}");
    }
}

/// A size argument: zero, negative, overflowing u64, above the largest dimension, or valid
/// (small or large).
fn size_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("0".to_string()),
        (1u64..1 << 40).prop_map(|v| format!("-{v}")),
        (0u32..1000).prop_map(|v| format!("1844674407370955{v:04}")),
        "[1-9][0-9]{20,30}",
        ((1u64 << 31)..u64::MAX).prop_map(|v| v.to_string()),
        (1u64..=64).prop_map(|v| v.to_string()),
        ((1u64 << 19)..(1u64 << 31)).prop_map(|v| v.to_string()),
    ]
}

/// Whether `rgemm` must refuse M, N, K (and the batch and ldc, where given) whatever the machine:
/// a size that is not one, an ldc below N, or operands of at least 2³⁸ elements (1 TiB of f32).
fn must_refuse(m: &str, n: &str, k: &str, batch: Option<&str>, ldc: Option<&str>) -> bool {
    let parse = |s: &str| s.parse::<u64>().ok().filter(|&v| (1..=i32::MAX as u64).contains(&v));
    let (batch, ldc) = (batch.map_or(Some(1), parse), ldc.map(parse));
    match (parse(m), parse(n), parse(k), batch, ldc) {
        (Some(_), Some(n), _, _, Some(Some(ldc))) if ldc < n => true,
        (Some(m), Some(n), Some(k), Some(batch), Some(Some(_)) | None) => {
            let ldc = ldc.flatten().unwrap_or(n) as u128;
            let (m, n, k, batch) = (m as u128, n as u128, k as u128, batch as u128);
            batch * (m * k).max(k * n).max(m * ldc) >= 1 << 38
        }
        _ => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// Finding 3: every command that takes sizes answers bad or impossible ones with exit 2 and
    /// one line, never a panic or an abort, GPU or not.
    #[test]
    fn bad_and_impossible_sizes_exit_2_in_one_line(
        ((m, n, k), batch, ldc) in ((size_text(), size_text(), size_text()), proptest::option::of(size_text()), proptest::option::of(size_text()))
            .prop_filter("a size the machine may run", |((m, n, k), batch, ldc)| must_refuse(m, n, k, batch.as_deref(), ldc.as_deref()))
    ) {
        let mut sizes = vec!["--m", m.as_str(), "--n", n.as_str(), "--k", k.as_str()];
        if let Some(batch) = &batch {
            sizes.extend(["--batch", batch.as_str()]);
        }
        if let Some(ldc) = &ldc {
            sizes.extend(["--ldc", ldc.as_str()]);
        }
        let shape = format!("{m}x{n}x{k}");
        let mut commands: Vec<Vec<&str>> = vec![
            [&["run", "--kernel", KERNEL][..], &sizes].concat(),
            [&["run", "--emulate", "--kernel", KERNEL][..], &sizes].concat(),
            [&["check", "--kernel", KERNEL][..], &sizes].concat(),
            [&["check", "--emulate"][..], &sizes].concat(),
        ];
        let invalid = [&m, &n, &k].iter().any(|s| s.parse::<u64>().ok().filter(|&v| (1..=i32::MAX as u64).contains(&v)).is_none());
        if invalid {
            commands.push(vec!["bench", "--sizes", &shape]);
            commands.push(vec!["tune", "--size", &shape]);
        }
        for args in commands {
            let out = rgemm(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            prop_assert_eq!(out.status.code(), Some(2), "{:?}: {}", args, stderr);
            prop_assert_eq!(stderr.trim_end().lines().count(), 1, "{:?}: {}", args, stderr);
            prop_assert!(!stderr.contains("panicked") && !stderr.contains("internal error"), "{:?}: {}", args, stderr);
        }
    }
}

#[test]
fn list_names_what_best_tries() {
    let out = rgemm(&["list", "--no-ptxas"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with("--kernel best ")).expect("a line for best");
    let first_f32 = rgemm::choice::best_candidates(rgemm::catalog::Dtype::F32)[0].name();
    assert!(line.contains(first_f32), "{line}");
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rgemm-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn chart_draws_a_report_without_a_gpu() {
    use rgemm_tools::report::{self, DeviceRecord, KernelRecord, Outcome, Report, RunRecord, SizeRecord, Stats};
    let stats = |ms: f64, tflops: f64| Stats { samples_ms: vec![ms; 3], rounds_ms: vec![ms; 3], median_ms: ms, min_ms: ms, max_ms: ms, spread: 0.0, tflops };
    let report = Report {
        schema: report::SCHEMA,
        command: "bench".into(),
        rgemm_version: "0.1.0".into(),
        git_commit: None,
        date_utc: "2026-11-22T00:00:00Z".into(),
        device: DeviceRecord {
            name: "Test GPU".into(),
            compute_capability: "9.0".into(),
            multiprocessors: 132,
            clock_mhz: 1980.0,
            l2_bytes: 50 << 20,
            memory_bytes: 80 << 30,
            driver_cuda_version: None,
            peak_tflops: 66.9,
            peak_formula: "fp32".into(),
            memory_gbps: None,
        },
        dtype: "f32".into(),
        out_dtype: "f32".into(),
        epilogue: "none".into(),
        warmup: 1,
        iters: 3,
        l2_flush_bytes: 0,
        timing: "in turn".into(),
        seed: 1,
        kernels: vec![KernelRecord { name: KERNEL.into(), rung: 3, label: "r3".into() }],
        sizes: vec![SizeRecord {
            layout: None,
            batch: None,
            class: None,
            cublas_classic: None,
            cublas_lt: None,
            m: 1024,
            n: 1024,
            k: 1024,
            skipped: None,
            cublas: Some(stats(0.05, 42.9)),
            cublas_error: None,
            no_baseline: None,
            runs: vec![RunRecord { kernel: KERNEL.into(), outcome: Outcome::Pass, timing: Some(stats(0.3, 7.2)), check: None, note: None }],
        }],
    };
    let dir = temp_dir("chart");
    let input = dir.join("results.json");
    report.write_json(&input).unwrap();
    let out = rgemm(&["chart", "--input", input.to_str().unwrap(), "--out", dir.join("charts").to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(dir.join("charts/chart.svg")).unwrap();
    assert!(svg.contains("Test GPU") && svg.contains("cuBLAS 42.90") && svg.contains("7.20"), "chart.svg lacks the data");
    // The font is embedded: the PNG is always written.
    assert!(dir.join("charts/chart.png").is_file() && stdout.contains("chart.png"), "{stdout}");
    // Bad input: missing file, not JSON.
    assert!(error_line(&["chart", "--input", dir.join("nope.json").to_str().unwrap()]).contains("cannot read"));
    std::fs::write(dir.join("bad.json"), "[1, 2]").unwrap();
    assert!(error_line(&["chart", "--input", dir.join("bad.json").to_str().unwrap()]).contains("invalid report"));
    error_line(&["chart"]);
    // A speed no GPU reaches would make the axis infinite: refused before drawing.
    let mut absurd = report.clone();
    absurd.sizes[0].cublas = Some(stats(0.05, 1.7e308));
    absurd.write_json(&dir.join("absurd.json")).unwrap();
    assert!(error_line(&["chart", "--input", dir.join("absurd.json").to_str().unwrap()]).contains("not a measurement"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_of_the_whole_catalog_skips_what_the_size_excludes() {
    // 67×45×33: the copy-engine kernels need N and K multiples of 4 (8 for bf16); they are
    // skipped with a reason, every other kernel is checked on the emulator and passes.
    let out = rgemm(&["check", "--emulate"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.lines().any(|l| l.starts_with("SKIPPED ") && l.contains("16-byte-aligned rows")), "{stdout}");
    assert!(stdout.contains(" 0 failed"), "{stdout}");
    // A named kernel that cannot run the size is an error, not a skip.
    let e = error_line(&["check", "--emulate", "--kernel", "sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa"]);
    assert!(e.contains("cannot run this problem"), "{e}");
}

/// The general kernel of f32 in layout nn: it applies every output type and epilogue itself.
const FUSING: &str = "sgemm_00_general_16x16x16";

#[test]
fn check_and_run_take_an_output_type_and_an_epilogue_on_the_emulator() {
    // A kernel that applies the epilogue itself: C (and the auxiliary output) against f64
    // through the same epilogue.
    let out = rgemm(&["check", "--emulate", "--kernel", FUSING, "--out-dtype", "bf16", "--epilogue", "bias-gelu"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("out=bf16 bias=columns act=gelu-tanh") && stdout.contains("PASS: C: ") && stdout.contains("1 passed, 0 failed"), "{stdout}");
    let out = rgemm(&["run", "--emulate", "--kernel", "bgemm_00_general_16x16x16_nt", "--layout", "nt", "--m", "37", "--n", "29", "--k", "21", "--out-dtype", "f16", "--epilogue", "row-bias-silu-aux"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("check    PASS: C: ") && stdout.contains("auxiliary output: "), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    // The whole catalog: the kernels that leave the epilogue to the GPU's epilogue pass are
    // skipped with the reason, the rest pass.
    let out = rgemm(&["check", "--emulate", "--out-dtype", "bf16", "--epilogue", "bias-gelu"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.lines().any(|l| l.starts_with("SKIPPED ") && l.contains("no epilogue pass")), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with(FUSING) && l.contains("PASS: C: ")) && stdout.contains(" 0 failed"), "{stdout}");
    // A named kernel that does not apply it is an error on the emulator, or a skip when asked.
    for command in ["run", "check"] {
        let e = error_line(&[command, "--emulate", "--kernel", KERNEL, "--m", "64", "--n", "64", "--k", "64", "--epilogue", "relu"]);
        assert!(e.contains("emulator has no epilogue pass") && e.contains("leave out --emulate"), "{e}");
    }
    let out = rgemm(&["check", "--emulate", "--kernel", KERNEL, "--epilogue", "relu", "--skip-unsupported"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains(&format!("SKIPPED {KERNEL}")) && stdout.contains("0 passed, 0 failed"), "{stdout}");
}

#[test]
fn bad_output_types_and_epilogues_are_one_line() {
    for command in [&["run", "--kernel", KERNEL][..], &["check"], &["bench"]] {
        assert!(error_line(&[command, &["--epilogue", "frob"]].concat()).contains("'frob' is no epilogue"));
        assert!(error_line(&[command, &["--epilogue", "none-aux"]].concat()).contains("is no epilogue"));
        assert!(error_line(&[command, &["--out-dtype", "f64"]].concat()).contains("not an element type"));
    }
    // Every kernel that takes any alignment (the GEMVs among them) applies the epilogue itself:
    // a named one plans on the CPU and stops only for want of a GPU.
    let gemv = "bgemm_00_gemv_16x8x256_nt";
    assert_no_gpu_sentence(&rgemm_without_gpu(&["bench", "--kernel", gemv, "--epilogue", "bias-gelu", "--sizes", "16x4096x4096:nt"]));
    for command in ["run", "check"] {
        assert_no_gpu_sentence(&rgemm_without_gpu(&[command, "--kernel", gemv, "--layout", "nt", "--m", "16", "--n", "64", "--k", "64", "--epilogue", "relu"]));
    }
    // Kernels that can take it (by themselves or by the epilogue pass) need the GPU: one line.
    for args in [
        &["check", "--kernel", KERNEL, "--out-dtype", "bf16", "--epilogue", "bias-gelu"][..],
        &["check", "--kernel", FUSING, "--out-dtype", "f16", "--epilogue", "row-bias-silu-aux"],
        &["bench", "--dtype", "bf16", "--out-dtype", "bf16", "--epilogue", "bias-gelu", "--sizes", "64"],
        &["bench", "--kernel", KERNEL, "--epilogue", "bias-gelu", "--sizes", "64"],
        &["run", "--kernel", KERNEL, "--m", "64", "--n", "64", "--k", "64", "--out-dtype", "bf16", "--epilogue", "bias-gelu"],
    ] {
        assert_no_gpu_sentence(&rgemm_without_gpu(args));
    }
}

#[test]
#[ignore = "needs a GPU"]
fn check_and_bench_run_an_output_type_and_an_epilogue_on_the_gpu() {
    let out = rgemm(&["check", "--kernel", KERNEL, "--kernel", FUSING, "--out-dtype", "bf16", "--epilogue", "bias-gelu"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("2 passed, 0 failed") && stdout.contains("PASS: C: "), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    // bf16 into bf16 with a bias and GELU: cuBLASLt fuses it, so each size has a baseline.
    let dir = temp_dir("bench-epilogue");
    let out = rgemm(&["bench", "--dtype", "bf16", "--out-dtype", "bf16", "--epilogue", "bias-gelu", "--sizes", "256,256x384x128", "--iters", "2", "--warmup", "1", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let report = rgemm_tools::report::Report::read(&dir.join("results.json")).unwrap();
    assert_eq!((report.out_dtype.as_str(), report.epilogue.as_str()), ("bf16", "bias-gelu-tanh"));
    assert!(report.sizes.iter().all(|s| s.cublas_lt.is_some() && s.cublas_classic.is_none() && s.no_baseline.is_none()), "{:?}", report.sizes);
    assert!(report.sizes.iter().flat_map(|s| &s.runs).all(|r| r.outcome == rgemm_tools::report::Outcome::Pass), "{:?}", report.sizes);
    // SiLU: cuBLAS has no such epilogue, so no ratio, and that is no failure.
    let out = rgemm(&["bench", "--kernel", KERNEL, "--epilogue", "bias-silu", "--sizes", "256", "--iters", "2", "--warmup", "1", "--out", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("none: no cuBLAS baseline"), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let report = rgemm_tools::report::Report::read(&dir.join("results.json")).unwrap();
    assert!(report.sizes[0].no_baseline.is_some() && report.sizes[0].cublas.is_none() && report.failures() == 0, "{:?}", report.sizes);
    std::fs::remove_dir_all(&dir).ok();
}
