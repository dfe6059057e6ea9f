//! ptxas's performance notes on the wgmma kernels (rungs 13 and 14), pinned.
//!
//! `ptxas -v` prints, besides resources, numbered notes about code it changed. One is expected:
//! `(C7517) wgmma.wait_group is injected ... to allow use of registers defined by GMMA`, on
//! exactly the kernels whose epilogue stores C through the copy engine (`_tmast`). There the
//! consumer and producer paths join before the final `cp.async.bulk.wait_group.read`, and ptxas
//! cannot prove on every path into that join that no `wgmma` still writes the accumulator
//! registers, so it adds a `wgmma.wait_group` of its own. The kernel has already waited for every
//! group (`wgmma_wait_group::<0>()` before the epilogue), so the added wait finds nothing in
//! flight. Any other note on these kernels (C7508 `setmaxnreg` ignored, C7518 wgmma serialized,
//! or C7517 on another kernel) costs real performance and fails here.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use rgemm::catalog;

/// `(code, function)` of every numbered note in a ptxas report.
fn notes(report: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in report.lines() {
        let Some(open) = line.find("(C") else { continue };
        let Some(close) = line[open..].find(')') else { continue };
        let code = line[open + 1..open + close].to_string();
        let function = line.split('\'').nth(1).unwrap_or("").to_string();
        out.push((code, function));
    }
    out
}

#[test]
fn the_note_parser_reads_code_and_function() {
    let report = "ptxas info    : (C7517) wgmma.wait_group is injected in around line 12 by compiler to allow use of registers defined by GMMA in function 'k_a'\n\
ptxas info    : Compiling entry function 'k_a' for 'sm_90a'\n";
    assert_eq!(notes(report), vec![("C7517".to_string(), "k_a".to_string())]);
}

#[test]
fn wgmma_kernels_have_only_the_expected_ptxas_notes() {
    // ptxas is a requirement of the tests (README): missing, this fails rather than skips.
    let ptxas = rgemm_tools::ptxas::find_ptxas().expect("ptxas not found: pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS");
    let wgmma: Vec<&str> = catalog::all().filter(|k| k.spec.rung.number >= 13).map(|k| k.name()).collect();
    assert!(!wgmma.is_empty());
    // The whole module's report, shared with tests/ptx.rs (cached by the PTX's key); the notes
    // of the wgmma kernels read from it.
    let version = rgemm_tools::ptxas::ptxas_version(&ptxas).unwrap_or_else(|e| panic!("{e}"));
    let report = rgemm_tools::ptxas::loaded_module_assembly(&ptxas, &version, || {}).unwrap_or_else(|e| panic!("{e}")).report;
    let mut by_code: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (code, function) in notes(&report).into_iter().filter(|(_, f)| wgmma.contains(&f.as_str())) {
        by_code.entry(code).or_default().insert(function);
    }
    // The TMA-store kernels get an injected wait, except the stream-K ones (ptxas injects none
    // there) and rung 16's that flush every K-tile (they wait for every group themselves).
    let tmast: BTreeSet<String> = catalog::all()
        .filter(|k| k.name().contains("_tmast") && k.spec.stream_k.is_none() && k.spec.variant != rgemm_spec::Variant::Fp8(1))
        .map(|k| k.name().to_string())
        .collect();
    assert!(!tmast.is_empty(), "the catalog has _tmast kernels");
    let expected: BTreeMap<String, BTreeSet<String>> = [("C7517".to_string(), tmast)].into_iter().collect();
    assert_eq!(by_code, expected, "ptxas notes on the wgmma kernels changed:\n{report}");
}
