#!/usr/bin/env bash
# Run 36: rung 14's TMA-store persistent kernel with three stages and a ring of four C buffers
# per warpgroup (_s3_persistent_tmast) against four stages and two (_s4_persistent_tmast):
# checks at odd sizes and batches with beta = 0 (the TMA-store path), the sanitizers over a grid
# that walks several tiles per block, and three processes timed in turn.
set -u
cd bundle-ab && gunzip -kf rgemm-e.gz && chmod +x rgemm-e && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=e
R=$PWD/bundle-ab/rgemm-e
D=/tmp/run36; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
P=bgemm_14_wgmma_tma_128x256x64
S3=${P}_s3_persistent_tmast
{
for args in "--m 4096 --n 4096 --k 4096" "--m 1000 --n 1000 --k 1000" "--m 4100 --n 2056 --k 264" "--m 520 --n 1800 --k 72 --batch 3" "--m 8 --n 8 --k 8" "--m 2100 --n 4096 --k 64"; do
  $R check --kernel $S3 $args --beta 0; $R check --kernel $S3 $args --beta 0.5
done
$R check --kernel $S3 --m 4096 --n 4096 --k 4096 --beta 0 --layout nt --skip-unsupported
for tool in memcheck racecheck synccheck initcheck; do
  echo "== $tool"; compute-sanitizer --tool $tool $R check --kernel $S3 --m 2100 --n 4096 --k 64 --beta 0 2>&1 | tail -3
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do
  timeout 100 $R bench --dtype bf16 --kernel ${P}_s4_persistent_tmast --kernel $S3 --sizes 4096,8192 --iters 20 --out $D/bf16-p$i > $D/bf16-p$i.log 2>&1; echo "p$i rc $?" >> $D/rc.txt
done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run36.tgz run36
