//! Every launch passes exactly the parameters of the PTX entry it launches. cudarc does not count
//! them and `cuLaunchKernel` reads as many as the entry declares, so one missing argument is
//! undefined behaviour that may still pass every other test. The sources are read at compile
//! time (`include_str!`), so this runs wherever the test binary does.

use rgemm::{catalog, ptx};

/// Parameters of entry `name` in the shipped PTX (`.param` lines of its signature).
fn params(name: &str) -> usize {
    let start = ptx::PTX.find(&format!(".visible .entry {name}(")).unwrap_or_else(|| panic!("no entry {name} in the PTX"));
    let signature = &ptx::PTX[start..];
    let end = signature.find(')').expect("an entry's parameter list ends");
    signature[..end].lines().filter(|l| l.trim_start().starts_with(".param")).count()
}

/// The arguments of the one `kernel_args![...]` in function `function` of `source`.
fn kernel_args_in(source: &str, function: &str) -> usize {
    let start = source.find(&format!("fn {function}(")).unwrap_or_else(|| panic!("no fn {function}"));
    let body = &source[start..];
    let body = &body[..body.find("\n    }\n").unwrap_or(body.len())];
    let args = body.find("kernel_args![").map(|i| &body[i + "kernel_args![".len()..]).unwrap_or_else(|| panic!("{function} passes no kernel_args!"));
    let args = &args[..args.find(']').expect("kernel_args! closes")];
    args.split(',').filter(|a| !a.trim().is_empty()).count()
}

#[test]
fn the_library_passes_every_entry_its_parameters() {
    let gpu = include_str!("../src/gpu.rs");
    // Every launch of the library, and the entries each may launch. A launch added without a row
    // here fails the count below.
    let gemm: Vec<&str> = catalog::all().map(|k| k.name()).collect();
    let launches: [(&str, Vec<&str>); 4] = [
        ("launch_product", gemm),
        ("split_a", vec!["split_tf32_rows", "split_tf32_transposed"]),
        ("copy_rows", vec!["copy_rows_b8", "copy_rows_b16", "copy_rows_b32"]),
        ("reduce_splits", vec!["reduce_splits"]),
    ];
    assert_eq!(gpu.matches("kernel_args![").count(), launches.len(), "every kernel_args! of src/gpu.rs has a row here");
    for (function, entries) in &launches {
        let passed = kernel_args_in(gpu, function);
        for entry in entries {
            assert_eq!(passed, params(entry), "{function} passes {passed} arguments to {entry}");
        }
    }
}

#[test]
fn the_first_example_passes_every_parameter() {
    let example = include_str!("../examples/first_kernel.rs");
    let name = "sgemm_01_naive_32x32x1";
    assert!(example.contains(&format!("catalog::find(\"{name}\")")), "the example launches {name}");
    assert_eq!(example.matches(".arg(").count(), params(name), "examples/first_kernel.rs (and the book's first launch, which includes it)");
}

#[test]
fn the_parameter_count_reads_the_signature() {
    // Every catalog entry has the same parameter list: the library's one GEMM launch.
    let counts: std::collections::BTreeSet<usize> = catalog::all().map(|k| params(k.name())).collect();
    assert_eq!(counts.len(), 1, "{counts:?}");
    assert!(params("reduce_splits") != params("copy_rows_b16"), "different entries, different lists");
}
