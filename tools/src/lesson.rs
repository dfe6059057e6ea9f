//! Host side of the lesson kernels (`kernels-gpu/src/lesson_kernels.rs`) that `rgemm lesson NAME`
//! launches: the ldmatrix study and the cp.async race lessons (for compute-sanitizer racecheck).

use cudarc::driver::{LaunchConfig, PushKernelArg};
use kernels_gpu::lesson_kernels::LDMATRIX_TILE;

use crate::tool_error::ToolResult;
use rgemm::gpu::Gpu;

/// The race lessons: (command-line name, PTX entry).
pub const RACE_LESSONS: &[(&str, &str)] =
    &[("cp_async_no_barrier", "lesson_cp_async_no_barrier"), ("cp_async_with_barrier", "lesson_cp_async_with_barrier")];

/// Launches race lesson `name` once (64 threads, 1 KiB of shared memory): every thread copies a
/// chunk with cp.async and reads the other warp's chunk. Returns whether the values read were
/// right this time (a race may still give right values; racecheck is the judge).
pub fn run_race_lesson(gpu: &Gpu, name: &str) -> ToolResult<bool> {
    let Some(&(_, entry)) = RACE_LESSONS.iter().find(|(n, _)| *n == name) else {
        return Err(rgemm::Error::UnknownKernel { name: name.into(), suggestions: RACE_LESSONS.iter().map(|(n, _)| n.to_string()).collect() }.into());
    };
    let input: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let src = gpu.upload(&input)?;
    let out = gpu.upload(&vec![f32::NAN; 256])?;
    let f = gpu.entry(entry, 1024)?;
    let (s, o) = (src.addr(gpu), out.addr(gpu));
    let cfg = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (64, 1, 1), shared_mem_bytes: 1024 };
    let mut launch = gpu.stream().launch_builder(&f);
    launch.arg(&s).arg(&o);
    // SAFETY: the lesson's entry takes (src, out) device pointers, both allocated above for 64
    // threads' data.
    unsafe { launch.launch(cfg) }?;
    let got = gpu.download(&out)?;
    Ok((0..64).all(|t| (0..4).all(|e| got[4 * t + e] == input[4 * ((t + 32) % 64) + e])))
}

/// One way for the 16 lanes of an `ldmatrix.x2` to address two 8×8 matrices in a 128×16 tile of
/// 16-bit elements: lane `i` gives the row `offset(i)` (in elements).
pub struct LdmatrixPattern {
    pub name: &'static str,
    pub offsets: [u32; 32],
}

impl LdmatrixPattern {
    fn new(name: &'static str, offset: impl Fn(u32) -> u32) -> Self {
        let mut offsets = [0u32; 32];
        for (i, o) in offsets.iter_mut().enumerate().take(16) {
            *o = offset(i as u32);
        }
        LdmatrixPattern { name, offsets }
    }
}

/// The four patterns of the ldmatrix study: lane `i` takes row `i % 8` of matrix `i / 8` (the
/// documented order) or row `i / 2` of matrix `i % 2`, with rows 16 halves (32 bytes) or 64 halves
/// (128 bytes) apart.
pub fn ldmatrix_patterns() -> Vec<LdmatrixPattern> {
    vec![
        LdmatrixPattern::new("row = i % 8, matrix = i / 8, row stride 16 halves", |i| (i % 8) * 16 + (i / 8) * 8),
        LdmatrixPattern::new("row = i / 2, matrix = i % 2, row stride 16 halves", |i| (i / 2) * 16 + (i % 2) * 8),
        LdmatrixPattern::new("row = i % 8, matrix = i / 8, row stride 64 halves", |i| 4 * (i % 8) * 16 + (i / 8) * 8),
        LdmatrixPattern::new("row = i / 2, matrix = i % 2, row stride 64 halves", |i| 4 * (i / 2) * 16 + (i % 2) * 8),
    ]
}

/// Launches `lesson_ldmatrix_x2` on `blocks` blocks of 512 threads with `pattern` and returns the
/// two result registers of each lane of the first warp (`[lane][register]`).
pub fn ldmatrix_x2(gpu: &Gpu, pattern: &LdmatrixPattern, blocks: u32) -> ToolResult<Vec<[u32; 2]>> {
    let smem = 2 * LDMATRIX_TILE;
    let f = gpu.entry("lesson_ldmatrix_x2", smem)?;
    let offsets = gpu.upload(&pattern.offsets)?;
    let out = gpu.upload(&[0u32; 64])?;
    let (offsets_addr, out_addr) = (offsets.addr(gpu), out.addr(gpu));
    let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (512, 1, 1), shared_mem_bytes: smem };
    let mut launch = gpu.stream().launch_builder(&f);
    launch.arg(&offsets_addr).arg(&out_addr);
    // SAFETY: the entry's parameters are the two device buffers above, sized for `blocks` blocks
    // of 32 lanes.
    unsafe { launch.launch(cfg) }?;
    let regs = gpu.download(&out)?;
    Ok(regs.chunks(2).map(|r| [r[0], r[1]]).collect())
}
