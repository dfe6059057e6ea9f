//! The library API: problems with layouts, leading dimensions and batches are validated on the
//! CPU, every layout kernel is checked on the emulator, and on a GPU the API is fuzzed over
//! layouts × leading dimensions × batches × element types against the f64 reference, with both
//! cuBLAS baselines checked the same way.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rgemm::api::{self, Gemm, KernelChoice};
use rgemm::choice;
use rgemm::catalog::{self, Dtype};
use rgemm_tools::check::{self, Inputs};
use rgemm::problem::{Batch, Layout, LeadingDims, Problem};
use rgemm_tools::storage::{self, Operand};
use rgemm::Error;
use rgemm_tools::emulate;

fn general(m: u64, n: u64, k: u64, layout: Layout, ld: LeadingDims, batch: Batch) -> Result<Problem, Error> {
    Problem::general(m, n, k, 1.0, 0.0, layout, ld, batch)
}

#[test]
fn bad_problems_are_clear_errors() {
    let ld = |lda, ldb, ldc| LeadingDims { lda: Some(lda), ldb: Some(ldb), ldc: Some(ldc) };
    let cases: Vec<(Result<Problem, Error>, &str)> = vec![
        (general(4, 5, 6, Layout::NN, ld(5, 5, 5), Batch::packed(1)), "lda = 5 is less than the stored row length 6"),
        (general(4, 5, 6, Layout::TN, ld(3, 5, 5), Batch::packed(1)), "lda = 3 is less than the stored row length 4"),
        (general(4, 5, 6, Layout::NT, ld(6, 5, 5), Batch::packed(1)), "ldb = 5 is less than the stored row length 6"),
        (general(4, 5, 6, Layout::NN, ld(6, 5, 4), Batch::packed(1)), "ldc = 4 is less than the stored row length 5"),
        (general(4, 5, 6, Layout::NN, LeadingDims::default(), Batch::packed(0)), "the batch count is 0"),
        (
            general(4, 5, 6, Layout::NN, LeadingDims::default(), Batch { count: 2, stride_a: None, stride_b: None, stride_c: Some(19) }),
            "the matrices of C overlap",
        ),
        (
            general(4, 5, 6, Layout::NN, LeadingDims::default(), Batch { count: 2, stride_a: None, stride_b: None, stride_c: Some(0) }),
            "the matrices of C overlap",
        ),
        (
            general(1 << 30, 1 << 30, 8, Layout::NN, LeadingDims::default(), Batch::packed(1 << 30)),
            "too large to address",
        ),
        (general(0, 5, 6, Layout::NN, LeadingDims::default(), Batch::packed(1)), "M is 0"),
    ];
    for (result, expected) in cases {
        let message = result.expect_err(expected).to_string();
        assert!(message.contains(expected) && !message.contains('\n'), "{message}");
    }
    // Broadcasting A or B (stride 0) is fine; C never.
    let p = general(4, 5, 6, Layout::NN, LeadingDims::default(), Batch { count: 3, stride_a: Some(0), stride_b: None, stride_c: None }).unwrap();
    assert_eq!(p.extents(), (24, 3 * 30, 3 * 20));
}

#[test]
fn cases_parse_with_layout_and_batch() {
    let c = rgemm_tools::suite::parse_case("64x512x512x64:nt").unwrap();
    assert_eq!((c.batch, c.shape, c.layout), (64, (512, 512, 64), Layout::NT));
    assert_eq!(c.to_string(), "64x512x512x64:nt");
    assert!(rgemm_tools::suite::parse_case("4096:xy").is_err());
    assert!(rgemm_tools::suite::parse_case("1x2x3x4x5").is_err());
    assert_eq!(rgemm_tools::suite::real_suite().len(), 16 + 7 + 2 + 4);
}

/// Every kernel that reads a layout other than NN, and the general kernels, on the emulator:
/// odd sizes, padded leading dimensions, a batch with a broadcast operand, beta ≠ 0.
#[test]
fn layout_kernels_are_right_on_the_emulator() {
    let kernels: Vec<_> = catalog::all().filter(|k| k.spec.layout != Layout::NN || k.spec.rung.number == 0).collect();
    assert!(kernels.len() >= 6 + 12, "layout kernels: {}", kernels.len());
    for (i, kernel) in kernels.into_iter().enumerate() {
        let tma = kernel.spec.tensor_maps.is_some();
        // TMA needs 16-byte rows and matrices: pad the leading dimensions and strides to 8
        // elements (16 for FP8's single bytes).
        let unit = (16 / kernel.spec.dtype.bytes() as u64).max(8);
        let (m, n, k) = if tma { (130, 260, 72) } else { (37, 29, 23) };
        let pad = |v: u64| if tma { (v + 8).next_multiple_of(unit) } else { v + 3 };
        let (a_cols, b_cols) = (if kernel.spec.layout.a.is_t() { m } else { k }, if kernel.spec.layout.b.is_t() { k } else { n });
        let ld = LeadingDims { lda: Some(pad(a_cols)), ldb: Some(pad(b_cols)), ldc: Some(pad(n)) };
        // Matrices of the batch 16-byte aligned (every rung's rule), with a gap between them.
        let single = Problem::general(m, n, k, 1.0, 0.0, kernel.spec.layout, ld, Batch::packed(1)).unwrap();
        let (_, b_span, c_span) = single.extents();
        let gap = |span: usize| (span as u64 + 9).next_multiple_of(unit);
        let batch = Batch { count: 2, stride_a: Some(0), stride_b: Some(gap(b_span)), stride_c: Some(gap(c_span)) };
        let p = Problem::general(m, n, k, 0.75, if i % 2 == 0 { 0.5 } else { 0.0 }, kernel.spec.layout, ld, batch).unwrap();
        let verdict = emulate::verify(kernel, &p, 11).unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
        assert!(verdict.passed(), "{} on {p}: {verdict}", kernel.name());
    }
}

