#!/usr/bin/env bash
# Run 59: the bf16 processes table with tile groups of 16 (five processes timed in turn, two with
# each contender alone after two seconds of its own launches), and the f16 real-shape suite with
# the hardware conversion in the decode GEMV. Every step under its own limit, 480 s in all.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run59; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
for i in 1 2 3 4 5; do
  S=$SECONDS
  timeout 45 $R bench --dtype bf16 --kernel ${P}_persistent_tmast --kernel ${P}_persistent_pairs --sizes 4096,8192 --iters 20 --out $D/bf16-p$i > $D/bf16-p$i.log 2>&1; echo "bf16 p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp $D/bf16-p$i/results.json $D/bf16-p$i.json 2>/dev/null
done
for i in 1 2; do
  S=$SECONDS
  timeout 45 $R bench --dtype bf16 --kernel ${P}_persistent_tmast --sizes 4096,8192 --iters 20 --sustain 2000 --out $D/bf16-sustained-p$i > $D/bf16-sustained-p$i.log 2>&1; echo "bf16 sustained p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp $D/bf16-sustained-p$i/results.json $D/bf16-sustained-p$i.json 2>/dev/null
done
S=$SECONDS
timeout 170 $R bench --suite real --dtype f16 --iters 10 --out $D/suite-f16 > $D/suite-f16.log 2>&1; echo "suite f16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run59.sh $D/script.sh
cd /tmp && tar czf $OUT/run59.tgz run59
