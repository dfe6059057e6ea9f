//! The book's figures and number tables, drawn from the code and the recorded measurements:
//! `rgemm figures` writes them under `book/src/`, and `tests/figures.rs` fails when a committed
//! file differs from what this module draws now (a tile constant, a layout, a recorded run
//! changed, and the figure did not follow).
//!
//! - Tile pictures take each rung's [`KernelSpec`] from the catalog (the configuration
//!   [`catalog::best_of_rung`] names), so they show the shapes that are compiled and measured.
//! - The swizzle picture calls [`kernels_gpu::swizzle::swizzle_128b`]; the `wgmma` descriptor
//!   figure calls the device module's [`matrix_descriptor`] with rung 13's arguments.
//! - Register layouts of `ldmatrix`, `mma.sync` and `wgmma` are observed by running those
//!   instructions on the emulator ([`probe`]), not transcribed.
//! - Pipelines and the mbarrier ring take their stage counts from the specs.
//! - The ladder chart, the roofline and the tables read the bench JSON in `docs/perf/`.
//!
//! Everything here is deterministic text: the same inputs give the same bytes.

pub mod probe;
mod svg;
pub mod tables;

use std::fs;
use std::path::{Path, PathBuf};

use kernels_gpu::device::matrix_descriptor;
use kernels_gpu::spec::Swizzle;
use kernels_gpu::swizzle::{SwizzledTile, swizzle_128b};
use serde_json::Value;

use crate::catalog::{self, Dtype, KernelSpec};
use crate::problem::Problem;
use svg::{GRID, INK, LIGHT, PALETTE, Svg};

pub use tables::BenchRecord;

/// Where the figures go, relative to the repository root.
pub const FIGURE_DIR: &str = "book/src/figures";
/// Where the generated Markdown goes, relative to the repository root.
pub const TABLE_DIR: &str = "book/src/generated";
/// The command that rewrites both.
pub const COMMAND: &str = "cargo run --release -p host -- figures";

/// One generated file: its path relative to the repository root and its contents.
pub struct Generated {
    pub path: PathBuf,
    pub contents: String,
}

/// Every figure and table, drawn from the code and the JSON under `repo/docs/perf`.
pub fn generate(repo: &Path) -> Result<Vec<Generated>, String> {
    let bench = tables::load(repo)?;
    let mut out = Vec::new();
    let mut fig = |name: &str, svg: String| out.push(Generated { path: Path::new(FIGURE_DIR).join(format!("{name}.svg")), contents: svg });
    fig("catalog", catalog_entries());
    fig("launch-grid", launch_grid());
    fig("coalescing-r01", coalescing(1));
    fig("coalescing-r02", coalescing(2));
    for rung in 3..=6 {
        fig(&format!("blocktile-r{rung:02}"), blocktile(rung));
    }
    fig("float4", float4());
    fig("banks-r07", banks_transposed());
    fig("swizzle-128b", swizzle());
    fig("pipeline-r08", pipeline(8));
    fig("pipeline-r10", pipeline(10));
    for rung in [9, 11] {
        fig(&format!("warptile-r{rung:02}"), warptile(rung));
    }
    fig("ring-r11", ring(11, Dtype::F32));
    fig("ring-r14", ring(14, Dtype::Bf16));
    fig("persistent-r14", persistent());
    let mma = probe::mma_layout();
    fig("mma-fragments", mma_fragments(&mma));
    fig("ldmatrix-x4", ldmatrix(&mma));
    fig("mma-warptile-r12", mma_warptile());
    fig("wgmma-smem-r13", wgmma_smem());
    fig("wgmma-accumulators", wgmma_accumulators(&probe::wgmma_accumulators()));
    fig("layouts-r14", layouts());
    fig("error-bound", error_bound());
    fig("tf32-split-r15", tf32_split());
    fig("emulator-arena", emulator_arena());
    fig("suite-bf16", suite(repo, SUITE_BF16)?);
    fig("ladder", ladder(&bench));
    fig("roofline", roofline(&bench, repo)?);
    for (name, text) in tables::markdown(&bench) {
        out.push(Generated { path: Path::new(TABLE_DIR).join(name), contents: text });
    }
    Ok(out)
}

/// Writes every generated file under `repo`, removing generated files no longer produced.
/// Returns the paths written.
pub fn write(repo: &Path) -> Result<Vec<PathBuf>, String> {
    let files = generate(repo)?;
    for dir in [FIGURE_DIR, TABLE_DIR] {
        let dir = repo.join(dir);
        fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        for entry in fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            let rel = path.strip_prefix(repo).unwrap_or(&path).to_path_buf();
            if !files.iter().any(|f| f.path == rel) {
                fs::remove_file(&path).map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            }
        }
    }
    for f in &files {
        let path = repo.join(&f.path);
        fs::write(&path, &f.contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(files.into_iter().map(|f| f.path).collect())
}

/// Generated files that are missing or differ from what [`generate`] draws now, and files in the
/// generated folders that it no longer draws.
pub fn stale(repo: &Path) -> Result<Vec<String>, String> {
    let files = generate(repo)?;
    let mut out = Vec::new();
    for f in &files {
        match fs::read_to_string(repo.join(&f.path)) {
            Ok(text) if text == f.contents => {}
            Ok(_) => out.push(format!("{} differs", f.path.display())),
            Err(_) => out.push(format!("{} is missing", f.path.display())),
        }
    }
    for dir in [FIGURE_DIR, TABLE_DIR] {
        if let Ok(entries) = fs::read_dir(repo.join(dir)) {
            for entry in entries.flatten() {
                let rel = Path::new(dir).join(entry.file_name());
                if !files.iter().any(|f| f.path == rel) {
                    out.push(format!("{} is no longer generated", rel.display()));
                }
            }
        }
    }
    Ok(out)
}

fn spec(rung: u8, dtype: Dtype) -> &'static KernelSpec {
    catalog::best_of_rung(rung, dtype).unwrap_or_else(|| panic!("rung {rung} has a {} kernel", dtype.name())).spec
}

/// A caption line under a figure.
fn caption(s: &mut Svg, y: f64, lines: &[String]) {
    for (i, l) in lines.iter().enumerate() {
        s.text(12.0, y + 16.0 * i as f64, 12.0, "start", l);
        s.ensure_width(24.0 + 6.9 * l.chars().count() as f64);
    }
}

// ---------------------------------------------------------------------------------------------
// Foundations

/// Every entry point of the PTX module, rung by rung: what the `entries!` macros instantiate.
fn catalog_entries() -> String {
    let kernels: Vec<_> = catalog::all().collect();
    let (x0, y0, rh, cw) = (90.0, 40.0, 22.0, 9.0);
    let mut s = Svg::new(700.0, y0 + 14.0 * rh + 70.0);
    let colour = |d: Dtype| match d {
        Dtype::F32 => PALETTE[0],
        Dtype::Bf16 => PALETTE[1],
        Dtype::F16 => PALETTE[2],
    };
    let mut widest = 0usize;
    for rung in 1..=14u8 {
        let y = y0 + (rung - 1) as f64 * rh;
        let mine: Vec<_> = kernels.iter().filter(|k| k.spec.rung.number == rung).collect();
        let featured: Vec<&str> = [Dtype::F32, Dtype::Bf16, Dtype::F16].iter().filter_map(|&d| catalog::best_of_rung(rung, d)).map(|k| k.name()).collect();
        s.text(x0 - 8.0, y + 14.0, 11.0, "end", &format!("rung {rung}"));
        for (i, k) in mine.iter().enumerate() {
            let x = x0 + i as f64 * (cw + 2.0);
            s.rect(x, y + 3.0, cw, rh - 6.0, colour(k.spec.dtype), if featured.contains(&k.name()) { INK } else { "#ffffff" });
            if featured.contains(&k.name()) {
                s.thick_rect(x - 1.0, y + 2.0, cw + 2.0, rh - 4.0, INK, 1.5);
            }
        }
        widest = widest.max(mine.len());
        s.text(x0 + mine.len() as f64 * (cw + 2.0) + 6.0, y + 14.0, 10.0, "start", &format!("{}", mine.len()));
    }
    s.ensure_width(x0 + widest as f64 * (cw + 2.0) + 40.0);
    let cap = [
        format!("The {} entry points of the PTX module, one box per configuration that an entries! macro instantiates.", kernels.len()),
        "Blue: f32, orange: bf16, green: f16. Outlined: the featured configuration of the rung (BEST in src/catalog.rs), the one the chapters measure.".to_string(),
    ];
    caption(&mut s, y0 + 14.0 * rh + 20.0, &cap);
    s.finish("The catalog: every kernel configuration, rung by rung")
}

/// The grid of blocks over C for a small problem with rung 1: what the host's launch computes.
fn launch_grid() -> String {
    let kernel = catalog::best_of_rung(1, Dtype::F32).unwrap();
    let problem = Problem::new(100, 70, 64, 1.0, 0.0).unwrap();
    let launch = kernel.geometry(&problem).unwrap();
    let bs = kernel.spec.tile.bm as f64;
    let (m, n) = (problem.m as f64, problem.n as f64);
    let px = 3.0;
    let mut s = Svg::new(560.0, 420.0);
    let (x0, y0) = (60.0, 40.0);
    let (gx, gy) = (launch.grid.0, launch.grid.1);
    for by in 0..gy {
        for bx in 0..gx {
            let (x, y) = (x0 + bx as f64 * bs * px, y0 + by as f64 * bs * px);
            let partial = (bx as f64 + 1.0) * bs > n || (by as f64 + 1.0) * bs > m;
            s.rect(x, y, bs * px, bs * px, if partial { LIGHT[1] } else { LIGHT[0] }, GRID);
            s.text(x + bs * px / 2.0, y + bs * px / 2.0 + 4.0, 11.0, "middle", &format!("({bx}, {by})"));
        }
    }
    s.thick_rect(x0, y0, n * px, m * px, PALETTE[3], 2.0);
    s.text(x0 + n * px / 2.0, y0 - 8.0, 12.0, "middle", &format!("N = {}", problem.n));
    s.vtext(x0 - 12.0, y0 + m * px / 2.0, 12.0, &format!("M = {}", problem.m));
    let cap = [
        format!("rung 1 on M = {}, N = {}: grid = ({gx}, {gy}) blocks of {} threads, each block a {}×{} tile of C (block_col, block_row).", problem.m, problem.n, launch.block.0, bs, bs),
        "Red: the matrix C. Orange blocks hang over its edge; their threads outside C return before storing.".to_string(),
    ];
    caption(&mut s, y0 + gy as f64 * bs * px + 30.0, &cap);
    s.finish("The launch grid of rung 1 over a 100 × 70 C")
}

