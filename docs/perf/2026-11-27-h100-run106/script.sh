#!/usr/bin/env bash
# Run 106: rung 15 with a splitter warpgroup (`_splitter`, `_splitter_tn`): checks against the f64
# reference (ragged, padded, batched, 4096³), compute-sanitizer (memcheck, racecheck, synccheck),
# then four processes timed in turn at 4096³ nn and tn against `_raw`, `_presplit`, `_raw_tn`,
# `_presplit_tn` and cuBLAS, and two at 8192³.
set -u
cd bundle-ab && gunzip -kf rgemm-now.gz && chmod +x rgemm-now && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-wip}
D=$OUT/run106; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
R=bundle-ab/rgemm-now; F=sgemm_15_tf32x3_128x128x32_s4
{
$R check --kernel ${F}_splitter --m 301 --n 264 --k 257 --lda 303 --batch 3
$R check --kernel ${F}_splitter --m 1 --n 4 --k 4
$R check --kernel ${F}_splitter_tn --layout tn --m 300 --n 264 --k 257 --lda 304 --batch 3
$R check --kernel ${F}_splitter_tn --layout tn --m 4 --n 4 --k 1
$R check --kernel ${F}_splitter --m 4096 --n 4096 --k 4096
$R check --kernel ${F}_splitter_tn --layout tn --m 4096 --n 4096 --k 4096
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 3 $R check --kernel ${F}_splitter --m 301 --n 264 --k 257 --batch 2 | tail -2; echo "$tool nn rc=$?"
  compute-sanitizer --tool $tool --error-exitcode 3 $R check --kernel ${F}_splitter_tn --layout tn --m 300 --n 264 --k 257 --batch 2 | tail -2; echo "$tool tn rc=$?"
done
} > $D/checks.log 2>&1
grep -E "PASS|FAIL|rc=|rror" $D/checks.log | head -40
for i in 1 2 3 4; do
  timeout 60 $R bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_splitter --kernel ${F}_raw_tn --kernel ${F}_presplit_tn --kernel ${F}_splitter_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r106/f32-p$i > $D/f32-p$i.log 2>&1
  echo "p$i rc=$?" >> $D/rc.txt; cp /tmp/r106/f32-p$i/results.json $D/f32-p$i.json
done
for i in 1 2; do
  timeout 80 $R bench --kernel ${F}_raw --kernel ${F}_splitter --kernel ${F}_presplit_tn --kernel ${F}_splitter_tn --sizes 8192,8192:tn --iters 10 --out /tmp/r106/big-p$i > $D/big-p$i.log 2>&1
  echo "big p$i rc=$?" >> $D/rc.txt; cp /tmp/r106/big-p$i/results.json $D/big-p$i.json
done
cat $D/rc.txt
for f in $D/f32-p*.log $D/big-p*.log; do echo "$(basename $f) $(grep -E "s4_(raw|presplit|splitter|raw_tn|presplit_tn|splitter_tn)  " $f | grep -v skipped | awk '{printf "%s %s %s | ", substr($1,30), $3, $5}')"; done
cp bundle-diag/run106.sh $D/script.sh
cd $OUT && tar czf run106.tgz run106 && rm -rf run106
