//! The PTX module, checked without a GPU: every catalog kernel is an entry, nothing is left
//! unresolved, and ptxas assembles each entry for sm_90a with no spills and no stack frame.

mod common;

use std::collections::BTreeSet;
use rgemm::{catalog, ptx};

#[test]
fn entries_and_catalog_are_the_same_set() {
    let entries: BTreeSet<&str> = ptx::entry_names(ptx::PTX).into_iter().filter(|n| !n.starts_with("lesson_") && catalog::helper_threads(n).is_none()).collect();
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
    assert_eq!(bounded.matches(".maxntid").count(), catalog::all().count() + catalog::HELPER_ENTRIES.len());
}

/// The whole module as the host loads it (launch bounds included), assembled once for the tests
/// of this file, from the report the other tests of the assembled module share
/// (`loaded_module_assembly`: cached by the PTX's key).
fn whole_module(ptxas: &std::path::Path) -> &'static rgemm_tools::ptxas::Assembly {
    static WHOLE: std::sync::OnceLock<rgemm_tools::ptxas::Assembly> = std::sync::OnceLock::new();
    WHOLE.get_or_init(|| {
        let version = rgemm_tools::ptxas::ptxas_version(ptxas).unwrap_or_else(|e| panic!("{e}"));
        rgemm_tools::ptxas::loaded_module_assembly(ptxas, &version, || {}).unwrap_or_else(|e| panic!("{e}"))
    })
}

#[test]
fn ptxas_assembles_every_entry_without_spills_or_stack() {
    // ptxas is a requirement of the tests (README): missing, this fails rather than skips.
    let ptxas = rgemm_tools::ptxas::find_ptxas().expect("ptxas not found: pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS");
    let bounded = ptx::with_launch_bounds(ptx::PTX);
    // RGEMM_DUMP_PTX=path keeps a copy of what ptxas reads (e.g. to assemble it on the GPU
    // machine and check the SASS with cuobjdump).
    if let Ok(path) = std::env::var("RGEMM_DUMP_PTX") {
        std::fs::write(path, &bounded).unwrap();
    }
    let assembly = whole_module(&ptxas);
    let report = &assembly.report;
    assert!(!report.contains("warning"), "ptxas warned:\n{report}");
    let entries = &assembly.entries;
    assert_eq!(entries.len(), ptx::entry_names(ptx::PTX).len(), "ptxas reported a different number of entries:\n{report}");
    let report_filter = std::env::var("RGEMM_PTXAS_REPORT").ok();
    for (name, r) in entries {
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

#[test]
fn a_ptxas_report_is_read_entry_by_entry() {
    let report = "ptxas info    : Compiling entry function 'k_one' for 'sm_90a'\n\
ptxas info    : Function properties for k_one\n\
    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n\
ptxas info    : Used 168 registers, used 1 barriers\n\
ptxas info    : Compiling entry function 'k_two' for 'sm_90a'\n\
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
ptxas info    : Used 40 registers\n";
    let entries = rgemm_tools::ptxas::parse_report(report);
    assert_eq!(
        entries,
        vec![
            ("k_one".to_string(), rgemm_tools::ptxas::Resources { registers: 168, stack_bytes: 16, spill_bytes: 12 }),
            ("k_two".to_string(), rgemm_tools::ptxas::Resources { registers: 40, stack_bytes: 0, spill_bytes: 0 }),
        ]
    );
}

/// The GPU loads each entry as a module of its own (`ptx::entry_module`): each holds the header
/// and exactly its entry, with its launch bounds, and ptxas assembles it to the same registers as
/// in the whole module.
#[test]
fn every_entry_stands_alone_in_its_module() {
    let names = ptx::entry_names(ptx::PTX);
    for &name in &names {
        let module = ptx::entry_module(ptx::PTX, name).unwrap_or_else(|| panic!("no module for {name}"));
        assert_eq!(ptx::entry_names(&module), vec![name], "{name}'s module holds other entries");
        assert!(module.contains(".target sm_90a") && module.contains(".extern .shared"), "{name}'s module lacks the header");
        let bounded = catalog::find(name).is_ok() || catalog::helper_threads(name).is_some();
        assert_eq!(module.contains(".maxntid"), bounded, "{name}: launch bounds exactly for catalog and helper kernels");
    }
    assert!(ptx::entry_module(ptx::PTX, "no_such_entry").is_none());
    // The first entry, one from the middle and the last (which runs to the end of the PTX).
    let ptxas = rgemm_tools::ptxas::find_ptxas().expect("ptxas not found: pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS");
    let whole = &whole_module(&ptxas).entries;
    for name in [names[0], names[names.len() / 2], names[names.len() - 1]] {
        let alone = rgemm_tools::ptxas::assemble(&ptxas, &ptx::entry_module(ptx::PTX, name).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}")).entries;
        assert_eq!(alone.len(), 1, "{name}");
        let whole_r = whole.iter().find(|(n, _)| n == name).map(|(_, r)| *r);
        assert_eq!(Some(alone[0].1), whole_r, "{name}: assembled alone and in the module");
    }
}
