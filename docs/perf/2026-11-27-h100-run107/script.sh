#!/usr/bin/env bash
# Run 107: the splitter warpgroup with the consumers' thread 0 asking for the copies (now), and a
# diagnostic build whose splitter skips the split (nosplit: wrong results, the consumers' bound),
# four processes each at 4096³ nn and tn, timed in turn with cuBLAS, `_raw`, `_presplit_tn`.
set -u
cd bundle-ab && for b in now nosplit; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-wip}
D=$OUT/run107; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4
bundle-ab/rgemm-now check --kernel ${F}_splitter --m 300 --n 264 --k 257 --batch 2 > $D/checks.log 2>&1
bundle-ab/rgemm-now check --kernel ${F}_splitter_tn --layout tn --m 300 --n 264 --k 257 --batch 2 >> $D/checks.log 2>&1
cat $D/checks.log
for i in 1 2 3 4; do
  for b in now nosplit; do
    timeout 45 bundle-ab/rgemm-$b bench --kernel ${F}_raw --kernel ${F}_splitter --kernel ${F}_presplit_tn --kernel ${F}_splitter_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r107/$b-p$i > $D/$b-p$i.log 2>&1
    echo "$b p$i rc=$?" >> $D/rc.txt; cp /tmp/r107/$b-p$i/results.json $D/$b-p$i.json
  done
done
cat $D/rc.txt
for f in $D/*-p*.log; do echo "$(basename $f) $(grep -E "s4_(raw|presplit|splitter|raw_tn|presplit_tn|splitter_tn)  " $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run107.sh $D/script.sh
cd $OUT && tar czf run107.tgz run107 && rm -rf run107
