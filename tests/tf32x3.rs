//! Rung 15 (3×TF32) against fp32's own accuracy: on the CPU emulator against a sequential fp32
//! dot product, on the GPU against cuBLAS SGEMM on the same inputs, with exponents spread over
//! six orders of magnitude as well as uniform inputs (see `rgemm_tools::accuracy`).

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rgemm_tools::accuracy::{self, Judgement};
use rgemm::catalog::{self, Dtype, Kernel};
use rgemm_tools::check::{self, Inputs, Sample};
use rgemm_tools::baseline::Library;
use rgemm::problem::{Batch, LeadingDims};
use rgemm_tools::verify::Operands;
use rgemm::{Gpu, Layout, Problem};
use rgemm_tools::emulate;

fn tf32x3_kernels() -> Vec<Kernel> {
    let kernels: Vec<Kernel> = catalog::all().filter(|k| k.spec.rung.number == 15).collect();
    assert!(!kernels.is_empty(), "the catalog has no rung-15 kernel");
    kernels
}

/// `m × n × k` in `kernel`'s layout, one product, each stored row padded to a multiple of 4
/// elements (the copy engine's 16 bytes) and then `pad` more.
fn problem_for(kernel: Kernel, (m, n, k): (u64, u64, u64), pad: u64, alpha: f32) -> Problem {
    let layout = kernel.spec.layout;
    let ld = |cols: u64| Some(cols.next_multiple_of(4) + pad);
    let (a_cols, b_cols) = (if layout.a.is_t() { m } else { k }, if layout.b.is_t() { k } else { n });
    let ld = LeadingDims { lda: ld(a_cols), ldb: ld(b_cols), ldc: ld(n) };
    Problem::general(m, n, k, alpha, 0.0, layout, ld, Batch::packed(1)).unwrap()
}

/// Inputs of one of two kinds: spread exponents, or uniform in [−1, 1).
fn inputs(problem: &Problem, spread: bool, seed: u64) -> Inputs {
    if spread { accuracy::spread_inputs(problem, seed) } else { Inputs::random(problem, Dtype::F32, seed) }
}

/// The judgement of `got` on `problem` against the full f64 reference, with `fp32` (an fp32
/// GEMM of the same inputs) as the yardstick.
fn judge_full(problem: &Problem, inputs: &Inputs, got: &[f32], fp32: &[f32]) -> Judgement {
    let want = check::reference(problem, inputs);
    Judgement::new(
        accuracy::frobenius_distance(got, want.iter().copied()),
        accuracy::frobenius_distance(fp32, want.iter().copied()),
        accuracy::product_rms_norm(problem, inputs),
    )
}

