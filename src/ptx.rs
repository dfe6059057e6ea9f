//! The PTX module (shipped in `ptx/kernels.ptx`, or built by `build.rs` from `kernels-gpu` with the
//! `build-ptx` feature), and the launch bounds added to it.
//!
//! rustc has no attribute for `__launch_bounds__`, so without help ptxas would budget registers
//! for a block of unknown size. The catalog knows each kernel's block size (and the helpers');
//! [`with_launch_bounds`] writes it into the PTX as `.maxntid` before the module is loaded (and
//! before the CI's ptxas check), so the assembler compiles each entry for exactly its block.
//!
//! The module is text compiled into the binary; nothing here runs until a kernel is loaded, and
//! adding the bounds is one pass over the text. A [`Gpu`](crate::Gpu) loads each entry it uses
//! from it, so a program that depends on rgemm needs neither nightly Rust nor CUDA to build.

use crate::catalog;

/// The PTX of every kernel, as rustc wrote it: the shipped module, or with the `build-ptx`
/// feature the one `build.rs` just compiled from `kernels-gpu`.
///
/// ```rust
/// use rgemm::ptx::PTX;
///
/// assert!(PTX.contains(".target sm_90a"));
/// assert!(PTX.contains(".visible .entry sgemm_01_naive_32x32x1("));
/// ```
#[cfg(not(feature = "build-ptx"))]
pub const PTX: &str = include_str!("../ptx/kernels.ptx");
/// The PTX of every kernel, as rustc wrote it: the shipped module, or with the `build-ptx`
/// feature the one `build.rs` just compiled from `kernels-gpu`.
///
/// ```rust
/// use rgemm::ptx::PTX;
///
/// assert!(PTX.contains(".target sm_90a"));
/// assert!(PTX.contains(".visible .entry sgemm_01_naive_32x32x1("));
/// ```
#[cfg(feature = "build-ptx")]
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

/// Names of the `.entry` functions in `ptx`: every catalog kernel, the helpers a plan launches
/// around them, and the book's lessons.
///
/// ```rust
/// use rgemm::{catalog, ptx};
///
/// let entries = ptx::entry_names(ptx::PTX);
/// assert!(catalog::all().all(|k| entries.contains(&k.name())));
/// ```
pub fn entry_names(ptx: &str) -> Vec<&str> {
    ptx.lines().filter_map(entry_name).collect()
}

fn entry_name(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix(".visible .entry ")?;
    Some(rest.split('(').next()?.trim())
}

/// `ptx` with `.maxntid <threads>, 1, 1` after the parameter list of every catalog and helper
/// entry (the split-K sum, the row copies and the splits of A a plan launches), and
/// `.minnctapersm <blocks>` where the kernel asks for a number of resident blocks per SM, and
/// `.reqnctapercluster 1, <c>, 1` for a kernel launched in clusters. This is the text the
/// driver compiles (`examples/bounded_ptx.rs` prints it, for `ptxas` by hand).
///
/// ```rust
/// use rgemm::ptx;
///
/// let bounded = ptx::with_launch_bounds(ptx::PTX);
/// assert!(!ptx::PTX.contains(".maxntid") && bounded.contains(".maxntid 1024, 1, 1"));
/// assert_eq!(ptx::entry_names(&bounded), ptx::entry_names(ptx::PTX));
/// ```
// ANCHOR: with_launch_bounds
pub fn with_launch_bounds(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len() + 4096);
    let mut pending: Option<(u32, u32, u32)> = None;
    for line in ptx.lines() {
        out.push_str(line);
        out.push('\n');
        if let Some(name) = entry_name(line) {
            pending = catalog::find(name).ok().map(|k| (k.spec.threads, k.spec.min_blocks_per_sm, k.spec.cluster_m)).or_else(|| catalog::helper_threads(name).map(|t| (t, 0, 1)));
        }
        if line.trim() == ")" {
            if let Some((threads, blocks, cluster_m)) = pending.take() {
                out.push_str(&format!(".maxntid {threads}, 1, 1\n"));
                if blocks > 0 {
                    out.push_str(&format!(".minnctapersm {blocks}\n"));
                }
                if cluster_m > 1 {
                    out.push_str(&format!(".reqnctapercluster 1, {cluster_m}, 1\n"));
                }
            }
        }
    }
    out
}
// ANCHOR_END: with_launch_bounds

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The module of the one entry `name` of `ptx`: the PTX's header (version, target, the
/// dynamic shared memory's declaration) and that entry, with its launch bounds
/// ([`with_launch_bounds`]); `None` if `ptx` has no such entry. The entries call no function
/// (`tests/ptx.rs`), so each stands alone. Loading one entry at a time lets the driver compile only
/// the kernels a process uses, where the whole module made a machine's first load compile all of
/// them (the first load of a fresh machine took minutes); the driver caches what it compiled
/// either way.
pub fn entry_module(ptx: &str, name: &str) -> Option<String> {
    const ENTRY: &str = ".visible .entry ";
    let start = ptx.find(&format!("{ENTRY}{name}("))?;
    let end = ptx[start + ENTRY.len()..].find(ENTRY).map_or(ptx.len(), |i| start + ENTRY.len() + i);
    let header_end = [ptx.find(".visible .func"), ptx.find(ENTRY)].into_iter().flatten().min()?;
    Some(with_launch_bounds(&format!("{}{}", &ptx[..header_end], &ptx[start..end])))
}
