//! Running kernels on the CPU: the kernel crate compiled for the host, its device module replaced
//! by the emulator (`kernels_gpu::device::emulator`), launched with the grid the GPU would get.
//!
//! Tensor maps (for kernels that load through the copy engine) are encoded in the emulator's own
//! format, since the driver's is opaque. The emulator checks what the GPU would not: every global
//! access against the bounds of A, B and C (A and B read-only), every shared access against the block's shared memory, races between the
//! threads of a block, and that every thread reaches every barrier. A violation is an
//! [`Error::Fault`] naming kernel, block, thread and address. It is slow (a few million
//! multiply-adds per second): meant for small problems, tests and readers without a GPU.

use kernels_gpu::device::emulator::{self, Launch, Region};
use kernels_gpu::layout::TensorMap;
use kernels_gpu::{EmulatedEntry, KernelSpec};

use crate::catalog::Kernel;
use crate::check::{self, Inputs, Sample};
use crate::error::{Error, Result};
use crate::problem::Problem;
use crate::storage::{self, Operand};
use crate::verify::{FULL_REFERENCE_LIMIT, Reference, Verdict};

/// Bytes of unallocated space around each matrix, so an overrun lands in no matrix.
const GAP: usize = 4096;

/// The host function of a catalog kernel.
pub fn entry(kernel: Kernel) -> EmulatedEntry {
    let specs = kernels_gpu::CATALOG.iter().flat_map(|r| r.iter());
    let entries = kernels_gpu::EMULATED.iter().flat_map(|r| r.iter());
    specs.zip(entries).find(|(s, _)| s.name == kernel.name()).map(|(_, &e)| e).expect("every catalog kernel has an emulated entry")
}

/// Multiprocessors the emulator pretends to have, for persistent kernels (one block per SM): few,
/// so that small test problems still give each block several tiles.
pub const EMULATED_SMS: u32 = 3;

/// Runs `kernel` on the emulator: `C = alpha·A·B + beta·C` on the CPU. `a` and `b` hold values
/// of the kernel's element type (see [`check::round_to`]).
pub fn run(kernel: Kernel, problem: &Problem, a: &[f32], b: &[f32], c: &mut [f32]) -> Result<()> {
    kernel.geometry(problem)?;
    run_entry(kernel.spec, entry(kernel), problem, a, b, c)
}

/// Runs any entry (the catalog's, or a test fixture's) with the launch geometry of `spec`. `a`,
/// `b` and `c` are the products' views (see [`check::Inputs`]); they are laid out as the problem
/// stores them, with NaN in A's and B's padding and C's padding checked unchanged.
pub fn run_entry(spec: &KernelSpec, entry: EmulatedEntry, problem: &Problem, a: &[f32], b: &[f32], c: &mut [f32]) -> Result<()> {
    let (la, lb, lc) = problem.elems();
    if (a.len(), b.len(), c.len()) != (la, lb, lc) {
        return Err(Error::InvalidArgument(format!("operands of {} and {} elements and C of {} do not match {problem}", a.len(), b.len(), c.len())));
    }
    let dtype = spec.dtype;
    let (a, b) = (
        check::encode(dtype, &storage::pack(problem, Operand::A, a, f32::NAN)),
        check::encode(dtype, &storage::pack(problem, Operand::B, b, f32::NAN)),
    );
    let c_stored = storage::pack(problem, Operand::C, c, PADDING);
    let lc = c_stored.len();
    let maps = spec.tensor_maps.map_or(0, |t| t.count() * size_of::<TensorMap>());
    // A, B, C and the tensor maps in one arena, 256-byte aligned like cudaMalloc's, with gaps.
    let mut end = GAP;
    let mut place = |bytes: usize| {
        let at = end;
        end = (at + bytes + GAP).next_multiple_of(256);
        at
    };
    let (oa, ob, oc, om) = (place(a.len()), place(b.len()), place(4 * lc), place(maps));
    let mut arena = vec![Line([0; 256]); end.div_ceil(256)];
    let base = arena.as_mut_ptr() as *mut u8;
    let at = |offset: usize| base as usize + offset;
    unsafe {
        std::ptr::copy_nonoverlapping(a.as_ptr(), base.add(oa), a.len());
        std::ptr::copy_nonoverlapping(b.as_ptr(), base.add(ob), b.len());
        std::ptr::copy_nonoverlapping(c_stored.as_ptr(), base.add(oc) as *mut f32, lc);
    }
    if let Some(t) = spec.tensor_maps {
        let unsupported = |reason: String| Error::Unsupported { kernel: spec.name.into(), reason };
        let bytes = dtype.bytes();
        let [sa, sb, sc] = crate::tma::stored(problem);
        let map = |addr: usize, bytes: u32, s: crate::tma::Stored, (rows, cols): (u32, u32), swizzle| {
            emulator::tensor_map_3d(addr, bytes, (s.rows as u32, s.cols as u32, s.ld), (s.planes as u32, s.plane_stride), rows, cols, swizzle)
        };
        let map_a = map(at(oa), bytes, sa, t.a_box, t.a_swizzle).map_err(|e| unsupported(format!("tensor map of A: {e}")))?;
        let map_b = map(at(ob), bytes, sb, t.b_box, t.b_swizzle).map_err(|e| unsupported(format!("tensor map of B: {e}")))?;
        unsafe { std::ptr::copy_nonoverlapping([map_a, map_b].as_ptr(), base.add(om) as *mut TensorMap, 2) };
        if let Some(c_box) = t.c_box {
            let map_c = map(at(oc), 4, sc, c_box, t.c_swizzle).map_err(|e| unsupported(format!("tensor map of C: {e}")))?;
            unsafe { std::ptr::write(base.add(om + 2 * size_of::<TensorMap>()) as *mut TensorMap, map_c) };
        }
    }
    let regions = [
        Region { name: "A", start: at(oa), len: a.len(), writable: false },
        Region { name: "B", start: at(ob), len: b.len(), writable: false },
        Region { name: "C", start: at(oc), len: 4 * lc, writable: true },
        Region { name: "the tensor maps", start: at(om), len: maps, writable: false },
    ];
    let t = &spec.tile;
    let tiles = (problem.n.div_ceil(t.bn), problem.m.div_ceil(t.bm));
    // A persistent kernel gets fewer blocks than tiles, as on a GPU, so each walks several tiles
    // (of every product of the batch); other kernels get one grid plane per product.
    let grid = if spec.persistent { ((tiles.0 * tiles.1 * problem.batch).min(EMULATED_SMS), 1, 1) } else { (tiles.0, tiles.1, problem.batch.min(crate::catalog::MAX_GRID_Z as u32)) };
    let launch = Launch {
        kernel: spec.name,
        grid,
        threads: spec.threads,
        smem_bytes: spec.smem_bytes,
        regions: &regions,
    };
    let (pa, pb, pc, pm) = (at(oa), at(ob), at(oc), if maps > 0 { at(om) } else { 0 });
    let p = problem;
    let args = kernels_gpu::layout::Gemm::<u8> {
        a: pa as *const u8,
        b: pb as *const u8,
        c: pc as *mut f32,
        m: p.m,
        n: p.n,
        k: p.k,
        alpha: p.alpha,
        beta: p.beta,
        tensor_maps: pm as *const TensorMap,
        lda: p.lda,
        ldb: p.ldb,
        ldc: p.ldc,
        batch: p.batch,
        stride_a: p.stride_a,
        stride_b: p.stride_b,
        stride_c: p.stride_c,
        z: 0,
    };
    let args = SendArgs(args);
    let shared = &args;
    emulator::launch(&launch, &move || unsafe { entry(&shared.0) }).map_err(|fault| Error::Fault(fault.to_string()))?;
    let mut stored = vec![0.0f32; lc];
    unsafe { std::ptr::copy_nonoverlapping(base.add(oc) as *const f32, stored.as_mut_ptr(), lc) };
    let (values, stray) = storage::unpack_c(problem, &stored, PADDING);
    if stray > 0 {
        return Err(Error::Fault(format!("{}: {stray} elements of C's padding (between rows or matrices) were written", spec.name)));
    }
    c.copy_from_slice(&values);
    Ok(())
}

