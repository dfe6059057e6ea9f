//! The checker itself must be right before it can judge kernels.

use proptest::prelude::*;
use rgemm::Problem;
use rgemm::catalog::Dtype;
use rgemm::verify::{Reference, Verdict};
use rgemm::check::{self, Inputs, Sample, POISON};

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
    let nan = Verdict { rel_error: f64::NAN, reference: Reference::FullF64, tolerance: check::F32_TOLERANCE, guard_writes: 0 };
    assert!(!nan.passed(), "NaN must not pass a tolerance");
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
