//! Running one kernel on one problem and judging the result.
//!
//! A, B and C are laid out as the problem stores them (see [`storage`]), each between two guard
//! bands filled with a sentinel, each band at least one full stored row of its matrix and at least
//! [`MIN_GUARD_BYTES`]: a kernel that writes outside C, even a whole row or a whole tile past it,
//! changes a band (or C's padding) and fails even if its C is right. A and B are compared with what
//! was uploaded after every validated launch, so a store into an input fails too. Problems up to
//! [`FULL_REFERENCE_LIMIT`] multiply-adds are checked element by element against the full f64
//! reference; larger ones against cuBLAS over the whole of C (each element within the sum of both
//! computations' error bounds) plus f64 on sampled rows and columns (the full f64 product of an
//! 8192³ problem would take minutes).
//!
//! [`Operands`] remember the problem and element type they were sized for, and the only safe ways
//! to launch on them ([`Operands::launch`], [`Operands::cublas`]) launch that problem.

use crate::baseline::CublasExt;
use crate::baseline::Library;
use crate::timing::{self, Timing};
use rgemm::catalog::{Dtype, Kernel, Launch};
use crate::check::{self, ErrorModel, Inputs, Sample};
use crate::tool_error::{ToolError, ToolResult};
use rgemm::gpu::{Buffer, Gpu};
use rgemm::problem::Problem;
use crate::storage::{self, Operand};

/// Largest M·N·K (of the whole batch) checked against the full f64 reference.
pub const FULL_REFERENCE_LIMIT: u128 = 1 << 30;
/// The smallest guard band, in bytes, on each side of each matrix.
pub const MIN_GUARD_BYTES: u64 = 64 << 10;
/// Written into every guard band and C's padding; a changed word is a stray write.
const SENTINEL: f32 = f32::from_bits(0x7f80_0bad);
/// Rows and columns recomputed in f64 for large problems.
const SAMPLES: usize = 8;

/// What the result was compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reference {
    /// The whole of C against f64 on the CPU.
    FullF64,
    /// The whole of C against cuBLAS; sampled rows and columns against f64 ([`Verdict::sampled`]).
    CublasAndSampledF64,
    /// Sampled rows and columns against f64 only (large problems on the emulator: no cuBLAS).
    SampledF64,
}

#[derive(Clone, Debug)]
pub struct Verdict {
    pub reference: Reference,
    /// Every compared element against its error bound (f64, or cuBLAS for large problems).
    pub comparison: check::Comparison,
    /// Sampled rows and columns against f64, when the whole of C was compared with cuBLAS.
    pub sampled: Option<check::Comparison>,
    /// Elements of the guard bands around A, B and C, and of C's padding, that the kernel changed.
    pub guard_writes: usize,
    /// Elements of A and B (padding included) that the kernel changed.
    pub input_writes: usize,
}

impl Verdict {
    /// Every element within its bound, no stray write; NaN fails.
    pub fn passed(&self) -> bool {
        self.guard_writes == 0 && self.input_writes == 0 && self.comparison.passed() && self.sampled.as_ref().is_none_or(check::Comparison::passed)
    }

    /// The relative Frobenius error of the main comparison, for reports.
    pub fn rel_error(&self) -> f64 {
        self.comparison.relative_error()
    }
}

impl Reference {
    /// What the comparison was against, as a verdict says it.
    fn against(self) -> &'static str {
        match self {
            Reference::FullF64 => "against the f64 reference",
            Reference::SampledF64 => "against f64 on sampled rows and columns",
            Reference::CublasAndSampledF64 => "against cuBLAS",
        }
    }
}

fn pass_or_fail(passed: bool) -> &'static str {
    if passed { "PASS" } else { "FAIL" }
}

/// The end of a verdict: the words written outside the outputs (`around`) and into A and B.
fn write_strays(f: &mut std::fmt::Formatter<'_>, guard_writes: usize, input_writes: usize, around: &str) -> std::fmt::Result {
    if guard_writes > 0 {
        write!(f, "; {guard_writes} guard-band or padding elements around {around} were overwritten")?;
    }
    if input_writes > 0 {
        write!(f, "; {input_writes} elements of the inputs A and B were overwritten")?;
    }
    Ok(())
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} {}", pass_or_fail(self.passed()), self.comparison, self.reference.against())?;
        if let Some(sampled) = &self.sampled {
            write!(f, "; {sampled} against f64 on sampled rows and columns")?;
        }
        write_strays(f, self.guard_writes, self.input_writes, "A, B or C")
    }
}

