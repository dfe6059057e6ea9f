//! Running one kernel on one problem and judging the result.
//!
//! C sits between two guard bands filled with a sentinel; a kernel that writes outside C changes
//! them and fails even if its C is right. Problems up to [`FULL_REFERENCE_LIMIT`] multiply-adds are
//! checked against the full f64 reference; larger ones against cuBLAS over the whole of C plus f64
//! on sampled rows and columns (the full f64 product of an 8192³ problem would take minutes).

use crate::baseline::Library;
use crate::bench::{self, Timing};
use crate::catalog::{Dtype, Kernel, Launch};
use crate::check::{self, Inputs, Sample};
use crate::error::{Error, Result};
use crate::gpu::{Buffer, Gpu};
use crate::problem::Problem;
use crate::storage::{self, Operand};

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

/// Device buffers of one problem, laid out as it stores them (see [`storage`]): A and B with NaN
/// wherever no product reads, C with a sentinel in its padding and in guard bands on both sides.
/// The operands remember the problem and element type they were made for, so nothing launches
/// on them past their ends.
pub struct Operands {
    problem: Problem,
    dtype: Dtype,
    /// A and B in their element type's bytes.
    a: Buffer<u8>,
    b: Buffer<u8>,
    /// `GUARD` sentinels, C (with its padding), `GUARD` sentinels.
    c_guarded: Buffer<f32>,
}

impl Operands {
    /// Bytes of device memory for a problem's operands, with room for a cuBLAS result.
    pub fn bytes(problem: &Problem) -> u64 {
        let (la, lb, lc) = problem.extents();
        (4 * (la + lb + 2 * (lc + 2 * GUARD))) as u64
    }

    pub fn upload(gpu: &Gpu, problem: &Problem, inputs: &Inputs) -> Result<Operands> {
        gpu.require_memory(Self::bytes(problem))?;
        let mut c_initial = vec![SENTINEL; GUARD];
        c_initial.extend(storage::pack(problem, Operand::C, &inputs.c, SENTINEL));
        c_initial.extend(std::iter::repeat_n(SENTINEL, GUARD));
        let stored = |operand, values: &[f32]| check::encode(inputs.dtype, &storage::pack(problem, operand, values, f32::NAN));
        Ok(Operands {
            problem: *problem,
            dtype: inputs.dtype,
            a: gpu.upload(&stored(Operand::A, &inputs.a))?,
            b: gpu.upload(&stored(Operand::B, &inputs.b))?,
            c_guarded: gpu.upload(&c_initial)?,
        })
    }

    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    pub fn dtype(&self) -> Dtype {
        self.dtype
    }

    /// Device address of C's first element.
    fn c_addr(&self, gpu: &Gpu) -> u64 {
        self.c_guarded.addr(gpu) + (GUARD * 4) as u64
    }

    /// Device addresses of A, B and C, for launches the checker's own tests make deliberately
    /// wrong (through the `unsafe` [`Gpu::launch`]).
    pub fn addresses(&self, gpu: &Gpu) -> (u64, u64, u64) {
        (self.a.addr(gpu), self.b.addr(gpu), self.c_addr(gpu))
    }

    /// Launches `kernel` on these operands (the problem they were made for).
    pub fn launch(&self, gpu: &Gpu, kernel: Kernel, geometry: &Launch) -> Result<()> {
        if kernel.spec.dtype != self.dtype {
            return Err(Error::InvalidArgument(format!("{} multiplies {}, these operands hold {}", kernel.name(), kernel.spec.dtype.name(), self.dtype.name())));
        }
        if *geometry != kernel.geometry(&self.problem)? {
            return Err(Error::InvalidArgument(format!("the launch geometry given for {} is not the one of {}", kernel.name(), self.problem)));
        }
        // SAFETY: the buffers were sized for this problem and element type (checked above), and
        // the geometry is the kernel's own for it; device allocations are 256-byte aligned and C
        // starts GUARD floats (4 KiB) in.
        unsafe { gpu.launch(kernel, geometry, &self.problem, self.a.addr(gpu), self.b.addr(gpu), self.c_addr(gpu)) }
    }

    /// A library plan ([`crate::api::Plan`], split-K included) on these operands.
    pub fn run_plan(&self, gpu: &Gpu, plan: &crate::api::Plan) -> Result<()> {
        if *plan.problem() != self.problem || plan.kernel().spec.dtype != self.dtype {
            return Err(Error::InvalidArgument(format!("the plan is for {} in {}, these operands for {} in {}", plan.problem(), plan.kernel().spec.dtype.name(), self.problem, self.dtype.name())));
        }
        let (a, b, c) = (self.a.addr(gpu), self.b.addr(gpu), self.c_addr(gpu));
        // SAFETY: the buffers were sized for this problem and element type (checked above);
        // device allocations are 256-byte aligned and C starts 4 KiB into its guard band.
        unsafe { plan.launch_at(gpu, a, b, c) }
    }

