//! Benchmark results on the CPU: size lists, the JSON and CSV files, the tables, and the charts
//! drawn from a synthetic run.

use std::path::PathBuf;

use rgemm::catalog;
use rgemm_tools::chart;
use rgemm_tools::suite::{parse_shape, parse_shapes, shape_name};
use rgemm_tools::report::{self, DeviceRecord, KernelRecord, Outcome, Report, RunRecord, SizeRecord, Stats};
use rgemm_tools::ToolError;

fn stats(samples_ms: &[f64], flops: f64) -> Stats {
    let mut s = samples_ms.to_vec();
    s.sort_by(f64::total_cmp);
    let median_ms = s[s.len() / 2];
    Stats { samples_ms: s.clone(), rounds_ms: samples_ms.to_vec(), median_ms, min_ms: s[0], max_ms: s[s.len() - 1], spread: 0.01, tflops: flops / (median_ms * 1e-3) / 1e12 }
}

fn run(kernel: &str, outcome: Outcome, samples: Option<&[f64]>, flops: f64, note: Option<&str>) -> RunRecord {
    RunRecord {
        kernel: kernel.into(),
        outcome,
        timing: samples.map(|s| stats(s, flops)),
        check: Some(format!("{}: relative Frobenius error 1.00e-7 against the f64 reference (tolerance 1e-5)", outcome.name())),
        note: note.map(String::from),
    }
}

