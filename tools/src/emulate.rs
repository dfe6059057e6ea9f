//! Running kernels on the CPU: the kernel crate compiled for the host, its device module replaced
//! by the emulator (`kernels_gpu::device::emulator`), launched with the grid the GPU would get.
//!
//! Tensor maps (for kernels that load through the copy engine) are encoded in the emulator's own
//! format, since the driver's is opaque. The emulator checks what the GPU would not: every global
//! access against the bounds of A, B and C (A and B read-only), every shared access against the block's shared memory, races between the
//! threads of a block, and that every thread reaches every barrier. A violation is an
//! [`ToolError::Fault`] naming kernel, block, thread and address. The matrices lie in one reserved
//! address range, each between gaps of unmapped memory larger than the kernel's largest tile (so
//! an access even a whole tile past a matrix lands in no matrix and is reported), and A and B are
//! compared with their uploaded bytes after the launch. It is slow (a few million multiply-adds
//! per second): meant for small problems, tests and readers without a GPU.

use kernels_gpu::device::emulator::{self, EmulatedLaunch, Region};
use kernels_gpu::view::TensorMap;
use kernels_gpu::spec::BoxSpan;
use kernels_gpu::{EmulatedEntry, KernelSpec};

use rgemm::catalog::Kernel;
use crate::check::{self, ErrorModel, Inputs, Sample};
use crate::tool_error::{ToolError, ToolResult};
use rgemm::problem::Problem;
use crate::storage::{self, Operand};
use crate::verify::{FULL_REFERENCE_LIMIT, Reference, Verdict};

/// The host function of a catalog kernel.
pub fn entry(kernel: Kernel) -> EmulatedEntry {
    let specs = kernels_gpu::CATALOG.iter().flat_map(|r| r.iter());
    let entries = kernels_gpu::EMULATED.iter().flat_map(|r| r.iter());
    specs.zip(entries).find(|(s, _)| s.name == kernel.name()).map(|(_, &e)| e).expect("every catalog kernel has an emulated entry")
}

/// Multiprocessors the emulator pretends to have, for persistent kernels (at most one block per
/// SM): few, so that small test problems still give each block several tiles.
pub const EMULATED_SMS: u32 = 3;

/// Runs `kernel` on the emulator: `C = alpha·A·B + beta·C` on the CPU. `a` and `b` hold values
/// of the kernel's element type (see [`check::round_to`]).
pub fn run(kernel: Kernel, problem: &Problem, a: &[f32], b: &[f32], c: &mut [f32]) -> ToolResult<()> {
    kernel.geometry(problem)?;
    // SAFETY: the catalog pairs each spec with the entry `entries!` generated for it.
    unsafe { run_entry(kernel.spec, entry(kernel), problem, a, b, c) }.map(|_| ())
}

/// Bytes of unmapped address space around each matrix: more than the largest tile of `spec` spans
/// in any of the matrices (a tile of rows is that many stored rows of the widest matrix), at least
/// 64 KiB, in whole pages.
pub fn gap_bytes(spec: &KernelSpec, problem: &Problem) -> u128 {
    let t = &spec.tile;
    let tile = (t.bm * spec.cluster_m.max(1)).max(t.bn).max(t.bk) as u128 + 1;
    let elem = spec.dtype.bytes() as u128;
    let row = (problem.lda as u128 * elem).max(problem.ldb as u128 * elem).max(problem.ldc as u128 * 4);
    (tile * row).max(64 << 10).next_multiple_of(PAGE as u128)
}

const PAGE: usize = 4096;

/// A range of address space reserved without memory behind it; parts of it are made readable and
/// writable for the matrices, the rest faults on the host if touched (the emulator's checks
/// report any access there before it is made).
struct Arena {
    base: *mut u8,
    len: usize,
}

