//! Timing with CUDA events: warm-up launches first (module load and first-touch costs stay out of
//! the numbers), then one event pair per launch and the median. Its own module so that the
//! benchmark runner, the report and the verifier use it without importing one another.
//!
//! Launches that are compared with one another (a kernel and cuBLAS, or several kernels) are
//! timed in turn ([`time_interleaved`]), not one after the other: under sustained load a GPU
//! holds its power limit by lowering its clock, by how much depends on what has been running
//! and for how long, and a launch timed a few hundred milliseconds later can meet a much lower
//! clock. Timed in turn, every contender meets the same clocks, and their ratio no longer depends
//! on the order or on the moment (`book/src/variance.md` has the measurements).

use crate::tool_error::ToolResult;
use rgemm::gpu::{Buffer, Gpu};

#[derive(Clone, Debug)]
pub struct Timing {
    /// Milliseconds of each timed launch, sorted.
    pub samples_ms: Vec<f64>,
    /// The same milliseconds in the order of the rounds of [`time_interleaved`]: the i-th of each
    /// contender ran in the same round, next to one another, at the same clock. Empty where the
    /// contenders were not timed in turn ([`time_sustained`]).
    pub rounds_ms: Vec<f64>,
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
pub fn time(gpu: &Gpu, warmup: usize, iters: usize, mut launch: impl FnMut() -> ToolResult<()>) -> ToolResult<Timing> {
    let [timing] = time_in_turn(gpu, warmup, iters, None, [&mut launch])?;
    timing
}

/// The median over rounds of `baseline`'s time over `contender`'s, both timed in turn in the same
/// rounds: the contender's speed relative to the baseline at the clock of each round. Where the
/// clock changes between rounds (a GPU at its power limit switches between a few clocks), each
/// round's ratio still compares the two at one clock, while the ratio of the two medians can
/// compare one's fast rounds with the other's slow ones. `None` unless both have the same
/// number of rounds (> 0).
pub fn paired_ratio(baseline: &[f64], contender: &[f64]) -> Option<f64> {
    if baseline.is_empty() || baseline.len() != contender.len() {
        return None;
    }
    let mut ratios: Vec<f64> = baseline.iter().zip(contender).map(|(b, c)| b / c).collect();
    ratios.sort_by(f64::total_cmp);
    Some(median(&ratios))
}

/// How launches compared with one another are timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// In turn ([`time_interleaved`]): every contender meets the same clocks, so their ratio is
    /// that of their speeds at equal clocks.
    InTurn,
    /// One after another, each first launched back to back for `warm_ms` milliseconds
    /// ([`time_sustained`]): each meets the clock its own power draw settles at, as in a long
    /// run of that launch alone.
    Sustained { warm_ms: u32 },
}

impl Order {
    /// How a report names it.
    pub fn describe(self) -> String {
        match self {
            Order::InTurn => "in turn".into(),
            Order::Sustained { warm_ms } => format!("each alone after {warm_ms} ms of its own launches"),
        }
    }
}

