//! Every kernel of the catalog against the f64 reference on the GPU: fixed edge cases, then
//! proptest-drawn sizes and scalars. Skipped, loudly, where there is no GPU.

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rgemm::catalog::{self, Kernel};
use rgemm::verify::{verify, verify_with, Operands};
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
/// launch over a larger M (writing past C) are each caught.
#[test]
fn the_check_catches_wrong_results() {
    let Some(guard) = common::gpu("the_check_catches_wrong_results") else { return };
    let gpu: &Gpu = &guard;
    let kernel = catalog::all().next().unwrap();
    for (m, n, k, beta) in [(33, 17, 9, 0.0), (33, 17, 9, 0.5), (1100, 1100, 1000, 0.0)] {
        let p = Problem::new(m, n, k, 1.0, beta).unwrap();
        let launch = |q: Problem| {
            move |ops: &Operands| {
                let (a, b, c) = ops.addresses(gpu);
                // SAFETY: deliberately wrong sizes; the guard bands around C and the NaN-free
                // operands absorb the overrun of one row or one K (that is what is tested).
                unsafe { gpu.launch(kernel, &kernel.geometry(&q)?, &q, a, b, c) }
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

/// CI checks spills with its own ptxas; the driver of the GPU compiles the PTX again with its own
/// version, which can need a few more registers. What runs must not use local memory either.
#[test]
fn the_driver_compiles_every_kernel_without_local_memory() {
    let Some(gpu) = common::gpu("the_driver_compiles_every_kernel_without_local_memory") else { return };
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
fn every_kernel_on_edge_sizes() {
    let Some(gpu) = common::gpu("every_kernel_on_edge_sizes") else { return };
    let mut failures = Vec::new();
    for kernel in catalog::all() {
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
fn every_kernel_on_random_sizes() {
    let Some(gpu) = common::gpu("every_kernel_on_random_sizes") else { return };
    for kernel in catalog::all() {
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
fn fuzz_tile_shapes() {
    let Some(gpu) = common::gpu("fuzz_tile_shapes") else { return };
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
fn tma_kernels_on_random_aligned_sizes() {
    let Some(gpu) = common::gpu("tma_kernels_on_random_aligned_sizes") else { return };
    for kernel in catalog::all().filter(|k| k.spec.tensor_maps.is_some()) {
        let mut runner = TestRunner::new(Config { cases: 100, failure_persistence: None, ..Config::default() });
        let result = runner.run(&(1u64..=1200, 1u64..=150, 1u64..=150, scalars(), any::<u64>()), |(m, n8, k8, (alpha, beta), seed)| {
            check(&gpu, kernel, &Problem::new(m, 8 * n8, 8 * k8, alpha, beta).unwrap(), seed)
        });
        if let Err(e) = result {
            panic!("{}: {e}", kernel.name());
        }
    }
}
