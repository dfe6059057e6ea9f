#!/usr/bin/env bash
# Run 143 (commit in bundle/COMMIT): three processes of `rgemm bench` of rung 11 at 4096³ and
# 8192³, timed in turn: the producer-warp kernel (`_wa`) against the same 8 × 8 tile without the
# producer warp (`_wa_lc`) and the 8 × 16 and 16 × 8 thread tiles on 128 × 256 blocks; then
# `rgemm tune --cases` of the thin bf16 `tn` and `tt` shapes, with the narrow tiles among the
# candidates, merged into the committed table.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run143; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
k=sgemm_11_tma_128x
for p in 1 2 3; do
  S=$SECONDS
  timeout 80 bundle/rgemm bench --kernel ${k}128x32_w64x32_t8x8_s4_wa --kernel ${k}128x32_w64x32_t8x8_s4_wa_lc --kernel ${k}256x32_w64x64_t8x16_s4_wa_lc --kernel ${k}256x32_w64x64_t16x8_s4_wa_lc --sizes 4096,8192 --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp dispatch/h100.tsv $D/dispatch.tsv
timeout 100 bundle/rgemm tune --dtype bf16 --cases 4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn,4096x16x4096:tt,4096x128x4096:tt --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1
echo "tune bf16 rc=$?" >> $D/rc.txt
cp bundle-diag/run143.sh $D/script.sh
cat $D/rc.txt; grep -h -A10 "fastest plan" $D/tune-*.log
python3 - $D <<'PY'
import json,glob,sys,collections
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/f32-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(run['kernel'][14:], s['m'])].append(round(100*cb/run['timing']['median_ms'],1))
for k in sorted(d): print(k, d[k])
PY
cd $OUT && tar czf run143.tgz run143 && rm -rf run143
