//! The checker itself must be right before it can judge kernels.

use proptest::prelude::*;
use rgemm::Problem;
use rgemm::catalog::Dtype;
use rgemm_tools::verify::{Reference, Verdict};
use rgemm_tools::check::{self, Comparison, ErrorModel, Inputs, Sample, POISON};

/// The definition of C = alpha·A·B + beta·C as three loops, in f64.
fn triple_loop(p: &Problem, x: &Inputs) -> Vec<f64> {
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let dot: f64 = (0..k).map(|l| x.a[i * k + l] as f64 * x.b[l * n + j] as f64).sum();
            let old = if p.beta == 0.0 { 0.0 } else { p.beta as f64 * x.c[i * n + j] as f64 };
            c[i * n + j] = p.alpha as f64 * dot + old;
        }
    }
    c
}

fn problem() -> impl Strategy<Value = Problem> {
    (1u64..40, 1u64..40, 1u64..40, -2.0f32..2.0, prop_oneof![Just(0.0f32), -2.0f32..2.0])
        .prop_map(|(m, n, k, alpha, beta)| Problem::new(m, n, k, alpha, beta).unwrap())
}

proptest! {
    #[test]
    fn reference_matches_the_definition(p in problem(), seed in any::<u64>()) {
        let x = Inputs::random(&p, Dtype::F32, seed);
        let want = triple_loop(&p, &x);
        let got = check::reference(&p, &x);
        for (g, w) in got.iter().zip(&want) {
            prop_assert!((g - w).abs() <= 1e-12 * (1.0 + w.abs()), "{g} vs {w}");
        }
    }

    #[test]
    fn inputs_are_random_and_poisoned_only_when_c_is_not_read(p in problem(), seed in any::<u64>()) {
        let x = Inputs::random(&p, Dtype::F32, seed);
        prop_assert!(x.a.iter().all(|v| (-1.0..1.0).contains(v)));
        prop_assert!(x.a.len() < 4 || x.a.iter().any(|&v| v != x.a[0]), "A is constant");
        if p.beta == 0.0 {
            prop_assert!(x.c.iter().all(|v| v.to_bits() == POISON.to_bits()));
        } else {
            prop_assert!(x.c.iter().all(|v| v.is_finite()));
        }
    }

    #[test]
    fn sampled_error_agrees_with_full_error(p in problem(), seed in any::<u64>(), bump in 1e-3f32..1.0) {
        let x = Inputs::random(&p, Dtype::F32, seed);
        let exact: Vec<f32> = triple_loop(&p, &x).iter().map(|&v| v as f32).collect();
        let sample = Sample::random(&p, 4, seed);
        prop_assert!(sample.relative_error(&p, &x, &exact) < 1e-6);
        // Corrupt one sampled element: the sampled check must see it.
        let mut wrong = exact.clone();
        let (row, col) = (sample.rows[0], sample.cols[0]);
        wrong[row * p.n as usize + col] += bump;
        prop_assert!(sample.relative_error(&p, &x, &wrong) > 1e-6);
    }
}

#[test]
fn nan_and_infinity_fail_the_error() {
    assert!(check::relative_error([(f32::NAN, 1.0)]).is_nan());
    assert!(check::relative_error([(1.0, 1.0), (f32::INFINITY, 1.0)]).is_nan());
    assert_eq!(check::relative_error([(1.0, 1.0), (2.0, 2.0)]), 0.0);
    let e = check::relative_error([(1.1, 1.0)]);
    assert!((e - 0.1).abs() < 1e-6, "{e}");
    for bad in [f32::NAN, f32::INFINITY] {
        let mut cmp = Comparison::default();
        cmp.add(0, 0, 1.0, 1.0, 1e-6);
        cmp.add(0, 1, bad, 1.0, f64::INFINITY);
        assert!(!cmp.passed() && cmp.worst_ratio.is_nan() && cmp.relative_error().is_nan(), "{cmp}");
        let verdict = Verdict { reference: Reference::FullF64, comparison: cmp, sampled: None, guard_writes: 0, input_writes: 0 };
        assert!(!verdict.passed(), "{bad} must not pass any bound: {verdict}");
    }
    // A zero bound admits only the exact value.
    let mut exact = Comparison::default();
    exact.add(0, 0, 0.0, 0.0, 0.0);
    assert!(exact.passed());
    exact.add(0, 1, 1e-30, 0.0, 0.0);
    assert!(!exact.passed());
}

