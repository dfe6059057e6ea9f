//! The lesson kernels (`kernels-gpu/src/lesson_kernels.rs`) prove on the GPU the instruction semantics
//! the async rungs rely on. Each needs a GPU: ignored unless asked for (`--include-ignored`).

mod common;

use kernels_gpu::lesson_kernels::{CHUNK, POISON, WAIT_CHUNKS, WAIT_STRIDE};

use cudarc::driver::{LaunchConfig, PushKernelArg};
use rgemm::catalog::{Dtype, Swizzle};
use rgemm::tensor_map;

/// A 32×32 box placed over the corner of a 64×64 matrix and before its first column: the parts
/// outside the matrix arrive as zeros, the rest exactly.
#[test]
#[ignore = "needs a GPU"]
fn tma_box_reads_zeros_outside_the_matrix() {
    let gpu = common::gpu("tma_box_reads_zeros_outside_the_matrix");
    const N: i32 = 64;
    let b = kernels_gpu::lesson_kernels::TMA_BOX as i32;
    let matrix: Vec<f32> = (0..N * N).map(|i| 1.0 + i as f32).collect();
    let src = gpu.upload(&matrix).unwrap();
    let f = gpu.entry("lesson_tma_box", 1024 + 4 * (b * b) as u32).unwrap();
    for (x, y) in [(48, 40), (0, 0), (-8, 50), (16, -3)] {
        let map = tensor_map::encode_2d(Dtype::F32, src.addr(&gpu), N as u32, N as u32, b as u32, b as u32, Swizzle::None).unwrap();
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
#[ignore = "needs a GPU"]
fn ldmatrix_x2_fragments_follow_the_documented_layout() {
    let gpu = common::gpu("ldmatrix_x2_fragments_follow_the_documented_layout");
    for pattern in rgemm_tools::lesson::ldmatrix_patterns() {
        let regs = rgemm_tools::lesson::ldmatrix_x2(&gpu, &pattern, 4).unwrap();
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


/// Zero-fill: `src_bytes` < 16 copies exactly that many bytes and writes zeros over the rest of
/// the 16; ignore-src writes 16 zeros; a clear predicate copies; the word after stays poisoned.
#[test]
#[ignore = "needs a GPU"]
fn cp_async_zero_fill_writes_exactly_the_rest() {
    let gpu = common::gpu("cp_async_zero_fill_writes_exactly_the_rest");
    let src_words: Vec<u32> = vec![0x1122_3344, 0x5566_7788, 0x99aa_bbcc, 0xddee_ff01];
    let src = gpu.upload(&src_words).unwrap();
    let src_bytes_le: Vec<u8> = src_words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let f = gpu.entry("lesson_cp_async_zfill", 64).unwrap();
    for src_bytes in [0u32, 1, 4, 6, 8, 12, 13, 16] {
        let out = gpu.upload(&vec![0u32; 16]).unwrap();
        let (s, o) = (src.addr(&gpu), out.addr(&gpu));
        let cfg = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (32, 1, 1), shared_mem_bytes: 64 };
        let mut launch = gpu.stream().launch_builder(&f);
        launch.arg(&s).arg(&o).arg(&src_bytes);
        unsafe { launch.launch(cfg) }.unwrap();
        let got = gpu.download(&out).unwrap();
        let bytes: Vec<u8> = got[..4].iter().flat_map(|w| w.to_le_bytes()).collect();
        for i in 0..16 {
            let want = if (i as u32) < src_bytes { src_bytes_le[i] } else { 0 };
            assert_eq!(bytes[i], want, "src_bytes {src_bytes}: byte {i}");
        }
        assert_eq!(&got[4..8], &[0; 4], "ignore-src must write zeros");
        assert_eq!(&got[8..12], &src_words[..], "a clear ignore predicate copies");
        assert_eq!(&got[12..16], &[POISON; 4], "nothing past the 16 bytes is written");
    }
}

/// Runs `lesson_cp_async_wait_group` with `pending` on `launches` cold regions and returns how
/// often (chunks) the older group and the newer group had not landed when the thread read.
fn wait_group_misses(gpu: &rgemm::Gpu, pending: u32, launches: usize) -> (usize, usize) {
    // 128 MiB, written once; launch i reads its own stretch, far from the last-written (and
    // L2-resident) end, so every copy goes to DRAM.
    let region = (WAIT_CHUNKS * WAIT_STRIDE) as usize; // floats one launch spans
    let total = 32 << 20;
    assert!(launches * region * 2 <= total);
    let data: Vec<u32> = (0..total as u32).map(|i| i % 0x7f00_0000).collect();
    let src = gpu.upload(&data).unwrap();
    let words = (WAIT_CHUNKS * CHUNK) as usize;
    let out = gpu.upload(&vec![0u32; 32 * words]).unwrap();
    let smem = 32 * words as u32 * 4;
    let f = gpu.entry("lesson_cp_async_wait_group", smem).unwrap();
    let (mut older, mut newer) = (0, 0);
    for l in 0..launches {
        let offset = l * region;
        let (s, o) = (src.addr(gpu) + 4 * offset as u64, out.addr(gpu));
        let cfg = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (32, 1, 1), shared_mem_bytes: smem };
        let mut launch = gpu.stream().launch_builder(&f);
        launch.arg(&s).arg(&o).arg(&pending);
        unsafe { launch.launch(cfg) }.unwrap();
        let got = gpu.download(&out).unwrap();
        for t in 0..32 {
            for j in 0..WAIT_CHUNKS as usize {
                let from = offset + if j == 0 { 4 * t } else { j * WAIT_STRIDE as usize + 4 * t };
                let chunk = &got[t * words + 4 * j..t * words + 4 * j + 4];
                // A pending 16-byte copy may be seen half-landed (seen on an H100: the first word
                // still poison, the other three copied), so judge word by word.
                for w in 0..4 {
                    assert!(chunk[w] == POISON || chunk[w] == data[from + w], "pending {pending}, launch {l}, thread {t}, chunk {j}, word {w}: neither poison nor the source");
                }
                if chunk.contains(&POISON) {
                    if j == 0 { older += 1 } else { newer += 1 }
                }
            }
        }
    }
    (older, newer)
}

/// `wait_group 1` waits for every group but the newest one: the older group has always landed
/// (deterministic), while the newer one may still be in flight, and across many launches on
/// cold memory at least once it is (statistical: DRAM latency against a read issued right after
/// the wait). The same checks on `wait_group 0` (waits for all) and `wait_group 2` (waits for
/// none) fail, which shows the test can tell them apart.
#[test]
#[ignore = "needs a GPU"]
fn cp_async_wait_group_leaves_exactly_the_newest_pending() {
    let gpu = common::gpu("cp_async_wait_group_leaves_exactly_the_newest_pending");
    let (older, newer) = wait_group_misses(&gpu, 1, 100);
    assert_eq!(older, 0, "wait_group 1 returned before the older group landed");
    assert!(newer > 0, "wait_group 1: the newer group always landed in 100 launches (did it wait for all?)");
    let (older_all, newer_all) = wait_group_misses(&gpu, 0, 100);
    assert_eq!((older_all, newer_all), (0, 0), "wait_group 0 waits for every group");
    let (older_none, _) = wait_group_misses(&gpu, 2, 100);
    assert!(older_none > 0, "with nothing waited for, the older group should be seen in flight");
    common::say(&format!("wait_group 1: newer group in flight in {newer} of {} chunk reads; wait_group 2: older group in flight in {older_none} of 3200", 100 * 32 * (WAIT_CHUNKS - 1)));
}