/// The automatic choice takes every problem: a fast kernel where one fits, the general kernel
/// otherwise, and never one that rejects it.
#[test]
fn the_automatic_choice_never_picks_a_kernel_that_rejects_the_problem() {
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..2000 {
        let dtype = [Dtype::F32, Dtype::Bf16, Dtype::F16][rng.random_range(0..3)];
        let layout = Layout::ALL[rng.random_range(0..4)];
        let (m, n, k) = (rng.random_range(1..5000), rng.random_range(1..5000), rng.random_range(1..5000));
        let batch = Batch::packed(rng.random_range(1..70_000));
        let Ok(p) = Problem::general(m, n, k, 1.0, 0.0, layout, LeadingDims::default(), batch) else { continue };
        let (kernel, geometry) = choice::choose(dtype, &p, &KernelChoice::Auto).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(kernel.spec.dtype, dtype);
        assert_eq!(kernel.geometry(&p).unwrap(), geometry);
    }
    // A decode step (a few rows of x against a weight stored N×K) goes to the GEMV whose block
    // holds all its rows: by the decode rule, or, where K's rows are not 16-byte units for the
    // tile kernels of the nearest rows, by the one-row GEMV's row of the table.
    for (m, k) in [(1, 4096), (4, 4095), (3, 17)] {
        let p = Problem::general(m, 11008, k, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap();
        for dtype in [Dtype::F32, Dtype::Bf16, Dtype::F16] {
            let (kernel, _) = choice::choose(dtype, &p, &KernelChoice::Auto).unwrap();
            assert!(kernel.name().contains("_gemv_") && kernel.spec.tile.bm >= m as u32, "{p}: {}", kernel.name());
        }
    }
    // bf16 NT at 4096³ goes to the tensor-core kernel of that layout.
    let p = Problem::general(4096, 4096, 4096, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap();
    let (kernel, _) = choice::choose(Dtype::Bf16, &p, &KernelChoice::Auto).unwrap();
    assert!(kernel.name().starts_with("bgemm_14") && kernel.name().ends_with("_nt"), "{}", kernel.name());
}

/// A random problem for the GPU fuzz: any layout, padded or tight leading dimensions, a batch
/// (with broadcast operands) or none, sizes from 1 to 300 (some past a 256-wide tile).
fn random_problem(rng: &mut StdRng) -> Problem {
    loop {
        let layout = Layout::ALL[rng.random_range(0..4)];
        let (m, n, k) = (rng.random_range(1..300u64), rng.random_range(1..300u64), rng.random_range(1..300u64));
        let pad = |rng: &mut StdRng| if rng.random_bool(0.5) { 0 } else { rng.random_range(0..24u64) };
        let (a_cols, b_cols) = (if layout.a.is_t() { m } else { k }, if layout.b.is_t() { k } else { n });
        let ld = LeadingDims { lda: Some(a_cols + pad(rng)), ldb: Some(b_cols + pad(rng)), ldc: Some(n + pad(rng)) };
        let count = if rng.random_bool(0.3) { rng.random_range(2..5u64) } else { 1 };
        let broadcast = |rng: &mut StdRng| rng.random_bool(0.2).then_some(0);
        let batch = Batch { count, stride_a: broadcast(rng), stride_b: broadcast(rng), stride_c: None };
        let beta = if rng.random_bool(0.5) { 0.0 } else { -0.5 };
        if let Ok(p) = Problem::general(m, n, k, 1.25, beta, layout, ld, batch) {
            return p;
        }
    }
}

/// The API (automatic choice) on 320 random problems per run, each checked against f64, with C's
/// padding and the space between batches checked unchanged.
#[test]
#[ignore = "needs a GPU"]
fn the_api_is_right_on_random_problems_on_the_gpu() {
    let guard = common::gpu("the_api_is_right_on_random_problems_on_the_gpu");
    let gpu = &*guard;
    let mut rng = StdRng::seed_from_u64(0x5eed);
    let mut kernels = std::collections::BTreeMap::new();
    for case in 0..320 {
        let p = random_problem(&mut rng);
        let dtype = [Dtype::F32, Dtype::Bf16, Dtype::F16][case % 3];
        let inputs = Inputs::random(&p, dtype, case as u64);
        let plan = common::auto_plan(gpu, &p, dtype);
        *kernels.entry(plan.name()).or_insert(0) += 1;
        let (values, stray) = run_plan(gpu, &plan, &inputs).unwrap_or_else(|e| panic!("{p} ({}): {e}", plan.name()));
        // Judged by the model of the kernel the plan runs (a staged plan may run a kernel that
        // the problem's own layout and strides would not take directly).
        let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(plan.kernel().spec), &values);
        assert!(cmp.passed() && stray == 0, "{} on {p}: {cmp}, {stray} stray writes", plan.name());
    }
    common::say(&format!("kernels chosen: {kernels:?}"));
}

/// Short buffers and overlapping C are errors from `Plan::run`, before anything launches.
#[test]
#[ignore = "needs a GPU"]
fn the_api_rejects_buffers_that_do_not_fit_on_the_gpu() {
    let guard = common::gpu("the_api_rejects_buffers_that_do_not_fit_on_the_gpu");
    let gpu = &*guard;
    let stream = gpu.stream();
    let plan = Gemm::new(64, 64, 64).leading_dims(70, 64, 64).plan::<f32>(gpu, KernelChoice::Auto).unwrap();
    let a = stream.alloc_zeros::<f32>(63 * 70 + 64).unwrap();
    let short = stream.alloc_zeros::<f32>(63 * 70 + 63).unwrap();
    let b = stream.alloc_zeros::<f32>(64 * 64).unwrap();
    let mut c = stream.alloc_zeros::<f32>(64 * 64).unwrap();
    let e = plan.run(gpu, &short, &b, &mut c).unwrap_err();
    assert!(matches!(e, Error::BufferTooSmall { operand: Operand::A, have: 4473, need: 4474 }), "{e}");
    assert!(e.to_string().contains("A holds 4473 elements"), "{e}");
    // bf16 operands for an f32 plan.
    let (a16, b16) = (stream.alloc_zeros::<half::bf16>(63 * 70 + 64).unwrap(), stream.alloc_zeros::<half::bf16>(64 * 64).unwrap());
    let e = plan.run(gpu, &a16, &b16, &mut c).unwrap_err();
    assert!(matches!(e, Error::WrongElementType { plan: "f32", given: "bf16" }), "{e}");
    plan.run(gpu, &a, &b, &mut c).unwrap();
    let named = Gemm::new(64, 64, 64).layout(Layout::NT).plan::<f32>(gpu, KernelChoice::Named("sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa".into()));
    assert!(named.unwrap_err().to_string().contains("layout nn, the problem's is nt"));
}

/// Both cuBLAS baselines compute the problem the kernels compute, for every layout and a batch.
#[test]
#[ignore = "needs a GPU"]
fn both_cublas_baselines_are_right_on_the_gpu() {
    let guard = common::gpu("both_cublas_baselines_are_right_on_the_gpu");
    let gpu = &*guard;
    let mut rng = StdRng::seed_from_u64(77);
    for case in 0..24 {
        let p = random_problem(&mut rng);
        let dtype = [Dtype::F32, Dtype::Bf16, Dtype::F16][case % 3];
        for library in rgemm_tools::baseline::Library::ALL {
            let (verdict, _) = rgemm_tools::verify::verify_with(gpu, &p, dtype, case as u64, |ops| ops.cublas(gpu, library)).unwrap();
            assert!(verdict.passed(), "{} {} on {p}: {verdict}", library.name(), dtype.name());
        }
    }
}

/// Columns `from..to` of each row of a tight row-major `rows × cols` matrix, as a tight matrix.
fn columns(m: &[f32], rows: usize, cols: usize, (from, to): (usize, usize)) -> Vec<f32> {
    (0..rows).flat_map(|r| m[r * cols + from..r * cols + to].iter().copied()).collect()
}

/// C of `p` (a single product, tight operands) computed as `split` says, on the emulator: the
/// kernel on the slices (a strided batch) and on the tail (from its offset), each into its plane
/// of the workspace, then the reduction kernel into C.
fn emulate_split(p: &Problem, split: &rgemm::api::SplitK, inputs: &Inputs) -> Vec<f32> {
    use kernels_gpu::device::emulator::{self, EmulatedLaunch, Region};
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let slice = split.problem.k as usize;
    // What products over K from `from` to `to` read, as the emulator takes operands (and
    // `Inputs` holds them): op(A) M×K and op(B) K×N, row-major, tight, one product after another
    // (the emulator lays them out as the layout stores them).
    let operands = |ranges: &mut dyn Iterator<Item = (usize, usize)>| -> (Vec<f32>, Vec<f32>) {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (from, to) in ranges {
            a.extend(columns(&inputs.a, m, k, (from, to)));
            b.extend_from_slice(&inputs.b[from * n..to * n]);
        }
        (a, b)
    };
    let plane = split.problem.stride_c as usize;
    let mut ws = vec![f32::NAN; split.planes() as usize * plane];
    let (a, b) = operands(&mut (0..split.splits as usize).map(|z| (z * slice, (z + 1) * slice)));
    let mut partials = vec![0.0f32; split.splits as usize * m * n];
    emulate::run(split.kernel, &split.problem, &a, &b, &mut partials).unwrap_or_else(|e| panic!("{}: {e}", split.kernel.name()));
    // The partials lie packed with each matrix starting on a 16-byte boundary.
    for z in 0..split.splits as usize {
        ws[z * plane..z * plane + m * n].copy_from_slice(&partials[z * m * n..(z + 1) * m * n]);
    }
    if let Some(tail) = &split.tail {
        // The tail reads from its offset: where slice `splits` would start.
        let from = split.splits as usize * slice;
        let at = if p.layout.a.is_t() { from * p.lda as usize } else { from };
        assert_eq!(tail.offset[0] as usize, at, "the tail's A starts where slice {} would", split.splits);
        let at = if p.layout.b.is_t() { from } else { from * p.ldb as usize };
        assert_eq!(tail.offset[1] as usize, at, "the tail's B starts where slice {} would", split.splits);
        let (a, b) = operands(&mut std::iter::once((from, k)));
        let z = split.splits as usize * plane;
        emulate::run(split.kernel, &tail.problem, &a, &b, &mut ws[z..z + m * n]).unwrap_or_else(|e| panic!("the tail of {}: {e}", split.kernel.name()));
    }
    let mut c = inputs.c.clone();
    let regions = [
        Region { name: "workspace", start: ws.as_ptr() as usize, len: 4 * ws.len(), writable: false },
        Region { name: "C", start: c.as_mut_ptr() as usize, len: 4 * c.len(), writable: true },
    ];
    let threads = kernels_gpu::split_k::REDUCE_THREADS;
    let launch = EmulatedLaunch { kernel: "reduce_splits", grid: ((n as u32).div_ceil(threads), 16, 1), threads, smem_bytes: 0, regions: &regions };
    let (wsp, cp, planes) = (ws.as_ptr() as usize, c.as_mut_ptr() as usize, split.planes());
    let out = SendOutput(kernels_gpu::epilogue::FusedOutput::new(cp as *mut u8, m as u32, n as u32, p.ldc, p.alpha, p.beta, 0, std::ptr::null(), std::ptr::null_mut()));
    let out = &out;
    emulator::launch(&launch, &move || unsafe { kernels_gpu::split_k::reduce(wsp as *const f32, &out.0, planes, plane as u64) }).unwrap();
    c
}

/// Split-K on the emulator: a problem with one tile and a long K is planned as slices of K; the
/// slices (a strided batch of the plan's kernel) and the reduction kernel, both emulated, give
/// the f64 reference's C, and the order of the sum is fixed.
#[test]
fn split_k_is_right_on_the_emulator() {
    for (dtype, layout, beta) in [
        (Dtype::Bf16, Layout::NN, 0.0f32),
        (Dtype::Bf16, Layout::NT, 0.5),
        (Dtype::F32, Layout::NN, 0.0),
        (Dtype::F32, Layout::NT, -0.5),
    ] {
        // M·N = 6930 is not a multiple of 4: the partials lie 6932 floats apart.
        let p = Problem::general(70, 99, 2048, 1.5, beta, layout, LeadingDims::default(), Batch::packed(1)).unwrap();
        // The split rule on the catalog's first kernel that takes the problem (the dispatch
        // table may prefer another plan for this shape; the split is what is tested here).
        let first = choice::first_supporting(&choice::candidates_for(dtype, &p), &p, "test").unwrap();
        let split = choice::split_k(dtype, &p, &first.geometry(&p).unwrap(), 132).unwrap_or_else(|| panic!("{p} was not split"));
        assert!(split.splits >= 2 && split.tail.is_none());
        let inputs = Inputs::random(&p, dtype, 3);
        let c = emulate_split(&p, &split, &inputs);
        let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(split.kernel.spec), &c);
        assert!(cmp.passed(), "{} split {} on {p}: {cmp}", split.kernel.name(), split.splits);
    }
}