/// The verdict on a product with an output type or a fused epilogue: C, and the auxiliary output
/// where the epilogue writes one, each against f64 through the same epilogue
/// ([`check::compare_epilogue`]).
#[derive(Clone, Debug)]
pub struct FusedVerdict {
    /// [`Reference::FullF64`], or [`Reference::SampledF64`] above [`FULL_REFERENCE_LIMIT`].
    pub reference: Reference,
    pub c: check::Comparison,
    pub aux: Option<check::Comparison>,
    /// Elements of the guard bands and the padding around A, B, C, the bias and the auxiliary
    /// output that the run changed (none on the emulator, where such a write is a fault).
    pub guard_writes: usize,
    /// Elements of A and B (padding included) that the run changed.
    pub input_writes: usize,
}

impl FusedVerdict {
    /// Every element of C and of the auxiliary output within its bound, no stray write.
    pub fn passed(&self) -> bool {
        self.guard_writes == 0 && self.input_writes == 0 && self.c.passed() && self.aux.as_ref().is_none_or(check::Comparison::passed)
    }
}

impl std::fmt::Display for FusedVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: C: {}", pass_or_fail(self.passed()), self.c)?;
        if let Some(aux) = &self.aux {
            write!(f, "; auxiliary output: {aux}")?;
        }
        write!(f, "; {} through the same epilogue", self.reference.against())?;
        write_strays(f, self.guard_writes, self.input_writes, "A, B, C, the bias or the auxiliary output")
    }
}

/// A verdict on a plain product, or on one with an output type or a fused epilogue.
#[derive(Clone, Debug)]
pub enum Judged {
    Plain(Verdict),
    Fused(FusedVerdict),
}

impl Judged {
    pub fn passed(&self) -> bool {
        match self {
            Judged::Plain(v) => v.passed(),
            Judged::Fused(v) => v.passed(),
        }
    }
}

impl std::fmt::Display for Judged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Judged::Plain(v) => v.fmt(f),
            Judged::Fused(v) => v.fmt(f),
        }
    }
}

/// Guard band on each side of a matrix whose stored rows are `row_bytes` long: one row, at least
/// [`MIN_GUARD_BYTES`], in whole 256-byte lines (so the matrix keeps cudaMalloc's alignment).
pub fn guard_bytes(row_bytes: u64) -> u64 {
    row_bytes.max(MIN_GUARD_BYTES).next_multiple_of(256)
}

/// One matrix in device memory between two guard bands.
struct Guarded {
    buffer: Buffer<u8>,
    guard: usize,
    len: usize,
}

impl Guarded {
    fn upload(gpu: &Gpu, data: &[u8], row_bytes: u64) -> ToolResult<Guarded> {
        let guard = guard_bytes(row_bytes) as usize;
        let band: Vec<u8> = SENTINEL.to_le_bytes().into_iter().cycle().take(guard).collect();
        let mut all = Vec::with_capacity(2 * guard + data.len());
        all.extend_from_slice(&band);
        all.extend_from_slice(data);
        all.extend_from_slice(&band);
        Ok(Guarded { buffer: gpu.upload(&all)?, guard, len: data.len() })
    }

    fn addr(&self, gpu: &Gpu) -> u64 {
        self.buffer.addr(gpu) + self.guard as u64
    }

    /// The matrix's bytes and the number of changed 4-byte words of its guard bands.
    fn download(&self, gpu: &Gpu) -> ToolResult<(Vec<u8>, usize)> {
        let mut all = gpu.download(&self.buffer)?;
        let sentinel = SENTINEL.to_le_bytes();
        let changed = |band: &[u8]| band.chunks(4).filter(|w| *w != sentinel).count();
        let guard_writes = changed(&all[..self.guard]) + changed(&all[self.guard + self.len..]);
        all.truncate(self.guard + self.len);
        all.drain(..self.guard);
        Ok((all, guard_writes))
    }
}

/// Device buffers of one problem, laid out as it stores them (see [`storage`]): A and B with NaN
/// wherever no product reads, C with a sentinel in its padding, each between guard bands. The
/// operands remember the problem and element type they were made for, so nothing launches on them
/// past their ends.
pub struct Operands {
    problem: Problem,
    dtype: Dtype,
    a: Guarded,
    b: Guarded,
    c: Guarded,
    /// A and B as uploaded (stored, encoded), to see that a launch left them unchanged.
    uploaded: (Vec<u8>, Vec<u8>),
}

/// What a launch left in the operands.
pub struct Leftovers {
    /// The products' M×N matrices, one after another.
    pub c: Vec<f32>,
    /// Changed words of the guard bands and of C's padding.
    pub guard_writes: usize,
    /// Changed elements of A and B.
    pub input_writes: usize,
}

impl Operands {
    /// Bytes of device memory a check of `problem` needs: its operands with their guard bands,
    /// twice (cuBLAS's reference result for large problems gets operands of its own), with A and B
    /// counted at 4 bytes per element whatever their type; u64::MAX where that does not fit.
    pub fn bytes(problem: &Problem) -> u64 {
        u64::try_from(2 * Self::one_set(problem)).unwrap_or(u64::MAX)
    }

