#!/usr/bin/env bash
# Run 197: store4 without its flag: the epilogue tests with their GPU cases, memcheck on the small-products kernel.
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_BIN=$PWD/quick/rgemm RGEMM_COMMIT=bd3bcc8d885d
timeout 70 quick/tests/epilogue --include-ignored --test-threads 4 2>&1 | tail -4; echo "test epilogue rc $?"
timeout 20 compute-sanitizer --tool memcheck --error-exitcode 9 quick/rgemm run --kernel bgemm_00_batched_64x64x32_w32x32_tn --layout tn --m 70 --n 66 --k 5 --ldc 68 --batch 3 --out-dtype bf16 --iters 2 2>&1 | tail -2; echo "memcheck rc ${PIPESTATUS[0]}"
