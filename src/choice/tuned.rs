//! Tuning on the user's GPU: the plan timed fastest for a problem, kept in a cache
//! ([`KernelChoice::Tuned`](crate::api::KernelChoice::Tuned)).
//!
//! **The idea.** The automatic choice predicts; a timing knows. The first time a problem is
//! planned with a [`TuneCache`] on a [`Gpu`], [`tuned`] times a few plans on scratch buffers of
//! the problem's size: the cost model's cheapest [`CANDIDATES`] ([`super::model_plans`] ranked by
//! [`super::cost::estimate`]) and the automatic choice's own plan, so that a tuned plan is never
//! one the automatic choice beats by its own measurement. The fastest is kept in the cache, and
//! written to the cache's file if it has one; the next plan of the same problem (this process or
//! a later one) is read from it without timing.
//!
//! **Invariants.** A cache belongs to one device (its name and SM count, recorded in its file):
//! tuning on another device is refused with [`Error::InvalidTuneCache`], since a plan fast on one
//! GPU says little about another. An entry is keyed by everything a plan depends on (element
//! type, layout, sizes, leading dimensions, batch and strides, whether beta is 0, the output type
//! and epilogue), never by alpha or the data. An entry whose kernel is no longer in the catalog
//! or no longer takes the problem (a newer rgemm) is timed again, not trusted. Every plan it
//! returns was built for the problem by the same constructors as the automatic choice's, so it
//! runs.
//!
//! **Cost.** Tuning one problem allocates A, B, C (and the bias or auxiliary output) and twice
//! the L2 cache's size once, checked against the free memory first, and times the candidates as
//! `rgemm bench` times a kernel against cuBLAS: in turn, nine rounds of one launch of each, each
//! launch after the L2 cache was flushed (so a small problem is not judged on operands a real
//! program would not find in L2), the median kept; it waits for the stream. Plans within a few
//! percent of each other are ranked by the noise of nine launches. A cached plan costs a map
//! lookup.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use cudarc::driver::{CudaEvent, CudaSlice, DevicePtr};
use rgemm_spec::{Bias, Dtype};

use crate::api::{KernelChoice, Plan};
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::problem::Problem;

/// How many of the cost model's cheapest plans a tuning times (besides the automatic choice's).
pub const CANDIDATES: usize = 6;

/// Timed launches per candidate (the median is kept), one per round over the candidates.
const ROUNDS: usize = 9;

/// The first line of a cache file: what it is and the version of its format.
const HEADER: &str = "# rgemm tuning cache v1: the plan timed fastest per problem on one GPU";

/// The plans timed fastest for problems on one GPU, shared by every clone of the handle and
/// written to a file when it has one ([`TuneCache::open`]). Pass it as
/// [`KernelChoice::Tuned`](crate::api::KernelChoice::Tuned): [`Gemm::plan`](crate::api::Gemm::plan)
/// times a problem it does not hold yet and records the winner.
///
/// Two handles are equal when they are clones of one cache.
///
/// ```rust
/// use rgemm::choice::TuneCache;
///
/// let dir = std::env::temp_dir().join(format!("rgemm-doc-tune-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("h200.tune");
/// let cache = TuneCache::open(&path)?; // no file yet: an empty cache that will write it
/// assert!(cache.is_empty());
/// assert_eq!(cache.path(), Some(path.as_path()));
/// assert_eq!(cache.clone(), cache); // clones share the entries
/// assert_ne!(TuneCache::in_memory(), cache);
///
/// // A file that is not a cache is refused, with its line.
/// std::fs::write(&path, "not a cache\n")?;
/// assert!(matches!(TuneCache::open(&path), Err(rgemm::Error::InvalidTuneCache(_))));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct TuneCache {
    inner: Arc<Shared>,
}

/// What the clones of a cache share.
struct Shared {
    /// Where it is written after each new entry; `None`: kept in memory only.
    path: Option<PathBuf>,
    entries: Mutex<Entries>,
}

/// What a cache holds.
struct Entries {
    /// The device its entries were timed on: name and SM count (`None` until the first).
    device: Option<(String, u32)>,
    /// Problem key ([`key`]) → the fastest plan.
    plans: BTreeMap<String, Entry>,
}

/// The fastest plan of one problem.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    kernel: String,
    staged: bool,
    splits: u32,
    /// Its time per launch, in microseconds, as measured.
    micros: f64,
}

