//! What a dependent can do without a GPU, on stable Rust: plan products, read the catalog and the
//! shipped PTX, and get typed errors.

use rgemm::api::{Gemm, KernelChoice};
use rgemm::catalog::{self, Dtype};
use rgemm::{Error, Layout};

#[test]
fn plans_a_linear_layer_and_a_decode_step() {
    let prefill = rgemm_consumer::linear_layer_plan(2048, 4096, 11008, 132).unwrap();
    let decode = rgemm_consumer::linear_layer_plan(1, 4096, 11008, 132).unwrap();
    assert!(prefill.starts_with("bgemm_"), "{prefill}");
    assert!(decode.contains("gemv"), "{decode}");
}

#[test]
fn every_plan_the_choice_makes_is_runnable() {
    for (m, n, k) in [(1, 1, 1), (7, 4096, 4096), (333, 4099, 1021), (4096, 4096, 4096)] {
        for dtype in [Dtype::F32, Dtype::Bf16, Dtype::F16] {
            for layout in Layout::ALL {
                let p = Gemm::new(m, n, k).layout(layout).problem().unwrap();
                let plan = rgemm::choice::plan(dtype, &p, &KernelChoice::Auto, 132).unwrap();
                assert_eq!(plan.kernel().spec.dtype, dtype, "{}", plan.name());
                assert!(plan.kernel().geometry(&p).is_ok() || plan.staged() != [false, false] || plan.splits() > 1, "{} does not take {p}", plan.name());
            }
        }
    }
}

#[test]
fn the_shipped_ptx_holds_every_catalog_kernel() {
    let entries = rgemm::ptx::entry_names(rgemm::ptx::PTX);
    assert!(catalog::all().count() > 100);
    for kernel in catalog::all() {
        assert!(entries.contains(&kernel.name()), "{} is not in the shipped PTX", kernel.name());
    }
}

#[test]
fn bad_input_is_a_typed_error() {
    assert!(matches!(Gemm::new(0, 8, 8).problem(), Err(Error::InvalidProblem(_))));
    assert!(matches!(catalog::find("no_such_kernel"), Err(Error::UnknownKernel { .. })));
    // K = 0 is C = beta·C.
    let p = Gemm::new(8, 8, 0).scalars(1.0, 0.5).problem().unwrap();
    assert_eq!(rgemm::choice::plan(Dtype::F32, &p, &KernelChoice::Auto, 132).unwrap().name(), "reduce_splits");
}

#[test]
fn opening_a_gpu_without_one_is_an_error_not_a_panic() {
    // On a machine with a GPU this opens it; without a driver it is `NoDriver` or `NoDevice`.
    match rgemm::Gpu::open() {
        Ok(gpu) => assert!(gpu.info.multiprocessors > 0),
        Err(e) => assert!(matches!(e, Error::NoDriver | Error::NoDevice(_) | Error::UnsupportedDevice { .. }), "{e}"),
    }
}
