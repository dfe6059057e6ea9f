#!/usr/bin/env bash
# Run 49: A/B of the stream-K hand-over on one device: the last arriver reads every partial
# (commit be9e3d6, "old") against every sharer adding up a share after a wait (b3a1608, "new"),
# three processes of each, alternating, each timing the persistent and the stream-K kernel and
# cuBLAS in turn.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run49; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-old.gz > $D/rgemm-old; chmod +x $D/rgemm-old
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
SIZES=3072x3072x3072,3072x3072x8192,1024x1024x16384,4096x4608x4096,2048x1024x8192,1000x1000x1000,1024x1024x32768,4096x4096x4096
for i in 1 2 3; do
  for v in old new; do
    if [ $v = old ]; then R=$D/rgemm-old; export RGEMM_COMMIT=be9e3d6; else R=$PWD/bundle/rgemm; export RGEMM_COMMIT=$(cat bundle/COMMIT); fi
    timeout 60 $R bench --dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --sizes $SIZES --iters 20 --out $D/$v-p$i > $D/$v-p$i.log 2>&1; echo "$v p$i rc $?" >> $D/rc.txt
  done
done
rm -f $D/rgemm-old
cp bundle-diag/run49.sh $D/script.sh
cd /tmp && tar czf $OUT/run49.tgz run49
