#!/usr/bin/env bash
# Run 113 (commit in bundle/COMMIT): where the goals stand with programmatic dependent launches:
# fp32 `_raw` (nn) and `_presplit_tn` (tn) at 4096³, four processes, and bf16/f16 rung 14's
# TMA-store persistent kernel at 4096³, three processes each; timed in turn with cuBLAS.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
D=$OUT/run113; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
R=bundle/rgemm; F=sgemm_15_tf32x3_128x128x32_s4
# The driver compiles the module's PTX on the machine's first load: once, untimed.
timeout 120 $R check --kernel ${F}_raw --m 128 --n 128 --k 128 > $D/warm.log 2>&1
for i in 1 2 3 4; do
  timeout 45 $R bench --kernel ${F}_raw --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r113/f32-p$i > $D/f32-p$i.log 2>&1
  echo "f32 p$i rc=$?" >> $D/rc.txt; cp /tmp/r113/f32-p$i/results.json $D/f32-p$i.json
done
for i in 1 2 3; do
  timeout 30 $R bench --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --sizes 4096 --iters 10 --out /tmp/r113/bf16-p$i > $D/bf16-p$i.log 2>&1
  echo "bf16 p$i rc=$?" >> $D/rc.txt; cp /tmp/r113/bf16-p$i/results.json $D/bf16-p$i.json
done
cat $D/rc.txt
for f in $D/*-p*.log; do echo "$(basename $f) $(grep -E "^  [sbh]gemm" $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run113.sh $D/script.sh
cd $OUT && tar czf run113.tgz run113 && rm -rf run113
