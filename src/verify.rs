//! Running one kernel on one problem and judging the result.
//!
//! C sits between two guard bands filled with a sentinel; a kernel that writes outside C changes
//! them and fails even if its C is right. Problems up to [`FULL_REFERENCE_LIMIT`] multiply-adds are
//! checked against the full f64 reference; larger ones against cuBLAS over the whole of C plus f64
//! on sampled rows and columns (the full f64 product of an 8192³ problem would take minutes).

use crate::bench::{self, Timing};
use crate::catalog::{Dtype, Kernel};
use crate::check::{self, Inputs, Sample};
use crate::error::Result;
use crate::gpu::{Buffer, Gpu};
use crate::problem::Problem;

/// Largest M·N·K checked against the full f64 reference.
pub const FULL_REFERENCE_LIMIT: u64 = 1 << 30;
/// Floats of sentinel on each side of C.
const GUARD: usize = 1024;
const SENTINEL: f32 = f32::from_bits(0x7f80_0bad);
/// Rows and columns recomputed in f64 for large problems.
const SAMPLES: usize = 8;

/// What the result was compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reference {
    /// The whole of C against f64 on the CPU.
    FullF64,
    /// The whole of C against cuBLAS; sampled rows and columns against f64.
    CublasAndSampledF64 { sampled_error: f64 },
    /// Sampled rows and columns against f64 only (large problems on the emulator: no cuBLAS).
    SampledF64,
}

#[derive(Clone, Debug)]
pub struct Verdict {
    /// Relative Frobenius error (against f64, or against cuBLAS for large problems).
    pub rel_error: f64,
    pub reference: Reference,
    pub tolerance: f64,
    /// Elements outside C that the kernel changed.
    pub guard_writes: usize,
}

impl Verdict {
    /// NaN compares false, so NaN fails.
    pub fn passed(&self) -> bool {
        let sampled_ok = match self.reference {
            Reference::FullF64 | Reference::SampledF64 => true,
            Reference::CublasAndSampledF64 { sampled_error } => sampled_error <= self.tolerance,
        };
        self.guard_writes == 0 && self.rel_error <= self.tolerance && sampled_ok
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verdict = if self.passed() { "PASS" } else { "FAIL" };
        match self.reference {
            Reference::FullF64 => write!(f, "{verdict}: relative Frobenius error {:.2e} against the f64 reference", self.rel_error)?,
            Reference::SampledF64 => write!(f, "{verdict}: relative Frobenius error {:.2e} against f64 on sampled rows and columns", self.rel_error)?,
            Reference::CublasAndSampledF64 { sampled_error } => write!(
                f,
                "{verdict}: relative Frobenius error {:.2e} against cuBLAS, {sampled_error:.2e} against f64 on sampled rows and columns",
                self.rel_error
            )?,
        }
        write!(f, " (tolerance {:.0e})", self.tolerance)?;
        if self.guard_writes > 0 {
            write!(f, "; {} elements outside C were overwritten", self.guard_writes)?;
        }
        Ok(())
    }
}

/// Device buffers of one problem: A, B, and C inside its guard bands.
pub struct Operands {
    /// A and B in their element type's bytes.
    pub a: Buffer<u8>,
    pub b: Buffer<u8>,
    /// `GUARD` sentinels, C, `GUARD` sentinels.
    pub c_guarded: Buffer<f32>,
}

impl Operands {
    /// Bytes of device memory for a problem's operands, with room for a cuBLAS result.
    pub fn bytes(problem: &Problem) -> u64 {
        let (la, lb, lc) = problem.elems();
        (4 * (la + lb + 2 * (lc + 2 * GUARD))) as u64
    }

    pub fn upload(gpu: &Gpu, problem: &Problem, inputs: &Inputs) -> Result<Operands> {
        gpu.require_memory(Self::bytes(problem))?;
        let mut c_initial = vec![SENTINEL; GUARD];
        c_initial.extend_from_slice(&inputs.c);
        c_initial.extend(std::iter::repeat_n(SENTINEL, GUARD));
        Ok(Operands {
            a: gpu.upload(&check::encode(inputs.dtype, &inputs.a))?,
            b: gpu.upload(&check::encode(inputs.dtype, &inputs.b))?,
            c_guarded: gpu.upload(&c_initial)?,
        })
    }

