#!/usr/bin/env bash
# Run 117: the streamed split ahead, one acquire per tile (commit a548bc7; bundle-ab/rgemm-new, with a probe-only knob
# PROBE_SPLIT_BLOCKS for the split's block count) against the split as a whole grid before the
# product (bundle-ab/rgemm-old, commit 7dabc9a's successor b9125f6 + docs). Checks first, then
# rung 15's `_raw`, `_presplit` and `_presplit_tn` at 4096³ (nn, tn), timed in turn with cuBLAS,
# in alternating processes.
set -u
cd bundle-ab && for b in new old; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-a548bc7}
D=$OUT/run117; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4
N=bundle-ab/rgemm-new; O=bundle-ab/rgemm-old
{
for k in ${F}_presplit ${F}_presplit_tn; do
  for shape in "--m 4096 --n 4096 --k 4096" "--m 301 --n 264 --k 257 --lda 303 --batch 3" "--m 1000 --n 1000 --k 1000" "--m 129 --n 130 --k 4097" "--m 2100000 --n 8 --k 36"; do
    lay=$([ $k = ${F}_presplit_tn ] && echo "--layout tn" || echo "")
    echo "== $k $shape $lay"; timeout 60 $N check --kernel $k $shape $lay 2>&1 | tail -2; echo "rc=$?"
  done
done
echo "== best tn 4096"; timeout 60 $N run --kernel best --m 4096 --n 4096 --k 4096 --layout tn --iters 20 2>&1 | tail -4
echo "== best nn 4096"; timeout 60 $N run --kernel best --m 4096 --n 4096 --k 4096 --iters 20 2>&1 | tail -4
for g in 8 66; do echo "== PROBE_SPLIT_BLOCKS=$g"; PROBE_SPLIT_BLOCKS=$g timeout 60 $N check --kernel ${F}_presplit_tn --m 4096 --n 4096 --k 4096 --layout tn 2>&1 | tail -1; done
} > $D/checks.log 2>&1
grep -cE "PASS" $D/checks.log; grep -E "FAIL|rror|rc=[1-9]" $D/checks.log | head
for i in 1 2; do
  for v in old new g16 g8; do
    case $v in old) B=$O; G=;; new) B=$N; G=;; g16) B=$N; G=16;; g8) B=$N; G=8;; esac
    [ $i = 2 ] && [ $v = g16 -o $v = g8 ] && continue
    PROBE_SPLIT_BLOCKS=$G timeout 75 $B bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r116/$v-p$i > $D/$v-p$i.log 2>&1
    echo "$v p$i rc=$?" >> $D/rc.txt; cp /tmp/r116/$v-p$i/results.json $D/$v-p$i.json 2>/dev/null
  done
done
cat $D/rc.txt
for f in $D/*-p*.log; do echo "$(basename $f) $(grep -E "^  [sbh]gemm" $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run117.sh $D/script.sh
cd $OUT && tar czf run117.tgz run117 && rm -rf run117
