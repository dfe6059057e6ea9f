#!/usr/bin/env bash
# Run 101. As run 99, the split of A now moving 16-byte vectors and taking A of any leading
# dimension (rung 15 with A split ahead): (1) checks on odd shapes, leading dimensions and batches;
# (2) nn and tn at 4096³ and 8192³ against `_raw` and `_raw_tn`, three
# processes, timed in turn with cuBLAS; (3) every GPU test; (4) compute-sanitizer on the new kernels.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run101; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4
R=bundle/rgemm
{
$R check --kernel ${F}_presplit --m 1000 --n 1000 --k 1000
$R check --kernel ${F}_presplit --m 300 --n 264 --k 256 --lda 260 --batch 3
$R check --kernel ${F}_presplit_tn --layout tn --m 4096 --n 4096 --k 4096
$R check --kernel ${F}_presplit_tn --layout tn --m 301 --n 264 --k 257 --lda 303 --batch 3
$R check --kernel ${F}_presplit --m 150 --n 132 --k 97 --lda 101 --batch 2
$R check --kernel ${F}_presplit_tn --layout tn --m 300 --n 264 --k 256 --lda 304 --batch 2
$R check --kernel ${F}_presplit --m 2100000 --n 8 --k 36
} > $D/checks.log 2>&1
echo "checks rc=$?" >> $D/times.txt
grep -E "PASS|FAIL|rror" $D/checks.log | cut -c1-200
for i in 1 2 3; do
  timeout 150 $R bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_raw_tn --kernel ${F}_presplit_tn --sizes 4096,4096:tn,8192,8192:tn --iters 10 --out /tmp/r99/p$i > $D/p$i.log 2>&1
  echo "p$i rc=$?" >> $D/times.txt
  cp /tmp/r99/p$i/results.json $D/p$i.json
done
grep -h "s4_raw \|s4_presplit \|_tn " $D/p*.log | grep -v "^ *[0-9.]* s" | awk '{print $1, $2, $5}'
timeout 60 ncu --kernel-name regex:'split_tf32' --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum $R check --kernel ${F}_presplit_tn --layout tn --m 4096 --n 4096 --k 4096 > $D/ncu.log 2>&1
timeout 60 ncu --kernel-name regex:'split_tf32' --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed $R check --kernel ${F}_presplit --m 4096 --n 4096 --k 4096 >> $D/ncu.log 2>&1
grep -E "split_tf32|duration|throughput" $D/ncu.log
OUT=$D/tests timeout 280 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/times.txt
OUT=$D/san timeout 120 bash bundle/run.sh sanitize 'presplit' > $D/sanitize.log 2>&1
echo "sanitize rc=$?" >> $D/times.txt
cat $D/times.txt; grep "==" $D/tests.log | tail -4; grep "==" $D/sanitize.log | cut -c1-120
cp bundle-diag/run101.sh $D/script.sh
cd $OUT && tar czf run101.tgz run101 && rm -rf run101