    /// Bytes of one set of operands with their guard bands.
    fn one_set(problem: &Problem) -> u128 {
        let (la, lb, lc) = problem.extents();
        let guards = |ld: u32| 2 * guard_bytes(4 * ld as u64) as u128;
        4 * (la as u128 + lb as u128 + lc as u128) + guards(problem.lda) + guards(problem.ldb) + guards(problem.ldc)
    }

    pub fn upload(gpu: &Gpu, problem: &Problem, inputs: &Inputs) -> ToolResult<Operands> {
        gpu.require_memory(u64::try_from(Self::one_set(problem)).unwrap_or(u64::MAX))?;
        let (la, lb, lc) = problem.elems();
        if (inputs.a.len(), inputs.b.len(), inputs.c.len()) != (la, lb, lc) {
            return Err(ToolError::InvalidArgument(format!("inputs of {} elements for A, B, C do not match {problem}", inputs.a.len() + inputs.b.len() + inputs.c.len())));
        }
        let elem = inputs.dtype.bytes() as u64;
        let stored = |operand, values: &[f32]| check::encode(inputs.dtype, &storage::pack(problem, operand, values, f32::NAN));
        let (a, b) = (stored(Operand::A, &inputs.a), stored(Operand::B, &inputs.b));
        let c: Vec<u8> = storage::pack(problem, Operand::C, &inputs.c, SENTINEL).iter().flat_map(|v| v.to_le_bytes()).collect();
        Ok(Operands {
            problem: *problem,
            dtype: inputs.dtype,
            a: Guarded::upload(gpu, &a, problem.lda as u64 * elem)?,
            b: Guarded::upload(gpu, &b, problem.ldb as u64 * elem)?,
            c: Guarded::upload(gpu, &c, problem.ldc as u64 * 4)?,
            uploaded: (a, b),
        })
    }

    /// The problem these operands were sized for.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    pub fn dtype(&self) -> Dtype {
        self.dtype
    }

    fn c_addr(&self, gpu: &Gpu) -> u64 {
        self.c.addr(gpu)
    }

    /// Device addresses of A, B and C, for launches the checker's own tests make deliberately
    /// wrong (through the `unsafe` [`Gpu::launch`]); [`Operands::launch`] is the safe way.
    pub fn addresses(&self, gpu: &Gpu) -> (u64, u64, u64) {
        (self.a.addr(gpu), self.b.addr(gpu), self.c_addr(gpu))
    }

    /// Launches `kernel` on these operands (the problem they were made for).
    pub fn launch(&self, gpu: &Gpu, kernel: Kernel, geometry: &Launch) -> ToolResult<()> {
        if kernel.spec.dtype != self.dtype {
            return Err(ToolError::InvalidArgument(format!("{} multiplies {}, these operands hold {}", kernel.name(), kernel.spec.dtype.name(), self.dtype.name())));
        }
        if *geometry != kernel.geometry(&self.problem)? {
            return Err(ToolError::InvalidArgument(format!("the launch geometry given for {} is not the one of {}", kernel.name(), self.problem)));
        }
        // SAFETY: the buffers were sized for this problem and element type (checked above), and
        // the geometry is the kernel's own for it; every matrix starts on a 256-byte line.
        Ok(unsafe { gpu.launch(kernel, geometry, &self.problem, self.a.addr(gpu), self.b.addr(gpu), self.c_addr(gpu)) }?)
    }

    /// A library plan ([`rgemm::api::Plan`], split-K included) on these operands.
    pub fn run_plan(&self, gpu: &Gpu, plan: &rgemm::api::Plan) -> ToolResult<()> {
        if *plan.problem() != self.problem || plan.kernel().spec.dtype != self.dtype {
            return Err(ToolError::InvalidArgument(format!("the plan is for {} in {}, these operands for {} in {}", plan.problem(), plan.kernel().spec.dtype.name(), self.problem, self.dtype.name())));
        }
        let (a, b, c) = (self.a.addr(gpu), self.b.addr(gpu), self.c_addr(gpu));
        // SAFETY: the buffers were sized for this problem and element type (checked above);
        // every matrix starts on a 256-byte line.
        Ok(unsafe { plan.launch_at(gpu, a, b, c) }?)
    }

    /// cuBLAS on these operands (overwrites C).
    pub fn cublas(&self, gpu: &Gpu, library: Library) -> ToolResult<()> {
        // SAFETY: the buffers hold this problem's operands of this element type.
        unsafe { gpu.cublas(library, self.dtype, &self.problem, self.a.addr(gpu), self.b.addr(gpu), self.c_addr(gpu), 0, 0) }
    }

    /// C as computed, the guard-band and padding words that changed, and the elements of A and B
    /// that changed.
    pub fn inspect(&self, gpu: &Gpu) -> ToolResult<Leftovers> {
        let (a, guard_a) = self.a.download(gpu)?;
        let (b, guard_b) = self.b.download(gpu)?;
        let (c, guard_c) = self.c.download(gpu)?;
        let input_writes = changed_elements(&a, &self.uploaded.0, self.dtype) + changed_elements(&b, &self.uploaded.1, self.dtype);
        let stored: Vec<f32> = c.chunks_exact(4).map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
        let (values, padding) = storage::unpack_c(&self.problem, &stored, SENTINEL);
        Ok(Leftovers { c: values, guard_writes: guard_a + guard_b + guard_c + padding, input_writes })
    }

    /// C as computed, and the number of elements outside it (guard bands, padding, A and B) that
    /// changed.
    pub fn download_c(&self, gpu: &Gpu) -> ToolResult<(Vec<f32>, usize)> {
        let outcome = self.inspect(gpu)?;
        Ok((outcome.c, outcome.guard_writes + outcome.input_writes))
    }
}

