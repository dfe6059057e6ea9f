#!/usr/bin/env bash
# Registers and local memory (stack frame plus spills) of every kernel as ptxas assembles the PTX
# the host loads (launch bounds included) for sm_90a, with the sizes each kernel takes. No GPU
# needed: this is `rgemm list`, which finds ptxas in $RGEMM_PTXAS, the nvidia-cuda-nvcc wheel
# (pip install nvidia-cuda-nvcc) or PATH.
#   scripts/ptxas-report.sh            # rung by rung, ptxas version first
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --quiet --release -p host -- list "$@"
