#!/usr/bin/env bash
# Run 118: the streamed split ahead, two variants against the split as a whole grid (old):
# `new` (commit a548bc7: per-chunk waits until a row is split) and `rowwait` (probe: each tile
# waits for its whole row of the split, no per-chunk waits), each with the split on 16, 33 or 66
# blocks (probe knob PROBE_SPLIT_BLOCKS). rung 15 `_raw`, `_presplit`, `_presplit_tn` at 4096³.
set -u
cd bundle-ab && for b in new old rowwait; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-a548bc7}
D=$OUT/run118; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4
for b in new old rowwait; do timeout 60 bundle-ab/rgemm-$b check --kernel ${F}_presplit_tn --m 1000 --n 1000 --k 1000 --layout tn > $D/warm-$b.log 2>&1; done
for v in old rowwait:16 rowwait:33 rowwait:66 new:16 old rowwait:16 rowwait:33 new:16 rowwait:66; do
  IFS=: read -r b g <<< "$v"; i=$(( $(ls $D/*.log | wc -l) ))
  PROBE_SPLIT_BLOCKS=$g timeout 75 bundle-ab/rgemm-$b bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r118/$b$g-$i > $D/$b$g-$i.log 2>&1
  echo "$b$g-$i rc=$?" >> $D/rc.txt; cp /tmp/r118/$b$g-$i/results.json $D/$b$g-$i.json 2>/dev/null
done
cat $D/rc.txt
for f in $D/*-*.log; do case $f in *warm*) continue;; esac; echo "$(basename $f) $(grep -E "^  [sbh]gemm" $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run118.sh $D/script.sh
cd $OUT && tar czf run118.tgz run118 && rm -rf run118