/// A run of three kernels over two sizes and a size that did not fit: one pass per kind of row.
pub fn synthetic() -> Report {
    let flops = |m: f64, n: f64, k: f64| 2.0 * m * n * k;
    let f4096 = flops(4096.0, 4096.0, 4096.0);
    let f3001 = flops(3001.0, 2999.0, 3003.0);
    let names = ["sgemm_01_naive_32x32x1", "sgemm_03_smem_tiling_32x32x32", "sgemm_03_smem_tiling_16x16x16"];
    Report {
        schema: report::SCHEMA,
        command: "bench".into(),
        rgemm_version: "0.1.0".into(),
        git_commit: Some("abc123def456".into()),
        date_utc: "2026-11-22T03:18:43Z".into(),
        device: DeviceRecord {
            name: "NVIDIA H100 80GB HBM3".into(),
            compute_capability: "9.0".into(),
            multiprocessors: 132,
            clock_mhz: 1980.0,
            l2_bytes: 50 << 20,
            memory_bytes: 80 << 30,
            driver_cuda_version: Some("13.0".into()),
            peak_tflops: 66.9,
            peak_formula: "fp32 CUDA cores: SMs × 128 lanes × 2 flops × clock".into(),
            memory_gbps: None,
        },
        dtype: "f32".into(),
        out_dtype: "f32".into(),
        epilogue: "none".into(),
        warmup: 3,
        iters: 5,
        l2_flush_bytes: 100 << 20,
        timing: "in turn".into(),
        seed: 1,
        kernels: vec![
            KernelRecord { name: names[0].into(), rung: 1, label: "r1".into() },
            KernelRecord { name: names[1].into(), rung: 3, label: "r3a".into() },
            KernelRecord { name: names[2].into(), rung: 3, label: "r3b".into() },
        ],
        sizes: vec![
            SizeRecord {
                layout: None,
                batch: None,
                class: None,
                cublas_classic: None,
                cublas_lt: None,
                m: 4096,
                n: 4096,
                k: 4096,
                skipped: None,
                cublas: Some(stats(&[2.66, 2.65, 2.67, 2.66, 2.66], f4096)),
                cublas_error: None,
                no_baseline: None,
                runs: vec![
                    run(names[0], Outcome::Pass, Some(&[275.8, 275.7, 275.9, 276.0, 275.8]), f4096, None),
                    run(names[1], Outcome::Pass, Some(&[15.91, 15.90, 15.92, 15.91, 15.93]), f4096, None),
                    run(names[2], Outcome::Fail, Some(&[16.88, 16.87, 16.90, 16.88, 16.86]), f4096, None),
                ],
            },
            SizeRecord {
                layout: None,
                batch: None,
                class: None,
                cublas_classic: None,
                cublas_lt: None,
                m: 3001,
                n: 2999,
                k: 3003,
                skipped: None,
                cublas: Some(stats(&[1.10, 1.11, 1.09], f3001)),
                cublas_error: None,
                no_baseline: None,
                runs: vec![
                    run(names[0], Outcome::Skipped, None, f3001, Some("M = 3001 needs 99999 block rows")),
                    run(names[1], Outcome::Pass, Some(&[6.5, 6.4, 6.6]), f3001, None),
                    run(names[2], Outcome::Error, None, f3001, Some("CUDA error: CUDA_ERROR_ILLEGAL_ADDRESS")),
                ],
            },
            SizeRecord {
                layout: None,
                batch: None,
                class: None,
                cublas_classic: None,
                cublas_lt: None,
                m: 65536,
                n: 65536,
                k: 65536,
                skipped: Some("not enough GPU memory: this run needs 65792 MiB and 1000 MiB are free".into()),
                cublas: None,
                cublas_error: None,
                no_baseline: None,
                runs: names.iter().map(|n| RunRecord::skipped(n, "not enough GPU memory".into())).collect(),
            },
        ],
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rgemm-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn shapes_parse_squares_triples_and_lists() {
    assert_eq!(parse_shape("4096").unwrap(), (4096, 4096, 4096));
    assert_eq!(parse_shape(" 8192x1024x4096 ").unwrap(), (8192, 1024, 4096));
    assert_eq!(parse_shape("3001×2999×3003").unwrap(), (3001, 2999, 3003));
    assert_eq!(parse_shapes("1024,2048,4096x4096x1024,1024").unwrap(), vec![(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 1024)]);
    assert_eq!(shape_name((3001, 2999, 3003)), "3001x2999x3003");
    for bad in ["", "0", "-4", "abc", "4096x4096", "1x2x3x4x5", "4096:nx", "1024,,2048", "1024,", "4096x0x1", "4294967296"] {
        let e = parse_shapes(bad).unwrap_err();
        assert!(matches!(e, ToolError::InvalidProblem(_) | ToolError::Library(rgemm::Error::InvalidProblem(_))), "{bad}: {e}");
        assert_eq!(e.to_string().lines().count(), 1, "{e}");
    }
}

#[test]
fn json_round_trips() {
    let report = synthetic();
    let dir = temp_dir("json");
    let path = dir.join("results.json");
    report.write_json(&path).unwrap();
    let back = Report::read(&path).unwrap();
    assert_eq!(back, report);
    // The fields a reader needs are named in the file.
    let text = std::fs::read_to_string(&path).unwrap();
    for field in ["\"device\"", "\"date_utc\"", "\"git_commit\"", "\"samples_ms\"", "\"median_ms\"", "\"spread\"", "\"cublas\"", "\"outcome\": \"fail\""] {
        assert!(text.contains(field), "{field} missing");
    }
}

#[test]
fn bad_json_is_one_line_error() {
    let dir = temp_dir("badjson");
    let path = dir.join("x.json");
    std::fs::write(&path, "{\"schema\": 1, \"command\": ").unwrap();
    let e = Report::read(&path).unwrap_err();
    assert!(matches!(e, ToolError::InvalidReport { .. }), "{e}");
    let mut wrong_schema = synthetic();
    wrong_schema.schema = 99;
    std::fs::write(&path, wrong_schema.to_json()).unwrap();
    assert!(Report::read(&path).unwrap_err().to_string().contains("schema 99"));
    let e = Report::read(&dir.join("missing.json")).unwrap_err();
    assert!(matches!(e, ToolError::Io(_)) && e.to_string().contains("missing.json"), "{e}");
}

#[test]
fn csv_round_trips_with_derived_columns() {
    let report = synthetic();
    let dir = temp_dir("csv");
    let path = dir.join("results.csv");
    report.write_csv(&path).unwrap();
    let rows = report::read_csv(&path).unwrap();
    assert_eq!(rows, report.csv_rows());
    assert_eq!(rows.len(), 9);
    let r = &rows[1];
    assert_eq!((r.kernel.as_str(), r.m, r.outcome), ("sgemm_03_smem_tiling_32x32x32", 4096, Outcome::Pass));
    let pct = r.percent_of_cublas.unwrap();
    assert!((pct - 100.0 * 2.66 / 15.91).abs() < 1e-9, "{pct}");
    assert!((r.percent_of_peak.unwrap() - 100.0 * r.tflops.unwrap() / 66.9).abs() < 1e-9);
    assert!(r.percent_of_cublas_per_round.is_some());
    assert_eq!(r.samples, 5);
    assert_eq!(rows[3].outcome, Outcome::Skipped);
    assert_eq!(rows[3].tflops, None);
    assert!(rows[3].note.contains("block rows"));
}

#[test]
fn table_shows_every_outcome() {
    let report = synthetic();
    let t = report::table(&report);
    assert!(t.contains("NVIDIA H100 80GB HBM3") && t.contains("132 SMs") && t.contains("commit abc123def456"), "{t}");
    assert!(t.contains("cuBLAS (cublasSgemm)"), "{t}");
    // With both calls timed, the row names the faster.
    let mut both = report.clone();
    let stats = both.sizes[0].cublas.clone().unwrap();
    let mut slower = stats.clone();
    slower.median_ms *= 2.0;
    both.sizes[0].cublas_classic = Some(slower);
    both.sizes[0].cublas_lt = Some(stats);
    assert!(report::table(&both).contains("cuBLAS best: cublasLtMatmul"), "{}", report::table(&both));
    let line = |kernel: &str, size: &str| {
        let start = t.find(size).unwrap();
        t[start..].lines().find(|l| l.contains(kernel)).unwrap().to_string()
    };
    let smem = line("smem_tiling_32x32x32", "4096x4096x4096");
    assert!(smem.contains("8.64") && smem.contains("16.7%") && smem.contains("PASS"), "{smem}");
    assert!(line("16x16x16", "4096x4096x4096").contains("FAIL"));
    assert!(line("naive", "3001x2999x3003").contains("skipped: M = 3001"));
    assert!(line("16x16x16", "3001x2999x3003").contains("ERROR: CUDA error"));
    assert!(t.contains("65536x65536x65536\n  skipped: not enough GPU memory"), "{t}");
    assert_eq!(report.failures(), 2);
    assert!(t.contains("2 failed"));
}

#[test]
fn tune_table_ranks_each_rung_and_proposes_best() {
    let mut report = synthetic();
    report.command = "tune".into();
    report.sizes.truncate(1);
    // Make the 16x16x16 configuration pass and be the faster one.
    report.sizes[0].runs[2].outcome = Outcome::Pass;
    report.sizes[0].runs[2].timing = Some(stats(&[12.0, 12.0, 12.0], 2.0 * 4096f64.powi(3)));
    let t = report::tune_table(&report);
    let rung3 = &t[t.find("rung 3").unwrap()..];
    let first = rung3.lines().nth(1).unwrap();
    assert!(first.contains("16x16x16") && first.contains('*'), "{t}");
    assert!(t.contains("pub const BEST: &[&str] = &[\"sgemm_03_smem_tiling_16x16x16\", \"sgemm_01_naive_32x32x1\"];"), "{t}");
    let best = report::best_per_rung(&report, &report.sizes[0]);
    assert_eq!(best.iter().map(|r| r.kernel.as_str()).collect::<Vec<_>>(), ["sgemm_03_smem_tiling_16x16x16", "sgemm_01_naive_32x32x1"]);
    // A failed configuration is never the best, however fast.
    report.sizes[0].runs[2].outcome = Outcome::Fail;
    let best = report::best_per_rung(&report, &report.sizes[0]);
    assert_eq!(best[0].kernel, "sgemm_03_smem_tiling_32x32x32");
}

#[test]
fn labels_number_configurations_of_a_rung() {
    let kernels: Vec<_> = catalog::all().collect();
    let labels = report::labels(&kernels);
    for (k, label) in kernels.iter().zip(&labels) {
        let n = kernels.iter().filter(|o| o.spec.rung.number == k.spec.rung.number).count();
        let plain = format!("r{}", k.spec.rung.number);
        if n == 1 {
            assert_eq!(*label, plain);
        } else {
            assert!(label.starts_with(&plain) && label.len() > plain.len(), "{label}");
        }
    }
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), labels.len(), "{labels:?}");
}

