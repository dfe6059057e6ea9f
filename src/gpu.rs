//! The GPU: a CUDA context on one device, the stream rgemm queues its work on, the rgemm module
//! loaded into the context, the workspaces and the kernel launches, all through cudarc (driver
//! API loaded at run time, so rgemm builds without CUDA).
//!
//! # Devices and streams
//!
//! [`Gpu::open`] opens device 0 and [`Gpu::on_device`] any other; both queue work on the
//! device's default stream. [`Gpu::on_stream`] takes the caller's stream (and its context).
//! [`Gpu::with_stream`] makes, from an open `Gpu`, another one on another stream of the same
//! context: it shares the loaded kernels (the driver loads and compiles each once per process)
//! but has its own workspaces and tensor maps. Those are written by the launches queued on a
//! stream and read by the launches after them on that stream; one workspace used by two streams
//! at once would be written by both at the same time.
//!
//! Everything a `Gpu` queues goes to its one stream, in order. rgemm never synchronizes that
//! stream, except in [`Gpu::download`] and [`Gpu::synchronize`], which return once the work
//! before them is done.
//!
//! # Threads
//!
//! `Gpu` is `Send` and `Sync`. Threads may share one `Gpu` (`&Gpu`, `Arc<Gpu>`): their launches
//! all go to its one stream and run one after another. The launches of one plan are queued
//! together (the workspace they use stays locked until the last of them is queued), so two
//! threads never use one workspace at once. Threads whose products should run at the same time
//! take a `Gpu` each, on a stream each: `gpu.with_stream(gpu.context().new_stream()?)?`. A
//! [`Plan`](crate::api::Plan) is plain data: any thread may run it on any `Gpu` of the kind of
//! device it was planned for.
//!
//! # cudarc's event tracking
//!
//! rgemm leaves the context's event tracking as the caller set it (cudarc turns it on: once a
//! context has more than one stream, every use of a buffer through cudarc waits for the
//! buffer's last write and records an event of its own). The caller's buffers reach the kernels
//! through cudarc's `device_ptr` in [`Plan::run`](crate::api::Plan::run), so their uses are
//! tracked as the context says. rgemm's own buffers (workspaces, tensor maps) are allocated on
//! the `Gpu`'s stream, used by that stream alone and freed on it: they need no events and have
//! none.
//!
//! # CUDA graphs
//!
//! A plan can be captured into a CUDA graph (`CudaStream::begin_capture` on the `Gpu`'s stream,
//! [`Plan::run`](crate::api::Plan::run), `CudaStream::end_capture`) once it has run on that
//! `Gpu` with the same buffers. Its first run there loads its kernels, encodes the tensor maps
//! of a TMA kernel for those addresses and copies them to the device, and may grow a workspace:
//! none of that can be captured. After it, a run only queues kernel launches: no copy, no
//! allocation, no synchronization. A run that would need any of them while its stream is being
//! captured returns an error that says so, before it queues anything.
//!
//! - The default stream cannot be captured: capture on a stream of your own
//!   (`gpu.with_stream(gpu.context().new_stream()?)?`).
//! - The graph holds the addresses of the `Gpu`'s workspaces and tensor maps: keep that `Gpu`
//!   alive as long as the graph may be launched. A `Gpu` whose launches have been captured keeps
//!   every workspace and tensor map it replaces (a larger workspace for a later plan, tensor maps
//!   for other buffers) until it is dropped, so later runs on it do not free what a graph reads.
//! - A buffer that cudarc tracks with events (event tracking on, more than one stream) waits,
//!   at each use, for an event recorded before the capture began, which a capture cannot do
//!   (the run fails with `CUDA_ERROR_STREAM_CAPTURE_ISOLATION` and the capture is invalidated):
//!   allocate the buffers a graph reads and writes while event tracking is off
//!   (`CudaContext::disable_event_tracking`), as cudarc's own graph tests do.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute, CUevent_flags, CUstreamCaptureStatus};
use cudarc::driver::{CudaContext, CudaEvent, CudaFunction, CudaSlice, CudaStream, DevicePtr, DeviceRepr, LaunchConfig, ValidAsZeroBits, result};
use cudarc::nvrtc::Ptx;

use crate::catalog::{Dtype, Kernel, Launch};
use crate::error::{Error, Result};
use crate::problem::Problem;
use crate::ptx;
use crate::tensor_map;

/// The arguments of a kernel launch as the driver takes them: a pointer to each value, in the
/// entry's parameter order (the values must outlive the launch call).
macro_rules! kernel_args {
    ($($arg:expr),+ $(,)?) => {
        [$($arg as *const _ as *mut c_void),+]
    };
}

