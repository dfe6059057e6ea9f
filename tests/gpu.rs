//! Every kernel of the catalog against the f64 reference on the GPU: fixed edge cases, then
//! proptest-drawn sizes and scalars, long K, and the checker's own ability to fail. Every test
//! needs a GPU and is ignored unless asked for: `cargo test --test gpu -- --include-ignored`
//! (the GPU bundle's `run.sh tests` does).

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rgemm::catalog::{self, Dtype, Kernel};
use rgemm_tools::check::{self, Inputs};
use rgemm_tools::baseline::{CublasExt, Library};
use rgemm_tools::verify::{verify, verify_with, Operands, Reference, MIN_GUARD_BYTES};
use rgemm::{Gpu, Problem};

/// The problem a kernel is tested on, in the kernel's layout: kernels that load through the copy
/// engine (TMA) need 16-byte rows (the catalog rejects the rest, see tests/catalog.rs), so for
/// them the sizes that are stored row lengths (K or M for A, N or K for B, N for C) are rounded
/// up to whole 16 bytes. Every other kernel gets the sizes as drawn.
fn fit(kernel: Kernel, problem: &Problem) -> Problem {
    let layout = kernel.spec.layout;
    let (mut m, mut n, mut k) = (problem.m as u64, problem.n as u64, problem.k as u64);
    if kernel.spec.tensor_maps.is_some() {
        let align = (16 / kernel.spec.dtype.bytes()) as u64;
        let round = |v: &mut u64| *v = v.next_multiple_of(align);
        round(if layout.a.is_t() { &mut m } else { &mut k });
        round(if layout.b.is_t() { &mut k } else { &mut n });
        round(&mut n);
    }
    Problem::general(m, n, k, problem.alpha, problem.beta, layout, Default::default(), rgemm::Batch::packed(1))
        .expect("a valid problem stays valid with its sizes rounded up")
}

fn check(gpu: &Gpu, kernel: Kernel, problem: &Problem, seed: u64) -> Result<(), TestCaseError> {
    let problem = &fit(kernel, problem);
    let verdict = verify(gpu, kernel, problem, seed).map_err(|e| TestCaseError::fail(format!("{}: {e}", kernel.name())))?;
    if verdict.passed() {
        Ok(())
    } else {
        Err(TestCaseError::fail(format!("{} on {problem}, seed {seed}: {verdict}", kernel.name())))
    }
}

/// The check must be able to fail: a launch that skips the work, an off-by-one in K, and a
/// launch over a larger M (writing the row past C) are each caught.
#[test]
#[ignore = "needs a GPU"]
fn the_check_catches_wrong_results() {
    let guard = common::gpu("the_check_catches_wrong_results");
    let gpu: &Gpu = &guard;
    let kernel = catalog::all().next().unwrap();
    for (m, n, k, beta) in [(33, 17, 9, 0.0), (33, 17, 9, 0.5), (1100, 1100, 1000, 0.0)] {
        let p = Problem::new(m, n, k, 1.0, beta).unwrap();
        let launch = |q: Problem| {
            move |ops: &Operands| {
                let (a, b, c) = ops.addresses(gpu);
                // SAFETY: deliberately wrong sizes; the guard bands around C and the NaN-free
                // operands absorb the overrun of one row or one K (that is what is tested).
                Ok(unsafe { gpu.launch(kernel, &kernel.geometry(&q)?, &q, a, b, c) }?)
            }
        };
        let skipped = verify_with(gpu, &p, kernel.spec.dtype, 7, |_| Ok(())).unwrap().0;
        assert!(!skipped.passed(), "no launch at all passed: {skipped}");
        let short_k = verify_with(gpu, &p, kernel.spec.dtype, 7, launch(Problem { k: k as u32 - 1, lda: k as u32 - 1, ..p })).unwrap().0;
        assert!(!short_k.passed(), "K - 1 passed: {short_k}");
        let tall = verify_with(gpu, &p, kernel.spec.dtype, 7, launch(Problem { m: m as u32 + 1, ..p })).unwrap().0;
        assert!(!tall.passed() && tall.guard_writes > 0, "a write past C passed: {tall}");
        assert!(verify_with(gpu, &p, kernel.spec.dtype, 7, launch(p)).unwrap().0.passed());
    }
}

