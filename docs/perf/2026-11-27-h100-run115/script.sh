#!/usr/bin/env bash
# Run 115 (commit in bundle/COMMIT): each entry loaded as a module of its own. With the driver's
# cache emptied: the first check of one kernel (the driver compiles one entry), then every kernel
# on one problem (every entry's module loaded), the automatic plans with helper launches, and
# the library's GPU tests.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run115; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
rm -rf ~/.nv/ComputeCache
R=bundle/rgemm
t() { local s=$(date +%s%N); "$@"; local rc=$?; echo "rc=$rc ms=$(( ($(date +%s%N) - s) / 1000000 ))"; }
{
echo "== one kernel, cold"; t $R check --kernel sgemm_15_tf32x3_128x128x32_s4_raw --m 128 --n 128 --k 128
echo "== the same, cached"; t $R check --kernel sgemm_15_tf32x3_128x128x32_s4_raw --m 128 --n 128 --k 128
echo "== every kernel, 136x136x136"; t $R check --m 136 --n 136 --k 136
echo "== plans"
t $R run --kernel best --m 128 --n 4096 --k 4096 --layout nt --iters 5
t $R run --kernel best --m 300 --n 264 --k 256 --layout tn --lda 301 --iters 5
t $R run --kernel best --m 333 --n 409 --k 1021 --iters 5
t $R run --kernel best-bf16 --m 16 --n 512 --k 14336 --layout nt --iters 5
} > $D/checks.log 2>&1
grep -E "^==|rc=|passed|FAIL|check  |ratio" $D/checks.log | head -40
s=$(date +%s); timeout 170 bundle/tests/library --include-ignored --test-threads 4 > $D/library.log 2>&1; echo "library tests rc=$? s=$(( $(date +%s) - s ))"; grep -E "test result|FAILED|panicked" $D/library.log | head
cp bundle-diag/run115.sh $D/script.sh
cd $OUT && tar czf run115.tgz run115 && rm -rf run115
