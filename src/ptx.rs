//! The PTX module built by `build.rs` from `kernels-gpu`, and the launch bounds added to it.
//!
//! rustc has no attribute for `__launch_bounds__`, so without help ptxas would budget registers
//! for a block of unknown size. The catalog knows each kernel's block size (and the helpers');
//! [`with_launch_bounds`] writes it into the PTX as `.maxntid` before the module is loaded (and
//! before the CI's ptxas check), so the assembler compiles each entry for exactly its block.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::catalog;
use crate::error::{Error, Result};

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

/// `ptx` with `.maxntid <threads>, 1, 1` after the parameter list of every catalog and helper
/// entry ([`catalog::helper_threads`]), and
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

/// The module of the one entry `name` of `ptx`: the PTX's header (version, target, the
/// dynamic shared memory's declaration) and that entry, with its launch bounds
/// ([`with_launch_bounds`]); `None` if `ptx` has no such entry. The entries call no function
/// (`tests/ptx.rs`), so each stands alone. Loading one entry at a time lets the driver compile only
/// the kernels a process uses, where the whole module made a machine's first load compile all of
/// them (measured in `docs/perf/2026-11-27-h100.md`, runs 114 and 115); the driver caches what it
/// compiled either way.
pub fn entry_module(ptx: &str, name: &str) -> Option<String> {
    const ENTRY: &str = ".visible .entry ";
    let start = ptx.find(&format!("{ENTRY}{name}("))?;
    let end = ptx[start + ENTRY.len()..].find(ENTRY).map_or(ptx.len(), |i| start + ENTRY.len() + i);
    let header_end = [ptx.find(".visible .func"), ptx.find(ENTRY)].into_iter().flatten().min()?;
    Some(with_launch_bounds(&format!("{}{}", &ptx[..header_end], &ptx[start..end])))
}

/// Registers and local memory of one entry as ptxas assembles it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Resources {
    pub registers: u32,
    /// Bytes of stack frame per thread (a register array that went to local memory).
    pub stack_bytes: u32,
    /// Bytes of spill stores plus spill loads per thread.
    pub spill_bytes: u32,
}

impl Resources {
    /// Local memory per thread: the stack frame plus spills.
    pub fn local_bytes(&self) -> u32 {
        self.stack_bytes + self.spill_bytes
    }
}

/// What ptxas said about a module: each entry's resources, and the whole report (for warnings).
#[derive(Debug)]
pub struct Assembly {
    pub entries: Vec<(String, Resources)>,
    pub report: String,
}

/// ptxas: `$RGEMM_PTXAS`, else the one of the `nvidia-cuda-nvcc` wheel, else `ptxas` on PATH.
pub fn find_ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RGEMM_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let from_wheel = Command::new("python3")
        .args(["-c", "import nvidia, os; print([os.path.join(p, 'cu13', 'bin', 'ptxas') for p in nvidia.__path__][0])"])
        .output()
        .ok()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .filter(|p| p.is_file());
    from_wheel.or_else(|| Command::new("ptxas").arg("--version").output().ok().filter(|o| o.status.success()).map(|_| PathBuf::from("ptxas")))
}

/// The release of `ptxas` as it prints it (`13.5, V13.5.37`).
pub fn ptxas_version(ptxas: &Path) -> Result<String> {
    let out = Command::new(ptxas).arg("--version").output().map_err(|e| Error::Ptxas(format!("{} could not be run: {e}", ptxas.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.lines().find_map(|l| l.split("release ").nth(1)).unwrap_or("of unknown version").trim().to_string())
}

/// A temporary folder of its own (the process and a counter keep concurrent calls apart), removed
/// when dropped: where ptxas and the disassembler read and write their files.
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    pub(crate) fn new(tag: &str) -> std::io::Result<Scratch> {
        static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("rgemm-{tag}-{}-{call}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }

    pub(crate) fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Assembles `ptx` for sm_90a with `ptxas -v` and reads back every entry's resources. The entries
/// are split among one ptxas process per core (`--entry`), since one process assembles them one
/// after another.
pub fn assemble(ptxas: &Path, ptx: &str) -> Result<Assembly> {
    let fail = |what: String| Error::Ptxas(format!("{} {what}", ptxas.display()));
    let dir = Scratch::new("ptxas").map_err(|e| fail(format!("needs a temporary folder: {e}")))?;
    let file = dir.join("kernels.ptx");
    let result = std::fs::write(&file, ptx).map_err(|e| fail(format!("input could not be written: {e}"))).and_then(|()| {
        let names = entry_names(ptx);
        let jobs = std::thread::available_parallelism().map_or(1, |n| n.get()).min(names.len()).max(1);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..jobs)
                .map(|j| {
                    let mine: Vec<&str> = names.iter().skip(j).step_by(jobs).copied().collect();
                    let file = &file;
                    scope.spawn(move || Command::new(ptxas).args(["-arch=sm_90a", "-v", "-o", "/dev/null", "-e", &mine.join(",")]).arg(file).output())
                })
                .collect();
            let mut report = String::new();
            for h in handles {
                let out = h.join().map_err(|_| fail("could not be run".into()))?.map_err(|e| fail(format!("could not be run: {e}")))?;
                let text = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
                if !out.status.success() {
                    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message");
                    return Err(fail(format!("failed: {first}")));
                }
                report.push_str(&text);
            }
            Ok(report)
        })
    });
    let report = result?;
    Ok(Assembly { entries: parse_report(&report), report })
}

/// Every entry's resources as `ptxas` (of release `version`) assembles the PTX the host loads,
/// launch bounds included. The report is kept in the temporary folder under a key of the PTX,
/// the ptxas path and its version, so only the first call after a build waits for the assembler
/// (`before_assembling` runs just before it does); a cache that cannot be written costs only that
/// wait again.
pub fn loaded_module_resources(ptxas: &Path, version: &str, before_assembling: impl FnOnce()) -> Result<Vec<(String, Resources)>> {
    let bounded = with_launch_bounds(PTX);
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (bounded.as_str(), ptxas, version).hash(&mut h);
        h.finish()
    };
    let cache = std::env::temp_dir().join(format!("rgemm-ptxas-report-{key:016x}.txt"));
    if let Ok(report) = std::fs::read_to_string(&cache) {
        let entries = parse_report(&report);
        if entries.len() == entry_names(&bounded).len() {
            return Ok(entries);
        }
    }
    before_assembling();
    let assembly = assemble(ptxas, &bounded)?;
    let _ = std::fs::write(&cache, &assembly.report);
    Ok(assembly.entries)
}

/// Each entry of a `ptxas -v` report with its registers, stack frame and spills.
pub fn parse_report(report: &str) -> Vec<(String, Resources)> {
    let number_before = |line: &str, word: &str| -> u32 {
        line.find(word).and_then(|i| line[..i].split_whitespace().last()).and_then(|n| n.parse().ok()).unwrap_or(0)
    };
    let mut out: Vec<(String, Resources)> = Vec::new();
    for line in report.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            out.push((rest.split('\'').next().unwrap_or(rest).to_string(), Resources::default()));
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
