#!/usr/bin/env bash
# Run 138 (112845b + the `_presplit_nt` entry): compute-sanitizer and checks of `_presplit_nt`;
# then the f32 dispatch table measured again (`rgemm tune --suite real --dtype f32`, the
# repository's table as the start) and the f32 suite with it.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run138; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
k=sgemm_15_tf32x3_128x128x32_s4_presplit_nt
jobs=()
for tool in memcheck racecheck synccheck initcheck; do
  for s in "160 192 300 2" "136 104 300 1" "67 48 36 3"; do jobs+=("$tool $s"); done
done
printf '%s\n' "${jobs[@]}" | timeout 200 xargs -P 4 -L 1 bash -c 'tool=$0; log='$D'/$tool-$1.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel '$k' --layout nt --m $1 --n $2 --k $3 --batch $4 > $log 2>&1; echo "$tool nt $1x$2x$3 batch $4 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
for args in "--m 4096 --n 4096 --k 4096" "--m 1 --n 8 --k 4" "--m 129 --n 260 --k 68" "--m 333 --n 4100 --k 1020 --lda 1023 --ldb 1024 --ldc 4103" "--m 200 --n 136 --k 516 --batch 3" "--m 2048 --n 28672 --k 4096"; do
  timeout 60 bundle/rgemm check --kernel $k --layout nt $args >> $D/checks.txt 2>&1; echo "check $args rc=$?" >> $D/checks.txt
done
cp dispatch/h100.tsv $D/dispatch.tsv
timeout 240 bundle/rgemm tune --suite real --dtype f32 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-f32.json > $D/tune-f32.log 2>&1
echo "tune rc=$?" >> $D/rc.txt
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 150 bundle/rgemm bench --suite real --dtype f32 --iters 10 --out $D/suite-f32 > $D/suite-f32.log 2>&1
echo "suite rc=$?" >> $D/rc.txt
rm -f $D/suite-f32/chart.png
cp bundle-diag/run138.sh $D/script.sh
cut -c1-150 $D/sanitize.txt; grep -c "rc=0" $D/sanitize.txt; grep -E "^check|PASS|FAIL|error" $D/checks.txt | cut -c1-150; cat $D/rc.txt; diff dispatch/h100.tsv $D/dispatch.tsv | grep "^[<>] f32"; tail -4 $D/suite-f32.log
cd $OUT && tar czf run138.tgz run138 && rm -rf run138
