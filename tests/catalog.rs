//! The catalog's invariants, checked on the CPU for every kernel and for random problems.

use proptest::prelude::*;
use rgemm::catalog::{self, Dtype, KernelSpec, MAX_GRID_Y};
use rgemm::{Error, Problem};

/// The naming scheme: `{sgemm|bgemm|hgemm}_{NN}_{slug}_{BM}x{BN}x{BK}[_w{WM}x{WN}][_t{TM}x{TN}][_s{S}]`.
fn canonical_name(s: &KernelSpec) -> String {
    let t = &s.tile;
    let prefix = match s.dtype {
        Dtype::F32 => "sgemm",
        Dtype::Bf16 => "bgemm",
        Dtype::F16 => "hgemm",
    };
    let mut name = format!("{prefix}_{:02}_{}_{}x{}x{}", s.rung.number, s.rung.slug, t.bm, t.bn, t.bk);
    if t.wm > 1 || t.wn > 1 {
        name += &format!("_w{}x{}", t.wm, t.wn);
    }
    if t.tm > 1 || t.tn > 1 {
        name += &format!("_t{}x{}", t.tm, t.tn);
    }
    if t.stages > 1 {
        name += &format!("_s{}", t.stages);
    }
    name
}

#[test]
fn every_kernel_is_named_by_the_scheme_and_unique() {
    let mut seen = std::collections::HashSet::new();
    for k in catalog::all() {
        assert_eq!(k.name(), canonical_name(k.spec), "kernel name does not follow the scheme");
        assert!(seen.insert(k.name()), "{} appears twice", k.name());
    }
    assert!(seen.len() >= 3);
}

#[test]
fn every_kernel_fits_hopper() {
    for k in catalog::all() {
        assert_eq!(k.config_error(), None, "{}", k.name());
        assert!(k.spec.threads % 32 == 0, "{}: threads must be whole warps", k.name());
    }
}

#[test]
fn rungs_are_in_ladder_order() {
    let numbers: Vec<u8> = catalog::all().map(|k| k.spec.rung.number).collect();
    assert!(numbers.windows(2).all(|w| w[0] <= w[1]), "{numbers:?}");
}

#[test]
fn unknown_names_get_suggestions() {
    let Err(Error::UnknownKernel { suggestions, .. }) = catalog::find("smem_tiling") else { panic!("expected unknown") };
    assert!(suggestions.iter().all(|s| s.contains("smem_tiling")) && !suggestions.is_empty());
    let Err(Error::UnknownKernel { suggestions, .. }) = catalog::find("navie") else { panic!("expected unknown") };
    assert!(suggestions.iter().any(|s| s.contains("naive")), "{suggestions:?}");
    let Err(Error::UnknownKernel { suggestions, .. }) = catalog::find("zzzzzzzzzzzzzzzzzzzzzz") else { panic!() };
    assert!(suggestions.is_empty());
}

#[test]
fn bad_problems_are_rejected_with_a_reason() {
    for (m, n, k) in [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1 << 31, 1, 1), (u64::MAX, 1, 1)] {
        let e = Problem::new(m, n, k, 1.0, 0.0).unwrap_err();
        assert!(matches!(e, Error::InvalidProblem(_)), "{e}");
    }
    assert!(Problem::new(2, 2, 2, f32::NAN, 0.0).is_err());
    assert!(Problem::new(2, 2, 2, 1.0, f32::INFINITY).is_err());
}

proptest! {
    /// The grid covers C exactly: no block row or column is missing or wholly outside.
    #[test]
    fn launch_covers_the_matrix(m in 1u64..5_000_000, n in 1u64..5_000_000, k in 1u64..100) {
        let p = Problem::new(m, n, k, 1.0, 0.0).unwrap();
        for kernel in catalog::all() {
            let t = kernel.spec.tile;
            match kernel.launch(&p) {
                Ok(l) => {
                    let (gx, gy) = (l.grid.0 as u64, l.grid.1 as u64);
                    prop_assert!(gx * t.bn as u64 >= n && (gx - 1) * (t.bn as u64) < n);
                    prop_assert!(gy * t.bm as u64 >= m && (gy - 1) * (t.bm as u64) < m);
                    prop_assert_eq!(l.block.0, kernel.spec.threads);
                    prop_assert_eq!(l.smem_bytes, kernel.spec.smem_bytes);
                }
                Err(Error::Unsupported { reason, .. }) => {
                    let too_tall = m.div_ceil(t.bm as u64) > MAX_GRID_Y;
                    let per_16_bytes = 16 / kernel.spec.dtype.bytes() as u64;
                    let misaligned = kernel.spec.tensor_maps.is_some() && (k % per_16_bytes != 0 || n % per_16_bytes != 0);
                    prop_assert!(too_tall || misaligned, "rejected without cause: {}", reason);
                    prop_assert!(reason.contains("block rows") || reason.contains("16-byte-aligned rows"), "{}", reason);
                }
                Err(e) => prop_assert!(false, "unexpected error {}", e),
            }
        }
    }
}
