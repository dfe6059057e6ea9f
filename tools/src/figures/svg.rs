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
    /// The estimated boxes of the text drawn so far (`text_box`), for [`Svg::text_clear`].
    boxes: Vec<Box>,
}

/// A rectangle `(x0, y0, x1, y1)`.
pub type Box = (f64, f64, f64, f64);

/// Width of a character in em of DejaVu Sans, roughly: narrow punctuation and letters, wide
/// capitals, the rest at the width of a digit.
fn char_em(c: char) -> f64 {
    match c {
        ' ' | '.' | ',' | ':' | ';' | '!' | '|' | '\'' | 'i' | 'j' | 'l' | 'I' | '(' | ')' | '[' | ']' => 0.32,
        'f' | 't' | 'r' | '-' | '/' => 0.42,
        'm' | 'w' | 'M' | 'W' | '%' | '—' | '→' | '←' | '×' | '@' => 0.9,
        c if c.is_ascii_uppercase() => 0.7,
        _ => 0.6,
    }
}

/// The estimated box of a text of `size` px drawn at (x, y) with `anchor`: its width from the
/// characters ([`char_em`], 10% wider in bold), from 0.76 em above the baseline to 0.24 below;
/// `vertical` for text rotated by -90° about (x, y) (as [`Svg::vtext`] draws it).
pub fn text_box(x: f64, y: f64, size: f64, anchor: &str, s: &str, bold: bool, vertical: bool) -> Box {
    let w = s.chars().map(char_em).sum::<f64>() * size * if bold { 1.1 } else { 1.0 };
    let x0 = match anchor {
        "middle" => x - w / 2.0,
        "end" => x - w,
        _ => x,
    };
    if vertical {
        // Rotated about (x, y): the run of characters goes up, centred (vtext anchors middle).
        let (along0, along1) = (x0 - x, x0 - x + w);
        (x - 0.76 * size, y - along1, x + 0.24 * size, y - along0)
    } else {
        (x0, y - 0.76 * size, x0 + w, y + 0.24 * size)
    }
}

fn intersect(a: Box, b: Box) -> bool {
    // Boxes that only touch, or overlap by less than half a pixel, do not count.
    const EPS: f64 = 0.5;
    a.0 < b.2 - EPS && b.0 < a.2 - EPS && a.1 < b.3 - EPS && b.1 < a.3 - EPS
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// Pairs of text elements of an SVG drawn by `Svg` whose estimated boxes (`text_box`)
/// overlap, each as `"a" and "b"`: labels that would print over one another.
pub fn text_overlaps(svg: &str) -> Vec<String> {
    let attr = |line: &str, name: &str| -> Option<String> {
        let key = format!(" {name}=\"");
        let i = line.find(&key)? + key.len();
        Some(line[i..].split('"').next()?.to_string())
    };
    let mut texts: Vec<(Box, String)> = Vec::new();
    for line in svg.lines().filter(|l| l.starts_with("<text ")) {
        let num = |name: &str| attr(line, name).and_then(|v| v.parse::<f64>().ok());
        let (Some(x), Some(y), Some(size)) = (num("x"), num("y"), num("font-size")) else { continue };
        let anchor = attr(line, "text-anchor").unwrap_or_else(|| "start".into());
        let Some(content) = line.split_once('>').and_then(|(_, rest)| rest.strip_suffix("</text>")) else { continue };
        let content = unescape(content);
        let b = text_box(x, y, size, &anchor, &content, line.contains("font-weight=\"bold\""), line.contains("rotate(-90"));
        texts.push((b, content));
    }
    let mut out = Vec::new();
    for (i, (a, ta)) in texts.iter().enumerate() {
        for (b, tb) in &texts[i + 1..] {
            if intersect(*a, *b) {
                out.push(format!("\"{ta}\" and \"{tb}\""));
            }
        }
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Svg {
        Svg { width, height, body: String::new(), boxes: Vec::new() }
    }

    /// Widens the picture to at least `width`.
    pub fn ensure_width(&mut self, width: f64) {
        self.width = self.width.max(width);
    }

    /// Makes the picture at least `height` tall.
    pub fn ensure_height(&mut self, height: f64) {
        self.height = self.height.max(height);
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
        self.boxes.push(text_box(x, y, size, anchor, s, false, false));
        let _ = writeln!(self.body, r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="{anchor}" fill="{INK}">{}</text>"#, esc(s));
    }

    pub fn bold(&mut self, x: f64, y: f64, size: f64, anchor: &str, s: &str) {
        self.boxes.push(text_box(x, y, size, anchor, s, true, false));
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="{anchor}" font-weight="bold" fill="{INK}">{}</text>"#,
            esc(s)
        );
    }

    /// Text rotated by -90° (reading upwards), centred on (x, y).
    pub fn vtext(&mut self, x: f64, y: f64, size: f64, s: &str) {
        self.boxes.push(text_box(x, y, size, "middle", s, false, true));
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="middle" fill="{INK}" transform="rotate(-90 {x:.1} {y:.1})">{}</text>"#,
            esc(s)
        );
    }

    /// Text at the first of `places` (offsets from (x, y), each with its anchor) where its box
    /// meets no text drawn before and none of `keep_clear`; at the first place if none is free.
    pub fn text_clear(&mut self, x: f64, y: f64, size: f64, s: &str, places: &[(f64, f64, &str)], keep_clear: &[Box]) {
        let free = |&&(dx, dy, anchor): &&(f64, f64, &str)| {
            let b = text_box(x + dx, y + dy, size, anchor, s, false, false);
            !self.boxes.iter().chain(keep_clear).any(|&o| intersect(b, o))
        };
        let &(dx, dy, anchor) = places.iter().find(free).unwrap_or(&places[0]);
        self.text(x + dx, y + dy, size, anchor, s);
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
