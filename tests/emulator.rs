//! Every catalog kernel on the CPU emulator against the f64 reference, and the emulator's own
//! checks: each deliberately broken kernel (kernels-gpu's `broken` module) must be caught.

use kernels_gpu::device::emulator::{self, EmulatedLaunch, Region};
use kernels_gpu::view::TensorMap;
use proptest::prelude::*;
use rgemm::catalog::{self, Dtype, KernelSpec, Swizzle};
use rgemm::Problem;
use rgemm_tools::emulate;

/// Random cases per kernel; each runs the kernel on one random problem.
const CASES_PER_KERNEL: u32 = 8;

fn problem(m: u32, n: u32, k: u32, alpha: f32, beta: f32) -> Problem {
    Problem::new(m as u64, n as u64, k as u64, alpha, beta).unwrap()
}

/// `problem` with N and K rounded up to what `kernel` accepts: kernels that load through the copy
/// engine (TMA) need 16-byte-aligned rows, every other kernel takes any size.
fn problem_for(kernel: catalog::Kernel, m: u32, n: u32, k: u32, alpha: f32, beta: f32) -> Problem {
    let align = if kernel.spec.tensor_maps.is_some() { 16 / kernel.spec.dtype.bytes() } else { 1 };
    // In the kernel's layout; a TMA kernel needs every stored row a multiple of 16 bytes.
    let (m, n, k) = if kernel.spec.tensor_maps.is_some() { (m.next_multiple_of(align), n.next_multiple_of(align), k.next_multiple_of(align)) } else { (m, n, k) };
    let layout = kernel.spec.layout;
    Problem::general(m as u64, n as u64, k as u64, alpha, beta, layout, Default::default(), rgemm::Batch::packed(1)).unwrap()
}

/// Sizes up to 2·max(BM, BN) + 1 in every dimension for `kernel`: partial and full tiles, up to
/// three block rows and columns (more for a persistent kernel's few blocks), and K over several
/// tiles and pipeline stages.
fn shapes(kernel: catalog::Kernel) -> impl Strategy<Value = (u32, u32, u32)> {
    let t = kernel.spec.tile;
    let most = 2 * t.bm.max(t.bn) + 1;
    (1..=most, 1..=most, 1..=most)
}

