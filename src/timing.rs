//! Timing with CUDA events: warm-up launches first (module load and first-touch costs stay out of
//! the numbers), then one event pair per launch and the median. Its own module so that the
//! benchmark runner, the report and the verifier use it without importing one another.

use crate::error::Result;
use crate::gpu::{Buffer, Gpu};

#[derive(Clone, Debug)]
pub struct Timing {
    /// Milliseconds of each timed launch, sorted.
    pub samples_ms: Vec<f64>,
}

/// The median of `sorted` (ascending; NaN when empty).
pub fn median(sorted: &[f64]) -> f64 {
    let mid = sorted.len() / 2;
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[mid],
        _ => (sorted[mid - 1] + sorted[mid]) / 2.0,
    }
}

impl Timing {
    pub fn median_ms(&self) -> f64 {
        median(&self.samples_ms)
    }

    pub fn min_ms(&self) -> f64 {
        self.samples_ms[0]
    }

    pub fn max_ms(&self) -> f64 {
        self.samples_ms[self.samples_ms.len() - 1]
    }

    /// Half the distance between the quartiles, relative to the median: the run's noise.
    pub fn spread(&self) -> f64 {
        let s = &self.samples_ms;
        let q = |f: f64| s[((s.len() - 1) as f64 * f).round() as usize];
        (q(0.75) - q(0.25)) / 2.0 / self.median_ms()
    }
}

/// Runs `launch` `warmup` times untimed, then `iters` times each between two events.
pub fn time(gpu: &Gpu, warmup: usize, iters: usize, launch: impl FnMut() -> Result<()>) -> Result<Timing> {
    time_flushed(gpu, warmup, iters, None, launch)
}

/// A scratch buffer twice the size of the L2 cache: writing it before a launch evicts whatever
/// the previous launch left in L2, so every timed launch reads its operands from HBM.
pub struct L2Flush {
    buffer: Buffer<u8>,
}

impl L2Flush {
    /// Bytes written per flush on `gpu`: twice its L2 (64 MiB if the device does not say).
    pub fn bytes_for(gpu: &Gpu) -> u64 {
        if gpu.info.l2_bytes > 0 { 2 * gpu.info.l2_bytes } else { 64 << 20 }
    }

    pub fn new(gpu: &Gpu) -> Result<L2Flush> {
        let bytes = Self::bytes_for(gpu);
        gpu.require_memory(bytes)?;
        Ok(L2Flush { buffer: gpu.zeros(bytes as usize)? })
    }

    pub fn bytes(&self) -> u64 {
        self.buffer.len() as u64
    }

    /// Enqueues the write on the stream (outside any pair of timing events).
    pub fn flush(&mut self, gpu: &Gpu) -> Result<()> {
        gpu.memset_zeros(&mut self.buffer)
    }
}

/// As [`time`], writing `flush` (when given) before every launch, outside the timed events.
pub fn time_flushed(gpu: &Gpu, warmup: usize, iters: usize, mut flush: Option<&mut L2Flush>, mut launch: impl FnMut() -> Result<()>) -> Result<Timing> {
    let mut before = |gpu: &Gpu| -> Result<()> {
        match flush.as_deref_mut() {
            Some(f) => f.flush(gpu),
            None => Ok(()),
        }
    };
    for _ in 0..warmup {
        before(gpu)?;
        launch()?;
    }
    let iters = iters.max(1);
    let mut events = Vec::with_capacity(iters);
    for _ in 0..iters {
        let (start, end) = (gpu.timing_event()?, gpu.timing_event()?);
        before(gpu)?;
        start.record(gpu.stream())?;
        launch()?;
        end.record(gpu.stream())?;
        events.push((start, end));
    }
    gpu.synchronize()?;
    let mut samples_ms = events
        .iter()
        .map(|(s, e)| s.elapsed_ms(e).map(f64::from))
        .collect::<Result<Vec<f64>, _>>()?;
    samples_ms.sort_by(f64::total_cmp);
    Ok(Timing { samples_ms })
}

