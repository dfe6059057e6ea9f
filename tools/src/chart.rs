//! The ladder as a chart: one panel per size, a bar per kernel (TFLOP/s) and cuBLAS as a line,
//! drawn by plotters as SVG and PNG.
//!
//! plotters is built without its system-font support (no fontconfig or freetype at build time);
//! text goes through ab_glyph with DejaVu Sans, which the `dejavu` crate embeds in the binary, so
//! the PNG is always written (`--font PATH` picks another TrueType font). The SVG names the font
//! family and lets the viewer render text. The chart is as wide as its longest line of text needs
//! (title, subtitle, key), measured with the same font, so no text is clipped.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::tool_error::{ToolError, ToolResult};
use crate::report::{Outcome, Report, SizeRecord};

/// The family every text of the chart uses; the loaded font is registered under it.
const FAMILY: &str = "sans-serif";

const PANEL_W: u32 = 620;
const PANEL_H: u32 = 380;
const TITLE_H: u32 = 56;
const KEY_LINE_H: u32 = 18;

/// The font file to use instead of the embedded DejaVu Sans: `explicit`, which must exist.
pub fn find_font(explicit: Option<&Path>) -> ToolResult<Option<PathBuf>> {
    match explicit {
        Some(path) if !path.is_file() => Err(ToolError::Chart(format!("font {} does not exist", path.display()))),
        Some(path) => Ok(Some(path.to_path_buf())),
        None => Ok(None),
    }
}

/// The font registered with plotters last: a file, or the embedded one (`None`).
static REGISTERED: Mutex<Option<Option<PathBuf>>> = Mutex::new(None);

/// Reads the font at `path` (the embedded DejaVu Sans when `None`) and makes it the chart's font.
pub fn load_font(path: Option<&Path>) -> ToolResult<()> {
    let mut registered = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    if registered.as_ref().is_some_and(|last| last.as_deref() == path) {
        return Ok(());
    }
    let (bytes, name): (&'static [u8], String) = match path {
        None => (dejavu::sans::regular(), "the embedded DejaVu Sans".into()),
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| ToolError::Chart(format!("cannot read font {}: {e}", path.display())))?;
            // plotters keeps fonts for the life of the process; a run loads one or two.
            (Box::leak(bytes.into_boxed_slice()), path.display().to_string())
        }
    };
    plotters::style::register_font(FAMILY, FontStyle::Normal, bytes).map_err(|_| ToolError::Chart(format!("{name} is not a TrueType/OpenType font")))?;
    *registered = Some(path.map(Path::to_path_buf));
    Ok(())
}

/// What [`write_charts`] wrote.
#[derive(Debug)]
pub struct Written {
    pub svg: PathBuf,
    /// Always written (the font is embedded); an `Option` for callers that predate that.
    pub png: Option<PathBuf>,
    pub png_note: Option<String>,
}

/// Writes `chart.svg` and `chart.png` into `dir`, text in `font` (default: the embedded DejaVu
/// Sans).
pub fn write_charts(report: &Report, dir: &Path, font: Option<&Path>) -> ToolResult<Written> {
    if report.kernels.len() > MAX_KERNELS || report.sizes.len() > MAX_SIZES {
        return Err(ToolError::Chart(format!(
            "{} kernels and {} sizes are too many to draw (at most {MAX_KERNELS} kernels and {MAX_SIZES} sizes); results.csv holds them all",
            report.kernels.len(),
            report.sizes.len()
        )));
    }
    let font = find_font(font)?;
    load_font(font.as_deref())?;
    let svg = dir.join("chart.svg");
    draw_svg(report, &svg)?;
    let png = dir.join("chart.png");
    draw_png(report, &png)?;
    Ok(Written { svg, png: Some(png), png_note: None })
}

/// The most kernels and sizes one chart shows (its height grows with both).
pub const MAX_KERNELS: usize = 200;
pub const MAX_SIZES: usize = 64;

/// Width and height of the chart of `report`: the panels, widened where the title, the subtitle
/// or a line of the key (two columns) needs more room.
pub fn dimensions(report: &Report) -> (u32, u32) {
    let panels = report.sizes.len().max(1) as u32;
    let cols = panels.min(2);
    let rows = panels.div_ceil(cols);
    let key_rows = (report.kernels.len() as u32).div_ceil(2) + 1;
    let (title, subtitle) = headings(report);
    let key = report.kernels.iter().map(|k| text_width(&key_line(k), KEY_SIZE)).max().unwrap_or(0);
    let width = (cols * PANEL_W)
        .max(MARGIN + text_width(&title, TITLE_SIZE) + MARGIN)
        .max(MARGIN + text_width(&subtitle, SUBTITLE_SIZE) + MARGIN)
        .max(2 * (MARGIN + KEY_SWATCH + key + MARGIN));
    (width, TITLE_H + rows * PANEL_H + key_rows * KEY_LINE_H + 16)
}

