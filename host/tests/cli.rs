//! The command line's answers to bad input: one line on stderr, a non-zero exit, no panic.

use std::process::{Command, Output};

fn rgemm(args: &[&str]) -> Output {
    let bin = std::env::var("RGEMM_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_rgemm").to_string());
    Command::new(bin).args(args).output().expect("run rgemm")
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
    error_line(&["run", "--kernal", KERNEL]);
    error_line(&["run"]);
    error_line(&["frobnicate"]);
}

#[test]
fn no_gpu_is_a_sentence_not_a_panic() {
    let out = rgemm(&["run", "--kernel", KERNEL, "--m", "64", "--n", "64", "--k", "64"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        // A GPU is present: the run itself must have passed its check.
        assert!(String::from_utf8_lossy(&out.stdout).contains("PASS"));
        return;
    }
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("a CUDA GPU and its driver are needed") || stderr.contains("Hopper"), "{stderr}");
}

#[test]
fn list_shows_every_rung() {
    let out = rgemm(&["list"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for rung in ["naive", "coalesced", "smem_tiling"] {
        assert!(text.contains(rung), "{rung} missing from list");
    }
}

#[test]
fn emulate_runs_a_kernel_without_a_gpu() {
    let out = rgemm(&["run", "--emulate", "--kernel", KERNEL, "--m", "33", "--n", "47", "--k", "31"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("CPU emulator") && stdout.contains("no cuBLAS") && stdout.contains("check    PASS"), "{stdout}");
}

#[test]
fn emulate_checks_every_kernel() {
    let out = rgemm(&["check", "--emulate", "--m", "35", "--n", "19", "--k", "40"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
