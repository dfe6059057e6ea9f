#!/usr/bin/env bash
# Run 192: the tensor-core decode GEMV (gemv_mma.rs): its GPU tests, sanitizers, and its speed
# against the SIMT GEMV and the automatic choice at decode, tiny-K and attention shapes.
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
D=$OUT/run192; mkdir -p $D; cp "$0" $D/script.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/quick/rgemm
R=quick/rgemm
for t in epilogue library cli; do
  S=$SECONDS; timeout 60 quick/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for tool in memcheck racecheck synccheck; do
  for k in bgemm_00_gemv_16x64x128_w16x8_mma_nt hgemm_00_gemv_16x16x128_w16x8_mma_nt; do
    timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel $k --m 13 --n 1000 --k 4001 --layout nt --out-dtype bf16 --epilogue bias-silu-aux --iters 2 > $D/$tool-$k.log 2>&1; echo "$tool $k rc $?" >> $D/rc.txt
  done
done
DEC=2x14336x4096:nt,4x14336x4096:nt,8x14336x4096:nt,16x14336x4096:nt,4x4096x11008:nt,8x4096x11008:nt,16x4096x11008:nt,8x4096x4096:nt,16x4096x4096:nt,8x512x3584:nt,16x1024x4096:nt,16x11008x4096:nt
TK=7907x6764x5:nt,3208x14590x16:nt,5457x1093x1:nt,4491x594x12:nt,8x8x772x128:nt,20x7x216x128:nt
S=$SECONDS
timeout 240 $R bench --kernel bgemm_00_gemv_16x8x256_nt --kernel bgemm_00_gemv_16x64x128_w16x8_mma_nt --kernel bgemm_00_gemv_16x16x128_w16x8_mma_nt --iters 10 --sizes $DEC,$TK --out $D/bench-mma > $D/bench-mma.log 2>&1; echo "bench mma rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 120 $R bench --kernel best-bf16 --iters 10 --sizes $DEC,$TK --out $D/bench-best > $D/bench-best.log 2>&1; echo "bench best rc $? $((SECONDS-S)) s" >> $D/rc.txt
cat $D/rc.txt