// ---------------------------------------------------------------------------------------------
// Rungs 1-2: which element each thread of a warp computes

/// Thread `t`'s element of the block tile in rung 1 (neighbouring threads, neighbouring rows)
/// and rung 2 (neighbouring threads, neighbouring columns); see the kernels' `run`.
fn element_of_thread(rung: u8, bs: u32, t: u32) -> (u32, u32) {
    if rung == 1 { (t % bs, t / bs) } else { (t / bs, t % bs) }
}

fn coalescing(rung: u8) -> String {
    let sp = spec(rung, Dtype::F32);
    let bs = sp.tile.bm;
    let cell = 7.0;
    let mut s = Svg::new(640.0, 340.0);
    let (x0, y0) = (40.0, 40.0);
    for r in 0..bs {
        for c in 0..bs {
            s.rect(x0 + c as f64 * cell, y0 + r as f64 * cell, cell, cell, "#f4f4f4", "#dddddd");
        }
    }
    for lane in 0..32 {
        let (r, c) = element_of_thread(rung, bs, lane);
        s.rect(x0 + c as f64 * cell, y0 + r as f64 * cell, cell, cell, PALETTE[0], "#ffffff");
    }
    s.thick_rect(x0, y0, bs as f64 * cell, bs as f64 * cell, INK, 1.0);
    s.text(x0 + bs as f64 * cell / 2.0, y0 - 8.0, 12.0, "middle", &format!("block tile of C, {bs}×{bs}"));
    let [a, b, cst] = coalescing_segments(rung);
    let x1 = 320.0;
    s.bold(x1, 56.0, 13.0, "start", "128-byte segments per warp instruction");
    for (i, (what, count)) in [("load A(row, i)", a), ("load B(i, col)", b), ("store C(row, col)", cst)].iter().enumerate() {
        let y = 80.0 + 50.0 * i as f64;
        s.text(x1, y, 12.0, "start", &format!("{what}: {count}"));
        for j in 0..32 {
            let fill = if j < *count { PALETTE[3] } else { "#eeeeee" };
            s.rect(x1 + j as f64 * 9.0, y + 6.0, 8.0, 14.0, fill, "#cccccc");
        }
    }
    let cap = [
        format!("Rung {rung}: blue = the 32 threads of warp 0 (thread t computes row {}, column {}).", if rung == 1 { "t % 32" } else { "t / 32" }, if rung == 1 { "t / 32" } else { "t % 32" }),
        "Right: distinct 128-byte segments per warp-wide access in one step of the K loop (K = N = 4096, f32).".to_string(),
        "One segment is one memory transaction; 32 means the warp's access was split 32 ways.".to_string(),
    ];
    caption(&mut s, 290.0, &cap);
    s.finish(&format!("Rung {rung}: which elements of C a warp computes, and what its accesses cost"))
}

// ---------------------------------------------------------------------------------------------
// Rungs 3-6: the block tile sliding along K

/// Thread `t`'s (row, column) origin in the block tile, in units of its thread tile, for rungs
/// 3 (one element per thread), 4 (a column strip of `tm`) and 5-6 (a `tm × tn` tile).
fn thread_tile_origin(sp: &KernelSpec, t: u32) -> (u32, u32) {
    let tl = &sp.tile;
    let across = tl.bn / tl.tn;
    (t / across * tl.tm, t % across * tl.tn)
}

fn blocktile(rung: u8) -> String {
    let sp = spec(rung, Dtype::F32);
    let t = &sp.tile;
    let scale = 240.0 / t.bm.max(t.bn) as f64;
    let kw = (t.bk as f64 * scale).max(10.0);
    let (ax, cy) = (40.0, 40.0 + kw + 30.0);
    let cx = ax + kw + 30.0;
    let by = 40.0;
    let (cw, ch) = (t.bn as f64 * scale, t.bm as f64 * scale);
    let mut s = Svg::new(cx + cw + 250.0, cy + ch + 90.0);
    // A slice, B slice, C tile.
    s.rect(ax, cy, kw, ch, LIGHT[0], INK);
    s.rect(cx, by, cw, kw, LIGHT[2], INK);
    s.rect(cx, cy, cw, ch, "#f7f7f7", INK);
    s.vtext(ax - 8.0, cy + ch / 2.0, 12.0, &format!("A slice {}×{}", t.bm, t.bk));
    s.text(cx + cw / 2.0, by - 6.0, 12.0, "middle", &format!("B slice {}×{}", t.bk, t.bn));
    s.arrow(ax + kw / 2.0 - 14.0, cy - 12.0, ax + kw / 2.0 + 14.0, cy - 12.0, PALETTE[3]);
    s.arrow(cx - 14.0, by + kw / 2.0 - 12.0, cx - 14.0, by + kw / 2.0 + 12.0, PALETTE[3]);
    // Thread tiles.
    let (tw, th) = (t.tn as f64 * scale, t.tm as f64 * scale);
    if tw >= 4.0 && th >= 4.0 {
        let mut y = cy;
        while y < cy + ch - 0.01 {
            s.line(cx, y, cx + cw, y, "#cccccc", 0.5);
            y += th;
        }
        let mut x = cx;
        while x < cx + cw - 0.01 {
            s.line(x, cy, x, cy + ch, "#cccccc", 0.5);
            x += tw;
        }
    }
    for (thread, color) in [(0u32, 0usize), (1, 1)] {
        let (r, c) = thread_tile_origin(sp, thread);
        let (x, y) = (cx + c as f64 * scale, cy + r as f64 * scale);
        s.rect(x, y, tw, th, PALETTE[color], INK);
        // The rows of A and columns of B this thread reads from shared memory.
        s.rect(ax + kw / 2.0 * color as f64, y, kw / 2.0, th, PALETTE[color], "none");
        s.rect(x, by, tw, kw, PALETTE[color], "none");
    }
    s.text(cx + cw / 2.0, cy + ch + 18.0, 12.0, "middle", &format!("C block tile {}×{}", t.bm, t.bn));
    let lx = cx + cw + 20.0;
    let lines = [
        format!("{} threads per block", sp.threads),
        format!("thread tile {}×{}", t.tm, t.tn),
        format!("K slice bk = {}", t.bk),
        format!("shared memory {} B", sp.smem_bytes),
        String::new(),
        "blue: thread 0's tile, and".to_string(),
        "the A rows / B columns it reads".to_string(),
        "orange: thread 1".to_string(),
        "red arrows: the slices move".to_string(),
        format!("along K by bk = {} per step", t.bk),
    ];
    for (i, l) in lines.iter().enumerate() {
        s.text(lx, cy + 14.0 + 16.0 * i as f64, 12.0, "start", l);
    }
    let fmas = t.bm as u64 * t.bn as u64 * t.bk as u64;
    let loads = (t.bm as u64 + t.bn as u64) * t.bk as u64;
    let cap = [
        format!("Per K step the block loads {loads} floats into shared memory and does {fmas} FMAs:"),
        format!("{:.1} FMAs per float loaded from global memory.", fmas as f64 / loads as f64),
    ];
    caption(&mut s, cy + ch + 50.0, &cap);
    s.finish(&format!("Rung {rung}: the {}×{} block tile, its thread tiles and the K slices", t.bm, t.bn))
}

/// Scalar against float4 loads: bytes one warp instruction moves, and instructions per K step.
fn float4() -> String {
    let (s5, s6) = (spec(5, Dtype::F32), spec(6, Dtype::F32));
    let per_thread = |sp: &KernelSpec| (sp.tile.bm * sp.tile.bk + sp.tile.bk * sp.tile.bn) / sp.threads;
    let mut s = Svg::new(760.0, 250.0);
    let cell = 5.5;
    for (row, (label, width)) in [("ld.global.f32: 32 lanes × 4 B = 128 B", 1u32), ("ld.global.v4.f32: 32 lanes × 16 B = 512 B", 4)].iter().enumerate() {
        let y = 40.0 + 70.0 * row as f64;
        s.text(12.0, y - 8.0, 12.0, "start", label);
        for e in 0..128u32 {
            let lane = e / width;
            let fill = if lane < 32 { LIGHT[(lane % 8) as usize] } else { "#ffffff" };
            s.rect(12.0 + e as f64 * cell, y, cell, 18.0, fill, "#bbbbbb");
            if e % width == 0 && lane < 32 && lane % 4 == 0 {
                s.text(12.0 + (e as f64 + *width as f64 / 2.0) * cell, y + 32.0, 9.0, "middle", &format!("{lane}"));
            }
        }
    }
    let cap = [
        format!(
            "Rung 5 ({}×{}×{}, {} threads): {} scalar loads per thread per K step.  Rung 6 ({}×{}×{}, {} threads): {} float4 loads.",
            s5.tile.bm, s5.tile.bn, s5.tile.bk, s5.threads, per_thread(s5), s6.tile.bm, s6.tile.bn, s6.tile.bk, s6.threads, per_thread(s6) / 4
        ),
        "Colours: the lane that reads each float (numbers: lane index). Same bytes, a quarter of the instructions.".to_string(),
    ];
    caption(&mut s, 200.0, &cap);
    s.finish("Scalar and float4 loads of one warp")
}

