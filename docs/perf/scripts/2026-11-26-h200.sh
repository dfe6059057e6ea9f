# The scripts of the runs of 2026-11-26-h200.md, in run order: each ran on the GPU machine beside
# the bundle (scripts/gpu-bundle.sh) of its commit, with $OUT the folder that came back.

# ==============================================================================================
# Run 27 (2026-11-26-h200-run27/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# bf16 and f32 on an H200, timed in turn, three processes.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run27; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
for i in 1 2 3; do
  timeout 100 $R bench --dtype bf16 --kernel ${P}_persistent_tmast --kernel ${P}_persistent_pairs --sizes 4096,8192 --iters 20 --out $D/bf16-p$i > $D/bf16-p$i.log 2>&1
done
for i in 1 2 3; do
  timeout 100 $R bench --kernel sgemm_15_tf32x3_128x128x32_s4_raw --sizes 4096,8192 --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1
done
cd /tmp && tar czf $OUT/run27.tgz run27

# ==============================================================================================
# Run 43 (2026-11-26-h200-run43/script.sh)
# ==============================================================================================
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

# ==============================================================================================
# Run 44 (2026-11-26-h200-run44/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 44: run.sh all over the stream-K kernels on the final commit (every test, the four
# sanitizers over them), then the stream-K and persistent kernels and cuBLAS in three alternating
# processes on shapes whose last round it cuts (one block per SM now, also for few tiles) and on
# shapes it leaves whole.
set -u
rm -rf bundle; tar xzf bundle.tgz
mkdir -p /tmp/run44/all
OUT=/tmp/run44/all timeout 300 bash bundle/run.sh all streamk > /tmp/run44/all.log 2>&1; echo "all rc $?" > /tmp/run44/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run44
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
SB=bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast
PB=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
SIZES=3072x3072x3072,3072x3072x8192,4096x4608x4096,1024x1024x16384,2048x1024x8192,4096x4096x4096,8192x8192x8192
for i in 1 2 3; do
  timeout 80 $R bench --dtype bf16 --kernel $PB --kernel $SB --sizes $SIZES --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bf16 p$i rc $?" >> $D/rc.txt
done
timeout 60 $R bench --dtype f16 --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel hgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --sizes 3072x3072x3072,4096x4608x4096 --iters 20 --out $D/h-p1 > $D/h-p1.log 2>&1; echo "f16 p1 rc $?" >> $D/rc.txt
cp bundle-diag/run44.sh $D/script.sh
cd /tmp && tar czf $OUT/run44.tgz run44

# ==============================================================================================
# Run 45 (2026-11-26-h200-run45/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 45: after the review's simplification of the stream-K plan (one slot per block): run.sh all
# over the stream-K kernels (every test, four sanitizers), then both kernels and cuBLAS in three
# alternating processes.
set -u
rm -rf bundle; tar xzf bundle.tgz
mkdir -p /tmp/run45/all
OUT=/tmp/run45/all RGEMM_BENCH_FILTER='bgemm_.*streamk' timeout 330 bash bundle/run.sh all streamk > /tmp/run45/all.log 2>&1; echo "all rc $?" > /tmp/run45/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run45
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
for i in 1 2 3; do
  timeout 60 $R bench --dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --sizes 3072x3072x3072,1024x1024x16384,4096x4608x4096,4096x4096x4096 --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bf16 p$i rc $?" >> $D/rc.txt
done
cp bundle-diag/run45.sh $D/script.sh
cd /tmp && tar czf $OUT/run45.tgz run45

# ==============================================================================================
# Run 84 (2026-11-26-h200-run84/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Nsight Compute on the persistent kernel and the stream-K kernel with run 82's runs over the
# last round (M = N = 4096, K = 1024 and 4096): where do the runs lose their time?
set -u
cd bundle-ab && gunzip -kf rgemm-runs.gz && chmod +x rgemm-runs && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run84; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-runs
P=bgemm_14_wgmma_tma_128x256x64_s4
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min
for k in 1024 4096; do
  for kern in ${P}_persistent_tmast ${P}_streamk_tmast; do
    timeout 120 ncu --csv --page details --print-units base -k "regex:^${kern}\$" --launch-count 1 --metrics $M $B run --kernel $kern --m 4096 --n 4096 --k $k --iters 1 > $D/ncu-$kern-$k.csv 2> $D/ncu-$kern-$k.log
    echo "$kern $k rc=$?" >> $D/times.txt
  done