/// Split-K with a tail on the emulator: K that the slices do not divide, in every layout (and the
/// dot-product kernel, which reads any alignment); the slices, the tail from its offsets and the
/// sum meet the f64 reference.
#[test]
fn split_k_with_a_tail_is_right_on_the_emulator() {
    let cases = [
        (Dtype::Bf16, Layout::NN, (40, 24, 3000), 7, 0.0f32),
        (Dtype::F32, Layout::NT, (16, 8, 10_004), 8, 0.5),
        (Dtype::Bf16, Layout::TN, (16, 16, 777), 4, -1.0),
        (Dtype::F16, Layout::TT, (8, 24, 1000), 3, 0.0),
    ];
    for (dtype, layout, (m, n, k), splits, beta) in cases {
        let p = Problem::general(m, n, k, 0.75, beta, layout, LeadingDims::default(), Batch::packed(1)).unwrap();
        // The first fast kernel that takes the slices, and the dot-product kernel of the layout.
        let kernels = choice::candidates_for(dtype, &p).into_iter().filter(|k| choice::split_with(*k, &p, splits).is_some());
        let fast = kernels.clone().find(|k| !k.spec.any_alignment).unwrap_or_else(|| panic!("no tile kernel takes {p} in {splits} slices"));
        let dot = kernels.clone().find(|k| k.spec.rung.kind == rgemm_spec::KernelKind::Dot).unwrap_or_else(|| panic!("no dot kernel takes {p}"));
        for kernel in [fast, dot] {
            let split = choice::split_with(kernel, &p, splits).unwrap();
            assert!(split.tail.is_some(), "{p} in {splits} slices has no tail");
            let inputs = Inputs::random_one_sign(&p, dtype, 7);
            let c = emulate_split(&p, &split, &inputs);
            let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(split.kernel.spec), &c);
            assert!(cmp.passed(), "{} in {splits} slices and a tail of {} on {p}: {cmp}", kernel.name(), split.tail.as_ref().unwrap().problem.k);
        }
    }
}

