#!/usr/bin/env bash
# Run 191: the GEMV's transposing lane sum and split loops (0 local memory under launch bounds),
# 4-row GEMVs at four blocks per SM: tests, sanitizers, decode timings.
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
D=$OUT/run191; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/quick/rgemm
R=quick/rgemm
S=$SECONDS; timeout 60 quick/tests/gpu --include-ignored the_driver_compiles_every_kernel_without_local_memory > $D/test-gpu-driver.log 2>&1; echo "test gpu driver rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in epilogue library cli; do
  S=$SECONDS; timeout 60 quick/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for k in sgemm_00_gemv_4x8x128_nt hgemm_00_gemv_16x8x256_nt sgemm_00_gemv_16x8x128_nt; do
  for s in "3 333 1001" "13 1000 4000"; do set -- $s
    timeout 20 $R check --kernel $k --m $1 --n $2 --k $3 >> $D/check.log 2>&1; echo "check $k $s rc $?" >> $D/rc.txt
  done
done
for tool in memcheck racecheck; do
  for k in bgemm_00_gemv_4x8x256_nt hgemm_00_gemv_16x8x256_nt; do
    timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel $k --m 13 --n 1000 --k 4001 --layout nt --out-dtype bf16 --epilogue bias-silu-aux --iters 2 > $D/$tool-$k.log 2>&1; echo "$tool $k rc $?" >> $D/rc.txt
  done
done
S=$SECONDS
timeout 60 $R bench --kernel bgemm_00_gemv_1x8x256_nt --kernel bgemm_00_gemv_4x8x256_nt --kernel bgemm_00_gemv_16x8x256_nt --iters 20 --sizes 1x14336x4096:nt,4x14336x4096:nt,8x4096x11008:nt,16x11008x4096:nt --out $D/bench-gemv-bf16 > $D/bench-gemv-bf16.log 2>&1; echo "bench gemv bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cat $D/rc.txt