/// Finding 2: the guard bands were 1024 floats, so a write more than 4 KiB past C, or into A or
/// B, went unseen. A right C with a stray write 8 KiB past it, 64 KiB past it, a whole row of a
/// wide C past it, or into A or B, fails.
#[test]
#[ignore = "needs a GPU"]
fn stray_writes_far_past_c_and_into_the_inputs_are_caught() {
    let guard = common::gpu("stray_writes_far_past_c_and_into_the_inputs_are_caught");
    let gpu: &Gpu = &guard;
    let kernel = catalog::all().next().unwrap();
    let one = Problem::new(1, 1, 1, 1.0, 0.0).unwrap();
    for (m, n) in [(33, 17), (40, 20_000)] {
        let p = Problem::new(m, n, 9, 1.0, 0.0).unwrap();
        let c_bytes = 4 * (m * n) as u64;
        let row = 4 * n as u64;
        for past in [8 << 10, MIN_GUARD_BYTES - 4, row + 4] {
            if past + 4 > rgemm_tools::verify::guard_bytes(row) {
                continue;
            }
            let verdict = verify_with(gpu, &p, Dtype::F32, 3, |ops| {
                ops.launch(gpu, kernel, &kernel.geometry(&p)?)?;
                let (a, b, c) = ops.addresses(gpu);
                // SAFETY: one float at `past` bytes beyond C, inside C's guard band.
                Ok(unsafe { gpu.launch(kernel, &kernel.geometry(&one)?, &one, a, b, c + c_bytes + past) }?)
            })
            .unwrap()
            .0;
            assert!(!verdict.passed() && verdict.guard_writes == 1 && verdict.comparison.passed(), "{past} bytes past C: {verdict}");
        }
        for (name, into) in [("A", 0), ("B", 1)] {
            let verdict = verify_with(gpu, &p, Dtype::F32, 3, |ops| {
                ops.launch(gpu, kernel, &kernel.geometry(&p)?)?;
                let (a, b, _) = ops.addresses(gpu);
                let target = if into == 0 { a } else { b };
                // SAFETY: one float written at element 1 of A or B, which hold at least 9 floats.
                Ok(unsafe { gpu.launch(kernel, &kernel.geometry(&one)?, &one, a, b, target + 4) }?)
            })
            .unwrap()
            .0;
            assert!(!verdict.passed() && verdict.input_writes == 1 && verdict.comparison.passed(), "a write into {name}: {verdict}");
        }
    }
}