#[test]
fn stray_writes_fail_a_right_result() {
    let mut cmp = Comparison::default();
    cmp.add(0, 0, 1.0, 1.0, 1e-6);
    let clean = Verdict { reference: Reference::FullF64, comparison: cmp, sampled: None, guard_writes: 0, input_writes: 0 };
    assert!(clean.passed(), "{clean}");
    let guard = Verdict { guard_writes: 1, ..clean.clone() };
    assert!(!guard.passed() && guard.to_string().contains("guard-band"), "{guard}");
    let input = Verdict { input_writes: 3, ..clean.clone() };
    assert!(!input.passed() && input.to_string().contains("inputs A and B"), "{input}");
}

/// A length-K dot product accumulated in f32 with FMAs, left to right, as the simplest kernels do.
fn f32_fma_dot(a: &[f32], b: &[f32], n: usize, row: usize, col: usize, k: usize) -> f32 {
    (0..k).fold(0.0f32, |acc, i| a[row * k + i].mul_add(b[i * n + col], acc))
}

/// Finding 1: fixed tolerances do not scale with K. A correct f32 computation at K = 2²⁰ had a
/// relative Frobenius error above the old 1e-5 tolerance; it is well within its bound.
#[test]
fn a_correct_f32_product_passes_at_k_2_pow_20() {
    let p = Problem::new(4, 3, 1 << 20, 1.0, 0.0).unwrap();
    let x = Inputs::random(&p, Dtype::F32, 11);
    let (m, n, k) = (4, 3, 1 << 20);
    let got: Vec<f32> = (0..m * n).map(|i| f32_fma_dot(&x.a, &x.b, n, i / n, i % n, k)).collect();
    let cmp = check::compare_full(&p, &x, &ErrorModel::FMA_F32, &got);
    assert!(cmp.passed(), "{cmp}");
    assert!(cmp.worst_ratio < 0.1, "a correct product sits well inside its bound: {cmp}");
    // The worst-case bound is looser still, and the probabilistic one tighter than it at this K.
    assert!(ErrorModel::FMA_F32.gamma(1 << 20) < ErrorModel::FMA_F32.worst_case_gamma(1 << 20) / 50.0);
}

/// The bound grows as √K in the probabilistic regime, linearly (the worst case) for small K, and
/// a tensor core's truncating sums get twice the unit round-off.
#[test]
fn the_bound_follows_the_error_analysis() {
    let f = ErrorModel::FMA_F32;
    let u = 2f64.powi(-24);
    assert!((f.worst_case_gamma(8) - 10.0 * u / (1.0 - 10.0 * u)).abs() < 1e-20);
    assert_eq!(f.gamma(8), f.worst_case_gamma(8), "for small K the worst case is the smaller");
    let ratio = f.gamma(4 << 20) / f.gamma(1 << 20);
    assert!((ratio - 2.0).abs() < 0.01, "four times K, twice the bound: {ratio}");
    assert!((ErrorModel::TENSOR_CORE_F32.gamma(1 << 16) / f.gamma(1 << 16) - 2.0).abs() < 0.01);
    assert!(f.bound((1u32 << 31) - 1, 1.0).is_finite());
    // An operand rounding the reference does not see adds about twice its unit round-off.
    let tf = ErrorModel { operand_rounding: 2f64.powi(-11), ..f };
    assert!((tf.gamma(8) - f.gamma(8) - 2.0 * 2f64.powi(-11)).abs() < 1e-6);
}

/// Finding 1, the other way: at 8192² one element off by 1e-3 of its row's ‖a‖·‖b‖ fails the
/// element-wise check; the old relative Frobenius error of the same C was below 1e-5 (it passed).
#[test]
fn one_wrong_element_fails_at_8192_squared() {
    let p = Problem::new(8192, 8192, 16, 1.0, 0.0).unwrap();
    let x = Inputs::random(&p, Dtype::F32, 5);
    let mut got: Vec<f32> = check::reference(&p, &x).iter().map(|&v| v as f32).collect();
    assert!(check::compare_full(&p, &x, &ErrorModel::FMA_F32, &got).passed());
    let (rows, cols) = check::row_and_column_norms(&p, &x);
    let (row, col) = (4321, 1234);
    got[row * 8192 + col] += (1e-3 * rows[row] * cols[col]) as f32;
    let cmp = check::compare_full(&p, &x, &ErrorModel::FMA_F32, &got);
    assert!(!cmp.passed() && cmp.over == 1, "{cmp}");
    assert_eq!(cmp.worst.map(|w| (w.0, w.1)), Some((row, col)));
    assert!(cmp.relative_error() < 1e-5, "the old tolerance would have passed it: {cmp}");
}

