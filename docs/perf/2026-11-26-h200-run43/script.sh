#!/usr/bin/env bash
# Run 43: stream-K with the last round's tiles cut into slices of K that start together: under
# memcheck and racecheck where it cuts, then timed against the persistent kernel and cuBLAS in
# three alternating processes, on shapes whose last round it cuts and on shapes it leaves whole.
set -u
rm -rf bundle; tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run43; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
SB=bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast
SH=hgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast
PB=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $R check --kernel $SB --kernel $SH --m 3072 --n 3072 --k 512 --beta 0.5 >> $D/sanitize.log 2>&1; echo "$tool rc $?" >> $D/rc.txt
done
SIZES=3072x3072x3072,3072x3072x8192,4096x4608x4096,1024x1024x16384,4096x4096x4096,8192x8192x8192,2048x2048x8192
for i in 1 2 3; do
  timeout 110 $R bench --dtype bf16 --kernel $PB --kernel $SB --sizes $SIZES --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bf16 p$i rc $?" >> $D/rc.txt
done
cp bundle-diag/run43.sh $D/script.sh
cd /tmp && tar czf $OUT/run43.tgz run43
