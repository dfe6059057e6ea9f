//! The measured dispatcher (`rgemm::dispatch`): the built-in table parses and names catalog
//! kernels, a table survives its file form, the rule between measured shapes only ever picks a
//! kernel that takes the problem, the library's automatic plan is always runnable, and a tune of some
//! cases replaces only their rows.

use proptest::prelude::*;
use rgemm::api::KernelChoice;
use rgemm::catalog::{self, Dtype};
use rgemm::dispatch::{self, Row, Table};
use rgemm::{Batch, Layout, LeadingDims, Problem};

fn row(dtype: Dtype, layout: Layout, (m, n, k): (u32, u32, u32), kernel: &str, splits: u32) -> Row {
    Row { dtype, layout, batch: 1, m, n, k, aligned: true, kernel: catalog::find(kernel).unwrap(), staged: false, splits, percent: 90.0 }
}

/// A table of a few rows that name kernels of every kind: a layout-specific wgmma kernel, a
/// split one, the decode GEMV and an fp32 kernel that needs 16-byte rows.
fn sample_table() -> Table {
    Table {
        notes: vec![("device".into(), "test".into()), ("date".into(), "2026-01-01".into())],
        rows: vec![
            row(Dtype::Bf16, Layout::NN, (4096, 4096, 4096), "bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs", 1),
            row(Dtype::Bf16, Layout::NT, (16, 4096, 4096), "bgemm_14_wgmma_tma_64x128x64_s4_pairs_nt", 4),
            row(Dtype::Bf16, Layout::NT, (1, 4096, 4096), "bgemm_00_gemv_1x8x256_nt", 1),
            row(Dtype::F32, Layout::NN, (4096, 4096, 4096), "sgemm_15_tf32x3_128x128x32_s4_raw", 1),
            Row { aligned: false, staged: true, ..row(Dtype::Bf16, Layout::NN, (4095, 4095, 4095), "bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs", 1) },
        ],
    }
}

#[test]
fn the_built_in_table_parses_and_names_catalog_kernels() {
    // `parse` refuses a row whose kernel multiplies another type or layout than the row's.
    let table = Table::parse(dispatch::BUILTIN).unwrap_or_else(|e| panic!("dispatch/h100.tsv: {e}"));
    assert_eq!(*dispatch::builtin(), table);
}

#[test]
fn a_table_survives_its_file_form() {
    let table = sample_table();
    assert_eq!(Table::parse(&table.to_text()).unwrap(), table);
}

#[test]
fn bad_table_files_are_clear_errors() {
    let header = "dtype\tlayout\tbatch\tm\tn\tk\taligned\tplan\tpercent_of_best_cublas\n";
    for (text, expect) in [
        ("", "no header"),
        ("dtype layout\n", "expected the header"),
        (&*format!("{header}bf16\tnn\t1\t4\t4\n"), "9 tab-separated"),
        (&*format!("{header}bf16\tnn\t1\t0\t4\t4\tyes\tbgemm_14_wgmma_tma_128x256x64_s4\t90\n"), "is not a size"),
        (&*format!("{header}bf16\tnn\t1\t4\t4\t4\tyes\tno_such_kernel\t90\n"), "no kernel"),
        (&*format!("{header}f64\tnn\t1\t4\t4\t4\tyes\tbgemm_14_wgmma_tma_128x256x64_s4\t90\n"), "element type"),
        (&*format!("{header}bf16\tnn\t1\t4\t4\t4\tmaybe\tbgemm_14_wgmma_tma_128x256x64_s4\t90\n"), "yes or no"),
        (&*format!("{header}f16\tnn\t1\t4\t4\t4\tyes\tbgemm_14_wgmma_tma_128x256x64_s4\t90\n"), "multiplies bf16 nn, the row is f16 nn"),
        (&*format!("{header}bf16\tnt\t1\t4\t4\t4\tyes\tbgemm_14_wgmma_tma_128x256x64_s4\t90\n"), "multiplies bf16 nn, the row is bf16 nt"),
    ] {
        let e = Table::parse(text).unwrap_err().to_string();
        assert!(e.contains(expect), "{text:?}: {e}");
    }
}

