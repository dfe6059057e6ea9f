//! Timing with CUDA events: warm-up launches first (module load and first-touch costs stay out of
//! the numbers), then one event pair per launch and the median.

use crate::error::Result;
use crate::gpu::Gpu;

#[derive(Clone, Debug)]
pub struct Timing {
    /// Milliseconds of each timed launch, sorted.
    pub samples_ms: Vec<f64>,
}

impl Timing {
    pub fn median_ms(&self) -> f64 {
        let s = &self.samples_ms;
        let mid = s.len() / 2;
        if s.len() % 2 == 1 { s[mid] } else { (s[mid - 1] + s[mid]) / 2.0 }
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
pub fn time(gpu: &Gpu, warmup: usize, iters: usize, mut launch: impl FnMut() -> Result<()>) -> Result<Timing> {
    for _ in 0..warmup {
        launch()?;
    }
    let iters = iters.max(1);
    let mut events = Vec::with_capacity(iters);
    for _ in 0..iters {
        let (start, end) = (gpu.timing_event()?, gpu.timing_event()?);
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
