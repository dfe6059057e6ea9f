#!/usr/bin/env bash
# Run 42: the stream-K kernels under the four sanitizers on a launch with whole rounds and shared
# ones, checked at the sizes they exist for, and timed against the persistent kernel and cuBLAS in
# three alternating processes.
set -u
[ -d bundle ] || tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run42; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
SB=bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast
SH=hgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast
PB=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for tool in memcheck racecheck synccheck initcheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $R check --kernel $SB --kernel $SH --m 2048 --n 4352 --k 512 --beta 0 >> $D/sanitize.log 2>&1; echo "$tool rc $?" >> $D/rc.txt
done
for s in "4096 4096 4096 0" "8192 8192 8192 0" "6144 6144 6144 0.5" "256 256 131072 0" "4096 4096 1024 0.5"; do
  set -- $s
  timeout 120 $R check --kernel $SB --kernel $SH --m $1 --n $2 --k $3 --beta $4 >> $D/check.log 2>&1; echo "check $s rc $?" >> $D/rc.txt
done
SIZES=4096x4096x4096,8192x8192x8192,6144x6144x6144,3072x3072x3072,2048x2048x8192,4096x4096x1024
for i in 1 2 3; do
  timeout 100 $R bench --dtype bf16 --kernel $PB --kernel $SB --sizes $SIZES --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bf16 p$i rc $?" >> $D/rc.txt
done
timeout 100 $R bench --dtype f16 --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel $SH --sizes 4096x4096x4096,8192x8192x8192 --iters 20 --out $D/h-p1 > $D/h-p1.log 2>&1; echo "f16 p1 rc $?" >> $D/rc.txt
cp bundle-diag/run42.sh $D/script.sh
cd /tmp && tar czf $OUT/run42.tgz run42
