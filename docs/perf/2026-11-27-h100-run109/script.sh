#!/usr/bin/env bash
# Run 109: the split ahead and the product in chunks of rows of M (RGEMM_SPLIT_CHUNK rows: split
# the chunk's rows of A into the start of the workspace, multiply them, next chunk; 0 = whole A
# at once, as on main), so that the chunk's split is still in L2 when its product reads it.
# Three rounds of processes, the chunk sizes in turn, 4096³ nn and tn, timed in turn with cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-chunk.gz && chmod +x rgemm-chunk && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-wip}
D=$OUT/run109; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4; R=bundle-ab/rgemm-chunk
for i in 1 2 3; do
  for c in 0 2048 1024 512; do
    RGEMM_SPLIT_CHUNK=$c timeout 40 $R bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r109/c$c-p$i > $D/c$c-p$i.log 2>&1
    echo "c$c p$i rc=$?" >> $D/rc.txt; cp /tmp/r109/c$c-p$i/results.json $D/c$c-p$i.json
  done
done
for c in 0 1024; do
  RGEMM_SPLIT_CHUNK=$c timeout 60 $R bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_presplit_tn --sizes 8192,8192:tn --iters 10 --out /tmp/r109/big-c$c > $D/big-c$c.log 2>&1
  echo "big c$c rc=$?" >> $D/rc.txt; cp /tmp/r109/big-c$c/results.json $D/big-c$c.json
done
cat $D/rc.txt
for f in $D/c*-p*.log $D/big-*.log; do echo "$(basename $f) $(grep -E "s4_(raw|presplit|presplit_tn)  " $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run109.sh $D/script.sh
cd $OUT && tar czf run109.tgz run109 && rm -rf run109
