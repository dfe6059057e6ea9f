# The scripts of the runs of 2026-11-28-h200.md, in run order: each ran on the GPU machine beside
# the bundle (scripts/gpu-bundle.sh) of its commit, with $OUT the folder that came back.

#!/usr/bin/env bash
# Run 156 (commit in bundle/COMMIT), on whatever card a plain call gets: after the workspace split,
# the choice module, typed errors, K = 0 and the Gpu on any device and stream, with rungs 14 and 15
# cut into producer, consumer and epilogue parts (74 entries' PTX changed by 1-14 instructions).
# 1. every test of the bundle, the GPU tests included (graph capture and the 8-thread soak too);
# 2. all four sanitizers on rung 14's and 15's featured kernels and rung 14's stream-K twin;
# 3. the changed kernels timed in turn against the best cuBLAS at 4096³ and 8192³ (20-30 launches).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run156; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
S=$SECONDS; OUT=$D/tests RGEMM_TEST_JOBS=8 timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; OUT=$D/sanitize timeout 150 bash bundle/run.sh sanitize '^(bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast|bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast|sgemm_15_tf32x3_128x128x32_s4_raw)$' > $D/sanitize.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in bf16 f16 f32; do
  case $t in
    bf16) args="--dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --iters 30" ;;
    f16) args="--dtype f16 --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --iters 30" ;;
    f32) args="--kernel sgemm_15_tf32x3_128x128x32_s4_raw --kernel sgemm_15_tf32x3_128x128x32_s4_presplit --iters 20" ;;
  esac
  S=$SECONDS
  timeout 60 bundle/rgemm bench $args --sizes 4096,8192 --out /tmp/$t > $D/$t.log 2>&1; echo "$t rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/$t/results.json $D/$t.json 2>/dev/null
done
cp bundle-diag/run156.sh $D/script.sh
cat $D/rc.txt; grep -h "tests:\|compute-sanitizer\|clean\|FAILED" $D/tests/summary.txt $D/sanitize/summary.txt 2>/dev/null | head -20
python3 - $D <<'PY'
import json,glob,sys,statistics as st
for f in sorted(glob.glob(sys.argv[1]+'/*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']
        for run in s['runs']:
            t=run.get('timing')
            if not t: continue
            pr=st.median([c/k for c,k in zip(cb['rounds_ms'],t['rounds_ms'])])
            print(r['dtype'], run['kernel'], s['m'], 'ratio of medians', round(100*cb['median_ms']/t['median_ms'],1), 'per round', round(100*pr,1), run['outcome'])
PY
cd $OUT && tar czf run156.tgz run156 && rm -rf run156
