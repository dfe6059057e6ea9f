//! The lesson kernels (`kernels-gpu/src/lessons.rs`) prove on the GPU the instruction semantics
//! the async rungs rely on. Skipped, loudly, where there is no GPU.

mod common;

use cudarc::driver::{LaunchConfig, PushKernelArg};
use rgemm::catalog::{Dtype, Swizzle};
use rgemm::tma;

/// A 32×32 box placed over the corner of a 64×64 matrix and before its first column: the parts
/// outside the matrix arrive as zeros, the rest exactly.
#[test]
fn tma_box_reads_zeros_outside_the_matrix() {
    let Some(gpu) = common::gpu("tma_box_reads_zeros_outside_the_matrix") else { return };
    const N: i32 = 64;
    let b = kernels_gpu::lessons::TMA_BOX as i32;
    let matrix: Vec<f32> = (0..N * N).map(|i| 1.0 + i as f32).collect();
    let src = gpu.upload(&matrix).unwrap();
    let f = gpu.entry("lesson_tma_box", 1024 + 4 * (b * b) as u32).unwrap();
    for (x, y) in [(48, 40), (0, 0), (-8, 50), (16, -3)] {
        let map = tma::encode(Dtype::F32, src.addr(&gpu), N as u32, N as u32, b as u32, b as u32, Swizzle::None).unwrap();
        let map_dev = gpu.upload(&map).unwrap();
        let out = gpu.upload(&vec![f32::NAN; (b * b) as usize]).unwrap();
        let (map_addr, out_addr) = (map_dev.addr(&gpu), out.addr(&gpu));
        let cfg = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (32, 1, 1), shared_mem_bytes: 1024 + 4 * (b * b) as u32 };
        let mut launch = gpu.stream().launch_builder(&f);
        launch.arg(&map_addr).arg(&out_addr).arg(&x).arg(&y);
        unsafe { launch.launch(cfg) }.unwrap();
        let got = gpu.download(&out).unwrap();
        for r in 0..b {
            for c in 0..b {
                let (row, col) = (y + r, x + c);
                let want = if (0..N).contains(&row) && (0..N).contains(&col) { matrix[(row * N + col) as usize] } else { 0.0 };
                assert_eq!(got[(r * b + c) as usize], want, "box at ({x}, {y}), element ({r}, {c})");
            }
        }
    }
}

/// `ldmatrix.x2`: lane `l` receives, in register `i`, the two elements at row `l / 4`, columns
/// `2·(l % 4)` and `+1` of matrix `i`, whose row `r` starts where lane `8·i + r` pointed, for
/// every address pattern of the demo.
#[test]
fn ldmatrix_x2_fragments_follow_the_documented_layout() {
    let Some(gpu) = common::gpu("ldmatrix_x2_fragments_follow_the_documented_layout") else { return };
    for pattern in rgemm::lessons::ldmatrix_patterns() {
        let regs = rgemm::lessons::ldmatrix_x2(&gpu, &pattern, 4).unwrap();
        for lane in 0..32usize {
            for (i, &reg) in regs[lane].iter().enumerate() {
                let row_start = pattern.offsets[8 * i + lane / 4];
                let col = 2 * (lane as u32 % 4);
                let want = (row_start + col) | ((row_start + col + 1) << 16);
                assert_eq!(reg, want, "{}: lane {lane}, register {i}", pattern.name);
            }
        }
    }
}