/// Finding 6: each kernel on its own sizes (before: up to 70 for all, one partial block for most
/// kernels), beta = 0 (C poisoned) in a quarter of the cases.
#[test]
fn every_catalog_kernel_matches_the_f64_reference() {
    let mut failures = Vec::new();
    for kernel in catalog::all() {
        let config = proptest::test_runner::Config { cases: CASES_PER_KERNEL, failure_persistence: None, ..Default::default() };
        let mut runner = proptest::test_runner::TestRunner::new(config);
        let scalars = (prop_oneof![Just(1.0f32), -2.0f32..2.0], prop_oneof![1 => Just(0.0f32), 3 => -1.0f32..1.0]);
        let result = runner.run(&(shapes(kernel), scalars, any::<u64>()), |((m, n, k), (alpha, beta), seed)| {
            let p = problem_for(kernel, m, n, k, alpha, beta);
            let verdict = emulate::verify(kernel, &p, seed).map_err(|e| TestCaseError::fail(format!("{p}: {e}")))?;
            prop_assert!(verdict.passed(), "{p}: {verdict}");
            Ok(())
        });
        if let Err(e) = result {
            failures.push(format!("{}: {e}", kernel.name()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_emulator_proptest_reaches_several_blocks_of_every_kernel() {
    // The largest size drawn covers at least three block rows and columns of every kernel.
    for kernel in catalog::all() {
        let t = kernel.spec.tile;
        let most = 2 * t.bm.max(t.bn) + 1;
        assert!(most.div_ceil(t.bm) >= 3 && most.div_ceil(t.bn) >= 3, "{}", kernel.name());
    }
}

/// Finding 1 on the emulator: at K = 2²⁰ a correct fp32 kernel failed the old 1e-5 tolerance
/// (`rgemm run --emulate --kernel sgemm_01_naive_32x32x1 --m 8 --n 8 --k 1000000`); it passes its
/// error bound, as do a tiled fp32 kernel and a tensor-core kernel at long K.
#[test]
fn correct_kernels_pass_at_long_k() {
    for (name, m, n, k, beta) in [
        ("sgemm_01_naive_32x32x1", 8, 8, 1u32 << 20, 0.0),
        ("sgemm_03_smem_tiling_16x16x16", 5, 3, 1 << 18, 0.5),
        ("bgemm_12_mma_sync_128x128x32_w64x32_s4", 3, 8, 1 << 16, -1.0),
    ] {
        let kernel = catalog::find(name).unwrap();
        let p = problem(m, n, k, 1.0, beta);
        let verdict = emulate::verify(kernel, &p, 3).unwrap();
        assert!(verdict.passed(), "{name} on {p}: {verdict}");
        assert!(verdict.rel_error() > 1e-8, "rounding errors were made and judged: {verdict}");
    }
}

#[test]
fn every_catalog_kernel_passes_on_exact_and_ragged_tiles() {
    for kernel in catalog::all() {
        let t = kernel.spec.tile;
        for (m, n, k) in [(1, 1, 1), (t.bm, t.bn, t.bk), (t.bm + 1, 2 * t.bn - 1, 3 * t.bk + 1)] {
            let p = problem_for(kernel, m, n, k, 1.5, 0.5);
            let verdict = emulate::verify(kernel, &p, 7).unwrap_or_else(|e| panic!("{}: {p}: {e}", kernel.name()));
            assert!(verdict.passed(), "{}: {p}: {verdict}", kernel.name());
        }
    }
}

/// The stream-K kernels where they cut the last round's tiles into slices of K (on the emulator's
/// `EMULATED_SMS` blocks: one tile, four tiles, a batch of four one-tile products; beta ≠ 0 once;
/// M and N multiples of 8, so that every layout takes them),
/// against the f64 reference: the partial sums of every slice are added once, in K order.
#[test]
fn stream_k_kernels_pass_where_they_cut_the_last_round() {
    use rgemm_spec::stream_k::StreamKSchedule;
    let kernels: Vec<catalog::Kernel> = catalog::all().filter(|k| k.spec.stream_k.is_some()).collect();
    assert!(!kernels.is_empty(), "the catalog has stream-K kernels");
    for kernel in kernels {
        let t = kernel.spec.tile;
        for (m, n, k, batch, beta) in [(104, 200, 768, 1, 0.0), (136, 264, 832, 1, 0.5), (64, 256, 768, 4, 0.0)] {
            let p = Problem::general(m, n, k, 1.0, beta, kernel.spec.layout, Default::default(), rgemm::Batch::packed(batch)).unwrap();
            let tiles = (m.div_ceil(t.bm as u64) * n.div_ceil(t.bn as u64) * batch) as u32;
            let k_tiles = (k as u32).div_ceil(t.bk);
            let plan = StreamKSchedule::new(tiles, k_tiles, emulate::EMULATED_SMS);
            assert_ne!(plan, StreamKSchedule::whole_tiles(tiles, k_tiles, emulate::EMULATED_SMS), "{p}: the last round is cut");
            let verdict = emulate::verify(kernel, &p, 11).unwrap_or_else(|e| panic!("{}: {p}: {e}", kernel.name()));
            assert!(verdict.passed(), "{}: {p}: {verdict}", kernel.name());
        }
    }
}

/// The dot-product kernels on long K, where each thread reads several chunks: rows that start on
/// 16 bytes (read by vectors along K, a single column of B in `nn` too, or across a window 16
/// wide where K runs down the columns), rows that do not (read element by element), partial
/// chunks at K's end and partial windows; against the f64 reference.
#[test]
fn the_dot_kernels_read_vectors_and_elements_over_long_k() {
    use rgemm::{Batch, LeadingDims};
    let kernels: Vec<catalog::Kernel> = catalog::all().filter(|k| k.spec.rung.kind == rgemm_spec::KernelKind::Dot).collect();
    assert!(!kernels.is_empty(), "the catalog has dot-product kernels");
    for kernel in kernels {
        let (mt, nt) = (kernel.spec.tile.bm as u64, kernel.spec.tile.bn as u64);
        let layout = kernel.spec.layout;
        // Two chunks per thread and more: 2·256 chunks of 8 (16-bit) or 4 (f32) elements, then
        // some of a third pass and a ragged end.
        let k_aligned = 2 * 256 * 8 + 24;
        // `round`: every stored row padded to a multiple of 16 bytes (and 8 elements more), else
        // `pad` elements more than its length.
        for (m, n, k, pad, round) in [
            (mt + 1, nt, k_aligned, 0, false),
            (mt, 1, k_aligned, 0, false),
            (1, nt + 3, k_aligned + 5, 0, false),
            (mt, nt, k_aligned, 0, true),
            (2 * mt + 3, 2 * nt + 5, k_aligned + 5, 0, true),
            (2 * mt, 2, k_aligned + 8, 3, false),
        ] {
            let ld = |row: u64| if round { row.next_multiple_of(8) + 8 } else { row + pad };
            // Stored row lengths: A is M×K (K×M when transposed), B K×N (N×K).
            let (a_row, b_row) = (if layout.a.is_t() { m } else { k }, if layout.b.is_t() { k } else { n });
            let ld = LeadingDims { lda: Some(ld(a_row)), ldb: Some(ld(b_row)), ldc: None };
            let p = Problem::general(m, n, k, 1.0, 0.0, layout, ld, Batch::packed(1)).unwrap();
            let verdict = emulate::verify(kernel, &p, 5).unwrap_or_else(|e| panic!("{}: {p}: {e}", kernel.name()));
            assert!(verdict.passed(), "{}: {p}: {verdict}", kernel.name());
        }
    }
}

/// The spec and entry of the broken kernel `name`.
fn fixture(name: &str) -> (&'static KernelSpec, kernels_gpu::EmulatedEntry) {
    let broken = kernels_gpu::broken::ENTRIES.iter().zip(kernels_gpu::broken::EMULATED);
    broken.clone().find(|(s, _)| s.name == name).map(|(s, e)| (s, *e)).unwrap_or_else(|| panic!("no fixture {name}"))
}

/// The fault the emulator reports for the broken kernel `name` on `p`.
fn fault_of(name: &str, p: &Problem) -> String {
    let (spec, entry) = fixture(name);
    // SAFETY: the fixtures' specs and entries come from one `entries!` invocation.
    match unsafe { emulate::verify_entry(spec, entry, p, 1) } {
        Err(rgemm_tools::ToolError::Fault(fault)) => {
            assert!(fault.starts_with(name), "the report names the kernel first: {fault}");
            assert!(fault.contains("block (") && fault.contains("thread "), "the report names block and thread: {fault}");
            fault
        }
        other => panic!("{name} on {p}: expected a fault, got {other:?}"),
    }
}

#[test]
fn a_missing_barrier_before_reading_the_tiles_is_a_race() {
    let fault = fault_of("broken_missing_barrier_before_compute", &problem(20, 20, 8, 1.0, 0.0));
    assert!(fault.contains("shared-memory race") && fault.contains("missing sync_threads"), "{fault}");
}

#[test]
fn a_missing_barrier_before_overwriting_the_tiles_is_a_race() {
    // One tile of K is not enough to see it: the second tile's stores overwrite the first's.
    let fault = fault_of("broken_missing_barrier_after_compute", &problem(16, 16, 40, 1.0, 0.0));
    assert!(fault.contains("shared-memory race"), "{fault}");
}

#[test]
fn an_off_by_one_tail_reads_out_of_bounds() {
    let fault = fault_of("broken_off_by_one_tail", &problem(17, 9, 5, 1.0, 0.0));
    assert!(fault.contains("out-of-bounds global read") && fault.contains("past the end of"), "{fault}");
    assert!(fault.contains("broken.rs:"), "the report names the kernel's line: {fault}");
}

#[test]
fn a_thread_that_exits_before_a_barrier_is_caught() {
    let fault = fault_of("broken_early_exit_before_barrier", &problem(20, 20, 20, 1.0, 0.0));
    assert!(fault.contains("barrier not reached by every thread"), "{fault}");
}

#[test]
fn a_barrier_in_a_divergent_branch_is_caught() {
    let fault = fault_of("broken_divergent_barrier", &problem(20, 20, 20, 1.0, 0.0));
    assert!(fault.contains("barrier divergence"), "{fault}");
}

/// Finding 2: the matrices were 4096 bytes apart, so a read a tile past A landed in B and went
/// unreported (here the kernel even passed: it ignores what it prefetched); the gaps are now
/// larger than a tile.
#[test]
fn a_read_a_whole_tile_past_a_is_caught() {
    // One block row prefetching the last element of rows 16..31 of a 16×2000 A: 8 KiB to 125 KiB
    // past A's end, all inside the old layout's B (2000×64 floats, 4096 bytes after A).
    let fault = fault_of("broken_prefetch_past_a", &problem(16, 64, 2000, 1.0, 0.0));
    assert!(fault.contains("out-of-bounds global read") && fault.contains("past the end of A"), "{fault}");
    let fault = fault_of("broken_prefetch_past_a", &problem(40, 64, 1100, 1.0, 0.5));
    assert!(fault.contains("past the end of A"), "{fault}");
}

#[test]
fn the_gap_between_matrices_exceeds_the_largest_tile() {
    for kernel in catalog::all() {
        let t = kernel.spec.tile;
        for (m, n, k) in [(1, 1, 1), (100, 3000, 7), (5, 9, 4000)] {
            let p = problem(m, n, k, 1.0, 0.0);
            let gap = emulate::gap_bytes(kernel.spec, &p);
            let widest_row = (k as u128 * kernel.spec.dtype.bytes() as u128).max(4 * n as u128);
            let tile_rows = t.bm.max(t.bn).max(t.bk) as u128;
            assert!(gap > tile_rows * widest_row && gap >= 64 << 10, "{}: {gap}", kernel.name());
        }
    }
}

/// Finding 6: every fault class the README lists has a fixture that shows it is caught.
#[test]
fn a_store_to_an_input_is_caught() {
    let fault = fault_of("broken_store_to_a", &problem(20, 9, 7, 1.0, 0.0));
    assert!(fault.contains("write to the read-only input A"), "{fault}");
}

#[test]
fn a_store_past_the_access_checks_is_caught_by_comparing_the_inputs() {
    // A plain `*ptr = v` into B is not seen by the access checks; B compared after the launch is.
    let (spec, entry) = fixture("broken_raw_store_to_b");
    // SAFETY: as in `fault_of`; the raw store stays inside B (row 0, a column of C that B has
    // too), and with one block (M, N ≤ 16) no two host threads store to the same place.
    let verdict = unsafe { emulate::verify_entry(spec, entry, &problem(16, 9, 7, 1.0, 0.0), 1) }.unwrap();
    assert!(!verdict.passed() && verdict.input_writes > 0, "{verdict}");
}

#[test]
fn a_misaligned_vector_load_is_caught() {
    let fault = fault_of("broken_misaligned_vector_load", &problem(20, 9, 8, 1.0, 0.0));
    assert!(fault.contains("misaligned") && fault.contains("16-byte alignment"), "{fault}");
}

#[test]
fn a_shared_memory_overrun_is_caught() {
    let fault = fault_of("broken_shared_overrun", &problem(20, 20, 20, 1.0, 0.0));
    assert!(fault.contains("out-of-bounds shared write") && fault.contains("2048 bytes of dynamic shared memory"), "{fault}");
}

#[test]
fn a_tma_box_misaligned_for_its_swizzle_is_caught() {
    // A 128-byte swizzle repeats every 1024 bytes, so a swizzled box must start on a 1024-byte
    // boundary: 128 bytes past one is refused; on the boundary the same copy is fine.
    let b = kernels_gpu::lesson_kernels::TMA_BOX;
    let matrix: Vec<f32> = (0..64 * 64).map(|i| i as f32).collect();
    let map = emulator::tensor_map(matrix.as_ptr() as usize, 4, 64, 64, 8, 32, Swizzle::B128).unwrap();
    let regions = [
        Region { name: "matrix", start: matrix.as_ptr() as usize, len: 4 * matrix.len(), writable: false },
        Region { name: "map", start: &map as *const TensorMap as usize, len: size_of::<TensorMap>(), writable: false },
    ];
    let map_addr = &map as *const TensorMap as usize;
    let copy = |offset: u32| {
        let launch = EmulatedLaunch { kernel: "tma_swizzled", grid: (1, 1, 1), threads: 32, smem_bytes: 4096 + 4 * b * b, regions: &regions };
        // SAFETY: the map describes `matrix`, a region of the launch; the emulator checks the rest.
        emulator::launch(&launch, &|| unsafe {
            use emulator::twins::*;
            let base = dynamic_shared::<u8>();
            let bar = shared_address(base);
            if thread_idx() == 0 {
                mbarrier_init(bar, 1);
                mbarrier_arrive_expect_tx(bar, 8 * 32 * 4);
                tma_load_2d(shared_address(base.wrapping_add(offset as usize)), map_addr as *const TensorMap, 0, 0, bar);
            }
            sync_threads();
            mbarrier_wait(bar, 0);
        })
    };
    copy(1024).unwrap();
    let fault = copy(1024 + 128).unwrap_err().to_string();
    assert!(fault.contains("tma_load_2d") && fault.contains("must be 1024-byte aligned"), "{fault}");
}

#[test]
fn reading_cp_async_tiles_without_waiting_gives_a_wrong_result() {
    // Not a fault the emulator can name (the copies are legal, only early), but the copies land
    // at the wait, so the kernel reads uninitialised (NaN) shared memory and fails the check.
    let (spec, entry) = kernels_gpu::broken::ENTRIES.iter().zip(kernels_gpu::broken::EMULATED).find(|(s, _)| s.name == "broken_cp_async_without_wait").unwrap();
    // SAFETY: as in `fault_of`.
    let verdict = unsafe { emulate::verify_entry(spec, *entry, &problem(20, 20, 20, 1.0, 0.0), 1) }.unwrap();
    assert!(!verdict.passed() && verdict.rel_error().is_nan(), "{verdict}");
}

#[test]
fn broken_kernels_pass_where_their_bug_cannot_show() {
    // The fixtures are correct kernels but for one line: on a problem that never exercises that
    // line they pass, so the tests above fail for the bug and not for something else.
    let (spec, entry) = kernels_gpu::broken::ENTRIES.iter().zip(kernels_gpu::broken::EMULATED).find(|(s, _)| s.name == "broken_missing_barrier_after_compute").unwrap();
    // SAFETY: as in `fault_of`.
    let verdict = unsafe { emulate::verify_entry(spec, *entry, &problem(16, 16, 16, 1.0, 0.0), 1) }.unwrap();
    assert!(verdict.passed(), "{verdict}");
}

#[test]
fn an_emulated_run_computes_c() {
    // C = 2·A·B + 1·C on a 2×2 example worked by hand.
    let kernel = catalog::all().next().unwrap();
    let p = problem(2, 2, 2, 2.0, 1.0);
    let (a, b) = ([1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]);
    let mut c = [1.0, 1.0, 1.0, 1.0];
    emulate::run(kernel, &p, &a, &b, &mut c).unwrap();
    assert_eq!(c, [39.0, 45.0, 87.0, 101.0]);
}

/// Runs `body` as a one-block launch of `threads` threads with `smem` bytes of shared memory over
/// a 64×64 matrix (values 1, 2, ...) and its tensor map, with `TMA_BOX²` floats of output.
fn tma_launch(smem: u32, body: impl Fn(*const TensorMap, *mut f32) + Sync) -> (Vec<f32>, Vec<f32>, Result<(), emulator::Fault>) {
    const N: u32 = 64;
    let b = kernels_gpu::lesson_kernels::TMA_BOX;
    let matrix: Vec<f32> = (0..N * N).map(|i| 1.0 + i as f32).collect();
    let map = emulator::tensor_map(matrix.as_ptr() as usize, 4, N, N, b, b, Swizzle::None).unwrap();
    let mut out = vec![f32::NAN; (b * b) as usize];
    let regions = [
        Region { name: "matrix", start: matrix.as_ptr() as usize, len: 4 * matrix.len(), writable: false },
        Region { name: "map", start: &map as *const TensorMap as usize, len: size_of::<TensorMap>(), writable: false },
        Region { name: "out", start: out.as_mut_ptr() as usize, len: 4 * out.len(), writable: true },
    ];
    let launch = EmulatedLaunch { kernel: "tma", grid: (1, 1, 1), threads: 32, smem_bytes: smem, regions: &regions };
    let (map_addr, out_addr) = (&map as *const TensorMap as usize, out.as_mut_ptr() as usize);
    let result = emulator::launch(&launch, &|| body(map_addr as *const TensorMap, out_addr as *mut f32));
    (matrix, out, result)
}

#[test]
fn tma_boxes_read_zeros_outside_the_matrix() {
    // The GPU lesson (tests/lessons.rs), on the emulator: same kernel body, same expectations.
    let b = kernels_gpu::lesson_kernels::TMA_BOX as i32;
    for (x, y) in [(48, 40), (0, 0), (-8, 50), (16, -3)] {
        let (matrix, got, result) = tma_launch(1024 + 4 * (b * b) as u32, |map, out| unsafe { kernels_gpu::lesson_kernels::tma_box(map, out, x, y) });
        result.unwrap();
        for r in 0..b {
            for c in 0..b {
                let (row, col) = (y + r, x + c);
                let want = if (0..64).contains(&row) && (0..64).contains(&col) { matrix[(row * 64 + col) as usize] } else { 0.0 };
                assert_eq!(got[(r * b + c) as usize], want, "box at ({x}, {y}), element ({r}, {c})");
            }
        }
    }
}

/// A four-dimensional map (panels of 32 columns side by side in one load) is exact only where
/// the columns are whole panels: the emulator refuses one of 100 columns, as the host then
/// encodes a three-dimensional map instead.
#[test]
fn a_panel_map_of_columns_that_are_not_whole_panels_is_refused() {
    use kernels_gpu::spec::BoxSpan;
    let matrix = vec![0.0f32; 64 * 100];
    let base = matrix.as_ptr() as usize;
    let map = |cols: u32| emulator::tensor_map_spanning(base, 4, (64, cols, 100), (1, 0), (32, 32, BoxSpan::Panels(3)), Swizzle::B128);
    assert!(map(96).is_ok());
    match map(100) {
        Ok(_) => panic!("a map of 100 columns in panels of 32 was encoded"),
        Err(refused) => assert!(refused.contains("whole panels"), "{refused}"),
    }
}

#[test]
fn an_mbarrier_waiting_for_bytes_that_never_come_is_a_deadlock() {
    let b = kernels_gpu::lesson_kernels::TMA_BOX;
    let (_, _, result) = tma_launch(1024 + 4 * b * b, |map, _| unsafe { kernels_gpu::broken::tma_box_expecting_too_many_bytes(map) });
    let fault = result.unwrap_err().to_string();
    assert!(fault.contains("deadlock") && fault.contains("mbarrier"), "{fault}");
}

#[test]
fn a_tma_box_that_overruns_shared_memory_is_caught() {
    let (_, _, result) = tma_launch(2048, |map, out| unsafe { kernels_gpu::lesson_kernels::tma_box(map, out, 0, 0) });
    let fault = result.unwrap_err().to_string();
    assert!(fault.contains("tma_load_2d") && fault.contains("inside the 2048 bytes"), "{fault}");
}

/// What the block of [`tma_store_launch`] does wrong, if anything.
#[derive(Clone, Copy, PartialEq)]
enum StoreMistake {
    None,
    NoBarrier,
    NoWait,
    RewriteBeforeWait,
}

/// A 16×8 box of f32 stored by the copy engine at (column `x`, row `y`) of a 20×20 matrix (all
/// -1): 64 threads write it to shared memory (element e = 1000 + e), meet at named barrier 1, and
/// thread 0 stores it, commits and waits for the read.
fn tma_store_launch(x: i32, y: i32, mistake: StoreMistake) -> (Vec<f32>, Result<(), emulator::Fault>) {
    use kernels_gpu::device::*;
    const N: u32 = 20;
    let matrix = vec![-1.0f32; (N * N) as usize];
    let map = emulator::tensor_map(matrix.as_ptr() as usize, 4, N, N, 16, 8, Swizzle::None).unwrap();
    let regions = [
        Region { name: "matrix", start: matrix.as_ptr() as usize, len: 4 * matrix.len(), writable: true },
        Region { name: "map", start: &map as *const TensorMap as usize, len: size_of::<TensorMap>(), writable: false },
    ];
    let launch = EmulatedLaunch { kernel: "tma_store", grid: (1, 1, 1), threads: 64, smem_bytes: 1024, regions: &regions };
    let map_addr = &map as *const TensorMap as usize;
    let result = emulator::launch(&launch, &|| unsafe {
        let smem = dynamic_shared::<f32>();
        let t = thread_idx() as usize;
        st_shared_v2(smem.add(2 * t), [1000.0 + 2.0 * t as f32, 1001.0 + 2.0 * t as f32]);
        fence_proxy_async_shared();
        if mistake != StoreMistake::NoBarrier {
            named_barrier_sync::<64>(1);
        }
        if t == 0 {
            tma_store_2d(map_addr as *const TensorMap, x, y, shared_address(smem));
            bulk_commit_group();
            if mistake == StoreMistake::RewriteBeforeWait {
                st_shared_v2(smem, [0.0, 0.0]);
            }
            if mistake != StoreMistake::NoWait {
                bulk_wait_group_read::<0>();
            }
        }
    });
    (matrix, result)
}

#[test]
fn tma_stores_write_the_box_and_drop_what_lies_outside() {
    for (x, y) in [(0, 0), (12, 4), (14, 10), (-3, -5)] {
        let (got, result) = tma_store_launch(x, y, StoreMistake::None);
        result.unwrap();
        for row in 0..20 {
            for col in 0..20 {
                let (r, c) = (row - y, col - x);
                let want = if (0..16).contains(&r) && (0..8).contains(&c) { 1000.0 + (r * 8 + c) as f32 } else { -1.0 };
                assert_eq!(got[(row * 20 + col) as usize], want, "box at ({x}, {y}), element ({row}, {col})");
            }
        }
    }
}

#[test]
fn tma_store_misuse_is_caught() {
    let fault = |m| tma_store_launch(0, 0, m).1.unwrap_err().to_string();
    let f = fault(StoreMistake::NoBarrier);
    assert!(f.contains("shared-memory race"), "{f}");
    let f = fault(StoreMistake::NoWait);
    assert!(f.contains("TMA stores still reading"), "{f}");
    let f = fault(StoreMistake::RewriteBeforeWait);
    assert!(f.contains("still reads"), "{f}");
}

#[test]
fn swizzles_xor_the_chunk_with_the_row() {
    // 128-byte swizzle: 16-byte chunk c of 128-byte row r lands in chunk c ^ (r % 8).
    assert_eq!(emulator::swizzled(0x080, 128), 0x090);
    assert_eq!(emulator::swizzled(3 * 128 + 5 * 16 + 4, 128), 3 * 128 + (5 ^ 3) * 16 + 4);
    assert_eq!(emulator::swizzled(8 * 128 + 16, 128), 8 * 128 + 16, "the pattern repeats every 1024 bytes");
    // 64-byte swizzle: two bits of chunk, two of row; 32-byte: one each.
    assert_eq!(emulator::swizzled(3 * 128 + 16, 64), 3 * 128 + (1 ^ 3) * 16);
    assert_eq!(emulator::swizzled(128 + 16, 32), 128);
    assert_eq!(emulator::swizzled(0x1234, 0), 0x1234);
}

/// One block of 64 threads running `body`, no memory.
fn bare_launch(body: impl Fn() + Sync) -> Result<(), emulator::Fault> {
    let launch = EmulatedLaunch { kernel: "bare", grid: (1, 1, 1), threads: 64, smem_bytes: 0, regions: &[] };
    emulator::launch(&launch, &body)
}

#[test]
fn warp_collectives_exchange_across_the_32_lanes() {
    // A rotate-by-one shuffle: each lane gets its neighbour's value, within its own warp.
    let got: Vec<std::sync::atomic::AtomicU32> = (0..64).map(|_| Default::default()).collect();
    bare_launch(|| {
        let t = emulator::twins::thread_idx();
        let v = emulator::warp::collective(t * 10, |ins: &[u32]| (0..32).map(|l| ins[(l + 1) % 32]).collect());
        got[t as usize].store(v, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    let got: Vec<u32> = got.iter().map(|v| v.load(std::sync::atomic::Ordering::Relaxed)).collect();
    let want: Vec<u32> = (0..64).map(|t| (t / 32 * 32 + (t % 32 + 1) % 32) * 10).collect();
    assert_eq!(got, want);
}

#[test]
fn a_warp_collective_some_lanes_skip_is_caught() {
    let fault = bare_launch(|| {
        if emulator::twins::lane_idx() < 16 {
            emulator::warp::collective(0u32, |ins: &[u32]| ins.to_vec());
        }
    })
    .unwrap_err()
    .to_string();
    assert!(fault.contains("warp collective not reached by every thread") && fault.contains("has exited"), "{fault}");
}

/// A 16×16 tile of A and of B (bf16, row-major) through the tensor-core path of rung 12:
/// `cp.async` into shared memory (zero-filling B's columns from `valid_cols` on), `ldmatrix.x4`
/// for the A fragment, `ldmatrix.x4.trans` for two B fragments, two `mma.sync`; returns the
/// 16×16 product as each lane holds it.
fn tensor_core_tile(a: &[u16], b: &[u16], valid_cols: u32) -> Result<Vec<f32>, emulator::Fault> {
    use emulator::twins::*;
    use std::sync::Mutex;
    let out = Mutex::new(vec![f32::NAN; 256]);
    let regions = [
        Region { name: "A", start: a.as_ptr() as usize, len: 512, writable: false },
        Region { name: "B", start: b.as_ptr() as usize, len: 512, writable: false },
    ];
    let launch = EmulatedLaunch { kernel: "tensor_core_tile", grid: (1, 1, 1), threads: 32, smem_bytes: 1024, regions: &regions };
    let (pa, pb) = (a.as_ptr() as usize, b.as_ptr() as usize);
    emulator::launch(&launch, &|| unsafe {
        let smem = shared_address(dynamic_shared::<u8>());
        let lane = lane_idx();
        // 32 chunks of 16 bytes per tile: one chunk of A and one of B per lane.
        let (row, half) = (lane / 2, lane % 2);
        let chunk = row * 32 + half * 16;
        cp_async_cg_16(smem + chunk, (pa + chunk as usize) as *const u8);
        let valid = (valid_cols.saturating_sub(half * 8)).min(8) * 2;
        cp_async_cg_16_zfill(smem + 512 + chunk, (pb + chunk as usize) as *const u8, valid);
        cp_async_commit_group();
        cp_async_wait_group::<0>();
        sync_threads();
        let (r16, c8) = (lane % 16, lane / 16 * 8);
        let af = ldmatrix_x4(smem + r16 * 32 + c8 * 2);
        let bf = ldmatrix_x4_trans(smem + 512 + r16 * 32 + c8 * 2);
        let (mut d0, mut d1) = ([0.0f32; 4], [0.0f32; 4]);
        mma_m16n8k16_bf16(&mut d0, af, [bf[0], bf[1]]);
        mma_m16n8k16_bf16(&mut d1, af, [bf[2], bf[3]]);
        let (g, t2) = ((lane / 4) as usize, (lane % 4 * 2) as usize);
        let mut out = out.lock().unwrap();
        for (n0, d) in [(0, d0), (8, d1)] {
            out[g * 16 + n0 + t2] = d[0];
            out[g * 16 + n0 + t2 + 1] = d[1];
            out[(g + 8) * 16 + n0 + t2] = d[2];
            out[(g + 8) * 16 + n0 + t2 + 1] = d[3];
        }
    })?;
    Ok(out.into_inner().unwrap())
}

#[test]
fn ldmatrix_and_mma_sync_compute_a_tile_product_with_cp_async_zero_fill() {
    // Small integers: exact in bf16, and every sum exact in f32.
    let bf16 = |v: f32| (v.to_bits() >> 16) as u16;
    let a: Vec<u16> = (0..256).map(|i| bf16(((i * 7) % 11) as f32 - 5.0)).collect();
    let b: Vec<u16> = (0..256).map(|i| bf16(((i * 5) % 9) as f32 - 4.0)).collect();
    for valid_cols in [16, 11, 0] {
        let got = tensor_core_tile(&a, &b, valid_cols).unwrap();
        for r in 0..16 {
            for c in 0..16 {
                let want: f32 = if c < valid_cols as usize {
                    (0..16).map(|k| emulator::half_to_f32(Dtype::Bf16, a[r * 16 + k]) * emulator::half_to_f32(Dtype::Bf16, b[k * 16 + c])).sum()
                } else {
                    0.0
                };
                assert_eq!(got[r * 16 + c], want, "element ({r}, {c}) with {valid_cols} valid columns of B");
            }
        }
    }
}

#[test]
fn reading_cp_async_data_before_the_barrier_is_a_race() {
    // Thread 1 reads the chunk thread 0 copied, after its own wait but with no barrier.
    let src = [1.0f32; 4];
    let regions = [Region { name: "src", start: src.as_ptr() as usize, len: 16, writable: false }];
    let launch = EmulatedLaunch { kernel: "cp_async_race", grid: (1, 1, 1), threads: 32, smem_bytes: 64, regions: &regions };
    let p = src.as_ptr() as usize;
    let fault = emulator::launch(&launch, &|| unsafe {
        use emulator::twins::*;
        let smem = dynamic_shared::<f32>();
        if thread_idx() == 0 {
            cp_async_cg_16(shared_address(smem), p as *const f32);
        }
        cp_async_commit_group();
        cp_async_wait_all();
        if thread_idx() == 1 {
            load(smem);
        }
    })
    .unwrap_err()
    .to_string();
    assert!(fault.contains("thread 1") && fault.contains("shared-memory race") && fault.contains("thread 0 wrote"), "{fault}");
}

#[test]
fn f16_values_convert_exactly() {
    assert_eq!(emulator::cvt_f32_f16(0x3c00), 1.0);
    assert_eq!(emulator::cvt_f32_f16(0xc000), -2.0);
    assert_eq!(emulator::cvt_f32_f16(0x0001), 2f32.powi(-24));
    assert_eq!(emulator::cvt_f32_f16(0x7bff), 65504.0);
    assert_eq!(emulator::cvt_f32_f16(0x7c00), f32::INFINITY);
    assert!(emulator::cvt_f32_f16(0x7e00).is_nan());
}

#[test]
fn wgmma_multiplies_tma_loaded_128_byte_swizzled_tiles() {
    // A (64×64, K-major) and B (64×64 row-major: N-major) loaded by TMA with the 128-byte swizzle,
    // then four k16 steps of wgmma m64n64k16 whose descriptors step through the swizzled rows:
    // the whole 64×64×64 product, compared with the exact one.
    use emulator::twins::*;
    use emulator::twins::{matrix_descriptor, wgmma_m64n64k16_bf16};
    use std::sync::Mutex;
    let bf16 = |v: f32| (v.to_bits() >> 16) as u16;
    let a: Vec<u16> = (0..4096).map(|i| bf16(((i * 7) % 13) as f32 - 6.0)).collect();
    let b: Vec<u16> = (0..4096).map(|i| bf16(((i * 5) % 7) as f32 - 3.0)).collect();
    let maps = [
        emulator::tensor_map(a.as_ptr() as usize, 2, 64, 64, 64, 64, catalog::Swizzle::B128).unwrap(),
        emulator::tensor_map(b.as_ptr() as usize, 2, 64, 64, 64, 64, catalog::Swizzle::B128).unwrap(),
    ];
    let regions = [
        Region { name: "A", start: a.as_ptr() as usize, len: 8192, writable: false },
        Region { name: "B", start: b.as_ptr() as usize, len: 8192, writable: false },
        Region { name: "maps", start: maps.as_ptr() as usize, len: 256, writable: false },
    ];
    let out = Mutex::new(vec![f32::NAN; 4096]);
    let launch = EmulatedLaunch { kernel: "wgmma_tile", grid: (1, 1, 1), threads: 128, smem_bytes: 1024 + 2 * 8192, regions: &regions };
    let map_ptr = maps.as_ptr() as usize;
    emulator::launch(&launch, &|| unsafe {
        let bar = shared_address(dynamic_shared::<u8>());
        let (sa, sb) = (bar + 1024, bar + 1024 + 8192);
        let map = map_ptr as *const TensorMap;
        if thread_idx() == 0 {
            mbarrier_init(bar, 1);
            mbarrier_arrive_expect_tx(bar, 2 * 8192);
            tma_load_2d(sa, map, 0, 0, bar);
            tma_load_2d(sb, map.add(1), 0, 0, bar);
        }
        sync_threads();
        mbarrier_wait(bar, 0);
        let mut d = [0.0f32; 32];
        for ks in 0..4u32 {
            // A: rows of 128 bytes, 8-row groups 1024 apart; the k16 slice starts 32 bytes in.
            let da = matrix_descriptor(sa + 32 * ks, 16, 1024, catalog::Swizzle::B128);
            // B: 16 rows of k per step, 128 bytes each; 8-row groups of k 1024 apart.
            let db = matrix_descriptor(sb + 2048 * ks, 8192, 1024, catalog::Swizzle::B128);
            wgmma_m64n64k16_bf16::<0, 1>(&mut d, da, db, ks > 0);
        }
        let l = thread_idx() as usize;
        let (w, g, t) = (l / 32, l % 32 / 4, l % 4);
        let mut out = out.lock().unwrap();
        for (i, v) in d.iter().enumerate() {
            let (j, e) = (i / 4, i % 4);
            out[(16 * w + g + 8 * (e / 2)) * 64 + 8 * j + 2 * t + e % 2] = *v;
        }
    })
    .unwrap();
    let out = out.into_inner().unwrap();
    for r in 0..64 {
        for c in 0..64 {
            let want: f32 = (0..64).map(|k| emulator::half_to_f32(Dtype::Bf16, a[r * 64 + k]) * emulator::half_to_f32(Dtype::Bf16, b[k * 64 + c])).sum();
            assert_eq!(out[r * 64 + c], want, "element ({r}, {c})");
        }
    }
}

#[test]
fn a_panic_or_trap_in_one_thread_is_a_fault_of_that_thread() {
    let fault = bare_launch(|| {
        let t = emulator::twins::thread_idx() as usize;
        let table = [1u32; 40];
        std::hint::black_box(table[t]);
    })
    .unwrap_err();
    assert_eq!(fault.thread, 40, "{fault}");
    assert!(fault.message.contains("panicked") && fault.message.contains("out of bounds"), "{fault}");
    let fault = bare_launch(|| {
        if emulator::twins::thread_idx() == 7 {
            emulator::twins::trap();
        }
    })
    .unwrap_err();
    assert_eq!((fault.thread, fault.message.as_str()), (7, "trap: the kernel aborted"));
}

#[test]
fn ldmatrix_lesson_fragments_follow_the_documented_layout() {
    // The GPU lesson (tests/lessons.rs), on the emulator: same kernel body, same expectations.
    for pattern in rgemm_tools::lesson::ldmatrix_patterns() {
        let mut out = [0u32; 64];
        let regions = [
            Region { name: "offsets", start: pattern.offsets.as_ptr() as usize, len: 128, writable: false },
            Region { name: "out", start: out.as_mut_ptr() as usize, len: 256, writable: true },
        ];
        let smem = 2 * kernels_gpu::lesson_kernels::LDMATRIX_TILE;
        let launch = EmulatedLaunch { kernel: "lesson_ldmatrix_x2", grid: (2, 1, 1), threads: 512, smem_bytes: smem, regions: &regions };
        let (offsets, out_addr) = (pattern.offsets.as_ptr() as usize, out.as_mut_ptr() as usize);
        emulator::launch(&launch, &|| unsafe { kernels_gpu::lesson_kernels::ldmatrix_x2_lesson(offsets as *const u32, out_addr as *mut u32) }).unwrap();
        for lane in 0..32usize {
            for i in 0..2 {
                let row_start = pattern.offsets[8 * i + lane / 4];
                let col = 2 * (lane as u32 % 4);
                let want = (row_start + col) | ((row_start + col + 1) << 16);
                assert_eq!(out[2 * lane + i], want, "{}: lane {lane}, register {i}", pattern.name);
            }
        }
    }
}

/// C anywhere: a batch whose matrices of C lie an odd number of elements apart, with an even `ldc` (so each matrix starts rows off 8-byte alignment that its own rows keep),
/// on the kernels whose stores of C are vectors where an address allows (pairs in rungs 14 and
/// 15, float4s in rung 11), emulated (which faults on a misaligned vector access) against the
/// f64 reference, beta ≠ 0 so that the old C is read the same way.
#[test]
fn vector_stores_of_c_take_any_matrix_start() {
    use rgemm::{Batch, Layout, LeadingDims};
    for name in ["bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs", "sgemm_15_tf32x3_128x128x32_s4_raw", "sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa"] {
        let kernel = catalog::find(name).unwrap();
        let ld = LeadingDims { lda: None, ldb: None, ldc: Some(42) };
        let batch = Batch { count: 2, stride_a: None, stride_b: None, stride_c: Some(33 * 42 + 7) };
        let p = Problem::general(33, 40, 64, 0.75, -0.5, Layout::NN, ld, batch).unwrap();
        assert_eq!(p.stride_c % 2, 1, "{p}");
        kernel.geometry(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let verdict = emulate::verify(kernel, &p, 5).unwrap_or_else(|e| panic!("{name}: {p}: {e}"));
        assert!(verdict.passed(), "{name} on {p}: {verdict}");
    }
}
