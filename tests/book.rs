//! The book (`book/`) includes code from the sources with `{{#include file:anchor}}`. mdBook
//! renders a missing anchor as an empty listing and a missing file as a logged error, and exits 0
//! in both cases; this test makes either a failure. It also checks that every chapter file is in
//! `SUMMARY.md` and every `SUMMARY.md` entry exists, that every image and internal link of the
//! sources resolves (file and `#anchor`), and, on the built book (`mdbook build book`, run by
//! `.ci/run` before the ignored test here), that every `src` and relative `href` of every page does.
//!
//! `book/src/generated/` holds Markdown that chapters include (written by `rgemm figures`): not
//! chapters themselves, and their links resolve from the including chapter, i.e. from `book/src`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn book_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("book").join("src")
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// One `{{#include …}}` or `{{#rustdoc_include …}}` directive: the chapter, the argument.
struct Include {
    chapter: PathBuf,
    line: usize,
    arg: String,
}

/// Every include directive of a chapter, except escaped ones (`\{{#include …}}`, which mdBook
/// prints literally).
fn includes(chapter: &Path) -> Vec<Include> {
    let text = fs::read_to_string(chapter).unwrap();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        let mut offset = 0;
        while let Some(i) = rest.find("{{#") {
            let escaped = i > 0 && rest.as_bytes()[i - 1] == b'\\';
            let after = &rest[i + 3..];
            let directive = ["include", "rustdoc_include"].into_iter().find(|d| {
                after.starts_with(d) && after[d.len()..].starts_with(|c: char| c.is_whitespace())
            });
            let close = after.find("}}");
            if let (Some(d), Some(close), false) = (directive, close, escaped) {
                out.push(Include { chapter: chapter.to_path_buf(), line: n + 1, arg: after[d.len()..close].trim().to_string() });
            }
            let step = i + 3 + close.map_or(0, |c| c + 2);
            offset += step;
            rest = &line[offset..];
        }
    }
    out
}

/// mdBook's argument forms: `file`, `file:anchor`, `file:N`, `file:N:M`, `file::M`, `file:N:`.
/// Returns the file and, for the anchor form, the anchor.
fn parse(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once(':') {
        None => (arg, None),
        Some((file, sel)) => {
            let is_range = sel.split(':').all(|p| p.is_empty() || p.chars().all(|c| c.is_ascii_digit()));
            (file, if is_range { None } else { Some(sel) })
        }
    }
}

/// Whether `text` has `ANCHOR: name` ... `ANCHOR_END: name` around at least one line of code.
fn has_anchor(text: &str, name: &str) -> Result<(), String> {
    let is_marker = |line: &str, kind: &str| {
        line.find(kind).is_some_and(|i| {
            let rest = line[i + kind.len()..].trim_start();
            rest.strip_prefix(name).is_some_and(|tail| !tail.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '-'))
        })
    };
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| is_marker(l, "ANCHOR:")).ok_or("no `ANCHOR:` line")?;
    let end = lines[start..].iter().position(|l| is_marker(l, "ANCHOR_END:")).ok_or("no `ANCHOR_END:` line after `ANCHOR:`")?;
    let body = lines[start + 1..start + end].iter().filter(|l| !l.contains("ANCHOR")).count();
    if body == 0 {
        return Err("the anchor encloses no lines".into());
    }
    Ok(())
}

#[test]
fn every_include_names_an_existing_file_and_anchor() {
    let mut chapters = Vec::new();
    markdown_files(&book_src(), &mut chapters);
    chapters.sort();
    let mut errors = Vec::new();
    let mut count = 0;
    for chapter in &chapters {
        for inc in includes(chapter) {
            count += 1;
            let (file, anchor) = parse(&inc.arg);
            let at = format!("{}:{}: `{}`", inc.chapter.strip_prefix(book_src()).unwrap().display(), inc.line, inc.arg);
            let path = inc.chapter.parent().unwrap().join(file);
            let Ok(text) = fs::read_to_string(&path) else {
                errors.push(format!("{at}: no file {}", path.display()));
                continue;
            };
            if let Some(anchor) = anchor {
                if let Err(why) = has_anchor(&text, anchor) {
                    errors.push(format!("{at}: anchor `{anchor}`: {why}"));
                }
            }
        }
    }
    assert!(count > 0, "no include directives found in {}: is the book there?", book_src().display());
    assert!(errors.is_empty(), "{} broken include(s) in the book:\n{}", errors.len(), errors.join("\n"));
}