// ---------------------------------------------------------------------------------------------
// Rung 7: the transposed store and its padding

/// (row, column) of the A slice that lane `lane` of warp 0 copies first in rung 7's transposed
/// copy (`TransposedCopy::coords` with `i = 0`): 16 rows × 8 columns per warp.
fn transposed_copy_coords(lane: u32) -> (u32, u32) {
    (lane % 16, lane / 16 * 4)
}

/// Rung 7's padding in floats, read back from its spec: shared memory holds `bk` rows of
/// `bm + pad` floats of A and `bk × bn` floats of B.
pub fn rung7_padding() -> u32 {
    let sp = spec(7, Dtype::F32);
    let t = &sp.tile;
    sp.smem_bytes / 4 / t.bk - t.bn - t.bm
}

/// Bank of every lane's word in warp 0's first store of rung 7's transposed copy, with rows of
/// `stride` floats; returns the lanes per bank.
pub fn transposed_store_banks(stride: u32) -> Vec<Vec<u32>> {
    let mut lanes_of_bank: Vec<Vec<u32>> = vec![Vec::new(); 32];
    for lane in 0..32 {
        let (r, c) = transposed_copy_coords(lane);
        // Element (r, c + j) of the slice goes to row c + j, column r; j = 0 here.
        let word = c * stride + r;
        lanes_of_bank[(word % 32) as usize].push(lane);
    }
    lanes_of_bank
}

/// The number of 128-byte segments warp 0's loads of A, of B and its store of C touch in one
/// step of rung 1's or rung 2's K loop, with K = N = 4096 floats.
pub fn coalescing_segments(rung: u8) -> [usize; 3] {
    let bs = spec(rung, Dtype::F32).tile.bm;
    let (k, n) = (4096u64, 4096u64);
    let seg = |addrs: Vec<u64>| {
        let mut v: Vec<u64> = addrs.into_iter().map(|a| a / 128).collect();
        v.sort();
        v.dedup();
        v.len()
    };
    let elems: Vec<(u32, u32)> = (0..32).map(|l| element_of_thread(rung, bs, l)).collect();
    [
        seg(elems.iter().map(|&(r, _)| r as u64 * k * 4).collect()),
        seg(elems.iter().map(|&(_, c)| c as u64 * 4).collect()),
        seg(elems.iter().map(|&(r, c)| (r as u64 * n + c as u64) * 4).collect()),
    ]
}

fn banks_transposed() -> String {
    let sp = spec(7, Dtype::F32);
    let t = &sp.tile;
    let pad = rung7_padding();
    let mut s = Svg::new(760.0, 390.0);
    for (row, stride) in [t.bm, t.bm + pad].into_iter().enumerate() {
        let y = 50.0 + 160.0 * row as f64;
        let lanes_of_bank = transposed_store_banks(stride);
        let degree = lanes_of_bank.iter().map(|v| v.len()).max().unwrap();
        s.bold(12.0, y - 14.0, 13.0, "start", &format!(
            "row stride {stride} floats{}: the warp's first store hits {} bank{} at most {degree} time{} ({degree}-way)",
            if stride == t.bm { " (no padding)" } else { " (padded)" },
            lanes_of_bank.iter().filter(|v| !v.is_empty()).count(),
            "s",
            if degree == 1 { "" } else { "s" }
        ));
        for (bank, lanes) in lanes_of_bank.iter().enumerate() {
            let x = 12.0 + bank as f64 * 23.0;
            s.text(x + 11.0, y + 4.0, 9.0, "middle", &format!("{bank}"));
            for (i, lane) in lanes.iter().enumerate() {
                let fill = if lanes.len() > 1 { LIGHT[3] } else { LIGHT[2] };
                s.rect(x, y + 10.0 + 20.0 * i as f64, 22.0, 19.0, fill, "#999999");
                s.text(x + 11.0, y + 24.0 + 20.0 * i as f64, 10.0, "middle", &format!("{lane}"));
            }
        }
    }
    let cap = [
        format!("Rung 7 ({}×{}×{}): lane l stores A(l % 16, 4·(l / 16)) to row 4·(l / 16), column l % 16 of the transposed tile.", t.bm, t.bn, t.bk),
        format!("Columns: the 32 banks; boxes: the lanes whose word falls in that bank. The kernel pads rows by {pad} floats."),
    ];
    caption(&mut s, 350.0, &cap);
    s.finish("Rung 7: bank conflicts of the transposed store, without and with padding")
}

// ---------------------------------------------------------------------------------------------
// The 128-byte swizzle

fn swizzle() -> String {
    let mut s = Svg::new(760.0, 330.0);
    let (cw, rh) = (36.0, 26.0);
    for (panel, swizzled) in [false, true].into_iter().enumerate() {
        let x0 = 40.0 + panel as f64 * 370.0;
        let y0 = 50.0;
        s.bold(x0, y0 - 22.0, 13.0, "start", if swizzled { "swizzle_128b: chunk c of line l at c ^ (l % 8)" } else { "plain row-major, 128-byte rows" });
        for c in 0..8 {
            s.text(x0 + c as f64 * cw + cw / 2.0, y0 - 6.0, 9.0, "middle", &format!("b{}-{}", 4 * c, 4 * c + 3));
        }
        for line in 0..8u32 {
            s.text(x0 - 6.0, y0 + line as f64 * rh + rh / 2.0 + 4.0, 10.0, "end", &format!("{line}"));
            for chunk in 0..8u32 {
                let logical = line * 128 + chunk * 16;
                let physical = if swizzled { swizzle_128b(logical) } else { logical };
                let pos = (physical % 128) / 16;
                let fill = if chunk == 0 { PALETTE[3] } else { LIGHT[chunk as usize] };
                s.rect(x0 + pos as f64 * cw, y0 + line as f64 * rh, cw, rh, fill, "#888888");
                s.text(x0 + pos as f64 * cw + cw / 2.0, y0 + line as f64 * rh + rh / 2.0 + 4.0, 10.0, "middle", &format!("c{chunk}"));
            }
        }
    }
    let cap = [
        "Eight 128-byte lines (rows of a 16-bit tile 64 wide); columns are the eight 16-byte positions, i.e. banks 0-3 … 28-31.".to_string(),
        "Cell cN: logical chunk N of that line. Red: chunk 0 of each row, what one ldmatrix or wgmma read of a column of 8 rows fetches.".to_string(),
        "Plain: all eight in banks 0-3 (8-way conflict). Swizzled: one per bank group (conflict-free). Same picture repeats every 1024 bytes.".to_string(),
    ];
    caption(&mut s, 280.0, &cap);
    s.finish("The 128-byte XOR swizzle of swizzle.rs")
}

// ---------------------------------------------------------------------------------------------
// Pipelines

/// Rung 8's double buffer (register-staged, one barrier per step) or rung 10's cp.async ring.
fn pipeline(rung: u8) -> String {
    let sp = spec(rung, Dtype::F32);
    let stages = sp.tile.stages;
    let steps = 7u32;
    let (x0, w) = (150.0, 80.0);
    let mut s = Svg::new(x0 + w * (steps as f64 + 1.0) + 30.0, 290.0);
    let rows = if rung == 8 {
        ["global → registers", "compute (shared)", "registers → shared"]
    } else {
        ["cp.async issued", "compute (shared)", "wait_group + barrier"]
    };
    for (i, r) in rows.iter().enumerate() {
        s.text(x0 - 10.0, 62.0 + 50.0 * i as f64, 12.0, "end", r);
    }
    // Prologue: tiles 0 .. stages-2 loaded before step 0.
    let ahead = stages - 1;
    s.rect(x0 - 0.0, 45.0, w - 4.0, 30.0, "#eeeeee", GRID);
    s.text(x0 + w / 2.0 - 2.0, 64.0, 10.0, "middle", &format!("T0..T{}", ahead - 1));
    for step in 0..steps {
        let x = x0 + w * (step as f64 + 1.0);
        let load = step + ahead;
        let b_load = (load % stages) as usize;
        let b_read = (step % stages) as usize;
        s.rect(x, 45.0, w - 4.0, 30.0, LIGHT[b_load], GRID);
        s.text(x + w / 2.0 - 2.0, 64.0, 10.0, "middle", &format!("T{load} → buf {b_load}"));
        s.rect(x, 95.0, w - 4.0, 30.0, PALETTE[b_read], GRID);
        s.text(x + w / 2.0 - 2.0, 114.0, 10.0, "middle", &format!("T{step} ← buf {b_read}"));
        if rung == 8 {
            s.rect(x, 145.0, w - 4.0, 30.0, LIGHT[b_load], GRID);
            s.text(x + w / 2.0 - 2.0, 164.0, 10.0, "middle", &format!("T{load} → buf {b_load}"));
        } else {
            s.text(x + w / 2.0 - 2.0, 164.0, 10.0, "middle", &format!("T{} landed", step + 1));
        }
        s.dashed(x + w - 2.0, 35.0, x + w - 2.0, 185.0, PALETTE[3]);
    }
    s.text(x0 + w * (steps as f64 + 1.0), 200.0, 10.0, "end", "dashed red: __syncthreads (bar.sync) once per step");
    let cap = if rung == 8 {
        vec![
            format!("Rung 8, {stages} buffers: the loads of tile T(i+1) are issued before the FMAs on tile T(i) and written to the other buffer after them,"),
            "so global-memory latency overlaps the arithmetic, and one barrier per step suffices (the buffer written is not the one read).".to_string(),
        ]
    } else {
        vec![
            format!("Rung 10, a ring of {stages} buffers: step i issues the cp.async copies of tile T(i+{ahead}) and computes on T(i);"),
            format!("cp.async.wait_group {} leaves the {} newest groups in flight, so copies run {} tiles ahead of the arithmetic.", stages - 2, stages - 2, ahead),
        ]
    };
    caption(&mut s, 240.0, &cap);
    s.finish(&format!("Rung {rung}: the shared-memory pipeline over time"))
}