/// Elements of `dtype` that differ between `now` and `then`.
fn changed_elements(now: &[u8], then: &[u8], dtype: Dtype) -> usize {
    let elem = dtype.bytes() as usize;
    now.chunks(elem).zip(then.chunks(elem)).filter(|(x, y)| x != y).count()
}

/// The host memory a check of `problem` needs (checkable before the GPU is opened).
pub fn require_host_memory(problem: &Problem) -> ToolResult<()> {
    check::require_host_memory(check::host_bytes(problem, problem.macs() <= FULL_REFERENCE_LIMIT))
}

/// Everything a check of `problem` needs, host and device, before anything is allocated.
pub fn require_memory(gpu: &Gpu, problem: &Problem) -> ToolResult<()> {
    require_host_memory(problem)?;
    Ok(gpu.require_memory(Operands::bytes(problem))?)
}

/// Runs `kernel` once on fresh random inputs drawn from `seed` and judges the result.
pub fn verify(gpu: &Gpu, kernel: Kernel, problem: &Problem, seed: u64) -> ToolResult<Verdict> {
    let geometry = kernel.geometry(problem)?;
    judge(gpu, problem, kernel.spec.dtype, &ErrorModel::of(kernel.spec), seed, |ops| ops.launch(gpu, kernel, &geometry)).map(|(verdict, _)| verdict)
}

/// Judges whatever `compute` does to the operands of `problem` (the checker's own tests hand it
/// deliberately wrong launches), with the error model of `dtype`'s kernels, and returns the
/// operands for timing.
pub fn verify_with(gpu: &Gpu, problem: &Problem, dtype: Dtype, seed: u64, compute: impl FnOnce(&Operands) -> ToolResult<()>) -> ToolResult<(Verdict, Operands)> {
    judge(gpu, problem, dtype, &ErrorModel::of_dtype(dtype), seed, compute)
}

/// Judges a library plan on random operands of its problem, with the error model of the kernel
/// it runs ([`ErrorModel::of`]).
pub fn verify_plan(gpu: &Gpu, plan: &rgemm::api::Plan, seed: u64) -> ToolResult<(Verdict, Operands)> {
    let spec = plan.kernel().spec;
    judge(gpu, plan.problem(), spec.dtype, &ErrorModel::of(spec), seed, |ops| ops.run_plan(gpu, plan))
}

fn judge(gpu: &Gpu, problem: &Problem, dtype: Dtype, model: &ErrorModel, seed: u64, compute: impl FnOnce(&Operands) -> ToolResult<()>) -> ToolResult<(Verdict, Operands)> {
    require_memory(gpu, problem)?;
    let inputs = Inputs::random(problem, dtype, seed);
    let ops = Operands::upload(gpu, problem, &inputs)?;
    compute(&ops)?;
    let Leftovers { c: got, guard_writes, input_writes } = ops.inspect(gpu)?;
    if problem.macs() <= FULL_REFERENCE_LIMIT {
        let comparison = check::compare_full(problem, &inputs, model, &got);
        return Ok((Verdict { reference: Reference::FullF64, comparison, sampled: None, guard_writes, input_writes }, ops));
    }
    let cublas = cublas_result(gpu, problem, &inputs)?;
    let comparison = check::compare_computed(problem, &inputs, model, &ErrorModel::of_dtype(dtype), &got, &cublas);
    let sampled = Sample::random(problem, SAMPLES, seed).compare(problem, &inputs, model, &got);
    Ok((Verdict { reference: Reference::CublasAndSampledF64, comparison, sampled: Some(sampled), guard_writes, input_writes }, ops))
}

/// cuBLAS's C for the same inputs, on operands of its own.
fn cublas_result(gpu: &Gpu, problem: &Problem, inputs: &Inputs) -> ToolResult<Vec<f32>> {
    let ops = Operands::upload(gpu, problem, inputs)?;
    ops.cublas(gpu, Library::Classic)?;
    Ok(ops.inspect(gpu)?.c)
}

/// Times `kernel` and cuBLAS (both ways) on the same operands, one after the other in this run.
pub struct TimedAgainstCublas {
    pub kernel: Timing,
    /// The classic call and cuBLASLt, in [`Library::ALL`] order.
    pub cublas: [Timing; 2],
}