/// Split-K through the API on the GPU: problems with few tiles and a long K are split, and the
/// result meets the f64 reference (C's padding untouched), for every element type.
#[test]
#[ignore = "needs a GPU"]
fn split_k_is_right_on_the_gpu() {
    let guard = common::gpu("split_k_is_right_on_the_gpu");
    let gpu = &*guard;
    for (i, (m, n, k, layout, beta)) in [(64, 96, 4096, Layout::NN, 0.0), (200, 300, 8192, Layout::NT, -0.5), (1, 4096, 4096, Layout::NT, 0.0), (256, 256, 32768, Layout::NN, 0.25)].into_iter().enumerate() {
        for dtype in [Dtype::F32, Dtype::Bf16, Dtype::F16] {
            let p = Problem::general(m, n, k, 0.5, beta, layout, LeadingDims::default(), Batch::packed(1)).unwrap();
            // The split of the catalog's first fast kernel that takes the problem (the dispatch
            // table decides whether the automatic choice splits; the split is what is tested).
            let first = choice::first_supporting(&choice::candidates_for(dtype, &p), &p, "test").unwrap();
            // A decode step (nt, M <= decode_rows) runs the GEMV, which is never split.
            let decode = layout == Layout::NT && m <= rgemm::choice::decode_rows(dtype) as u64;
            let plan = choice::plan_on(&p, first, false, true, gpu.info.multiprocessors).unwrap();
            if !decode {
                assert!(plan.splits() >= 2, "{p} in {} was not split: {}", dtype.name(), plan.name());
            }
            let inputs = Inputs::random(&p, dtype, 40 + i as u64);
            let (values, stray) = run_plan(gpu, &plan, &inputs).unwrap_or_else(|e| panic!("{}: {e}", plan.name()));
            let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(plan.kernel().spec), &values);
            assert!(cmp.passed() && stray == 0, "{} on {p}: {cmp}, {stray} stray writes", plan.name());
        }
    }
}

/// Slices of K that do not divide it: each slice starts on 16 bytes, and the slices and their
/// tail cover K once, in every layout (CPU: the plan's arithmetic).
#[test]
fn slices_and_their_tail_cover_k_once() {
    for layout in [Layout::NN, Layout::NT, Layout::TN, Layout::TT] {
        for (dtype, k, splits) in [(Dtype::Bf16, 3000, 7), (Dtype::F32, 100_004, 64), (Dtype::F16, 4096, 16), (Dtype::Bf16, 776, 2)] {
            let p = Problem::general(40, 24, k, 1.0, 0.0, layout, LeadingDims::default(), Batch::packed(1)).unwrap();
            let kernel = choice::candidates_for(dtype, &p).into_iter().find(|k| !k.spec.any_alignment && choice::split_with(*k, &p, splits).is_some()).unwrap();
            let split = choice::split_with(kernel, &p, splits).unwrap();
            let unit = 16 / dtype.bytes() as u64;
            let slice = split.problem.k as u64;
            assert_eq!(slice % unit, 0, "{p}: slice {slice}");
            let rest = split.tail.as_ref().map_or(0, |t| t.problem.k as u64);
            assert_eq!(slice * splits as u64 + rest, k, "{p}: {splits} × {slice} + {rest}");
            assert!(rest < unit * splits as u64, "{p}: the tail ({rest}) is a whole slice's worth");
            assert_eq!(split.planes(), splits + u32::from(rest > 0));
            if let Some(t) = &split.tail {
                // The tail starts where slice `splits` would: its A and B one slice-step further.
                assert_eq!(t.offset, [split.problem.stride_a * splits as u64, split.problem.stride_b * splits as u64]);
                assert_eq!((t.problem.m, t.problem.n, t.problem.lda, t.problem.ldb), (p.m, p.n, p.lda, p.ldb));
            }
        }
    }
}

/// Split-K with a tail on the GPU: K not a multiple of the slices (the slices rounded down to 16
/// bytes, the rest one more product), in every layout and element type, staged where rows are
/// not 16-byte units; C meets the f64 reference and nothing outside it is written. Then the
/// automatic choice on shapes no measured row is near (a dot product, deep K, narrow outputs).
#[test]
#[ignore = "needs a GPU"]
fn split_k_with_a_tail_is_right_on_the_gpu() {
    let guard = common::gpu("split_k_with_a_tail_is_right_on_the_gpu");
    let gpu = &*guard;
    let sms = gpu.info.multiprocessors;
    for (i, (m, n, k, layout, beta, splits)) in [(70, 99, 3001, Layout::NN, 0.0, 8), (33, 130, 20_011, Layout::NT, -0.5, 16), (64, 40, 9_999, Layout::TN, 0.25, 32), (5, 7, 65_537, Layout::TT, 0.0, 128)].into_iter().enumerate() {
        for dtype in [Dtype::F32, Dtype::Bf16, Dtype::F16] {
            let p = Problem::general(m, n, k, 0.75, beta, layout, LeadingDims::default(), Batch::packed(1)).unwrap();
            let kernel = choice::candidates_for(dtype, &p).into_iter().filter(|k| !k.spec.any_alignment).find(|k| choice::plan_split(&p, *k, k.geometry(&p).is_err(), splits).is_ok()).unwrap();
            let plan = choice::plan_split(&p, kernel, kernel.geometry(&p).is_err(), splits).unwrap();
            assert_eq!(plan.splits(), splits);
            let inputs = Inputs::random_one_sign(&p, dtype, 60 + i as u64);
            let (values, stray) = run_plan(gpu, &plan, &inputs).unwrap_or_else(|e| panic!("{}: {e}", plan.name()));
            let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(plan.kernel().spec), &values);
            assert!(cmp.passed() && stray == 0, "{} on {p}: {cmp}, {stray} stray writes", plan.name());
        }
    }
    for (i, (m, n, k, layout)) in [(3, 3, 352_792, Layout::NN), (2, 1, 232_559, Layout::TT), (40, 32, 121_352, Layout::TT), (96, 200, 45_001, Layout::NT), (71, 129, 62_109, Layout::NT), (16, 496, 20_392, Layout::NN)].into_iter().enumerate() {
        for dtype in [Dtype::F32, Dtype::Bf16] {
            let p = Problem::general(m, n, k, 1.0, 0.0, layout, LeadingDims::default(), Batch::packed(1)).unwrap();
            let plan = choice::plan(dtype, &p, &KernelChoice::Auto, sms).unwrap();
            let inputs = Inputs::random(&p, dtype, 80 + i as u64);
            let (values, stray) = run_plan(gpu, &plan, &inputs).unwrap_or_else(|e| panic!("{}: {e}", plan.name()));
            let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(plan.kernel().spec), &values);
            assert!(cmp.passed() && stray == 0, "{} on {p}: {cmp}, {stray} stray writes", plan.name());
        }
    }
}

