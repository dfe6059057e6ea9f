//! What the hardware runs: a kernel's SASS (ptxas, then `cuobjdump --dump-sass`) and the
//! instruction mix of its hottest loop. A CUDA-core GEMM is as fast as the share of `FFMA` in its
//! inner loop allows (every other instruction takes an issue slot from one); a tensor-core one
//! shows its `HMMA` / `HGMMA` there. No GPU is needed: the `nvidia-cuda-cuobjdump` and
//! `nvidia-cuda-nvdisasm` wheels (or a CUDA toolkit) provide the disassembler.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{Error, Result};
use crate::ptx;

/// `cuobjdump`: `$RGEMM_CUOBJDUMP`, else the one beside `ptxas` (the wheels install both in the
/// same folder), else `cuobjdump` on PATH.
pub fn find_cuobjdump(ptxas: &Path) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RGEMM_CUOBJDUMP") {
        return Some(PathBuf::from(p));
    }
    let beside = ptxas.parent().map(|d| d.join("cuobjdump")).filter(|p| p.is_file());
    beside.or_else(|| Command::new("cuobjdump").arg("--version").output().ok().filter(|o| o.status.success()).map(|_| PathBuf::from("cuobjdump")))
}

/// The SASS of entry `kernel` of the module the host loads (launch bounds included), as `ptxas`
/// assembles it for sm_90a and `cuobjdump` disassembles it.
pub fn disassemble(ptxas: &Path, cuobjdump: &Path, kernel: &str) -> Result<String> {
    let fail = |what: String| Error::Ptxas(format!("SASS of {kernel}: {what}"));
    let dir = ptx::Scratch::new("sass").map_err(|e| fail(format!("needs a temporary folder: {e}")))?;
    let (ptx_file, cubin) = (dir.join("kernels.ptx"), dir.join("kernel.cubin"));
    std::fs::write(&ptx_file, ptx::with_launch_bounds(ptx::PTX)).map_err(|e| fail(format!("cannot write the PTX: {e}")))?;
    let out = Command::new(ptxas).args(["-arch=sm_90a", "-e", kernel, "-o"]).arg(&cubin).arg(&ptx_file).output().map_err(|e| fail(format!("{} could not be run: {e}", ptxas.display())))?;
    if !out.status.success() {
        return Err(fail(format!("ptxas failed: {}", String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or(""))));
    }
    // cuobjdump calls nvdisasm, which the wheels put beside it.
    let mut dump = Command::new(cuobjdump);
    if let Some(folder) = cuobjdump.parent().filter(|d| d.join("nvdisasm").is_file()) {
        dump.env("NVDISASM_PATH", folder);
    }
    let out = dump.arg("--dump-sass").arg(&cubin).output().map_err(|e| fail(format!("{} could not be run: {e}", cuobjdump.display())))?;
    if !out.status.success() {
        return Err(fail(format!("cuobjdump failed: {}", String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or(""))));
    }
    Ok(String::from_utf8_lossy(&out.stdout).to_string())
}

/// One SASS instruction: its address and its opcode without modifiers (`FFMA`, `LDS`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub address: u64,
    pub opcode: String,
    /// The target of a branch (`BRA 0x1f0`).
    pub branch_to: Option<u64>,
}

/// The instructions of a `cuobjdump --dump-sass` listing, in order.
pub fn instructions(sass: &str) -> Vec<Instruction> {
    sass.lines()
        .filter_map(|line| {
            // `        /*0880*/                   FFMA R4, R8, R12, R4 ;   /* 0x... */`
            let rest = line.trim_start().strip_prefix("/*")?;
            let (addr, rest) = rest.split_once("*/")?;
            let address = u64::from_str_radix(addr, 16).ok()?;
            let text = rest.split(';').next()?.trim();
            // A predicate (`@P0`, `@!UP1`) is not the opcode.
            let mut words = text.split_whitespace().skip_while(|w| w.starts_with('@'));
            let opcode = words.next()?.split('.').next()?.to_string();
            let branch_to = (opcode == "BRA").then(|| words.find_map(|w| u64::from_str_radix(w.trim_start_matches("0x"), 16).ok().filter(|_| w.starts_with("0x")))).flatten();
            Some(Instruction { address, opcode, branch_to })
        })
        .collect()
}

/// A loop of the listing (a backward branch and the instructions from its target to it) and its
/// instruction mix, most frequent first.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopMix {
    pub first: u64,
    pub last: u64,
    pub instructions: usize,
    pub counts: Vec<(String, usize)>,
}

impl LoopMix {
    pub fn count(&self, opcode: &str) -> usize {
        self.counts.iter().find(|(o, _)| o == opcode).map_or(0, |&(_, n)| n)
    }

    /// `count(opcode)` as a share of the loop's instructions.
    pub fn share(&self, opcode: &str) -> f64 {
        self.count(opcode) as f64 / self.instructions.max(1) as f64
    }
}

/// The instructions that do a GEMM's arithmetic: CUDA-core fused multiply-adds and tensor-core
/// products. (`HFMA2` is left out: ptxas also uses it to move constants into registers.)
pub const MATH: &[&str] = &["FFMA", "HMMA", "HGMMA"];

/// The hottest loop: of the loops holding the most [`MATH`] instructions, the shortest (the inner
/// one rather than a loop around it, as long as the outer one adds no math of its own, e.g. a
/// peeled step).
pub fn hottest_loop(sass: &str) -> Option<LoopMix> {
    let all = instructions(sass);
    let math = |body: &[Instruction]| body.iter().filter(|i| MATH.contains(&i.opcode.as_str())).count();
    all.iter()
        .filter_map(|br| {
            let to = br.branch_to.filter(|&t| t <= br.address)?;
            let body: Vec<Instruction> = all.iter().filter(|i| (to..=br.address).contains(&i.address)).cloned().collect();
            Some((math(&body), body))
        })
        .filter(|(m, _)| *m > 0)
        .max_by(|(ma, a), (mb, b)| ma.cmp(mb).then(b.len().cmp(&a.len())))
        .map(|(_, body)| {
            let mut counts: Vec<(String, usize)> = Vec::new();
            for i in &body {
                match counts.iter_mut().find(|(o, _)| *o == i.opcode) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((i.opcode.clone(), 1)),
                }
            }
            counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            LoopMix { first: body[0].address, last: body[body.len() - 1].address, instructions: body.len(), counts }
        })
}
