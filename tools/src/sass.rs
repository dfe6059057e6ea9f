//! What the hardware runs: a kernel's SASS (ptxas, then `cuobjdump --dump-sass`) and the
//! instruction mix of its hottest loop. A CUDA-core GEMM is as fast as the share of `FFMA` in its
//! inner loop allows (every other instruction takes an issue slot from one); a tensor-core one
//! shows its `HMMA` / `HGMMA` there. The listing also shows what PTX hides: which registers an
//! `HGMMA` in flight still reads, and whether anything writes them before the wait
//! ([`wgmma_fragment_hazards`]). No GPU is needed: the `nvidia-cuda-cuobjdump` and
//! `nvidia-cuda-nvdisasm` wheels (or a CUDA toolkit) provide the disassembler.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::tool_error::{ToolError, ToolResult};
use crate::ptxas;

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
pub fn disassemble(ptxas: &Path, cuobjdump: &Path, kernel: &str) -> ToolResult<String> {
    disassemble_all(ptxas, cuobjdump, &[kernel])
}

/// [`disassemble`] for several entries at once: one listing, each function under its `Function :
/// name` header ([`functions`] splits it), in the order asked. The machine code is the cached
/// assembly of the whole module ([`ptxas::loaded_module_cubins`]) that the PTX checks read too, so
/// ptxas runs once per build, not once per listing.
pub fn disassemble_all(ptxas: &Path, cuobjdump: &Path, kernels: &[&str]) -> ToolResult<String> {
    // Up to this many functions, `cuobjdump -fun` disassembles just those (a fraction of a
    // second); for more, naming them costs more than disassembling the whole part.
    const FEW: usize = 8;
    let fail = |what: String| ToolError::Ptxas(format!("SASS of {}: {what}", kernels.join(",")));
    let version = ptxas::ptxas_version(ptxas)?;
    let mut listing = String::new();
    for cubin in ptxas::loaded_module_cubins(ptxas, &version, || {})? {
        // cuobjdump calls nvdisasm, which the wheels put beside it.
        let mut dump = Command::new(cuobjdump);
        if let Some(folder) = cuobjdump.parent().filter(|d| d.join("nvdisasm").is_file()) {
            dump.env("NVDISASM_PATH", folder);
        }
        dump.arg("--dump-sass");
        if kernels.len() <= FEW {
            // Only the functions asked for (a part without one of them warns, and goes on).
            dump.arg("-fun").arg(kernels.join(","));
        }
        let out = dump.arg(&cubin).output().map_err(|e| fail(format!("{} could not be run: {e}", cuobjdump.display())))?;
        if !out.status.success() {
            return Err(fail(format!("cuobjdump failed: {}", String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or(""))));
        }
        listing.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    let all = functions(&listing);
    let mut out = String::new();
    for kernel in kernels {
        let (name, body) = all.iter().find(|(name, _)| name == kernel).ok_or_else(|| fail(format!("no function {kernel} in the assembled module")))?;
        out.push_str(&format!("\t\tFunction : {name}\n{body}"));
    }
    Ok(out)
}

/// One SASS instruction: its address, its opcode without modifiers (`FFMA`, `LDS`, ...), its
/// mnemonic with them (`LDS.U.128`) and its operands as listed (`R8`, `[R2+0x1000]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub address: u64,
    pub opcode: String,
    pub mnemonic: String,
    pub operands: Vec<String>,
    /// The target of a branch (`BRA 0x1f0`).
    pub branch_to: Option<u64>,
    /// The listing's text of the instruction, predicate included, without the `;`.
    pub text: String,
}