impl TuneCache {
    /// An empty cache, kept in memory for this process.
    ///
    /// ```rust
    /// let cache = rgemm::choice::TuneCache::in_memory();
    /// assert!(cache.is_empty() && cache.path().is_none());
    /// ```
    pub fn in_memory() -> TuneCache {
        TuneCache { inner: Arc::new(Shared { path: None, entries: Mutex::new(Entries { device: None, plans: BTreeMap::new() }) }) }
    }

    /// The cache in file `path`: read if the file exists (an empty cache if it does not), and
    /// rewritten whenever a new problem is tuned. [`Error::InvalidTuneCache`] for a file that
    /// cannot be read or is not a cache (the line and what is wrong with it).
    ///
    /// ```rust
    /// let path = std::env::temp_dir().join(format!("rgemm-doc-open-{}.tune", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let cache = rgemm::choice::TuneCache::open(&path)?;
    /// assert_eq!(cache.len(), 0);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<TuneCache> {
        let path = path.as_ref();
        let (device, plans) = match std::fs::read_to_string(path) {
            Ok(text) => parse(&text).map_err(|e| Error::InvalidTuneCache(format!("{}: {e}", path.display())))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (None, BTreeMap::new()),
            Err(e) => return Err(Error::InvalidTuneCache(format!("{}: {e}", path.display()))),
        };
        Ok(TuneCache { inner: Arc::new(Shared { path: Some(path.to_path_buf()), entries: Mutex::new(Entries { device, plans }) }) })
    }

    /// How many problems it holds a plan for.
    ///
    /// ```rust
    /// assert_eq!(rgemm::choice::TuneCache::in_memory().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.lock().plans.len()
    }

    /// Whether it holds no plan.
    ///
    /// ```rust
    /// assert!(rgemm::choice::TuneCache::in_memory().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The file it is kept in, if any.
    ///
    /// ```rust
    /// assert!(rgemm::choice::TuneCache::in_memory().path().is_none());
    /// ```
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }

    /// The entries, locked; a poisoned lock (a panic while holding it) still holds whole entries.
    fn lock(&self) -> MutexGuard<'_, Entries> {
        self.inner.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The cached plan of `problem` for element type `dtype` on a GPU of `sms` SMs, if the cache
    /// holds one that still builds.
    pub(crate) fn cached(&self, dtype: Dtype, problem: &Problem, sms: u32) -> Option<Plan> {
        let entries = self.lock();
        if entries.device.as_ref().is_some_and(|(_, s)| *s != sms) {
            return None;
        }
        let entry = entries.plans.get(&key(dtype, problem))?;
        let kernel = crate::catalog::find(&entry.kernel).ok()?;
        if kernel.spec.dtype != dtype {
            return None;
        }
        let reason = format!("tuned on this GPU: the fastest plan timed for this problem ({:.1} µs), from the tuning cache", entry.micros);
        Plan::with_splits(problem, kernel, entry.staged, entry.splits, reason)
    }
}

impl PartialEq for TuneCache {
    fn eq(&self, other: &TuneCache) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Eq for TuneCache {}

impl fmt::Debug for TuneCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries = self.lock();
        f.debug_struct("TuneCache").field("path", &self.inner.path).field("device", &entries.device).field("plans", &entries.plans.len()).finish()
    }
}

/// The cache's key for `problem` in element type `dtype`: everything a plan's choice and speed
/// depend on, alpha and the data excepted.
fn key(dtype: Dtype, p: &Problem) -> String {
    let e = p.epilogue;
    let bias = match e.bias {
        Bias::None => "none",
        Bias::PerColumn => "column",
        Bias::PerRow => "row",
    };
    format!(
        "{} {} {}x{}x{}x{} ld {},{},{} stride {},{},{} beta {} out {} bias {} act {} aux {}",
        dtype.name(),
        p.layout.name(),
        p.batch,
        p.m,
        p.n,
        p.k,
        p.lda,
        p.ldb,
        p.ldc,
        p.stride_a,
        p.stride_b,
        p.stride_c,
        if p.beta == 0.0 { "0" } else { "x" },
        e.output.name(),
        bias,
        e.activation.name(),
        u8::from(e.aux)
    )
}

/// A cache file's text: its device and entries.
type Parsed = (Option<(String, u32)>, BTreeMap<String, Entry>);

