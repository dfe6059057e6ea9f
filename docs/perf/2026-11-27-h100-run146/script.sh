#!/usr/bin/env bash
# Run 146 (bundle/COMMIT: c8cedbb plus the experiment switch of run 145): the bf16 suite
# (`rgemm bench --suite real`, automatic plans, built-in table) with persistent launches on one
# block per SM and on as few blocks as keep the rounds, four processes alternating.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run146; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
for i in 1 2 3 4; do
  S=$SECONDS
  if (( i % 2 )); then v=sms; unset RGEMM_EXPERIMENT_BALANCED; else v=balanced; export RGEMM_EXPERIMENT_BALANCED=1; fi
  timeout 130 bundle/rgemm bench --suite real --dtype bf16 --iters 10 --out /tmp/s$i > $D/$v-p$i.log 2>&1; echo "$v p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/s$i/results.json $D/$v-p$i.json 2>/dev/null
done
unset RGEMM_EXPERIMENT_BALANCED
cp bundle-diag/run146.sh $D/script.sh
cat $D/rc.txt
python3 - $D <<'PY'
import json,glob,sys,collections,math
d=collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1]+'/*-p*.json')):
    v,p=f.split('/')[-1][:-5].split('-')
    r=json.load(open(f))
    for s in r['sizes']:
        if not s.get('cublas'): continue
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[s.get('name') or '%sx%sx%s:%s b%s'%(s['m'],s['n'],s['k'],s.get('layout'),s.get('batch'))][(v,p)]=round(100*cb/run['timing']['median_ms'],1)
cols=sorted({c for x in d.values() for c in x})
print('case'.ljust(28),' '.join(f'{a[:3]}{b}'.rjust(7) for a,b in cols))
g=collections.defaultdict(list)
for k in d:
    print(k[:28].ljust(28),' '.join(str(d[k].get(c,'-')).rjust(7) for c in cols))
    for c in cols:
        if c in d[k]: g[c].append(math.log(d[k][c]))
print('geomean'.ljust(28),' '.join(str(round(math.exp(sum(g[c])/len(g[c])),1)).rjust(7) for c in cols))
PY
cd $OUT && tar czf run146.tgz run146 && rm -rf run146
