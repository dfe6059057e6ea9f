#!/usr/bin/env bash
# Run 134 (commit in bundle/COMMIT): rung 15 split ahead with the refills issued in turn.
# compute-sanitizer on the split-ahead entries (K long enough for both warpgroups to issue);
# then four processes of `rgemm bench` of the rung-15 kernels of every layout at 4096³ (and nn,
# tn at 8192³), timed in turn.
set -u
rm -rf bundle; tar xzf bundle-diag/bundle-min.tgz
D=$OUT/run134; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
jobs=()
for k in sgemm_15_tf32x3_128x128x32_s4_presplit:nn sgemm_15_tf32x3_128x128x32_s4_presplit_tn:tn; do
  for tool in memcheck racecheck synccheck initcheck; do
    for s in "160 192 300" "136 100 300"; do jobs+=("$tool ${k%%:*} ${k##*:} $s"); done
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 4 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$k-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
k=sgemm_15_tf32x3_128x128x32_s4
for p in 1 2 3 4; do
  timeout 100 bundle/rgemm bench --kernel ${k}_raw --kernel ${k}_presplit --kernel ${k}_presplit_tn --kernel ${k}_raw_nt --kernel ${k}_raw_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn,8192:tn --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp bundle-diag/run134.sh $D/script.sh
cat $D/sanitize.txt | cut -c1-160; grep -c "rc=0" $D/sanitize.txt; cat $D/rc.txt
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
cd $OUT && tar czf run134.tgz run134 && rm -rf run134
