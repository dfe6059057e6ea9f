#!/usr/bin/env bash
# Run 153 (commit in bundle/COMMIT): rung 11 with double fragments (`_df`: A of the next four
# K-steps read while these four are multiplied) against `_wa`, four processes timed in turn at
# 4096³ and 8192³; compute-sanitizer memcheck and racecheck on `_df` first.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run153; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
K=sgemm_11_tma_128x128x32_w64x32_t8x8_s4
jobs=()
for tool in memcheck racecheck synccheck; do
  for s in "260 200 40 0" "136 104 72 0.5" "1000 1000 1000 0"; do jobs+=("$tool ${K}_wa_df nn $s"); done
done
printf '%s\n' "${jobs[@]}" | timeout 200 xargs -P 3 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --beta $6 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 beta $6 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
for p in 1 2 3 4; do
  [ $SECONDS -gt 480 ] && break
  S=$SECONDS
  timeout 80 bundle/rgemm bench --kernel ${K}_wa --kernel ${K}_wa_df --sizes 4096,8192 --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1; echo "p$p rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp bundle-diag/run153.sh $D/script.sh
cut -c1-170 $D/sanitize.txt; cat $D/rc.txt
python3 - $D <<'PY'
import json,glob,sys,collections,statistics as st
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/f32-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']
        for run in s['runs']:
            t=run.get('timing')
            if not t: continue
            pr=st.median([c/k for c,k in zip(cb['rounds_ms'],t['rounds_ms'])])
            d[(run['kernel'][-10:],s['m'])].append((round(100*pr,1), run['outcome']))
for k in sorted(d): print(k, 'per round median', st.median(x[0] for x in d[k]), d[k])
PY
rm -f $D/*check-*.log
cd $OUT && tar czf run153.tgz run153 && rm -rf run153
