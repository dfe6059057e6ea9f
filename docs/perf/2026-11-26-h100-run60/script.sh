#!/usr/bin/env bash
# Run 60: A/B of the persistent tile order's groups on one H100: 16 block rows (the bundle,
# commit 2cbf286) against 8 (the same tree with PERSISTENT_GROUP_M = 8), alternating processes:
# three of each timed in turn, then two of each with the kernel alone after two seconds of its
# own launches, at 4096³ and 8192³.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run60; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-g8.gz > $D/rgemm-g8; chmod +x $D/rgemm-g8
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
run() { # variant, label, extra args
  local v=$1 label=$2; shift 2
  if [ $v = g8 ]; then RR=$D/rgemm-g8; export RGEMM_COMMIT="$(cat bundle/COMMIT) with PERSISTENT_GROUP_M = 8"; else RR=$PWD/bundle/rgemm; export RGEMM_COMMIT=$(cat bundle/COMMIT); fi
  S=$SECONDS
  timeout 60 $RR bench --dtype bf16 --kernel $K --sizes 4096,8192 --iters 20 "$@" --out $D/$label > $D/$label.log 2>&1; echo "$label rc $? $((SECONDS-S)) s" >> $D/rc.txt
}
for i in 1 2 3; do for v in g8 g16; do run $v $v-p$i; done; done
for i in 1 2; do for v in g8 g16; do run $v $v-sustained-p$i --sustain 2000; done; done
rm -f $D/rgemm-g8
cp bundle-diag/run60.sh $D/script.sh
cd /tmp && tar czf $OUT/run60.tgz run60