/// Staging on the emulator: operands whose rows are not 16-byte units are copied (the
/// `copy_rows` kernels, emulated) into the layout `Problem::with_aligned_rows` gives them, every
/// element in place and nothing outside the matrices written; the copy-engine kernel then takes
/// the staged problem and meets the f64 reference of the original one.
#[test]
fn staging_is_right_on_the_emulator() {
    use kernels_gpu::align_rows::{COPY_THREADS, copy_grid, copy_rows};
    use kernels_gpu::device::emulator::{self, EmulatedLaunch, Region};
    let ld = |lda, ldb| LeadingDims { lda: Some(lda), ldb: Some(ldb), ldc: None };
    let cases = [
        (Dtype::Bf16, Layout::NN, (70, 99, 45), ld(45, 99), Batch::packed(1)),
        (Dtype::Bf16, Layout::NT, (33, 72, 61), ld(61, 63), Batch { count: 3, stride_a: None, stride_b: Some(0), stride_c: None }),
        (Dtype::F32, Layout::NN, (40, 36, 45), ld(47, 36), Batch::packed(2)),
    ];
    for (dtype, layout, (m, n, k), ld, batch) in cases {
        let p = Problem::general(m, n, k, 1.0, 0.25, layout, ld, batch).unwrap();
        let (staged, copy) = p.with_aligned_rows(dtype.bytes() as u64).unwrap();
        let per = 16 / dtype.bytes() as u32;
        assert!(staged.lda % per == 0 && staged.ldb % per == 0, "{staged}");
        let inputs = Inputs::random(&p, dtype, 11);
        let mut copies = Vec::new();
        for (i, (operand, values)) in [(Operand::A, &inputs.a), (Operand::B, &inputs.b)].into_iter().enumerate() {
            let src = storage::pack(&p, operand, values, f32::NAN);
            let expect = storage::pack(&staged, operand, values, -7.0);
            if !copy[i] {
                assert_eq!(src.len(), expect.len());
                copies.push(src);
                continue;
            }
            let mut dst = vec![-7.0f32; expect.len()];
            let ((rows, cols), (src_ld, dst_ld), (src_stride, dst_stride)) = match operand {
                Operand::A => (p.stored_a(), (p.lda, staged.lda), (p.stride_a, staged.stride_a)),
                _ => (p.stored_b(), (p.ldb, staged.ldb), (p.stride_b, staged.stride_b)),
            };
            let planes = if src_stride == 0 { 1 } else { p.batch };
            let regions = [
                Region { name: "source", start: src.as_ptr() as usize, len: 4 * src.len(), writable: false },
                Region { name: "copy", start: dst.as_mut_ptr() as usize, len: 4 * dst.len(), writable: true },
            ];
            let (rows, cols) = (rows as u32, cols as u32);
            // The grid of a GPU of one SM (8 blocks): for 70 rows, fewer rows of blocks than runs
            // of rows, so blocks walk.
            let (x, y) = copy_grid(rows, cols, planes, 1, rgemm::catalog::MAX_GRID_Y as u32);
            let launch = EmulatedLaunch { kernel: "copy_rows_b32", grid: (x, y, planes), threads: COPY_THREADS, smem_bytes: 0, regions: &regions };
            let (s, d) = (src.as_ptr() as usize, dst.as_mut_ptr() as usize);
            // SAFETY: both buffers hold the matrices as the problems describe them (packed above).
            emulator::launch(&launch, &move || unsafe { copy_rows(s as *const u32, d as *mut u32, rows, cols, src_ld, dst_ld, src_stride, dst_stride) }).unwrap();
            assert!(dst.iter().zip(&expect).all(|(x, y)| x.to_bits() == y.to_bits()), "{dtype:?} {operand:?} of {p}: the copy differs from the staged layout");
            copies.push(dst);
        }
        let kernel = match dtype {
            Dtype::F32 => catalog::find("sgemm_15_tf32x3_128x128x32_s4_raw").unwrap(),
            _ => choice::in_layout(catalog::find("bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs").unwrap(), layout).unwrap(),
        };
        assert!(kernel.geometry(&p).is_err() && kernel.geometry(&staged).is_ok(), "{} on {p}", kernel.name());
        let plan = choice::plan_on(&p, kernel, true, false, 132).unwrap();
        assert!(plan.name().ends_with("_staged"), "{}", plan.name());
        // The emulator packs the operands itself, with the staged leading dimensions.
        let mut c = inputs.c.clone();
        emulate::run(kernel, &staged, &inputs.a, &inputs.b, &mut c).unwrap_or_else(|e| panic!("{} on {staged}: {e}", kernel.name()));
        let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(kernel.spec), &c);
        assert!(cmp.passed(), "{} on {p} (staged {staged}): {cmp}", kernel.name());
    }
}

/// Staged plans through the API on the GPU: operands with rows that are not 16-byte units (odd
/// leading dimensions, a broadcast operand, a batch), copied into the workspace and run by the
/// copy-engine kernels, directly and with K split, meet the f64 reference, nothing stray written.
#[test]
#[ignore = "needs a GPU"]
fn staged_plans_are_right_on_the_gpu() {
    let guard = common::gpu("staged_plans_are_right_on_the_gpu");
    let gpu = &*guard;
    let ld = |lda, ldb| LeadingDims { lda: Some(lda), ldb: Some(ldb), ldc: None };
    let cases = [
        (Layout::NN, (300, 333, 1021), ld(1021, 333), Batch::packed(1)),
        (Layout::NN, (64, 96, 4095), ld(4095, 97), Batch::packed(1)),
        (Layout::NT, (129, 200, 301), ld(301, 303), Batch { count: 3, stride_a: None, stride_b: Some(0), stride_c: None }),
        (Layout::TN, (77, 130, 99), ld(79, 131), Batch::packed(2)),
        (Layout::TT, (130, 77, 99), ld(131, 101), Batch::packed(1)),
    ];
    for (i, (layout, (m, n, k), ld, batch)) in cases.into_iter().enumerate() {
        for dtype in [Dtype::F32, Dtype::Bf16, Dtype::F16, Dtype::E4m3] {
            let p = Problem::general(m, n, k, 0.75, -0.5, layout, ld, batch).unwrap();
            let fast = match dtype {
                Dtype::F32 => "sgemm_15_tf32x3_128x128x32_s4_raw",
                Dtype::Bf16 => "bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs",
                Dtype::F16 => "hgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs",
                // `nt` only: the other layouts have no FP8 twin.
                Dtype::E4m3 => "e4m3gemm_16_fp8_128x128x128_s6_persistent_pairs_nt",
            };
            let Some(kernel) = choice::in_layout(catalog::find(fast).unwrap(), layout) else { continue };
            for split in [false, true] {
                let Ok(plan) = choice::plan_on(&p, kernel, true, split, gpu.info.multiprocessors) else { continue };
                let inputs = Inputs::random(&p, dtype, 70 + i as u64);
                let (values, stray) = run_plan(gpu, &plan, &inputs).unwrap_or_else(|e| panic!("{} on {p}: {e}", plan.name()));
                let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(kernel.spec), &values);
                assert!(cmp.passed() && stray == 0, "{} on {p}: {cmp}, {stray} stray writes", plan.name());
            }
        }
    }
}