impl Arena {
    fn reserve(len: u128) -> ToolResult<Arena> {
        let too_large = || ToolError::InvalidProblem(format!("the emulator cannot reserve {len} bytes of address space for this problem"));
        let len = usize::try_from(len).ok().filter(|&l| l <= 1 << 46).ok_or_else(too_large)?;
        // SAFETY: an anonymous private mapping at an address the kernel chooses aliases nothing.
        let base = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_NONE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE, -1, 0) };
        if base == libc::MAP_FAILED {
            return Err(too_large());
        }
        Ok(Arena { base: base as *mut u8, len })
    }

    /// Makes `len` bytes from `offset` (page-aligned) readable and writable; they read as zeros.
    fn commit(&self, offset: usize, len: usize) -> ToolResult<()> {
        let len = len.next_multiple_of(PAGE);
        if len == 0 {
            return Ok(());
        }
        assert!(offset % PAGE == 0 && offset + len <= self.len, "commit inside the arena");
        // SAFETY: the range lies inside this arena's mapping.
        if unsafe { libc::mprotect(self.base.add(offset) as *mut libc::c_void, len, libc::PROT_READ | libc::PROT_WRITE) } != 0 {
            return Err(ToolError::OutOfHostMemory { need: format!("{} MiB", len >> 20), available_mib: check::available_host_memory().unwrap_or(0) >> 20 });
        }
        Ok(())
    }

    fn at(&self, offset: usize) -> usize {
        self.base as usize + offset
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping `reserve` made; nothing points into it any more.
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.len) };
    }
}

/// Runs any entry (the catalog's, or a test fixture's) with the launch geometry of `spec`. `a`,
/// `b` and `c` are the products' views (see [`check::Inputs`]); they are laid out as the problem
/// stores them, with NaN in A's and B's padding and C's padding checked unchanged. Returns the
/// number of elements of A and B the launch changed (a store into an input that the emulator's
/// access checks did not see).
///
/// # Safety
/// `entry` must be a kernel of the `entries!` ABI whose launch geometry, element type and tensor
/// maps `spec` describes, and it must access memory only through the device module (which checks
/// every access): `entry` is called with pointers to buffers sized for `problem` only.
///
/// Safe code cannot call it (an arbitrary entry could write anywhere)...
///
/// ```compile_fail
/// # use rgemm::{catalog, Problem};
/// # use rgemm_tools::emulate;
/// let kernel = catalog::all().next().unwrap();
/// let p = Problem::new(2, 2, 2, 1.0, 0.0).unwrap();
/// let (a, b, mut c) = ([0.5f32; 4], [0.5f32; 4], [0.0f32; 4]);
/// emulate::run_entry(kernel.spec, emulate::entry(kernel), &p, &a, &b, &mut c).unwrap();
/// ```
///
/// ...while [`run`] pairs a catalog kernel with its own entry, and the same call compiles inside
/// `unsafe` with that pairing as its justification:
///
/// ```
/// # use rgemm::{catalog, Problem};
/// # use rgemm_tools::emulate;
/// let kernel = catalog::all().next().unwrap();
/// let p = Problem::new(2, 2, 2, 1.0, 0.0).unwrap();
/// let (a, b, mut c) = ([0.5f32; 4], [0.5f32; 4], [0.0f32; 4]);
/// // SAFETY: the catalog's spec and entry of one kernel.
/// let input_writes = unsafe { emulate::run_entry(kernel.spec, emulate::entry(kernel), &p, &a, &b, &mut c) }.unwrap();
/// assert_eq!((c, input_writes), ([0.5; 4], 0));
/// ```
pub unsafe fn run_entry(spec: &KernelSpec, entry: EmulatedEntry, problem: &Problem, a: &[f32], b: &[f32], c: &mut [f32]) -> ToolResult<usize> {
    // SAFETY: passed on from the caller.
    unsafe { run_entry_fused(spec, entry, problem, a, b, c, &[], None) }
}