#[test]
fn timestamps_are_utc_civil_dates() {
    assert_eq!(report::utc_timestamp(0), "1970-01-01T00:00:00Z");
    assert_eq!(report::utc_timestamp(951_782_400), "2000-02-29T00:00:00Z");
    assert_eq!(report::utc_timestamp(1_700_000_000), "2023-11-14T22:13:20Z");
    assert_eq!(report::utc_timestamp(4_102_444_799), "2099-12-31T23:59:59Z");
    let now = report::utc_now();
    assert!(now.len() == 20 && now.ends_with('Z') && now.as_str() > "2024", "{now}");
}

#[test]
fn peaks_follow_the_formulas() {
    // H100 SXM: 132 SMs at 1980 MHz.
    assert!((rgemm_tools::peaks::fp32_peak_tflops(132, 1_980_000) - 66.908).abs() < 0.01);
    assert!((rgemm_tools::peaks::tensor_peak_tflops(132, 1_980_000) - 1070.53).abs() < 0.01);
    assert_eq!(rgemm_tools::peaks::peak_tflops_at(catalog::Dtype::Bf16, 132, 1_980_000), rgemm_tools::peaks::tensor_peak_tflops(132, 1_980_000));
}

#[test]
fn chart_svg_and_png_are_always_written() {
    let report = synthetic();
    let dir = temp_dir("chart-svg");
    // The SVG needs no font file: text is left to the viewer.
    let svg = dir.join("chart.svg");
    chart::draw_svg(&report, &svg).unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..100.min(text.len())]);
    for needle in ["4096x4096x4096", "3001x2999x3003", "cuBLAS 51.", "r3a", "r3b", "sgemm_01_naive_32x32x1", "8.64", "FAIL", "skipped", "error"] {
        assert!(text.contains(needle), "{needle} missing from the SVG");
    }
    // One bar per timed kernel (three at 4096, one at 3001): rectangles filled in rung colours.
    let bars = text.matches("<rect").count();
    assert!(bars >= 4 + 1, "{bars} rectangles");

    let dir = temp_dir("chart-png");
    // No font file given: the embedded DejaVu Sans draws the PNG.
    let written = chart::write_charts(&report, &dir, None).unwrap();
    let png = written.png.expect("a PNG, always");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let (w, h) = chart::dimensions(&report);
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), w);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), h);
    assert!(written.png_note.is_none());
    assert!(written.svg.is_file());
}