impl TimedAgainstCublas {
    /// The faster cuBLAS (by median): the baseline.
    pub fn best_cublas(&self) -> (Library, &Timing) {
        let [classic, lt] = &self.cublas;
        if lt.median_ms() < classic.median_ms() { (Library::Lt, lt) } else { (Library::Classic, classic) }
    }
}

/// Times `kernel` and cuBLAS on `ops`, on the problem the operands were made for.
///
/// There is no problem to pass beside the operands (one larger than theirs would launch past
/// their buffers):
///
/// ```compile_fail
/// # fn f(gpu: &rgemm::Gpu, kernel: rgemm::Kernel, ops: &rgemm_tools::verify::Operands, larger: &rgemm::Problem) {
/// rgemm_tools::verify::time_against_cublas(gpu, kernel, larger, ops, 3, 10).unwrap();
/// # }
/// ```
///
/// nor a way to reach the buffers past the operands' own launches:
///
/// ```compile_fail
/// # fn f(gpu: &rgemm::Gpu, ops: &rgemm_tools::verify::Operands) {
/// let a = ops.a.addr(gpu);
/// # }
/// ```
///
/// ```no_run
/// # fn f(gpu: &rgemm::Gpu, kernel: rgemm::Kernel, ops: &rgemm_tools::verify::Operands) {
/// let timing = rgemm_tools::verify::time_against_cublas(gpu, kernel, ops, 3, 10).unwrap();
/// # }
/// ```
pub fn time_against_cublas(gpu: &Gpu, kernel: Kernel, ops: &Operands, warmup: usize, iters: usize) -> ToolResult<TimedAgainstCublas> {
    let geometry = kernel.geometry(ops.problem())?;
    time_against_cublas_with(gpu, ops, warmup, iters, || ops.launch(gpu, kernel, &geometry))
}

/// As [`time_against_cublas`], for whatever `launch` queues on these operands (a library plan).
pub fn time_against_cublas_with(gpu: &Gpu, ops: &Operands, warmup: usize, iters: usize, launch: impl FnMut() -> ToolResult<()>) -> ToolResult<TimedAgainstCublas> {
    // In turn, so that all three meet the same clocks (see `timing`).
    let (mut launch, mut classic, mut lt) = (launch, || ops.cublas(gpu, Library::Classic), || ops.cublas(gpu, Library::Lt));
    let [kernel, classic, lt] = timing::time_in_turn(gpu, warmup, iters, None, [&mut launch, &mut classic, &mut lt])?;
    Ok(TimedAgainstCublas { kernel: kernel?, cublas: [classic?, lt?] })
}

/// Device buffers of a problem with a fused epilogue: A and B as [`Operands`] holds them, C and
/// the auxiliary output in the output type (a sentinel in their padding), the bias; each between
/// guard bands. The inputs and the bias stay on the host for the check.
pub struct FusedOperands {
    problem: Problem,
    inputs: Inputs,
    /// The bias (values of the output type) the check adds.
    pub epilogue: check::EpilogueCheck,
    a: Guarded,
    b: Guarded,
    c: Guarded,
    bias: Option<Guarded>,
    aux: Option<Guarded>,
    /// A and B as uploaded (stored, encoded), to see that a launch left them unchanged.
    uploaded: (Vec<u8>, Vec<u8>),
}

impl FusedOperands {
    /// Fresh random operands of `dtype` (and a random bias) for `problem` from `seed`, uploaded.
    pub fn upload(gpu: &Gpu, problem: &Problem, dtype: Dtype, seed: u64) -> ToolResult<FusedOperands> {
        gpu.require_memory(Operands::bytes(problem) / 2)?;
        let inputs = Inputs::random(problem, dtype, seed);
        let epilogue = check::EpilogueCheck::random(problem, seed);
        let out = problem.epilogue.output;
        let (elem, out_bytes) = (dtype.bytes() as u64, out.bytes() as u64);
        let stored = |operand, values: &[f32]| check::encode(dtype, &storage::pack(problem, operand, values, f32::NAN));
        let (a, b) = (stored(Operand::A, &inputs.a), stored(Operand::B, &inputs.b));
        let c_rows = problem.ldc as u64 * out_bytes;
        let c = check::encode(out, &storage::pack(problem, Operand::C, &inputs.c, SENTINEL));
        let aux = problem.epilogue.aux.then(|| check::encode(out, &storage::pack(problem, Operand::C, &vec![SENTINEL; inputs.c.len()], SENTINEL)));
        let bias = (!epilogue.bias.is_empty()).then(|| check::encode(out, &epilogue.bias));
        Ok(FusedOperands {
            problem: *problem,
            a: Guarded::upload(gpu, &a, problem.lda as u64 * elem)?,
            b: Guarded::upload(gpu, &b, problem.ldb as u64 * elem)?,
            c: Guarded::upload(gpu, &c, c_rows)?,
            bias: bias.map(|b| Guarded::upload(gpu, &b, out_bytes)).transpose()?,
            aux: aux.map(|x| Guarded::upload(gpu, &x, c_rows)).transpose()?,
            uploaded: (a, b),
            inputs,
            epilogue,
        })
    }