/// [`run_entry`] with the problem's fused epilogue: `bias` (values of the output type; empty
/// without a bias), `aux` (the auxiliary output's values, product after product, when the
/// epilogue writes one). C is stored in the output type, its values given and returned as f32.
///
/// # Safety
/// As for [`run_entry`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn run_entry_fused(spec: &KernelSpec, entry: EmulatedEntry, problem: &Problem, a: &[f32], b: &[f32], c: &mut [f32], bias: &[f32], aux: Option<&mut [f32]>) -> ToolResult<usize> {
    let (la, lb, lc) = problem.elems();
    if (a.len(), b.len(), c.len()) != (la, lb, lc) {
        return Err(ToolError::InvalidArgument(format!("operands of {} and {} elements and C of {} do not match {problem}", a.len(), b.len(), c.len())));
    }
    let dtype = spec.dtype;
    let (a, b) = (storage::pack(problem, Operand::A, a, f32::NAN), check::encode(dtype, &storage::pack(problem, Operand::B, b, f32::NAN)));
    if spec.split_ahead {
        // As on the GPU: the split of A first (emulated too), then the product reads it as A.
        let (split, ws) = split_ahead(problem, &a)?;
        // SAFETY: the caller's guarantee; the split problem is the one the kernel reads.
        return unsafe { run_stored(spec, entry, &split, &check::encode(dtype, &ws), &b, c, bias, aux) };
    }
    // SAFETY: the caller's guarantee.
    unsafe { run_stored(spec, entry, problem, &check::encode(dtype, &a), &b, c, bias, aux) }
}

/// The split of A (as stored, f32) for a kernel that reads it split ahead, by the GPU's own split
/// kernel body (kernels-gpu/src/split_ahead.rs) on the emulator: the problem the product then
/// runs on and the workspace, its padding NaN (the product must not read it).
fn split_ahead(problem: &Problem, a: &[f32]) -> ToolResult<(Problem, Vec<f32>)> {
    use kernels_gpu::split_ahead::{SPLIT_THREADS, split, split_launch};
    let (split_problem, floats) = problem.split_ahead()?;
    let mut ws = vec![f32::NAN; usize::try_from(floats).map_err(|_| ToolError::InvalidProblem("the split of A is too large".into()))?];
    let regions = [
        Region { name: "A", start: a.as_ptr() as usize, len: 4 * a.len(), writable: false },
        Region { name: "the split of A", start: ws.as_mut_ptr() as usize, len: 4 * ws.len(), writable: true },
    ];
    let transposed = problem.layout.a.is_t();
    let p = *problem;
    let (src, dst, ld) = (a.as_ptr() as usize, ws.as_mut_ptr() as usize, split_problem.lda);
    let (kernel, (grid_x, grid_y), smem_bytes) = split_launch(transposed, p.m, p.k, rgemm::catalog::MAX_GRID_Y as u32);
    let launch = EmulatedLaunch { kernel, grid: (grid_x, grid_y, p.matrices_a() as u32), threads: SPLIT_THREADS, smem_bytes, regions: &regions };
    let body = move || {
        let (src, dst) = (src as *const f32, dst as *mut f32);
        // SAFETY: `src` holds A as the problem stores it and `dst` the split's workspace; the
        // emulator checks every access against the regions above.
        unsafe {
            if transposed {
                split::<true>(src, dst, p.m, p.k, p.lda, ld, p.stride_a)
            } else {
                split::<false>(src, dst, p.m, p.k, p.lda, ld, p.stride_a)
            }
        }
    };
    emulator::launch(&launch, &body).map_err(|fault| ToolError::Fault(fault.to_string()))?;
    Ok((split_problem, ws))
}

