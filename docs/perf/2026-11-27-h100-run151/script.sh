#!/usr/bin/env bash
# Run 151 (commit in bundle/COMMIT): the same kernels as run 150, each timed alone after two
# seconds of its own launches (`--sustain 2000`), three processes, the three types in turn within
# each: what a long run of one GEMM alone meets under the power limit, with the fewer-blocks launch.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run151; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
for p in 1 2 3; do
  for t in bf16 f16 f32; do
    [ $SECONDS -gt 500 ] && break 2
    case $t in
      bf16) args="--dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast" ;;
      f16) args="--dtype f16 --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast" ;;
      f32) args="--kernel sgemm_15_tf32x3_128x128x32_s4_presplit --kernel sgemm_15_tf32x3_128x128x32_s4_raw" ;;
    esac
    S=$SECONDS
    timeout 90 bundle/rgemm bench $args --sizes 4096,8192 --iters 20 --sustain 2000 --out /tmp/$t-p$p > $D/$t-sustained-p$p.log 2>&1; echo "$t p$p rc $? $((SECONDS-S)) s" >> $D/rc.txt
    cp /tmp/$t-p$p/results.json $D/$t-sustained-p$p.json 2>/dev/null
  done
done
cp bundle-diag/run151.sh $D/script.sh
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
            d[(r['dtype'],run['kernel'][-28:],s['m'])].append((round(100*cb['median_ms']/t['median_ms'],1), round(t['tflops'],1), round(cb['tflops'],1), run['outcome']))
for k in sorted(d): print(k, 'median', st.median(x[0] for x in d[k]), d[k])
PY
cd $OUT && tar czf run151.tgz run151 && rm -rf run151
