//! Host side of the race lessons (`kernels-gpu/src/lessons.rs`), for `rgemm lesson NAME` under
//! compute-sanitizer's racecheck: one tiny launch each.

use cudarc::driver::{LaunchConfig, PushKernelArg};

use crate::error::{Error, Result};
use crate::gpu::Gpu;

/// The race lessons: (command-line name, PTX entry).
pub const RACE_LESSONS: &[(&str, &str)] =
    &[("cp_async_no_barrier", "lesson_cp_async_no_barrier"), ("cp_async_with_barrier", "lesson_cp_async_with_barrier")];

/// Launches race lesson `name` once (64 threads, 1 KiB of shared memory): every thread copies a
/// chunk with cp.async and reads the other warp's chunk. Returns whether the values read were
/// right this time (a race may still give right values; racecheck is the judge).
pub fn run_race_lesson(gpu: &Gpu, name: &str) -> Result<bool> {
    let Some(&(_, entry)) = RACE_LESSONS.iter().find(|(n, _)| *n == name) else {
        return Err(Error::UnknownKernel { name: name.into(), suggestions: RACE_LESSONS.iter().map(|(n, _)| n.to_string()).collect() });
    };
    let input: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let src = gpu.upload(&input)?;
    let out = gpu.upload(&vec![f32::NAN; 256])?;
    let f = gpu.entry(entry, 1024)?;
    let (s, o) = (src.addr(gpu), out.addr(gpu));
    let cfg = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (64, 1, 1), shared_mem_bytes: 1024 };
    let mut launch = gpu.stream().launch_builder(&f);
    launch.arg(&s).arg(&o);
    unsafe { launch.launch(cfg) }?;
    let got = gpu.download(&out)?;
    Ok((0..64).all(|t| (0..4).all(|e| got[4 * t + e] == input[4 * ((t + 32) % 64) + e])))
}