/// Reads a cache file: [`HEADER`], then `device<TAB>name<TAB>sms`, then one line per problem:
/// `key<TAB>kernel<TAB>staged<TAB>splits<TAB>micros`.
fn parse(text: &str) -> std::result::Result<Parsed, String> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, HEADER)) => {}
        _ => return Err(format!("line 1 is not \"{HEADER}\": not an rgemm tuning cache")),
    }
    let mut device = None;
    let mut plans = BTreeMap::new();
    for (i, line) in lines {
        let at = |what: &str| format!("line {}: {what}", i + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[..] {
            ["device", name, sms] if device.is_none() => {
                let sms = sms.parse::<u32>().map_err(|_| at(&format!("'{sms}' is no SM count")))?;
                device = Some((name.to_string(), sms));
            }
            [key, kernel, staged, splits, micros] if device.is_some() => {
                let staged = match staged {
                    "staged" => true,
                    "direct" => false,
                    other => return Err(at(&format!("'{other}' is neither staged nor direct"))),
                };
                let splits = splits.parse::<u32>().ok().filter(|s| *s >= 1).ok_or_else(|| at(&format!("'{splits}' is no count of slices")))?;
                let micros = micros.parse::<f64>().ok().filter(|t| t.is_finite() && *t > 0.0).ok_or_else(|| at(&format!("'{micros}' is no time")))?;
                plans.insert(key.to_string(), Entry { kernel: kernel.to_string(), staged, splits, micros });
            }
            _ => return Err(at("expected the device line, then key, kernel, staged|direct, slices of K and µs, tab-separated")),
        }
    }
    Ok((device, plans))
}

/// A cache's file text ([`parse`] reads it back).
fn render(entries: &Entries) -> String {
    let mut text = format!("{HEADER}\n");
    if let Some((name, sms)) = &entries.device {
        text += &format!("device\t{name}\t{sms}\n");
    }
    for (key, e) in &entries.plans {
        text += &format!("{key}\t{}\t{}\t{}\t{:.3}\n", e.kernel, if e.staged { "staged" } else { "direct" }, e.splits, e.micros);
    }
    text
}