#[test]
fn summary_and_chapter_files_agree() {
    let src = book_src();
    let summary = fs::read_to_string(src.join("SUMMARY.md")).expect("book/src/SUMMARY.md");
    let mut listed = BTreeSet::new();
    for line in summary.lines() {
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            let target = &after[..end];
            if !target.is_empty() && !target.contains("://") {
                listed.insert(PathBuf::from(target));
            }
            rest = &after[end..];
        }
    }
    let mut chapters = Vec::new();
    markdown_files(&src, &mut chapters);
    let files: BTreeSet<PathBuf> = chapters
        .iter()
        .map(|p| p.strip_prefix(&src).unwrap().to_path_buf())
        .filter(|p| p != Path::new("SUMMARY.md") && !p.starts_with(GENERATED))
        .collect();
    let missing: Vec<_> = listed.difference(&files).collect();
    let unlisted: Vec<_> = files.difference(&listed).collect();
    assert!(missing.is_empty(), "SUMMARY.md lists chapters that do not exist: {missing:?}");
    assert!(unlisted.is_empty(), "chapters missing from SUMMARY.md: {unlisted:?}");
}

#[test]
fn the_anchor_check_rejects_what_it_should() {
    let text = "a\n// ANCHOR: run\nfn run() {}\n// ANCHOR_END: run\n// ANCHOR: empty\n// ANCHOR_END: empty\n";
    assert!(has_anchor(text, "run").is_ok());
    assert!(has_anchor(text, "ru").is_err(), "a prefix of an anchor is not the anchor");
    assert!(has_anchor(text, "empty").is_err());
    assert!(has_anchor(text, "missing").is_err());
    assert_eq!(parse("../x.rs:run"), ("../x.rs", Some("run")));
    assert_eq!(parse("../x.rs:2:10"), ("../x.rs", None));
    assert_eq!(parse("../x.rs::10"), ("../x.rs", None));
    assert_eq!(parse("../x.rs"), ("../x.rs", None));
}

/// Included Markdown, written by `rgemm figures` (relative to `book/src`).
const GENERATED: &str = "generated";

/// mdBook's heading ids: lower case, spaces to `-`, only alphanumerics, `-` and `_` kept.
fn heading_id(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_lowercase().next().unwrap_or(c)),
            _ => None,
        })
        .collect()
}

/// The ids of a chapter's headings (outside code blocks), duplicates numbered as mdBook does.
fn heading_ids(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let trimmed = line.trim_start_matches('#');
        if trimmed.len() < line.len() && trimmed.starts_with(' ') {
            let id = heading_id(trimmed);
            let mut unique = id.clone();
            let mut n = 1;
            while ids.contains(&unique) {
                unique = format!("{id}-{n}");
                n += 1;
            }
            ids.insert(unique);
        }
    }
    ids
}

/// A chapter with its whole-file includes of generated tables (`{{#include generated/….md}}`)
/// replaced by their text, as mdBook renders it: their headings are the chapter's.
fn expand_generated(text: &str, src: &Path) -> String {
    text.lines()
        .map(|line| {
            let file = line.trim().strip_prefix("{{#include ").and_then(|l| l.strip_suffix("}}")).filter(|f| f.starts_with("generated/") && f.ends_with(".md"));
            match file {
                Some(f) => fs::read_to_string(src.join(f)).unwrap_or_default(),
                None => format!("{line}\n"),
            }
        })
        .collect()
}

/// Every `[text](target)` and `![alt](target)` target of a Markdown text outside code blocks and
/// inline code, with its line number.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop inline code spans.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((n + 1, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    out
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

