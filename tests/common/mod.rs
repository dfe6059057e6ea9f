//! Shared by the integration tests: the GPU (opened once per test binary) and loud skipping.

#![allow(dead_code)]

use std::io::Write;
use std::sync::{Mutex, MutexGuard, OnceLock};

use rgemm::Gpu;

/// Writes straight to the process's stderr, which the test harness does not capture, so a
/// skipped test is visible in every run.
pub fn say(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

/// The opened GPU, or whether the failure means "no Hopper GPU here" and its message.
static GPU: OnceLock<Result<Mutex<Gpu>, (bool, String)>> = OnceLock::new();

/// The GPU, or `None` after printing why the calling test is skipped. Under `RGEMM_REQUIRE_GPU=1`
/// (set by the GPU bundle) a missing GPU is a failure instead.
///
/// Only the absence of a Hopper GPU skips: with one present, anything else that stops `Gpu::open`
/// (the PTX module failing to load, cuBLAS missing) is a failure, not a skip.
pub fn gpu(test: &str) -> Option<MutexGuard<'static, Gpu>> {
    let opened = GPU.get_or_init(|| {
        Gpu::open().map(Mutex::new).map_err(|e| {
            let no_gpu = matches!(e, rgemm::Error::NoDriver | rgemm::Error::NoDevice(_) | rgemm::Error::UnsupportedDevice { .. });
            (no_gpu, e.to_string())
        })
    });
    match opened {
        Ok(gpu) => Some(gpu.lock().unwrap_or_else(|e| e.into_inner())),
        Err((no_gpu, why)) => {
            let (no_gpu, why) = (*no_gpu, why.as_str());
            if !no_gpu {
                panic!("{test}: the GPU is there but cannot be used: {why}");
            }
            if std::env::var("RGEMM_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("{test}: RGEMM_REQUIRE_GPU=1 but there is no usable GPU: {why}");
            }
            say(&format!("SKIPPED {test}: needs a GPU: {why}"));
            None
        }
    }
}