#[test]
fn plan_names_split_into_kernel_and_slices() {
    assert_eq!(dispatch::split_plan_name("k_split8"), ("k".to_string(), false, 8));
    assert_eq!(dispatch::split_plan_name("k_staged_split8"), ("k".to_string(), true, 8));
    assert_eq!(dispatch::split_plan_name("k_staged"), ("k".to_string(), true, 1));
    assert_eq!(dispatch::split_plan_name("k_split"), ("k_split".to_string(), false, 1));
    assert_eq!(dispatch::split_plan_name("k"), ("k".to_string(), false, 1));
    for (kernel, staged, splits) in [("k", false, 1), ("k", true, 1), ("k", true, 4), ("k", false, 2)] {
        assert_eq!(dispatch::split_plan_name(&dispatch::plan_name(kernel, staged, splits)), (kernel.to_string(), staged, splits));
    }
}

#[test]
fn a_kernel_maps_to_its_configuration_in_each_layout() {
    let base = "bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs";
    for layout in Layout::ALL {
        let k = rgemm::choice::in_layout(catalog::find(base).unwrap(), layout).unwrap();
        assert_eq!(k.spec.layout, layout);
        assert_eq!(rgemm::choice::in_layout(k, Layout::NN).unwrap().name(), base);
    }
    // The decode GEMV exists only for nt.
    assert!(rgemm::choice::in_layout(catalog::find("bgemm_00_gemv_1x8x256_nt").unwrap(), Layout::NN).is_none());
}

#[test]
fn the_nearest_measured_shape_decides() {
    let table = sample_table();
    let p = |m, n, k, layout| Problem::general(m, n, k, 1.0, 0.0, layout, LeadingDims::default(), Batch::packed(1)).unwrap();
    let c = rgemm::choice::table_choice(&table, Dtype::Bf16, &p(2, 8192, 4096, Layout::NT)).unwrap();
    assert!(c.kernel.name().contains("gemv"), "{}", c.kernel.name());
    let c = rgemm::choice::table_choice(&table, Dtype::Bf16, &p(32, 4096, 4096, Layout::NT)).unwrap();
    assert_eq!(c.kernel.name(), "bgemm_14_wgmma_tma_64x128x64_s4_pairs_nt");
    assert!(c.split && c.reason(&table).contains("16x4096x4096:nt"));
    // A tn problem: the nearest nn row's kernel in layout tn.
    let c = rgemm::choice::table_choice(&table, Dtype::Bf16, &p(3000, 3000, 3000, Layout::TN)).unwrap();
    assert_eq!(c.kernel.name(), "bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs_tn");
    // f16 has no rows of its own: bf16's, with each kernel's f16 twin.
    let c = rgemm::choice::table_choice(&table, Dtype::F16, &p(4096, 4096, 4096, Layout::NN)).unwrap();
    assert_eq!(c.kernel.name(), "hgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs");
    // Rows of 2-byte elements that are not 16-byte units: the unaligned row, which staged them.
    let c = rgemm::choice::table_choice(&table, Dtype::Bf16, &p(3001, 2999, 3003, Layout::NN)).unwrap();
    assert!(c.staged && c.kernel.name() == "bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs", "{}", c.kernel.name());
    // A row much farther than the nearest does not decide: the one-row GEMV, which takes any
    // size, is not run on 2048 rows whose nearest rows' kernels refuse them (unaligned K).
    let gemv_only = Table { rows: vec![row(Dtype::Bf16, Layout::NT, (1, 4096, 4096), "bgemm_00_gemv_1x8x256_nt", 1), row(Dtype::Bf16, Layout::NT, (2048, 4096, 4096), "bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs_nt", 1)], ..table.clone() };
    assert!(rgemm::choice::table_choice(&gemv_only, Dtype::Bf16, &p(2048, 4096, 4095, Layout::NT)).is_none());
    assert!(rgemm::choice::table_choice(&gemv_only, Dtype::Bf16, &p(2, 4096, 4095, Layout::NT)).is_some_and(|c| c.kernel.name().contains("gemv")));
    // Without that row, no kernel of the table takes them: the catalog's order decides.
    let aligned_only = Table { rows: table.rows.iter().filter(|r| r.aligned).cloned().collect(), ..table.clone() };
    assert!(rgemm::choice::table_choice(&aligned_only, Dtype::Bf16, &p(4095, 4095, 4095, Layout::NN)).is_none());
}

fn any_layout() -> impl Strategy<Value = Layout> {
    prop::sample::select(Layout::ALL.to_vec())
}

