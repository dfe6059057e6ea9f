#!/usr/bin/env bash
# Run 182 (the working tree after f03d066: the tuner times its candidates in turn, nine rounds,
# L2 flushed before each launch): the tuned choice's GPU test, and `rgemm run
# --tune-cache` on run 178's prefill shape and on run 179's worst case, each twice.
set -u
rm -rf quick; xz -dc quick.txz | tar xf -
D=$OUT/run182; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
S=$SECONDS; timeout 120 quick/library --include-ignored --exact a_tuned_choice_times_once_and_then_reads_its_cache an_untuned_problem_plans_as_the_automatic_choice > $D/test-library.log 2>&1; echo "test tuned rc $? $((SECONDS-S)) s" >> $D/rc.txt
for shape in "--m 384 --n 4096 --k 14336 --layout nt" "--m 178 --n 80 --k 864 --layout tn" "--m 9 --n 10240 --k 8192 --layout nt"; do
  for i in 1 2; do
    S=$SECONDS; timeout 60 quick/rgemm run --kernel best-bf16 $shape --tune-cache $D/h200.tune > /tmp/r.log 2>&1; echo "run $shape #$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
    cat /tmp/r.log >> $D/run-tuned.log
  done
  S=$SECONDS; timeout 60 quick/rgemm run --kernel best-bf16 $shape > /tmp/r.log 2>&1; echo "run $shape untuned rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cat /tmp/r.log >> $D/run-untuned.log
done
cp bundle-diag/run182.sh $D/script.sh
cat $D/rc.txt; grep "test result" $D/test-library.log; grep -h "^best\|why\|^ratio\|^check" $D/run-tuned.log $D/run-untuned.log | cut -c1-200
cd $OUT && tar czf run182.tgz run182 && rm -rf run182