    /// The problem these operands were sized for.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    fn fused_addresses(&self, gpu: &Gpu) -> [u64; 2] {
        [self.bias.as_ref().map_or(0, |b| b.addr(gpu)), self.aux.as_ref().map_or(0, |x| x.addr(gpu))]
    }

    /// A library plan on these operands.
    pub fn run_plan(&self, gpu: &Gpu, plan: &rgemm::api::Plan) -> ToolResult<()> {
        if *plan.problem() != self.problem || plan.kernel().spec.dtype != self.inputs.dtype {
            return Err(ToolError::InvalidArgument(format!("the plan is for {} in {}, these operands for {} in {}", plan.problem(), plan.kernel().spec.dtype.name(), self.problem, self.inputs.dtype.name())));
        }
        let abc = [self.a.addr(gpu), self.b.addr(gpu), self.c.addr(gpu)];
        let plan = plan.at_addresses(abc)?;
        // SAFETY: the buffers were sized for this problem, element type and output type (checked
        // above), the bias and the auxiliary output as its epilogue needs; every buffer starts on
        // a 256-byte line and none overlaps another.
        Ok(unsafe { plan.launch_with_epilogue_at(gpu, abc, self.fused_addresses(gpu)) }?)
    }

    /// cuBLAS with the same output type and epilogue on these operands (overwrites C).
    pub fn cublas(&self, gpu: &Gpu, library: Library) -> ToolResult<()> {
        let [bias, aux] = self.fused_addresses(gpu);
        // SAFETY: the buffers hold this problem's operands, bias and auxiliary output.
        unsafe { gpu.cublas(library, self.inputs.dtype, &self.problem, self.a.addr(gpu), self.b.addr(gpu), self.c.addr(gpu), bias, aux) }
    }

    /// C and the auxiliary output as computed against the f64 reference (all of them up to
    /// [`FULL_REFERENCE_LIMIT`] multiply-adds, sampled rows and columns beyond), the words written
    /// around the buffers (guard bands, padding) and the elements of A and B changed.
    pub fn check(&self, gpu: &Gpu, model: &ErrorModel, seed: u64) -> ToolResult<FusedVerdict> {
        let out = self.problem.epilogue.output;
        let read = |g: &Guarded| -> ToolResult<(Vec<f32>, usize)> {
            let (bytes, guards) = g.download(gpu)?;
            let (values, padding) = storage::unpack_c(&self.problem, &check::decode(out, &bytes), check::decode(out, &check::encode(out, &[SENTINEL]))[0]);
            Ok((values, guards + padding))
        };
        let (c, stray_c) = read(&self.c)?;
        let (aux, stray_aux) = match &self.aux {
            Some(g) => {
                let (v, s) = read(g)?;
                (Some(v), s)
            }
            None => (None, 0),
        };
        let (a, guard_a) = self.a.download(gpu)?;
        let (b, guard_b) = self.b.download(gpu)?;
        let guard_bias = match &self.bias {
            Some(g) => g.download(gpu)?.1,
            None => 0,
        };
        let dtype = self.inputs.dtype;
        let input_writes = changed_elements(&a, &self.uploaded.0, dtype) + changed_elements(&b, &self.uploaded.1, dtype);
        let mut verdict = compare_fused(&self.problem, &self.inputs, model, &self.epilogue, &c, aux.as_deref(), seed);
        verdict.guard_writes = stray_c + stray_aux + guard_a + guard_b + guard_bias;
        verdict.input_writes = input_writes;
        Ok(verdict)
    }
}

/// C (and the auxiliary output) of a product with a fused epilogue against f64 through the same
/// epilogue: every element up to [`FULL_REFERENCE_LIMIT`] multiply-adds, sampled rows and columns
/// beyond; no stray writes counted yet.
fn compare_fused(problem: &Problem, inputs: &Inputs, model: &ErrorModel, epilogue: &check::EpilogueCheck, c: &[f32], aux: Option<&[f32]>, seed: u64) -> FusedVerdict {
    let (reference, (c, aux)) = if problem.macs() <= FULL_REFERENCE_LIMIT {
        (Reference::FullF64, check::compare_epilogue(problem, inputs, model, epilogue, c, aux))
    } else {
        (Reference::SampledF64, Sample::random(problem, SAMPLES, seed).compare_epilogue(problem, inputs, model, epilogue, c, aux))
    };
    FusedVerdict { reference, c, aux, guard_writes: 0, input_writes: 0 }
}