/// [`run_entry`] on A and B as stored (encoded in the kernel's element type).
///
/// # Safety
/// As for [`run_entry`].
#[allow(clippy::too_many_arguments)]
unsafe fn run_stored(spec: &KernelSpec, entry: EmulatedEntry, problem: &Problem, a: &[u8], b: &[u8], c: &mut [f32], bias: &[f32], mut aux: Option<&mut [f32]>) -> ToolResult<usize> {
    let dtype = spec.dtype;
    let out = problem.epilogue.output;
    let out_bytes = out.bytes() as usize;
    // C's padding as the output type stores it, read back as f32 (bit for bit, NaN included).
    let padding = check::decode(out, &check::encode(out, &[PADDING]))[0];
    let c_stored = check::encode(out, &storage::pack(problem, Operand::C, c, PADDING));
    let lc = c_stored.len() / out_bytes;
    let bias_stored = check::encode(out, bias);
    let aux_stored = match &aux {
        Some(_) => check::encode(out, &vec![PADDING; lc]),
        None => Vec::new(),
    };
    let maps = spec.tensor_maps.map_or(0, |t| t.count() * size_of::<TensorMap>());
    // A, B, C and the tensor maps in one reserved range, page-aligned (more than cudaMalloc's 256
    // bytes), each between gaps.
    let gap = gap_bytes(spec, problem);
    let mut end: u128 = gap;
    let mut place = |bytes: usize| {
        let at = end;
        end = (at + bytes as u128).next_multiple_of(PAGE as u128) + gap;
        at as usize
    };
    let t = &spec.tile;
    let tiles = (problem.n.div_ceil(t.bn), problem.m.div_ceil(t.bm));
    // A persistent kernel gets fewer blocks than tiles, as on a GPU, so each walks several tiles
    // (of every product of the batch), and a stream-K one every emulated SM; other kernels get
    // one grid plane per product.
    let grid = if spec.persistent {
        (rgemm::catalog::persistent_blocks(spec, tiles.0 as u64 * tiles.1 as u64 * problem.batch as u64, EMULATED_SMS), 1, 1)
    } else {
        (tiles.0, tiles.1, problem.batch.min(rgemm::catalog::MAX_GRID_Z as u32))
    };
    // A stream-K kernel's workspace for this many blocks (fresh pages: its counters are zero).
    let ws = spec.stream_k.map_or(0, |w| w.bytes(grid.0)) as usize;
    let (oa, ob, oc, om, ow) = (place(a.len()), place(b.len()), place(c_stored.len()), place(maps), place(ws));
    let (obias, oaux) = (place(bias_stored.len()), place(aux_stored.len()));
    let arena = Arena::reserve(end)?;
    for (offset, bytes) in [(oa, a.len()), (ob, b.len()), (oc, c_stored.len()), (om, maps), (ow, ws), (obias, bias_stored.len()), (oaux, aux_stored.len())] {
        arena.commit(offset, bytes)?;
    }
    let base = arena.base;
    let at = |offset: usize| arena.at(offset);
    // SAFETY: each copy fills a committed part of the arena of exactly the source's size.
    unsafe {
        std::ptr::copy_nonoverlapping(a.as_ptr(), base.add(oa), a.len());
        std::ptr::copy_nonoverlapping(b.as_ptr(), base.add(ob), b.len());
        std::ptr::copy_nonoverlapping(c_stored.as_ptr(), base.add(oc), c_stored.len());
        std::ptr::copy_nonoverlapping(bias_stored.as_ptr(), base.add(obias), bias_stored.len());
        std::ptr::copy_nonoverlapping(aux_stored.as_ptr(), base.add(oaux), aux_stored.len());
    }
    if let Some(t) = spec.tensor_maps {
        let unsupported = |reason: String| ToolError::Library(rgemm::Error::Unsupported { kernel: spec.name.into(), reason });
        let bytes = dtype.bytes();
        let [sa, sb, sc] = rgemm::tensor_map::stored_for(spec, problem);
        // As the GPU's encoding (`tensor_map::encode_spanning`): panels in one load only where the
        // columns are whole panels.
        let map = |addr: usize, bytes: u32, s: rgemm::tensor_map::Stored, (rows, cols): (u32, u32), span: BoxSpan, swizzle| {
            let span = span.on_columns(s.cols, cols);
            emulator::tensor_map_spanning(addr, bytes, (s.rows as u32, s.cols as u32, s.ld), (s.planes as u32, s.plane_stride), (rows, cols, span), swizzle)
        };
        let map_a = map(at(oa), bytes, sa, t.a_box, t.a_span, t.a_swizzle).map_err(|e| unsupported(format!("tensor map of A: {e}")))?;
        let map_b = map(at(ob), bytes, sb, t.b_box, t.b_span, t.b_swizzle).map_err(|e| unsupported(format!("tensor map of B: {e}")))?;
        // SAFETY: the maps' part of the arena holds `t.count()` maps.
        unsafe { std::ptr::copy_nonoverlapping([map_a, map_b].as_ptr(), base.add(om) as *mut TensorMap, 2) };
        if let Some(c_box) = t.c_box {
            let map_c = map(at(oc), out.bytes(), sc, c_box, BoxSpan::One, t.c_swizzle_of(out)).map_err(|e| unsupported(format!("tensor map of C: {e}")))?;
            // SAFETY: as above; the third map.
            unsafe { std::ptr::write(base.add(om + 2 * size_of::<TensorMap>()) as *mut TensorMap, map_c) };
        }
    }
    let regions = [
        Region { name: "A", start: at(oa), len: a.len(), writable: false },
        Region { name: "B", start: at(ob), len: b.len(), writable: false },
        Region { name: "C", start: at(oc), len: c_stored.len(), writable: true },
        Region { name: "the tensor maps", start: at(om), len: maps, writable: false },
        Region { name: "the stream-K workspace", start: at(ow), len: ws, writable: true },
        Region { name: "the bias", start: at(obias), len: bias_stored.len(), writable: false },
        Region { name: "the auxiliary output", start: at(oaux), len: aux_stored.len(), writable: true },
    ];
    let launch = EmulatedLaunch {
        kernel: spec.name,
        grid,
        threads: spec.threads,
        smem_bytes: spec.smem_bytes,
        regions: &regions,
    };
    let (pa, pb, pc, pm, pw) = (at(oa), at(ob), at(oc), if maps > 0 { at(om) } else { 0 }, if ws > 0 { at(ow) } else { 0 });
    let p = problem;
    let args = kernels_gpu::view::GemmArgs::<u8> {
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
        workspace: pw as *mut u32,
        epilogue: p.epilogue.pack(),
        bias: if bias.is_empty() { std::ptr::null() } else { at(obias) as *const u8 },
        aux: if aux.is_some() { at(oaux) as *mut u8 } else { std::ptr::null_mut() },
    };
    let args = SendArgs(args);
    let shared = &args;
    // SAFETY: the caller vouches for `entry` and `spec`; the arguments point at the regions above.
    emulator::launch(&launch, &move || unsafe { entry(&shared.0) }).map_err(|fault| ToolError::Fault(fault.to_string()))?;
    if let Some(w) = spec.stream_k {
        // The next launch finds the counters as this one did: zero.
        // SAFETY: the workspace's committed part starts with its counters, u32-aligned.
        let counters = unsafe { std::slice::from_raw_parts(base.add(ow) as *const u32, w.counters(grid.0)) };
        if let Some(i) = counters.iter().position(|&c| c != 0) {
            return Err(ToolError::Fault(format!("{}: stream-K counter {i} is {} after the launch, not zero", spec.name, counters[i])));
        }
    }
    // SAFETY: the committed parts of the arena hold A, B (as uploaded, unless a store bypassed
    // the checks) and C.
    let (a_now, b_now) = unsafe { (std::slice::from_raw_parts(base.add(oa), a.len()), std::slice::from_raw_parts(base.add(ob), b.len())) };
    let elem = dtype.bytes() as usize;
    let changed = |now: &[u8], then: &[u8]| now.chunks(elem).zip(then.chunks(elem)).filter(|(x, y)| x != y).count();
    let input_writes = changed(a_now, a) + changed(b_now, b);
    let read_back = |offset: usize, what: &str| -> ToolResult<Vec<f32>> {
        // SAFETY: the committed part at `offset` holds `lc` elements of the output type.
        let bytes = unsafe { std::slice::from_raw_parts(base.add(offset), lc * out_bytes) };
        let (values, stray) = storage::unpack_c(problem, &check::decode(out, bytes), padding);
        if stray > 0 {
            return Err(ToolError::Fault(format!("{}: {stray} elements of {what}'s padding (between rows or matrices) were written", spec.name)));
        }
        Ok(values)
    };
    c.copy_from_slice(&read_back(oc, "C")?);
    if let Some(aux) = aux.as_deref_mut() {
        aux.copy_from_slice(&read_back(oaux, "the auxiliary output")?);
    }
    Ok(input_writes)
}

