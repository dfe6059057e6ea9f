#!/usr/bin/env bash
# Builds a self-contained bundle for a GPU machine that has CUDA but no Rust: the rgemm binary,
# every test binary (the PTX is embedded in each), and run.sh, which tests, sanitizes and times.
#
#   scripts/gpu-bundle.sh            # writes ./bundle
#   (on the GPU machine)  bash bundle/run.sh [tests|sanitize|bench|all] [kernel-filter]
#   (on the GPU machine)  OUT=dir bash bundle/ncu.sh [rung ...]   # the book's Nsight Compute metrics
set -euo pipefail
cd "$(dirname "$0")/.."
out=bundle
rm -rf "$out" && mkdir -p "$out/tests"

cargo build --release -p host
cp target/release/rgemm "$out/"
cargo test --workspace --release --no-run --message-format=json 2>/dev/null \
  | python3 -c '
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    exe = msg.get("executable")
    if msg.get("reason") == "compiler-artifact" and exe and msg.get("profile", {}).get("test"):
        print(exe)' \
  | while read -r exe; do cp "$exe" "$out/tests/$(basename "$exe" | sed 's/-[0-9a-f]*$//')"; done
strip "$out/rgemm" "$out"/tests/*
cp scripts/gpu-run.sh "$out/run.sh"
cp scripts/gpu-ncu.sh "$out/ncu.sh"
git rev-parse --short HEAD > "$out/COMMIT" 2>/dev/null || true
du -sh "$out"
