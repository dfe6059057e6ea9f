//! Running kernels on the CPU: the kernel crate compiled for the host, its device module replaced
//! by the emulator (`kernels_gpu::device::emulator`), launched with the grid the GPU would get.
//!
//! The emulator checks what the GPU would not: every global access against the bounds of A, B and
//! C (A and B read-only), every shared access against the block's shared memory, races between the
//! threads of a block, and that every thread reaches every barrier. A violation is an
//! [`Error::Fault`] naming kernel, block, thread and address. It is slow (a few million
//! multiply-adds per second): meant for small problems, tests and readers without a GPU.

use kernels_gpu::device::emulator::{self, Launch, Region};
use kernels_gpu::{EmulatedEntry, KernelSpec};

use crate::catalog::{self, Kernel};
use crate::check::{self, Inputs, Sample};
use crate::error::{Error, Result};
use crate::problem::Problem;
use crate::verify::{FULL_REFERENCE_LIMIT, Reference, Verdict};

/// Bytes of unallocated space around each matrix, so an overrun lands in no matrix.
const GAP: usize = 4096;

/// The host function of a catalog kernel.
pub fn entry(kernel: Kernel) -> EmulatedEntry {
    let specs = kernels_gpu::CATALOG.iter().flat_map(|r| r.iter());
    let entries = kernels_gpu::EMULATED.iter().flat_map(|r| r.iter());
    specs.zip(entries).find(|(s, _)| s.name == kernel.name()).map(|(_, &e)| e).expect("every catalog kernel has an emulated entry")
}

/// Runs `kernel` on the emulator: `C = alpha·A·B + beta·C` on the CPU.
pub fn run(kernel: Kernel, problem: &Problem, a: &[f32], b: &[f32], c: &mut [f32]) -> Result<()> {
    kernel.launch(problem)?;
    run_entry(kernel.spec, entry(kernel), problem, a, b, c)
}

/// Runs any entry (the catalog's, or a test fixture's) with the launch geometry of `spec`.
pub fn run_entry(spec: &KernelSpec, entry: EmulatedEntry, problem: &Problem, a: &[f32], b: &[f32], c: &mut [f32]) -> Result<()> {
    let (la, lb, lc) = problem.elems();
    assert_eq!((a.len(), b.len(), c.len()), (la, lb, lc), "operand sizes do not match the problem");
    if spec.dtype != catalog::Dtype::F32 {
        return Err(Error::Unsupported { kernel: spec.name.into(), reason: format!("the emulator runs f32 kernels only ({} given)", spec.dtype.name()) });
    }
    // A, B and C in one arena, 256-byte aligned like cudaMalloc's, with gaps between them.
    let offsets = {
        let place = |at: usize, bytes: usize| (at, (at + bytes + GAP).next_multiple_of(256));
        let (oa, next) = place(GAP, 4 * la);
        let (ob, next) = place(next, 4 * lb);
        let (oc, end) = place(next, 4 * lc);
        (oa, ob, oc, end)
    };
    let (oa, ob, oc, end) = offsets;
    let mut arena = vec![Line([0; 256]); end.div_ceil(256)];
    let base = arena.as_mut_ptr() as *mut u8;
    unsafe {
        std::ptr::copy_nonoverlapping(a.as_ptr(), base.add(oa) as *mut f32, la);
        std::ptr::copy_nonoverlapping(b.as_ptr(), base.add(ob) as *mut f32, lb);
        std::ptr::copy_nonoverlapping(c.as_ptr(), base.add(oc) as *mut f32, lc);
    }
    let region = |name, offset, elems: usize, writable| Region { name, start: base as usize + offset, len: 4 * elems, writable };
    let regions = [region("A", oa, la, false), region("B", ob, lb, false), region("C", oc, lc, true)];
    let t = &spec.tile;
    let launch = Launch {
        kernel: spec.name,
        grid: (problem.n.div_ceil(t.bn), problem.m.div_ceil(t.bm)),
        threads: spec.threads,
        smem_bytes: spec.smem_bytes,
        regions: &regions,
    };
    let (pa, pb, pc) = (base as usize + oa, base as usize + ob, base as usize + oc);
    let (m, n, k, alpha, beta) = (problem.m, problem.n, problem.k, problem.alpha, problem.beta);
    emulator::launch(&launch, &|| unsafe { entry(pa as *const u8, pb as *const u8, pc as *mut f32, m, n, k, alpha, beta) })
        .map_err(|fault| Error::Fault(fault.to_string()))?;
    unsafe { std::ptr::copy_nonoverlapping(base.add(oc) as *const f32, c.as_mut_ptr(), lc) };
    Ok(())
}

#[derive(Clone, Copy)]
#[repr(C, align(256))]
struct Line([u8; 256]);

/// Runs `kernel` on the emulator on random inputs from `seed` and judges C like the GPU path: the
/// relative Frobenius error against f64 (on sampled rows and columns above
/// [`FULL_REFERENCE_LIMIT`] multiply-adds). Writes outside C are faults, so no guard bands.
pub fn verify(kernel: Kernel, problem: &Problem, seed: u64) -> Result<Verdict> {
    kernel.launch(problem)?;
    verify_entry(kernel.spec, entry(kernel), problem, seed)
}

/// [`verify`] for any entry.
pub fn verify_entry(spec: &KernelSpec, entry: EmulatedEntry, problem: &Problem, seed: u64) -> Result<Verdict> {
    let inputs = Inputs::random(problem, seed);
    let mut c = inputs.c.clone();
    run_entry(spec, entry, problem, &inputs.a, &inputs.b, &mut c)?;
    let tolerance = check::F32_TOLERANCE;
    let macs = problem.m as u64 * problem.n as u64 * problem.k as u64;
    if macs <= FULL_REFERENCE_LIMIT {
        let rel_error = check::relative_error_full(&c, &check::reference(problem, &inputs));
        return Ok(Verdict { rel_error, reference: Reference::FullF64, tolerance, guard_writes: 0 });
    }
    let sampled = Sample::random(problem, 8, seed).relative_error(problem, &inputs, &c);
    Ok(Verdict { rel_error: sampled, reference: Reference::SampledF64, tolerance, guard_writes: 0 })
}