/// Kernel arguments shared by the emulator's block threads (the pointers are into the arena,
/// which outlives the launch).
struct SendArgs(kernels_gpu::view::GemmArgs<u8>);
// SAFETY: the emulator's threads only read the arguments; the pointed-to arena is checked by the
// emulator's memory model and outlives `emulator::launch`.
unsafe impl Sync for SendArgs {}

/// What C's padding holds during an emulated run (a write there is a fault).
const PADDING: f32 = f32::from_bits(0x7f80_0bad);

/// Runs `kernel` on the emulator on random inputs from `seed` and judges C like the GPU path:
/// every element within its error bound of f64 (on sampled rows and columns above
/// [`FULL_REFERENCE_LIMIT`] multiply-adds). Writes outside C are faults, so no guard bands.
pub fn verify(kernel: Kernel, problem: &Problem, seed: u64) -> ToolResult<Verdict> {
    kernel.geometry(problem)?;
    check_size(problem)?;
    // SAFETY: the catalog pairs each spec with the entry `entries!` generated for it.
    unsafe { verify_entry(kernel.spec, entry(kernel), problem, seed) }
}

/// The most multiply-adds one emulated run may take: about a minute at the emulator's few million
/// per second (640³ is 2.6·10⁸).
pub const MAX_EMULATED_MACS: u128 = 1 << 28;

