//! A tiny SVG writer: rectangles, lines, arrows and text, with numbers printed to one decimal so
//! the output is byte-for-byte stable (the committed figures are compared with freshly drawn ones).

use std::fmt::Write;

/// Fill colours used across the figures (colour-blind-safe pairs where two things are compared).
pub const PALETTE: [&str; 8] = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"];
pub const LIGHT: [&str; 8] = ["#c6d5e8", "#fbd9b6", "#c9e2c4", "#f5c3c4", "#d3eae8", "#f8eebf", "#e3d0df", "#e0d3c8"];
pub const GRID: &str = "#999999";
pub const INK: &str = "#222222";

pub struct Svg {
    width: f64,
    height: f64,
    body: String,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Svg {
        Svg { width, height, body: String::new() }
    }

    /// Widens the picture to at least `width`.
    pub fn ensure_width(&mut self, width: f64) {
        self.width = self.width.max(width);
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str) {
        let _ = writeln!(self.body, r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}" stroke="{stroke}" stroke-width="0.6"/>"#);
    }

    pub fn thick_rect(&mut self, x: f64, y: f64, w: f64, h: f64, stroke: &str, width: f64) {
        let _ = writeln!(self.body, r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="none" stroke="{stroke}" stroke-width="{width:.1}"/>"#);
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, width: f64) {
        let _ = writeln!(self.body, r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width:.1}"/>"#);
    }

    pub fn dashed(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str) {
        let _ = writeln!(self.body, r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="1.0" stroke-dasharray="4 3"/>"#);
    }

    /// A line with an arrow head at (x2, y2).
    pub fn arrow(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str) {
        self.line(x1, y1, x2, y2, stroke, 1.2);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let (bx, by) = (x2 - 7.0 * ux, y2 - 7.0 * uy);
        let (px, py) = (-uy * 3.5, ux * 3.5);
        let _ = writeln!(
            self.body,
            r#"<polygon points="{x2:.1},{y2:.1} {:.1},{:.1} {:.1},{:.1}" fill="{stroke}"/>"#,
            bx + px,
            by + py,
            bx - px,
            by - py
        );
    }

    /// Text; `anchor` is `start`, `middle` or `end`.
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, s: &str) {
        let _ = writeln!(self.body, r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="{anchor}" fill="{INK}">{}</text>"#, esc(s));
    }

    pub fn bold(&mut self, x: f64, y: f64, size: f64, anchor: &str, s: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="{anchor}" font-weight="bold" fill="{INK}">{}</text>"#,
            esc(s)
        );
    }

    /// Text rotated by -90° (reading upwards), centred on (x, y).
    pub fn vtext(&mut self, x: f64, y: f64, size: f64, s: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="middle" fill="{INK}" transform="rotate(-90 {x:.1} {y:.1})">{}</text>"#,
            esc(s)
        );
    }

    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64) {
        let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = writeln!(self.body, r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{width:.1}"/>"#, pts.join(" "));
    }

    pub fn circle(&mut self, x: f64, y: f64, r: f64, fill: &str) {
        let _ = writeln!(self.body, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="{INK}" stroke-width="0.6"/>"#);
    }

    /// The document, with `title` as its accessible name.
    pub fn finish(self, title: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n<title>{t}</title>\n<rect x=\"0\" y=\"0\" width=\"{w:.0}\" height=\"{h:.0}\" fill=\"#ffffff\"/>\n{b}</svg>\n",
            w = self.width,
            h = self.height,
            t = esc(title),
            b = self.body
        )
    }
}