#[derive(Clone, Copy)]
#[repr(C, align(256))]
struct Line([u8; 256]);

/// Kernel arguments shared by the emulator's block threads (the pointers are into the arena,
/// which outlives the launch).
struct SendArgs(kernels_gpu::layout::Gemm<u8>);
// SAFETY: the emulator's threads only read the arguments; the pointed-to arena is checked by the
// emulator's memory model and outlives `emulator::launch`.
unsafe impl Sync for SendArgs {}

/// What C's padding holds during an emulated run (a write there is a fault).
const PADDING: f32 = f32::from_bits(0x7f80_0bad);

/// Runs `kernel` on the emulator on random inputs from `seed` and judges C like the GPU path: the
/// relative Frobenius error against f64 (on sampled rows and columns above
/// [`FULL_REFERENCE_LIMIT`] multiply-adds). Writes outside C are faults, so no guard bands.
pub fn verify(kernel: Kernel, problem: &Problem, seed: u64) -> Result<Verdict> {
    kernel.geometry(problem)?;
    check_size(problem)?;
    verify_entry(kernel.spec, entry(kernel), problem, seed)
}

/// The most multiply-adds one emulated run may take: about a minute at the emulator's few million
/// per second (640³ is 2.6·10⁸).
pub const MAX_EMULATED_MACS: u64 = 1 << 28;

/// Refuses problems the emulator would take hours on (or run out of host memory for).
pub fn check_size(problem: &Problem) -> Result<()> {
    let macs = problem.macs();
    if macs > MAX_EMULATED_MACS as u128 {
        return Err(Error::InvalidProblem(format!(
            "{problem} is {macs} multiply-adds; the CPU emulator runs a few million per second and takes at most {MAX_EMULATED_MACS} (e.g. 640x640x640)"
        )));
    }
    Ok(())
}

/// [`verify`] for any entry.
pub fn verify_entry(spec: &KernelSpec, entry: EmulatedEntry, problem: &Problem, seed: u64) -> Result<Verdict> {
    let inputs = Inputs::random(problem, spec.dtype, seed);
    let mut c = inputs.c.clone();
    run_entry(spec, entry, problem, &inputs.a, &inputs.b, &mut c)?;
    let tolerance = check::tolerance(spec.dtype);
    if problem.macs() <= FULL_REFERENCE_LIMIT as u128 {
        let rel_error = check::relative_error_full(&c, &check::reference(problem, &inputs));
        return Ok(Verdict { rel_error, reference: Reference::FullF64, tolerance, guard_writes: 0 });
    }
    let sampled = Sample::random(problem, 8, seed).relative_error(problem, &inputs, &c);
    Ok(Verdict { rel_error: sampled, reference: Reference::SampledF64, tolerance, guard_writes: 0 })
}
