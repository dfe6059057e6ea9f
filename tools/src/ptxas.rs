//! ptxas's report of the PTX module: registers, shared memory, stack frames and spills per entry,
//! for the checks and the book.

use std::path::{Path, PathBuf};
use std::process::Command;

use rgemm::ptx;

use crate::tool_error::{ToolError, ToolResult};

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
pub fn ptxas_version(ptxas: &Path) -> ToolResult<String> {
    let out = Command::new(ptxas).arg("--version").output().map_err(|e| ToolError::Ptxas(format!("{} could not be run: {e}", ptxas.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.lines().find_map(|l| l.split("release ").nth(1)).unwrap_or("of unknown version").trim().to_string())
}

/// A temporary folder of its own (the process and a counter keep concurrent calls apart), removed
/// when dropped: where ptxas and the disassembler read and write their files.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new(tag: &str) -> std::io::Result<TempDir> {
        static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("rgemm-{tag}-{}-{call}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }

    pub(crate) fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Assembles `ptx` for sm_90a with `ptxas -v` and reads back every entry's resources. The entries
/// are split among one ptxas process per core (`--entry`), since one process assembles them one
/// after another.
pub fn assemble(ptxas: &Path, ptx: &str) -> ToolResult<Assembly> {
    let fail = |what: String| ToolError::Ptxas(format!("{} {what}", ptxas.display()));
    let dir = TempDir::new("ptxas").map_err(|e| fail(format!("needs a temporary folder: {e}")))?;
    let file = dir.join("kernels.ptx");
    let result = std::fs::write(&file, ptx).map_err(|e| fail(format!("input could not be written: {e}"))).and_then(|()| {
        let names = rgemm::ptx::entry_names(ptx);
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
pub fn loaded_module_resources(ptxas: &Path, version: &str, before_assembling: impl FnOnce()) -> ToolResult<Vec<(String, Resources)>> {
    Ok(loaded_module_assembly(ptxas, version, before_assembling)?.entries)
}

/// [`loaded_module_resources`] with the whole report (ptxas's notes and warnings included), from
/// the same cache: what the tests of the assembled module read, so that one assembly serves them
/// all.
pub fn loaded_module_assembly(ptxas: &Path, version: &str, before_assembling: impl FnOnce()) -> ToolResult<Assembly> {
    let bounded = ptx::with_launch_bounds(ptx::PTX);
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (bounded.as_str(), ptxas, version).hash(&mut h);
        h.finish()
    };
    let cache = std::env::temp_dir().join(format!("rgemm-ptxas-report-{key:016x}.txt"));
    if let Ok(report) = std::fs::read_to_string(&cache) {
        let entries = parse_report(&report);
        if entries.len() == ptx::entry_names(&bounded).len() {
            return Ok(Assembly { entries, report });
        }
    }
    before_assembling();
    let assembly = assemble(ptxas, &bounded)?;
    // Written beside the cache and renamed over it, so that a reader never sees half a report.
    let tmp = cache.with_extension(format!("{}.tmp", std::process::id()));
    if std::fs::write(&tmp, &assembly.report).is_ok() {
        let _ = std::fs::rename(&tmp, &cache);
    }
    Ok(assembly)
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
