#!/usr/bin/env bash
# Builds a self-contained bundle for a GPU machine that has CUDA but no Rust: the rgemm binary,
# every test binary (the PTX is embedded in each), and run.sh, which tests, sanitizes and times.
# Test binaries that read the source tree at run time (SOURCE_TESTS: the book's include check, its
# figures, and the rules the test sources keep) are left out and named: the GPU machine has no source tree, and
# CI runs those tests.
#
#   scripts/gpu-bundle.sh            # writes ./bundle
#   (on the GPU machine)  bash bundle/run.sh [tests|sanitize|bench|all] [kernel-filter]
#   (on the GPU machine)  OUT=dir bash bundle/ncu.sh [rung ...]   # the book's Nsight Compute metrics
set -euo pipefail
cd "$(dirname "$0")/.."
out=bundle
SOURCE_TESTS=" book figures sources generated cost_model "
# Tests of the pinned ptxas release's output (the SASS mix of tests/sass.rs): the GPU machine's
# toolkit is another release; CI runs them with the pinned one.
PINNED_TOOL_TESTS=" sass "
rm -rf "$out" && mkdir -p "$out/tests"

cargo build --release -p host
cargo build --release --example mlp
cp target/release/rgemm target/release/examples/mlp "$out/"
cargo test --workspace --release --no-run --message-format=json 2>/dev/null \
  | python3 -c '
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    exe = msg.get("executable")
    if msg.get("reason") == "compiler-artifact" and exe and msg.get("profile", {}).get("test"):
        print(exe)' \
  | while read -r exe; do
      name=$(basename "$exe" | sed 's/-[0-9a-f]*$//')
      if [[ $SOURCE_TESTS == *" $name "* ]]; then echo "left out of the bundle (reads the source tree): tests/$name"; continue; fi
      if [[ $PINNED_TOOL_TESTS == *" $name "* ]]; then echo "left out of the bundle (checks the pinned ptxas release's SASS): tests/$name"; continue; fi
      cp "$exe" "$out/tests/$name"
    done
strip "$out/rgemm" "$out/mlp" "$out"/tests/*
cp scripts/gpu-run.sh "$out/run.sh"
cp scripts/gpu-ncu.sh "$out/ncu.sh"
cp scripts/gpu-library.sh "$out/library.sh"
cp scripts/gpu-env.sh "$out/env.sh"
git rev-parse --short HEAD > "$out/COMMIT" 2>/dev/null || true
# Every test binary embeds the same PTX module: xz's 64 MiB window (-9, one thread: one block)
# spans the copies, so the bundle travels in a thirtieth of its size, about 5 MB (gzip's 32 KiB
# window sees each copy anew: a quarter). On the GPU machine: xz -dc bundle.txz | tar xf -
tar cf - "$out" | xz -9 -T1 > bundle.txz
du -sh "$out" bundle.txz
