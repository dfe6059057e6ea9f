//! The book (`book/`) includes code from the sources with `{{#include file:anchor}}`. mdBook
//! renders a missing anchor as an empty listing and a missing file as a logged error, and exits 0
//! in both cases; this test makes either a failure. It also checks that every chapter file is in
//! `SUMMARY.md` and every `SUMMARY.md` entry exists.

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
    let files: BTreeSet<PathBuf> =
        chapters.iter().map(|p| p.strip_prefix(&src).unwrap().to_path_buf()).filter(|p| p != Path::new("SUMMARY.md")).collect();
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
