#!/usr/bin/env bash
# Run 63: persistent clusters of two (multicast of B) against the one-block persistent kernel,
# on the current tree (commit in bundle-ab/COMMIT-c2 plus the experiment's entries): checks at odd
# sizes, then five processes timed in turn at 4096³ and 8192³, then two with --sustain 2000.
set -u
D=/tmp/run63; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-c2.gz > $D/rgemm; chmod +x $D/rgemm
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT="$(cat bundle-ab/COMMIT-c2) + persistent clusters of two (experiment)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
KS="--kernel ${P}_persistent_tmast --kernel ${P}_c2g8_persistent_tmast --kernel ${P}_c2g4_persistent_tmast"
S=$SECONDS
timeout 60 $D/rgemm bench --dtype bf16 --kernel ${P}_c2g8_persistent_tmast --kernel ${P}_c2g4_persistent_tmast --sizes 1000x1000x1000,264x3000x4104,3x256x520x136,4104x3000x264 --iters 2 --out $D/checks > $D/checks.log 2>&1; echo "checks rc $? $((SECONDS-S)) s" >> $D/rc.txt
for i in 1 2 3 4 5; do
  S=$SECONDS
  timeout 70 $D/rgemm bench --dtype bf16 $KS --sizes 4096,8192 --iters 20 --out $D/p$i > $D/p$i.log 2>&1; echo "p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for i in 1 2; do
  S=$SECONDS
  timeout 80 $D/rgemm bench --dtype bf16 $KS --sizes 4096,8192 --iters 20 --sustain 2000 --out $D/sustained-p$i > $D/sustained-p$i.log 2>&1; echo "sustained-p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
rm -f $D/rgemm
cp bundle-diag/run63.sh $D/script.sh
cd /tmp && tar czf $OUT/run63.tgz run63
