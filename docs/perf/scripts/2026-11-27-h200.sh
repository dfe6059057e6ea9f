# The scripts of the runs of 2026-11-27-h200.md, in run order: each ran on the GPU machine beside
# the bundle (scripts/gpu-bundle.sh) of its commit, with $OUT the folder that came back.

# ==============================================================================================
# Run 152 (2026-11-27-h200-run152/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 152 (commit in bundle/COMMIT): run 150 on whatever card a plain call gets (an H200 when one comes), three processes:
# cuBLAS figures, timed in turn (round by round kept): bf16 and f16 rung 14 (TMA-store persistent
# kernel) at 4096³ and 8192³, 30 launches; f32 rung 15 (3×TF32, `_presplit` and `_raw`) and rung 11
# against the best cuBLAS SGEMM at 4096³ and 8192³, 20 launches. Types in turn within a process.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run152; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
for p in 1 2 3; do
  for t in bf16 f16 f32; do
    [ $SECONDS -gt 540 ] && break 2
    case $t in
      bf16) args="--dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --iters 30" ;;
      f16) args="--dtype f16 --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --iters 30" ;;
      f32) args="--kernel sgemm_15_tf32x3_128x128x32_s4_presplit --kernel sgemm_15_tf32x3_128x128x32_s4_raw --kernel sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa --iters 20" ;;
    esac
    S=$SECONDS
    timeout 90 bundle/rgemm bench $args --sizes 4096,8192 --out /tmp/$t-p$p > $D/$t-p$p.log 2>&1; echo "$t p$p rc $? $((SECONDS-S)) s" >> $D/rc.txt
    cp /tmp/$t-p$p/results.json $D/$t-p$p.json 2>/dev/null
  done
done
cp bundle-diag/run152.sh $D/script.sh
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
            d[(r['dtype'],run['kernel'][-28:],s['m'])].append((round(100*cb['median_ms']/t['median_ms'],1), round(100*pr,1), run['outcome']))
for k in sorted(d): print(k, 'per round median', st.median(x[1] for x in d[k]), d[k])
PY
cd $OUT && tar czf run152.tgz run152 && rm -rf run152
