#!/usr/bin/env bash
# Run 157 (commit in bundle/COMMIT): narrow outputs and fused epilogues (#43), the evaluation
# suite (#45). 0. the epilogue, library and launch tests (GPU tests included);
# 1. compute-sanitizer on the fused paths: the GEMV's epilogue, split-K's sum applying one
#    (rung 14's product into the workspace, with an auxiliary output), the general kernel's;
# 2. `rgemm run` of each epilogue, checked against f64 and timed in turn against cuBLAS with the
#    same output type and epilogue: 4096³ and 8192³ with bf16 out, 4096×11008×4096 nt and
#    16×11008×4096 nt with each epilogue, output-bound batched products (K 96 and 128); the MLP;
# 3. the evaluation suite, bf16 and f32, against the best cuBLAS.
# Two calls (each under the device's ten minutes): `run157.sh tests` (0–2), `run157.sh eval` (3).
set -u
part=${1:-tests}
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/run157-$part; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle/rgemm
if [ $part = tests ]; then
# The fused epilogue's tests and the library's, GPU tests included.
for t in epilogue library launches; do
  S=$SECONDS; timeout 240 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
S=$SECONDS
while read -r tool args; do
  if timeout 90 $SAN --tool $tool --error-exitcode 9 $R run $args --iters 1 > $D/san.tmp 2>&1; then r=clean; else r="FAILED rc $?"; cp $D/san.tmp $D/san-$tool-$SECONDS.log; fi
  echo "$tool $args: $r" >> $D/sanitize.txt
done <<'LIST'
memcheck --kernel best-bf16 --m 8 --n 4096 --k 1024 --layout nt --out-dtype bf16 --epilogue bias-gelu
memcheck --kernel best-bf16 --m 300 --n 520 --k 256 --layout nt --out-dtype bf16 --epilogue bias-gelu-erf-aux
memcheck --kernel bgemm_00_general_16x16x16_tn --m 33 --n 45 --k 70 --layout tn --out-dtype f16 --epilogue row-bias-silu
racecheck --kernel best-bf16 --m 8 --n 4096 --k 1024 --layout nt --out-dtype f16 --epilogue bias-silu
racecheck --kernel best-bf16 --m 300 --n 520 --k 256 --layout nt --out-dtype bf16 --epilogue bias-relu-aux
synccheck --kernel best-bf16 --m 300 --n 520 --k 256 --layout nt --out-dtype bf16 --epilogue bias-gelu
initcheck --kernel best-bf16 --m 300 --n 520 --k 256 --layout nt --out-dtype bf16 --epilogue bias-gelu-aux
LIST
echo "sanitize $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
{
  for l in nn nt; do for s in 4096 8192; do echo "--m $s --n $s --k $s --layout $l --out-dtype bf16"; done; done
  for e in none bias bias-relu bias-gelu bias-gelu-erf bias-silu; do
    echo "--m 4096 --n 11008 --k 4096 --layout nt --out-dtype bf16 --epilogue $e"
    echo "--m 16 --n 11008 --k 4096 --layout nt --out-dtype bf16 --epilogue $e"
  done
  echo "--m 4096 --n 11008 --k 4096 --layout nt"
  echo "--m 16 --n 11008 --k 4096 --layout nt"
  echo "--m 512 --n 512 --k 128 --batch 64 --layout nt --out-dtype bf16"
  echo "--m 1024 --n 1024 --k 96 --batch 32 --layout nt --out-dtype bf16"
  echo "--m 512 --n 512 --k 128 --batch 64 --layout nt"
} > $D/fused-cases.txt
while read -r args; do
  echo "== $args" >> $D/fused.log
  timeout 45 $R run --kernel best-bf16 $args --iters 30 >> $D/fused.log 2>&1; echo "rc $?" >> $D/fused.log
done < $D/fused-cases.txt
echo "fused $((SECONDS-S)) s" >> $D/rc.txt
timeout 60 bundle/mlp 64 4096 11008 > $D/mlp.log 2>&1; echo "mlp rc $?" >> $D/rc.txt
fi
if [ $part = eval ]; then
S=$SECONDS
for t in bf16 f32; do
  timeout 170 $R bench --suite eval --dtype $t --iters 10 --out /tmp/eval-$t > $D/eval-$t.log 2>&1; echo "eval $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/eval-$t/results.json $D/eval-$t.json 2>/dev/null
done
fi
cp bundle-diag/run157.sh $D/script.sh
cat $D/rc.txt
if [ $part = tests ]; then
  grep -h "test result\|FAILED\|panicked" $D/test-*.log | head -20
  grep -c clean $D/sanitize.txt; grep -v clean $D/sanitize.txt | head
  grep -E "^==|^ratio|^check|^kernel|^cuBLAS|^best|^rc [^0]" $D/fused.log | cut -c1-150 | head -150
  tail -3 $D/mlp.log
else
  grep -A14 "per class" $D/eval-bf16.log | head -16; grep -A14 "per class" $D/eval-f32.log | head -16; tail -5 $D/eval-bf16.log
fi
cd $OUT && tar czf run157-$part.tgz run157-$part && rm -rf run157-$part
