#!/usr/bin/env bash
# Run 136 (commit in bundle/COMMIT): every GPU test, with compute-sanitizer on rung 15's split-ahead
# kernels (presplit_tt new) at the same time; then four processes of `rgemm bench` of the rung-15
# kernels of every layout at 4096³ (and nn, tt at 8192³), timed in turn.
set -u
rm -rf bundle; xz -dc bundle-diag/bundle.txz | tar xf -
D=$OUT/run136; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
(OUT=$D/tests timeout 285 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc=$?" >> $D/rc.txt) &
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
jobs=()
for k in sgemm_15_tf32x3_128x128x32_s4_presplit_tt:tt sgemm_15_tf32x3_128x128x32_s4_presplit:nn sgemm_15_tf32x3_128x128x32_s4_presplit_tn:tn sgemm_15_tf32x3_128x128x32_s4_raw_tt:tt; do
  for tool in memcheck racecheck synccheck initcheck; do
    for s in "160 192 300" "136 104 300"; do jobs+=("$tool ${k%%:*} ${k##*:} $s"); done
  done
done
printf '%s\n' "${jobs[@]}" | timeout 285 xargs -P 3 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$k-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
wait
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
k=sgemm_15_tf32x3_128x128x32_s4
for p in 1 2 3 4; do
  timeout 70 bundle/rgemm bench --kernel ${k}_raw --kernel ${k}_presplit --kernel ${k}_presplit_tn --kernel ${k}_raw_nt --kernel ${k}_raw_tt --kernel ${k}_presplit_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn,8192:tt --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp bundle-diag/run136.sh $D/script.sh
cut -c1-170 $D/sanitize.txt; grep -c "rc=0" $D/sanitize.txt; cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5
python3 - $D <<'PY'
import json,glob,sys,collections
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/f32-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(run['kernel'][30:], s['m'], s.get('layout'))].append(round(100*cb/run['timing']['median_ms'],1))
for k in sorted(d): print(k, d[k])
PY
cd $OUT && tar czf run136.tgz run136 && rm -rf run136