#[test]
fn the_chart_widens_to_fit_its_longest_text() {
    let report = synthetic();
    let (w, h) = chart::dimensions(&report);
    let mut long = synthetic();
    long.device.name = "a device whose name is far longer than any panel of the chart could hold ".repeat(3);
    let (lw, lh) = chart::dimensions(&long);
    // The title alone: more than 200 characters at 20 px.
    assert!(lw > w && lw > 200 * 8, "{w} -> {lw}");
    assert_eq!(lh, h);
    let mut keys = synthetic();
    keys.kernels[0].name = "sgemm_".to_string() + &"x".repeat(400);
    let (kw, _) = chart::dimensions(&keys);
    // Two key columns, each holding the long name.
    assert!(kw > 2 * 400 * 5, "{kw}");
    let dir = temp_dir("chart-wide");
    let written = chart::write_charts(&keys, &dir, None).unwrap();
    let bytes = std::fs::read(written.png.unwrap()).unwrap();
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), kw);
}

#[test]
fn chart_font_errors_are_sentences() {
    let e = chart::find_font(Some(std::path::Path::new("/nonexistent/font.ttf"))).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/font.ttf") && e.to_string().contains("does not exist"), "{e}");
    let dir = temp_dir("badfont");
    let not_a_font = dir.join("font.ttf");
    std::fs::write(&not_a_font, b"not a font").unwrap();
    let e = chart::load_font(Some(&not_a_font)).unwrap_err();
    assert!(e.to_string().contains("not a TrueType"), "{e}");
}

#[test]
fn a_report_says_how_it_was_timed_and_older_ones_read_as_one_after_another() {
    let report = synthetic();
    let text = report.to_json();
    assert_eq!(Report::from_json(&text, "new").unwrap().timing, "in turn");
    // A report written before the field existed: its launches were timed one after another.
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value.as_object_mut().unwrap().remove("timing").expect("the report records its timing");
    let old = Report::from_json(&value.to_string(), "old").unwrap();
    assert_eq!(old.timing, "one after another");
    // And the text report names it.
    assert!(report::header(&report).contains("timed in turn"), "{}", report::header(&report));
}

/// Timed in turn on a GPU that switches between two clocks: the ratio of the medians depends on
/// which clock each median falls in; the ratio round by round does not.
#[test]
fn per_round_ratio_compares_at_one_clock() {
    use rgemm_tools::timing::paired_ratio;
    // Ten rounds: the first five at a high clock, the rest 10% slower. cuBLAS takes 1.02× the
    // kernel's time in every round.
    let kernel: Vec<f64> = (0..10).map(|i| if i < 5 { 1.0 } else { 1.1 }).collect();
    let mut cublas: Vec<f64> = kernel.iter().map(|k| 1.02 * k).collect();
    // One cuBLAS launch in a slow round ran at the high clock: its median moves to the fast side,
    // the kernel's stays between the two.
    cublas[5] = 1.02;
    let mut record = SizeRecord::new(&rgemm::problem::Problem::new(64, 64, 64, 1.0, 0.0).unwrap());
    record.cublas = Some(stats(&cublas, 1e9));
    let k = run("sgemm_01_naive_32x32x1", Outcome::Pass, Some(&kernel), 1e9, None);
    let of_medians = record.fraction_of_cublas(&k).unwrap();
    let per_round = record.paired_fraction_of_cublas(&k).unwrap();
    assert!((per_round - 1.02).abs() < 1e-12, "{per_round}");
    assert!((of_medians - 1.02).abs() > 0.01, "{of_medians}");
    // Not timed in turn (or an older report): no round-by-round ratio.
    record.cublas.as_mut().unwrap().rounds_ms.clear();
    assert_eq!(record.paired_fraction_of_cublas(&k), None);
    assert_eq!(paired_ratio(&[1.0, 2.0], &[1.0]), None);
    assert_eq!(paired_ratio(&[], &[]), None);
    assert_eq!(paired_ratio(&[2.0, 3.0, 4.0], &[1.0, 1.0, 1.0]), Some(3.0));
    // A report whose round order does not hold every sample is not a measurement.
    let mut short = stats(&kernel, 1e9);
    assert!(short.is_plausible());
    short.rounds_ms.pop();
    assert!(!short.is_plausible());
}