#[test]
fn every_image_and_internal_link_of_the_sources_resolves() {
    let src = book_src();
    let mut files = Vec::new();
    markdown_files(&src, &mut files);
    files.sort();
    let mut errors = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        if rel == Path::new("SUMMARY.md") {
            continue;
        }
        // Links of included files resolve from the chapter that includes them.
        let base = if rel.starts_with(GENERATED) { src.clone() } else { file.parent().unwrap().to_path_buf() };
        let text = fs::read_to_string(file).unwrap();
        for (line, target) in link_targets(&text) {
            if target.is_empty() || is_external(&target) {
                continue;
            }
            checked += 1;
            let at = format!("{}:{line}: `{target}`", rel.display());
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() { file.clone() } else { base.join(path) };
            let Ok(target_text) = fs::read(&resolved) else {
                errors.push(format!("{at}: no file {}", resolved.display()));
                continue;
            };
            if let Some(anchor) = anchor {
                let text = expand_generated(&String::from_utf8_lossy(&target_text), &src);
                if resolved.extension().is_some_and(|e| e == "md") && !heading_ids(&text).contains(anchor) {
                    errors.push(format!("{at}: no heading with id `{anchor}` in {}", resolved.display()));
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} links found: is the book there?");
    assert!(errors.is_empty(), "{} broken link(s) or image(s) in the book sources:\n{}", errors.len(), errors.join("\n"));
}

#[test]
fn every_rung_and_technique_chapter_shows_a_figure() {
    // Every rung and technique chapter shows at least one figure drawn by `rgemm figures`.
    let src = book_src();
    let summary = fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let mut missing = Vec::new();
    for line in summary.lines() {
        let Some(start) = line.find("](") else { continue };
        let file = &line[start + 2..line[start..].find(')').map_or(line.len(), |e| start + e)];
        let is_lesson = file.starts_with("rung-") || line.contains("Technique:");
        if is_lesson && !fs::read_to_string(src.join(file)).unwrap().contains("](figures/") {
            missing.push(file.to_string());
        }
    }
    assert!(missing.is_empty(), "chapters without a figure from book/src/figures: {missing:?}");
}

#[test]
fn the_link_checker_reads_what_it_should() {
    let text = "# Rung 7: A transposed\n## What limits it now\n```text\n## not a heading [x](nope.md)\n```\nsee [a](b.md#c) and `[no](code.md)` ![i](figures/x.svg)\n";
    assert_eq!(link_targets(text), vec![(6, "b.md#c".to_string()), (6, "figures/x.svg".to_string())]);
    let ids = heading_ids(text);
    assert!(ids.contains("rung-7-a-transposed") && ids.contains("what-limits-it-now") && !ids.contains("not-a-heading"), "{ids:?}");
    assert_eq!(heading_id("Run 8b: `ldmatrix` study"), "run-8b-ldmatrix-study");
}

/// The rendered book: every `src="…"` and relative `href="…"` of every page names a file of the
/// build, and every `#fragment` into a page names an `id` on it. Needs `mdbook build book` first
/// (`.ci/run` builds the book, then runs this with `--ignored`).
#[test]
#[ignore = "needs the rendered book: run `mdbook build book` first (.ci/run does)"]
fn the_rendered_book_has_no_broken_images_or_links() {
    let build = Path::new(env!("CARGO_MANIFEST_DIR")).join("book").join("build");
    assert!(build.join("index.html").is_file(), "no rendered book in {}: run `mdbook build book`", build.display());
    fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                html_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "html") {
                out.push(path);
            }
        }
    }
    let mut pages = Vec::new();
    html_files(&build, &mut pages);
    let attr_values = |html: &str, attr: &str| -> Vec<String> {
        let key = format!("{attr}=\"");
        html.match_indices(&key).filter_map(|(i, _)| html[i + key.len()..].split('"').next().map(str::to_string)).collect()
    };
    let mut errors = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let html = fs::read_to_string(page).unwrap();
        let rel = page.strip_prefix(&build).unwrap().display().to_string();
        for (attr, value) in attr_values(&html, "src").into_iter().map(|v| ("src", v)).chain(attr_values(&html, "href").into_iter().map(|v| ("href", v))) {
            if value.is_empty() || is_external(&value) || value.starts_with("javascript:") || value.starts_with("data:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = match value.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (value.as_str(), None),
            };
            let path = path.split('?').next().unwrap_or("");
            let target = match path {
                "" => page.clone(),
                // Site-absolute (the 404 page's): from the root of the build.
                p if p.starts_with('/') => build.join(p.trim_start_matches('/')),
                p => page.parent().unwrap().join(p),
            };
            let target = if target.is_dir() { target.join("index.html") } else { target };
            let Ok(text) = fs::read_to_string(&target).or_else(|_| fs::read(&target).map(|_| String::new())) else {
                errors.push(format!("{rel}: {attr}=\"{value}\": no file {}", target.display()));
                continue;
            };
            if let Some(f) = fragment.filter(|f| !f.is_empty()) {
                if target.extension().is_some_and(|e| e == "html") && !text.contains(&format!("id=\"{f}\"")) {
                    errors.push(format!("{rel}: {attr}=\"{value}\": no id `{f}` in {}", target.display()));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} references checked in {}", build.display());
    assert!(errors.is_empty(), "{} broken reference(s) in the rendered book:\n{}", errors.len(), errors.join("\n"));
}

#[test]
fn every_rung_chapter_quotes_the_ladder_run() {
    // One measured figure per rung, generated from the bench JSON (`rgemm figures`).
    let src = book_src();
    let mut missing = Vec::new();
    for entry in fs::read_dir(&src).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        if let Some(rest) = name.strip_prefix("rung-") {
            let number = &rest[..2];
            let text = fs::read_to_string(src.join(&name)).unwrap();
            if !text.contains(&format!("{{{{#include generated/rung-{number}.md}}}}")) || !text.contains("## What limits it now") || !text.contains("## Try it") {
                missing.push(name);
            }
        }
    }
    assert!(missing.is_empty(), "rung chapters without the generated measurement, What limits it now or Try it: {missing:?}");
}