/// Finding 1 on the GPU: every kernel passes at K = 2²⁰ (the full f64 reference), and the best
/// kernel of each type at 128×128×2²⁰ (against cuBLAS and sampled f64).
#[test]
#[ignore = "needs a GPU"]
fn every_kernel_passes_at_k_2_pow_20() {
    let gpu = common::gpu("every_kernel_passes_at_k_2_pow_20");
    let mut failures = Vec::new();
    for (i, kernel) in common::this_shard(catalog::all().enumerate()) {
        let (alpha, beta) = if i % 2 == 0 { (1.0, 0.0) } else { (-0.5, 1.25) };
        let p = Problem::new(16, 24, 1 << 20, alpha, beta).unwrap();
        if let Err(e) = check(&gpu, kernel, &p, 21) {
            failures.push(e.to_string());
        }
    }
    // The best kernels once, in the first shard.
    for &(_, dtype) in rgemm::choice::BEST_ALIASES.iter().filter(|_| common::in_shard(0)) {
        if let Some(&kernel) = catalog::ladder(dtype).last() {
            let p = fit(kernel, &Problem::new(128, 128, 1 << 20, 1.0, 0.0).unwrap());
            match verify(&gpu, kernel, &p, 22) {
                Ok(v) if v.passed() && v.reference == Reference::CublasAndSampledF64 => {}
                other => failures.push(format!("{} on {p}: {other:?}", kernel.name())),
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Finding 1: one element of a correct 8192³ result off by 1e-3 of its row's ‖a‖·‖b‖ fails the
/// comparison with cuBLAS (f32 and bf16 kernels), and the same result without it passes.
#[test]
#[ignore = "needs a GPU"]
fn one_wrong_element_fails_at_8192_cubed() {
    let guard = common::gpu("one_wrong_element_fails_at_8192_cubed");
    let gpu: &Gpu = &guard;
    let p = Problem::new(8192, 8192, 8192, 1.0, 0.0).unwrap();
    let one = gpu.upload(&[1.0f32]).unwrap();
    let (row, col) = (5000usize, 8191usize);
    for dtype in [Dtype::F32, Dtype::Bf16] {
        let kernel = rgemm::choice::resolve(if dtype == Dtype::F32 { "best" } else { "best-bf16" }, &p).unwrap();
        let right = verify(gpu, kernel, &p, 31).unwrap();
        assert!(right.passed() && right.reference == Reference::CublasAndSampledF64, "{}: {right}", kernel.name());
        let inputs = Inputs::random(&p, dtype, 31);
        let (rows, cols) = check::row_and_column_norms(&p, &inputs);
        let delta = 1e-3 * rows[row] * cols[col];
        let bump = Problem::new(1, 1, 1, delta as f32, 1.0).unwrap();
        let wrong = verify_with(gpu, &p, dtype, 31, |ops| {
            ops.launch(gpu, kernel, &kernel.geometry(&p)?)?;
            let target = ops.addresses(gpu).2 + 4 * (row * 8192 + col) as u64;
            // SAFETY: C[row, col] += delta·1·1: a 1×1×1 product on one float of C.
            unsafe { gpu.cublas(Library::Classic, Dtype::F32, &bump, one.addr(gpu), one.addr(gpu), target, 0, 0) }
        })
        .unwrap()
        .0;
        assert!(!wrong.passed() && wrong.comparison.over == 1, "{}: {wrong}", kernel.name());
    }
}

/// Finding 4: operands launch only the problem they were made for, and only kernels of their
/// element type.
#[test]
#[ignore = "needs a GPU"]
fn operands_launch_their_own_problem_only() {
    let gpu = common::gpu("operands_launch_their_own_problem_only");
    let p = Problem::new(70, 50, 30, 1.0, 0.0).unwrap();
    let inputs = Inputs::random(&p, Dtype::F32, 2);
    let ops = Operands::upload(&gpu, &p, &inputs).unwrap();
    assert_eq!(ops.problem(), &p);
    let bf16 = catalog::ladder(Dtype::Bf16)[0];
    assert!(bf16.geometry(&p).is_err() || ops.launch(&gpu, bf16, &bf16.geometry(&p).unwrap()).is_err(), "a bf16 kernel on f32 operands");
    let kernel = catalog::all().next().unwrap();
    let other = Problem::new(71, 50, 30, 1.0, 0.0).unwrap();
    assert!(ops.launch(&gpu, kernel, &kernel.geometry(&other).unwrap()).is_err() || kernel.geometry(&other).unwrap() == kernel.geometry(&p).unwrap());
    let timed = rgemm_tools::verify::time_against_cublas(&gpu, kernel, &ops, 1, 2).unwrap();
    assert!(timed.kernel.median_ms() > 0.0 && timed.best_cublas().1.median_ms() > 0.0);
    let outcome = ops.inspect(&gpu).unwrap();
    assert_eq!((outcome.c.len(), outcome.guard_writes, outcome.input_writes), (70 * 50, 0, 0));
}

/// CI checks spills with its own ptxas; the driver of the GPU compiles the PTX again with its own
/// version, which can need a few more registers. What runs must not use local memory either.
#[test]
#[ignore = "needs a GPU"]
fn the_driver_compiles_every_kernel_without_local_memory() {
    let gpu = common::gpu("the_driver_compiles_every_kernel_without_local_memory");
    let mut offenders = Vec::new();
    for kernel in catalog::all() {
        let (regs, local) = gpu.compiled_resources(kernel).unwrap();
        if local > 0 {
            offenders.push(format!("{}: {local} bytes of local memory per thread ({regs} registers)", kernel.name()));
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

/// Sizes that break tail handling: 1, primes, one past a power of two, and tile multiples.
const EDGES: &[(u64, u64, u64)] = &[(1, 1, 1), (1, 7, 3), (7, 1, 5), (3, 5, 1), (13, 17, 19), (31, 33, 29), (64, 64, 64), (127, 129, 131), (513, 513, 513), (256, 128, 8), (2, 600, 3), (600, 2, 599)];

#[test]
#[ignore = "needs a GPU"]
fn every_kernel_on_edge_sizes() {
    let gpu = common::gpu("every_kernel_on_edge_sizes");
    let mut failures = Vec::new();
    for kernel in common::this_shard(catalog::all()) {
        for (i, &(m, n, k)) in EDGES.iter().enumerate() {
            for (alpha, beta) in [(1.0, 0.0), (-0.75, 1.5)] {
                let problem = Problem::new(m, n, k, alpha, beta).unwrap();
                if let Err(e) = check(&gpu, kernel, &problem, 1000 + i as u64) {
                    failures.push(e.to_string());
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

fn scalars() -> impl Strategy<Value = (f32, f32)> {
    let beta = prop_oneof![Just(0.0f32), -2.0f32..2.0];
    (-2.0f32..2.0, beta)
}

/// At least 100 random cases per kernel, sizes 1..=600.
#[test]
#[ignore = "needs a GPU"]
fn every_kernel_on_random_sizes() {
    let gpu = common::gpu("every_kernel_on_random_sizes");
    for kernel in common::this_shard(catalog::all()) {
        let mut runner = TestRunner::new(Config { cases: 100, failure_persistence: None, ..Config::default() });
        let result = runner.run(&(1u64..=600, 1u64..=600, 1u64..=600, scalars(), any::<u64>()), |(m, n, k, (alpha, beta), seed)| {
            check(&gpu, kernel, &Problem::new(m, n, k, alpha, beta).unwrap(), seed)
        });
        if let Err(e) = result {
            panic!("{}: {e}", kernel.name());
        }
    }
}

/// Tile-shape fuzzing: a random configuration of the catalog on a random problem up to 2048, 500
/// cases; a failure shrinks towards the first configuration and the smallest sizes.
#[test]
#[ignore = "needs a GPU"]
fn fuzz_tile_shapes() {
    let gpu = common::gpu("fuzz_tile_shapes");
    let kernels: Vec<Kernel> = catalog::all().collect();
    let mut runner = TestRunner::new(Config { cases: 500, failure_persistence: None, ..Config::default() });
    let sizes = prop_oneof![1u64..=64, 1u64..=2048];
    let result = runner.run(&(0..kernels.len(), sizes.clone(), sizes.clone(), sizes, scalars(), any::<u64>()), |(i, m, n, k, (alpha, beta), seed)| {
        check(&gpu, kernels[i], &Problem::new(m, n, k, alpha, beta).unwrap(), seed)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Kernels that load through tensor maps accept only N and K that are multiples of 8 (16-byte
/// rows), which random sizes rarely are: 100 more cases each with N and K drawn as multiples of
/// 8 (M anything), up to 1200, so several tiles, clusters and persistent loops are crossed.
#[test]
#[ignore = "needs a GPU"]
fn tma_kernels_on_random_aligned_sizes() {
    let gpu = common::gpu("tma_kernels_on_random_aligned_sizes");
    let tma = catalog::all().filter(|k| k.spec.tensor_maps.is_some());
    for kernel in common::this_shard(tma) {
        let mut runner = TestRunner::new(Config { cases: 100, failure_persistence: None, ..Config::default() });
        let result = runner.run(&(1u64..=1200, 1u64..=150, 1u64..=150, scalars(), any::<u64>()), |(m, n8, k8, (alpha, beta), seed)| {
            check(&gpu, kernel, &Problem::new(m, 8 * n8, 8 * k8, alpha, beta).unwrap(), seed)
        });
        if let Err(e) = result {
            panic!("{}: {e}", kernel.name());
        }
    }
}
