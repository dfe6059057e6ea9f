//! The README's library example is the one `readme_example` compiles.

#[test]
fn the_readme_shows_the_example_this_crate_compiles() {
    let readme = include_str!("../../../README.md");
    let start = readme.find("```rust\n").expect("the README has a Rust example") + "```rust\n".len();
    let shown = &readme[start..start + readme[start..].find("```").expect("the example closes")];
    let source = include_str!("../src/lib.rs");
    let (from, to) = (source.find("// README START\n").unwrap() + "// README START\n".len(), source.find("    // README END").unwrap());
    let compiled: String = source[from..to].lines().map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l))).collect();
    assert_eq!(shown.trim_end(), compiled.trim_end(), "README.md's example and tests/consumer/src/lib.rs differ");
}