/// Times `launches` as `order` says (see [`time_interleaved`] and [`time_sustained`]).
pub fn time_contenders(gpu: &Gpu, order: Order, warmup: usize, iters: usize, flush: Option<&mut L2Flush>, launches: &mut [Contender<'_>]) -> ToolResult<Vec<ToolResult<Timing>>> {
    match order {
        Order::InTurn => time_interleaved(gpu, warmup, iters, flush, launches),
        Order::Sustained { warm_ms } => time_sustained(gpu, warm_ms, iters, flush, launches),
    }
}

/// Times `launches` one after another, each launched back to back (after writing `flush`, when
/// given) for at least `warm_ms` milliseconds before its `iters` timed launches: under a power
/// limit each then runs at the clock its own draw settles at. Results as [`time_interleaved`].
pub fn time_sustained(gpu: &Gpu, warm_ms: u32, iters: usize, mut flush: Option<&mut L2Flush>, launches: &mut [Contender<'_>]) -> ToolResult<Vec<ToolResult<Timing>>> {
    let mut out = Vec::with_capacity(launches.len());
    for launch in launches.iter_mut() {
        let start = std::time::Instant::now();
        // Warm launches in rounds of a few, each waited for, until the time has passed.
        let mut failed = None;
        while failed.is_none() && start.elapsed().as_millis() < u128::from(warm_ms) {
            let [warm] = time_in_turn(gpu, 4, 0, flush.as_deref_mut(), [&mut **launch])?;
            failed = warm.err();
        }
        out.push(match failed {
            Some(e) => Err(e),
            None => {
                let [timing] = time_in_turn(gpu, 0, iters, flush.as_deref_mut(), [&mut **launch])?;
                // Timed alone: its rounds share no clock with the other contenders' rounds.
                timing.map(|t| Timing { rounds_ms: Vec::new(), ..t })
            }
        });
    }
    Ok(out)
}

/// One launch among several timed in turn by [`time_interleaved`].
pub type Contender<'a> = &'a mut dyn FnMut() -> ToolResult<()>;

/// Times `launches` in turn: `warmup` untimed rounds, then `iters` timed rounds, each running
/// every launch once between two events (after writing `flush`, when given, outside them), the
/// round starting with a different launch each time so that none always follows the same one.
///
/// One result per launch: a launch that fails is left out of the rounds after, and the others go
/// on; an error of the device itself (events, synchronisation) is the outer error.
pub fn time_interleaved(gpu: &Gpu, warmup: usize, iters: usize, mut flush: Option<&mut L2Flush>, launches: &mut [Contender<'_>]) -> ToolResult<Vec<ToolResult<Timing>>> {
    let n = launches.len();
    let mut failed: Vec<Option<crate::tool_error::ToolError>> = (0..n).map(|_| None).collect();
    let iters = iters.max(1);
    let mut events: Vec<Vec<_>> = (0..n).map(|_| Vec::with_capacity(iters)).collect();
    for round in 0..warmup + iters {
        for j in 0..n {
            let i = (round + j) % n;
            if failed[i].is_some() {
                continue;
            }
            if let Some(f) = flush.as_deref_mut() {
                f.flush(gpu)?;
            }
            let timed = if round >= warmup { Some((gpu.timing_event()?, gpu.timing_event()?)) } else { None };
            if let Some((start, _)) = &timed {
                start.record(gpu.stream())?;
            }
            if let Err(e) = (launches[i])() {
                failed[i] = Some(e);
                continue;
            }
            if let Some((start, end)) = timed {
                end.record(gpu.stream())?;
                events[i].push((start, end));
            }
        }
    }
    gpu.synchronize()?;
    let mut out = Vec::with_capacity(n);
    for (pairs, failure) in events.iter().zip(failed) {
        out.push(match failure {
            Some(e) => Err(e),
            None => {
                let rounds_ms = pairs.iter().map(|(s, e)| s.elapsed_ms(e).map(f64::from)).collect::<ToolResult<Vec<f64>, _>>()?;
                let mut samples_ms = rounds_ms.clone();
                samples_ms.sort_by(f64::total_cmp);
                Ok(Timing { samples_ms, rounds_ms })
            }
        });
    }
    Ok(out)
}

/// [`time_interleaved`] for a fixed number of launches: their results in the same order.
pub fn time_in_turn<const N: usize>(gpu: &Gpu, warmup: usize, iters: usize, flush: Option<&mut L2Flush>, mut launches: [Contender<'_>; N]) -> ToolResult<[ToolResult<Timing>; N]> {
    let results = time_interleaved(gpu, warmup, iters, flush, &mut launches)?;
    <[ToolResult<Timing>; N]>::try_from(results).map_err(|r| crate::tool_error::ToolError::Library(rgemm::Error::Cuda(format!("{N} launches timed, {} results", r.len()))))
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

    pub fn new(gpu: &Gpu) -> ToolResult<L2Flush> {
        let bytes = Self::bytes_for(gpu);
        gpu.require_memory(bytes)?;
        Ok(L2Flush { buffer: gpu.zeros(bytes as usize)? })
    }

    pub fn bytes(&self) -> u64 {
        self.buffer.len() as u64
    }

    /// Enqueues the write on the stream (outside any pair of timing events).
    pub fn flush(&mut self, gpu: &Gpu) -> ToolResult<()> {
        Ok(gpu.memset_zeros(&mut self.buffer)?)
    }
}