// ---------------------------------------------------------------------------------------------
// Rungs 9-11: warp tiles

/// The rows and columns of a warp tile lane `lane` owns (`WarpTiling::place` of
/// `warp_compute.rs`, warp 0): columns in runs of 4, `4·lanes_n` apart; rows in runs of 4 (A
/// transposed, rungs 9-10) or single rows (A swizzled, rung 11).
fn lane_cells(sp: &KernelSpec, swizzled: bool, lane: u32) -> Vec<(u32, u32)> {
    let t = &sp.tile;
    let (lanes_m, lanes_n) = (t.wm / t.tm, t.wn / t.tn);
    let (lr, lc) = (lane / lanes_n, lane % lanes_n);
    let rows: Vec<u32> = if swizzled {
        (0..t.tm).map(|i| lr + i * lanes_m).collect()
    } else {
        (0..t.tm).map(|i| lr * 4 + i / 4 * 4 * lanes_m + i % 4).collect()
    };
    let cols: Vec<u32> = (0..t.tn / 4).flat_map(|q| (0..4).map(move |j| lc * 4 + q * 4 * lanes_n + j)).collect();
    rows.iter().flat_map(|&r| cols.iter().map(move |&c| (r, c))).collect()
}

fn warptile(rung: u8) -> String {
    let sp = spec(rung, Dtype::F32);
    let t = &sp.tile;
    let swizzled = rung == 11;
    let scale = 2.0;
    let (bx, by) = (30.0, 50.0);
    let (zx, zs) = (bx + t.bn as f64 * scale + 60.0, 5.0);
    let mut s = Svg::new(zx + t.wn as f64 * zs + 40.0, by + (t.bm as f64 * scale).max(t.wm as f64 * zs) + 90.0);
    let warps_n = t.bn / t.wn;
    for w in 0..(t.bm / t.wm) * warps_n {
        let (wr, wc) = (w / warps_n * t.wm, w % warps_n * t.wn);
        let (x, y) = (bx + wc as f64 * scale, by + wr as f64 * scale);
        s.rect(x, y, t.wn as f64 * scale, t.wm as f64 * scale, if w == 0 { LIGHT[0] } else { "#f4f4f4" }, INK);
        s.text(x + t.wn as f64 * scale / 2.0, y + t.wm as f64 * scale / 2.0 + 4.0, 11.0, "middle", &format!("warp {w}"));
    }
    s.text(bx + t.bn as f64 * scale / 2.0, by - 10.0, 12.0, "middle", &format!("block tile {}×{}: {} warps of {}×{}", t.bm, t.bn, (t.bm / t.wm) * warps_n, t.wm, t.wn));
    // Warp 0, cell by cell.
    let mut owner = vec![vec![u32::MAX; t.wn as usize]; t.wm as usize];
    for lane in 0..32 {
        for (r, c) in lane_cells(sp, swizzled, lane) {
            assert_eq!(owner[r as usize][c as usize], u32::MAX, "two lanes own ({r}, {c})");
            owner[r as usize][c as usize] = lane;
        }
    }
    for r in 0..t.wm {
        for c in 0..t.wn {
            let lane = owner[r as usize][c as usize];
            assert_ne!(lane, u32::MAX, "no lane owns ({r}, {c})");
            let fill = LIGHT[(lane % 8) as usize];
            let fill = if lane / 8 % 2 == 1 { PALETTE[(lane % 8) as usize] } else { fill };
            s.rect(zx + c as f64 * zs, by + r as f64 * zs, zs, zs, fill, "none");
        }
    }
    for lane in 0..32 {
        let (r, c) = lane_cells(sp, swizzled, lane)[0];
        s.text(zx + (c as f64 + 2.0) * zs, by + (r as f64 + 2.5) * zs + 3.0, 8.0, "middle", &format!("{lane}"));
    }
    s.thick_rect(zx, by, t.wn as f64 * zs, t.wm as f64 * zs, INK, 1.0);
    s.text(zx + t.wn as f64 * zs / 2.0, by - 10.0, 12.0, "middle", &format!("warp 0's {}×{} tile, by lane", t.wm, t.wn));
    let ybot = by + (t.bm as f64 * scale).max(t.wm as f64 * zs) + 24.0;
    let rows = if swizzled { "single rows".to_string() } else { "runs of 4 rows".to_string() };
    let cap = [
        format!("Rung {rung} ({}): each lane owns {}×{} elements of C: {} and runs of 4 columns, spread over the warp tile", sp.name, t.tm, t.tn, rows),
        format!("so that a warp's shared-memory reads of one K step cover {} consecutive floats of B ({} bytes) per 4-column run.", 4 * (t.wn / t.tn), 16 * (t.wn / t.tn)),
        "Numbers: the lane, written on its first element.".to_string(),
    ];
    caption(&mut s, ybot, &cap);
    s.finish(&format!("Rung {rung}: warp tiles and the lanes' elements"))
}

// ---------------------------------------------------------------------------------------------
// The mbarrier ring

/// The stage ring over time: which tile each stage holds, when `full[s]` and `empty[s]` complete.
/// Illustrative timing: a copy takes `stages - 1` steps, a tile's arithmetic one.
fn ring(rung: u8, dtype: Dtype) -> String {
    let sp = spec(rung, dtype);
    let stages = sp.tile.stages;
    let tiles = 3 * stages;
    let (x0, w, rh) = (120.0, 34.0, 40.0);
    let lat = stages - 1;
    let end = tiles + lat + 1;
    let mut s = Svg::new(x0 + w * end as f64 + 30.0, 60.0 + rh * stages as f64 + 110.0);
    for step in 0..=end {
        s.text(x0 + step as f64 * w, 40.0, 9.0, "middle", &format!("{step}"));
    }
    s.text(x0 - 10.0, 40.0, 10.0, "end", "time step");
    for st in 0..stages {
        let y = 50.0 + rh * st as f64;
        s.text(x0 - 10.0, y + rh / 2.0 + 4.0, 12.0, "end", &format!("stage {st}"));
        s.line(x0, y + rh, x0 + w * end as f64, y + rh, "#dddddd", 0.5);
    }
    for i in 0..tiles {
        let st = i % stages;
        let y = 50.0 + rh * st as f64 + 5.0;
        let (load, read) = (i as f64, (i + lat) as f64);
        s.rect(x0 + load * w, y, lat as f64 * w - 2.0, rh - 10.0, LIGHT[0], GRID);
        s.text(x0 + (load + lat as f64 / 2.0) * w, y + rh / 2.0 - 1.0, 10.0, "middle", &format!("T{i} copy (phase {})", i / stages));
        s.rect(x0 + read * w, y, w - 2.0, rh - 10.0, PALETTE[1], GRID);
        s.text(x0 + (read + 0.5) * w, y + rh / 2.0 - 1.0, 10.0, "middle", &format!("T{i}"));
        // full[s] completes when the bytes land; empty[s] when the consumers are done.
        s.circle(x0 + read * w, y - 1.0, 3.5, PALETTE[2]);
        s.circle(x0 + (read + 1.0) * w - 2.0, y + rh - 9.0, 3.5, PALETTE[3]);
    }
    let yb = 60.0 + rh * stages as f64;
    let consumers = if rung == 11 { format!("{} consumer warps", (sp.threads - 32) / 32) } else { format!("{} consumer warpgroups", sp.threads / 128 - 1) };
    let cap = [
        format!("{} ({} stages; a producer warp, {consumers}). Blue: the copy engine fills the stage with tile Ti; orange: the consumers read it.", sp.name, stages),
        format!("Green dot: full[s] completes (the expected bytes arrived): consumers waiting on parity (i / {stages}) % 2 go on."),
        "Red dot: empty[s] completes (every consumer arrived): the producer may issue the copy of tile T(i + stages) into it.".to_string(),
        format!("Timing is schematic: a copy is drawn {lat} steps long, the arithmetic on a tile one step; with that latency {stages} stages keep the consumers busy."),
    ];
    caption(&mut s, yb + 10.0, &cap);
    s.finish(&format!("Rung {rung}: the full/empty mbarrier ring over time"))
}