impl Instruction {
    /// The registers `R<n>` this instruction writes, as a range of `n`; empty for one that writes
    /// none. The destination is the first operand, or the second where the first is a predicate
    /// output and the second a register (`SHFL PT, R5, …`, `LOP3.LUT P0, R5, …`, `ATOMG … PT, R2,
    /// …`); an instruction whose destination is not an `R` register (a predicate, a uniform
    /// register, an address: stores, branches, barriers) writes none, and neither does `HGMMA`
    /// here (its first operand is the accumulator, not a fragment it reads). A load or move of
    /// `.64` or `.WIDE` and a `CS2R` (but `CS2R.32`) write two consecutive registers, `.128` four,
    /// `LDSM` as many as its last modifier says (`LDSM.16.M88.4`); every other instruction one
    /// (the loops checked here hold no other multi-register writer: no `HMMA`, no double
    /// precision).
    pub fn written_registers(&self) -> std::ops::Range<u32> {
        let is_predicate = |o: &str| o == "PT" || (o.starts_with('P') && o[1..].chars().all(|c| c.is_ascii_digit()) && o.len() > 1);
        let predicate_first = self.operands.first().is_some_and(|o| is_predicate(o));
        let dest = if predicate_first && self.operands.get(1).is_some_and(|o| register(o).is_some()) { 1 } else { 0 };
        let Some(n) = self.operands.get(dest).and_then(|o| register(o)).filter(|_| self.opcode != "HGMMA") else {
            return 0..0;
        };
        let modifiers: Vec<&str> = self.mnemonic.split('.').skip(1).collect();
        let width = if modifiers.contains(&"128") {
            4
        } else if modifiers.contains(&"64") || modifiers.contains(&"WIDE") || (self.opcode == "CS2R" && !modifiers.contains(&"32")) {
            2
        } else if self.opcode == "LDSM" {
            modifiers.last().and_then(|m| m.parse().ok()).unwrap_or(1)
        } else {
            1
        };
        n..n + width
    }

    /// For an `HGMMA` whose A operand is a register fragment (`HGMMA.64x128x8.F32.TF32 R24, R100,
    /// gdesc[UR8], R24`), that fragment's registers: four from the one named. A is a 64-row slice
    /// of the warpgroup's 128 threads, 32 bytes of K wide in every dense shape (k8 of tf32, k16 of
    /// f16 and bf16, k32 of 8-bit types): 64·32 bytes over 128 threads is 16 bytes, four 32-bit
    /// registers a thread. `None` for an A read from shared memory (`gdesc[UR4]`).
    pub fn wgmma_register_a(&self) -> Option<std::ops::Range<u32>> {
        let n = register(self.operands.get(1).filter(|_| self.opcode == "HGMMA")?)?;
        Some(n..n + 4)
    }
}

/// `n` of a register operand `R<n>` (`R100`, `R8.reuse`, `-R113`, `|R5|`); `None` for `RZ`,
/// predicates, uniform registers, constants and addresses.
fn register(operand: &str) -> Option<u32> {
    let r = operand.trim_start_matches(['-', '|', '!', '~']).strip_prefix('R')?;
    let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
    matches!(r[digits..].chars().next(), None | Some('.') | Some('|')).then(|| r[..digits].parse().ok()).flatten()
}