/// The plan of `problem` in element type `dtype` that `cache` holds for `gpu`, or else the
/// fastest of the candidates timed now on `gpu` (recorded in the cache, and its file rewritten).
/// [`Error::InvalidTuneCache`] when the cache was tuned on another device, or its file cannot be
/// written; the errors of allocating and launching otherwise.
pub(crate) fn tuned(gpu: &Gpu, dtype: Dtype, problem: &Problem, cache: &TuneCache) -> Result<Plan> {
    let sms = gpu.info.multiprocessors;
    let device = (gpu.info.name.clone(), sms);
    if let Some(other) = &cache.lock().device {
        if *other != device {
            return Err(Error::InvalidTuneCache(format!(
                "the cache was tuned on {} ({} SMs), this GPU is {} ({sms} SMs): open one cache per device",
                other.0, other.1, device.0
            )));
        }
    }
    if let Some(plan) = cache.cached(dtype, problem, sms) {
        return Ok(plan);
    }
    let automatic = super::plan(dtype, problem, &KernelChoice::Auto, sms)?;
    if problem.k == 0 {
        // Only C is scaled: nothing to choose between.
        return Ok(automatic);
    }
    let mut candidates = vec![automatic];
    for (_, plan) in super::ranked_model_plans(dtype, problem, sms) {
        if candidates.len() > CANDIDATES {
            break;
        }
        if !candidates.iter().any(|c| same_plan(c, &plan)) {
            candidates.push(plan);
        }
    }
    let mut scratch = Scratch::new(gpu, dtype, problem)?;
    // Each candidate launched once (one that cannot be launched is left out), then timed in
    // rounds, one launch of each per round, so that the clock's rise after an idle spell, or any
    // other drift, weighs on every candidate alike rather than on the first ones.
    let mut first_error = None;
    let mut runs: Vec<(Plan, Vec<f64>)> = Vec::new();
    for plan in candidates {
        match scratch.time_once(gpu, &plan) {
            Ok(_) => runs.push((plan, Vec::with_capacity(ROUNDS))),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    for _ in 0..ROUNDS {
        for (plan, times) in &mut runs {
            times.push(scratch.time_once(gpu, plan)?);
        }
    }
    let timed: Vec<(f64, Plan)> = runs
        .into_iter()
        .map(|(plan, mut times)| {
            times.sort_by(f64::total_cmp);
            (times[ROUNDS / 2], plan)
        })
        .collect();
    let count = timed.len();
    let auto_micros = timed.first().map(|(s, _)| s * 1e6);
    let Some((seconds, mut plan)) = timed.into_iter().min_by(|x, y| x.0.total_cmp(&y.0)) else {
        return Err(first_error.unwrap_or_else(|| Error::Cuda("no candidate plan could be timed".into())));
    };
    let micros = seconds * 1e6;
    plan.reason = match auto_micros {
        Some(a) => format!("tuned on this GPU: the fastest of {count} plans timed ({micros:.1} µs; the automatic choice's {a:.1} µs)"),
        None => format!("tuned on this GPU: the fastest of {count} plans timed ({micros:.1} µs)"),
    };
    let entry = Entry { kernel: plan.kernel.name().to_string(), staged: plan.staging.is_some(), splits: plan.splits(), micros };
    let mut entries = cache.lock();
    entries.device = Some(device);
    entries.plans.insert(key(dtype, problem), entry);
    if let Some(path) = cache.path() {
        write_atomically(path, &render(&entries))?;
    }
    Ok(plan)
}

/// Whether two plans run the same kernels the same way.
fn same_plan(a: &Plan, b: &Plan) -> bool {
    a.kernel.name() == b.kernel.name() && a.staging.is_some() == b.staging.is_some() && a.splits() == b.splits()
}

/// Writes `text` to a new file beside `path` and renames it over `path`, so that a reader never
/// sees half a cache.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let fail = |e: std::io::Error| Error::InvalidTuneCache(format!("{}: {e}", path.display()));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

/// Device buffers of one problem's size for timing its plans: A and B filled with values in
/// [-1, 1) (not zeros: the tensor cores' power, and so their clock, depend on the data), C, and
/// the bias and auxiliary output where the epilogue has them; twice the L2 cache's size, written
/// before each timed launch; and the two events every launch is timed between.
struct Scratch {
    flush: CudaSlice<u8>,
    start: CudaEvent,
    end: CudaEvent,
    a: CudaSlice<u8>,
    b: CudaSlice<u8>,
    c: CudaSlice<u8>,
    bias: Option<CudaSlice<u8>>,
    aux: Option<CudaSlice<u8>>,
}

impl Scratch {
    fn new(gpu: &Gpu, dtype: Dtype, problem: &Problem) -> Result<Scratch> {
        let (la, lb, lc) = problem.extents();
        let e = problem.epilogue;
        let lbias = problem.bias_len();
        let (elem, out) = (dtype.bytes() as usize, e.output.bytes() as usize);
        let bytes = |len: usize, size: usize| len.checked_mul(size).ok_or_else(|| Error::InvalidProblem("the operands' bytes overflow the address space".into()));
        let (ba, bb, bc) = (bytes(la, elem)?, bytes(lb, elem)?, bytes(lc, out)?);
        let (bbias, baux) = (bytes(lbias, out)?, if e.aux { bc } else { 0 });
        let flush = (gpu.info.l2_bytes as usize).saturating_mul(2).max(1);
        let total = [ba, bb, bc, bbias, baux, flush].iter().try_fold(0u64, |s, &x| s.checked_add(x as u64));
        gpu.require_memory(total.unwrap_or(u64::MAX))?;
        let stream = gpu.stream();
        let filled = |len: usize, t: Dtype, seed: u64| -> Result<CudaSlice<u8>> { Ok(stream.clone_htod(&random_bytes(t, len, seed))?) };
        Ok(Scratch {
            flush: stream.alloc_zeros::<u8>(flush)?,
            start: gpu.timing_event()?,
            end: gpu.timing_event()?,
            a: filled(la, dtype, 1)?,
            b: filled(lb, dtype, 2)?,
            c: filled(lc, e.output, 3)?,
            bias: if lbias > 0 { Some(filled(lbias, e.output, 4)?) } else { None },
            aux: if e.aux { Some(stream.alloc_zeros::<u8>(bc)?) } else { None },
        })
    }

    /// Seconds of one launch of `plan` on these buffers, the L2 cache flushed first.
    fn time_once(&mut self, gpu: &Gpu, plan: &Plan) -> Result<f64> {
        let stream = gpu.stream();
        let Scratch { flush, start, end, a, b, c, bias, aux } = self;
        let (a, _ra) = a.device_ptr(stream);
        let (b, _rb) = b.device_ptr(stream);
        let (c, _rc) = c.device_ptr(stream);
        let bias = bias.as_ref().map(|s| s.device_ptr(stream));
        let aux = aux.as_ref().map(|s| s.device_ptr(stream));
        let extra = [bias.as_ref().map_or(0, |p| p.0), aux.as_ref().map_or(0, |p| p.0)];
        stream.memset_zeros(flush)?;
        start.record(stream)?;
        // SAFETY: the buffers hold the problem's extents of the plan's element type (A, B) and
        // of the output type (C, bias, auxiliary output), each a fresh allocation (aligned for
        // any kernel, overlapping nothing); the plan was built for this problem.
        unsafe { plan.launch_with_epilogue_at(gpu, [a, b, c], extra)? };
        end.record(stream)?;
        end.synchronize()?;
        Ok(f64::from(start.elapsed_ms(&end)?) * 1e-3)
    }
}

/// `len` elements of type `t` drawn uniformly from [-1, 1) by a splitmix64 stream from `seed`, as
/// their bytes.
fn random_bytes(t: Dtype, len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 23) as f32) - 1.0
    };
    let mut out = Vec::with_capacity(len.saturating_mul(t.bytes() as usize));
    for _ in 0..len {
        let v = next();
        match t {
            Dtype::F32 => out.extend_from_slice(&v.to_le_bytes()),
            Dtype::Bf16 => out.extend_from_slice(&half::bf16::from_f32(v).to_le_bytes()),
            Dtype::F16 => out.extend_from_slice(&half::f16::from_f32(v).to_le_bytes()),
            Dtype::E4m3 => out.push(crate::E4m3::from_f32(v).0),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_file_reads_back_what_it_wrote() {
        let mut plans = BTreeMap::new();
        plans.insert("bf16 nt 1x16x11008x4096".to_string(), Entry { kernel: "bgemm_x".into(), staged: false, splits: 4, micros: 12.5 });
        plans.insert("f32 nn 2x8x8x8".to_string(), Entry { kernel: "sgemm_y".into(), staged: true, splits: 1, micros: 3.25 });
        let entries = Entries { device: Some(("NVIDIA H200".into(), 132)), plans: plans.clone() };
        let (device, back) = parse(&render(&entries)).unwrap();
        assert_eq!(device, Some(("NVIDIA H200".to_string(), 132)));
        assert_eq!(back, plans);
    }

    #[test]
    fn malformed_cache_files_name_their_line() {
        let dev = format!("{HEADER}\ndevice\tNVIDIA H200\t132\n");
        for (text, line) in [
            (format!("{HEADER}\nk\tbgemm\tdirect\t1\t2.0\n"), "line 2"),
            (format!("{dev}k\tbgemm\tsideways\t1\t2.0\n"), "line 3"),
            (format!("{dev}k\tbgemm\tdirect\t0\t2.0\n"), "line 3"),
            (format!("{dev}k\tbgemm\tdirect\t1\tNaN\n"), "line 3"),
            (format!("{dev}k\tbgemm\tdirect\t1\n"), "line 3"),
            (format!("{HEADER}\ndevice\tX\tmany\n"), "line 2"),
            ("# some other file\n".to_string(), "line 1"),
        ] {
            let err = parse(&text).unwrap_err();
            assert!(err.starts_with(line), "{text:?}: {err}");
        }
    }

    #[test]
    fn keys_tell_apart_what_changes_a_plan_and_ignore_alpha() {
        let p = Problem::new(64, 128, 256, 1.0, 0.0).unwrap();
        let half_alpha = Problem { alpha: 0.5, ..p };
        assert_eq!(key(Dtype::Bf16, &p), key(Dtype::Bf16, &half_alpha));
        assert_ne!(key(Dtype::Bf16, &p), key(Dtype::F16, &p));
        assert_ne!(key(Dtype::Bf16, &p), key(Dtype::Bf16, &Problem { beta: 1.0, ..p }));
        assert_ne!(key(Dtype::Bf16, &p), key(Dtype::Bf16, &Problem { ldc: 256, ..p }));
        assert_ne!(key(Dtype::Bf16, &p), key(Dtype::Bf16, &Problem { k: 257, lda: 257, ..p }));
    }

    #[test]
    fn random_operands_are_neither_zero_nor_one_signed() {
        let bytes = random_bytes(Dtype::F32, 4096, 7);
        let v: Vec<f32> = bytes.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        assert!(v.iter().all(|x| (-1.0..1.0).contains(x)));
        assert!(v.iter().filter(|x| **x < 0.0).count() > 1800 && v.iter().filter(|x| **x > 0.0).count() > 1800);
        assert_eq!(random_bytes(Dtype::Bf16, 10, 7).len(), 20);
    }
}