/// Top-level folders of the repository: a code span whose first segment is one of them names a
/// file or folder of the repository (`kernels-gpu/src/copy.rs`, `src/api.rs`, `docs/perf/`).
/// `device/…` is short for `kernels-gpu/src/device/…`.
const REPO_DIRS: &[&str] = &["src", "kernels-gpu", "spec", "tools", "host", "tests", "book", "docs", "scripts", "examples", "dispatch", "ptx", ".ci"];

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every inline code span of a Markdown text outside fenced blocks, with its line number.
fn code_spans(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 1 && !part.is_empty() {
                out.push((n + 1, part.to_string()));
            }
        }
    }
    out
}

/// The repository path a code span names, relative to the root, if it looks like one: no
/// spaces, a `/`, a first segment of [`REPO_DIRS`] (or `device`); a `:line:column` or
/// `::item` tail is dropped.
fn repo_path(span: &str) -> Option<String> {
    let path = span.split("::").next()?.trim_end_matches(|c: char| c.is_ascii_digit() || c == ':');
    let ok = |c: char| c.is_ascii_alphanumeric() || "_.-/*".contains(c);
    if !path.contains('/') || !path.chars().all(ok) || path.contains("..") {
        return None;
    }
    let first = path.split('/').next()?;
    if first == "device" {
        return Some(format!("kernels-gpu/src/{path}"));
    }
    REPO_DIRS.contains(&first).then(|| path.to_string())
}

/// `*` in a segment matches any run of characters.
fn wildcard(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head) && (0..=name.len() - head.len()).any(|i| name.is_char_boundary(head.len() + i) && wildcard(tail, &name[head.len() + i..]))
        }
    }
}

/// Whether `path` (relative to `root`, segments may hold `*`) names something that exists.
fn exists(root: &Path, path: &str) -> bool {
    let mut candidates = vec![root.to_path_buf()];
    for segment in path.trim_end_matches('/').split('/') {
        let mut next = Vec::new();
        for dir in &candidates {
            if segment.contains('*') {
                for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
                    if wildcard(segment, &entry.file_name().to_string_lossy()) {
                        next.push(entry.path());
                    }
                }
            } else if dir.join(segment).exists() {
                next.push(dir.join(segment));
            }
        }
        candidates = next;
    }
    !candidates.is_empty()
}

/// Chapter files named in prose (`rung-14-wgmma-tma.md`), outside links, which the link check
/// covers.
fn chapter_mentions(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find("rung-") {
            let tail = &rest[i..];
            let end = tail.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_')).unwrap_or(tail.len());
            let name = tail[..end].trim_end_matches('.');
            if name.ends_with(".md") && !(i > 0 && matches!(rest.as_bytes()[i - 1], b'/' | b'(')) {
                out.push((n + 1, name.to_string()));
            }
            rest = &tail[end.max(1)..];
        }
    }
    out
}

