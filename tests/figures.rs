//! The book's figures and number tables (`book/src/figures`, `book/src/generated`) are drawn from
//! the code and the recorded bench JSON by `rgemm figures` (`tools/src/figures.rs`). These tests fail
//! when a committed file is stale, and check that what the figures show agrees with the device
//! module's documented layouts and with the "Try it" exercises of the book.

use std::path::Path;

use rgemm_tools::figures::{self, probe};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn committed_figures_and_tables_are_up_to_date() {
    let stale = figures::stale(repo()).unwrap_or_else(|e| panic!("cannot draw the figures: {e}"));
    assert!(
        stale.is_empty(),
        "{} generated file(s) of the book are stale:\n  {}\nregenerate them with `{}` and commit the result",
        stale.len(),
        stale.join("\n  "),
        figures::COMMAND
    );
}

#[test]
fn the_staleness_check_notices_a_changed_figure() {
    let dir = std::env::temp_dir().join(format!("rgemm-figures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    // A copy of the inputs (docs/perf), then the generated files, then one edit.
    let copy = |from: &Path, to: &Path| {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            if e.path().is_file() {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    };
    copy(&repo().join("docs/perf"), &dir.join("docs/perf"));
    copy(&repo().join(figures::featured::LADDER_RUN), &dir.join(figures::featured::LADDER_RUN));
    let measured = figures::measured::SUITE_RUNS
        .iter()
        .chain(&figures::measured::LAYOUT_RUNS)
        .chain(&figures::measured::EVAL_RUNS)
        .chain(&figures::measured::EPILOGUE_RUNS)
        .chain(&figures::measured::PROCESS_RUNS)
        .chain([&figures::measured::ROUNDS_RUN])
        .chain(&figures::featured::FEATURED_RUNS);
    for path in measured {
        // A JSON file or a process prefix (`…/f32-main` of `…/f32-main-p<i>.json`): its folder.
        let folder = Path::new(path).parent().expect("a run lies in a folder");
        copy(&repo().join(folder), &dir.join(folder));
    }
    std::fs::copy(repo().join(figures::README), dir.join(figures::README)).unwrap();
    std::fs::create_dir_all(dir.join("book/src")).unwrap();
    std::fs::copy(repo().join(figures::SUMMARY), dir.join(figures::SUMMARY)).unwrap();
    figures::write(&dir).unwrap();
    assert!(figures::stale(&dir).unwrap().is_empty());
    let path = dir.join(figures::FIGURE_DIR).join("swizzle-128b.svg");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("c0", "c9")).unwrap();
    std::fs::write(dir.join(figures::FIGURE_DIR).join("extra.svg"), "<svg/>").unwrap();
    let stale = figures::stale(&dir).unwrap();
    assert!(stale.iter().any(|s| s.contains("swizzle-128b.svg differs")), "{stale:?}");
    assert!(stale.iter().any(|s| s.contains("extra.svg is no longer generated")), "{stale:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// No two text labels of a figure print over one another: each label's box is estimated from its
/// font size and characters (`figures::text_overlaps`).
#[test]
fn no_figure_has_overlapping_labels() {
    let files = figures::generate(repo()).unwrap_or_else(|e| panic!("cannot draw the figures: {e}"));
    let mut errors = Vec::new();
    let mut figures_checked = 0;
    for f in files.iter().filter(|f| f.path.extension().is_some_and(|e| e == "svg")) {
        figures_checked += 1;
        for pair in figures::text_overlaps(&f.contents) {
            errors.push(format!("{}: {pair}", f.path.display()));
        }
    }
    assert!(figures_checked > 20, "only {figures_checked} figures drawn");
    assert!(errors.is_empty(), "{} pair(s) of overlapping labels:\n  {}", errors.len(), errors.join("\n  "));
}

/// The overlap check sees labels that collide and passes labels side by side.
#[test]
fn the_overlap_check_sees_a_collision() {
    let line = |x: f64, y: f64, anchor: &str, s: &str| format!("<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"10.0\" text-anchor=\"{anchor}\" fill=\"#222222\">{s}</text>\n");
    // "cuBLAS 751.1" ending at x = 500 and "719.7" centred at 480, on the same line: they collide.
    let svg = line(500.0, 100.0, "end", "cuBLAS 751.1") + &line(480.0, 102.0, "middle", "719.7");
    assert_eq!(figures::text_overlaps(&svg).len(), 1);
    let apart = line(100.0, 100.0, "start", "r4") + &line(130.0, 100.0, "start", "r5") + &line(100.0, 115.0, "start", "r6");
    assert!(figures::text_overlaps(&apart).is_empty());
}

/// The `mma.sync` fragments observed on the emulator are the table of `device/mma.rs`:
/// `g = lane / 4`, `t = lane % 4`.
#[test]
fn observed_mma_layout_is_the_documented_one() {
    let l = probe::mma_layout();
    for lane in 0..32u32 {
        let (g, t) = (lane / 4, lane % 4);
        let a = [(g, 2 * t), (g + 8, 2 * t), (g, 2 * t + 8), (g + 8, 2 * t + 8)];
        for (reg, (r, c)) in a.into_iter().enumerate() {
            assert_eq!(l.a[lane as usize][reg], [(r, c), (r, c + 1)], "A, lane {lane}, register {reg}");
        }
        let b = [(2 * t, g), (2 * t + 8, g)];
        for (reg, (k, n)) in b.into_iter().enumerate() {
            assert_eq!(l.b[lane as usize][reg], [(k, n), (k + 1, n)], "B, lane {lane}, register {reg}");
        }
        assert_eq!(l.c[lane as usize], [(g, 2 * t), (g, 2 * t + 1), (g + 8, 2 * t), (g + 8, 2 * t + 1)], "C, lane {lane}");
    }
}

/// The wgmma accumulators observed on the emulator follow the rule the book states: thread
/// `32w + 4g + t`, register `4j + e` holds row `16w + g + 8·(e / 2)`, column `8j + 2t + e % 2`;
/// and every element of the 64×256 tile is held exactly once.
#[test]
fn observed_wgmma_accumulators_follow_the_stated_rule() {
    let acc = probe::wgmma_accumulators();
    let mut seen = vec![0u8; 64 * probe::WGMMA_N];
    for (thread, regs) in acc.iter().enumerate() {
        let (w, g, t) = (thread as u32 / 32, thread as u32 % 32 / 4, thread as u32 % 4);
        for (i, &(r, c)) in regs.iter().enumerate() {
            let (j, e) = (i as u32 / 4, i as u32 % 4);
            assert_eq!((r, c), (16 * w + g + 8 * (e / 2), 8 * j + 2 * t + e % 2), "thread {thread}, register {i}");
            seen[r as usize * probe::WGMMA_N + c as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n == 1));
}

/// Try it (rung 7): without the padding the transposed store's warp hits 16 banks twice each (a
/// 2-way conflict); with the kernel's padding, 32 banks once each.
#[test]
fn try_it_rung7_padding_removes_the_two_way_conflict() {
    let pad = figures::rung7_padding();
    assert_eq!(pad, 4, "rung 7 pads each row of the transposed A tile by 4 floats");
    let degree = |stride| figures::transposed_store_banks(stride).iter().map(Vec::len).max().unwrap();
    let bm = rgemm::catalog::best_of_rung(7, rgemm::catalog::Dtype::F32).unwrap().spec.tile.bm;
    assert_eq!(degree(bm), 2);
    assert_eq!(degree(bm + pad), 1);
    // Any padding that is not a multiple of 16 floats moves the second half-warp off the first's banks.
    assert_eq!(degree(bm + 16), 2);
}

/// Try it (rungs 1-2): one step of the K loop costs the warp 32 segments of A in rung 1 and one
/// segment of B in rung 2 (plus a broadcast of the other operand).
#[test]
fn try_it_rungs_1_2_segments_per_warp_access() {
    assert_eq!(figures::coalescing_segments(1), [32, 1, 32]);
    assert_eq!(figures::coalescing_segments(2), [1, 1, 1]);
}

/// Try it (rung 13): with A's stride byte offset at 512 instead of 1024 the tensor cores read the
/// wrong rows: the accumulators no longer hold their own rows.
#[test]
fn try_it_rung13_a_wrong_stride_byte_offset_reads_the_wrong_rows() {
    let right = probe::wgmma_accumulators();
    let wrong = probe::wgmma_accumulators_with_sbo(512);
    let differ = right.iter().zip(&wrong).flat_map(|(r, w)| r.iter().zip(w.iter())).filter(|(r, w)| r.0 != w.0).count();
    assert!(differ > 64 * 256 / 4, "only {differ} accumulators changed rows");
    // The columns (from B, whose descriptor is unchanged) stay right wherever A's row is non-zero.
    assert!(right.iter().zip(&wrong).all(|(r, w)| r.iter().zip(w.iter()).all(|(r, w)| w.1 == r.1 || w.0 == 0 || w.1 == 0)));
}

/// The README's generated blocks: filled from the tables by name, everything around them kept;
/// a block without a table is an error, not a silent skip.
#[test]
fn readme_blocks_are_filled_by_name_and_a_missing_table_is_an_error() {
    use figures::measured::fill_blocks;
    let tables = vec![("a".to_string(), "| x |\n".to_string())];
    let text = "intro\n<!-- generated: a -->\nold\n<!-- end generated -->\nafter\n";
    assert_eq!(fill_blocks(text, &tables).unwrap(), "intro\n<!-- generated: a -->\n| x |\n<!-- end generated -->\nafter\n");
    assert!(fill_blocks("<!-- generated: b -->\n<!-- end generated -->\n", &tables).is_err());
    assert!(fill_blocks("<!-- generated: a -->\nno end\n", &tables).is_err());
}
