//! The catalog's invariants, checked on the CPU for every kernel and for random problems.

use proptest::prelude::*;
use rgemm::catalog::{self, Dtype, KernelSpec, MAX_GRID_Y};
use rgemm::{Error, Problem};

/// The naming scheme: `{sgemm|bgemm|hgemm|e4m3gemm}_{NN}_{slug}_{BM}x{BN}x{BK}[_w{WM}x{WN}][_t{TM}x{TN}][_s{S}][_c{C}][_persistent][_tag…][_{layout}]`
/// (the layout suffix `nt`, `tn` or `tt` exactly when the kernel reads that layout).
fn canonical_name(s: &KernelSpec) -> String {
    let t = &s.tile;
    let prefix = match s.dtype {
        Dtype::F32 => "sgemm",
        Dtype::Bf16 => "bgemm",
        Dtype::F16 => "hgemm",
        Dtype::E4m3 => "e4m3gemm",
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
    if s.cluster_m > 1 {
        name += &format!("_c{}", s.cluster_m);
    }
    if s.stream_k.is_some() {
        name += "_streamk";
    } else if s.persistent {
        name += "_persistent";
    }
    name
}

#[test]
fn every_kernel_is_named_by_the_scheme_and_unique() {
    let mut seen = std::collections::HashSet::new();
    for k in catalog::all() {
        // A rung may add lowercase variant tags, one per choice the tile shape does not say (rung
        // 10: `_at` transposed A, `_sw` swizzled A; rung 11: `_wa` one arrival per warp, then
        // `_df` double fragments).
        let canonical = canonical_name(k.spec);
        let layout = k.spec.layout;
        let name = if layout == rgemm::Layout::NN {
            k.name()
        } else {
            let suffix = format!("_{}", layout.name());
            k.name().strip_suffix(suffix.as_str()).unwrap_or_else(|| panic!("{} reads {} and must end in {suffix}", k.name(), layout.name()))
        };
        let variant = name.strip_prefix(canonical.as_str()).unwrap_or(name);
        let tag_ok = |tag: &str| tag.starts_with(|c: char| c.is_ascii_lowercase()) && tag.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        let tagged = variant.is_empty() || (variant.starts_with('_') && variant[1..].split('_').all(tag_ok));
        assert!(k.name().starts_with(&canonical) && tagged, "kernel name {} does not follow the scheme {canonical}[_tag…]", k.name());
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
    for (m, n, k) in [(0, 1, 1), (1, 0, 1), (1, 1, 1 << 31), (1 << 31, 1, 1), (u64::MAX, 1, 1)] {
        let e = Problem::new(m, n, k, 1.0, 0.0).unwrap_err();
        assert!(matches!(e, Error::InvalidProblem(_)), "{e}");
    }
    // K = 0 is a valid problem (C = beta·C), but no kernel launches it.
    let empty = Problem::new(1, 1, 0, 1.0, 0.0).unwrap();
    assert!(matches!(catalog::all().next().unwrap().geometry(&empty), Err(Error::Unsupported { .. })));
    assert!(Problem::new(2, 2, 2, f32::NAN, 0.0).is_err());
    assert!(Problem::new(2, 2, 2, 1.0, f32::INFINITY).is_err());
}

proptest! {
    /// The grid covers C exactly: no block row or column is missing or wholly outside, except
    /// that a clustered kernel's block rows are rounded up to whole clusters.
    #[test]
    fn launch_covers_the_matrix(m in 1u64..5_000_000, n in 1u64..5_000_000, k in 1u64..100) {
        for kernel in catalog::all() {
            let p = Problem::general(m, n, k, 1.0, 0.0, kernel.spec.layout, Default::default(), rgemm::Batch::packed(1)).unwrap();
            let t = kernel.spec.tile;
            match kernel.geometry(&p) {
                Ok(l) => {
                    let (gx, gy) = (l.grid.0 as u64, l.grid.1 as u64);
                    prop_assert!(gx * t.bn as u64 >= n && (gx - 1) * (t.bn as u64) < n);
                    let c = kernel.spec.cluster_m.max(1) as u64;
                    prop_assert!(gy * t.bm as u64 >= m && gy % c == 0 && (gy - c) * (t.bm as u64) < m);
                    prop_assert_eq!(l.block.0, kernel.spec.threads);
                    prop_assert_eq!(l.smem_bytes, kernel.spec.smem_bytes);
                }
                Err(Error::Unsupported { reason, .. }) => {
                    let too_tall = m.div_ceil(t.bm as u64).next_multiple_of(kernel.spec.cluster_m.max(1) as u64) > MAX_GRID_Y;
                    let per_16_bytes = 16 / kernel.spec.dtype.bytes() as u64;
                    let c_map = kernel.stores_c_by_copy_engine();
                    let misaligned = kernel.spec.tensor_maps.is_some()
                        && (p.lda as u64 % per_16_bytes != 0 || p.ldb as u64 % per_16_bytes != 0 || (c_map && p.ldc % 4 != 0));
                    prop_assert!(too_tall || misaligned, "rejected without cause: {}", reason);
                    prop_assert!(reason.contains("block rows") || reason.contains("16-byte-aligned rows"), "{}", reason);
                }
                Err(e) => prop_assert!(false, "unexpected error {}", e),
            }
        }
    }
}

#[test]
fn every_best_name_is_in_the_catalog_once_per_rung() {
    let mut seen = std::collections::HashSet::new();
    for name in catalog::BEST {
        let k = catalog::find(name).unwrap_or_else(|e| panic!("BEST lists {name}: {e}"));
        assert!(seen.insert((k.spec.rung.number, k.spec.dtype)), "BEST lists rung {} ({}) twice", k.spec.rung.number, k.spec.dtype.name());
    }
}

#[test]
fn every_rung_has_a_best_entry_or_its_first_configuration() {
    for &dtype in catalog::DTYPES {
        for rung in catalog::rungs(dtype) {
            let best = catalog::best_of_rung(rung, dtype).expect("a rung with kernels has a representative");
            let configs = catalog::configurations(rung, dtype);
            let listed = catalog::BEST.iter().find(|n| configs.iter().any(|k| k.name() == **n));
            match listed {
                Some(name) => assert_eq!(best.name(), *name),
                None => assert_eq!(best, configs[0], "rung {rung} without a BEST entry is represented by its first configuration"),
            }
        }
        let ladder = catalog::ladder(dtype);
        assert_eq!(ladder.iter().map(|k| k.spec.rung.number).collect::<Vec<_>>(), catalog::rungs(dtype));
        // `best` tries every rung of the type exactly once.
        let mut candidates: Vec<u8> = rgemm::choice::best_candidates(dtype).iter().map(|k| k.spec.rung.number).collect();
        candidates.sort_unstable();
        assert_eq!(candidates, catalog::rungs(dtype));
    }
    // Today's knowledge: rung 3 at 32x32x32 beats 16x16x16.
    assert_eq!(catalog::best_of_rung(3, Dtype::F32).unwrap().name(), "sgemm_03_smem_tiling_32x32x32");
}

#[test]
fn best_resolves_to_the_automatic_choice() {
    use rgemm::api::KernelChoice;
    let square = Problem::new(4096, 4096, 4096, 1.0, 0.0).unwrap();
    assert_eq!(rgemm::choice::resolve("sgemm_01_naive_32x32x1", &square).unwrap().name(), "sgemm_01_naive_32x32x1");
    // `best`, `best-bf16`, `best-f16` and `best-e4m3` mean one thing: the automatic choice's kernel.
    for (alias, dtype) in rgemm::choice::BEST_ALIASES {
        // FP8 multiplies linear layers (nt) whose rows the copy engine reads unstaged.
        let (layout, shapes) = if *dtype == Dtype::E4m3 {
            (rgemm::Layout::NT, vec![(1, 16, 16), (4096, 4096, 4096), (3001, 2999, 3008)])
        } else {
            (rgemm::Layout::NN, vec![(1, 1, 1), (4096, 4096, 4096), (3001, 2999, 3003), (1_048_561, 8, 8), (4_000_000, 1, 1)])
        };
        for (m, n, k) in shapes {
            let p = Problem::general(m, n, k, 1.0, 0.0, layout, Default::default(), rgemm::Batch::packed(1)).unwrap();
            let (auto, _) = rgemm::choice::choose(*dtype, &p, &KernelChoice::Auto).unwrap();
            assert_eq!(rgemm::choice::resolve(alias, &p).unwrap(), auto, "{alias} {m}x{n}x{k}");
            assert!(auto.geometry(&p).is_ok());
        }
    }
    // Falling back: 16-row blocks cannot cover M = 65535·16 + 1; 32-row blocks can.
    let tall = Problem::new(65_535 * 16 + 1, 8, 8, 1.0, 0.0).unwrap();
    let small = catalog::find("sgemm_03_smem_tiling_16x16x16").unwrap();
    let large = catalog::find("sgemm_03_smem_tiling_32x32x32").unwrap();
    assert!(small.geometry(&tall).is_err() && large.geometry(&tall).is_ok());
    assert_eq!(rgemm::choice::first_supporting(&[small, large], &tall, "best").unwrap(), large);
    let Err(Error::Unsupported { reason, .. }) = rgemm::choice::first_supporting(&[small], &tall, "best") else { panic!("expected unsupported") };
    assert!(reason.contains("16x16x16") && reason.contains("block rows"), "{reason}");
    // A type without kernels says so.
    if catalog::rungs(Dtype::Bf16).is_empty() {
        let e = rgemm::choice::resolve("best-bf16", &square).unwrap_err();
        assert!(e.to_string().contains("no kernel of this type"), "{e}");
    }
    // bf16: the TMA rung where rows are 16-byte aligned, the cp.async rung where they are not.
    let aligned = Problem::new(1000, 1000, 1000, 1.0, 0.0).unwrap();
    let odd = Problem::new(1000, 1001, 1000, 1.0, 0.0).unwrap();
    for p in [aligned, odd] {
        let kernel = rgemm::choice::resolve("best-bf16", &p).unwrap();
        assert!(kernel.spec.dtype == Dtype::Bf16 && kernel.geometry(&p).is_ok(), "{}", kernel.name());
    }
    assert_eq!(rgemm::choice::best_alias("best-f16"), Some(Dtype::F16));
    assert_eq!(rgemm::choice::best_alias("bestest"), None);
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: u32, b: u32) -> u32 {
    a / gcd(a, b) * b
}

/// The smallest BK for which an A tile of `bm` rows and a B tile of `bn` columns split evenly
/// among `threads` threads, in chunks of `chunk` elements (4: float4 copies) that a row of BK
/// holds whole.
fn smallest_bk(bm: u32, bn: u32, threads: u32, chunk: u32) -> u32 {
    let per = chunk * threads;
    lcm(chunk, lcm(per / gcd(per, bm), per / gcd(per, bn)))
}

/// A valid fp32 configuration of rungs 4–11, built to satisfy every invariant rather than drawn
/// and filtered (the old generator was accepted in about 1% of cases for rungs 9–11): thread (or
/// warp) tiles first, block tiles as whole numbers of them, BK the smallest that splits the tile
/// copies evenly times a power of two, and the thread count that follows.
fn valid_spec() -> impl Strategy<Value = KernelSpec> {
    let pow2 = |lo: u32, hi: u32| (lo..=hi).prop_map(|e| 1u32 << e);
    (4u8..=11, pow2(0, 3), pow2(0, 3), 0u32..=5, 0u32..=3, 0u32..=3, pow2(0, 2), 1u32..=4, any::<prop::sample::Index>())
        .prop_filter_map("a block of more than 1024 threads", move |(rung, tm, tn, split, ex, ey, bk_scale, stages, smem)| {
            let base = catalog::all().find(|k| k.spec.rung.number == rung && k.spec.dtype == Dtype::F32).unwrap().spec;
            let (tm, tn) = if rung >= 7 { (4 * tm.min(4), 4 * tn.min(4)) } else if rung == 4 { (tm * 2, 1) } else { (tm, tn) };
            let (bm, bn, wm, wn, computing) = if rung >= 9 {
                // A warp is 32 thread tiles: 2^split of them down, 2^(5 - split) across.
                let (wm, wn) = (tm << split, tn << (5 - split));
                let (x, y) = (1 << ex.min(2), 1 << ey.min(2));
                (wm * x, wn * y, wm, wn, 32 * x * y)
            } else {
                // 2^ex · 2^ey thread tiles, at least one warp's worth.
                let (x, y) = (1u32 << (ex + 2), 1u32 << (ey + 3));
                (tm * x, tn * y, 1, 1, x * y)
            };
            let threads = computing + if rung == 11 { 32 } else { 0 };
            let chunk = if rung >= 6 && rung != 11 { 4 } else { 1 };
            let bk = smallest_bk(bm, bn, computing, chunk) * bk_scale;
            if threads > 1024 || (rung == 11 && (bm > 256 || bn > 256 || bk * 4 > 128)) {
                return None;
            }
            let tile = rgemm::catalog::Tile { bm, bn, bk, wm, wn, tm, tn, stages };
            Some(KernelSpec { tile, threads, smem_bytes: smem.index(catalog::MAX_SMEM_PER_BLOCK as usize + 1) as u32, ..*base })
        })
}

/// The invariants the kernels rely on, checked here independently of `shape_error`.
fn check_invariants(s: &KernelSpec) -> Result<(), TestCaseError> {
    let t = s.tile;
    let computing = if s.rung.number == 11 { s.threads - 32 } else { s.threads };
    prop_assert!(s.threads % 32 == 0 && s.threads <= 1024);
    prop_assert!(s.smem_bytes <= 227 * 1024, "shared memory fits Hopper's limit");
    // Each computing thread owns exactly one thread tile: the tiles partition C.
    prop_assert_eq!((t.bm / t.tm) * (t.bn / t.tn), computing);
    prop_assert_eq!(t.bm % t.tm + t.bn % t.tn, 0);
    if s.rung.number < 6 {
        prop_assert_eq!((t.bm * t.bk) % computing + (t.bk * t.bn) % computing, 0, "loads divide evenly");
    } else if s.rung.number != 11 {
        prop_assert_eq!(t.bk % 4 + t.bn % 4, 0, "tile rows are whole float4s");
        prop_assert_eq!((t.bm * t.bk / 4) % computing + (t.bk * t.bn / 4) % computing, 0, "float4 loads divide evenly");
    }
    if s.rung.number >= 9 {
        prop_assert_eq!((t.wm / t.tm) * (t.wn / t.tn), 32, "a warp tile is 32 thread tiles");
    }
    Ok(())
}

/// One way to break a valid configuration, and whether it applies to this rung.
#[derive(Clone, Copy, Debug)]
enum Breakage {
    OneWarpMore,
    SharedMemoryPastTheLimit,
    ZeroStages,
    ThreadTileTaller,
    WarpTileTaller,
    BkNotWholeFloat4s,
}

impl Breakage {
    const ALL: [Breakage; 6] = [
        Breakage::OneWarpMore,
        Breakage::SharedMemoryPastTheLimit,
        Breakage::ZeroStages,
        Breakage::ThreadTileTaller,
        Breakage::WarpTileTaller,
        Breakage::BkNotWholeFloat4s,
    ];

    fn apply(self, s: &KernelSpec) -> Option<KernelSpec> {
        let (mut b, rung) = (*s, s.rung.number);
        match self {
            Breakage::OneWarpMore => b.threads += 32,
            Breakage::SharedMemoryPastTheLimit => b.smem_bytes = catalog::MAX_SMEM_PER_BLOCK + 1,
            Breakage::ZeroStages => b.tile.stages = 0,
            // Twice as tall thread tiles: half the tiles, or tiles that no longer tile the block.
            Breakage::ThreadTileTaller if rung < 9 => b.tile.tm *= 2,
            Breakage::WarpTileTaller if rung >= 9 => b.tile.wm *= 2,
            Breakage::BkNotWholeFloat4s if (6..=10).contains(&rung) => b.tile.bk += 2,
            _ => return None,
        }
        Some(b)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    /// Finding 6: every configuration built to be valid is accepted, and satisfies the invariants.
    #[test]
    fn valid_tile_shapes_are_accepted_and_hold_their_invariants(s in valid_spec()) {
        prop_assert_eq!(catalog::shape_error(&s), None, "{:?}", s.tile);
        check_invariants(&s)?;
    }

    /// Finding 6: the same configurations with one invariant broken are each rejected with a
    /// reason.
    #[test]
    fn broken_tile_shapes_are_rejected_with_a_reason(s in valid_spec(), which in 0..Breakage::ALL.len()) {
        let breakage = Breakage::ALL[which];
        if let Some(broken) = breakage.apply(&s) {
            let reason = catalog::shape_error(&broken);
            prop_assert!(reason.as_ref().is_some_and(|r| r.len() > 10), "{breakage:?} of {:?} ({} threads) accepted", broken.tile, broken.threads);
        }
    }
}

#[test]
fn the_generator_reaches_every_rung_and_warp_shape() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let s = valid_spec().new_tree(&mut runner).unwrap().current();
        seen.insert((s.rung.number, s.tile.wm.min(2) > 1));
    }
    for rung in 4..=11u8 {
        assert!(seen.contains(&(rung, rung >= 9)), "rung {rung} never generated: {seen:?}");
    }
}

#[test]
fn absurd_tile_shapes_are_rejected_without_overflow() {
    let base = *catalog::all().find(|k| k.spec.rung.number == 9).unwrap().spec;
    for (bm, bk, wm, tm) in [(1 << 31, 1 << 31, 1 << 16, 1), (u32::MAX, u32::MAX, u32::MAX, 1), (1 << 16, 1 << 16, 1 << 16, 1 << 11)] {
        let tile = rgemm::catalog::Tile { bm, bn: bm, bk, wm, wn: wm, tm, tn: tm, stages: 2 };
        let s = KernelSpec { tile, threads: 256, ..base };
        assert!(catalog::shape_error(&s).is_some(), "{tile:?}");
    }
}

#[test]
fn every_catalog_configuration_passes_the_shape_check() {
    for k in catalog::all() {
        assert_eq!(catalog::shape_error(k.spec), None, "{}", k.name());
    }
}

#[test]
fn persistent_kernels_get_the_fewest_blocks_that_keep_the_rounds() {
    for kernel in catalog::all() {
        let p = Problem::new(4096, 4096, 64, 1.0, 0.0).unwrap();
        let Ok(launch) = kernel.geometry(&p) else { continue };
        let tiles = launch.grid.0 * launch.grid.1;
        let on_132 = launch.on_device(&kernel, 132);
        if kernel.spec.persistent {
            let (blocks, rest) = (on_132.grid.0, (on_132.grid.1, on_132.grid.2));
            assert_eq!(rest, (1, 1), "{}: one-dimensional", kernel.name());
            if kernel.spec.stream_k.is_some() {
                assert_eq!(blocks, 132, "{}: stream-K keeps every SM", kernel.name());
            } else {
                // As many rounds as one block per SM takes, on as few blocks as take them.
                let rounds = tiles.div_ceil(132);
                assert!(blocks <= 132 && blocks * rounds >= tiles, "{}: {blocks} blocks", kernel.name());
                assert!((blocks - 1) * rounds < tiles, "{}: {blocks} blocks, one fewer would do", kernel.name());
            }
            if kernel.name() == "bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast" {
                assert_eq!((tiles, blocks), (512, 128), "4096² in 128 × 256 tiles: four rounds of 128 blocks");
            }
            // One tile: one block, but a stream-K kernel keeps every SM for slices of it.
            let small = Problem::new(1, 8, 8, 1.0, 0.0).unwrap();
            let blocks = if kernel.spec.stream_k.is_some() { 132 } else { 1 };
            assert_eq!(kernel.geometry(&small).unwrap().on_device(&kernel, 132).grid, (blocks, 1, 1), "{}", kernel.name());
        } else {
            assert_eq!(on_132, launch, "{}", kernel.name());
        }
    }
}