    /// Device address of C's first element.
    pub fn c_addr(&self, gpu: &Gpu) -> u64 {
        self.c_guarded.addr(gpu) + (GUARD * 4) as u64
    }

    /// C as computed, and the number of guard elements that changed.
    pub fn download_c(&self, gpu: &Gpu) -> Result<(Vec<f32>, usize)> {
        let mut all = gpu.download(&self.c_guarded)?;
        let changed = |s: &[f32]| s.iter().filter(|v| v.to_bits() != SENTINEL.to_bits()).count();
        let guard_writes = changed(&all[..GUARD]) + changed(&all[all.len() - GUARD..]);
        all.truncate(all.len() - GUARD);
        all.drain(..GUARD);
        Ok((all, guard_writes))
    }
}

/// Runs `kernel` once on fresh random inputs drawn from `seed` and judges the result.
pub fn verify(gpu: &Gpu, kernel: Kernel, problem: &Problem, seed: u64) -> Result<Verdict> {
    kernel.launch(problem)?;
    verify_with(gpu, problem, kernel.spec.dtype, seed, |ops| unsafe { gpu.launch(kernel, problem, ops.a.addr(gpu), ops.b.addr(gpu), ops.c_addr(gpu)) })
}

/// Judges whatever `compute` does to the operands of `problem` (the checker's own tests hand it
/// deliberately wrong launches).
pub fn verify_with(gpu: &Gpu, problem: &Problem, dtype: Dtype, seed: u64, compute: impl FnOnce(&Operands) -> Result<()>) -> Result<Verdict> {
    let inputs = Inputs::random(problem, dtype, seed);
    let ops = Operands::upload(gpu, problem, &inputs)?;
    compute(&ops)?;
    let (got, guard_writes) = ops.download_c(gpu)?;
    let tolerance = check::tolerance(dtype);
    let macs = problem.m as u64 * problem.n as u64 * problem.k as u64;
    if macs <= FULL_REFERENCE_LIMIT {
        let want = check::reference(problem, &inputs);
        let rel_error = check::relative_error_full(&got, &want);
        return Ok(Verdict { rel_error, reference: Reference::FullF64, tolerance, guard_writes });
    }
    let cublas = cublas_result(gpu, problem, &ops, &inputs)?;
    let rel_error = check::relative_error(got.iter().copied().zip(cublas.iter().map(|&v| v as f64)));
    let sampled_error = Sample::random(problem, SAMPLES, seed).relative_error(problem, &inputs, &got);
    Ok(Verdict { rel_error, reference: Reference::CublasAndSampledF64 { sampled_error }, tolerance, guard_writes })
}

/// cuBLAS's C for the same inputs.
fn cublas_result(gpu: &Gpu, problem: &Problem, ops: &Operands, inputs: &Inputs) -> Result<Vec<f32>> {
    let c = gpu.upload(&inputs.c)?;
    unsafe { gpu.cublas_gemm(inputs.dtype, problem, ops.a.addr(gpu), ops.b.addr(gpu), c.addr(gpu)) }?;
    gpu.download(&c)
}

/// Times `kernel` and cuBLAS on the same operands, one after the other in this run.
pub struct Comparison {
    pub kernel: Timing,
    pub cublas: Timing,
}

pub fn time_against_cublas(gpu: &Gpu, kernel: Kernel, problem: &Problem, ops: &Operands, warmup: usize, iters: usize) -> Result<Comparison> {
    let (a, b, c) = (ops.a.addr(gpu), ops.b.addr(gpu), ops.c_addr(gpu));
    let kernel_timing = bench::time(gpu, warmup, iters, || unsafe { gpu.launch(kernel, problem, a, b, c) })?;
    let dtype = kernel.spec.dtype;
    let cublas_timing = bench::time(gpu, warmup, iters, || unsafe { gpu.cublas_gemm(dtype, problem, a, b, c) })?;
    Ok(Comparison { kernel: kernel_timing, cublas: cublas_timing })
}