/// Judges a library plan whose problem has an output type or a fused epilogue on random operands
/// (and bias) of its problem, with the error model of the kernel it runs, and returns the
/// operands for timing.
pub fn verify_fused_plan(gpu: &Gpu, plan: &rgemm::api::Plan, seed: u64) -> ToolResult<(FusedVerdict, FusedOperands)> {
    let problem = plan.problem();
    require_memory(gpu, problem)?;
    let spec = plan.kernel().spec;
    let ops = FusedOperands::upload(gpu, problem, spec.dtype, seed)?;
    ops.run_plan(gpu, plan)?;
    let verdict = ops.check(gpu, &ErrorModel::of(spec), seed)?;
    Ok((verdict, ops))
}

/// One launch among contenders of several kinds ([`timing::time_contenders`]).
pub type Launcher<'a> = Box<dyn FnMut() -> ToolResult<()> + 'a>;

/// The operands of a library plan: [`Operands`] for a plain product, [`FusedOperands`] for one
/// with an output type or a fused epilogue.
#[allow(clippy::large_enum_variant, reason = "one per checked or timed plan: its size does not matter")]
pub enum PlanOperands {
    Plain(Operands),
    Fused(FusedOperands),
}

impl PlanOperands {
    /// Fresh random operands of `dtype` for `problem` from `seed`, uploaded, as a check of it
    /// makes them.
    pub fn upload(gpu: &Gpu, problem: &Problem, dtype: Dtype, seed: u64) -> ToolResult<PlanOperands> {
        Ok(if problem.epilogue.is_none() {
            PlanOperands::Plain(Operands::upload(gpu, problem, &Inputs::random(problem, dtype, seed))?)
        } else {
            PlanOperands::Fused(FusedOperands::upload(gpu, problem, dtype, seed)?)
        })
    }

    /// The problem these operands were sized for.
    pub fn problem(&self) -> &Problem {
        match self {
            PlanOperands::Plain(ops) => ops.problem(),
            PlanOperands::Fused(ops) => ops.problem(),
        }
    }

    /// A library plan on these operands.
    pub fn run_plan(&self, gpu: &Gpu, plan: &rgemm::api::Plan) -> ToolResult<()> {
        match self {
            PlanOperands::Plain(ops) => ops.run_plan(gpu, plan),
            PlanOperands::Fused(ops) => ops.run_plan(gpu, plan),
        }
    }

    /// cuBLAS on these operands, with their output type and epilogue (overwrites C).
    pub fn cublas(&self, gpu: &Gpu, library: Library) -> ToolResult<()> {
        match self {
            PlanOperands::Plain(ops) => ops.cublas(gpu, library),
            PlanOperands::Fused(ops) => ops.cublas(gpu, library),
        }
    }

