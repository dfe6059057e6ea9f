//! Records the git commit the binary is built from (`RGEMM_GIT_COMMIT`), for benchmark reports.
//! Outside a git checkout nothing is recorded and reports say the commit is unknown.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-env-changed=RGEMM_GIT_COMMIT");
    let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) else { return };
    println!("cargo:rustc-env=RGEMM_GIT_COMMIT={commit}");
    // Build again when HEAD moves: HEAD itself (branch switches) and the branch's ref (commits).
    if let Some(head) = git(&["rev-parse", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={head}");
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]).and_then(|r| git(&["rev-parse", "--git-path", &r])) {
        println!("cargo:rerun-if-changed={branch}");
    }
}