/// `plan` on `inputs` through `Plan::run`: C as computed and the count of stray writes.
fn run_plan(gpu: &rgemm::Gpu, plan: &api::Plan, inputs: &Inputs) -> Result<(Vec<f32>, usize), Error> {
    run_plan_at(gpu, plan, inputs, [0, 0, 0])
}

/// [`run_plan`] with A, B and C starting `shift` elements into their buffers (views of
/// `buffer[shift..]`; the elements before them poisoned like the padding).
fn run_plan_at(gpu: &rgemm::Gpu, plan: &api::Plan, inputs: &Inputs, shift: [usize; 3]) -> Result<(Vec<f32>, usize), Error> {
    const FILL: f32 = -1234.5;
    let p = plan.problem();
    let stream = gpu.stream();
    let shifted = |v: Vec<f32>, by: usize, fill: f32| [vec![fill; by], v].concat();
    let a = shifted(storage::pack(p, Operand::A, &inputs.a, f32::NAN), shift[0], f32::NAN);
    let b = shifted(storage::pack(p, Operand::B, &inputs.b, f32::NAN), shift[1], f32::NAN);
    let mut c = stream.clone_htod(&shifted(storage::pack(p, Operand::C, &inputs.c, FILL), shift[2], FILL))?;
    let mut c_view = c.slice_mut(shift[2]..);
    match inputs.dtype {
        Dtype::F32 => plan.run(gpu, &stream.clone_htod(&a)?.slice(shift[0]..), &stream.clone_htod(&b)?.slice(shift[1]..), &mut c_view)?,
        Dtype::Bf16 => {
            let conv = |v: &[f32]| v.iter().map(|&x| half::bf16::from_f32(x)).collect::<Vec<_>>();
            plan.run(gpu, &stream.clone_htod(&conv(&a))?.slice(shift[0]..), &stream.clone_htod(&conv(&b))?.slice(shift[1]..), &mut c_view)?
        }
        Dtype::F16 => {
            let conv = |v: &[f32]| v.iter().map(|&x| half::f16::from_f32(x)).collect::<Vec<_>>();
            plan.run(gpu, &stream.clone_htod(&conv(&a))?.slice(shift[0]..), &stream.clone_htod(&conv(&b))?.slice(shift[1]..), &mut c_view)?
        }
        Dtype::E4m3 => {
            let conv = |v: &[f32]| v.iter().map(|&x| rgemm::E4m3::from_f32(x)).collect::<Vec<_>>();
            plan.run(gpu, &stream.clone_htod(&conv(&a))?.slice(shift[0]..), &stream.clone_htod(&conv(&b))?.slice(shift[1]..), &mut c_view)?
        }
    }
    drop(c_view);
    let stored = stream.clone_dtoh(&c)?;
    let (values, stray) = storage::unpack_c(p, &stored[shift[2]..], FILL);
    // The elements before C's view are poison too: a write there is a stray write.
    Ok((values, stray + stored[..shift[2]].iter().filter(|x| x.to_bits() != FILL.to_bits()).count()))
}

/// Where an automatic plan's kernel needs a 16-byte start that the addresses do not give, the
/// plan it launches instead copies that A or B first, or stores C with a kernel of its threads;
/// aligned addresses keep the plan; a named kernel refuses, naming the operand (no GPU: the plan
/// for given addresses).
#[test]
fn automatic_plans_adapt_to_misaligned_starts() {
    let p = Problem::general(300, 264, 256, 1.0, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(1)).unwrap();
    let tma_store = catalog::find("bgemm_14_wgmma_tma_64x128x64_s8_tmast").unwrap();
    let plan = choice::plan_on(&p, tma_store, false, false, 132).unwrap();
    assert!(plan.kernel().stores_c_by_copy_engine());
    assert_eq!(plan.at_addresses([0x1000, 0x2000, 0x3000]).unwrap().name(), plan.name());
    let c_off = plan.at_addresses([0x1000, 0x2000, 0x3004]).unwrap();
    assert!(!c_off.kernel().stores_c_by_copy_engine() && c_off.kernel().geometry(&p).is_ok(), "{}", c_off.name());
    assert_eq!(plan.at_addresses([0x1002, 0x2000, 0x3000]).unwrap().staged(), [true, false]);
    assert_eq!(plan.at_addresses([0x1000, 0x2002, 0x3000]).unwrap().staged(), [false, true]);
    let all = plan.at_addresses([0x1002, 0x2002, 0x3004]).unwrap();
    assert!(all.staged() == [true, true] && !all.kernel().stores_c_by_copy_engine(), "{}", all.name());
    // Split: the sum stores C element by element, so C may start anywhere; A is copied.
    let deep = Problem::general(64, 96, 4096, 1.0, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(1)).unwrap();
    let split = choice::plan_on(&deep, tma_store, false, true, 132).unwrap();
    assert!(split.splits() > 1);
    assert_eq!(split.at_addresses([0x1000, 0x2000, 0x3004]).unwrap().name(), split.name());
    let a_off = split.at_addresses([0x1002, 0x2000, 0x3004]).unwrap();
    assert!(a_off.staged() == [true, false] && a_off.splits() == split.splits(), "{}", a_off.name());
    // Named: refused.
    let named = choice::plan(Dtype::Bf16, &p, &KernelChoice::Named(tma_store.name().into()), 132).unwrap();
    let e = named.at_addresses([0x1000, 0x2002, 0x3004]).unwrap_err().to_string();
    assert!(e.contains("it needs B and C to start on a 16-byte boundary"), "{e}");
}