/// The book's chapters, the README and the performance record's index: Markdown whose prose
/// points at files of the repository.
fn prose_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    markdown_files(&book_src(), &mut files);
    files.sort();
    files.push(repo_root().join("README.md"));
    files.push(repo_root().join("docs/perf/INDEX.md"));
    files
}

#[test]
fn every_file_path_and_chapter_the_prose_names_exists() {
    let root = repo_root();
    let mut errors = Vec::new();
    let mut checked = 0;
    for file in prose_files() {
        let rel = file.strip_prefix(&root).unwrap().display().to_string();
        let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"));
        for (line, span) in code_spans(&text) {
            if let Some(path) = repo_path(&span) {
                checked += 1;
                if !exists(&root, &path) {
                    errors.push(format!("{rel}:{line}: `{span}` names {path}, which does not exist"));
                }
            }
        }
        for (line, chapter) in chapter_mentions(&text) {
            checked += 1;
            if !book_src().join(&chapter).is_file() {
                errors.push(format!("{rel}:{line}: no chapter {chapter} in book/src"));
            }
        }
    }
    assert!(checked > 50, "only {checked} paths found in the prose");
    assert!(errors.is_empty(), "{} path(s) in the prose that do not exist:\n{}", errors.len(), errors.join("\n"));
}

#[test]
fn the_path_check_reads_what_it_should() {
    assert_eq!(repo_path("kernels-gpu/src/copy.rs"), Some("kernels-gpu/src/copy.rs".into()));
    assert_eq!(repo_path("kernels-gpu/src/broken.rs:67:60"), Some("kernels-gpu/src/broken.rs".into()));
    assert_eq!(repo_path("device/wgmma.rs"), Some("kernels-gpu/src/device/wgmma.rs".into()));
    assert_eq!(repo_path("src/catalog.rs::BEST"), Some("src/catalog.rs".into()));
    assert_eq!(repo_path("t / BS"), None);
    assert_eq!(repo_path("$OUT_DIR/kernels.ptx"), None);
    assert_eq!(repo_path("BM/TM"), None);
    let root = repo_root();
    assert!(exists(&root, "docs/perf/2026-11-22-h100-bench/*.json"));
    assert!(!exists(&root, "kernels-gpu/src/no_such_file.rs"));
    assert!(wildcard("bf16-p*.json", "bf16-p3.json") && !wildcard("bf16-p*.json", "f16-p3.json"));
    assert_eq!(chapter_mentions("see rung-14-wgmma-tma.md and [x](rung-11-tma.md), rung-12."), vec![(1, "rung-14-wgmma-tma.md".to_string())]);
}

/// The README's and the performance index's links resolve, as the book's do.
#[test]
fn the_readme_and_the_perf_index_links_resolve() {
    let root = repo_root();
    let mut errors = Vec::new();
    let mut checked = 0;
    let mut pages = vec![root.join("README.md")];
    pages.extend(fs::read_dir(root.join("docs/perf")).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "md")));
    for file in pages {
        let rel = file.strip_prefix(&root).unwrap().display().to_string();
        let text = fs::read_to_string(&file).unwrap();
        for (line, target) in link_targets(&text) {
            if target.is_empty() || is_external(&target) {
                continue;
            }
            checked += 1;
            let (path, anchor) = target.split_once('#').map_or((target.as_str(), None), |(p, a)| (p, Some(a)));
            let resolved = if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
            if !resolved.exists() {
                errors.push(format!("{rel}:{line}: `{target}`: no file {}", resolved.display()));
            } else if let Some(anchor) = anchor.filter(|_| resolved.extension().is_some_and(|e| e == "md")) {
                let text = expand_generated(&fs::read_to_string(&resolved).unwrap(), &book_src());
                if !heading_ids(&text).contains(anchor) {
                    errors.push(format!("{rel}:{line}: `{target}`: no heading `{anchor}`"));
                }
            }
        }
    }
    assert!(checked > 10, "only {checked} links found");
    assert!(errors.is_empty(), "{} broken link(s):\n{}", errors.len(), errors.join("\n"));
}
