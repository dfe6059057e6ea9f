//! The PTX module, checked without a GPU: every catalog kernel is an entry, nothing is left
//! unresolved, and ptxas assembles each entry for sm_90a with no spills and no stack frame.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use rgemm::{catalog, ptx};

#[test]
fn entries_and_catalog_are_the_same_set() {
    let entries: BTreeSet<&str> = ptx::entry_names(ptx::PTX).into_iter().filter(|n| !n.starts_with("lesson_")).collect();
    let catalog: BTreeSet<&str> = catalog::all().map(|k| k.name()).collect();
    assert_eq!(entries, catalog, "PTX entries and catalog differ");
}

#[test]
fn no_unresolved_functions_or_calls() {
    for line in ptx::PTX.lines() {
        assert!(!line.trim_start().starts_with(".extern .func"), "undefined function: {line}");
    }
    // Everything is inlined into the entries; a call means a helper of `core` (a panic path, a
    // bounds check) survived, which costs registers and hides a bug.
    let calls: Vec<&str> = ptx::PTX.lines().filter(|l| l.trim_start().starts_with("call")).collect();
    assert!(calls.is_empty(), "kernels make {} calls, e.g. {:?}", calls.len(), &calls[..calls.len().min(3)]);
}

#[test]
fn launch_bounds_are_added_to_every_entry() {
    let bounded = ptx::with_launch_bounds(ptx::PTX);
    assert_eq!(bounded.matches(".maxntid").count(), catalog::all().count());
}

/// ptxas from the `nvidia-cuda-nvcc` wheel (or `RGEMM_PTXAS`, or `ptxas` on PATH).
fn find_ptxas() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("RGEMM_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let from_wheel = Command::new("python3")
        .args(["-c", "import nvidia, os; print([os.path.join(p, 'cu13', 'bin', 'ptxas') for p in nvidia.__path__][0])"])
        .output()
        .ok()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .filter(|p| p.is_file());
    from_wheel.or_else(|| {
        Command::new("ptxas").arg("--version").output().ok().filter(|o| o.status.success()).map(|_| PathBuf::from("ptxas"))
    })
}

/// Resources of one entry as ptxas reports them.
#[derive(Debug, Default)]
struct Resources {
    registers: u32,
    stack_bytes: u32,
    spill_bytes: u32,
}

fn parse_ptxas(report: &str) -> Vec<(String, Resources)> {
    let mut out: Vec<(String, Resources)> = Vec::new();
    let number_before = |line: &str, word: &str| -> u32 {
        let idx = line.find(word).unwrap();
        line[..idx].split_whitespace().last().unwrap().parse().unwrap()
    };
    for line in report.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            out.push((rest.split('\'').next().unwrap().to_string(), Resources::default()));
        } else if let Some((_, r)) = out.last_mut() {
            if line.contains("bytes stack frame") {
                r.stack_bytes = number_before(line, "bytes stack frame");
                r.spill_bytes = number_before(line, "bytes spill stores") + number_before(line, "bytes spill loads");
            } else if line.contains("Used") && line.contains("registers") {
                r.registers = number_before(line, "registers");
            }
        }
    }
    out
}

#[test]
fn ptxas_assembles_every_entry_without_spills_or_stack() {
    let Some(ptxas) = find_ptxas() else {
        let msg = "ptxas not found (pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS)";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}: CI must check the PTX");
        }
        common::say(&format!("SKIPPED ptxas_assembles_every_entry_without_spills_or_stack: {msg}"));
        return;
    };
    let dir = std::env::temp_dir().join(format!("rgemm-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kernels.ptx");
    std::fs::write(&file, ptx::with_launch_bounds(ptx::PTX)).unwrap();
    // A copy of the PTX as loaded (launch bounds included), e.g. to assemble it with the GPU
    // machine's own ptxas, whose register counts are closer to its driver's JIT.
    if let Ok(copy) = std::env::var("RGEMM_WRITE_PTX") {
        std::fs::write(copy, ptx::with_launch_bounds(ptx::PTX)).unwrap();
    }
    let out = Command::new(&ptxas).args(["-arch=sm_90a", "-v", "-o"]).arg(dir.join("kernels.cubin")).arg(&file).output().expect("run ptxas");
    let report = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "ptxas failed:\n{report}");
    assert!(!report.contains("warning"), "ptxas warned:\n{report}");
    let entries = parse_ptxas(&report);
    assert_eq!(entries.len(), ptx::entry_names(ptx::PTX).len(), "ptxas reported a different number of entries:\n{report}");
    let report_filter = std::env::var("RGEMM_PTXAS_REPORT").ok();
    for (name, r) in &entries {
        if let Some(f) = &report_filter {
            if name.contains(f.as_str()) {
                common::say(&format!("{name}: {} registers, {} stack, {} spill bytes", r.registers, r.stack_bytes, r.spill_bytes));
            }
        }
        assert_eq!(r.spill_bytes, 0, "{name} spills: {r:?}");
        assert_eq!(r.stack_bytes, 0, "{name} has a stack frame (a register array in local memory?): {r:?}");
        assert!(r.registers > 0, "{name}: no register count parsed");
    }
}