/// Left and right margin of the chart's text, in pixels.
const MARGIN: u32 = 12;
/// The colour swatch and gap before a key line.
const KEY_SWATCH: u32 = 16;
const TITLE_SIZE: f64 = 20.0;
const SUBTITLE_SIZE: f64 = 13.0;
const KEY_SIZE: f64 = 13.0;

/// Width of `text` at `size` in the chart's font, loading the embedded one if none is; a generous
/// estimate if no font can be used.
fn text_width(text: &str, size: f64) -> u32 {
    let _ = load_default_font();
    match (FAMILY, size).into_font().box_size(text) {
        Ok((w, _)) => w + 2,
        Err(_) => (text.chars().count() as f64 * size * 0.7).ceil() as u32,
    }
}

/// The embedded font, unless some font is registered already.
fn load_default_font() -> ToolResult<()> {
    let loaded = REGISTERED.lock().unwrap_or_else(|e| e.into_inner()).is_some();
    if loaded { Ok(()) } else { load_font(None) }
}

/// The title and subtitle lines of the chart of `report`.
fn headings(report: &Report) -> (String, String) {
    let d = &report.device;
    let title = format!("rgemm {}: {} GEMM on {}", report.command, report.dtype, d.name);
    let commit = report.git_commit.as_deref().unwrap_or("unknown");
    let flush = if report.l2_flush_bytes > 0 { "L2 flushed" } else { "L2 not flushed" };
    let subtitle = format!(
        "TFLOP/s, median of {} launches, {flush}; red line: cuBLAS; peak {:.1} TFLOP/s; {}; commit {commit}",
        report.iters, d.peak_tflops, report.date_utc
    );
    (title, subtitle)
}

/// A line of the key: a bar's label and its kernel.
fn key_line(k: &crate::report::KernelRecord) -> String {
    format!("{}  {}", k.label, k.name)
}

pub fn draw_svg(report: &Report, path: &Path) -> ToolResult<()> {
    let root = SVGBackend::new(path, dimensions(report)).into_drawing_area();
    draw(&root, report)?;
    root.present().map_err(|e| ToolError::Chart(format!("cannot write {}: {e}", path.display())))
}

/// Text in the font [`load_font`] registered last, else in the embedded DejaVu Sans.
pub fn draw_png(report: &Report, path: &Path) -> ToolResult<()> {
    load_default_font()?;
    let root = BitMapBackend::new(path, dimensions(report)).into_drawing_area();
    draw(&root, report)?;
    root.present().map_err(|e| ToolError::Chart(format!("cannot write {}: {e}", path.display())))
}

fn chart_error(e: impl std::fmt::Display) -> ToolError {
    ToolError::Chart(e.to_string())
}

