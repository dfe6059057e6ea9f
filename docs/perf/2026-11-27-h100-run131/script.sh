#!/usr/bin/env bash
# Run 131 (commit in bundle/COMMIT): compute-sanitizer on every rung-15 entry after one load per
# tile: memcheck, racecheck, synccheck and initcheck with M and N whole panels of 32 (the
# four-dimensional loads) in a batch of two; memcheck and racecheck of the split-ahead entries
# with sizes that are not whole panels (their two planes in one load).
set -u
[ -d bundle ] || tar xzf bundle-diag/bundle-min.tgz
D=$OUT/run131; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
jobs=()
for k in $(bundle/rgemm list --names | grep '^sgemm_15_'); do
  l=nn; [[ $k =~ _(nt|tn|tt)$ ]] && l=${BASH_REMATCH[1]}
  for tool in memcheck racecheck synccheck initcheck; do jobs+=("$tool $k $l 160 192 96"); done
  if [[ $k == *presplit* ]]; then for tool in memcheck racecheck; do jobs+=("$tool $k $l 136 100 84"); done; fi
done
printf '%s\n' "${jobs[@]}" | xargs -P 4 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$k-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/summary.txt
cp bundle-diag/run131.sh $D/script.sh
cat $D/summary.txt; grep -c "rc=0" $D/summary.txt; wc -l < $D/summary.txt
cd $OUT && tar czf run131.tgz run131 && rm -rf run131