/// Rung 14's persistent loop: the producer keeps loading the next tile's K-tiles while the
/// consumers store the previous tile (schematic: 6 K-tiles per C tile, epilogue 2 steps).
fn persistent() -> String {
    let sp = spec(14, Dtype::Bf16);
    let stages = sp.tile.stages as i64;
    let (ktiles, epi, ctiles) = (6i64, 2i64, 3i64);
    // Producer issues K-tile j when stage j % stages was released (consumer finished K-tile j - stages).
    let n = ktiles * ctiles;
    let mut load = vec![0i64; n as usize];
    let mut comp = vec![0i64; n as usize];
    let lat = 2i64;
    for j in 0..n as usize {
        let free = if j as i64 >= stages { comp[j - stages as usize] + 1 } else { 0 };
        load[j] = if j == 0 { 0 } else { (load[j - 1] + 1).max(free) };
        let prev_end = if j == 0 {
            0
        } else {
            comp[j - 1] + 1 + if j as i64 % ktiles == 0 { epi } else { 0 }
        };
        comp[j] = (load[j] + lat).max(prev_end);
    }
    let end = comp[n as usize - 1] + 1 + epi;
    let (x0, w) = (170.0, 24.0);
    let mut s = Svg::new(x0 + w * end as f64 + 30.0, 250.0);
    s.text(x0 - 10.0, 64.0, 12.0, "end", "producer (TMA issue)");
    s.text(x0 - 10.0, 124.0, 12.0, "end", "consumers (wgmma)");
    for j in 0..n as usize {
        let tile = j as i64 / ktiles;
        s.rect(x0 + load[j] as f64 * w, 50.0, w - 2.0, 24.0, LIGHT[tile as usize], GRID);
        s.rect(x0 + comp[j] as f64 * w, 110.0, w - 2.0, 24.0, PALETTE[tile as usize], GRID);
        if (j as i64 + 1) % ktiles == 0 {
            let x = x0 + (comp[j] + 1) as f64 * w;
            s.rect(x, 110.0, epi as f64 * w - 2.0, 24.0, PALETTE[3], GRID);
            s.text(x + epi as f64 * w / 2.0, 126.0, 9.0, "middle", "store C");
        }
    }
    for tile in 0..ctiles {
        let j = (tile * ktiles) as usize;
        s.text(x0 + load[j] as f64 * w + 2.0, 44.0, 10.0, "start", &format!("tile {tile}"));
    }
    let cap = [
        format!("{}: one block per SM walks C tiles i, i + blocks, …; a ring of {stages} stages joins consecutive tiles.", sp.name),
        "Each colour is one C tile (6 K-tiles drawn). While the consumers store C (red), the producer already fills".to_string(),
        "the free stages with the next tile's K-tiles, so the next tile's arithmetic starts without a cold pipeline.".to_string(),
        "Schematic timing: 2 steps per copy, 1 per K-tile of arithmetic, 2 for the epilogue.".to_string(),
    ];
    caption(&mut s, 170.0, &cap);
    s.finish("Rung 14: the persistent kernel overlaps the epilogue with the next tile's loads")
}

// ---------------------------------------------------------------------------------------------
// Tensor cores

fn mma_fragments(l: &probe::MmaLayout) -> String {
    let (cw, rh) = (24.0, 19.0);
    let mut s = Svg::new(40.0 + 16.0 * cw + 40.0 + 8.0 * cw + 40.0 + 8.0 * cw + 30.0, 70.0 + 16.0 * rh + 100.0);
    let grid = |s: &mut Svg, x0: f64, title: &str, rows: u32, cols: u32, cells: &[(Rc, u32, usize)]| {
        s.bold(x0, 40.0, 13.0, "start", title);
        for (rc, lane, reg) in cells {
            let (x, y) = (x0 + rc.1 as f64 * cw, 50.0 + rc.0 as f64 * rh);
            s.rect(x, y, cw, rh, LIGHT[*reg * 2 % 8], "#999999");
            s.text(x + cw / 2.0, y + rh / 2.0 + 4.0, 9.0, "middle", &format!("{lane}"));
        }
        s.thick_rect(x0, 50.0, cols as f64 * cw, rows as f64 * rh, INK, 1.0);
    };
    type Rc = probe::Rc;
    let mut a = Vec::new();
    let mut b = Vec::new();
    let mut c = Vec::new();
    for lane in 0..32u32 {
        for reg in 0..4 {
            for half in 0..2 {
                a.push((l.a[lane as usize][reg][half], lane, reg));
            }
            c.push((l.c[lane as usize][reg], lane, reg));
        }
        for reg in 0..2 {
            for half in 0..2 {
                let (k, n) = l.b[lane as usize][reg][half];
                b.push(((k, n), lane, reg));
            }
        }
    }
    let xa = 40.0;
    let xb = xa + 16.0 * cw + 40.0;
    let xc = xb + 8.0 * cw + 40.0;
    grid(&mut s, xa, "A 16×16 (rows m, columns k)", 16, 16, &a);
    grid(&mut s, xb, "B 16×8 (k, n)", 16, 8, &b);
    grid(&mut s, xc, "C, D 16×8 (m, n)", 16, 8, &c);
    let y = 70.0 + 16.0 * rh;
    for reg in 0..4 {
        s.rect(xa + reg as f64 * 90.0, y, 16.0, 14.0, LIGHT[reg * 2 % 8], "#999999");
        s.text(xa + reg as f64 * 90.0 + 22.0, y + 11.0, 11.0, "start", &format!("register {reg}"));
    }
    let cap = [
        "mma.sync.m16n8k16 with 16-bit A and B, f32 accumulators: the number in each cell is the lane holding that element;".to_string(),
        "the colour is which of its registers (A: four .b32 of two halves; B: two; C/D: four f32). Observed on the emulator, not drawn by hand.".to_string(),
        "Lane = 4·g + t: g = lane / 4 picks the row (and row + 8), t = lane % 4 the column pair 2t, 2t + 1.".to_string(),
    ];
    caption(&mut s, y + 36.0, &cap);
    s.finish("mma.sync.m16n8k16: which lane holds which element")
}

fn ldmatrix(l: &probe::MmaLayout) -> String {
    let (cw, rh) = (22.0, 19.0);
    let mut s = Svg::new(820.0, 70.0 + 16.0 * rh + 90.0);
    let x0 = 40.0;
    s.bold(x0, 40.0, 13.0, "start", "addresses: lane i points at one 16-byte row");
    for lane in 0..32u32 {
        let (r, c) = l.rows[lane as usize];
        let matrix = (lane / 8) as usize;
        let (x, y) = (x0 + c as f64 * cw, 50.0 + r as f64 * rh);
        s.rect(x, y, 8.0 * cw, rh, LIGHT[matrix * 2], "#999999");
        s.text(x + 4.0 * cw, y + rh / 2.0 + 4.0, 10.0, "middle", &format!("lane {lane} → matrix {matrix}"));
    }
    let x1 = x0 + 16.0 * cw + 50.0;
    s.bold(x1, 40.0, 13.0, "start", "result: register r of lane l");
    for lane in 0..32u32 {
        for reg in 0..4usize {
            for half in 0..2 {
                let (r, c) = l.a[lane as usize][reg][half];
                let (x, y) = (x1 + c as f64 * cw, 50.0 + r as f64 * rh);
                s.rect(x, y, cw, rh, LIGHT[reg * 2], "#999999");
                s.text(x + cw / 2.0, y + rh / 2.0 + 4.0, 9.0, "middle", &format!("{lane}"));
            }
        }
    }
    let cap = [
        "ldmatrix.x4 as rung 12 issues it on a 16×16 tile of 16-bit values: left, the row each lane's address names (colour = which 8×8 matrix).".to_string(),
        "Right, what comes back: register r of every lane holds two neighbouring elements of matrix r (numbers: the lane),".to_string(),
        "exactly the A fragment of mma.sync. The registers follow the addresses: point lanes elsewhere and other elements arrive.".to_string(),
    ];
    caption(&mut s, 70.0 + 16.0 * rh + 30.0, &cap);
    s.finish("ldmatrix.x4: addresses in, fragments out")
}

/// Rung 12: the block tile, the warp tiles, and warp 0's mma tiles (16×8 each).
fn mma_warptile() -> String {
    let sp = spec(12, Dtype::Bf16);
    let t = &sp.tile;
    let scale = 2.0;
    let (bx, by) = (30.0, 50.0);
    let warps_n = t.bn / t.wn;
    let warps = (t.bm / t.wm) * warps_n;
    let zx = bx + t.bn as f64 * scale + 60.0;
    let zs = 4.0;
    let mut s = Svg::new(zx + t.wn as f64 * zs + 30.0, by + (t.wm as f64 * zs).max(t.bm as f64 * scale) + 80.0);
    for w in 0..warps {
        let (wr, wc) = (w / warps_n * t.wm, w % warps_n * t.wn);
        let (x, y) = (bx + wc as f64 * scale, by + wr as f64 * scale);
        s.rect(x, y, t.wn as f64 * scale, t.wm as f64 * scale, if w == 0 { LIGHT[0] } else { "#f4f4f4" }, INK);
        s.text(x + t.wn as f64 * scale / 2.0, y + t.wm as f64 * scale / 2.0 + 4.0, 11.0, "middle", &format!("warp {w}"));
    }
    s.text(bx + t.bn as f64 * scale / 2.0, by - 10.0, 12.0, "middle", &format!("block tile {}×{}, {} warps ({} threads)", t.bm, t.bn, warps, sp.threads));
    for i in 0..t.wm / 16 {
        for j in 0..t.wn / 8 {
            let (x, y) = (zx + (j * 8) as f64 * zs, by + (i * 16) as f64 * zs);
            s.rect(x, y, 8.0 * zs, 16.0 * zs, LIGHT[((i + j) % 2 * 2) as usize], "#888888");
        }
    }
    s.text(zx + t.wn as f64 * zs / 2.0, by - 10.0, 12.0, "middle", &format!("warp 0: {}×{} mma tiles of 16×8", t.wm / 16, t.wn / 8));
    let cap = [
        format!("{}: per 16-deep slice of K each warp issues {} mma.sync.m16n8k16 ({} A fragments, {} B fragments from ldmatrix).", sp.name, (t.wm / 16) * (t.wn / 8), t.wm / 16, t.wn / 8),
        format!("BK = {}, {} stages; each thread holds {} f32 accumulators.", t.bk, t.stages, t.wm * t.wn / 32),
    ];
    caption(&mut s, by + (t.wm as f64 * zs).max(t.bm as f64 * scale) + 24.0, &cap);
    s.finish("Rung 12: warp tiles of mma.sync tiles")
}