fn text_style(size: f64, color: &'static RGBColor) -> TextStyle<'static> {
    TextStyle::from((FAMILY, size).into_font()).color(color)
}

const INK: RGBColor = RGBColor(30, 30, 30);
const GREY: RGBColor = RGBColor(120, 120, 120);
const CUBLAS: RGBColor = RGBColor(200, 30, 30);

/// Bar colour of rung `n`: the same rung has the same colour in every panel.
fn rung_color(n: u8) -> RGBColor {
    const COLORS: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
        RGBColor(57, 59, 121),
    ];
    COLORS[n as usize % COLORS.len()]
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, report: &Report) -> ToolResult<()> {
    root.fill(&WHITE).map_err(chart_error)?;
    let (width, height) = root.dim_in_pixel();
    let (title, subtitle) = headings(report);
    root.draw(&Text::new(title, (MARGIN as i32, 8), text_style(TITLE_SIZE, &INK))).map_err(chart_error)?;
    root.draw(&Text::new(subtitle, (MARGIN as i32, 34), text_style(SUBTITLE_SIZE, &GREY))).map_err(chart_error)?;

    let panels = report.sizes.len().max(1) as u32;
    let cols = panels.min(2);
    let rows = panels.div_ceil(cols);
    for (i, size) in report.sizes.iter().enumerate() {
        let (col, row) = (i as u32 % cols, i as u32 / cols);
        let (x0, y0) = (col * PANEL_W, TITLE_H + row * PANEL_H);
        let area = root.clone().shrink((x0, y0), (PANEL_W, PANEL_H));
        draw_panel(root, &area, report, size)?;
    }

    // The key: which kernel each bar label stands for.
    let key_y = TITLE_H + rows * PANEL_H + 4;
    let half = report.kernels.len().div_ceil(2);
    for (i, k) in report.kernels.iter().enumerate() {
        let (col, line) = ((i / half.max(1)) as u32, (i % half.max(1)) as u32);
        let (x, y) = ((MARGIN + col * (width / 2)) as i32, (key_y + line * KEY_LINE_H) as i32);
        root.draw(&Rectangle::new([(x, y + 3), (x + 10, y + 13)], rung_color(k.rung).filled())).map_err(chart_error)?;
        root.draw(&Text::new(key_line(k), (x + KEY_SWATCH as i32, y + 2), text_style(KEY_SIZE, &INK))).map_err(chart_error)?;
    }
    debug_assert!(key_y < height);
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, area: &DrawingArea<DB, Shift>, report: &Report, size: &SizeRecord) -> ToolResult<()> {
    let ((px, py), _) = (area.get_base_pixel(), ());
    let title = format!("{} (M×N×K), TFLOP/s", size.name());
    root.draw(&Text::new(title, (px + 12, py + 6), text_style(15.0, &INK))).map_err(chart_error)?;
    let body = area.clone().margin(28, 8, 8, 12);
    if let Some(reason) = &size.skipped {
        let (w, _) = body.dim_in_pixel();
        let text = format!("skipped: {}", shorten(reason, (w / 7) as usize));
        body.draw(&Text::new(text, (8, 40), text_style(13.0, &GREY))).map_err(chart_error)?;
        return Ok(());
    }

    let kernels = &report.kernels;
    let count = kernels.len().max(1);
    let tflops = |name: &str| size.runs.iter().find(|r| r.kernel == name).and_then(|r| r.timing.as_ref()).map(|t| t.tflops);
    let cublas = size.cublas.as_ref().map(|c| c.tflops);
    let top = kernels.iter().filter_map(|k| tflops(&k.name)).chain(cublas).filter(|t| t.is_finite()).fold(0.0f64, f64::max);
    let y_max = if top > 0.0 { top * 1.18 } else { 1.0 };
    if !y_max.is_finite() {
        return Err(ToolError::Chart(format!("{}: speeds too large to draw", size.name())));
    }

    let mut chart = ChartBuilder::on(&body)
        .x_label_area_size(22)
        .y_label_area_size(44)
        .build_cartesian_2d(0f64..count as f64, 0f64..y_max)
        .map_err(chart_error)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(6)
        .y_label_style(text_style(12.0, &INK))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .draw()
        .map_err(chart_error)?;

    for (i, k) in kernels.iter().enumerate() {
        let x = i as f64;
        let run = size.runs.iter().find(|r| r.kernel == k.name);
        let value = tflops(&k.name);
        if let Some(v) = value {
            let color = rung_color(k.rung);
            let failed = run.is_some_and(|r| r.outcome.is_failure());
            let style = if failed { color.mix(0.3).filled() } else { color.filled() };
            chart.draw_series(std::iter::once(Rectangle::new([(x + 0.15, 0.0), (x + 0.85, v)], style))).map_err(chart_error)?;
        }
        // Value (or why there is none) above the bar, label below the axis.
        let above = match (run.map(|r| r.outcome), value) {
            (Some(Outcome::Fail), Some(v)) => format!("{v:.2} FAIL"),
            (Some(Outcome::Error), _) => "error".to_string(),
            (_, Some(v)) => format!("{v:.2}"),
            (Some(Outcome::Skipped), None) => "skipped".to_string(),
            _ => "-".to_string(),
        };
        let (bx, by) = chart.backend_coord(&(x + 0.5, value.unwrap_or(0.0)));
        let color: &'static RGBColor = if run.is_some_and(|r| r.outcome.is_failure()) { &CUBLAS } else { &INK };
        root.draw(&Text::new(above, (bx, by - 16), text_style(12.0, color).pos(Pos::new(HPos::Center, VPos::Top)))).map_err(chart_error)?;
        let (lx, ly) = chart.backend_coord(&(x + 0.5, 0.0));
        root.draw(&Text::new(k.label.clone(), (lx, ly + 5), text_style(13.0, &INK).pos(Pos::new(HPos::Center, VPos::Top)))).map_err(chart_error)?;
    }

    if let Some(c) = cublas {
        chart
            .draw_series(LineSeries::new([(0.0, c), (count as f64, c)], CUBLAS.stroke_width(2)))
            .map_err(chart_error)?;
        let (rx, ry) = chart.backend_coord(&(count as f64, c));
        root.draw(&Text::new(format!("cuBLAS {c:.2}"), (rx - 4, ry - 18), text_style(12.0, &CUBLAS).pos(Pos::new(HPos::Right, VPos::Top)))).map_err(chart_error)?;
    }
    Ok(())
}

/// `text` cut to `max` characters with an ellipsis.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}
