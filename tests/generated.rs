//! The files the library ships so that a dependent builds on stable Rust (the PTX module and the
//! catalog of kernel specifications) are what the current kernels give: a kernel changed without
//! `cargo run --release -p host -- generate` fails here.

use std::path::Path;

#[test]
fn the_shipped_ptx_and_catalog_are_current() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (rel, contents) in rgemm_tools::generate::files() {
        let committed = std::fs::read_to_string(repo.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert!(committed == contents, "{rel} differs from what the current kernels give: run `cargo run --release -p host -- generate` and commit it");
    }
}

#[test]
fn the_shipped_catalog_is_the_kernels_catalog() {
    // What the library reads (src/entries.rs through the catalog) is what kernels-gpu declares.
    let shipped: Vec<_> = rgemm::catalog::all().map(|k| *k.spec).collect();
    let declared: Vec<_> = kernels_gpu::CATALOG.iter().flat_map(|r| r.iter()).copied().collect();
    assert_eq!(shipped, declared);
}