/// Rung 13's shared-memory tiles as the tensor cores see them: 1024-byte atoms, the stride and
/// leading byte offsets, and the descriptors rung 13 builds for them.
fn wgmma_smem() -> String {
    let sp = spec(13, Dtype::Bf16);
    let t = &sp.tile;
    let (bm, bn, bk) = (t.bm as usize, t.bn as usize, t.bk as usize);
    let a_tile = SwizzledTile::new(0, bm, bk);
    let a_bytes = SwizzledTile::bytes(bm, bk);
    let b_tile = SwizzledTile::new(a_bytes, bk, bn);
    let mut s = Svg::new(900.0, 690.0);
    // A: bm rows of 128 bytes, atoms of 8 rows.
    let (ax, ay, aw, rowh) = (40.0, 60.0, 128.0, 2.2);
    s.bold(ax, 40.0, 13.0, "start", &format!("A: {bm}×{bk} (K-major)"));
    for atom in 0..bm / 8 {
        let y = ay + (atom * 8) as f64 * rowh;
        s.rect(ax, y, aw, 8.0 * rowh, if atom < bm / 16 { LIGHT[0] } else { LIGHT[4] }, "#777777");
        s.text(ax + aw + 4.0, y + 8.0 * rowh - 4.0, 8.0, "start", &format!("{}", a_tile.chunk((atom * 8) as u32, 0)));
    }
    s.arrow(ax - 8.0, ay, ax - 8.0, ay + 8.0 * rowh, PALETTE[3]);
    s.text(ax - 12.0, ay + 34.0, 10.0, "end", "SBO");
    s.text(ax, ay + bm as f64 * rowh + 16.0, 10.0, "start", &format!("warpgroup 0: atoms 0-{}, warpgroup 1: {}-{}", bm / 16 - 1, bm / 16, bm / 8 - 1));
    // B: bn / 64 panels of bk rows × 128 bytes.
    let (bx, byy) = (260.0, 60.0);
    let panels = bn / 64;
    let bh = 2.2;
    s.bold(bx, 40.0, 13.0, "start", &format!("B: {bk}×{bn} (N-major), {panels} panels 64 wide"));
    for p in 0..panels {
        let x = bx + p as f64 * 140.0;
        for atom in 0..bk / 8 {
            let y = byy + (atom * 8) as f64 * bh * 2.0;
            s.rect(x, y, 128.0, 16.0 * bh, LIGHT[(p % 4) * 2], "#777777");
            s.text(x + 64.0, y + 8.0 * bh + 4.0, 8.0, "middle", &format!("{}", b_tile.chunk((atom * 8) as u32, (p * 64) as u32)));
        }
        s.text(x + 64.0, byy + bk as f64 * bh * 2.0 + 14.0, 10.0, "middle", &format!("n {}..{}", p * 64, p * 64 + 63));
    }
    s.arrow(bx, byy + bk as f64 * bh * 2.0 + 26.0, bx + 140.0, byy + bk as f64 * bh * 2.0 + 26.0, PALETTE[3]);
    s.text(bx + 70.0, byy + bk as f64 * bh * 2.0 + 40.0, 10.0, "middle", &format!("LBO = {} B", b_tile.panel_bytes()));
    // One atom, chunk by chunk.
    let (ox, oy, cw, ch) = (260.0, byy + bk as f64 * bh * 2.0 + 80.0, 34.0, 18.0);
    s.bold(ox, oy - 10.0, 12.0, "start", "one atom: 8 rows × 128 B = 1024 B; cell = 16-byte chunk holding k 8c..8c+7");
    for r in 0..8u32 {
        for c in 0..8u32 {
            let phys = (a_tile.chunk(r, 8 * c) % 128) / 16;
            s.rect(ox + phys as f64 * cw, oy + r as f64 * ch, cw, ch, if c == 0 { PALETTE[3] } else { LIGHT[c as usize] }, "#888888");
            s.text(ox + phys as f64 * cw + cw / 2.0, oy + r as f64 * ch + 13.0, 9.0, "middle", &format!("r{r} c{c}"));
        }
    }
    // The descriptors, worked.
    let wg1 = a_tile.offset() + 64 * 128;
    let lines = descriptor_lines(wg1, b_tile.offset(), b_tile.panel_bytes());
    for (i, l) in lines.iter().enumerate() {
        s.text(40.0, oy + 8.0 * ch + 40.0 + 15.0 * i as f64, 11.0, "start", l);
    }
    s.text(ax, ay + bm as f64 * rowh + 30.0, 9.0, "start", "numbers: byte offset of each atom");
    s.finish("Rung 13: wgmma's shared-memory atoms, strides and descriptors")
}

/// The relative error bound of a length-K dot product against K, from the checker's own
/// [`crate::check::ErrorModel`]: worst case, probabilistic, and the smaller one used, for f32 FMAs
/// and tensor cores (log–log).
fn error_bound() -> String {
    use crate::check::ErrorModel;
    let mut s = Svg::new(760.0, 470.0);
    let (x0, y0, w, h) = (90.0, 40.0, 600.0, 340.0);
    let (kmin, kmax) = (0.0f64, 20.0f64); // log2 K
    let (emin, emax) = (-24.0f64, -2.0f64); // log2 of the bound
    let px = |lk: f64| x0 + (lk - kmin) / (kmax - kmin) * w;
    let py = |le: f64| y0 + h - (le.clamp(emin, emax) - emin) / (emax - emin) * h;
    s.rect(x0, y0, w, h, "#ffffff", GRID);
    for lk in (0..=20).step_by(4) {
        s.line(px(lk as f64), y0, px(lk as f64), y0 + h, GRID, 0.5);
        s.text(px(lk as f64), y0 + h + 16.0, 10.0, "middle", &format!("2^{lk}"));
    }
    for le in (-24..=-2).step_by(4) {
        s.line(x0, py(le as f64), x0 + w, py(le as f64), GRID, 0.5);
        s.text(x0 - 6.0, py(le as f64) + 4.0, 10.0, "end", &format!("2^{le}"));
    }
    s.text(x0 + w / 2.0, y0 + h + 34.0, 11.0, "middle", "K (length of the dot product)");
    s.vtext(24.0, y0 + h / 2.0, 11.0, "relative bound on |C - C_ref| / (|alpha|·|A|·|B|)");
    let models = [("f32 FMA (u = 2^-24)", ErrorModel::FMA_F32, PALETTE[0]), ("tensor cores (u = 2^-23)", ErrorModel::TENSOR_CORE_F32, PALETTE[1])];
    for (i, (name, model, colour)) in models.iter().enumerate() {
        let points = |f: &dyn Fn(u32) -> f64| -> Vec<(f64, f64)> { (0..=80).map(|j| j as f64 / 4.0).map(|lk| (px(lk), py(f(2f64.powf(lk) as u32).log2()))).collect() };
        s.polyline(&points(&|k| model.worst_case_gamma(k)), colour, 1.0);
        s.polyline(&points(&|k| model.gamma(k)), colour, 2.5);
        let y = y0 + 16.0 + 34.0 * i as f64;
        s.line(x0 + 14.0, y, x0 + 44.0, y, colour, 2.5);
        s.text(x0 + 50.0, y + 4.0, 10.0, "start", &format!("{name}: the bound used, min(worst case, probabilistic)"));
        s.line(x0 + 14.0, y + 15.0, x0 + 44.0, y + 15.0, colour, 1.0);
        s.text(x0 + 50.0, y + 19.0, 10.0, "start", "worst case n·u/(1 − n·u), n = K + 2");
    }
    caption(&mut s, y0 + h + 56.0, &["thin: worst case, which grows as K; thick: the bound the check uses, which follows λ·√n·u (λ = 10) once K passes about λ²".to_string()]);
    s.finish("The error bound per element against K, from check::ErrorModel")
}

/// Rung 15's split of an fp32 value into a tf32 high part and a tf32 remainder, bit by bit, by
/// the device module's own `cvt_rna_tf32` (its emulator twin).
fn tf32_split() -> String {
    use kernels_gpu::device::cvt_rna_tf32;
    let x = 1.0f32 / 3.0;
    let hi = cvt_rna_tf32(x);
    let lo = cvt_rna_tf32(x - hi);
    let mut s = Svg::new(900.0, 260.0);
    let (x0, cw, ch) = (150.0, 20.0, 22.0);
    let rows = [("x = 1/3 (fp32)", x), ("hi = rna(x)", hi), ("lo = rna(x − hi)", lo)];
    for (i, (label, v)) in rows.iter().enumerate() {
        let y = 40.0 + i as f64 * 50.0;
        s.text(x0 - 10.0, y + 15.0, 11.0, "end", label);
        let bits = v.to_bits();
        for b in 0..32 {
            let bit = (bits >> (31 - b)) & 1;
            // sign, exponent (8), the 10 mantissa bits tf32 keeps, the 13 it drops
            let fill = match b {
                0 => LIGHT[6],
                1..=8 => LIGHT[2],
                9..=18 => LIGHT[0],
                _ => "#eeeeee",
            };
            s.rect(x0 + b as f64 * cw, y, cw, ch, fill, "#888888");
            s.text(x0 + b as f64 * cw + cw / 2.0, y + 15.0, 11.0, "middle", &bit.to_string());
        }
        s.text(x0 + 32.0 * cw + 8.0, y + 15.0, 10.0, "start", &format!("{v:.9e}"));
    }
    let err = ((x as f64) - (hi as f64) - (lo as f64)).abs() / (x as f64);
    caption(
        &mut s,
        200.0,
        &[
            "sign | 8 exponent bits | 10 mantissa bits the tensor cores read | 13 bits they ignore (grey)".to_string(),
            format!("hi + lo recovers x to {err:.1e} relative (below 2^-22); the three products hi·hi + hi·lo + lo·hi drop only lo·lo (at most 2^-22 relative)."),
        ],
    );
    s.finish("Rung 15: an fp32 value as a tf32 high part and a tf32 remainder")
}

