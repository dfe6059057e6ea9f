//! The GPU: a CUDA context on device 0, the rgemm module loaded into it, kernel launches and
//! cuBLAS, all through cudarc (driver API loaded at run time, so rgemm builds without CUDA).
//!
//! Launches take raw device pointers: every kernel shares one signature, and one stream orders
//! all work, so cudarc's per-buffer event tracking is switched off.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute, CUevent_flags};
use cudarc::driver::{CudaContext, CudaEvent, CudaFunction, CudaSlice, CudaStream, DevicePtr, DeviceRepr, LaunchConfig, ValidAsZeroBits};
use cudarc::nvrtc::Ptx;

use crate::catalog::{Dtype, Kernel, Launch};
use crate::error::{Error, Result};
use crate::problem::Problem;
use crate::ptx;
use crate::tma;

/// The arguments of a kernel launch as the driver takes them: a pointer to each value, in the
/// entry's parameter order (the values must outlive the launch call).
macro_rules! kernel_args {
    ($($arg:expr),+ $(,)?) => {
        [$($arg as *const _ as *mut c_void),+]
    };
}

/// What the run reports about the device.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessors: u32,
    /// Peak SM clock in kHz.
    pub clock_khz: u32,
    pub memory_bytes: u64,
    /// Size of the L2 cache in bytes.
    pub l2_bytes: u64,
    /// The CUDA version the driver supports, e.g. "13.0".
    pub driver_cuda_version: Option<String>,
    /// Peak memory bandwidth in GB/s: 2 transfers per memory clock × the bus width.
    pub memory_gbps: f64,
}


/// A buffer in device memory.
pub struct Buffer<T> {
    slice: CudaSlice<T>,
}

impl<T> Buffer<T> {
    /// The raw device address, as kernels and cuBLAS take it.
    pub fn addr(&self, gpu: &Gpu) -> u64 {
        let (ptr, _sync) = self.slice.device_ptr(&gpu.stream);
        ptr
    }

    pub fn len(&self) -> usize {
        self.slice.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slice.len() == 0
    }
}

/// Tensor maps in device memory by (kernel, A, B, C, problem).
type TensorMapCache = HashMap<(&'static str, u64, u64, u64, crate::problem::ShapeKey), Buffer<u64>>;

/// The CUDA version the driver supports ("13.0"), if the driver says.
fn driver_cuda_version() -> Option<String> {
    let mut version: std::ffi::c_int = 0;
    // SAFETY: `version` is a live local the driver writes one int to; the library was found
    // loadable above.
    let result = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) };
    (result == cudarc::driver::sys::CUresult::CUDA_SUCCESS && version > 0).then(|| format!("{}.{}", version / 1000, version % 1000 / 10))
}

pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// The split-K workspace, grown to the largest need so far and kept (see [`Gpu::workspace`]).
    workspace: Mutex<Option<CudaSlice<f32>>>,
    /// The stream-K workspace (kernels-gpu/src/stream_k.rs): tile counters, zero between
    /// launches, and partial sums; grown like the split-K one, separate from it because a
    /// stream-K kernel may run inside a plan that holds that one.
    stream_k: Mutex<Option<CudaSlice<u32>>>,
    /// The workspace of the kernels that read A split ahead (`KernelSpec::split_ahead`).
    split_ahead: Mutex<Option<CudaSlice<f32>>>,
    functions: Mutex<HashMap<&'static str, CudaFunction>>,
    /// Tensor maps already in device memory, by (kernel, A, B, C, M, N, K): encoding and copying
    /// them on every launch would put a host-to-device copy inside the timed region.
    tensor_maps: Mutex<TensorMapCache>,
    pub info: DeviceInfo,
}