/// What the device is, as the driver reports it when a [`Gpu`] is opened ([`Gpu::info`]).
///
/// ```no_run
/// let gpu = rgemm::Gpu::open()?;
/// let info = &gpu.info;
/// println!("{} (device {}): {} SMs, {} GiB, L2 {} MiB", info.name, info.ordinal, info.multiprocessors, info.memory_bytes >> 30, info.l2_bytes >> 20);
/// assert_eq!(info.compute_capability, (9, 0)); // opening any other device is an error
/// # Ok::<(), rgemm::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    /// The device's name, as the driver gives it ("NVIDIA H100 80GB HBM3").
    pub name: String,
    /// The device's ordinal, as [`Gpu::on_device`] takes it.
    pub ordinal: usize,
    /// Compute capability (major, minor): (9, 0) for the Hopper GPUs rgemm runs on.
    pub compute_capability: (i32, i32),
    /// Streaming multiprocessors (SMs): 132 on an H100 SXM or H200.
    pub multiprocessors: u32,
    /// Peak SM clock in kHz.
    pub clock_khz: u32,
    /// Device memory in bytes.
    pub memory_bytes: u64,
    /// Size of the L2 cache in bytes.
    pub l2_bytes: u64,
    /// The CUDA version the driver supports, e.g. "13.0".
    pub driver_cuda_version: Option<String>,
    /// Peak memory bandwidth in GB/s: 2 transfers per memory clock × the bus width.
    pub memory_gbps: f64,
}


/// A buffer in device memory (a cudarc buffer, tracked as the context says), as
/// [`Gpu::upload`] and [`Gpu::zeros`] make it: [`Plan::run`](crate::api::Plan::run) takes it as
/// it takes cudarc's own buffers and views (it implements cudarc's `DevicePtr` and
/// `DevicePtrMut`), and [`addr`](Buffer::addr) gives the raw device address for launching a
/// kernel by hand ([`Gpu::entry`]).
///
/// ```no_run
/// let gpu = rgemm::Gpu::open()?;
/// let x = gpu.upload(&[1.0f32, 2.0, 3.0])?;
/// assert_eq!((x.len(), x.is_empty()), (3, false));
/// let addr = x.addr(&gpu); // a kernel argument
/// assert_ne!(addr, 0);
/// assert_eq!(gpu.download(&x)?, [1.0, 2.0, 3.0]);
/// # Ok::<(), rgemm::Error>(())
/// ```
pub struct Buffer<T> {
    slice: CudaSlice<T>,
}

impl<T> Buffer<T> {
    /// The raw device address, as kernels and cuBLAS take it. Where cudarc tracks the buffer's
    /// uses (event tracking on, several streams), the use is recorded here, before the work that
    /// uses the address is queued: use it on the buffer's own stream.
    ///
    /// ```no_run
    /// let gpu = rgemm::Gpu::open()?;
    /// let x = gpu.upload(&vec![1.0f32; 32 * 32])?;
    /// let start = x.addr(&gpu); // a kernel's pointer argument, as a u64
    /// assert_eq!(start % 16, 0); // a new allocation starts on (at least) 16 bytes
    /// let row_3 = start + 3 * 32 * 4; // row 3 of x as a 32×32 f32 matrix: addresses count bytes
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn addr(&self, gpu: &Gpu) -> u64 {
        let (ptr, _sync) = self.slice.device_ptr(&gpu.stream);
        ptr
    }

    /// Elements in the buffer (not bytes).
    ///
    /// ```no_run
    /// let gpu = rgemm::Gpu::open()?;
    /// let y = gpu.zeros::<rgemm::half::bf16>(16 * 11008)?;
    /// assert_eq!(y.len(), 16 * 11008);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.slice.len()
    }

    /// Whether the buffer holds no element.
    ///
    /// ```no_run
    /// let gpu = rgemm::Gpu::open()?;
    /// let x = gpu.upload(&[1.0f32, 2.0])?;
    /// assert!(!x.is_empty() && x.len() == 2);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.slice.len() == 0
    }
}

// Cudarc's buffer traits, by the buffer inside: a `Buffer` goes wherever a `CudaSlice` does.
impl<T> cudarc::driver::DeviceSlice<T> for Buffer<T> {
    fn len(&self) -> usize {
        self.slice.len()
    }
    fn stream(&self) -> &Arc<CudaStream> {
        cudarc::driver::DeviceSlice::stream(&self.slice)
    }
}

impl<T> DevicePtr<T> for Buffer<T> {
    fn device_ptr<'a>(&'a self, stream: &'a CudaStream) -> (cudarc::driver::sys::CUdeviceptr, cudarc::driver::SyncOnDrop<'a>) {
        self.slice.device_ptr(stream)
    }
}

impl<T> cudarc::driver::DevicePtrMut<T> for Buffer<T> {
    fn device_ptr_mut<'a>(&'a mut self, stream: &'a CudaStream) -> (cudarc::driver::sys::CUdeviceptr, cudarc::driver::SyncOnDrop<'a>) {
        self.slice.device_ptr_mut(stream)
    }
}

/// Device memory rgemm allocates for itself (a workspace, tensor maps): allocated on a stream,
/// used by that stream alone and freed on it, so stream order is all the synchronization it
/// needs; it has no cudarc events, whatever the context's event tracking says.
struct Scratch {
    ptr: u64,
    bytes: usize,
    stream: Arc<CudaStream>,
    /// Allocated from the device's memory pool, in stream order (else with `cuMemAlloc`).
    pooled: bool,
}

