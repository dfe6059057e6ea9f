//! The PTX module built by `build.rs` from `kernels-gpu`, and the launch bounds added to it.
//!
//! rustc has no attribute for `__launch_bounds__`, so without help ptxas would budget registers
//! for a block of unknown size. The catalog knows each kernel's block size; [`with_launch_bounds`]
//! writes it into the PTX as `.maxntid` before the module is loaded (and before the CI's ptxas
//! check), so the assembler compiles each entry for exactly its block.

use crate::catalog;

/// The PTX of every kernel, as rustc wrote it.
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

/// Names of the `.entry` functions in `ptx`.
pub fn entry_names(ptx: &str) -> Vec<&str> {
    ptx.lines().filter_map(entry_name).collect()
}

fn entry_name(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix(".visible .entry ")?;
    Some(rest.split('(').next()?.trim())
}

/// `ptx` with `.maxntid <threads>, 1, 1` after the parameter list of every catalog entry, and
/// `.minnctapersm <blocks>` where the kernel asks for a number of resident blocks per SM, and
/// `.reqnctapercluster 1, <c>, 1` for a kernel launched in clusters.
// ANCHOR: with_launch_bounds
pub fn with_launch_bounds(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len() + 4096);
    let mut pending: Option<(u32, u32, u32)> = None;
    for line in ptx.lines() {
        out.push_str(line);
        out.push('\n');
        if let Some(name) = entry_name(line) {
            pending = catalog::find(name).ok().map(|k| (k.spec.threads, k.spec.min_blocks_per_sm, k.spec.cluster_m));
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