fn any_dtype() -> impl Strategy<Value = Dtype> {
    prop::sample::select(catalog::DTYPES.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Whatever the table and the problem, the choice takes the problem, and so does the
    /// library's plan (its split included): the dispatcher never picks a kernel that rejects it.
    #[test]
    fn the_choice_always_takes_the_problem(
        dtype in any_dtype(), layout in any_layout(),
        m in 1u64..5000, n in 1u64..5000, k in 1u64..70000, pad in 0u64..9, batch in 1u64..4,
        sms in 1u32..200,
    ) {
        let ld = LeadingDims { lda: None, ldb: Some(if layout.b.is_t() { k } else { n } + pad), ldc: None };
        let p = Problem::general(m, n, k, 1.0, 0.5, layout, ld, Batch::packed(batch)).unwrap();
        for table in [sample_table(), (*dispatch::builtin()).clone()] {
            if let Some(c) = rgemm::choice::table_choice(&table, dtype, &p) {
                let reads = if c.staged { p.with_aligned_rows(dtype.bytes() as u64).unwrap().0 } else { p };
                prop_assert!(c.kernel.geometry(&reads).is_ok(), "{} on {reads}", c.kernel.name());
                prop_assert_eq!(c.kernel.spec.dtype, dtype);
            }
        }
        if dtype == Dtype::E4m3 && layout != Layout::NT {
            // FP8 is read K-major only: a clear refusal, never a plan.
            let refused = rgemm::choice::plan(dtype, &p, &KernelChoice::Auto, sms);
            prop_assert!(matches!(&refused, Err(rgemm::Error::Unsupported { reason, .. }) if reason.contains("layout nt")), "{refused:?}");
            return Ok(());
        }
        let plan = rgemm::choice::plan(dtype, &p, &KernelChoice::Auto, sms).unwrap();
        prop_assert!(plan.kernel().spec.dtype == dtype);
        prop_assert!(!rgemm::choice::runs_only_when_named(plan.kernel()), "{}", plan.name());
        prop_assert!(!plan.reason().is_empty());
        let staged = plan.staged() != [false, false];
        if plan.splits() == 1 && !staged {
            prop_assert!(plan.kernel().geometry(&p).is_ok(), "{} on {p}", plan.name());
        }
        // Every plan the tuner would time is runnable: its kernel takes what it reads.
        for candidate in rgemm::choice::candidate_plans(dtype, &p, sms) {
            let reads = match candidate.staged() {
                [false, false] => p,
                _ => p.with_aligned_rows(dtype.bytes() as u64).unwrap().0,
            };
            if candidate.splits() == 1 {
                prop_assert!(candidate.kernel().geometry(&reads).is_ok(), "{} on {reads}", candidate.name());
            }
            prop_assert!(!rgemm::choice::runs_only_when_named(candidate.kernel()), "{}", candidate.name());
        }
    }
}

/// The kernels that run only when named (the tensor-core GEMV, whose speed the table and the
/// cost model do not know yet; FP8 without a flush) are never the automatic choice for a
/// decode step, where the GEMVs are, but run when named.
#[test]
fn decode_steps_never_take_a_kernel_that_runs_only_when_named() {
    let named: Vec<catalog::Kernel> = catalog::all().filter(|k| rgemm::choice::runs_only_when_named(*k)).collect();
    assert!(named.iter().any(|k| rgemm::choice::is_gemv(*k)), "a tensor-core GEMV in the catalog");
    for dtype in [Dtype::Bf16, Dtype::F16] {
        for m in 1..=16u64 {
            for (n, k) in [(4096, 4096), (11008, 4096), (4096, 11008), (1000, 1001)] {
                let p = Problem::general(m, n, k, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap();
                let plan = rgemm::choice::plan(dtype, &p, &KernelChoice::Auto, 132).unwrap();
                assert!(!rgemm::choice::runs_only_when_named(plan.kernel()), "{p}: {}", plan.name());
            }
        }
    }
    for kernel in named.into_iter().filter(|k| rgemm::choice::is_gemv(*k)) {
        let p = Problem::general(16, 1000, 1001, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap();
        let plan = rgemm::choice::plan(kernel.spec.dtype, &p, &KernelChoice::Named(kernel.name().into()), 132).unwrap();
        assert_eq!(plan.name(), kernel.name());
    }
}

/// A note on rows edited from a later run (`measured since (bf16)`) is about those rows: a tune
/// that replaces the type's rows drops it, and leaves the other type's note alone.
#[test]
fn replacing_a_types_rows_drops_its_measured_since_note() {
    let mut table = sample_table();
    table.notes.push(("measured since (bf16)".into(), "three rows from a layouts run".into()));
    table.notes.push(("measured since (f32)".into(), "one row".into()));
    let bf16: Vec<_> = table.rows.iter().filter(|r| r.dtype == Dtype::Bf16).cloned().collect();
    table.replace(Dtype::Bf16, bf16, vec![("date".into(), "later".into())]);
    assert!(table.note("measured since (bf16)").is_none(), "{:?}", table.notes);
    assert_eq!(table.note("measured since (f32)"), Some("one row"));
    assert_eq!(table.note("date"), Some("later"));
}

/// A tune of some cases replaces the rows of those shapes only (a shape is its type, layout,
/// batch, size and alignment), keeps every other row, and says what it measured in a
/// `measured since` note of its type beside those already there.
#[test]
fn merging_rows_replaces_only_the_same_shapes() {
    let mut table = sample_table();
    table.notes.push(("measured since (f32)".into(), "one row".into()));
    let before = table.rows.clone();
    let faster = Row { percent: 250.0, ..row(Dtype::F32, Layout::NN, (4096, 4096, 4096), "sgemm_15_tf32x3_128x128x32_s4_presplit", 1) };
    let new_shape = row(Dtype::F32, Layout::TN, (4096, 16, 4096), "sgemm_15_tf32x3_128x128x32_s4_raw_tn", 4);
    // The same size unaligned is another shape: the aligned row stays.
    let unaligned = Row { aligned: false, staged: true, ..row(Dtype::F32, Layout::NN, (4096, 4096, 4096), "sgemm_15_tf32x3_128x128x32_s4_raw", 1) };
    table.merge(vec![faster.clone(), new_shape.clone(), unaligned.clone()], "three rows");
    assert_eq!(table.rows.len(), before.len() + 2, "{:#?}", table.rows);
    for r in [&faster, &new_shape, &unaligned] {
        assert!(table.rows.contains(r), "{r:?} missing");
    }
    for r in before.iter().filter(|r| !(r.dtype == Dtype::F32 && r.layout == Layout::NN && (r.m, r.n, r.k) == (4096, 4096, 4096) && r.aligned)) {
        assert!(table.rows.contains(r), "{r:?} dropped");
    }
    assert!(!table.rows.iter().any(|r| r.kernel.name() == "sgemm_15_tf32x3_128x128x32_s4_raw" && r.aligned), "the replaced row stayed");
    let notes: Vec<_> = table.notes.iter().filter(|(k, _)| k == "measured since (f32)").map(|(_, v)| v.as_str()).collect();
    assert_eq!(notes, ["one row", "three rows"]);
    assert!(table.note("measured since (bf16)").is_none());
    assert_eq!(Table::parse(&table.to_text()).unwrap(), table, "the merged table survives its file form");
}

/// The automatic plan takes the stream-K twin of rung 14's persistent kernel where the twin cuts
/// the last round of tiles (4800³: 722 tiles on 132 SMs, 62 in the last round; 192-wide tiles
/// would take as long in whole rounds) and keeps the
/// persistent kernel where it would not (4096³: 116 of 132 SMs busy in the last round), in every
/// layout whose 4096³ row names a persistent TMA-store kernel.
#[test]
fn the_automatic_plan_takes_stream_k_where_it_cuts_the_last_round() {
    for dtype in [Dtype::Bf16, Dtype::F16] {
        for layout in [Layout::NN, Layout::NT, Layout::TN, Layout::TT] {
            let general = |n| Problem::general(n, n, n, 1.0, 0.0, layout, LeadingDims::default(), Batch::packed(1)).unwrap();
            let (cut, whole) = (general(4800), general(4096));
            let on = |p: &Problem| rgemm::choice::plan(dtype, p, &KernelChoice::Auto, 132).unwrap();
            let (plan_cut, plan_whole) = (on(&cut), on(&whole));
            assert!(plan_whole.name().contains("_persistent_tmast"), "{layout:?}: {}", plan_whole.name());
            assert!(plan_whole.kernel().spec.stream_k.is_none(), "{}", plan_whole.name());
            assert!(plan_cut.kernel().spec.stream_k.is_some(), "{layout:?}: {}: {}", plan_cut.name(), plan_cut.reason());
            assert_eq!(plan_cut.kernel().spec.layout, layout);
            assert_eq!(rgemm::choice::stream_k_twin(plan_whole.kernel(), &cut, 132), Some(plan_cut.kernel()));
            assert_eq!(rgemm::choice::stream_k_twin(plan_whole.kernel(), &whole, 132), None);
        }
    }
}

/// f16 has no rows of its own and takes the f16 twin of each bf16 row's kernel: every kernel the
/// built-in table names for bf16 has one in the catalog, so no f16 problem passes over its
/// nearest row for want of a kernel.
#[test]
fn every_bf16_row_of_the_built_in_table_has_an_f16_twin() {
    let table = dispatch::table();
    let bf16: Vec<&Row> = table.rows.iter().filter(|r| r.dtype == Dtype::Bf16).collect();
    assert!(!bf16.is_empty(), "the built-in table has bf16 rows");
    for row in bf16 {
        let twin = catalog::find_key(row.kernel.spec.key().with_dtype(Dtype::F16));
        assert!(twin.is_some(), "{}: the catalog has no f16 twin of {}", row.case_name(), row.kernel.name());
    }
}

/// A few rows against a weight, with the built-in table: two rows run the GEMV (the decode rule),
/// four the tile kernel of the 4-row rows, and four whose K the tile kernels cannot read the
/// GEMV whose block holds all four (the one-row GEMV's row, never the one-row GEMV itself).
#[test]
fn a_few_rows_take_the_gemv_or_the_narrow_tile() {
    let p = |m, k| Problem::general(m, 4096, k, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap();
    for dtype in [Dtype::Bf16, Dtype::F16] {
        let (kernel, _) = rgemm::choice::choose(dtype, &p(2, 4096), &KernelChoice::Auto).unwrap();
        assert!(rgemm::choice::is_gemv(kernel) && kernel.spec.tile.bm >= 2, "{}", kernel.name());
        let (kernel, _) = rgemm::choice::choose(dtype, &p(4, 4096), &KernelChoice::Auto).unwrap();
        assert!(kernel.name().ends_with("_14_wgmma_tma_64x64x64_s12_tmast_nt"), "{}", kernel.name());
        let (kernel, _) = rgemm::choice::choose(dtype, &p(4, 4095), &KernelChoice::Auto).unwrap();
        assert!(rgemm::choice::is_gemv(kernel) && kernel.spec.tile.bm >= 4, "{}", kernel.name());
        let table = dispatch::builtin();
        let choice = rgemm::choice::table_choice(&table, dtype, &p(4, 4095)).unwrap();
        assert!(choice.reason(&table).ends_with("; run as the GEMV whose block holds all M rows"), "{}", choice.reason(&table));
        let choice = rgemm::choice::table_choice(&table, dtype, &p(1, 4095)).unwrap();
        assert!(!choice.reason(&table).contains("holds all M rows"), "{}", choice.reason(&table));
    }
    // fp32 keeps the GEMV up to four rows.
    let (kernel, _) = rgemm::choice::choose(Dtype::F32, &p(4, 4096), &KernelChoice::Auto).unwrap();
    assert!(rgemm::choice::is_gemv(kernel) && kernel.spec.tile.bm >= 4, "{}", kernel.name());
}

/// The automatic plan takes rung 14's persistent tile in the width that needs fewer columns per
/// SM by rounds: 192 at 3072³ (its own row) and at 2400³ (near the 2304³ row), 256 at 4096³
/// and at 1760³, whose nearest row (1536³) names the 192-wide tile: there 140 tiles of 128 × 192
/// take two rounds of 132 SMs where 98 of 128 × 256 take one. At 3840³ five rounds of 192-wide
/// tiles lose to three and a last round of 256-wide ones that stream-K cuts (run 83: 98.6% of
/// the best cuBLAS against 96.7%), and at 2600³ two rounds of 256 beat three of 192 (79.8%
/// against 69.3%).
#[test]
fn the_automatic_plan_takes_the_tile_width_that_fits_the_rounds() {
    for dtype in [Dtype::Bf16, Dtype::F16] {
        let on = |n: u64| {
            let p = Problem::general(n, n, n, 1.0, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(1)).unwrap();
            rgemm::choice::plan(dtype, &p, &KernelChoice::Auto, 132).unwrap()
        };
        let (narrow, wide, cut) = ("_128x192x64_s4_persistent_tmast", "_128x256x64_s4_persistent_tmast", "_128x256x64_s4_streamk_tmast");
        for (n, width) in [(3072, narrow), (2400, narrow), (4096, wide), (1760, wide), (2600, wide), (3840, cut), (4800, cut)] {
            let plan = on(n);
            assert!(plan.name().ends_with(width), "{dtype:?} {n}³: {}: {}", plan.name(), plan.reason());
        }
        let moved = on(1760);
        assert!(moved.reason().contains("256-wide tile"), "{}", moved.reason());
    }
}