/// Refuses problems the emulator would take hours on, or that do not fit in host memory.
pub fn check_size(problem: &Problem) -> ToolResult<()> {
    let macs = problem.macs();
    if macs > MAX_EMULATED_MACS {
        return Err(ToolError::InvalidProblem(format!(
            "{problem} is {macs} multiply-adds; the CPU emulator runs a few million per second and takes at most {MAX_EMULATED_MACS} (e.g. 640x640x640)"
        )));
    }
    check::require_host_memory(check::host_bytes(problem, macs <= FULL_REFERENCE_LIMIT))
}

/// [`verify`] for any entry.
///
/// # Safety
/// As for [`run_entry`].
pub unsafe fn verify_entry(spec: &KernelSpec, entry: EmulatedEntry, problem: &Problem, seed: u64) -> ToolResult<Verdict> {
    check_size(problem)?;
    let inputs = Inputs::random(problem, spec.dtype, seed);
    let mut c = inputs.c.clone();
    // SAFETY: passed on from the caller.
    let input_writes = unsafe { run_entry(spec, entry, problem, &inputs.a, &inputs.b, &mut c) }?;
    let model = ErrorModel::of(spec);
    if problem.macs() <= FULL_REFERENCE_LIMIT {
        let comparison = check::compare_full(problem, &inputs, &model, &c);
        return Ok(Verdict { reference: Reference::FullF64, comparison, sampled: None, guard_writes: 0, input_writes });
    }
    let comparison = Sample::random(problem, 8, seed).compare(problem, &inputs, &model, &c);
    Ok(Verdict { reference: Reference::SampledF64, comparison, sampled: None, guard_writes: 0, input_writes })
}