impl Scratch {
    /// `bytes` (at least 1) on `stream`, set to zero in stream order.
    fn zeroed(stream: &Arc<CudaStream>, bytes: usize, pooled: bool) -> Result<Scratch> {
        let scratch = Scratch::uninit(stream, bytes, pooled)?;
        // SAFETY: the allocation holds `bytes` and was made on this stream (or synchronously).
        unsafe { result::memset_d8_async(scratch.ptr, 0, bytes, stream.cu_stream()) }?;
        Ok(scratch)
    }

    /// A copy of `values` on `stream` (queued; `values` may be dropped once this returns: the
    /// driver stages pageable memory before returning).
    fn holding(stream: &Arc<CudaStream>, values: &[u64], pooled: bool) -> Result<Scratch> {
        let scratch = Scratch::uninit(stream, size_of_val(values), pooled)?;
        // SAFETY: the allocation holds all of `values`, which is live for the call.
        unsafe { result::memcpy_htod_async(scratch.ptr, values, stream.cu_stream()) }?;
        Ok(scratch)
    }

    fn uninit(stream: &Arc<CudaStream>, bytes: usize, pooled: bool) -> Result<Scratch> {
        let bytes = bytes.max(1);
        stream.context().bind_to_thread()?;
        // SAFETY: the stream is live (held by the caller) and its context is current; the memory
        // is only ever used as bytes by rgemm's launches.
        let ptr = unsafe { if pooled { result::malloc_async(stream.cu_stream(), bytes) } else { result::malloc_sync(bytes) } }?;
        Ok(Scratch { ptr, bytes, stream: stream.clone(), pooled })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Errors are recorded in the context, as cudarc does for its buffers, and returned by
        // its next call.
        let ctx = self.stream.context();
        ctx.record_err(ctx.bind_to_thread());
        if self.pooled {
            // SAFETY: allocated on this stream, freed once; the free waits, in stream order, for
            // every launch queued before it on the stream, the only one that uses the memory.
            ctx.record_err(unsafe { result::free_async(self.ptr, self.stream.cu_stream()) });
        } else {
            ctx.record_err(self.stream.synchronize());
            // SAFETY: allocated with `cuMemAlloc`, freed once, after the stream that used it is idle.
            ctx.record_err(unsafe { result::free_sync(self.ptr) });
        }
    }
}

/// Tensor maps in device memory by (kernel, A, B, C, problem).
type TensorMapCache = HashMap<(&'static str, u64, u64, u64, crate::problem::ShapeKey), Scratch>;

/// The functions loaded from the module, by entry name; shared by the `Gpu`s of one context
/// ([`Gpu::with_stream`]).
type FunctionCache = Arc<Mutex<HashMap<&'static str, CudaFunction>>>;

/// The CUDA version the driver supports ("13.0"), if the driver says.
fn driver_cuda_version() -> Option<String> {
    let mut version: std::ffi::c_int = 0;
    // SAFETY: `version` is a live local the driver writes one int to; the library was found
    // loadable above.
    let result = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) };
    (result == cudarc::driver::sys::CUresult::CUDA_SUCCESS && version > 0).then(|| format!("{}.{}", version / 1000, version % 1000 / 10))
}

/// rgemm on one device and one stream: the context, the loaded kernels, the workspaces and the
/// tensor maps its launches use. See the [module](self) for devices, streams, threads and CUDA
/// graphs: in short, `Gpu` is `Send + Sync`, everything it queues goes to its one stream, a
/// `Gpu` per stream ([`Gpu::with_stream`]) runs products at the same time, and a plan is captured
/// into a graph after one run.
///
/// ```no_run
/// use rgemm::{Gpu, api::{Gemm, KernelChoice}};
///
/// let gpu = Gpu::open()?; // device 0, its default stream
/// println!("{}: {} SMs", gpu.info.name, gpu.info.multiprocessors);
/// let plan = Gemm::new(512, 512, 512).plan::<f32>(&gpu, KernelChoice::Auto)?;
/// let ones = gpu.stream().clone_htod(&vec![1.0f32; 512 * 512])?;
/// let mut c = gpu.stream().alloc_zeros::<f32>(512 * 512)?;
/// plan.run(&gpu, &ones, &ones, &mut c)?; // queued on gpu.stream()
/// assert!(gpu.stream().clone_dtoh(&c)?.iter().all(|&x| x == 512.0)); // the copy waits for it
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// The split-K workspace, grown to the largest need so far and kept (see [`Gpu::with_workspace`]).
    workspace: Mutex<Option<Scratch>>,
    /// The stream-K workspace (kernels-gpu/src/stream_k_combine.rs): tile counters, zero between
    /// launches, and partial sums; grown like the split-K one, separate from it because a
    /// stream-K kernel may run inside a plan that holds that one.
    stream_k: Mutex<Option<Scratch>>,
    /// The workspace of the kernels that read A split ahead (`KernelSpec::split_ahead`).
    split_ahead: Mutex<Option<Scratch>>,
    /// Shared with the `Gpu`s made by [`Gpu::with_stream`]: a function belongs to the context.
    functions: FunctionCache,
    /// Tensor maps already in device memory, by (kernel, A, B, C, M, N, K): encoding and copying
    /// them on every launch would put a host-to-device copy inside the timed region.
    tensor_maps: Mutex<TensorMapCache>,
    /// Set once a launch has been queued while the stream was being captured into a graph: from
    /// then on, what the graph may read is kept in `retired` instead of being freed.
    captured: AtomicBool,
    /// Workspaces and tensor maps replaced after a capture, kept until the `Gpu` is dropped.
    retired: Mutex<Vec<Scratch>>,
    /// Whether the device allocates from memory pools in stream order.
    pooled: bool,
    /// What the device is: name, SMs, clocks, memory ([`DeviceInfo`]).
    pub info: DeviceInfo,
}

