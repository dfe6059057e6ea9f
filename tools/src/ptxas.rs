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
    assemble_into(ptxas, ptx, None)
}

/// [`assemble`], each ptxas process writing its entries' machine code to `part<i>.cubin` in
/// `cubins` where one is given (else nowhere).
fn assemble_into(ptxas: &Path, ptx: &str, cubins: Option<&Path>) -> ToolResult<Assembly> {
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
                    let output = cubins.map_or_else(|| PathBuf::from("/dev/null"), |d| d.join(format!("part{j}.cubin")));
                    scope.spawn(move || Command::new(ptxas).args(["-arch=sm_90a", "-v", "-o"]).arg(&output).args(["-e", &mine.join(",")]).arg(file).output())
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
/// launch bounds included. The report and the machine code are kept in a temporary folder under
/// a key of the PTX, the ptxas path and its version ([`loaded_module_assembly`]), so only the
/// first call after a build waits for the assembler (`before_assembling` runs just before it
/// does); a cache that cannot be written costs only that wait again.
pub fn loaded_module_resources(ptxas: &Path, version: &str, before_assembling: impl FnOnce()) -> ToolResult<Vec<(String, Resources)>> {
    Ok(loaded_module_assembly(ptxas, version, before_assembling)?.entries)
}

/// [`loaded_module_resources`] with the whole report (ptxas's notes and warnings included), from
/// the same cache: what the tests of the assembled module read, so that one assembly serves them
/// all.
pub fn loaded_module_assembly(ptxas: &Path, version: &str, before_assembling: impl FnOnce()) -> ToolResult<Assembly> {
    Ok(loaded_module(ptxas, version, before_assembling)?.1)
}

/// The machine code of the same assembly ([`loaded_module_assembly`], from the same cache): the
/// `cubin` files that hold every entry between them, for the disassembler.
pub fn loaded_module_cubins(ptxas: &Path, version: &str, before_assembling: impl FnOnce()) -> ToolResult<Vec<PathBuf>> {
    let (dir, _) = loaded_module(ptxas, version, before_assembling)?;
    let mut cubins: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| ToolError::Ptxas(format!("the assembled module in {} cannot be read: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cubin"))
        .collect();
    cubins.sort();
    Ok(cubins)
}

/// The cache folder of the loaded module's assembly (assembling it first where it is missing or
/// incomplete) and the assembly: `report.txt` and one `part<i>.cubin` per ptxas process.
fn loaded_module(ptxas: &Path, version: &str, before_assembling: impl FnOnce()) -> ToolResult<(PathBuf, Assembly)> {
    let bounded = ptx::with_launch_bounds(ptx::PTX);
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (bounded.as_str(), ptxas, version).hash(&mut h);
        h.finish()
    };
    let cache = std::env::temp_dir().join(format!("rgemm-ptxas-{key:016x}"));
    if let Ok(report) = std::fs::read_to_string(cache.join("report.txt")) {
        let entries = parse_report(&report);
        if entries.len() == ptx::entry_names(&bounded).len() {
            return Ok((cache, Assembly { entries, report }));
        }
    }
    before_assembling();
    // Assembled into a folder of this process's and renamed over the cache, so that a reader
    // never sees half a cache; where another process got there first, its folder is kept.
    let fresh = std::env::temp_dir().join(format!("rgemm-ptxas-{key:016x}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    std::fs::create_dir_all(&fresh).map_err(|e| ToolError::Ptxas(format!("needs a temporary folder: {e}")))?;
    let assembly = assemble_into(ptxas, &bounded, Some(&fresh))?;
    let written = std::fs::write(fresh.join("report.txt"), &assembly.report).is_ok();
    if !(written && std::fs::rename(&fresh, &cache).is_ok()) {
        if cache.join("report.txt").is_file() {
            let _ = std::fs::remove_dir_all(&fresh);
        } else {
            // No cache could be made: this process's folder serves this call.
            return Ok((fresh, assembly));
        }
    }
    Ok((cache, assembly))
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