/// At 8192³ C is compared with cuBLAS, each element within the sum of both bounds (on
/// ‖aᵢ‖·‖bⱼ‖): the sum is still small enough that one element off by 1e-3·‖aᵢ‖·‖bⱼ‖ fails, for
/// f32 and for tensor-core accumulation, while differences of rounding size pass.
#[test]
fn one_wrong_element_fails_against_cublas_at_8192_cubed() {
    let p = Problem::new(8192, 8192, 8192, 1.0, 0.0).unwrap();
    let x = Inputs::random(&p, Dtype::Bf16, 9);
    let (rows, cols) = check::row_and_column_norms(&p, &x);
    // Stand-ins for the two results: plausible magnitudes (√(K/9) ≈ 30), and a second result off
    // by a few units in the last place, as two summation orders are.
    let got: Vec<f32> = (0..8192 * 8192).map(|i| ((i * 7919) % 61) as f32 - 30.0).collect();
    let other: Vec<f32> = got.iter().enumerate().map(|(i, &v)| v + (i % 7) as f32 * 3.0 * f32::EPSILON * v.abs()).collect();
    for model in [ErrorModel::FMA_F32, ErrorModel::TENSOR_CORE_F32] {
        let ok = check::compare_computed(&p, &x, &model, &model, &got, &other);
        assert!(ok.passed(), "{ok}");
        let (row, col) = (8191, 17);
        let mut wrong = got.clone();
        wrong[row * 8192 + col] += (1e-3 * rows[row] * cols[col]) as f32;
        let cmp = check::compare_computed(&p, &x, &model, &model, &wrong, &other);
        assert!(!cmp.passed() && cmp.over == 1, "{cmp}");
        assert!(cmp.worst_ratio > 2.0, "caught with margin: {cmp}");
    }
}

#[test]
fn sampled_comparison_bounds_each_element() {
    let p = Problem::new(300, 200, 500, -1.5, 0.75).unwrap();
    let x = Inputs::random(&p, Dtype::F32, 3);
    let exact: Vec<f32> = check::reference(&p, &x).iter().map(|&v| v as f32).collect();
    let sample = Sample::random(&p, 6, 3);
    let model = ErrorModel::FMA_F32;
    assert!(sample.compare(&p, &x, &model, &exact).passed());
    let mut wrong = exact.clone();
    let (row, col) = (sample.rows[1], 77);
    wrong[row * 200 + col] += 0.01;
    let cmp = sample.compare(&p, &x, &model, &wrong);
    assert!(!cmp.passed() && cmp.worst.map(|w| (w.0, w.1)) == Some((row, col)), "{cmp}");
}

#[test]
fn host_memory_needs_are_computed_without_overflow() {
    // 2²² cubed is a valid problem whose M·N·K (2⁶⁶) wraps u64 and whose host need is far
    // beyond any machine.
    let p = Problem::new(1 << 22, 1 << 22, 1 << 22, 1.0, 0.0).unwrap();
    assert_eq!(p.macs(), 1u128 << 66);
    let need = check::host_bytes(&p, false).unwrap();
    assert!(need > 1 << 46, "{need}");
    let e = check::require_host_memory(Some(need)).unwrap_err().to_string();
    assert!(e.contains("not enough host memory"), "{e}");
    assert!(check::require_host_memory(None).unwrap_err().to_string().contains("more than 2"));
    assert!(rgemm_tools::verify::Operands::bytes(&Problem::new(1 << 30, 1 << 30, 1, 1.0, 0.0).unwrap()) > 1 << 62);
}

#[test]
fn half_precision_inputs_are_rounded_before_the_reference_sees_them() {
    let p = Problem::new(8, 8, 8, 1.0, 0.0).unwrap();
    for dtype in [Dtype::Bf16, Dtype::F16] {
        let x = Inputs::random(&p, dtype, 3);
        assert!(x.a.iter().all(|&v| check::round_to(dtype, v) == v));
        assert_eq!(check::encode(dtype, &x.a).len(), 2 * x.a.len());
    }
    assert_eq!(check::round_to(Dtype::Bf16, 1.0 + 1.0 / 256.0), 1.0, "ties go to even");
}

/// Finding 2: the guard bands were 1024 floats (4 KiB) whatever the matrix; each is now at least
/// one row of its matrix and at least 64 KiB, in whole 256-byte lines (C keeps cudaMalloc's
/// alignment behind its leading band).
#[test]
fn guard_bands_cover_a_row_and_64_kib() {
    use rgemm_tools::verify::{guard_bytes, MIN_GUARD_BYTES};
    assert_eq!(MIN_GUARD_BYTES, 64 << 10);
    for row in [4u64, 68, 4096, 65536, 80_000, 1 << 30] {
        let g = guard_bytes(row);
        assert!(g >= row && g >= MIN_GUARD_BYTES && g % 256 == 0 && g < row.max(MIN_GUARD_BYTES) + 256, "{row}: {g}");
    }
}