/// The automatic choice takes operands at any start: where its kernel needs A, B or C to start
/// on a 16-byte boundary and the buffers do not, the plan copies A or B first, or stores C
/// with another kernel, and the result meets the f64 reference (in one product, one split,
/// each type). A named kernel that needs the start refuses it with an error naming the operand.
#[test]
#[ignore = "needs a GPU"]
fn automatic_plans_take_operands_at_any_start_on_the_gpu() {
    let guard = common::gpu("automatic_plans_take_operands_at_any_start_on_the_gpu");
    let gpu = &*guard;
    for (i, (m, n, k)) in [(300, 264, 256), (64, 96, 4096)].into_iter().enumerate() {
        for dtype in [Dtype::F32, Dtype::Bf16] {
            let p = Problem::general(m, n, k, 0.75, 0.5, Layout::NN, LeadingDims::default(), Batch::packed(1)).unwrap();
            let plan = choice::plan(dtype, &p, &KernelChoice::Auto, gpu.info.multiprocessors).unwrap();
            let inputs = Inputs::random(&p, dtype, 70 + i as u64);
            for shift in [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]] {
                let (values, stray) = run_plan_at(gpu, &plan, &inputs, shift).unwrap_or_else(|e| panic!("{} on {p} with starts shifted by {shift:?}: {e}", plan.name()));
                let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(plan.kernel().spec), &values);
                assert!(cmp.passed() && stray == 0, "{} on {p} ({}) with starts shifted by {shift:?}: {cmp}, {stray} stray writes", plan.name(), dtype.name());
            }
        }
    }
    let named = |name: &str| Gemm::new(300, 264, 256).plan::<f32>(gpu, KernelChoice::Named(name.into())).unwrap();
    let inputs = Inputs::random(named("sgemm_15_tf32x3_128x128x32_s4_raw").problem(), Dtype::F32, 5);
    let e = run_plan_at(gpu, &named("sgemm_15_tf32x3_128x128x32_s4_raw"), &inputs, [0, 1, 0]).unwrap_err().to_string();
    assert!(e.contains("it needs B to start on a 16-byte boundary"), "{e}");
}

/// A kernel that splits A ahead takes A at any start (its split reads element by element); a
/// kernel that reads A itself through the copy engine refuses a misaligned start with a clear
/// error, before anything launches.
#[test]
#[ignore = "needs a GPU"]
fn split_ahead_kernels_take_a_at_any_start_on_the_gpu() {
    let guard = common::gpu("split_ahead_kernels_take_a_at_any_start_on_the_gpu");
    let gpu = &*guard;
    let stream = gpu.stream();
    const FILL: f32 = -1234.5;
    for (layout, name) in [(Layout::NN, "sgemm_15_tf32x3_128x128x32_s4_presplit"), (Layout::TN, "sgemm_15_tf32x3_128x128x32_s4_presplit_tn")] {
        let (m, n, k) = (200, 136, 97);
        let lda = if layout == Layout::TN { 203 } else { 101 };
        let p = Problem::general(m, n, k, 1.25, 0.5, layout, LeadingDims { lda: Some(lda), ldb: None, ldc: None }, Batch::packed(2)).unwrap();
        let inputs = Inputs::random(&p, Dtype::F32, 91);
        let gemm = Gemm::new(m, n, k).layout(layout).scalars(p.alpha, p.beta).leading_dims(lda, p.ldb as u64, p.ldc as u64).batch(2, p.stride_a, p.stride_b, p.stride_c);
        let plan = gemm.plan::<f32>(gpu, KernelChoice::Named(name.into())).unwrap();
        // A one element past a 16-byte boundary: the view starts at element 1 of its buffer.
        let a = storage::pack(&p, Operand::A, &inputs.a, f32::NAN);
        let mut shifted = vec![f32::NAN; a.len() + 1];
        shifted[1..].copy_from_slice(&a);
        let a_buf = stream.clone_htod(&shifted).unwrap();
        let b = stream.clone_htod(&storage::pack(&p, Operand::B, &inputs.b, f32::NAN)).unwrap();
        let mut c = stream.clone_htod(&storage::pack(&p, Operand::C, &inputs.c, FILL)).unwrap();
        plan.run(gpu, &a_buf.slice(1..), &b, &mut c).unwrap_or_else(|e| panic!("{name} on {p} with A at element 1: {e}"));
        let (values, stray) = storage::unpack_c(&p, &stream.clone_dtoh(&c).unwrap(), FILL);
        let cmp = check::compare_full(&p, &inputs, &check::ErrorModel::of(plan.kernel().spec), &values);
        assert!(cmp.passed() && stray == 0, "{name} on {p} with A at element 1: {cmp}, {stray} stray writes");
    }
    // The kernel without the split reads A through the copy engine: a misaligned start is refused.
    let plan = Gemm::new(64, 64, 64).plan::<f32>(gpu, KernelChoice::Named("sgemm_15_tf32x3_128x128x32_s4_raw".into())).unwrap();
    let a = stream.alloc_zeros::<f32>(64 * 64 + 1).unwrap();
    let b = stream.alloc_zeros::<f32>(64 * 64).unwrap();
    let mut c = stream.alloc_zeros::<f32>(64 * 64).unwrap();
    let e = plan.run(gpu, &a.slice(1..), &b, &mut c).unwrap_err().to_string();
    assert!(e.contains("it needs A to start on a 16-byte boundary"), "{e}");
}

/// K = 0 is a product of nothing: the plan is the split-K sum over no slices, `C = beta·C`,
/// whatever the kernel choice; a named kernel of another type or an unknown one is still an error.
#[test]
fn k_zero_plans_scale_c() {
    for dtype in [Dtype::F32, Dtype::Bf16, Dtype::F16] {
        let p = Gemm::new(33, 17, 0).scalars(2.0, 0.5).packed_batch(3).problem().unwrap();
        let plan = choice::plan(dtype, &p, &KernelChoice::Auto, 132).unwrap();
        assert_eq!(plan.name(), "reduce_splits");
        assert!(plan.reason().contains("K = 0"), "{}", plan.reason());
        assert_eq!(p.extents().0, 0, "A spans nothing");
    }
    let p = Gemm::new(8, 8, 0).problem().unwrap();
    let named = |name: &str| choice::plan(Dtype::Bf16, &p, &KernelChoice::Named(name.into()), 132);
    assert!(matches!(named("sgemm_01_naive_32x32x1"), Err(Error::WrongElementType { .. })));
    assert!(matches!(named("no_such_kernel"), Err(Error::UnknownKernel { .. })));
    // A kernel asked to launch K = 0 itself refuses it with a reason.
    let kernel = catalog::find("sgemm_01_naive_32x32x1").unwrap();
    assert!(matches!(kernel.geometry(&p), Err(Error::Unsupported { .. })));
    // M, N and the batch count must still be at least 1.
    assert!(Gemm::new(0, 8, 0).problem().is_err() && Gemm::new(8, 0, 8).problem().is_err() && Gemm::new(8, 8, 8).packed_batch(0).problem().is_err());
}