/// The emulator's address space for one launch: A, B and C (and the tensor maps) between
/// unmapped gaps wider than the kernel's largest tile, from `emulate::gap_bytes`.
fn emulator_arena() -> String {
    let kernel = catalog::find("sgemm_09_warptile_128x128x8_w64x32_t8x8_s2_interior").expect("rung 9's featured kernel is in the catalog").spec;
    let problem = Problem::new(300, 264, 256, 1.0, 0.0).expect("a valid problem");
    let gap = crate::emulate::gap_bytes(kernel, &problem);
    let (a, b, c) = problem.extents();
    let parts = [("gap", gap as f64), ("A", 4.0 * a as f64), ("gap", gap as f64), ("B", 4.0 * b as f64), ("gap", gap as f64), ("C", 4.0 * c as f64), ("gap", gap as f64)];
    let total: f64 = parts.iter().map(|p| p.1).sum();
    let mut s = Svg::new(860.0, 190.0);
    let (x0, y0, w, h) = (30.0, 50.0, 800.0, 46.0);
    let mut x = x0;
    for (name, bytes) in parts {
        let pw = bytes / total * w;
        let (fill, label) = if name == "gap" { ("#eeeeee", format!("gap {} KiB", bytes as u64 >> 10)) } else { (LIGHT[0], format!("{name}: {} KiB", bytes as u64 >> 10)) };
        s.rect(x, y0, pw, h, fill, "#777777");
        s.text(x + pw / 2.0, y0 + h / 2.0 + 4.0, 10.0, "middle", &label);
        x += pw;
    }
    s.bold(x0, 30.0, 12.0, "start", &format!("{} on {}×{}×{}", kernel.name, problem.m, problem.n, problem.k));
    caption(
        &mut s,
        y0 + h + 24.0,
        &[
            format!("Each gap is {} KiB: more than the largest tile ({} rows) of the widest stored row, at least 64 KiB, in whole pages.", gap >> 10, kernel.tile.bm.max(kernel.tile.bn)),
            "An access that leaves a matrix, by one element or by a whole tile, lands in a gap: the emulator names the kernel, block, thread and address.".to_string(),
        ],
    );
    s.finish("The emulator's address space: matrices between unmapped gaps")
}

/// The recorded run of `rgemm bench --suite real --dtype bf16` the library chapter shows.
pub const SUITE_BF16: &str = "docs/perf/2026-11-25-h100-run2/suite-bf16.json";

/// A suite run as one bar per case: % of the best cuBLAS of the plan the automatic choice ran,
/// with the geometric mean.
fn suite(repo: &Path, file: &str) -> Result<String, String> {
    let report = crate::report::Report::read(&repo.join(file)).map_err(|e| e.to_string())?;
    let rows: Vec<(String, String, f64)> = report
        .sizes
        .iter()
        .filter_map(|s| {
            let run = s.runs.first()?;
            Some((s.name(), run.kernel.trim_start_matches("bgemm_").to_string(), 100.0 * s.fraction_of_cublas(run)?))
        })
        .collect();
    let geomean = (rows.iter().map(|r| (r.2 / 100.0).ln()).sum::<f64>() / rows.len().max(1) as f64).exp() * 100.0;
    let (x0, y0, bar, w) = (170.0, 50.0, 16.0, 420.0);
    let mut s = Svg::new(1000.0, y0 + rows.len() as f64 * (bar + 4.0) + 70.0);
    let px = |pct: f64| x0 + pct.min(110.0) / 110.0 * w;
    for pct in [0.0, 25.0, 50.0, 75.0, 100.0] {
        s.line(px(pct), y0 - 6.0, px(pct), y0 + rows.len() as f64 * (bar + 4.0), if pct == 100.0 { PALETTE[3] } else { GRID }, if pct == 100.0 { 1.2 } else { 0.5 });
        s.text(px(pct), y0 - 10.0, 9.0, "middle", &format!("{pct:.0}%"));
    }
    for (i, (case, kernel, pct)) in rows.iter().enumerate() {
        let y = y0 + i as f64 * (bar + 4.0);
        s.text(x0 - 6.0, y + 12.0, 10.0, "end", case);
        s.rect(x0, y, px(*pct) - x0, bar, if *pct >= 90.0 { LIGHT[2] } else if *pct >= 60.0 { LIGHT[4] } else { LIGHT[6] }, "#777777");
        s.text(px(*pct) + 4.0, y + 12.0, 9.0, "start", &format!("{pct:.1}%  {kernel}"));
    }
    let bottom = y0 + rows.len() as f64 * (bar + 4.0) + 20.0;
    caption(
        &mut s,
        bottom,
        &[
            format!("Geometric mean {geomean:.1}% of the best cuBLAS (the faster of cublasGemmEx and cublasLtMatmul) over {} cases.", rows.len()),
            format!("{}, {}, commit {}; {file}.", report.device.name, report.date_utc, report.git_commit.clone().unwrap_or_default()),
        ],
    );
    Ok(s.finish("rgemm bench --suite real, bf16: % of the best cuBLAS per case"))
}

/// Rung 14's stage for each of the four layouts, drawn from the catalog's specs: the boxes the
/// copy engine loads (as the operand is stored) and whether wgmma reads the operand K-major or
/// MN-major.
fn layouts() -> String {
    let persistent_pairs = |suffix: &str| {
        let name = format!("bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs{suffix}");
        catalog::find(&name).unwrap_or_else(|_| panic!("{name} is in the catalog")).spec
    };
    let mut s = Svg::new(1080.0, 520.0);
    let scale = 0.55;
    for (i, suffix) in ["", "_nt", "_tn", "_tt"].into_iter().enumerate() {
        let sp = persistent_pairs(suffix);
        let maps = sp.tensor_maps.expect("rung 14 loads through tensor maps");
        let (x0, y0) = (30.0 + (i % 2) as f64 * 530.0, 40.0 + (i / 2) as f64 * 240.0);
        let t = &sp.tile;
        s.bold(x0, y0, 13.0, "start", &format!("layout {}: {}", sp.layout.name(), sp.name.trim_start_matches("bgemm_14_wgmma_tma_")));
        for (j, (name, rows, cols, stored, boxed)) in [
            ("A", t.bm, t.bk, sp.layout.a.is_t(), maps.a_box),
            ("B", t.bn, t.bk, sp.layout.b.is_t(), maps.b_box),
        ]
        .into_iter()
        .enumerate()
        {
            // The operand's tile as the product sees it (rows × K), then the boxes as stored.
            let k_major = (name == "A") != stored;
            let (box_rows, box_cols) = boxed;
            let boxes = rows * cols / (box_rows * box_cols);
            let bx = x0 + j as f64 * 210.0;
            let by = y0 + 20.0;
            let (w, h) = if k_major { (cols as f64 * 2.0 * scale, rows as f64 * scale) } else { (rows as f64 * 2.0 * scale, cols as f64 * scale) };
            let label = if k_major { "K-major: rows run along K" } else { "MN-major: rows run along M/N" };
            for b in 0..boxes {
                let (dx, dy) = if k_major { (0.0, b as f64 * h / boxes as f64) } else { (b as f64 * w / boxes as f64, 0.0) };
                let (bw, bh) = if k_major { (w, h / boxes as f64) } else { (w / boxes as f64, h) };
                s.rect(bx + dx, by + dy, bw, bh, LIGHT[(2 * b as usize + j) % LIGHT.len()], "#666666");
            }
            let stored_as = if stored { "stored transposed" } else { "stored as in the product" };
            s.text(bx, by + h + 14.0, 10.0, "start", &format!("{name}: {rows}×{cols} tile, {stored_as}"));
            s.text(bx, by + h + 27.0, 10.0, "start", &format!("{boxes} box(es) of {box_rows}×{box_cols} elements"));
            s.text(bx, by + h + 40.0, 10.0, "start", label);
        }
    }
    s.finish("Rung 14: one stage in each layout, as the copy engine loads it and wgmma reads it")
}

/// The descriptor arithmetic of rung 13, on real numbers (stage 0, shared offset 0).
pub fn descriptor_lines(a_start: u32, b_start: u32, lbo_b: u32) -> Vec<String> {
    let fields = |d: u64| ((d & 0x3fff) << 4, ((d >> 16) & 0x3fff) << 4, ((d >> 32) & 0x3fff) << 4, d >> 62);
    let mut out = Vec::new();
    for kk in [0u32, 1] {
        let da = matrix_descriptor(a_start + kk * 32, 16, 1024, Swizzle::B128);
        let db = matrix_descriptor(b_start + kk * 16 * 128, lbo_b, 1024, Swizzle::B128);
        let (sa, la, ta, wa) = fields(da);
        let (sb, lb, tb, wb) = fields(db);
        out.push(format!("k-slice {kk}: desc_a = {da:#018x}  (start {sa}, LBO {la}, SBO {ta}, swizzle mode {wa} = 128 B)  warpgroup 1's rows, +32 B per slice"));
        out.push(format!("k-slice {kk}: desc_b = {db:#018x}  (start {sb}, LBO {lb}, SBO {tb}, swizzle mode {wb} = 128 B)  +16 rows × 128 B per slice"));
    }
    out
}