done
cp bundle-diag/run84.sh $D/script.sh
cd $OUT && tar czf run84.tgz run84

# ==============================================================================================
# Run 85 (2026-11-26-h200-run85/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Stream-K heads and tails over a last round more than half full (4096³: 116 tiles on 132 SMs,
# the 16 idle SMs taking 8 tails of 7 K-tiles each): checks, sanitizers, then the persistent and
# stream-K kernels timed in turn.
set -u
cd bundle-ab && gunzip -kf rgemm-ht.gz && chmod +x rgemm-ht && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run85; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-ht
P=bgemm_14_wgmma_tma_128x256x64_s4
H=hgemm_14_wgmma_tma_128x256x64_s4
{
for k in ${P}_streamk_tmast ${H}_streamk_tmast; do
  timeout 30 $B check --kernel $k --m 4096 --n 4096 --k 4096 --beta 0; echo "rc=$?"
  timeout 30 $B check --kernel $k --m 1280 --n 2560 --k 2056 --beta 0.5; echo "rc=$?"
  timeout 30 $B check --kernel $k --m 1280 --n 2560 --k 1024 --batch 2 --beta 0; echo "rc=$?"
done
timeout 30 $B check --kernel ${P}_streamk_tmast_nt --layout nt --m 4096 --n 4096 --k 4096 --beta 0; echo "rc=$?"
timeout 30 $B check --kernel ${P}_streamk_tmast_tn --layout tn --m 6144 --n 6144 --k 2048 --beta 0; echo "rc=$?"
timeout 30 $B check --kernel ${P}_streamk_tmast_tt --layout tt --m 1280 --n 2560 --k 2048 --beta 0; echo "rc=$?"
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool $B check --kernel ${P}_streamk_tmast --m 1280 --n 2560 --k 2048 --beta 0 2>&1 | grep -E "SUMMARY|passed|hazard|Race|Error|nvjet|gemm_14" | head -8; echo "$tool"
done
} > $D/checks.txt 2>&1
echo "checks done $SECONDS s" >> $D/times.txt
for i in 1 2 3; do
  s=$SECONDS
  timeout 110 $B bench --kernel ${P}_persistent_tmast --kernel ${P}_streamk_tmast --sizes 4096,8192,6144,7168,4096x4096x8192,3072 --iters 10 --out /tmp/r82/b$i > $D/bf16-p$i.log 2>&1
  echo "bf16 p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r82/b$i/results.json $D/bf16-p$i.json
done
for i in 1 2; do
  s=$SECONDS
  timeout 60 $B bench --kernel ${H}_persistent_tmast --kernel ${H}_streamk_tmast --sizes 4096,8192 --iters 10 --out /tmp/r82/h$i > $D/f16-p$i.log 2>&1
  echo "f16 p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r82/h$i/results.json $D/f16-p$i.json
done
cp bundle-diag/run85.sh $D/script.sh
cd $OUT && tar czf run85.tgz run85

# ==============================================================================================
# Run 86 (2026-11-26-h200-run86/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 86: every GPU test on the final bundle of this stop, and the automatic plan at three sizes
# the width rule decides (3840³ now takes the 256-wide stream-K kernel).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run86; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 330 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
for s in 3840 3072 4800; do
  timeout 90 bundle/rgemm run --kernel best-bf16 --m $s --n $s --k $s > $D/best-$s.log 2>&1; echo "best $s rc=$?" >> $D/rc.txt
done
cp bundle/COMMIT $D/; cp bundle-diag/run86.sh $D/script.sh
cd /tmp && tar czf $OUT/run86.tgz run86