/// The judgement can fail: one tf32 product per term (what a single `wgmma` of the raw inputs
/// gives, the low 13 bits truncated), computed on the CPU, is rejected on both kinds of inputs.
#[test]
fn one_tf32_product_per_term_fails_the_judgement() {
    let problem = Problem::new(40, 36, 64, 1.0, 0.0).unwrap();
    let tf32 = |x: f32| f32::from_bits(x.to_bits() & !0x1fff);
    for spread in [false, true] {
        let inputs = inputs(&problem, spread, 3);
        let (m, n, k) = (40, 36, 64);
        let one_pass: Vec<f32> = (0..m * n)
            .map(|e| {
                let (i, j) = (e / n, e % n);
                (0..k).fold(0.0f32, |acc, p| tf32(inputs.a[i * k + p]).mul_add(tf32(inputs.b[p * n + j]), acc))
            })
            .collect();
        let fp32 = accuracy::fp32_sequential(&problem, &inputs);
        let j = judge_full(&problem, &inputs, &one_pass, &fp32);
        assert!(!j.passed(), "a single tf32 product passed (spread = {spread}): {j}");
        let exact = judge_full(&problem, &inputs, &fp32, &fp32);
        assert!(exact.passed(), "fp32 itself failed (spread = {spread}): {exact}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every rung-15 kernel on the emulator, in its layout, sizes up to 200 (any M, N, K: the
    /// stored rows are padded to the copy engine's 16 bytes, sometimes further), uniform and
    /// spread inputs, against a sequential fp32 GEMM's error.
    #[test]
    fn tf32x3_on_the_emulator_is_as_accurate_as_fp32(
        index in 0..64usize,
        size in (1u64..=200, 1u64..=200, 1u64..=200),
        pad in prop_oneof![Just(0u64), Just(4), Just(12)],
        spread in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let kernels = tf32x3_kernels();
        let kernel = kernels[index % kernels.len()];
        let problem = problem_for(kernel, size, pad, 1.0);
        let inputs = inputs(&problem, spread, seed);
        let mut got = inputs.c.clone();
        emulate::run(kernel, &problem, &inputs.a, &inputs.b, &mut got).map_err(|e| TestCaseError::fail(format!("{}: {problem}: {e}", kernel.name())))?;
        let fp32 = accuracy::fp32_sequential(&problem, &inputs);
        let j = judge_full(&problem, &inputs, &got, &fp32);
        prop_assert!(j.passed(), "{} on {problem}, spread = {spread}, seed {seed}: {j}", kernel.name());
    }
}

/// Every layout has a rung-15 kernel, and the automatic choice takes it for fp32 problems of
/// that layout (ahead of the general kernel) whenever the copy engine can read the operands: B
/// always, A unless a kernel of the layout splits it ahead (its split reads A element by element).
#[test]
fn every_layout_has_a_tf32x3_kernel_that_the_automatic_choice_takes() {
    use rgemm::api::KernelChoice;
    for layout in Layout::ALL {
        let kernels: Vec<Kernel> = tf32x3_kernels().into_iter().filter(|k| k.spec.layout == layout).collect();
        assert!(!kernels.is_empty(), "no rung-15 kernel reads {}", layout.name());
        let splits_ahead = kernels.iter().any(|k| k.spec.split_ahead);
        for (m, n, k) in [(4096, 4096, 4096), (333, 130, 77), (5, 8, 4)] {
            let p = Problem::general(m, n, k, 1.0, 0.0, layout, LeadingDims::default(), Batch::packed(3)).unwrap();
            let (stored_a, stored_b) = (p.stored_a().1, p.stored_b().1);
            let (kernel, _) = rgemm::choice::choose(Dtype::F32, &p, &KernelChoice::Auto).unwrap();
            if (stored_a % 4 == 0 || splits_ahead) && stored_b % 4 == 0 {
                assert!(kernel.spec.rung.number == 15 && kernel.spec.layout == layout, "{p}: {}", kernel.name());
            } else {
                assert_ne!(kernel.spec.rung.number, 15, "{p}: {}", kernel.name());
            }
        }
    }
}

/// Every rung-15 kernel on the emulator with odd M, N and K, leading dimensions beyond the
/// stored rows, C's too, and a strided batch of three products (one operand broadcast, the
/// matrices apart by more than they span), beta ≠ 0: against the f64 reference, C's padding
/// and the space between the products unchanged. Then with M and N whole panels of 32 (but not
/// whole tiles), where an MN-major tile comes in one four-dimensional load.
#[test]
fn tf32x3_on_the_emulator_takes_odd_sizes_leading_dimensions_and_batches() {
    let cases = [(131u64, 133, 67), (160, 192, 67)];
    for (i, (kernel, (m, n, k))) in tf32x3_kernels().into_iter().flat_map(|kernel| cases.map(|size| (kernel, size))).enumerate() {
        let layout = kernel.spec.layout;
        let (a_cols, b_cols) = (if layout.a.is_t() { m } else { k }, if layout.b.is_t() { k } else { n });
        let ld = LeadingDims { lda: Some(a_cols.next_multiple_of(4) + 8), ldb: Some(b_cols.next_multiple_of(4) + 4), ldc: Some(n + 6) };
        let single = Problem::general(m, n, k, 1.0, 0.0, layout, ld, Batch::packed(1)).unwrap();
        let (a_span, b_span, c_span) = single.extents();
        let gap = |span: usize| (span as u64 + 9).next_multiple_of(4);
        // A broadcast for even kernels, B for odd ones.
        let (stride_a, stride_b) = if i % 2 == 0 { (0, gap(b_span)) } else { (gap(a_span), 0) };
        let batch = Batch { count: 3, stride_a: Some(stride_a), stride_b: Some(stride_b), stride_c: Some(gap(c_span)) };
        let p = Problem::general(m, n, k, -0.75, 0.5, layout, ld, batch).unwrap();
        let verdict = emulate::verify(kernel, &p, 17 + i as u64).unwrap_or_else(|e| panic!("{}: {p}: {e}", kernel.name()));
        assert!(verdict.passed(), "{} on {p}: {verdict}", kernel.name());
    }
}

/// Long sums: with K = 2048 a chain of wgmma accumulations as long as K would truncate 768 times
/// (the emulator rounds the tensor cores' sums toward zero, as the hardware does); the kernels
/// add partial sums into fp32 registers often enough to stay within fp32's error.
#[test]
fn tf32x3_with_long_k_on_the_emulator_is_as_accurate_as_fp32() {
    for kernel in tf32x3_kernels() {
        let problem = problem_for(kernel, (128, 128, 2048), 0, 1.0);
        for spread in [false, true] {
            let inputs = inputs(&problem, spread, 21);
            let mut got = inputs.c.clone();
            emulate::run(kernel, &problem, &inputs.a, &inputs.b, &mut got).unwrap();
            let fp32 = accuracy::fp32_sequential(&problem, &inputs);
            let j = judge_full(&problem, &inputs, &got, &fp32);
            common::say(&format!("{} on {problem}, spread = {spread}: {j}", kernel.name()));
            assert!(j.passed(), "{} on {problem}, spread = {spread}: {j}", kernel.name());
        }
    }
}

/// `kernel`'s C on the GPU, which must write nothing outside C.
fn kernel_on_gpu(gpu: &Gpu, kernel: Kernel, problem: &Problem, inputs: &Inputs) -> Vec<f32> {
    let ops = Operands::upload(gpu, problem, inputs).unwrap();
    ops.launch(gpu, kernel, &kernel.geometry(problem).unwrap()).unwrap();
    let (got, guard_writes) = ops.download_c(gpu).unwrap();
    assert_eq!(guard_writes, 0, "{} wrote outside C or into A or B on {problem}", kernel.name());
    got
}

/// `kernel` and cuBLAS SGEMM on the same inputs: (kernel's C, cuBLAS's C).
fn kernel_and_cublas(gpu: &Gpu, kernel: Kernel, problem: &Problem, inputs: &Inputs) -> (Vec<f32>, Vec<f32>) {
    let got = kernel_on_gpu(gpu, kernel, problem, inputs);
    let reference = Operands::upload(gpu, problem, inputs).unwrap();
    reference.cublas(gpu, Library::Classic).unwrap();
    (got, reference.download_c(gpu).unwrap().0)
}

/// The criterion at 4096³ and 8192³: relative Frobenius error against f64 at most twice
/// cuBLAS SGEMM's on the same inputs, uniform and spread. The f64 reference covers 16 sampled
/// rows and columns (the full one would take minutes on the CPU): 2·16·8192 elements at 8192³.
/// Sharded like the catalog walks (`RGEMM_TEST_SHARD`, see tests/common).
#[test]
#[ignore = "needs a GPU"]
fn tf32x3_is_within_twice_cublas_sgemm_error_at_4096_and_8192() {
    let gpu = common::gpu("tf32x3_is_within_twice_cublas_sgemm_error_at_4096_and_8192");
    let mut failures = Vec::new();
    for kernel in common::this_shard(tf32x3_kernels().into_iter()) {
        for size in [4096u64, 8192] {
            for spread in [false, true] {
                let problem = problem_for(kernel, (size, size, size), 0, 1.0);
                let inputs = inputs(&problem, spread, 11 + size);
                let (got, cublas) = kernel_and_cublas(&gpu, kernel, &problem, &inputs);
                let sample = Sample::random(&problem, 16, 5);
                let (error, cublas_error) = (sample.relative_error(&problem, &inputs, &got), sample.relative_error(&problem, &inputs, &cublas));
                let line = format!("{} {size}³ spread={spread}: relative error {error:.3e}, cuBLAS SGEMM {cublas_error:.3e}, ratio {:.2}", kernel.name(), error / cublas_error);
                common::say(&line);
                if !(error <= 2.0 * cublas_error) {
                    failures.push(line);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// GPU proptest: every rung-15 kernel on random sizes up to 600 in its layout (stored rows
/// padded to multiples of 4, sometimes further), random alpha, uniform and spread inputs, against
/// cuBLAS SGEMM's error on the same inputs (full f64 reference).
#[test]
#[ignore = "needs a GPU"]
fn tf32x3_on_random_sizes_is_as_accurate_as_cublas_sgemm() {
    let gpu = common::gpu("tf32x3_on_random_sizes_is_as_accurate_as_cublas_sgemm");
    for kernel in tf32x3_kernels() {
        let mut runner = TestRunner::new(Config { cases: 40, failure_persistence: None, ..Config::default() });
        let result = runner.run(&(1u64..=600, 1u64..=600, 1u64..=600, 0u64..3, -2.0f32..2.0, any::<bool>(), any::<u64>()), |(m, n, k, pad, alpha, spread, seed)| {
            let problem = problem_for(kernel, (m, n, k), 4 * pad, alpha);
            let inputs = inputs(&problem, spread, seed);
            let (got, cublas) = kernel_and_cublas(&gpu, kernel, &problem, &inputs);
            let j = judge_full(&problem, &inputs, &got, &cublas);
            prop_assert!(j.passed(), "{} on {problem}, spread = {spread}, seed {seed}: {j}", kernel.name());
            Ok(())
        });
        if let Err(e) = result {
            panic!("{}: {e}", kernel.name());
        }
    }
}

/// Non-finite inputs, each put at A(0, 0) (`true`) or B(0, 0), stored first in every layout:
/// the GPU's own NaN 0x7fffffff (what arithmetic on a NaN gives; a rounding to tf32 on the integer
/// units, adding bit 12, would carry it into the sign bit and make it a zero, see the rung's
/// chapter), quiet NaNs, NaNs whose payload lies only in the low 13 bits (the tensor cores read
/// them as infinities: only the remainder `lo`, a NaN, carries them into C), and infinities.
const NON_FINITE: [(bool, u32); 8] = [
    (true, 0x7fff_ffff),
    (false, 0x7fff_ffff),
    (true, 0x7fc0_0000),
    (false, 0xffff_ffff),
    (true, 0x7f80_0001),
    (false, 0xff80_1fff),
    (true, 0x7f80_0000),
    (false, 0xff80_0000),
];

/// Random inputs of `problem` with `bad` at A(0, 0) or B(0, 0).
fn inputs_with(problem: &Problem, (in_a, bad): (bool, u32), seed: u64) -> Inputs {
    let mut inputs = inputs(problem, false, seed);
    let slot = if in_a { &mut inputs.a[0] } else { &mut inputs.b[0] };
    *slot = f32::from_bits(bad);
    inputs
}

/// `got` (C of `problem`, rows `ldc` apart) after `bad` at A(0, 0) or B(0, 0): row 0 or column 0
/// is NaN for a NaN and not finite for an infinity, every other element finite.
fn assert_reaches_c(kernel: Kernel, problem: &Problem, (in_a, bad): (bool, u32), got: &[f32]) {
    let (n, ldc) = (problem.n as usize, problem.ldc as usize);
    let bad = f32::from_bits(bad);
    for (e, c) in got.iter().enumerate().filter(|(e, _)| e % ldc < n) {
        let (i, j) = (e / ldc, e % ldc);
        let hit = if in_a { i == 0 } else { j == 0 };
        let what = format!("{}: {bad} ({:#010x}) in {}: C({i}, {j}) = {c}", kernel.name(), bad.to_bits(), if in_a { "A" } else { "B" });
        assert!(if !hit { c.is_finite() } else if bad.is_nan() { c.is_nan() } else { !c.is_finite() }, "{what}");
    }
}

/// A NaN or an infinity in A or B reaches C, and only its row or column: every rung-15 kernel on
/// the emulator with each of [`NON_FINITE`].
#[test]
fn tf32x3_carries_nan_and_infinity_into_c() {
    for kernel in tf32x3_kernels() {
        let problem = problem_for(kernel, (40, 40, 40), 0, 1.0);
        for case in NON_FINITE {
            let inputs = inputs_with(&problem, case, 3);
            let mut got = inputs.c.clone();
            emulate::run(kernel, &problem, &inputs.a, &inputs.b, &mut got).unwrap();
            assert_reaches_c(kernel, &problem, case, &got);
        }
    }
}

/// The same on the GPU, whose NaN arithmetic the emulator does not copy bit for bit (the CPU
/// keeps a NaN's payload where the GPU gives 0x7fffffff).
#[test]
#[ignore = "needs a GPU"]
fn tf32x3_carries_nan_and_infinity_into_c_on_the_gpu() {
    let gpu = common::gpu("tf32x3_carries_nan_and_infinity_into_c_on_the_gpu");
    for kernel in tf32x3_kernels() {
        let problem = problem_for(kernel, (200, 200, 200), 0, 1.0);
        for case in NON_FINITE {
            let got = kernel_on_gpu(&gpu, kernel, &problem, &inputs_with(&problem, case, 5));
            assert_reaches_c(kernel, &problem, case, &got);
        }
    }
}

/// `cvt.rna.tf32.f32` on the emulator: nearest tf32 value, ties away from zero, low 13 bits zero,
/// carries into the exponent, overflow to infinity, NaN kept.
#[test]
fn cvt_rna_tf32_rounds_to_nearest_with_ties_away_from_zero() {
    use kernels_gpu::device::cvt_rna_tf32;
    let (ulp, half, tiny) = (2f32.powi(-10), 2f32.powi(-11), 2f32.powi(-23));
    assert_eq!(cvt_rna_tf32(1.0 + half), 1.0 + ulp, "a tie rounds away from zero (to even would give 1)");
    assert_eq!(cvt_rna_tf32(-(1.0 + half)), -(1.0 + ulp), "a negative tie rounds away from zero");
    assert_eq!(cvt_rna_tf32(1.0 + half - tiny), 1.0, "below the tie rounds down");
    assert_eq!(cvt_rna_tf32(2.0 - tiny), 2.0, "the carry raises the exponent");
    assert_eq!(cvt_rna_tf32(f32::MAX), f32::INFINITY);
    assert_eq!(cvt_rna_tf32(f32::NEG_INFINITY), f32::NEG_INFINITY);
    assert!(cvt_rna_tf32(f32::NAN).is_nan());
    assert_eq!(cvt_rna_tf32(-0.0).to_bits(), (-0.0f32).to_bits());
    let mut x = 0.7f32;
    for _ in 0..1000 {
        x = (x * 3.7 + 0.31) % 97.0 - 48.0;
        let hi = cvt_rna_tf32(x);
        assert_eq!(hi.to_bits() & 0x1fff, 0, "{x}: low 13 bits of {hi}");
        assert!((x - hi).abs() <= half * x.abs(), "{x} → {hi}: more than half a tf32 ulp away");
        let lo = cvt_rna_tf32(x - hi);
        assert!(((x as f64) - (hi as f64) - (lo as f64)).abs() <= 2f64.powi(-22) * (x as f64).abs(), "{x} = {hi} + {lo} + more than 2^-22·|x|");
    }
}

/// The emulator's tf32 wgmma with A in registers: each thread supplies A(16w + g, t),
/// A(16w + g + 8, t), A(16w + g, t + 4), A(16w + g + 8, t + 4); B (8×128) is read K-major from
/// 128-byte swizzled rows, as rung 15 stores A's tile; the low 13 bits of every input are ignored.
#[test]
fn tf32_wgmma_takes_a_from_registers_in_the_fragment_layout() {
    use kernels_gpu::device::emulator::{self, EmulatedLaunch};
    use kernels_gpu::device::emulator::twins::*;
    use kernels_gpu::swizzle::swizzle_128b;
    use std::sync::Mutex;
    // Small integers plus a bit below tf32's precision, which the tensor cores must drop.
    let noisy = |v: i32| v as f32 + v.signum() as f32 * 2f32.powi(-15);
    let int = |i: usize, m: usize| ((i * m) % 13) as i32 - 6;
    let a: Vec<i32> = (0..64 * 8).map(|i| int(i, 7)).map(|v| if v == 0 { 1 } else { v }).collect();
    let b: Vec<i32> = (0..8 * 128).map(|i| int(i, 5)).map(|v| if v == 0 { -1 } else { v }).collect();
    let out = Mutex::new(vec![f32::NAN; 64 * 128]);
    let launch = EmulatedLaunch { kernel: "tf32_wgmma", grid: (1, 1, 1), threads: 128, smem_bytes: 128 * 128, regions: &[] };
    emulator::launch(&launch, &|| unsafe {
        let smem = dynamic_shared::<u8>();
        let tid = thread_idx() as usize;
        // B(k, n) at row n, column k of a tile of 128-byte rows (K-major), swizzled.
        let n = tid;
        for k in 0..8 {
            let p = smem.add(swizzle_128b((n * 128 + k * 4) as u32) as usize) as *mut f32;
            store(p, noisy(b[k * 128 + n]));
        }
        sync_threads();
        let (w, g, t) = (tid / 32, tid % 32 / 4, tid % 4);
        let at = |r: usize, k: usize| noisy(a[r * 8 + k]).to_bits();
        let frag = [at(16 * w + g, t), at(16 * w + g + 8, t), at(16 * w + g, t + 4), at(16 * w + g + 8, t + 4)];
        let desc = matrix_descriptor(shared_address(smem), 16, 1024, kernels_gpu::spec::Swizzle::B128);
        let mut d = [0.0f32; 64];
        wgmma_m64n128k8_tf32_rs(&mut d, frag, desc, false);
        let mut out = out.lock().unwrap();
        for (i, v) in d.iter().enumerate() {
            let (j, e) = (i / 4, i % 4);
            out[(16 * w + g + 8 * (e / 2)) * 128 + 8 * j + 2 * t + e % 2] = *v;
        }
    })
    .unwrap();
    let out = out.into_inner().unwrap();
    for r in 0..64 {
        for c in 0..128 {
            let want: i32 = (0..8).map(|k| a[r * 8 + k] * b[k * 128 + c]).sum();
            assert_eq!(out[r * 128 + c], want as f32, "element ({r}, {c})");
        }
    }
}

/// Short K, where the split's own error (not the sum's) decides: every rung-15 kernel on the GPU
/// edge sizes, on the emulator, judged by the rung's error model (`ErrorModel::TF32X3`). Judged by
/// the fp32 FMA model instead, every rung-15 kernel fails at 4×4×1 (one element 2⁻²³ off where
/// fp32's bound is 2⁻²⁴): the split's error is the method's, not a fault.
#[test]
fn every_rung_15_kernel_passes_its_model_on_short_k() {
    for kernel in tf32x3_kernels() {
        for (i, shape) in [(4, 4, 1), (4, 8, 1), (1, 7, 3), (13, 17, 19), (31, 33, 29), (64, 64, 64)].into_iter().enumerate() {
            for (alpha, beta) in [(1.0, 0.0), (-0.75, 1.5)] {
                let p = problem_for(kernel, shape, 0, alpha);
                let p = Problem { beta, ..p };
                let verdict = emulate::verify(kernel, &p, 1 + i as u64).unwrap_or_else(|e| panic!("{} on {p}: {e}", kernel.name()));
                assert!(verdict.passed(), "{} on {p}: {verdict}", kernel.name());
            }
        }
    }
    assert_eq!(check::ErrorModel::of(tf32x3_kernels()[0].spec), check::ErrorModel::TF32X3);
}