fn wgmma_accumulators(acc: &[[probe::Rc; 128]]) -> String {
    let cols = 16u32;
    let (cw, rh) = (26.0, 9.0);
    let (x0, y0) = (60.0, 50.0);
    let mut s = Svg::new(x0 + cols as f64 * cw + 300.0, y0 + 64.0 * rh + 80.0);
    let mut owner = vec![vec![(u32::MAX, 0usize); cols as usize]; 64];
    for (thread, regs) in acc.iter().enumerate() {
        for (reg, &(r, c)) in regs.iter().enumerate() {
            if c < cols {
                owner[r as usize][c as usize] = (thread as u32, reg);
            }
        }
    }
    for r in 0..64u32 {
        for c in 0..cols {
            let (thread, reg) = owner[r as usize][c as usize];
            let warp = (thread / 32) as usize;
            let (x, y) = (x0 + c as f64 * cw, y0 + r as f64 * rh);
            s.rect(x, y, cw, rh, LIGHT[warp * 2], "#bbbbbb");
            if r < 16 {
                s.text(x + cw / 2.0, y + rh - 1.5, 7.0, "middle", &format!("{thread}:{reg}"));
            }
        }
        if r % 16 == 0 {
            s.text(x0 - 6.0, y0 + r as f64 * rh + 8.0, 10.0, "end", &format!("row {r}"));
        }
    }
    for w in 0..4 {
        s.text(x0 + cols as f64 * cw + 10.0, y0 + (16 * w + 8) as f64 * rh, 11.0, "start", &format!("warp {w} (threads {}-{})", 32 * w, 32 * w + 31));
    }
    s.bold(x0, 36.0, 12.0, "start", &format!("wgmma m64n{}k16: columns 0-15 of the 64×{} accumulator tile", probe::WGMMA_N, probe::WGMMA_N));
    let cap = [
        "Cell text (warp 0): thread:register. Warp w owns rows 16w .. 16w + 15; inside, the mma.sync C layout repeats".to_string(),
        format!("every 8 columns: register 4j + e holds row 16w + g + 8·(e / 2), column 8j + 2t + e % 2 ({} registers per thread).", probe::WGMMA_N / 2),
        "Observed by running wgmma on the emulator with rung 13's descriptors.".to_string(),
    ];
    caption(&mut s, y0 + 64.0 * rh + 24.0, &cap);
    s.finish("wgmma: the accumulator layout across a warpgroup")
}

// ---------------------------------------------------------------------------------------------
// Measurements

fn ladder(bench: &[BenchRecord]) -> String {
    let mut s = Svg::new(900.0, 400.0);
    let (y0, h) = (50.0, 260.0);
    let panels: [(Dtype, u64, f64, f64); 2] = [(Dtype::F32, 4096, 40.0, 440.0), (Dtype::Bf16, 4096, 530.0, 330.0)];
    for (dtype, size, x0, width) in panels {
        let Some(rec) = bench.iter().find(|r| r.dtype == dtype) else { continue };
        let Some(sz) = rec.sizes.iter().find(|z| z.m == size) else { continue };
        let top = sz.runs.iter().map(|r| r.tflops).chain([sz.cublas]).fold(0.0f64, f64::max) * 1.1;
        let bw = width / sz.runs.len() as f64;
        s.line(x0, y0 + h, x0 + width, y0 + h, INK, 1.0);
        s.line(x0, y0, x0, y0 + h, INK, 1.0);
        let tick = if top > 200.0 { 200.0 } else { 10.0 };
        let mut v = 0.0;
        while v <= top {
            let y = y0 + h - v / top * h;
            s.line(x0 - 3.0, y, x0 + width, y, "#eeeeee", 0.5);
            s.text(x0 - 5.0, y + 4.0, 9.0, "end", &format!("{v:.0}"));
            v += tick;
        }
        for (i, r) in sz.runs.iter().enumerate() {
            let bh = r.tflops / top * h;
            let x = x0 + i as f64 * bw + 3.0;
            s.rect(x, y0 + h - bh, bw - 6.0, bh, PALETTE[0], "none");
            s.text(x + bw / 2.0 - 3.0, y0 + h - bh - 4.0, 9.0, "middle", &format!("{:.1}", r.tflops));
            s.text(x + bw / 2.0 - 3.0, y0 + h + 14.0, 10.0, "middle", &format!("r{}", r.rung));
        }
        let yc = y0 + h - sz.cublas / top * h;
        s.dashed(x0, yc, x0 + width, yc, PALETTE[3]);
        s.text(x0 + width, yc - 4.0, 10.0, "end", &format!("cuBLAS {:.1}", sz.cublas));
        s.bold(x0 + width / 2.0, y0 - 20.0, 12.0, "middle", &format!("{} at {size}³, TFLOP/s", dtype.name()));
    }
    let f32rec = bench.iter().find(|r| r.dtype == Dtype::F32);
    let cap = [
        "Each rung at its featured configuration, median of 10 launches with the L2 cache flushed before each; cuBLAS timed in the same process.".to_string(),
        match f32rec {
            Some(r) => format!("{}, commit {}, {}; data: docs/perf/{}/.", r.device, r.commit, r.date, tables::BENCH_DIR),
            None => String::new(),
        },
    ];
    caption(&mut s, 355.0, &cap);
    s.finish("The ladder: TFLOP/s per rung")
}

/// Flops per byte a block moves from global memory, per K step: `2·bm·bn·bk` over
/// `(bm + bn)·bk` elements; rungs 1-2 have no block reuse, each FMA loads two floats.
pub fn tile_intensity(sp: &KernelSpec) -> f64 {
    let t = &sp.tile;
    if sp.rung.number <= 2 {
        return 2.0 / (2.0 * sp.dtype.bytes() as f64);
    }
    2.0 * t.bm as f64 * t.bn as f64 / ((t.bm + t.bn) as f64 * sp.dtype.bytes() as f64)
}

/// HBM bandwidth of the measured device, from `docs/perf/device.json`.
pub fn hbm_bytes_per_s(repo: &Path) -> Result<(f64, String), String> {
    let path = repo.join("docs/perf/device.json");
    let text = fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let bw = v["hbm_bytes_per_s"].as_f64().ok_or("device.json: no hbm_bytes_per_s")?;
    Ok((bw, v["hbm_source"].as_str().unwrap_or("").to_string()))
}

fn roofline(bench: &[BenchRecord], repo: &Path) -> Result<String, String> {
    let (bw, _) = hbm_bytes_per_s(repo)?;
    let peak = |d: Dtype| bench.iter().find(|r| r.dtype == d).map(|r| r.peak_tflops).unwrap_or(0.0);
    let (p32, p16) = (peak(Dtype::F32), peak(Dtype::Bf16));
    let (x0, y0, w, h) = (70.0, 40.0, 620.0, 380.0);
    let (xmin, xmax, ymin, ymax) = (0.1f64, 1000.0f64, 0.1f64, 2000.0f64);
    let px = |ai: f64| x0 + (ai.log10() - xmin.log10()) / (xmax.log10() - xmin.log10()) * w;
    let py = |tf: f64| y0 + h - (tf.log10() - ymin.log10()) / (ymax.log10() - ymin.log10()) * h;
    let mut s = Svg::new(940.0, 520.0);
    s.rect(x0, y0, w, h, "#ffffff", INK);
    for e in -1..=3 {
        let v = 10f64.powi(e);
        s.dashed(px(v), y0, px(v), y0 + h, "#e4e4e4");
        s.text(px(v), y0 + h + 14.0, 10.0, "middle", &format!("{v}"));
    }
    for e in -1..=3 {
        let v = 10f64.powi(e);
        s.dashed(x0, py(v), x0 + w, py(v), "#e4e4e4");
        s.text(x0 - 5.0, py(v) + 4.0, 10.0, "end", &format!("{v}"));
    }
    s.text(x0 + w / 2.0, y0 + h + 32.0, 12.0, "middle", "arithmetic intensity of a block's global-memory traffic (flop/byte)");
    s.vtext(x0 - 40.0, y0 + h / 2.0, 12.0, "TFLOP/s");
    let tbs = bw / 1e12;
    for (p, color, label) in [(p32, PALETTE[0], "fp32 CUDA cores"), (p16, PALETTE[1], "bf16/f16 tensor cores")] {
        let ridge = p / tbs;
        s.polyline(&[(px(xmin), py(tbs * xmin)), (px(ridge), py(p)), (px(xmax), py(p))], color, 2.0);
        s.text(px(xmax) - 4.0, py(p) - 6.0, 11.0, "end", &format!("{label}: {p:.1} TFLOP/s (ridge {ridge:.0} flop/B)"));
    }
    s.text(px(0.6), py(tbs * 0.6) + 18.0, 10.0, "start", &format!("HBM {:.2} TB/s", tbs));
    for rec in bench.iter().filter(|r| r.ladder) {
        if rec.dtype == Dtype::F16 {
            continue;
        }
        let Some(sz) = rec.sizes.iter().find(|z| z.m == 4096) else { continue };
        for r in &sz.runs {
            let Ok(k) = catalog::find(&r.kernel) else { continue };
            let ai = tile_intensity(k.spec);
            let color = if rec.dtype == Dtype::F32 { PALETTE[0] } else { PALETTE[1] };
            s.circle(px(ai), py(r.tflops), 4.0, color);
            let dy = (r.rung % 3) as f64 * 10.0 - 6.0;
            s.text(px(ai) + 7.0, py(r.tflops) + dy, 10.0, "start", &format!("r{}", r.rung));
        }
        let flops = 2.0 * 4096f64.powi(3);
        let bytes = 4096f64.powi(2) * (2.0 * rec.dtype.bytes() as f64 + 4.0);
        let ai = flops / bytes;
        s.dashed(px(ai), y0, px(ai), y0 + h, if rec.dtype == Dtype::F32 { PALETTE[0] } else { PALETTE[1] });
        s.text(px(ai) - 4.0, y0 + h - 24.0 + if rec.dtype == Dtype::F32 { 0.0 } else { 14.0 }, 9.0, "end", &format!("whole {} problem, 4096³: {ai:.0}", rec.dtype.name()));
    }
    let cap = [
        "Points: each rung at 4096³ (measured, L2 flushed), placed at 2·bm·bn / ((bm + bn)·bytes): the flops a block does per byte it loads.".to_string(),
        "Rungs 1-2 reuse nothing through shared memory: two loads per FMA, 0.25 flop/B. Rooflines: peaks from the bench JSON, HBM bandwidth from docs/perf/device.json.".to_string(),
        "Dashed verticals: the whole problem's intensity if A and B were read and C written once from DRAM.".to_string(),
    ];
    caption(&mut s, 470.0, &cap);
    Ok(s.finish("Roofline of the ladder on the H100"))
}
