//! With the `build-ptx` feature, compiles `kernels-gpu` to PTX with rustc's nvptx64 backend and
//! hands it to the library (without it, the library uses the shipped `ptx/kernels.ptx`).
//!
//! This is the role `cuda_builder` plays in the rust-cuda project: a nested `cargo` builds the
//! kernel crate for `nvptx64-nvidia-cuda` (sm_90a) with `core` rebuilt from source, and
//! `--emit=asm` writes the PTX. The kernel crate is an `rlib`, so no link step runs (there is no
//! nvptx linker to run). The PTX lands in `$OUT_DIR/kernels.ptx`, embedded by `src/ptx.rs`.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "nvptx64-nvidia-cuda";
const GPU_ARCH: &str = "sm_90a";
/// Flags for every crate of the kernel build (`core` included). The unroll threshold lets LLVM
/// fully unroll the loops over per-thread register tiles, which otherwise go to local memory.
const RUSTFLAGS: &[&str] = &["-C", "target-cpu=sm_90a", "-C", "llvm-args=-unroll-threshold=1000"];

fn main() {
    // Without `build-ptx` the shipped `ptx/kernels.ptx` is used: nothing to build.
    if env::var_os("CARGO_FEATURE_BUILD_PTX").is_none() {
        println!("cargo:rerun-if-changed=build.rs");
        return;
    }
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let kernels = root.join("kernels-gpu");
    println!("cargo:rerun-if-changed={}", kernels.join("src").display());
    println!("cargo:rerun-if-changed={}", kernels.join("Cargo.toml").display());
    println!("cargo:rerun-if-changed={}", root.join("rust-toolchain.toml").display());
    println!("cargo:rerun-if-changed={}", root.join("spec/src").display());

    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    let ptx_path = out_dir.join("kernels.ptx");
    if let Err(message) = build_ptx(&kernels, &kernel_target_dir(&out_dir), &ptx_path) {
        eprintln!("error: could not build the GPU kernels: {message}");
        std::process::exit(1);
    }
}

/// A target directory of its own (the outer build holds a lock on its own), shared by debug and
/// release builds of the host so `core` for nvptx64 is compiled once.
fn kernel_target_dir(out_dir: &Path) -> PathBuf {
    // OUT_DIR is <target>/<profile>/build/<package>-<hash>/out.
    out_dir.ancestors().nth(4).unwrap_or(out_dir).join("kernels-gpu")
}

fn build_ptx(kernels: &Path, target_dir: &Path, ptx_path: &Path) -> Result<(), String> {
    check_rust_src()?;
    // The nested cargo may judge kernels-gpu up to date (e.g. after only its flags changed) and
    // write no PTX; this script only runs when a kernel changed, so always rebuild the crate
    // (seconds; `core` stays cached) and never let an old PTX pass for a new one.
    let _ = std::fs::remove_file(ptx_path);
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let _ = Command::new(&cargo)
        .current_dir(kernels)
        .args(["clean", "--release", "-p", "kernels-gpu", "--target", TARGET, "--target-dir"])
        .arg(target_dir)
        .env_remove("CARGO_TARGET_DIR")
        .status();
    // ANCHOR: nested_cargo
    let mut cmd = Command::new(cargo);
    cmd.current_dir(kernels)
        .args(["rustc", "--release", "--lib", "--target", TARGET, "-Zbuild-std=core"])
        .arg("--target-dir")
        .arg(target_dir)
        .arg("--")
        .arg(format!("--emit=asm={}", ptx_path.display()));
    // The outer build's flags and wrappers are for the host; none may leak into the GPU build.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_MAKEFLAGS",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_PROFILE_RELEASE_DEBUG",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("CARGO_TARGET_NVPTX64_NVIDIA_CUDA_RUSTFLAGS", RUSTFLAGS.join(" "));
    // ANCHOR_END: nested_cargo

    let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("`cargo rustc --target {TARGET}` for kernels-gpu failed ({status}); see the output above"));
    }
    let ptx = std::fs::read_to_string(ptx_path).map_err(|e| format!("no PTX at {}: {e}", ptx_path.display()))?;
    check_ptx(&ptx)
}

/// `-Zbuild-std` needs the standard library's sources; say which component is missing.
fn check_rust_src() -> Result<(), String> {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot run {rustc}: {e}"))?;
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let src = Path::new(&sysroot).join("lib/rustlib/src/rust/library/core");
    if !src.exists() {
        return Err(format!(
            "the toolchain at {sysroot} has no `rust-src` component, which -Zbuild-std=core needs; \
             run `rustup component add rust-src` in the repository root (or `rustup toolchain install` there)"
        ));
    }
    Ok(())
}

/// The PTX must be self-contained: a function of `core` that was not inlined (a panic path, a
/// bounds check) would stay an undefined `.func`, which the driver refuses at load time.
fn check_ptx(ptx: &str) -> Result<(), String> {
    if !ptx.contains(&format!(".target {GPU_ARCH}")) {
        return Err(format!("PTX is not for {GPU_ARCH}"));
    }
    let undefined: Vec<&str> = ptx
        .lines()
        .filter(|l| l.trim_start().starts_with(".extern .func"))
        .collect();
    if !undefined.is_empty() {
        return Err(format!(
            "kernels call functions that are not in the PTX (a non-inlined call into core?): {}",
            undefined.join("; ")
        ));
    }
    Ok(())
}