/// On the GPU, K = 0 leaves `beta·C` in every matrix of a padded batch, touches nothing between
/// rows, and does not read C when beta is 0 (a NaN there becomes 0).
#[test]
#[ignore = "needs a GPU"]
fn k_zero_scales_c_on_the_gpu() {
    let guard = common::gpu("k_zero_scales_c_on_the_gpu");
    let gpu = &*guard;
    let stream = gpu.stream();
    let (m, n, ldc, batch) = (37usize, 29usize, 40usize, 3usize);
    let mut rng = StdRng::seed_from_u64(5);
    for beta in [0.5f32, 0.0] {
        let gemm = Gemm::new(m as u64, n as u64, 0).scalars(3.0, beta).leading_dims(1, n as u64, ldc as u64).packed_batch(batch as u64);
        let plan = gemm.plan::<half::bf16>(gpu, KernelChoice::Auto).unwrap();
        let lc = plan.problem().extents().2;
        let host: Vec<f32> = (0..lc).map(|i| if beta == 0.0 && i % 7 == 0 { f32::NAN } else { rng.random_range(0.5..2.0) }).collect();
        let mut c = stream.clone_htod(&host).unwrap();
        let (a, b) = (stream.alloc_zeros::<half::bf16>(1).unwrap(), stream.alloc_zeros::<half::bf16>(1).unwrap());
        plan.run(gpu, &a, &b, &mut c).unwrap();
        let out = stream.clone_dtoh(&c).unwrap();
        let stride = plan.problem().stride_c as usize;
        for (i, (&got, &was)) in out.iter().zip(&host).enumerate() {
            let (z, at) = (i / stride, i % stride);
            let inside = z < batch && at % ldc < n && at / ldc < m;
            let want = if !inside { was } else if beta == 0.0 { 0.0 } else { beta * was };
            assert!(got == want || (got.is_nan() && want.is_nan()), "beta {beta}, element {i}: {got} (want {want})");
        }
    }
}

/// C with its epilogue, shared by the emulator's block threads (its pointers are into buffers
/// that outlive the launch, whose accesses the emulator checks).
struct SendOutput(kernels_gpu::epilogue::FusedOutput);
// SAFETY: the threads only read the value; what it points to is checked by the emulator.
unsafe impl Sync for SendOutput {}

/// `Problem`'s fields are public, so a hand-edited one may span more than memory holds: its
/// extents say so (`usize::MAX`, which no buffer holds) instead of panicking, and `checked`
/// refuses it.
#[test]
fn hand_edited_problem_reports_extents_without_panicking() {
    let mut p = Gemm::new(4, 4, 4).packed_batch(2).problem().unwrap();
    p.stride_a = u64::MAX;
    assert_eq!(p.extents().0, usize::MAX);
    assert_eq!(p.extents().1, 2 * 16);
    assert!(p.checked().is_err());
}

/// The buffers `Gpu::upload` and `Gpu::zeros` make go to `Plan::run` as cudarc's own do: A and B
/// of small integers (exact in f32 products of this size), C poisoned with NaN first.
#[test]
#[ignore = "needs a GPU"]
fn plans_run_on_the_gpus_own_buffers() {
    let guard = common::gpu("plans_run_on_the_gpus_own_buffers");
    let gpu = &*guard;
    let (m, n, k) = (37usize, 29usize, 45usize);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 2.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 + 1.0).collect();
    let plan = Gemm::new(m as u64, n as u64, k as u64).plan::<f32>(gpu, KernelChoice::Auto).unwrap();
    let (da, db) = (gpu.upload(&a).unwrap(), gpu.upload(&b).unwrap());
    let mut dc = gpu.upload(&vec![f32::NAN; m * n]).unwrap();
    plan.run(gpu, &da, &db, &mut dc).unwrap();
    let c = gpu.download(&dc).unwrap();
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k).map(|l| a[i * k + l] * b[l * n + j]).sum();
            assert_eq!(c[i * n + j], want, "C[{i}][{j}]");
        }
    }
}

/// Without a GPU to time on, a tuned choice whose cache has no plan of the problem is the
/// automatic choice, and says so.
#[test]
fn an_untuned_problem_plans_as_the_automatic_choice() {
    let p = general(384, 4096, 14336, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap();
    let auto = choice::plan(Dtype::Bf16, &p, &KernelChoice::Auto, 132).unwrap();
    let tuned = choice::plan(Dtype::Bf16, &p, &KernelChoice::Tuned(choice::TuneCache::in_memory()), 132).unwrap();
    assert_eq!((tuned.name(), tuned.splits()), (auto.name(), auto.splits()));
    assert!(tuned.reason().starts_with("not tuned yet"), "{}", tuned.reason());
}

/// A tuned choice times its candidates once per problem, records the winner in its file, and
/// plans from the cache afterwards (in this process or from the file), whatever alpha is; the
/// tuned plan computes the product; a cache tuned on another device is refused.
#[test]
#[ignore = "needs a GPU"]
fn a_tuned_choice_times_once_and_then_reads_its_cache() {
    let guard = common::gpu("a_tuned_choice_times_once_and_then_reads_its_cache");
    let gpu = &*guard;
    let dir = std::env::temp_dir().join(format!("rgemm-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gpu.tune");
    let _ = std::fs::remove_file(&path);
    let (m, n, k) = (300usize, 520usize, 640usize);
    let gemm = Gemm::new(m as u64, n as u64, k as u64).layout(Layout::NT);
    let cache = choice::TuneCache::open(&path).unwrap();
    let first = gemm.plan::<half::bf16>(gpu, KernelChoice::Tuned(cache.clone())).unwrap();
    assert!(first.reason().starts_with("tuned on this GPU: the fastest of"), "{}", first.reason());
    assert_eq!(cache.len(), 1);
    let again = gemm.plan::<half::bf16>(gpu, KernelChoice::Tuned(cache.clone())).unwrap();
    let from_file = gemm.scalars(0.5, 0.0).plan::<half::bf16>(gpu, KernelChoice::Tuned(choice::TuneCache::open(&path).unwrap())).unwrap();
    for plan in [&again, &from_file] {
        assert!(plan.reason().contains("from the tuning cache"), "{}", plan.reason());
        assert_eq!((plan.name(), plan.splits()), (first.name(), first.splits()));
    }
    // Small integers: every product and sum is exact in bf16 inputs and f32 sums.
    let a: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 2.0).collect();
    let b: Vec<f32> = (0..n * k).map(|i| (i % 5) as f32 + 1.0).collect();
    let to16 = |v: &[f32]| v.iter().map(|&x| half::bf16::from_f32(x)).collect::<Vec<_>>();
    let (da, db) = (gpu.upload(&to16(&a)).unwrap(), gpu.upload(&to16(&b)).unwrap());
    let mut dc = gpu.upload(&vec![f32::NAN; m * n]).unwrap();
    first.run(gpu, &da, &db, &mut dc).unwrap();
    let c = gpu.download(&dc).unwrap();
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k).map(|l| a[i * k + l] * b[j * k + l]).sum();
            assert_eq!(c[i * n + j], want, "C[{i}][{j}] of {}", first.name());
        }
    }
    let header = std::fs::read_to_string(&path).unwrap().lines().next().unwrap().to_string();
    std::fs::write(&path, format!("{header}\ndevice\tAnother GPU\t7\n")).unwrap();
    match gemm.plan::<half::bf16>(gpu, KernelChoice::Tuned(choice::TuneCache::open(&path).unwrap())) {
        Err(Error::InvalidTuneCache(msg)) => assert!(msg.contains("Another GPU"), "{msg}"),
        other => panic!("a cache of another device: {other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
