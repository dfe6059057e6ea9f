//! Rules the test sources themselves must keep (read from the source tree, like tests/book.rs, so
//! the GPU bundle leaves this binary out):
//!
//! - a test that opens the GPU is `#[ignore = "needs a GPU"]`, so that a run without a GPU lists
//!   it as ignored instead of counting it as passed, and the bundle runs it with
//!   `--include-ignored`;
//! - no test prints a skip note through `println!`/`eprintln!`: libtest captures those, so the note
//!   is never seen and the test passes silently.

use std::fs;
use std::path::{Path, PathBuf};

fn test_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [root.join("tests"), root.join("tests/common"), root.join("host/tests")] {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Each `#[test]` function of `text`: its attribute lines and its text up to the next test.
fn tests(text: &str) -> Vec<(String, Vec<String>, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| l.trim() == "#[test]").map(|(i, _)| i).collect();
    let mut out = Vec::new();
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(lines.len());
        let Some(fn_line) = (start..end).find(|&i| lines[i].trim_start().starts_with("fn ")) else { continue };
        let name = lines[fn_line].trim_start()[3..].split('(').next().unwrap_or("").to_string();
        let attributes = lines[start..fn_line].iter().map(|l| l.trim().to_string()).collect();
        out.push((name, attributes, lines[fn_line..end].join("\n")));
    }
    out
}

fn opens_the_gpu(body: &str) -> bool {
    body.contains("common::gpu(") || body.contains("Gpu::open(")
}

#[test]
fn every_test_that_opens_the_gpu_is_ignored_without_one() {
    let mut offenders = Vec::new();
    let mut gpu_tests = 0;
    for file in test_sources() {
        if file.ends_with("sources.rs") {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (name, attributes, body) in tests(&text) {
            if opens_the_gpu(&body) {
                gpu_tests += 1;
                if !attributes.iter().any(|a| a == "#[ignore = \"needs a GPU\"]") {
                    offenders.push(format!("{}: {name}", file.display()));
                }
            }
        }
    }
    assert!(gpu_tests >= 10, "found only {gpu_tests} GPU tests: is the parser right?");
    assert!(offenders.is_empty(), "tests that open the GPU without #[ignore = \"needs a GPU\"]:\n{}", offenders.join("\n"));
}

#[test]
fn no_test_prints_a_skip_note_that_libtest_would_swallow() {
    let mut offenders = Vec::new();
    for file in test_sources() {
        if file.ends_with("sources.rs") {
            continue;
        }
        for (n, line) in fs::read_to_string(&file).unwrap().lines().enumerate() {
            if (line.contains("eprintln!(") || line.contains("println!(")) && line.contains("SKIPPED") {
                offenders.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "captured skip notes:\n{}", offenders.join("\n"));
}

#[test]
fn the_rules_see_what_they_look_for() {
    let text = "#[test]\n#[ignore = \"needs a GPU\"]\nfn a() {\n    let gpu = common::gpu(\"a\");\n}\n\n#[test]\nfn b() {\n    let Some(g) = common::gpu(\"b\") else { return };\n}\n";
    let found = tests(text);
    assert_eq!(found.len(), 2);
    assert!(found[0].1.iter().any(|a| a.contains("needs a GPU")) && opens_the_gpu(&found[0].2));
    assert!(!found[1].1.iter().any(|a| a.contains("ignore")) && opens_the_gpu(&found[1].2));
}
