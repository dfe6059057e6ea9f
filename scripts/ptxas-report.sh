#!/usr/bin/env bash
# Registers, stack frame and spills of every kernel as ptxas assembles it for sm_90a, with the
# launch bounds the host adds at load time. No GPU needed.
#   scripts/ptxas-report.sh            # one line per kernel, ptxas version first
# ptxas: $RGEMM_PTXAS, else the nvidia-cuda-nvcc wheel (pip install nvidia-cuda-nvcc), else PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
ptxas=${RGEMM_PTXAS:-$(python3 -c 'import nvidia, os; print([os.path.join(p, "cu13", "bin", "ptxas") for p in nvidia.__path__][0])' 2>/dev/null || echo ptxas)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cargo run --quiet --release --example bounded_ptx > "$dir/kernels.ptx"
"$ptxas" --version | grep -i release
"$ptxas" -arch=sm_90a -v -o "$dir/kernels.cubin" "$dir/kernels.ptx" 2>&1 | awk '
  /Compiling entry function/ { match($0, /\x27[^\x27]+\x27/); name = substr($0, RSTART + 1, RLENGTH - 2) }
  /bytes stack frame/ { stack = $1; spills = $5 + $9 }
  /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") regs = $(i + 1);
                            if (name !~ /^lesson_/) printf "%-46s %4d registers %4d B stack %4d B spills\n", name, regs, stack, spills }'