// The module's promise: a `Gpu` can be shared by threads and moved between them.
const _: () = {
    const fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Gpu>();
};

impl Gpu {
    /// Opens device 0 ([`Gpu::on_device`]).
    ///
    /// Without an NVIDIA driver this is [`Error::NoDriver`], without a device
    /// [`Error::NoDevice`], on a GPU other than a Hopper [`Error::UnsupportedDevice`]: a value to
    /// match on, not a panic (the [`Error`] type shows a program that runs elsewhere then).
    ///
    /// ```no_run
    /// let gpu = rgemm::Gpu::open()?;
    /// println!("{} with {} SMs", gpu.info.name, gpu.info.multiprocessors);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn open() -> Result<Gpu> {
        Gpu::on_device(0)
    }

    /// Opens device `ordinal` (0 is the first of the devices the driver shows, which
    /// `CUDA_VISIBLE_DEVICES` decides), checks it can run sm_90a code, and queues work on the
    /// device's default stream. An ordinal past the devices the driver reports is
    /// [`Error::NoDevice`], naming how many there are. The context's event tracking stays as
    /// cudarc set it (see the [module](self)).
    ///
    /// ```no_run
    /// // The second GPU of the machine; an error naming the devices there are if there is none.
    /// let gpu = rgemm::Gpu::on_device(1)?;
    /// assert_eq!(gpu.info.ordinal, 1);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn on_device(ordinal: usize) -> Result<Gpu> {
        // cudarc panics when the library is missing; ask first so the user gets a sentence.
        // SAFETY: only probes whether the driver library can be loaded.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(Error::NoDriver);
        }
        let count = CudaContext::device_count().map_err(|e| Error::NoDevice(crate::error::driver_message(&e)))?;
        let count = usize::try_from(count).unwrap_or(0);
        if ordinal >= count {
            return Err(Error::NoDevice(match count {
                0 => "the driver reports no devices".into(),
                1 => format!("device {ordinal} was asked for and the driver reports 1 device, device 0"),
                n => format!("device {ordinal} was asked for and the driver reports {n} devices, 0 to {}", n - 1),
            }));
        }
        let ctx = CudaContext::new(ordinal).map_err(|e| Error::NoDevice(crate::error::driver_message(&e)))?;
        Gpu::on_stream(ctx.default_stream())
    }

    /// rgemm on the caller's stream (and its context): kernels and copies are queued on
    /// `stream`. The kernels are loaded anew for this `Gpu`; [`Gpu::with_stream`] shares them
    /// with a `Gpu` already open.
    ///
    /// ```no_run
    /// use rgemm::cudarc::driver::CudaContext;
    ///
    /// // A context and stream the rest of the program already uses.
    /// let ctx = CudaContext::new(0)?;
    /// let stream = ctx.new_stream()?;
    /// let gpu = rgemm::Gpu::on_stream(stream.clone())?;
    /// assert!(std::sync::Arc::ptr_eq(gpu.stream(), &stream));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn on_stream(stream: Arc<CudaStream>) -> Result<Gpu> {
        let ctx = stream.context().clone();
        let attr = |a| ctx.attribute(a).map_err(Error::from);
        let info = DeviceInfo {
            name: ctx.name()?,
            ordinal: ctx.ordinal(),
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
        let pooled = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED)? > 0;
        Ok(Gpu::sharing(ctx, stream, Arc::new(Mutex::new(HashMap::new())), pooled, info))
    }

    /// Another `Gpu` on `stream`, a stream of this one's context (made with
    /// `gpu.context().new_stream()`, say): it shares this one's loaded kernels, and has
    /// workspaces and tensor maps of its own, because those are used by the launches of one
    /// stream: a workspace shared by two streams would be written by both at once. Products
    /// queued on two such `Gpu`s may run at the same time. A stream of another context is an
    /// error.
    ///
    /// Two products at the same time, one per stream (the plans are made once, for either):
    ///
    /// ```no_run
    /// use rgemm::api::{Gemm, KernelChoice};
    ///
    /// let gpu = rgemm::Gpu::open()?;
    /// let other = gpu.with_stream(gpu.context().new_stream()?)?;
    /// let plan = Gemm::new(1024, 1024, 1024).plan::<f32>(&gpu, KernelChoice::Auto)?;
    /// let (la, lb, lc) = plan.problem().extents();
    /// let (a, b) = (gpu.stream().alloc_zeros::<f32>(la)?, gpu.stream().alloc_zeros::<f32>(lb)?);
    /// let mut c1 = gpu.stream().alloc_zeros::<f32>(lc)?;
    /// let mut c2 = other.stream().alloc_zeros::<f32>(lc)?;
    /// gpu.synchronize()?; // A and B are written before the other stream reads them
    /// plan.run(&gpu, &a, &b, &mut c1)?;
    /// plan.run(&other, &a, &b, &mut c2)?;
    /// gpu.synchronize()?;
    /// other.synchronize()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_stream(&self, stream: Arc<CudaStream>) -> Result<Gpu> {
        if **stream.context() != *self.ctx {
            return Err(Error::WrongContext(format!(
                "the stream belongs to another CUDA context (on device {}) than this Gpu's (on device {}): open a Gpu on it with Gpu::on_stream",
                stream.context().ordinal(),
                self.info.ordinal
            )));
        }
        let ctx = stream.context().clone();
        Ok(Gpu::sharing(ctx, stream, self.functions.clone(), self.pooled, self.info.clone()))
    }

    fn sharing(ctx: Arc<CudaContext>, stream: Arc<CudaStream>, functions: FunctionCache, pooled: bool, info: DeviceInfo) -> Gpu {
        Gpu {
            ctx,
            stream,
            workspace: Mutex::new(None),
            stream_k: Mutex::new(None),
            split_ahead: Mutex::new(None),
            functions,
            tensor_maps: Mutex::new(HashMap::new()),
            captured: AtomicBool::new(false),
            retired: Mutex::new(Vec::new()),
            pooled,
            info,
        }
    }

    /// The stream everything this `Gpu` queues goes to: allocate and copy the operands on it,
    /// and a copy back to the host on it waits for the products queued before.
    ///
    /// ```no_run
    /// let gpu = rgemm::Gpu::open()?;
    /// let x = gpu.stream().clone_htod(&[1.0f32; 64])?;
    /// assert_eq!(gpu.stream().clone_dtoh(&x)?, [1.0; 64]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The CUDA context of the stream: `new_stream()` on it for [`Gpu::with_stream`].
    ///
    /// ```no_run
    /// let gpu = rgemm::Gpu::open()?;
    /// // A second stream of the same context, for products that may run beside this Gpu's.
    /// let other = gpu.with_stream(gpu.context().new_stream()?)?;
    /// assert!(std::sync::Arc::ptr_eq(other.context(), gpu.context()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// Free and total device memory in bytes.
    ///
    /// ```no_run
    /// let gpu = rgemm::Gpu::open()?;
    /// let (free, total) = gpu.memory()?;
    /// assert!(free <= total);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn memory(&self) -> Result<(u64, u64)> {
        let (free, total) = self.ctx.mem_get_info()?;
        Ok((free as u64, total as u64))
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
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

    /// A new buffer holding `host`, copied on the stream (the call returns once `host` may be
    /// reused). See [`Buffer`].
    ///
    /// ```no_run
    /// use rgemm::half::bf16;
    ///
    /// let gpu = rgemm::Gpu::open()?;
    /// let host: Vec<bf16> = (0..4096).map(|i| bf16::from_f32(i as f32 / 4096.0)).collect();
    /// let x = gpu.upload(&host)?;
    /// assert_eq!(x.len(), host.len());
    /// assert_eq!(gpu.download(&x)?, host);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn upload<T: DeviceRepr>(&self, host: &[T]) -> Result<Buffer<T>> {
        Ok(Buffer { slice: self.stream.clone_htod(host)? })
    }

    /// A new buffer of `len` zeros, allocated and set on the stream.
    ///
    /// ```no_run
    /// let gpu = rgemm::Gpu::open()?;
    /// let c = gpu.zeros::<f32>(1024)?;
    /// assert!(gpu.download(&c)?.iter().all(|&x| x == 0.0));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn zeros<T: DeviceRepr + ValidAsZeroBits>(&self, len: usize) -> Result<Buffer<T>> {
        Ok(Buffer { slice: self.stream.alloc_zeros(len)? })
    }

    /// `buffer`'s elements, once the work queued on the stream before this call is done (this
    /// waits for it). See [`Buffer`].
    ///
    /// ```no_run
    /// let gpu = rgemm::Gpu::open()?;
    /// let x = gpu.upload(&[1.5f32, -2.0, 3.25])?;
    /// let back: Vec<f32> = gpu.download(&x)?; // no synchronize needed: this waits
    /// assert_eq!(back, [1.5, -2.0, 3.25]);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn download<T: DeviceRepr>(&self, buffer: &Buffer<T>) -> Result<Vec<T>> {
        Ok(self.stream.clone_dtoh(&buffer.slice)?)
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Writes zeros over `buffer`, on the stream (used to evict the L2 cache between launches).
    pub fn memset_zeros<T: DeviceRepr + ValidAsZeroBits>(&self, buffer: &mut Buffer<T>) -> Result<()> {
        Ok(self.stream.memset_zeros(&mut buffer.slice)?)
    }

    /// Waits until everything queued on the stream is done: the one call besides
    /// [`Gpu::download`] that waits (a run of a plan only queues).
    ///
    /// ```no_run
    /// use rgemm::api::{Gemm, KernelChoice};
    ///
    /// let gpu = rgemm::Gpu::open()?;
    /// let plan = Gemm::new(64, 64, 64).plan::<f32>(&gpu, KernelChoice::Auto)?;
    /// let (a, b) = (gpu.stream().alloc_zeros::<f32>(64 * 64)?, gpu.stream().alloc_zeros::<f32>(64 * 64)?);
    /// let mut c = gpu.stream().alloc_zeros::<f32>(64 * 64)?;
    /// plan.run(&gpu, &a, &b, &mut c)?;
    /// gpu.synchronize()?; // the product is done (or its error is returned here)
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
        self.refuse_while_capturing(&format!("kernel {name} is not loaded yet"))?;
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
        if !self.captured.load(Ordering::Relaxed) && self.capturing()? {
            // What this launch reads now belongs to a graph too: keep it (see `retire`). The
            // store happens under the locks of the workspaces the launch uses, so whoever
            // replaces one of them next sees it.
            self.captured.store(true, Ordering::Relaxed);
        }
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

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Registers per thread and local-memory bytes per thread (spills, stack frames) of `kernel` as
    /// this GPU's driver compiled it from the PTX: the driver's compiler, not the ptxas CI runs,
    /// decides what actually executes.
    pub fn compiled_resources(&self, kernel: Kernel) -> Result<(u32, u32)> {
        let f = self.function(kernel)?;
        Ok((f.num_regs()? as u32, f.local_size_bytes()? as u32))
    }

    /// Any entry of the module (the lesson kernels too), allowed `smem_bytes` of dynamic shared
    /// memory, to launch by hand through [`Gpu::stream`] (what `examples/first_kernel.rs` and the
    /// book's "Your first launch" do; a plan does it all for you). Each entry is loaded as a
    /// module of its own, so the driver compiles only the entries a process uses. An entry the
    /// PTX does not have is [`Error::Cuda`].
    ///
    /// ```no_run
    /// use rgemm::{Gpu, Problem, catalog};
    ///
    /// let gpu = Gpu::open()?;
    /// let kernel = catalog::find("sgemm_01_naive_32x32x1")?;
    /// let launch = kernel.geometry(&Problem::new(1000, 700, 500, 1.0, 0.0)?)?;
    /// let f = gpu.entry(kernel.name(), launch.smem_bytes)?; // a cudarc function
    /// // ... gpu.stream().launch_builder(&f), its twenty arguments, and `launch` (unsafe).
    /// # Ok::<(), rgemm::Error>(())
    /// ```
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

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
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
        // SAFETY: the caller's guarantee; an epilogue that reads a bias or writes an auxiliary
        // output is refused below, since there are none.
        unsafe { self.launch_with_epilogue(kernel, geometry, problem, [a, b, c], [0, 0]) }
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// [`Gpu::launch`] with the fused epilogue's operands: `[bias, aux]`, the device addresses
    /// of the bias vector and of the auxiliary output (0 where `problem.epilogue` has none).
    ///
    /// # Safety
    /// As for [`Gpu::launch`], C of the epilogue's output type; the bias holds N (or M) values
    /// of that type, the auxiliary output is shaped as C, neither overlaps C.
    pub unsafe fn launch_with_epilogue(&self, kernel: Kernel, geometry: &Launch, problem: &Problem, [a, b, c]: [u64; 3], fused: [u64; 2]) -> Result<()> {
        check_epilogue_operands(problem, fused)?;
        if !kernel.applies_epilogue(problem) {
            return Err(Error::Unsupported { kernel: kernel.name().into(), reason: format!("it does not apply the epilogue of {problem} itself (a plan applies it by split-K's sum)") });
        }
        let product = EpilogueArgs { word: problem.epilogue.pack(), bias: fused[0], aux: fused[1] };
        if !kernel.spec.split_ahead {
            // SAFETY: the caller's guarantee.
            return unsafe { self.launch_product(kernel, geometry, problem, a, b, c, product) };
        }
        let (split, floats) = problem.split_ahead()?;
        let floats = usize::try_from(floats).map_err(|_| Error::InvalidProblem(format!("the split of A for {problem} is too large to address")))?;
        // Locked until both launches are queued: no other launch writes the split in between.
        let mut slot = self.split_ahead.lock().unwrap_or_else(|e| e.into_inner());
        let ws = self.at_least(&mut slot, floats.saturating_mul(4), "the workspace for the split of A")?;
        // SAFETY: A holds the problem's matrices (the caller's guarantee); the workspace holds
        // `floats`, the split's layout for them; the product then reads the split as its A.
        unsafe {
            self.split_a(problem, a, &split, ws)?;
            self.launch_product(kernel, geometry, &split, ws, b, c, product)
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
    unsafe fn launch_product(&self, kernel: Kernel, geometry: &Launch, problem: &Problem, a: u64, b: u64, c: u64, fused: EpilogueArgs) -> Result<()> {
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
            Some(w) => self.at_least(&mut stream_k, w.bytes(launch.grid.0) as usize, "the stream-K workspace")?,
            None => 0,
        };
        let p = problem;
        #[rustfmt::skip]
        let mut args = kernel_args![&a, &b, &c, &p.m, &p.n, &p.k, &p.alpha, &p.beta, &maps, &p.lda, &p.ldb, &p.ldc, &p.batch, &p.stride_a, &p.stride_b, &p.stride_c, &workspace, &fused.word, &fused.bias, &fused.aux];
        // SAFETY: the arguments match the entry's parameters (entries! declares one signature
        // for every kernel); the caller guarantees the geometry and the operands.
        unsafe { self.launch_dependent(&f, cfg, &mut args) }
    }

    /// Device address of `[map_a, map_b]` (and `map_c` if the kernel stores C through the copy
    /// engine) for a kernel that uses tensor maps, else 0.
    fn tensor_maps_for(&self, cache: &mut TensorMapCache, kernel: Kernel, problem: &Problem, a: u64, b: u64, c: u64) -> Result<u64> {
        let Some(spec) = kernel.spec.tensor_maps else { return Ok(0) };
        let key = (kernel.name(), a, b, c, problem.shape_key());
        if let Some(maps) = cache.get(&key) {
            return Ok(maps.ptr);
        }
        self.refuse_while_capturing(&format!("the tensor maps of {} for these buffers are not on the device yet", kernel.name()))?;
        let dtype = kernel.spec.dtype;
        let [sa, sb, sc] = tensor_map::stored_for(kernel.spec, problem);
        let map_a = tensor_map::encode_spanning(dtype, a, sa, (spec.a_box.0, spec.a_box.1, spec.a_span), spec.a_swizzle)?;
        let map_b = tensor_map::encode_spanning(dtype, b, sb, (spec.b_box.0, spec.b_box.1, spec.b_span), spec.b_swizzle)?;
        let map_c = match spec.c_box {
            Some((rows, cols)) => Some(tensor_map::encode(problem.epilogue.output, c, sc, rows, cols, spec.c_swizzle_of(problem.epilogue.output))?),
            None => None,
        };
        let both: Vec<u64> = map_a.into_iter().chain(map_b).chain(map_c.into_iter().flatten()).collect();
        if cache.len() >= 64 {
            cache.drain().for_each(|(_, maps)| self.retire(maps));
        }
        let maps = Scratch::holding(&self.stream, &both, self.pooled)?;
        let addr = maps.ptr;
        cache.insert(key, maps);
        Ok(addr)
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Runs `queue` with the device address of a workspace of at least `floats` f32 (split-K's
    /// partial products), allocated on first need and grown only when a larger one is asked for.
    /// The workspace stays locked while `queue` queues its work, so no other thread's work can
    /// use it in between or free it before that work (a free is queued on the stream after it).
    pub fn with_workspace<R>(&self, floats: usize, queue: impl FnOnce(u64) -> Result<R>) -> Result<R> {
        let mut ws = self.workspace.lock().unwrap_or_else(|e| e.into_inner());
        let ptr = self.at_least(&mut ws, floats.saturating_mul(4), "the workspace")?;
        queue(ptr)
    }

    /// The device address of the kept buffer in `slot` (`what`, for the error while capturing),
    /// replaced by a zeroed one of `bytes` (after checking the memory is free) when there is none
    /// or it is shorter: the workspaces grow only when a launch needs more than any before it.
    fn at_least(&self, slot: &mut Option<Scratch>, bytes: usize, what: &str) -> Result<u64> {
        if let Some(kept) = slot.as_ref().filter(|s| s.bytes >= bytes) {
            return Ok(kept.ptr);
        }
        self.refuse_while_capturing(&format!("{what} must grow to {bytes} bytes"))?;
        self.require_memory(bytes as u64)?;
        let grown = Scratch::zeroed(&self.stream, bytes, self.pooled)?;
        let ptr = grown.ptr;
        if let Some(old) = slot.replace(grown) {
            self.retire(old);
        }
        Ok(ptr)
    }

    /// Frees `old` (in stream order, after the launches queued before), or, once this `Gpu`'s
    /// launches have been captured into a graph that may read it, keeps it until the `Gpu` is
    /// dropped.
    fn retire(&self, old: Scratch) {
        if self.captured.load(Ordering::Relaxed) {
            self.retired.lock().unwrap_or_else(|e| e.into_inner()).push(old);
        } else {
            drop(old);
        }
    }

    /// Whether the stream is being captured into a graph (an invalidated capture too). Never the
    /// default stream, which cannot be: that one is not asked (no driver call per launch).
    fn capturing(&self) -> Result<bool> {
        if self.stream.cu_stream().is_null() {
            return Ok(false);
        }
        // SAFETY: the stream is live (held by `self`); the driver only reads its handle.
        let status = unsafe { result::stream::is_capturing(self.stream.cu_stream()) }?;
        Ok(status != CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE)
    }

    /// An error naming `why` if the stream is being captured: the work it stands for (a copy, an
    /// allocation, a module load) is done before a plan's launches, on its first run, and cannot
    /// be captured.
    fn refuse_while_capturing(&self, why: &str) -> Result<()> {
        self.ctx.bind_to_thread()?;
        if self.capturing()? {
            return Err(Error::WhileCapturing(format!(
                "{why}, and the stream is being captured into a CUDA graph: run the plan once on these buffers with this Gpu before capturing it"
            )));
        }
        Ok(())
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Copies a batch of `batch` matrices of `(rows, cols)` elements of `dtype` from `src` (leading
    /// dimension and matrix stride `from`) to `dst` (`to`): kernels-gpu/src/align_rows.rs. A
    /// source stride of 0 (a broadcast operand) copies one matrix.
    ///
    /// # Safety
    /// `src` must hold the matrices as `from` describes them and `dst` room for them as `to` does.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn copy_rows(&self, dtype: Dtype, src: u64, dst: u64, (rows, cols): (u64, u64), from: (u32, u64), to: (u32, u64), batch: u32) -> Result<()> {
        use rgemm_spec::helpers::{COPY_THREADS, copy_grid};
        let entry = match dtype.bytes() {
            1 => "copy_rows_b8",
            2 => "copy_rows_b16",
            _ => "copy_rows_b32",
        };
        let f = self.cached_entry(entry, 0)?;
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

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Sums the `splits` partial products at `ws` (M×N each, `plane` floats apart) into C
    /// through the problem's epilogue: `C = act(alpha·Σ + beta·C + bias)`
    /// (kernels-gpu/src/split_k.rs), in slice order. `[bias, aux]` as for
    /// [`Gpu::launch_with_epilogue`].
    ///
    /// # Safety
    /// `ws` must hold `splits` M×N matrices `plane ≥ M·N` floats apart and `c` the problem's C
    /// (rows `ldc` apart, of the epilogue's output type), one product; the bias and the
    /// auxiliary output as for [`Gpu::launch_with_epilogue`].
    pub unsafe fn reduce_splits(&self, problem: &Problem, splits: u32, plane: u64, ws: u64, c: u64, [bias, aux]: [u64; 2]) -> Result<()> {
        check_epilogue_operands(problem, [bias, aux])?;
        use rgemm_spec::helpers::REDUCE_THREADS;
        let f = self.cached_entry("reduce_splits", 0)?;
        let rows = problem.m.min(crate::catalog::MAX_GRID_Y as u32);
        let cfg = LaunchConfig { grid_dim: (problem.n.div_ceil(REDUCE_THREADS), rows, 1), block_dim: (REDUCE_THREADS, 1, 1), shared_mem_bytes: 0 };
        let p = problem;
        let word = p.epilogue.pack();
        let mut args = kernel_args![&ws, &c, &p.m, &p.n, &p.ldc, &splits, &plane, &p.alpha, &p.beta, &word, &bias, &aux];
        // SAFETY: the arguments match `reduce_splits`'s parameters; the caller guarantees the
        // buffers.
        unsafe { self.launch_dependent(&f, cfg, &mut args) }
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// A CUDA event that records time.
    pub fn timing_event(&self) -> Result<CudaEvent> {
        Ok(self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?)
    }
}

/// The fused epilogue's kernel parameters: the packed word, the bias and auxiliary addresses.
#[derive(Clone, Copy)]
struct EpilogueArgs {
    word: u32,
    bias: u64,
    aux: u64,
}

/// [`Error::InvalidProblem`] unless the bias and auxiliary addresses are given exactly where the
/// problem's epilogue reads or writes them.
fn check_epilogue_operands(problem: &Problem, [bias, aux]: [u64; 2]) -> Result<()> {
    let e = problem.epilogue;
    let wants_bias = e.bias != crate::problem::Bias::None;
    if wants_bias != (bias != 0) || e.aux != (aux != 0) {
        return Err(Error::InvalidProblem(format!(
            "the epilogue of {problem} {} a bias and {} an auxiliary output, but {} and {} were given",
            if wants_bias { "reads" } else { "reads no" },
            if e.aux { "writes" } else { "writes no" },
            if bias != 0 { "a bias" } else { "no bias" },
            if aux != 0 { "an auxiliary output" } else { "none" },
        )));
    }
    Ok(())
}