/// The functions of a `cuobjdump --dump-sass` listing: (name, its part of the listing).
pub fn functions(sass: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in sass.lines() {
        if let Some(name) = line.trim().strip_prefix("Function : ") {
            out.push((name.trim().to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The barriers of a listing that only some threads may execute: `BAR` instructions under a
/// predicate (`@P0 BAR.SYNC …`). A block or named barrier must be met by every warp of its group,
/// once; a predicated one is a barrier the compiler has put in a branch, and a group whose warps
/// disagree on the predicate meets it a different number of times and hangs (see
/// `device::named_barrier_sync`). The texts of those instructions.
pub fn predicated_barriers(sass: &str) -> Vec<String> {
    instructions(sass).into_iter().filter(|i| i.opcode == "BAR" && i.text.starts_with('@')).map(|i| i.text).collect()
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
            let unpredicated = text.strip_prefix('@').map_or(text, |t| t.split_once(char::is_whitespace).map_or("", |(_, r)| r.trim_start()));
            let (mnemonic, operands) = unpredicated.split_once(char::is_whitespace).unwrap_or((unpredicated, ""));
            let opcode = mnemonic.split('.').next().filter(|o| !o.is_empty())?.to_string();
            let operands: Vec<String> = operands.split(',').map(str::trim).filter(|o| !o.is_empty()).map(String::from).collect();
            let branch_to = (opcode == "BRA").then(|| operands.iter().find_map(|o| u64::from_str_radix(o.strip_prefix("0x")?, 16).ok())).flatten();
            Some(Instruction { address, opcode, mnemonic: mnemonic.to_string(), operands, branch_to, text: text.to_string() })
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
    let body = hottest_body(&all)?;
    let mut counts: Vec<(String, usize)> = Vec::new();
    for i in body {
        match counts.iter_mut().find(|(o, _)| *o == i.opcode) {
            Some((_, n)) => *n += 1,
            None => counts.push((i.opcode.clone(), 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Some(LoopMix { first: body[0].address, last: body[body.len() - 1].address, instructions: body.len(), counts })
}

/// The instructions of the hottest loop (see [`hottest_loop`]), from the backward branch's target
/// to the branch.
fn hottest_body(all: &[Instruction]) -> Option<&[Instruction]> {
    let math = |body: &[Instruction]| body.iter().filter(|i| MATH.contains(&i.opcode.as_str())).count();
    all.iter()
        .enumerate()
        .filter_map(|(end, br)| {
            let to = br.branch_to.filter(|&t| t <= br.address)?;
            let body = &all[all.iter().position(|i| i.address >= to)?..=end];
            Some((math(body), body))
        })
        .filter(|(m, _)| *m > 0)
        .max_by(|(ma, a), (mb, b)| ma.cmp(mb).then(b.len().cmp(&a.len())))
        .map(|(_, body)| body)
}

/// The writes, in the hottest loop, to registers an `HGMMA` in flight may still be reading.
///
/// A wgmma whose A operand is a register fragment reads those registers asynchronously, until a
/// `WARPGROUP.DEPBAR.LE gsb0, 0x0` (`wgmma.wait_group 0`) waits for it; PTX does not show that
/// read, so ptxas may give the registers to an instruction that follows the `HGMMA` before the
/// wait, and the tensor cores then multiply whatever lands there. The emulator cannot see it
/// either (it reads the fragment when the wgmma is issued): only the SASS tells.
///
/// For each such `HGMMA` of the hottest loop, the window in which its fragment may be read runs
/// from the instruction after it to the loop's backward branch and, as the next iteration follows
/// that branch, on from the loop's first instruction, until the first wait for all groups (a wait
/// that leaves groups pending, `0x1` and up, may leave this one running, so it does not end the
/// window). The loop body is taken in address order, its forward branches as if every path ran:
/// a write on any of them is reported. Every instruction in the window that writes a fragment
/// register (see [`Instruction::written_registers`]) is one line: the `HGMMA`'s address and
/// fragment, the writer's address and text. An empty result is the invariant the kernels keep.
///
/// Limits: only the hottest loop is read (not a peeled iteration, nor the path from the loop's
/// exit to its final wait), and the first full wait in address order closes the window even if
/// a branch could pass it by; the kernels checked issue their waits unconditionally.
pub fn wgmma_fragment_hazards(sass: &str) -> Vec<String> {
    let all = instructions(sass);
    let Some(body) = hottest_body(&all) else { return Vec::new() };
    let waits_for_all = |i: &Instruction| i.mnemonic.starts_with("WARPGROUP.DEPBAR") && i.operands.last().is_some_and(|o| o == "0x0");
    let mut hazards = Vec::new();
    for (at, mma) in body.iter().enumerate() {
        let Some(fragment) = mma.wgmma_register_a() else { continue };
        let window = body[at + 1..].iter().chain(&body[..at]).take_while(|i| !waits_for_all(i));
        for w in window {
            let written = w.written_registers();
            if written.start < fragment.end && fragment.start < written.end {
                let regs = |r: &std::ops::Range<u32>| if r.len() == 1 { format!("R{}", r.start) } else { format!("R{}..R{}", r.start, r.end - 1) };
                hazards.push(format!("HGMMA at {:#06x} reads {} until the wait; {:#06x} `{}` writes {} before it", mma.address, regs(&fragment), w.address, w.text, regs(&written)));
            }
        }
    }
    hazards
}
