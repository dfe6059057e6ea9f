//! Shared by the integration tests: the GPU, opened once per test binary.
//!
//! Tests that need it are `#[ignore = "needs a GPU"]`: a run without a GPU lists them as ignored,
//! not passed, and a run with one includes them (`--include-ignored`, as the GPU bundle does).

#![allow(dead_code)]

use std::io::Write;
use std::sync::{Mutex, MutexGuard, OnceLock};

use rgemm::Gpu;

/// Writes straight to the process's stderr, which the test harness does not capture.
pub fn say(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

static GPU: OnceLock<Result<Mutex<Gpu>, String>> = OnceLock::new();

/// The GPU. A test that calls this is ignored unless asked for, so a missing or unusable GPU
/// here is a failure, never a skip.
pub fn gpu(test: &str) -> MutexGuard<'static, Gpu> {
    let opened = GPU.get_or_init(|| Gpu::open().map(Mutex::new).map_err(|e| e.to_string()));
    match opened {
        Ok(gpu) => gpu.lock().unwrap_or_else(|e| e.into_inner()),
        Err(why) => panic!("{test} needs a Hopper GPU: {why}"),
    }
}

/// The items of `items` whose index is in this process's shard ([`in_shard`]).
pub fn this_shard<T>(items: impl Iterator<Item = T>) -> impl Iterator<Item = T> {
    items.enumerate().filter(|&(i, _)| in_shard(i)).map(|(_, item)| item)
}

/// This process's share of a test that walks the whole catalog: with `RGEMM_TEST_SHARD=i/n` (as
/// the GPU bundle's `run.sh tests` sets it, to run n processes at once), the kernels whose index
/// is `i` modulo `n`; without it, every kernel. A malformed value is a failure, not a skip.
pub fn in_shard(index: usize) -> bool {
    match std::env::var("RGEMM_TEST_SHARD") {
        Err(_) => true,
        Ok(v) => {
            let parsed = v.split_once('/').and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
            match parsed {
                Some((i, n)) if i < n => index % n == i,
                _ => panic!("RGEMM_TEST_SHARD={v:?}: expected i/n with i < n"),
            }
        }
    }
}

/// The automatic plan of `p` for `dtype` operands on `gpu`, made as a caller makes it (the
/// builder, then `plan::<T>`); a test fails on an error.
pub fn auto_plan(gpu: &Gpu, p: &rgemm::Problem, dtype: rgemm::catalog::Dtype) -> rgemm::api::Plan {
    use rgemm::api::{Gemm, KernelChoice};
    use rgemm::catalog::Dtype;
    let gemm = Gemm::new(p.m as u64, p.n as u64, p.k as u64)
        .layout(p.layout)
        .scalars(p.alpha, p.beta)
        .leading_dims(p.lda as u64, p.ldb as u64, p.ldc as u64)
        .batch(p.batch as u64, p.stride_a, p.stride_b, p.stride_c);
    match dtype {
        Dtype::F32 => gemm.plan::<f32>(gpu, KernelChoice::Auto),
        Dtype::Bf16 => gemm.plan::<half::bf16>(gpu, KernelChoice::Auto),
        Dtype::F16 => gemm.plan::<half::f16>(gpu, KernelChoice::Auto),
        Dtype::E4m3 => gemm.plan::<rgemm::E4m3>(gpu, KernelChoice::Auto),
    }
    .unwrap_or_else(|e| panic!("{p}: {e}"))
}
