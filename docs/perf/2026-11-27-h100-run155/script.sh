#!/usr/bin/env bash
# Run 155 (commit in bundle/COMMIT): run 150 again with rung 11's entry in `best` (`_wa_df`):
# five processes, each bf16 and f16 rung 14 (30 launches) and f32 rung 15 `_presplit` with rung
# 11 `_wa_df` (20 launches), timed in turn against the best cuBLAS of the type at 4096³ and 8192³.
# The archive is rewritten after every process, so what ran comes back if the run is cut short.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run155; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
cp bundle-diag/run155.sh $D/script.sh
for p in 1 2 3 4 5; do
  [ $SECONDS -gt 320 ] && break
  for t in bf16 f16 f32; do
    case $t in
      bf16) args="--dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --iters 30" ;;
      f16) args="--dtype f16 --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --iters 30" ;;
      f32) args="--kernel sgemm_15_tf32x3_128x128x32_s4_presplit --kernel sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa_df --iters 20" ;;
    esac
    S=$SECONDS
    timeout 80 bundle/rgemm bench $args --sizes 4096,8192 --out /tmp/$t-p$p > /dev/null 2>&1; echo "$t p$p rc $? $((SECONDS-S)) s" >> $D/rc.txt
    cp /tmp/$t-p$p/results.json $D/$t-p$p.json 2>/dev/null
  done
  (cd $OUT && tar czf run155.tgz run155)
done
cat $D/rc.txt
python3 - $D <<'PY'
import json,glob,sys,collections,statistics as st
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/*-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']
        for run in s['runs']:
            t=run.get('timing')
            if not t: continue
            pr=st.median([c/k for c,k in zip(cb['rounds_ms'],t['rounds_ms'])])
            d[(r['dtype'],run['kernel'][-12:],s['m'])].append((round(100*cb['median_ms']/t['median_ms'],1), round(100*pr,1), run['outcome']))
for k in sorted(d): print(k, 'per round median', st.median(x[1] for x in d[k]), d[k])
PY
rm -rf $D