    /// A launch of each of `libraries` on these operands, in order, to time beside others.
    pub fn cublas_launches<'a>(&'a self, gpu: &'a Gpu, libraries: &[Library]) -> Vec<Launcher<'a>> {
        libraries.iter().map(|&library| Box::new(move || self.cublas(gpu, library)) as Launcher<'a>).collect()
    }

    /// `kernel` launched alone, on a plain product's operands ([`Operands::launch`]); a product
    /// with an output type or an epilogue runs as a plan (which may add the epilogue pass).
    pub fn launch(&self, gpu: &Gpu, kernel: Kernel, geometry: &Launch) -> ToolResult<()> {
        match self {
            PlanOperands::Plain(ops) => ops.launch(gpu, kernel, geometry),
            PlanOperands::Fused(_) => Err(ToolError::InvalidArgument(format!("{} is launched alone only on a plain product; with an output type or an epilogue it runs as a plan", kernel.name()))),
        }
    }
}

/// Judges a library plan on random operands of its problem ([`verify_plan`], or
/// [`verify_fused_plan`] where the problem has an output type or a fused epilogue), and returns
/// the operands for timing.
pub fn judge_plan(gpu: &Gpu, plan: &rgemm::api::Plan, seed: u64) -> ToolResult<(Judged, PlanOperands)> {
    if plan.problem().epilogue.is_none() {
        let (verdict, ops) = verify_plan(gpu, plan, seed)?;
        Ok((Judged::Plain(verdict), PlanOperands::Plain(ops)))
    } else {
        let (verdict, ops) = verify_fused_plan(gpu, plan, seed)?;
        Ok((Judged::Fused(verdict), PlanOperands::Fused(ops)))
    }
}

/// `kernel` on `problem` on the GPU, judged: launched alone for a plain product ([`verify`]); by
/// its named plan for one with an output type or a fused epilogue (with the epilogue pass where
/// the kernel does not apply the epilogue itself).
pub fn judge_kernel(gpu: &Gpu, kernel: Kernel, problem: &Problem, seed: u64) -> ToolResult<Judged> {
    if problem.epilogue.is_none() {
        return verify(gpu, kernel, problem, seed).map(Judged::Plain);
    }
    let plan = rgemm::choice::plan(kernel.spec.dtype, problem, &rgemm::api::KernelChoice::Named(kernel.name().into()), gpu.info.multiprocessors)?;
    judge_plan(gpu, &plan, seed).map(|(verdict, _)| verdict)
}

/// Whether [`judge_kernel`] runs `kernel` on `problem`, decided on the CPU: its launch, and with
/// an output type or a fused epilogue, its named plan. A named plan is never split, so the SM
/// count it is made for (one here) changes nothing.
pub fn gpu_takes(kernel: Kernel, problem: &Problem) -> Result<(), rgemm::Error> {
    kernel.geometry(problem)?;
    if problem.epilogue.is_none() {
        return Ok(());
    }
    rgemm::choice::plan(kernel.spec.dtype, problem, &rgemm::api::KernelChoice::Named(kernel.name().into()), 1).map(drop)
}

/// Whether [`judge_emulated`] runs `kernel` on `problem`: its launch, and with an output type or
/// a fused epilogue, only where the kernel applies it itself (the emulator runs no epilogue pass).
pub fn emulator_takes(kernel: Kernel, problem: &Problem) -> Result<(), rgemm::Error> {
    kernel.geometry(problem)?;
    if kernel.applies_epilogue(problem) {
        return Ok(());
    }
    Err(rgemm::Error::Unsupported {
        kernel: kernel.name().into(),
        reason: "it does not apply this epilogue itself and the emulator has no epilogue pass (on the GPU its plan applies it after the product: leave out --emulate)".into(),
    })
}

/// `kernel` on `problem` on the CPU emulator, on random inputs (and bias) from `seed`, judged
/// against f64 ([`crate::emulate::verify`]; through the output type and the fused epilogue where
/// the problem has them).
pub fn judge_emulated(kernel: Kernel, problem: &Problem, seed: u64) -> ToolResult<Judged> {
    if problem.epilogue.is_none() {
        return crate::emulate::verify(kernel, problem, seed).map(Judged::Plain);
    }
    emulator_takes(kernel, problem)?;
    crate::emulate::check_size(problem)?;
    let inputs = Inputs::random(problem, kernel.spec.dtype, seed);
    let epilogue = check::EpilogueCheck::random(problem, seed);
    let mut c = inputs.c.clone();
    let mut aux = problem.epilogue.aux.then(|| vec![0.0f32; c.len()]);
    // SAFETY: the catalog's spec and entry of one kernel.
    let input_writes = unsafe { crate::emulate::run_entry_fused(kernel.spec, crate::emulate::entry(kernel), problem, &inputs.a, &inputs.b, &mut c, &epilogue.bias, aux.as_deref_mut()) }?;
    let mut verdict = compare_fused(problem, &inputs, &ErrorModel::of(kernel.spec), &epilogue, &c, aux.as_deref(), seed);
    verdict.input_writes = input_writes;
    Ok(Judged::Fused(verdict))
}

/// Why no cuBLAS call runs `problem` with A and B of `dtype` (its output type and epilogue
/// included), where none does ([`crate::baseline::libraries_for`]): a comparison with the same
/// output type and epilogue then has no ratio. `None` where one runs it.
pub fn no_baseline(dtype: Dtype, problem: &Problem) -> Option<String> {
    if !crate::baseline::libraries_for(dtype, problem).is_empty() {
        return None;
    }
    // cuBLASLt's refusal is the closer one: only it fuses epilogues.
    Some(Library::Lt.supports(dtype, problem).err().map_or_else(|| "no cuBLAS call runs this product".to_string(), |e| e.to_string()))
}

/// A plan timed in turn with each cuBLAS library that runs the same output type and epilogue
/// ([`crate::baseline::libraries_for`]: both for a plain product, cuBLASLt alone for an epilogue
/// it fuses, none where cuBLAS fuses none of it, [`no_baseline`]), on the same operands.
pub fn time_plan_against_cublas(gpu: &Gpu, plan: &rgemm::api::Plan, ops: &PlanOperands, warmup: usize, iters: usize) -> ToolResult<(Timing, Vec<(Library, Timing)>)> {
    let libraries = crate::baseline::libraries_for(plan.kernel().spec.dtype, ops.problem());
    let mut launches = ops.cublas_launches(gpu, libraries);
    launches.push(Box::new(|| ops.run_plan(gpu, plan)));
    let mut contenders: Vec<timing::Contender<'_>> = launches.iter_mut().map(|l| &mut **l as timing::Contender<'_>).collect();
    let mut timings = timing::time_interleaved(gpu, warmup, iters, None, &mut contenders)?;
    let ours = timings.pop().ok_or_else(|| ToolError::InvalidArgument("the plan was not timed".into()))??;
    let baselines = libraries.iter().copied().zip(timings).map(|(library, timing)| Ok((library, timing?))).collect::<ToolResult<Vec<_>>>()?;
    Ok((ours, baselines))
}