impl Gpu {
    /// Opens device 0, checks it can run sm_90a code, and loads the kernels and cuBLAS; work
    /// goes to the device's default stream.
    pub fn open() -> Result<Gpu> {
        // cudarc panics when the library is missing; ask first so the user gets a sentence.
        // SAFETY: only probes whether the driver library can be loaded.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(Error::NoDriver);
        }
        let count = CudaContext::device_count().map_err(|e| Error::NoDevice(crate::error::driver_message(&e)))?;
        if count < 1 {
            return Err(Error::NoDevice("the driver reports no devices".into()));
        }
        let ctx = CudaContext::new(0).map_err(|e| Error::NoDevice(crate::error::driver_message(&e)))?;
        // SAFETY: rgemm owns this context and orders all its work on one stream, so cudarc's
        // per-buffer events are not needed.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        Gpu::on_stream(stream)
    }

    /// rgemm on the caller's stream (and its context): kernels, cuBLAS and copies are queued on
    /// `stream`.
    pub fn on_stream(stream: Arc<CudaStream>) -> Result<Gpu> {
        let ctx = stream.context().clone();
        let attr = |a| ctx.attribute(a).map_err(Error::from);
        let info = DeviceInfo {
            name: ctx.name()?,
            compute_capability: ctx.compute_capability()?,
            multiprocessors: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32,
            clock_khz: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CLOCK_RATE)? as u32,
            memory_bytes: ctx.total_mem()? as u64,
            l2_bytes: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)? as u64,
            driver_cuda_version: driver_cuda_version(),
            memory_gbps: 2.0 * attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)? as f64 * 1e3 * attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)? as f64 / 8.0 / 1e9,
        };
        let (major, minor) = info.compute_capability;
        if (major, minor) != (9, 0) {
            return Err(Error::UnsupportedDevice { name: info.name, major, minor });
        }
        Ok(Gpu {
            ctx,
            stream,
            workspace: Mutex::new(None),
            stream_k: Mutex::new(None),
            split_ahead: Mutex::new(None),
            functions: Mutex::new(HashMap::new()),
            tensor_maps: Mutex::new(HashMap::new()),
            info,
        })
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Free and total device memory in bytes.
    pub fn memory(&self) -> Result<(u64, u64)> {
        let (free, total) = self.ctx.mem_get_info()?;
        Ok((free as u64, total as u64))
    }

    /// Fails with a clear message unless `bytes` (plus headroom for cuBLAS's workspace) are free.
    pub fn require_memory(&self, bytes: u64) -> Result<()> {
        const HEADROOM: u64 = 256 << 20;
        let (free, _) = self.memory()?;
        let need = bytes.saturating_add(HEADROOM);
        if need > free {
            return Err(Error::OutOfMemory { need_mib: need >> 20, free_mib: free >> 20 });
        }
        Ok(())
    }

    pub fn upload<T: DeviceRepr>(&self, host: &[T]) -> Result<Buffer<T>> {
        Ok(Buffer { slice: self.stream.clone_htod(host)? })
    }

    pub fn zeros<T: DeviceRepr + ValidAsZeroBits>(&self, len: usize) -> Result<Buffer<T>> {
        Ok(Buffer { slice: self.stream.alloc_zeros(len)? })
    }

    pub fn download<T: DeviceRepr>(&self, buffer: &Buffer<T>) -> Result<Vec<T>> {
        Ok(self.stream.clone_dtoh(&buffer.slice)?)
    }

    /// Writes zeros over `buffer`, on the stream (used to evict the L2 cache between launches).
    pub fn memset_zeros<T: DeviceRepr + ValidAsZeroBits>(&self, buffer: &mut Buffer<T>) -> Result<()> {
        Ok(self.stream.memset_zeros(&mut buffer.slice)?)
    }

    pub fn synchronize(&self) -> Result<()> {
        Ok(self.stream.synchronize()?)
    }

    fn function(&self, kernel: Kernel) -> Result<CudaFunction> {
        self.cached_entry(kernel.name(), kernel.spec.smem_bytes)
    }

    /// [`Gpu::entry`] looked up once per process: the GEMM kernels and the helpers the launches
    /// queue around them (the split of A, the row copy, the split-K sum), each entry always with
    /// the same `smem_bytes`.
    fn cached_entry(&self, name: &'static str, smem_bytes: u32) -> Result<CudaFunction> {
        let mut functions = self.functions.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = functions.get(name) {
            return Ok(f.clone());
        }
        let f = self.entry(name, smem_bytes)?;
        functions.insert(name, f.clone());
        Ok(f)
    }

    /// Queues `f` with `args` (a pointer to each argument, in the entry's order) as a
    /// *programmatic dependent launch*: its blocks may be scheduled while the last blocks of the
    /// kernel before it in the stream still run, rather than only once it has exited, which hides
    /// most of the gap between two launches (the split or copy before a product, the product
    /// before the split-K sum). Every entry of the module starts with
    /// `device::start_after_previous_grid`, which waits for that kernel to finish before touching
    /// memory, so the stream's order holds whatever came before (a kernel that is not the
    /// module's, or a copy, simply finishes first, as for an ordinary launch).
    ///
    /// # Safety
    /// `args` must match the entry's parameters and the launch its contract (the caller's).
    unsafe fn launch_dependent(&self, f: &CudaFunction, cfg: LaunchConfig, args: &mut [*mut c_void]) -> Result<()> {
        use cudarc::driver::sys::{CUlaunchAttribute, CUlaunchAttributeID, CUlaunchConfig, cuLaunchKernelEx};
        self.stream.context().bind_to_thread()?;
        // SAFETY: all zeros is a valid attribute (an id and a union of plain integers), set below.
        let mut attr: CUlaunchAttribute = unsafe { std::mem::zeroed() };
        attr.id = CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attr.value.programmaticStreamSerializationAllowed = 1;
        let ((gx, gy, gz), (bx, by, bz)) = (cfg.grid_dim, cfg.block_dim);
        let config = CUlaunchConfig {
            gridDimX: gx,
            gridDimY: gy,
            gridDimZ: gz,
            blockDimX: bx,
            blockDimY: by,
            blockDimZ: bz,
            sharedMemBytes: cfg.shared_mem_bytes,
            hStream: self.stream.cu_stream(),
            attrs: &mut attr,
            numAttrs: 1,
        };
        // SAFETY: `config` and the attribute live across the call, which copies the arguments
        // `args` points to; their match with the entry is the caller's guarantee.
        unsafe { cuLaunchKernelEx(&config, f.cu_function(), args.as_mut_ptr(), std::ptr::null_mut()) }.result()?;
        Ok(())
    }

    /// Runs `launch(first, planes)` over a batch of `count` matrices in runs of at most the
    /// grid's `MAX_GRID_Z` planes each: matrices `first .. first + planes`.
    fn in_grid_planes(count: u32, mut launch: impl FnMut(u32, u32) -> Result<()>) -> Result<()> {
        let mut first = 0u32;
        while first < count {
            let planes = (count - first).min(crate::catalog::MAX_GRID_Z as u32);
            launch(first, planes)?;
            first += planes;
        }
        Ok(())
    }

    /// Registers per thread and local-memory bytes per thread (spills, stack frames) of `kernel` as
    /// this GPU's driver compiled it from the PTX: the driver's compiler, not the ptxas CI runs,
    /// decides what actually executes.
    pub fn compiled_resources(&self, kernel: Kernel) -> Result<(u32, u32)> {
        let f = self.function(kernel)?;
        Ok((f.num_regs()? as u32, f.local_size_bytes()? as u32))
    }

    /// Any entry of the module (the lesson kernels too), allowed `smem_bytes` of dynamic shared
    /// memory; launch it through [`Gpu::stream`]. Each entry is loaded as a module of its own
    /// ([`ptx::entry_module`]), so the driver compiles only the entries a process uses.
    pub fn entry(&self, name: &str, smem_bytes: u32) -> Result<CudaFunction> {
        let ptx = ptx::entry_module(ptx::PTX, name).ok_or_else(|| Error::Cuda(format!("kernel {name} is not in the PTX module")))?;
        let module = self
            .ctx
            .load_module(Ptx::from_src(ptx))
            .map_err(|e| Error::Cuda(format!("loading the PTX of {name} failed: {}", crate::error::driver_message(&e))))?;
        let f = module
            .load_function(name)
            .map_err(|e| Error::Cuda(format!("kernel {name} is not in its module: {}", crate::error::driver_message(&e))))?;
        // Above 48 KiB a block's dynamic shared memory must be allowed explicitly.
        f.set_attribute(CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem_bytes as i32)?;
        Ok(f)
    }

    /// Launches `kernel` on `problem` with A, B, C at the given device addresses, on the launch
    /// `geometry` that [`Kernel::geometry`] computed for this problem.
    ///
    /// # Safety
    /// `geometry` must be `kernel.geometry(problem)`; the addresses must hold the problem's
    /// operands (its extents, the kernel's element type for A and B, f32 for C), 16-byte aligned
    /// for a kernel that uses tensor maps.
    ///
    /// A kernel that reads A split ahead (3×TF32's `_presplit`) is two launches: the split of A
    /// into a workspace kept for such launches, then the product on it.
    pub unsafe fn launch(&self, kernel: Kernel, geometry: &Launch, problem: &Problem, a: u64, b: u64, c: u64) -> Result<()> {
        if !kernel.spec.split_ahead {
            // SAFETY: the caller's guarantee.
            return unsafe { self.launch_product(kernel, geometry, problem, a, b, c) };
        }
        let (split, floats) = problem.split_ahead()?;
        let floats = usize::try_from(floats).map_err(|_| Error::InvalidProblem(format!("the split of A for {problem} is too large to address")))?;
        // Locked until both launches are queued: no other launch writes the split in between.
        let mut slot = self.split_ahead.lock().unwrap_or_else(|e| e.into_inner());
        let (ws, _sync) = self.at_least(&mut slot, floats)?.device_ptr(&self.stream);
        // SAFETY: A holds the problem's matrices (the caller's guarantee); the workspace holds
        // `floats`, the split's layout for them; the product then reads the split as its A.
        unsafe {
            self.split_a(problem, a, &split, ws)?;
            self.launch_product(kernel, geometry, &split, ws, b, c)
        }
    }

    /// Splits A of `problem` (f32, as stored) into the workspace at `ws` for the kernels that read
    /// it split ahead (kernels-gpu/src/split_ahead.rs), laid out as `split` (the problem's
    /// [`Problem::split_ahead`]) says.
    ///
    /// # Safety
    /// `a` must hold the problem's A and `ws` the workspace of its [`Problem::split_ahead`].
    unsafe fn split_a(&self, problem: &Problem, a: u64, split: &Problem, ws: u64) -> Result<()> {
        use rgemm_spec::helpers::{SPLIT_THREADS, split_launch};
        let (name, (grid_x, grid_y), smem) = split_launch(problem.layout.a.is_t(), problem.m, problem.k, crate::catalog::MAX_GRID_Y as u32);
        let f = self.cached_entry(name, smem)?;
        // A broadcast A is one matrix (and its split one).
        Self::in_grid_planes(problem.matrices_a() as u32, |first, planes| {
            let (src, dst) = (a + first as u64 * problem.stride_a * 4, ws + first as u64 * split.stride_a * 4);
            let cfg = LaunchConfig { grid_dim: (grid_x, grid_y, planes), block_dim: (SPLIT_THREADS, 1, 1), shared_mem_bytes: smem };
            let mut args = kernel_args![&src, &dst, &problem.m, &problem.k, &problem.lda, &split.lda, &problem.stride_a];
            // SAFETY: the arguments match the split's parameters; the caller guarantees the buffers.
            unsafe { self.launch_dependent(&f, cfg, &mut args) }
        })
    }

    /// [`Gpu::launch`] of the product itself (for a kernel that reads A split ahead, on the split).
    ///
    /// # Safety
    /// As for [`Gpu::launch`].
    unsafe fn launch_product(&self, kernel: Kernel, geometry: &Launch, problem: &Problem, a: u64, b: u64, c: u64) -> Result<()> {
        let launch = geometry.on_device(&kernel, self.info.multiprocessors);
        let f = self.function(kernel)?;
        let cfg = LaunchConfig { grid_dim: launch.grid, block_dim: launch.block, shared_mem_bytes: launch.smem_bytes };
        // The map cache stays locked until the launch is queued: no other thread can free the
        // maps this launch reads before it (a free is queued on the stream after it).
        let mut cache = self.tensor_maps.lock().unwrap_or_else(|e| e.into_inner());
        let maps = self.tensor_maps_for(&mut cache, kernel, problem, a, b, c)?;
        // Likewise the stream-K workspace: no other launch may use it before this one is queued
        // (they run in stream order after it, and this one leaves its counters zero).
        let mut stream_k = self.stream_k.lock().unwrap_or_else(|e| e.into_inner());
        let workspace = match kernel.spec.stream_k {
            Some(w) => {
                let (ptr, _sync) = self.at_least(&mut stream_k, (w.bytes(launch.grid.0) / 4) as usize)?.device_ptr(&self.stream);
                ptr
            }
            None => 0,
        };
        let p = problem;
        #[rustfmt::skip]
        let mut args = kernel_args![&a, &b, &c, &p.m, &p.n, &p.k, &p.alpha, &p.beta, &maps, &p.lda, &p.ldb, &p.ldc, &p.batch, &p.stride_a, &p.stride_b, &p.stride_c, &workspace];
        // SAFETY: the arguments match the entry's parameters (entries! declares one signature
        // for every kernel); the caller guarantees the geometry and the operands.
        unsafe { self.launch_dependent(&f, cfg, &mut args) }
    }

    /// Device address of `[map_a, map_b]` (and `map_c` if the kernel stores C through the copy
    /// engine) for a kernel that uses tensor maps, else 0.
    fn tensor_maps_for(&self, cache: &mut TensorMapCache, kernel: Kernel, problem: &Problem, a: u64, b: u64, c: u64) -> Result<u64> {
        let Some(spec) = kernel.spec.tensor_maps else { return Ok(0) };
        let key = (kernel.name(), a, b, c, problem.shape_key());
        if let Some(buffer) = cache.get(&key) {
            return Ok(buffer.addr(self));
        }
        let dtype = kernel.spec.dtype;
        let [sa, sb, sc] = tma::stored_for(kernel.spec, problem);
        let map_a = tma::encode_spanning(dtype, a, sa, (spec.a_box.0, spec.a_box.1, spec.a_span), spec.a_swizzle)?;
        let map_b = tma::encode_spanning(dtype, b, sb, (spec.b_box.0, spec.b_box.1, spec.b_span), spec.b_swizzle)?;
        let map_c = match spec.c_box {
            Some((rows, cols)) => Some(tma::encode(Dtype::F32, c, sc, rows, cols, spec.c_swizzle)?),
            None => None,
        };
        let both: Vec<u64> = map_a.into_iter().chain(map_b).chain(map_c.into_iter().flatten()).collect();
        if cache.len() >= 64 {
            cache.clear();
        }
        let buffer = self.upload(&both)?;
        let addr = buffer.addr(self);
        cache.insert(key, buffer);
        Ok(addr)
    }

    /// Runs `queue` with the device address of a workspace of at least `floats` f32 (split-K's
    /// partial products), allocated on first need and grown only when a larger one is asked for.
    /// The workspace stays locked while `queue` queues its work, so no other thread's work can
    /// use it in between or free it before that work (a free is queued on the stream after it).
    pub fn with_workspace<R>(&self, floats: usize, queue: impl FnOnce(u64) -> Result<R>) -> Result<R> {
        let mut ws = self.workspace.lock().unwrap_or_else(|e| e.into_inner());
        let (ptr, _sync) = self.at_least(&mut ws, floats)?.device_ptr(&self.stream);
        queue(ptr)
    }

    /// The kept buffer in `slot`, replaced by a zeroed one of `len` elements (after checking the
    /// memory is free) when there is none or it is shorter: the workspaces grow only when a
    /// launch needs more than any before it.
    fn at_least<'a, T: DeviceRepr + ValidAsZeroBits>(&self, slot: &'a mut Option<CudaSlice<T>>, len: usize) -> Result<&'a CudaSlice<T>> {
        if slot.as_ref().is_none_or(|s| s.len() < len) {
            self.require_memory((len as u64).saturating_mul(size_of::<T>() as u64))?;
            *slot = Some(self.stream.alloc_zeros::<T>(len)?);
        }
        Ok(slot.as_ref().expect("just made"))
    }

    /// Copies a batch of `batch` matrices of `(rows, cols)` elements of `dtype` from `src` (leading
    /// dimension and matrix stride `from`) to `dst` (`to`): kernels-gpu/src/align_rows.rs. A
    /// source stride of 0 (a broadcast operand) copies one matrix.
    ///
    /// # Safety
    /// `src` must hold the matrices as `from` describes them and `dst` room for them as `to` does.
    pub unsafe fn copy_rows(&self, dtype: Dtype, src: u64, dst: u64, (rows, cols): (u64, u64), from: (u32, u64), to: (u32, u64), batch: u32) -> Result<()> {
        use rgemm_spec::helpers::{COPY_THREADS, copy_grid};
        let f = self.cached_entry(if dtype.bytes() == 2 { "copy_rows_b16" } else { "copy_rows_b32" }, 0)?;
        let count = if from.1 == 0 { 1 } else { batch };
        let (rows, cols) = (rows as u32, cols as u32);
        let elem = dtype.bytes() as u64;
        Self::in_grid_planes(count, |first, planes| {
            let (s, d) = (src + first as u64 * from.1 * elem, dst + first as u64 * to.1 * elem);
            let (x, y) = copy_grid(rows, cols, planes, self.info.multiprocessors, crate::catalog::MAX_GRID_Y as u32);
            let cfg = LaunchConfig { grid_dim: (x, y, planes), block_dim: (COPY_THREADS, 1, 1), shared_mem_bytes: 0 };
            let mut args = kernel_args![&s, &d, &rows, &cols, &from.0, &to.0, &from.1, &to.1];
            // SAFETY: the arguments match the copy's parameters; the caller guarantees the buffers.
            unsafe { self.launch_dependent(&f, cfg, &mut args) }
        })
    }

    /// Sums the `splits` partial products at `ws` (M×N each, `plane` floats apart) into C:
    /// `C = alpha·Σ + beta·C` (kernels-gpu/src/split_k.rs), in slice order.
    ///
    /// # Safety
    /// `ws` must hold `splits` M×N matrices `plane ≥ M·N` floats apart and `c` the problem's C
    /// (rows `ldc` apart), one product.
    pub unsafe fn reduce_splits(&self, problem: &Problem, splits: u32, plane: u64, ws: u64, c: u64) -> Result<()> {
        use rgemm_spec::helpers::REDUCE_THREADS;
        let f = self.cached_entry("reduce_splits", 0)?;
        let rows = problem.m.min(crate::catalog::MAX_GRID_Y as u32);
        let cfg = LaunchConfig { grid_dim: (problem.n.div_ceil(REDUCE_THREADS), rows, 1), block_dim: (REDUCE_THREADS, 1, 1), shared_mem_bytes: 0 };
        let p = problem;
        let mut args = kernel_args![&ws, &c, &p.m, &p.n, &p.ldc, &splits, &plane, &p.alpha, &p.beta];
        // SAFETY: the arguments match `reduce_splits`'s parameters; the caller guarantees the
        // buffers.
        unsafe { self.launch_dependent(&f, cfg, &mut args) }
    }

    /// A CUDA event that records time.
    pub fn timing_event(&self) -> Result<CudaEvent> {
        Ok(self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?)
    }
}