    /// cuBLAS on these operands.
    pub fn cublas(&self, gpu: &Gpu, library: Library) -> Result<()> {
        // SAFETY: the buffers hold this problem's operands of this element type.
        unsafe { gpu.cublas(library, self.dtype, &self.problem, self.a.addr(gpu), self.b.addr(gpu), self.c_addr(gpu)) }
    }

    /// C as computed (the products' M×N matrices, one after another), and the number of
    /// elements outside them (guard bands, row padding, gaps between matrices) that changed.
    pub fn download_c(&self, gpu: &Gpu) -> Result<(Vec<f32>, usize)> {
        let all = gpu.download(&self.c_guarded)?;
        let changed = |s: &[f32]| s.iter().filter(|v| v.to_bits() != SENTINEL.to_bits()).count();
        let guards = changed(&all[..GUARD]) + changed(&all[all.len() - GUARD..]);
        let (values, stray) = storage::unpack_c(&self.problem, &all[GUARD..all.len() - GUARD], SENTINEL);
        Ok((values, guards + stray))
    }
}

/// Runs `kernel` once on fresh random inputs drawn from `seed` and judges the result.
pub fn verify(gpu: &Gpu, kernel: Kernel, problem: &Problem, seed: u64) -> Result<Verdict> {
    let geometry = kernel.geometry(problem)?;
    verify_with(gpu, problem, kernel.spec.dtype, seed, |ops| ops.launch(gpu, kernel, &geometry)).map(|(verdict, _)| verdict)
}

/// Judges whatever `compute` does to the operands of `problem` (the checker's own tests hand it
/// deliberately wrong launches), and returns the operands for timing.
pub fn verify_with(gpu: &Gpu, problem: &Problem, dtype: Dtype, seed: u64, compute: impl FnOnce(&Operands) -> Result<()>) -> Result<(Verdict, Operands)> {
    let inputs = Inputs::random(problem, dtype, seed);
    let ops = Operands::upload(gpu, problem, &inputs)?;
    compute(&ops)?;
    let (got, guard_writes) = ops.download_c(gpu)?;
    let tolerance = check::tolerance(dtype);
    if problem.macs() <= FULL_REFERENCE_LIMIT as u128 {
        let want = check::reference(problem, &inputs);
        let rel_error = check::relative_error_full(&got, &want);
        return Ok((Verdict { rel_error, reference: Reference::FullF64, tolerance, guard_writes }, ops));
    }
    let cublas = cublas_result(gpu, problem, &inputs)?;
    let rel_error = check::relative_error(got.iter().copied().zip(cublas.iter().map(|&v| v as f64)));
    let sampled_error = Sample::random(problem, SAMPLES, seed).relative_error(problem, &inputs, &got);
    Ok((Verdict { rel_error, reference: Reference::CublasAndSampledF64 { sampled_error }, tolerance, guard_writes }, ops))
}

/// cuBLAS's C for the same inputs, on operands of its own.
fn cublas_result(gpu: &Gpu, problem: &Problem, inputs: &Inputs) -> Result<Vec<f32>> {
    let ops = Operands::upload(gpu, problem, inputs)?;
    ops.cublas(gpu, Library::Classic)?;
    Ok(ops.download_c(gpu)?.0)
}

/// Times `kernel` and cuBLAS (both ways) on the same operands, one after the other in this run.
pub struct Comparison {
    pub kernel: Timing,
    /// The classic call and cuBLASLt, in [`Library::ALL`] order.
    pub cublas: [Timing; 2],
}

impl Comparison {
    /// The faster cuBLAS (by median): the baseline.
    pub fn best_cublas(&self) -> (Library, &Timing) {
        let [classic, lt] = &self.cublas;
        if lt.median_ms() < classic.median_ms() { (Library::Lt, lt) } else { (Library::Classic, classic) }
    }
}

pub fn time_against_cublas(gpu: &Gpu, kernel: Kernel, ops: &Operands, warmup: usize, iters: usize) -> Result<Comparison> {
    let geometry = kernel.geometry(ops.problem())?;
    let kernel_timing = bench::time(gpu, warmup, iters, || ops.launch(gpu, kernel, &geometry))?;
    let classic = bench::time(gpu, warmup, iters, || ops.cublas(gpu, Library::Classic))?;
    let lt = bench::time(gpu, warmup, iters, || ops.cublas(gpu, Library::Lt))?;
    Ok(Comparison { kernel: kernel_timing, cublas: [classic, lt] })
}
