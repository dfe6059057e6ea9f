# The scripts of the runs of 2026-11-27-h100.md, in run order: each ran on the GPU machine beside
# the bundle (scripts/gpu-bundle.sh) of its commit, with $OUT the folder that came back.

# ==============================================================================================
# Run 98 (2026-11-27-h100-run98/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 98. (1) How fast rung 15's loop runs when S's low part comes from global memory through the
# copy engine (no split in shared memory, no split barrier): `_presplit` loads "lo" from A itself
# (wrong values, the speed bound only) against `_raw`, nn, 4096³ and 8192³, three processes.
# (2) compute-sanitizer memcheck and racecheck of the final barriers: rung 14's persistent TMA-store
# and stream-K kernels and rung 15's raw kernels in every layout.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run98; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4
for i in 1 2 3; do
  RGEMM_COMMIT=presplit-probe timeout 120 bundle/rgemm bench --kernel ${F}_raw --kernel ${F}_presplit --sizes 4096,8192 --iters 10 --out /tmp/r98/p$i > $D/p$i.log 2>&1
  echo "p$i rc=$?" >> $D/times.txt
  cp /tmp/r98/p$i/results.json $D/p$i.json
done
grep -h "presplit\|_raw " $D/p*.log | grep -v "^ *[0-9.]* s" | head -12
OUT=$D/san timeout 400 bash bundle/run.sh sanitize 'wgmma_tma_128x256x64_s4_(persistent|streamk)_tmast(_nt|_tn|_tt)?$|tf32x3_128x128x32_s4_raw(_nt|_tn|_tt)?$' > $D/sanitize.log 2>&1
echo "sanitize rc=$?" >> $D/times.txt
cat $D/times.txt; tail -5 $D/sanitize.log
cp bundle-diag/run98.sh $D/script.sh
cd $OUT && tar czf run98.tgz run98 && rm -rf run98

# ==============================================================================================
# Run 99 (2026-11-27-h100-run99/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 99. Rung 15 with A split ahead (`_presplit`, `_presplit_tn`: the host splits A, transposing
# it for tn, into a workspace; the K-loop loads both parts): (1) checks on odd shapes, leading
# dimensions and batches; (2) nn and tn at 4096³ and 8192³ against `_raw` and `_raw_tn`, three
# processes, timed in turn with cuBLAS; (3) every GPU test; (4) compute-sanitizer on the new kernels.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run99; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4
R=bundle/rgemm
{
$R check --kernel ${F}_presplit --m 1000 --n 1000 --k 1000
$R check --kernel ${F}_presplit --m 300 --n 264 --k 256 --lda 260 --batch 3
$R check --kernel ${F}_presplit_tn --layout tn --m 4096 --n 4096 --k 4096
$R check --kernel ${F}_presplit_tn --layout tn --m 301 --n 264 --k 257 --batch 3
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
OUT=$D/tests timeout 280 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/times.txt
OUT=$D/san timeout 120 bash bundle/run.sh sanitize 'presplit' > $D/sanitize.log 2>&1
echo "sanitize rc=$?" >> $D/times.txt
cat $D/times.txt; grep "==" $D/tests.log | tail -4; grep "==" $D/sanitize.log | cut -c1-120
cp bundle-diag/run99.sh $D/script.sh
cd $OUT && tar czf run99.tgz run99 && rm -rf run99

# ==============================================================================================
# Run 100 (2026-11-27-h100-run100/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 100. The split ahead of `_presplit_tn` at 4096³: (1) Nsight Compute of the split and the
# product (duration, DRAM throughput), with 1 and 8 row tiles per block of the split
# (RGEMM_SPLIT_PER, a knob of this experimental binary only); (2) `_presplit_tn` against `_raw`
# (nn) with 1, 4, 16 row tiles per block, two processes each, timed in turn with cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-knob.gz && chmod +x rgemm-knob && cd ..
R=bundle-ab/rgemm-knob
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run100; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4
for per in 1 8; do
  RGEMM_SPLIT_PER=$per timeout 120 ncu --kernel-name regex:'split_tf32|presplit' --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed $R check --kernel ${F}_presplit_tn --layout tn --m 4096 --n 4096 --k 4096 > $D/ncu-per$per.log 2>&1
  echo "ncu per=$per rc=$?" >> $D/times.txt
done
grep -E "split_tf32|presplit|duration|throughput|bytes" $D/ncu-per*.log | grep -v "==PROF==" | head -40
for i in 1 2; do
  for per in 1 4 16; do
    RGEMM_SPLIT_PER=$per timeout 60 $R bench --kernel ${F}_raw --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r100/p$i-$per > $D/p$i-per$per.log 2>&1
    echo "p$i per=$per rc=$?" >> $D/times.txt
    cp /tmp/r100/p$i-$per/results.json $D/p$i-per$per.json
    echo "p$i per=$per $(grep -h "s4_raw \|_presplit_tn " $D/p$i-per$per.log | grep -v '^ *[0-9.]* s' | awk '{printf "%s %s %s | ", substr($1,30), $3, $5}')"
  done
done
cat $D/times.txt
cp bundle-diag/run100.sh $D/script.sh
cd $OUT && tar czf run100.tgz run100 && rm -rf run100

# ==============================================================================================
# Run 101 (2026-11-27-h100-run101/script.sh)
# ==============================================================================================
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

# ==============================================================================================
# Run 102 (2026-11-27-h100-run102/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 102 (commit in bundle/COMMIT): every GPU test, then the fastest kernels of each type in all
# four layouts at 4096³ and 8192³ (library.sh layouts; f32 now with rung 15's split-ahead kernels).
set -u
tar xzf bundle.tgz
D=$OUT/run102; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
OUT=$D/l timeout 250 bash bundle/library.sh layouts > $D/layouts-run.log 2>&1; echo "layouts rc $?" >> $D/rc.txt
cp $D/l/layouts-f32/results.json $D/layouts-f32.json 2>/dev/null; cp $D/l/layouts-bf16/results.json $D/layouts-bf16.json 2>/dev/null
cat $D/rc.txt; grep "==" $D/tests.log | tail -3; grep -E "%" $D/layouts-run.log | grep -v "^ *[0-9.]* s" | head -60
cp bundle-diag/run102.sh $D/script.sh
cd $OUT && tar czf run102.tgz run102 && rm -rf run102

# ==============================================================================================
# Run 103 (2026-11-27-h100-run103/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 103 (commit f694eb7): rung 15's raw and split-ahead kernels, nn and tn, 4096³ and 8192³, five
# processes timed in turn with cuBLAS (base); alternating with each, a binary whose split of A
# walks the row tiles last to first (rev: the rows the product's first tiles read would still be
# in L2), 4096³ only.
set -u
cd bundle-ab && for b in base rev; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=f694eb7
D=$OUT/run103; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4
for i in 1 2 3 4 5; do
  timeout 80 bundle-ab/rgemm-base bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_raw_tn --kernel ${F}_presplit_tn --sizes 4096,4096:tn,8192,8192:tn --iters 10 --out /tmp/r103/f32-p$i > $D/f32-p$i.log 2>&1
  echo "base p$i rc=$?" >> $D/rc.txt; cp /tmp/r103/f32-p$i/results.json $D/f32-p$i.json
  timeout 40 bundle-ab/rgemm-rev bench --kernel ${F}_raw --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r103/rev-p$i > $D/rev-p$i.log 2>&1
  echo "rev p$i rc=$?" >> $D/rc.txt; cp /tmp/r103/rev-p$i/results.json $D/rev-p$i.json
done
cat $D/rc.txt
for f in $D/f32-p*.log $D/rev-p*.log; do echo "$(basename $f) $(grep -E "s4_(raw|presplit|raw_tn|presplit_tn)  " $f | grep -v skipped | awk '{printf "%s %s %s | ", substr($1,30), $3, $5}')"; done
cp bundle-diag/run103.sh $D/script.sh
cd $OUT && tar czf run103.tgz run103 && rm -rf run103

# ==============================================================================================
# Run 104 (2026-11-27-h100-run104/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 104 (commit f694eb7): rung 15 tn, raw against A split ahead, on shapes other than 4096³ (thin
# N, thin M, mid sizes): where the split's extra pass over A pays and where it does not. Two
# processes, timed in turn with cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-base.gz && chmod +x rgemm-base && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=f694eb7
D=$OUT/run104; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4
for i in 1 2; do
  timeout 100 bundle-ab/rgemm-base bench --kernel ${F}_raw_tn --kernel ${F}_presplit_tn --sizes 4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn,2048x4096x4096:tn,1024x1024x1024:tn,2048x2048x2048:tn --iters 10 --out /tmp/r104/p$i > $D/p$i.log 2>&1
  echo "p$i rc=$?" >> $D/rc.txt; cp /tmp/r104/p$i/results.json $D/p$i.json
done
cat $D/rc.txt
grep -E "^[0-9]+x|_tn  " $D/p*.log | grep -v skipped | awk '{print $1, $3, $5}'
cp bundle-diag/run104.sh $D/script.sh

# ==============================================================================================
# Run 105 (2026-11-27-h100-run105/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 105: after the split's launch shape moved to one helper, the split-ahead kernels checked
# again on the GPU (batched, broadcast-free and padded A, both layouts) and under memcheck.
set -u
cd bundle-ab && gunzip -kf rgemm-now.gz && chmod +x rgemm-now && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle-ab/rgemm-now; F=sgemm_15_tf32x3_128x128x32_s4
$R check --kernel ${F}_presplit_tn --layout tn --m 301 --n 264 --k 257 --lda 303 --batch 3
$R check --kernel ${F}_presplit --m 150 --n 132 --k 97 --lda 101 --batch 2
$R check --kernel ${F}_presplit_tn --layout tn --m 4096 --n 4096 --k 4096
compute-sanitizer --tool memcheck --error-exitcode 3 $R check --kernel ${F}_presplit_tn --layout tn --m 301 --n 264 --k 257 --lda 303 --batch 3 | tail -2
compute-sanitizer --tool memcheck --error-exitcode 3 $R check --kernel ${F}_presplit --m 150 --n 132 --k 97 --lda 101 --batch 2 | tail -2
echo "rc=$?"

# ==============================================================================================
# Run 106 (2026-11-27-h100-run106/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 106: rung 15 with a splitter warpgroup (`_splitter`, `_splitter_tn`): checks against the f64
# reference (ragged, padded, batched, 4096³), compute-sanitizer (memcheck, racecheck, synccheck),
# then four processes timed in turn at 4096³ nn and tn against `_raw`, `_presplit`, `_raw_tn`,
# `_presplit_tn` and cuBLAS, and two at 8192³.
set -u
cd bundle-ab && gunzip -kf rgemm-now.gz && chmod +x rgemm-now && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-wip}
D=$OUT/run106; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
R=bundle-ab/rgemm-now; F=sgemm_15_tf32x3_128x128x32_s4
{
$R check --kernel ${F}_splitter --m 301 --n 264 --k 257 --lda 303 --batch 3
$R check --kernel ${F}_splitter --m 1 --n 4 --k 4
$R check --kernel ${F}_splitter_tn --layout tn --m 300 --n 264 --k 257 --lda 304 --batch 3
$R check --kernel ${F}_splitter_tn --layout tn --m 4 --n 4 --k 1
$R check --kernel ${F}_splitter --m 4096 --n 4096 --k 4096
$R check --kernel ${F}_splitter_tn --layout tn --m 4096 --n 4096 --k 4096
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 3 $R check --kernel ${F}_splitter --m 301 --n 264 --k 257 --batch 2 | tail -2; echo "$tool nn rc=$?"
  compute-sanitizer --tool $tool --error-exitcode 3 $R check --kernel ${F}_splitter_tn --layout tn --m 300 --n 264 --k 257 --batch 2 | tail -2; echo "$tool tn rc=$?"
done
} > $D/checks.log 2>&1
grep -E "PASS|FAIL|rc=|rror" $D/checks.log | head -40
for i in 1 2 3 4; do
  timeout 60 $R bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_splitter --kernel ${F}_raw_tn --kernel ${F}_presplit_tn --kernel ${F}_splitter_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r106/f32-p$i > $D/f32-p$i.log 2>&1
  echo "p$i rc=$?" >> $D/rc.txt; cp /tmp/r106/f32-p$i/results.json $D/f32-p$i.json
done
for i in 1 2; do
  timeout 80 $R bench --kernel ${F}_raw --kernel ${F}_splitter --kernel ${F}_presplit_tn --kernel ${F}_splitter_tn --sizes 8192,8192:tn --iters 10 --out /tmp/r106/big-p$i > $D/big-p$i.log 2>&1
  echo "big p$i rc=$?" >> $D/rc.txt; cp /tmp/r106/big-p$i/results.json $D/big-p$i.json
done
cat $D/rc.txt
for f in $D/f32-p*.log $D/big-p*.log; do echo "$(basename $f) $(grep -E "s4_(raw|presplit|splitter|raw_tn|presplit_tn|splitter_tn)  " $f | grep -v skipped | awk '{printf "%s %s %s | ", substr($1,30), $3, $5}')"; done
cp bundle-diag/run106.sh $D/script.sh
cd $OUT && tar czf run106.tgz run106 && rm -rf run106

# ==============================================================================================
# Run 107 (2026-11-27-h100-run107/script.sh)
# ==============================================================================================
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

# ==============================================================================================
# Run 108 (2026-11-27-h100-run108/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 108: the splitter warpgroup with the copies landing a K-tile earlier (refill of kt-1+STAGES after kt's group; now), and a
# diagnostic build without the splitter's proxy fence (nofence: what the fence costs),
# four processes each at 4096³ nn and tn, timed in turn with cuBLAS, `_raw`, `_presplit_tn`.
set -u
cd bundle-ab && for b in now nofence; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-wip}
D=$OUT/run108; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4
bundle-ab/rgemm-now check --kernel ${F}_splitter --m 300 --n 264 --k 257 --batch 2 > $D/checks.log 2>&1
bundle-ab/rgemm-now check --kernel ${F}_splitter_tn --layout tn --m 300 --n 264 --k 257 --batch 2 >> $D/checks.log 2>&1
cat $D/checks.log
for i in 1 2 3 4; do
  for b in now nofence; do
    timeout 50 bundle-ab/rgemm-$b bench --kernel ${F}_raw --kernel ${F}_splitter --kernel ${F}_presplit_tn --kernel ${F}_splitter_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r107/$b-p$i > $D/$b-p$i.log 2>&1
    echo "$b p$i rc=$?" >> $D/rc.txt; cp /tmp/r107/$b-p$i/results.json $D/$b-p$i.json
  done
done
cat $D/rc.txt
for f in $D/*-p*.log; do echo "$(basename $f) $(grep -E "s4_(raw|presplit|splitter|raw_tn|presplit_tn|splitter_tn)  " $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run108.sh $D/script.sh
cd $OUT && tar czf run108.tgz run108 && rm -rf run108

# ==============================================================================================
# Run 109 (2026-11-27-h100-run109/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 109: the split ahead and the product in chunks of rows of M (RGEMM_SPLIT_CHUNK rows: split
# the chunk's rows of A into the start of the workspace, multiply them, next chunk; 0 = whole A
# at once, as on main), so that the chunk's split is still in L2 when its product reads it.
# Three rounds of processes, the chunk sizes in turn, 4096³ nn and tn, timed in turn with cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-chunk.gz && chmod +x rgemm-chunk && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-wip}
D=$OUT/run109; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4; R=bundle-ab/rgemm-chunk
for i in 1 2 3; do
  for c in 0 2048 1024 512; do
    RGEMM_SPLIT_CHUNK=$c timeout 40 $R bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r109/c$c-p$i > $D/c$c-p$i.log 2>&1
    echo "c$c p$i rc=$?" >> $D/rc.txt; cp /tmp/r109/c$c-p$i/results.json $D/c$c-p$i.json
  done
done
for c in 0 1024; do
  RGEMM_SPLIT_CHUNK=$c timeout 60 $R bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_presplit_tn --sizes 8192,8192:tn --iters 10 --out /tmp/r109/big-c$c > $D/big-c$c.log 2>&1
  echo "big c$c rc=$?" >> $D/rc.txt; cp /tmp/r109/big-c$c/results.json $D/big-c$c.json
done
cat $D/rc.txt
for f in $D/c*-p*.log $D/big-*.log; do echo "$(basename $f) $(grep -E "s4_(raw|presplit|presplit_tn)  " $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run109.sh $D/script.sh
cd $OUT && tar czf run109.tgz run109 && rm -rf run109

# ==============================================================================================
# Run 110 (2026-11-27-h100-run110/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 110 (commit in bundle/COMMIT): every GPU test after the host's helper launches went through
# the function cache and one batch loop, and the API took A at any start for split-ahead kernels;
# then compute-sanitizer memcheck of a batched split-ahead check with A at an odd lda.
set -u
tar xzf bundle.tgz
D=$OUT/run110; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 330 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
F=sgemm_15_tf32x3_128x128x32_s4
compute-sanitizer --tool memcheck --error-exitcode 3 bundle/rgemm check --kernel ${F}_presplit_tn --layout tn --m 301 --n 264 --k 257 --lda 303 --batch 3 > $D/memcheck.log 2>&1; echo "memcheck tn rc=$?" >> $D/rc.txt
compute-sanitizer --tool memcheck --error-exitcode 3 bundle/rgemm check --kernel ${F}_presplit --m 150 --n 132 --k 97 --lda 101 --batch 2 >> $D/memcheck.log 2>&1; echo "memcheck nn rc=$?" >> $D/rc.txt
cat $D/rc.txt; grep "==" $D/tests.log | tail -4; grep -E "FAILED|failed|panicked" $D/tests.log | head -20; tail -3 $D/memcheck.log
cp bundle-diag/run110.sh $D/script.sh
cd $OUT && tar czf run110.tgz run110 && rm -rf run110

# ==============================================================================================
# Run 111 (2026-11-27-h100-run111/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 111: every launch of the module as a programmatic dependent launch (pdl) against the same
# code launched ordinarily (nopdl: the attribute left out; the kernels' griddepcontrol
# instructions then do nothing), in alternating processes: `rgemm run --kernel best` (the
# automatic choice, timed in turn with cuBLAS) on shapes whose plans have a launch before the
# product (split ahead, staged copies) or after it (split-K's sum).
set -u
cd bundle-ab && for b in pdl nopdl; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-wip}
D=$OUT/run111; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
CASES="best:16:4096:4096:nt best:128:4096:4096:nt best:4096:4096:4096:tn best:128:4096:4096:tn best:4095:4095:4095:nn best:333:4099:1021:nn best-bf16:16:4096:14336:nt best-bf16:333:4099:1021:nn"
for i in 1 2 3; do
  for b in pdl nopdl; do
    for c in $CASES; do
      IFS=: read -r kern m n k lay <<< "$c"
      echo "== $b p$i $c" >> $D/$b.log
      timeout 30 bundle-ab/rgemm-$b run --kernel $kern --m $m --n $n --k $k --layout $lay --iters 50 >> $D/$b.log 2>&1
      echo "rc=$?" >> $D/$b.log
    done
  done
done
grep -c "rc=0" $D/pdl.log $D/nopdl.log
for b in pdl nopdl; do echo "-- $b"; grep -E "^== |cuBLAS|%" $D/$b.log | head -80; done | head -150
cp bundle-diag/run111.sh $D/script.sh
cd $OUT && tar czf run111.tgz run111 && rm -rf run111

# ==============================================================================================
# Run 112 (2026-11-27-h100-run112/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 112 (commit in bundle/COMMIT): every GPU test with every launch a programmatic dependent
# launch, then compute-sanitizer memcheck and racecheck of the automatic plans with a launch
# before or after the product (split-K, staged copies, split ahead).
set -u
tar xzf bundle.tgz
D=$OUT/run112; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 360 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
for tool in memcheck racecheck; do
  for c in "best --m 16 --n 512 --k 4096 --layout nt" "best --m 333 --n 409 --k 1021" "best --m 300 --n 264 --k 256 --layout tn --lda 301" "best-bf16 --m 16 --n 512 --k 14336 --layout nt" "best-bf16 --m 333 --n 409 --k 1021"; do
    compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $c > $D/$tool.tmp 2>&1; rc=$?
    echo "$tool [$c] rc=$rc $(grep -E 'SUMMARY|best is' $D/$tool.tmp | tr '\n' ' ')" >> $D/sanitize.txt
    cat $D/$tool.tmp >> $D/sanitize.log
  done
done
rm -f $D/*.tmp
cat $D/rc.txt; grep "==" $D/tests.log | tail -3; grep -E "FAILED|failed|panicked" $D/tests.log | head; cat $D/sanitize.txt
cp bundle-diag/run112.sh $D/script.sh
cd $OUT && tar czf run112.tgz run112 && rm -rf run112

# ==============================================================================================
# Run 113 (2026-11-27-h100-run113/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 113 (commit in bundle/COMMIT): where the goals stand with programmatic dependent launches:
# fp32 `_raw` (nn) and `_presplit_tn` (tn) at 4096³, four processes, and bf16/f16 rung 14's
# TMA-store persistent kernel at 4096³, three processes each; timed in turn with cuBLAS.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
D=$OUT/run113; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
R=bundle/rgemm; F=sgemm_15_tf32x3_128x128x32_s4
# The driver compiles the module's PTX on the machine's first load: once, untimed.
timeout 120 $R check --kernel ${F}_raw --m 128 --n 128 --k 128 > $D/warm.log 2>&1
for i in 1 2 3 4; do
  timeout 45 $R bench --kernel ${F}_raw --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r113/f32-p$i > $D/f32-p$i.log 2>&1
  echo "f32 p$i rc=$?" >> $D/rc.txt; cp /tmp/r113/f32-p$i/results.json $D/f32-p$i.json
done
for i in 1 2 3; do
  timeout 30 $R bench --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --sizes 4096 --iters 10 --out /tmp/r113/bf16-p$i > $D/bf16-p$i.log 2>&1
  echo "bf16 p$i rc=$?" >> $D/rc.txt; cp /tmp/r113/bf16-p$i/results.json $D/bf16-p$i.json
done
cat $D/rc.txt
for f in $D/*-p*.log; do echo "$(basename $f) $(grep -E "^  [sbh]gemm" $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run113.sh $D/script.sh
cd $OUT && tar czf run113.tgz run113 && rm -rf run113

# ==============================================================================================
# Run 114 (2026-11-27-h100-run114/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 114 (commit in bundle/COMMIT): how long the first load of the module takes on a fresh
# machine (the driver compiles the PTX of every entry and caches the result), against the second.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run114; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
ls -d ~/.nv/ComputeCache 2>/dev/null > $D/cache-before.txt; du -sh ~/.nv/ComputeCache 2>/dev/null >> $D/cache-before.txt
# The machine may have loaded the module before (a run before this one): the cache is emptied.
rm -rf ~/.nv/ComputeCache
for i in 1 2 3; do
  s=$(date +%s%N); timeout 280 bundle/rgemm check --kernel sgemm_15_tf32x3_128x128x32_s4_raw --m 128 --n 128 --k 128 > $D/check-$i.log 2>&1; rc=$?; e=$(date +%s%N)
  echo "check $i rc=$rc ms=$(( (e - s) / 1000000 ))" >> $D/times.txt
done
du -sh ~/.nv/ComputeCache 2>/dev/null > $D/cache-after.txt
cat $D/times.txt $D/cache-before.txt $D/cache-after.txt
cp bundle-diag/run114.sh $D/script.sh
cd $OUT && tar czf run114.tgz run114 && rm -rf run114

# ==============================================================================================
# Run 115 (2026-11-27-h100-run115/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 115 (commit in bundle/COMMIT): each entry loaded as a module of its own. With the driver's
# cache emptied: the first check of one kernel (the driver compiles one entry), then every kernel
# on one problem (every entry's module loaded), the automatic plans with helper launches, and
# the library's GPU tests.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run115; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
rm -rf ~/.nv/ComputeCache
R=bundle/rgemm
t() { local s=$(date +%s%N); "$@"; local rc=$?; echo "rc=$rc ms=$(( ($(date +%s%N) - s) / 1000000 ))"; }
{
echo "== one kernel, cold"; t $R check --kernel sgemm_15_tf32x3_128x128x32_s4_raw --m 128 --n 128 --k 128
echo "== the same, cached"; t $R check --kernel sgemm_15_tf32x3_128x128x32_s4_raw --m 128 --n 128 --k 128
echo "== every kernel, 136x136x136"; t $R check --m 136 --n 136 --k 136
echo "== plans"
t $R run --kernel best --m 128 --n 4096 --k 4096 --layout nt --iters 5
t $R run --kernel best --m 300 --n 264 --k 256 --layout tn --lda 301 --iters 5
t $R run --kernel best --m 333 --n 409 --k 1021 --iters 5
t $R run --kernel best-bf16 --m 16 --n 512 --k 14336 --layout nt --iters 5
} > $D/checks.log 2>&1
grep -E "^==|rc=|passed|FAIL|check  |ratio" $D/checks.log | head -40
s=$(date +%s); timeout 170 bundle/tests/library --include-ignored --test-threads 4 > $D/library.log 2>&1; echo "library tests rc=$? s=$(( $(date +%s) - s ))"; grep -E "test result|FAILED|panicked" $D/library.log | head
cp bundle-diag/run115.sh $D/script.sh
cd $OUT && tar czf run115.tgz run115 && rm -rf run115

# ==============================================================================================
# Run 116 (2026-11-27-h100-run116/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 116: the streamed split ahead (commit 3b8c084; bundle-ab/rgemm-new, with a probe-only knob
# PROBE_SPLIT_BLOCKS for the split's block count) against the split as a whole grid before the
# product (bundle-ab/rgemm-old, commit 7dabc9a's successor b9125f6 + docs). Checks first, then
# rung 15's `_raw`, `_presplit` and `_presplit_tn` at 4096³ (nn, tn), timed in turn with cuBLAS,
# in alternating processes.
set -u
cd bundle-ab && for b in new old; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-3b8c084}
D=$OUT/run116; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4
N=bundle-ab/rgemm-new; O=bundle-ab/rgemm-old
{
for k in ${F}_presplit ${F}_presplit_tn; do
  for shape in "--m 4096 --n 4096 --k 4096" "--m 301 --n 264 --k 257 --lda 303 --batch 3" "--m 1000 --n 1000 --k 1000" "--m 129 --n 130 --k 4097" "--m 2100000 --n 8 --k 36"; do
    lay=$([ $k = ${F}_presplit_tn ] && echo "--layout tn" || echo "")
    echo "== $k $shape $lay"; timeout 60 $N check --kernel $k $shape $lay 2>&1 | tail -2; echo "rc=$?"
  done
done
echo "== best tn 4096"; timeout 60 $N run --kernel best --m 4096 --n 4096 --k 4096 --layout tn --iters 20 2>&1 | tail -4
echo "== best nn 4096"; timeout 60 $N run --kernel best --m 4096 --n 4096 --k 4096 --iters 20 2>&1 | tail -4
for g in 8 132; do echo "== PROBE_SPLIT_BLOCKS=$g"; PROBE_SPLIT_BLOCKS=$g timeout 60 $N check --kernel ${F}_presplit_tn --m 4096 --n 4096 --k 4096 --layout tn 2>&1 | tail -1; done
} > $D/checks.log 2>&1
grep -cE "PASS" $D/checks.log; grep -E "FAIL|rror|rc=[1-9]" $D/checks.log | head
for i in 1 2; do
  for v in old new new16 new66; do
    case $v in old) B=$O; G=;; new) B=$N; G=;; new16) B=$N; G=16;; new66) B=$N; G=66;; esac
    [ $i = 2 ] && [ $v = new16 -o $v = new66 ] && continue
    PROBE_SPLIT_BLOCKS=$G timeout 75 $B bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r116/$v-p$i > $D/$v-p$i.log 2>&1
    echo "$v p$i rc=$?" >> $D/rc.txt; cp /tmp/r116/$v-p$i/results.json $D/$v-p$i.json 2>/dev/null
  done
done
cat $D/rc.txt
for f in $D/*-p*.log; do echo "$(basename $f) $(grep -E "^  [sbh]gemm" $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run116.sh $D/script.sh
cd $OUT && tar czf run116.tgz run116 && rm -rf run116

# ==============================================================================================
# Run 117 (2026-11-27-h100-run117/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 117: the streamed split ahead, one acquire per tile (commit a548bc7; bundle-ab/rgemm-new, with a probe-only knob
# PROBE_SPLIT_BLOCKS for the split's block count) against the split as a whole grid before the
# product (bundle-ab/rgemm-old, commit 7dabc9a's successor b9125f6 + docs). Checks first, then
# rung 15's `_raw`, `_presplit` and `_presplit_tn` at 4096³ (nn, tn), timed in turn with cuBLAS,
# in alternating processes.
set -u
cd bundle-ab && for b in new old; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-a548bc7}
D=$OUT/run117; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4
N=bundle-ab/rgemm-new; O=bundle-ab/rgemm-old
{
for k in ${F}_presplit ${F}_presplit_tn; do
  for shape in "--m 4096 --n 4096 --k 4096" "--m 301 --n 264 --k 257 --lda 303 --batch 3" "--m 1000 --n 1000 --k 1000" "--m 129 --n 130 --k 4097" "--m 2100000 --n 8 --k 36"; do
    lay=$([ $k = ${F}_presplit_tn ] && echo "--layout tn" || echo "")
    echo "== $k $shape $lay"; timeout 60 $N check --kernel $k $shape $lay 2>&1 | tail -2; echo "rc=$?"
  done
done
echo "== best tn 4096"; timeout 60 $N run --kernel best --m 4096 --n 4096 --k 4096 --layout tn --iters 20 2>&1 | tail -4
echo "== best nn 4096"; timeout 60 $N run --kernel best --m 4096 --n 4096 --k 4096 --iters 20 2>&1 | tail -4
for g in 8 66; do echo "== PROBE_SPLIT_BLOCKS=$g"; PROBE_SPLIT_BLOCKS=$g timeout 60 $N check --kernel ${F}_presplit_tn --m 4096 --n 4096 --k 4096 --layout tn 2>&1 | tail -1; done
} > $D/checks.log 2>&1
grep -cE "PASS" $D/checks.log; grep -E "FAIL|rror|rc=[1-9]" $D/checks.log | head
for i in 1 2; do
  for v in old new g16 g8; do
    case $v in old) B=$O; G=;; new) B=$N; G=;; g16) B=$N; G=16;; g8) B=$N; G=8;; esac
    [ $i = 2 ] && [ $v = g16 -o $v = g8 ] && continue
    PROBE_SPLIT_BLOCKS=$G timeout 75 $B bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r116/$v-p$i > $D/$v-p$i.log 2>&1
    echo "$v p$i rc=$?" >> $D/rc.txt; cp /tmp/r116/$v-p$i/results.json $D/$v-p$i.json 2>/dev/null
  done
done
cat $D/rc.txt
for f in $D/*-p*.log; do echo "$(basename $f) $(grep -E "^  [sbh]gemm" $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run117.sh $D/script.sh
cd $OUT && tar czf run117.tgz run117 && rm -rf run117

# ==============================================================================================
# Run 118 (2026-11-27-h100-run118/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 118: the streamed split ahead, two variants against the split as a whole grid (old):
# `new` (commit a548bc7: per-chunk waits until a row is split) and `rowwait` (probe: each tile
# waits for its whole row of the split, no per-chunk waits), each with the split on 16, 33 or 66
# blocks (probe knob PROBE_SPLIT_BLOCKS). rung 15 `_raw`, `_presplit`, `_presplit_tn` at 4096³.
set -u
cd bundle-ab && for b in new old rowwait; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-a548bc7}
D=$OUT/run118; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4
for b in new old rowwait; do timeout 60 bundle-ab/rgemm-$b check --kernel ${F}_presplit_tn --m 1000 --n 1000 --k 1000 --layout tn > $D/warm-$b.log 2>&1; done
for v in old rowwait:16 rowwait:33 rowwait:66 new:16 old rowwait:16 rowwait:33 new:16 rowwait:66; do
  IFS=: read -r b g <<< "$v"; i=$(( $(ls $D/*.log | wc -l) ))
  PROBE_SPLIT_BLOCKS=$g timeout 75 bundle-ab/rgemm-$b bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r118/$b$g-$i > $D/$b$g-$i.log 2>&1
  echo "$b$g-$i rc=$?" >> $D/rc.txt; cp /tmp/r118/$b$g-$i/results.json $D/$b$g-$i.json 2>/dev/null
done
cat $D/rc.txt
for f in $D/*-*.log; do case $f in *warm*) continue;; esac; echo "$(basename $f) $(grep -E "^  [sbh]gemm" $f | grep -v skipped | awk '{printf "%s %s %s %s | ", substr($1,30), $3, $5, $NF}')"; done
cp bundle-diag/run118.sh $D/script.sh
cd $OUT && tar czf run118.tgz run118 && rm -rf run118

# ==============================================================================================
# Run 119 (2026-11-27-h100-run119/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 119 (commit in bundle/COMMIT): every GPU test with each entry loaded as a module of its own
# (and the helper entries launch-bounded), then compute-sanitizer memcheck and racecheck of the automatic plans with a launch
# before or after the product (split-K, staged copies, split ahead).
set -u
tar xzf bundle.tgz
D=$OUT/run119; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 480 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
for tool in memcheck racecheck; do
  for c in "best --m 16 --n 512 --k 4096 --layout nt" "best --m 333 --n 409 --k 1021" "best --m 300 --n 264 --k 256 --layout tn --lda 301" "best-bf16 --m 16 --n 512 --k 14336 --layout nt" "best-bf16 --m 333 --n 409 --k 1021"; do
    compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $c > $D/$tool.tmp 2>&1; rc=$?
    echo "$tool [$c] rc=$rc $(grep -E 'SUMMARY|best is' $D/$tool.tmp | tr '\n' ' ')" >> $D/sanitize.txt
    cat $D/$tool.tmp >> $D/sanitize.log
  done
done
rm -f $D/*.tmp
cat $D/rc.txt; grep "==" $D/tests.log | tail -3; grep -E "FAILED|failed|panicked" $D/tests.log | head; cat $D/sanitize.txt
cp bundle-diag/run119.sh $D/script.sh
cd $OUT && tar czf run119.tgz run119 && rm -rf run119

# ==============================================================================================
# Run 120 (2026-11-27-h100-run120/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 120 (commit in bundle/COMMIT): the real-shape suite for bf16 and f32 with the built-in
# dispatch table, on the code of today (programmatic dependent launches, the split ahead for
# `tn`, per-entry modules), after one untimed check of each type's 4096³ kernels.
set -u
tar xzf bundle.tgz
D=$OUT/run120; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
timeout 60 bundle/rgemm check --kernel best-bf16 --m 256 --n 256 --k 256 > $D/warm.log 2>&1
timeout 60 bundle/rgemm check --kernel best --m 256 --n 256 --k 256 >> $D/warm.log 2>&1
OUT=$D timeout 540 bash bundle/library.sh suite > $D/library.log 2>&1; echo "suite rc=$?" >> $D/rc.txt
cat $D/rc.txt; tail -20 $D/library.log
cp bundle-diag/run120.sh $D/script.sh
cd $OUT && tar czf run120.tgz run120 && rm -rf run120

# ==============================================================================================
# Run 121 (2026-11-27-h100-run121/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 121: the row copies of staged plans with a few blocks per SM, each thread 8 rows at a time
# (new, working tree of 0b459a5+) against one block per row of 256 elements (old), in alternating
# processes of `rgemm run` (the automatic plan, timed in turn with both cuBLAS calls).
set -u
cd bundle-ab && for b in new old; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run121; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for b in new old; do timeout 90 bundle-ab/rgemm-$b check --kernel best-bf16 --m 333 --n 4099 --k 1021 > $D/warm-$b.log 2>&1; done
CASES="best-bf16:4095:4095:4095 best-bf16:4097:4097:4097 best-bf16:3001:2999:3003 best-bf16:333:4099:1021 best:4095:4095:4095 best:333:4099:1021 best-bf16:4095:4095:4095:64"
for i in 1 2 3; do
  for b in new old; do
    for c in $CASES; do
      IFS=: read -r kern m n k batch <<< "$c"
      echo "== $b p$i $c" >> $D/$b.log
      timeout 40 bundle-ab/rgemm-$b run --kernel $kern --m $m --n $n --k $k ${batch:+--batch 2} --iters 30 >> $D/$b.log 2>&1
      echo "rc=$?" >> $D/$b.log
    done
  done
done
grep -c "rc=0" $D/new.log $D/old.log; grep -c PASS $D/new.log $D/old.log
for b in new old; do echo "-- $b"; grep -E "^== |^ratio" $D/$b.log | paste - - | awk "{print \$2,\$3,\$4,\$6}"; done
cp bundle-diag/run121.sh $D/script.sh
cd $OUT && tar czf run121.tgz run121 && rm -rf run121

# ==============================================================================================
# Run 122 (2026-11-27-h100-run122/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 122 (commit in bundle/COMMIT): every GPU test with the new row copies, then the real-shape
# suites for bf16 and f32 with the built-in dispatch table.
set -u
tar xzf bundle.tgz
D=$OUT/run122; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 270 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
OUT=$D timeout 290 bash bundle/library.sh suite > $D/library.log 2>&1; echo "suite rc=$?" >> $D/rc.txt
rm -f $D/suite-*/chart.png
cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5; tail -12 $D/library.log
cp bundle-diag/run122.sh $D/script.sh
cd $OUT && tar czf run122.tgz run122 && rm -rf run122

# ==============================================================================================
# Run 123 (2026-11-27-h100-run123/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 123 (commit in bundle/COMMIT): vector stores of C that check their address: every GPU test,
# the packed batch of two 4095³ bf16 products with the automatic plan, and rung 15 `_raw` and
# rung 14 `_persistent_pairs` at 4096³ (their epilogues changed), timed in turn.
set -u
tar xzf bundle.tgz
D=$OUT/run123; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 250 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
timeout 40 bundle/rgemm run --kernel best-bf16 --m 4095 --n 4095 --k 4095 --batch 2 --iters 20 > $D/batch.log 2>&1; echo "batch rc=$?" >> $D/rc.txt
timeout 60 bundle/rgemm bench --kernel sgemm_15_tf32x3_128x128x32_s4_raw --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs --sizes 4096 --iters 10 --out /tmp/r123b > $D/bench.log 2>&1; echo "bench rc=$?" >> $D/rc.txt
cp /tmp/r123b/results.json $D/bench.json 2>/dev/null
cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5; grep -E "^best|^kernel|^ratio|^check" $D/batch.log; grep -E "^  [sbh]gemm|cuBLAS" $D/bench.log | head
cp bundle-diag/run123.sh $D/script.sh
cd $OUT && tar czf run123.tgz run123 && rm -rf run123

# ==============================================================================================
# Run 124 (2026-11-27-h100-run124/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 124: (1) split-K's sum as a row walk: automatic split plans with binary A (3c02591) against
# C (the row walk), alternating; (2) rung 15's tile order by block columns (CO) against by block
# rows (C) at 4096³ in every layout, alternating. Each process times its kernel and cuBLAS in turn.
set -u
D=$OUT/run124; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=3c02591+
for b in A C CO; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
# (1) split plans
for rep in 1 2; do
  for b in A C; do
    for c in "best 16 4096 4096 nt" "best 256 256 131072 nn" "best 1024 1024 32768 nn" "best-bf16 256 256 131072 nn" "best-bf16 1024 1024 32768 nn" "best-bf16 16 4096 14336 nt"; do
      set -- $c
      echo "== $b rep$rep $c" >> $D/split.log
      timeout 40 /tmp/rgemm-$b run --kernel $1 --m $2 --n $3 --k $4 --layout $5 --iters 20 >> $D/split.log 2>&1
    done
  done
done
# (2) rung 15 tile order
for rep in 1 2; do
  for b in C CO; do
    for kl in raw:nn raw_nt:nt raw_tt:tt presplit_tn:tn raw_tn:tn; do
      k=${kl%%:*}; l=${kl##*:}
      timeout 40 /tmp/rgemm-$b bench --kernel sgemm_15_tf32x3_128x128x32_s4_$k --sizes 4096:$l --iters 10 --out /tmp/o > $D/order-$b-$rep-$k.log 2>&1
      echo "$b rep$rep $k $l rc=$? $(tail -1 /tmp/o/results.csv 2>/dev/null | cut -d, -f7,8,13,15)" >> $D/order.log
      cp /tmp/o/results.json $D/order-$b-$rep-$k.json 2>/dev/null; rm -rf /tmp/o
    done
  done
done
cp bundle-diag/run124.sh $D/script.sh
cat $D/order.log; grep -E "^==|^kernel|^cuBLAS|^plan" $D/split.log | head -120
cd $OUT && tar czf run124.tgz run124 && rm -rf run124

# ==============================================================================================
# Run 125 (2026-11-27-h100-run125/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 125: does the number of copy-engine loads per stage cost rung 15 time? Binary X loads every
# K-major tile as four boxes of 32 rows (as the MN-major panels already are) against A (3c02591),
# at 4096³, alternating processes, each timing its kernel and cuBLAS in turn.
set -u
D=$OUT/run125; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=3c02591+
for b in A X; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
for rep in 1 2; do
  for b in A X; do
    for kl in raw:nn raw_nt:nt presplit_tn:tn raw_tt:tt; do
      k=${kl%%:*}; l=${kl##*:}
      timeout 40 /tmp/rgemm-$b bench --kernel sgemm_15_tf32x3_128x128x32_s4_$k --sizes 4096:$l --iters 10 --out /tmp/o > $D/bench-$b-$rep-$k.log 2>&1
      echo "$b rep$rep $k $l rc=$? $(tail -1 /tmp/o/results.csv 2>/dev/null | cut -d, -f7,8,13,15)" >> $D/order.log
      cp /tmp/o/results.json $D/bench-$b-$rep-$k.json 2>/dev/null; rm -rf /tmp/o
    done
  done
done
cp bundle-diag/run125.sh $D/script.sh
cat $D/order.log
cd $OUT && tar czf run125.tgz run125 && rm -rf run125

# ==============================================================================================
# Run 126 (2026-11-27-h100-run126/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 126: the MN-major panels of rung 15 in one four-dimensional load, the split-ahead high part and
# remainder in one load of two planes (binary N) against A (3c02591), alternating processes.
# Each process times its kernel and cuBLAS in turn; then checks of N at sizes with and without whole panels.
set -u
D=$OUT/run126; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=3c02591+
for b in A N; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
for rep in 1 2; do
  for b in A N; do
    for kl in raw:nn raw_nt:nt presplit_tn:tn raw_tt:tt raw_tn:tn presplit:nn; do
      k=${kl%%:*}; l=${kl##*:}
      timeout 40 /tmp/rgemm-$b bench --kernel sgemm_15_tf32x3_128x128x32_s4_$k --sizes 4096:$l --iters 10 --out /tmp/o > $D/bench-$b-$rep-$k.log 2>&1
      echo "$b rep$rep $k $l rc=$? $(tail -1 /tmp/o/results.csv 2>/dev/null | cut -d, -f7,8,13,15)" >> $D/order.log
      cp /tmp/o/results.json $D/bench-$b-$rep-$k.json 2>/dev/null; rm -rf /tmp/o
    done
  done
done
for c in "raw nn 1000 1000 1000" "raw_tn tn 4004 4000 4096" "raw_tn tn 4000 4004 4096" "presplit_tn tn 4004 1004 2048" "raw_tt tt 1004 4000 1024" "raw_tt tt 4000 1004 1024" "presplit nn 3000 3008 3000"; do
  set -- $c
  echo "== $c" >> $D/checks.log
  timeout 60 /tmp/rgemm-N run --kernel sgemm_15_tf32x3_128x128x32_s4_$1 --layout $2 --m $3 --n $4 --k $5 --iters 5 >> $D/checks.log 2>&1; echo "rc=$?" >> $D/checks.log
done
timeout 120 /tmp/rgemm-N run --kernel sgemm_15_tf32x3_128x128x32_s4_raw_tn --layout tn --m 4000 --n 4004 --k 512 --batch 3 --iters 5 >> $D/checks.log 2>&1; echo "batch rc=$?" >> $D/checks.log
cp bundle-diag/run126.sh $D/script.sh
cat $D/order.log; grep -E "^==|^check|^rc|rror" $D/checks.log
cd $OUT && tar czf run126.tgz run126 && rm -rf run126

# ==============================================================================================
# Run 127 (2026-11-27-h100-run127/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 127: rung 15 with panels and split-ahead planes in one load everywhere (N) or everywhere but
# `_raw`'s B in nn (N2), against A (3c02591); alternating processes, each timing its kernel and
# cuBLAS in turn, at 4096³ (and N2 against A at 8192³, 2048³, 1000³).
set -u
D=$OUT/run127; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=3c02591+
for b in A N N2; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
one() { # binary kernel size layout rep
  timeout 60 /tmp/rgemm-$1 bench --kernel sgemm_15_tf32x3_128x128x32_s4_$2 --sizes $3:$4 --iters 10 --out /tmp/o > $D/bench-$1-$5-$2-$3.log 2>&1
  echo "$1 rep$5 $2 $3 $4 rc=$? $(tail -1 /tmp/o/results.csv 2>/dev/null | cut -d, -f7,8,13,15)" >> $D/order.log
  cp /tmp/o/results.json $D/bench-$1-$5-$2-$3.json 2>/dev/null; rm -rf /tmp/o
}
for rep in 1 2; do
  for b in A N N2; do
    one $b raw 4096 nn $rep
    [ $b = N ] && continue
    one $b presplit 4096 nn $rep
    one $b presplit_tn 4096 tn $rep
    one $b raw_tt 4096 tt $rep
    one $b raw 2048 nn $rep
    one $b presplit 2048 nn $rep
    one $b raw 1000 nn $rep
    one $b presplit 1000 nn $rep
    one $b raw 8192 nn $rep
    one $b presplit 8192 nn $rep
    one $b presplit_tn 8192 tn $rep
  done
done
cp bundle-diag/run127.sh $D/script.sh
cat $D/order.log
cd $OUT && tar czf run127.tgz run127 && rm -rf run127

# ==============================================================================================
# Run 128 (2026-11-27-h100-run128/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 128 (commit in bundle/COMMIT): rung 15 with one load per tile. Every GPU test; then four
# processes of `rgemm bench` of the rung-15 kernels of every layout at 4096³ (and nn, tn at
# 8192³), timed in turn, each with its own cuBLAS figures.
set -u
tar xzf bundle.tgz
D=$OUT/run128; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 270 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
k=sgemm_15_tf32x3_128x128x32_s4
for p in 1 2 3 4; do
  timeout 100 bundle/rgemm bench --kernel ${k}_raw --kernel ${k}_presplit --kernel ${k}_presplit_tn --kernel ${k}_raw_nt --kernel ${k}_raw_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn,8192:tn --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
  grep -E "^  sgemm|cuBLAS|^[0-9]" $D/f32-p$p.log | head -30 > $D/f32-p$p.short
done
cp bundle-diag/run128.sh $D/script.sh
cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5; cat $D/f32-p1.short
cd $OUT && tar czf run128.tgz run128 && rm -rf run128

# ==============================================================================================
# Run 129 (2026-11-27-h100-run129/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 129 (commit in bundle/COMMIT): the f32 dispatch table measured again (`rgemm tune --suite
# real --dtype f32`, the repository's table as the start, so the bf16 rows stay), then the f32
# suite with that table.
set -u
[ -d bundle ] || tar xzf bundle.tgz
D=$OUT/run129; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
cp dispatch/h100.tsv $D/dispatch.tsv
timeout 360 bundle/rgemm tune --suite real --dtype f32 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-f32.json > $D/tune-f32.log 2>&1
echo "tune rc=$?" >> $D/rc.txt
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 200 bundle/rgemm bench --suite real --dtype f32 --iters 10 --out $D/suite-f32 > $D/suite-f32.log 2>&1
echo "suite rc=$?" >> $D/rc.txt
rm -f $D/suite-f32/chart.png
cp bundle-diag/run129.sh $D/script.sh
cat $D/rc.txt; grep -A40 "fastest plan" $D/tune-f32.log | head -45; tail -4 $D/suite-f32.log
cd $OUT && tar czf run129.tgz run129 && rm -rf run129

# ==============================================================================================
# Run 130 (2026-11-27-h100-run130/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 130 (commit in bundle/COMMIT): where the split ahead pays in `tn` with one load per tile
# (run 104 again): two processes of `rgemm bench` of `_raw_tn` and `_presplit_tn`, timed in turn.
set -u
[ -d bundle ] || tar xzf bundle.tgz
D=$OUT/run130; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
k=sgemm_15_tf32x3_128x128x32_s4
for p in 1 2; do
  timeout 150 bundle/rgemm bench --kernel ${k}_raw_tn --kernel ${k}_presplit_tn --sizes 4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn,2048x4096x4096:tn,1024:tn,2048:tn --iters 20 --out /tmp/p$p > $D/tn-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/tn-p$p.json 2>/dev/null
done
cp bundle-diag/run130.sh $D/script.sh
cat $D/rc.txt; grep -E "^[0-9]|_tn  " $D/tn-p*.log | grep -v skipped
cd $OUT && tar czf run130.tgz run130 && rm -rf run130

# ==============================================================================================
# Run 131 (2026-11-27-h100-run131/script.sh)
# ==============================================================================================
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

# ==============================================================================================
# Run 132 (2026-11-27-h100-run132/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 132 (commit in bundle/COMMIT): the library's tests on the GPU after `Plan::run` learned to
# adapt automatic plans to misaligned starts: every test of tests/library.rs, the GPU ones
# included (the API proptest, layouts, staging, split-K, split ahead, the new start tests).
set -u
rm -rf bundle; tar xzf bundle-diag/bundle-lib.tgz
D=$OUT/run132; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
timeout 500 bundle/tests/library --include-ignored --test-threads=1 > $D/library.log 2>&1
echo "library rc=$?" >> $D/rc.txt
cp bundle-diag/run132.sh $D/script.sh
cat $D/rc.txt; grep -E "^test |test result" $D/library.log; grep -A15 "panicked" $D/library.log | head -30
cd $OUT && tar czf run132.tgz run132 && rm -rf run132

# ==============================================================================================
# Run 133 (2026-11-27-h100-run133/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 133: rung 15's refills issued by thread 0 of each warpgroup in turn (W) against thread 0 of
# the first always (B = 1dc68b5), alternating processes, each timing its kernels and cuBLAS in
# turn at 4096³ (every layout) and 8192³ (nn).
set -u
D=$OUT/run133; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=1dc68b5+
for b in B W; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
k=sgemm_15_tf32x3_128x128x32_s4
for rep in 1 2 3; do
  for b in B W; do
    timeout 100 /tmp/rgemm-$b bench --kernel ${k}_raw --kernel ${k}_presplit --kernel ${k}_presplit_tn --kernel ${k}_raw_nt --kernel ${k}_raw_tt --kernel ${k}_raw_tn --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn --iters 10 --out /tmp/o > $D/$b-$rep.log 2>&1
    echo "$b rep$rep rc=$?" >> $D/rc.txt
    cp /tmp/o/results.json $D/$b-$rep.json; rm -rf /tmp/o
    grep -E "^  sgemm" $D/$b-$rep.log | grep -v skipped | awk -v b=$b -v r=$rep '{print b, r, $1, $5}' >> $D/summary.txt
  done
done
cp bundle-diag/run133.sh $D/script.sh
cat $D/rc.txt; sort -k3,3 -k1,1 $D/summary.txt
cd $OUT && tar czf run133.tgz run133 && rm -rf run133

# ==============================================================================================
# Run 134 (2026-11-27-h100-run134/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 134 (commit in bundle/COMMIT): rung 15 split ahead with the refills issued in turn.
# compute-sanitizer on the split-ahead entries (K long enough for both warpgroups to issue);
# then four processes of `rgemm bench` of the rung-15 kernels of every layout at 4096³ (and nn,
# tn at 8192³), timed in turn.
set -u
rm -rf bundle; tar xzf bundle-diag/bundle-min.tgz
D=$OUT/run134; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
jobs=()
for k in sgemm_15_tf32x3_128x128x32_s4_presplit:nn sgemm_15_tf32x3_128x128x32_s4_presplit_tn:tn; do
  for tool in memcheck racecheck synccheck initcheck; do
    for s in "160 192 300" "136 100 300"; do jobs+=("$tool ${k%%:*} ${k##*:} $s"); done
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 4 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$k-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
k=sgemm_15_tf32x3_128x128x32_s4
for p in 1 2 3 4; do
  timeout 100 bundle/rgemm bench --kernel ${k}_raw --kernel ${k}_presplit --kernel ${k}_presplit_tn --kernel ${k}_raw_nt --kernel ${k}_raw_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn,8192:tn --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp bundle-diag/run134.sh $D/script.sh
cat $D/sanitize.txt | cut -c1-160; grep -c "rc=0" $D/sanitize.txt; cat $D/rc.txt
python3 - $D <<'PY'
import json,glob,sys,collections
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/f32-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(run['kernel'][30:], s['m'], s.get('layout'))].append(round(100*cb/run['timing']['median_ms'],1))
for k in sorted(d): print(k, d[k])
PY
cd $OUT && tar czf run134.tgz run134 && rm -rf run134

# ==============================================================================================
# Run 135 (2026-11-27-h100-run135/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 135 (commit in bundle/COMMIT): the f32 dispatch table measured again (`rgemm tune --suite
# real --dtype f32`, the repository's table as the start, so the bf16 rows stay), then the f32
# suite with that table, after the split-ahead refills in turn (run 133).
set -u
rm -rf bundle; tar xzf bundle-diag/bundle-min.tgz
D=$OUT/run135; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
cp dispatch/h100.tsv $D/dispatch.tsv
timeout 300 bundle/rgemm tune --suite real --dtype f32 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-f32.json > $D/tune-f32.log 2>&1
echo "tune rc=$?" >> $D/rc.txt
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 180 bundle/rgemm bench --suite real --dtype f32 --iters 10 --out $D/suite-f32 > $D/suite-f32.log 2>&1
echo "suite rc=$?" >> $D/rc.txt
rm -f $D/suite-f32/chart.png
cp bundle-diag/run135.sh $D/script.sh
cat $D/rc.txt; grep -A40 "fastest plan" $D/tune-f32.log | head -45; tail -4 $D/suite-f32.log
cd $OUT && tar czf run135.tgz run135 && rm -rf run135

# ==============================================================================================
# Run 136 (2026-11-27-h100-run136/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 136 (commit in bundle/COMMIT): every GPU test, with compute-sanitizer on rung 15's split-ahead
# kernels (presplit_tt new) at the same time; then four processes of `rgemm bench` of the rung-15
# kernels of every layout at 4096³ (and nn, tt at 8192³), timed in turn.
set -u
rm -rf bundle; xz -dc bundle-diag/bundle.txz | tar xf -
D=$OUT/run136; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
(OUT=$D/tests timeout 285 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc=$?" >> $D/rc.txt) &
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
jobs=()
for k in sgemm_15_tf32x3_128x128x32_s4_presplit_tt:tt sgemm_15_tf32x3_128x128x32_s4_presplit:nn sgemm_15_tf32x3_128x128x32_s4_presplit_tn:tn sgemm_15_tf32x3_128x128x32_s4_raw_tt:tt; do
  for tool in memcheck racecheck synccheck initcheck; do
    for s in "160 192 300" "136 104 300"; do jobs+=("$tool ${k%%:*} ${k##*:} $s"); done
  done
done
printf '%s\n' "${jobs[@]}" | timeout 285 xargs -P 3 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$k-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
wait
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
k=sgemm_15_tf32x3_128x128x32_s4
for p in 1 2 3 4; do
  timeout 70 bundle/rgemm bench --kernel ${k}_raw --kernel ${k}_presplit --kernel ${k}_presplit_tn --kernel ${k}_raw_nt --kernel ${k}_raw_tt --kernel ${k}_presplit_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn,8192:tt --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp bundle-diag/run136.sh $D/script.sh
cut -c1-170 $D/sanitize.txt; grep -c "rc=0" $D/sanitize.txt; cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5
python3 - $D <<'PY'
import json,glob,sys,collections
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/f32-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(run['kernel'][30:], s['m'], s.get('layout'))].append(round(100*cb/run['timing']['median_ms'],1))
for k in sorted(d): print(k, d[k])
PY
cd $OUT && tar czf run136.tgz run136 && rm -rf run136

# ==============================================================================================
# Run 137 (2026-11-27-h100-run137/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 137 (112845b + a `_presplit_nt` entry): Nsight Compute of rung 15's split-ahead products in
# nn, nt, tt, tn at 4096³ (why MN-major R costs: warp stalls, shared loads); then three processes of
# `rgemm bench` of them (and `_raw_nt`) in their layouts at 4096³, timed in turn.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run137; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
k=sgemm_15_tf32x3_128x128x32_s4
M="gpu__time_duration.sum,smsp__inst_executed.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,smsp__issue_active.avg.pct_of_peak_sustained_active"
for st in long_scoreboard short_scoreboard wait barrier mio_throttle math_pipe_throttle membar sleeping dispatch_stall lg_throttle no_instruction selected not_selected branch_resolving drain misc; do M="$M,smsp__average_warps_issue_stalled_${st}_per_issue_active.ratio"; done
for kl in presplit:nn presplit_nt:nt presplit_tt:tt presplit_tn:tn raw_nt:nt; do
  kn=${k}_${kl%%:*}; l=${kl##*:}
  timeout 100 ncu --csv --page details --print-units base -k "regex:^${kn}\$" --launch-skip 2 --launch-count 1 --metrics "$M" bundle/rgemm run --kernel $kn --layout $l --m 4096 --n 4096 --k 4096 --iters 3 > $D/ncu-${kl%%:*}.csv 2> $D/ncu-${kl%%:*}.err
  echo "ncu $kn rc=$?" >> $D/rc.txt
done
for p in 1 2 3; do
  timeout 80 bundle/rgemm bench --kernel ${k}_presplit --kernel ${k}_presplit_nt --kernel ${k}_raw_nt --kernel ${k}_presplit_tn --kernel ${k}_presplit_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp bundle-diag/run137.sh $D/script.sh
cat $D/rc.txt
python3 - $D <<'PY'
import json,glob,sys,collections,csv
D=sys.argv[1]
rows=collections.defaultdict(dict)
for f in sorted(glob.glob(D+'/ncu-*.csv')):
    name=f.split('ncu-')[1][:-4]
    lines=[l for l in open(f) if l.startswith('"')]
    for r in csv.DictReader(lines):
        rows[r['Metric Name']][name]=r['Metric Value']
names=sorted({n for v in rows.values() for n in v})
print('metric', *names)
for m in sorted(rows): print(m.replace('smsp__average_warps_issue_stalled_','stall_').replace('_per_issue_active.ratio',''), *[rows[m].get(n,'-') for n in names])
d=collections.defaultdict(list)
for f in sorted(glob.glob(D+'/f32-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(run['kernel'][30:], s['m'], s.get('layout'))].append(round(100*cb/run['timing']['median_ms'],1))
for k in sorted(d): print(k, d[k])
PY
cd $OUT && tar czf run137.tgz run137 && rm -rf run137

# ==============================================================================================
# Run 138 (2026-11-27-h100-run138/script.sh)
# ==============================================================================================
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

# ==============================================================================================
# Run 139 (2026-11-27-h100-run139/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 139 (commit in bundle/COMMIT): every GPU test on the committed code (the catalog walks now
# over `_presplit_nt` too); then five processes of `rgemm bench` of rung 14's persistent bf16
# kernels at 4096³ and 8192³, timed in turn (as run 59 of 2026-11-26).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run139; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 290 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
P=bgemm_14_wgmma_tma_128x256x64_s4
for i in 1 2 3 4 5; do
  S=$SECONDS
  timeout 45 bundle/rgemm bench --dtype bf16 --kernel ${P}_persistent_tmast --kernel ${P}_persistent_pairs --sizes 4096,8192 --iters 20 --out /tmp/bf16-p$i > $D/bf16-p$i.log 2>&1; echo "bf16 p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/bf16-p$i/results.json $D/bf16-p$i.json 2>/dev/null
done
cp bundle-diag/run139.sh $D/script.sh
cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5
python3 - $D <<'PY'
import json,glob,sys,collections
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/bf16-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(run['kernel'][31:], s['m'])].append(round(100*cb/run['timing']['median_ms'],1))
for k in sorted(d): print(k, d[k])
PY
cd $OUT && tar czf run139.tgz run139 && rm -rf run139

# ==============================================================================================
# Run 140 (2026-11-27-h100-run140/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 140 (commit in bundle/COMMIT): `rgemm tune --cases` of f32 shapes the suite lacks (thin
# tn and nn, the tn rows measured by hand in run 130), every candidate plan, K split included,
# merged into the repository's table.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run140; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
cp dispatch/h100.tsv $D/dispatch.tsv
timeout 150 bundle/rgemm tune --dtype f32 --cases 4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn,1024x1024x1024:tn,2048x2048x2048:tn,2048x4096x4096:tn,4096x16x4096,4096x128x4096 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-f32.json > $D/tune-f32.log 2>&1
echo "tune rc=$?" >> $D/rc.txt
cp bundle-diag/run140.sh $D/script.sh
cat $D/rc.txt; grep -A12 "fastest plan" $D/tune-f32.log; diff dispatch/h100.tsv $D/dispatch.tsv | cut -c1-200
cd $OUT && tar czf run140.tgz run140 && rm -rf run140

# ==============================================================================================
# Run 141 (2026-11-27-h100-run141/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 141 (commit in bundle/COMMIT): `rgemm tune --cases` of thin shapes in the other layouts,
# f32 and bf16, merged into run 140's table.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run141; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
cp bundle-diag/dispatch-run140.tsv $D/dispatch.tsv
timeout 70 bundle/rgemm tune --dtype f32 --cases 4096x16x4096:nt,4096x128x4096:nt,4096x16x4096:tt,4096x128x4096:tt --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-f32.json > $D/tune-f32.log 2>&1
echo "tune f32 rc=$?" >> $D/rc.txt
timeout 70 bundle/rgemm tune --dtype bf16 --cases 4096x16x4096,4096x128x4096,4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1
echo "tune bf16 rc=$?" >> $D/rc.txt
cp bundle-diag/run141.sh $D/script.sh
cat $D/rc.txt; grep -h -A8 "fastest plan" $D/tune-*.log
cd $OUT && tar czf run141.tgz run141 && rm -rf run141

# ==============================================================================================
# Run 142 (2026-11-27-h100-run142/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 142 (commit in bundle/COMMIT): every GPU test, with compute-sanitizer at the same time on the
# new entries: rung 11 without a producer warp (`_wa_lc`: 8 × 8, 8 × 16, 16 × 8 thread tiles) and
# rung 14's narrow TMA-store tiles for A stored K×M (64 × 128 s8, 64 × 64 s12, `tn` and `tt`).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run142; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
(OUT=$D/tests timeout 290 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc=$?" >> $D/rc.txt) &
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
jobs=()
for k in sgemm_11_tma_128x256x32_w64x64_t8x16_s4_wa_lc:nn sgemm_11_tma_128x256x32_w64x64_t16x8_s4_wa_lc:nn sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa_lc:nn \
         bgemm_14_wgmma_tma_64x128x64_s8_tmast_tn:tn bgemm_14_wgmma_tma_64x128x64_s8_tmast_tt:tt bgemm_14_wgmma_tma_64x64x64_s12_tmast_tn:tn bgemm_14_wgmma_tma_64x64x64_s12_tmast_tt:tt; do
  IFS=: read -r name layout <<<"$k"
  for tool in memcheck racecheck synccheck initcheck; do
    for s in "160 264 296 0" "136 104 72 0.5"; do jobs+=("$tool $name $layout $s"); done
  done
done
printf '%s\n' "${jobs[@]}" | timeout 280 xargs -P 3 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$k-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --beta $6 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 beta $6 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
wait
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
cp bundle-diag/run142.sh $D/script.sh
cut -c1-170 $D/sanitize.txt | grep -v "rc=0" | head; echo "sanitize ok: $(grep -c "rc=0" $D/sanitize.txt) of $(wc -l < $D/sanitize.txt)"; cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5
cd $OUT && tar czf run142.tgz run142 && rm -rf run142

# ==============================================================================================
# Run 143 (2026-11-27-h100-run143/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 143 (commit in bundle/COMMIT): three processes of `rgemm bench` of rung 11 at 4096³ and
# 8192³, timed in turn: the producer-warp kernel (`_wa`) against the same 8 × 8 tile without the
# producer warp (`_wa_lc`) and the 8 × 16 and 16 × 8 thread tiles on 128 × 256 blocks; then
# `rgemm tune --cases` of the thin bf16 `tn` and `tt` shapes, with the narrow tiles among the
# candidates, merged into the committed table.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run143; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
k=sgemm_11_tma_128x
for p in 1 2 3; do
  S=$SECONDS
  timeout 80 bundle/rgemm bench --kernel ${k}128x32_w64x32_t8x8_s4_wa --kernel ${k}128x32_w64x32_t8x8_s4_wa_lc --kernel ${k}256x32_w64x64_t8x16_s4_wa_lc --kernel ${k}256x32_w64x64_t16x8_s4_wa_lc --sizes 4096,8192 --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp dispatch/h100.tsv $D/dispatch.tsv
timeout 100 bundle/rgemm tune --dtype bf16 --cases 4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn,4096x16x4096:tt,4096x128x4096:tt --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1
echo "tune bf16 rc=$?" >> $D/rc.txt
cp bundle-diag/run143.sh $D/script.sh
cat $D/rc.txt; grep -h -A10 "fastest plan" $D/tune-*.log
python3 - $D <<'PY'
import json,glob,sys,collections
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/f32-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(run['kernel'][14:], s['m'])].append(round(100*cb/run['timing']['median_ms'],1))
for k in sorted(d): print(k, d[k])
PY
cd $OUT && tar czf run143.tgz run143 && rm -rf run143

# ==============================================================================================
# Run 144 (2026-11-27-h100-run144/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 144 (commit in bundle/COMMIT): Nsight Compute on rung 11's four kernels of run 143 at 4096³:
# issue, FMA pipe, shared-memory wavefronts and conflicts, and the stall reasons per issued
# instruction (why the kernels without a producer warp, and the 128-accumulator tiles, are slower).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run144; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
m="gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_lsu.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,launch__registers_per_thread"
for r in not_selected selected short_scoreboard long_scoreboard barrier wait mio_throttle math_pipe_throttle dispatch_stall no_instruction branch_resolving lg_throttle misc; do
  m="$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
for k in sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa_lc sgemm_11_tma_128x256x32_w64x64_t8x16_s4_wa_lc sgemm_11_tma_128x256x32_w64x64_t16x8_s4_wa_lc; do
  timeout 100 ncu --csv --page details --print-units base -k "regex:^${k}\$" --launch-count 1 --metrics "$m" bundle/rgemm run --kernel $k --m 4096 --n 4096 --k 4096 --iters 1 > $D/$k.csv 2> $D/$k.log
  echo "$k rc=$?" >> $D/rc.txt
done
cp bundle-diag/run144.sh $D/script.sh
cat $D/rc.txt
python3 - $D <<'PY'
import csv,io,glob,sys,os
rows={}
for f in sorted(glob.glob(sys.argv[1]+'/*.csv')):
    t=open(f).read(); s=t.find('"ID"')
    if s<0: continue
    k=os.path.basename(f)[14:-4]
    for r in csv.DictReader(io.StringIO(t[s:])):
        rows.setdefault(r['Metric Name'],{})[k]=r['Metric Value']
ks=sorted({k for v in rows.values() for k in v})
print('metric'.ljust(60),' | '.join(x[-22:] for x in ks))
for n in sorted(rows): print(n.replace('smsp__average_warps_issue_stalled_','stall_')[:60].ljust(60),' | '.join(rows[n].get(k,'-').rjust(22) for k in ks))
PY
cd $OUT && tar czf run144.tgz run144 && rm -rf run144

# ==============================================================================================
# Run 145 (2026-11-27-h100-run145/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 145 (bundle/COMMIT: c8cedbb plus an experiment switch): rung 14's persistent TMA-store bf16
# kernel on as few blocks as keep its rounds (512 tiles at 4096³ and 2048 at 8192³: 128 blocks of
# 4 and 16 tiles each, instead of 132 blocks of which 16 have one tile fewer), against the usual
# one block per SM: ten processes of `rgemm bench`, alternating, each with its own cuBLAS.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run145; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2 3 4 5 6 7 8 9 10; do
  S=$SECONDS
  if (( i % 2 )); then v=sms; unset RGEMM_EXPERIMENT_BALANCED; else v=balanced; export RGEMM_EXPERIMENT_BALANCED=1; fi
  timeout 40 bundle/rgemm bench --dtype bf16 --kernel $K --sizes 4096,8192 --iters 20 --out /tmp/b$i > $D/$v-p$i.log 2>&1; echo "$v p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/b$i/results.json $D/$v-p$i.json 2>/dev/null
done
unset RGEMM_EXPERIMENT_BALANCED
cp bundle-diag/run145.sh $D/script.sh
cat $D/rc.txt
python3 - $D <<'PY'
import json,glob,sys,collections,statistics as st
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/*-p*.json')):
    v=f.split('/')[-1].split('-')[0]
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(v, s['m'])].append((round(100*cb/run['timing']['median_ms'],1), round(run['timing']['median_ms'],4), round(cb,4)))
for k in sorted(d): print(k, 'median %', st.median(x[0] for x in d[k]), d[k])
PY
cd $OUT && tar czf run145.tgz run145 && rm -rf run145

# ==============================================================================================
# Run 146 (2026-11-27-h100-run146/script.sh)
# ==============================================================================================
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

# ==============================================================================================
# Run 147 (2026-11-27-h100-run147/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 147 (commit in bundle/COMMIT): rung 14's persistent TMA-store bf16 kernel with persistent
# launches on the fewest blocks that keep the rounds (now the rule), five processes of
# `rgemm bench` at 4096³ and 8192³, each with its own cuBLAS.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run147; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2 3 4 5; do
  S=$SECONDS
  timeout 40 bundle/rgemm bench --dtype bf16 --kernel $K --sizes 4096,8192 --iters 20 --out /tmp/b$i > $D/bf16-p$i.log 2>&1; echo "p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/b$i/results.json $D/bf16-p$i.json 2>/dev/null
done
cp bundle-diag/run147.sh $D/script.sh
cat $D/rc.txt; grep -h "PASS\|FAIL" $D/*.log | awk '{print $NF}' | sort | uniq -c
python3 - $D <<'PY'
import json,glob,sys,collections,statistics as st
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/bf16-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[s['m']].append((round(100*cb/run['timing']['median_ms'],1), round(run['timing']['median_ms'],4), round(cb,4)))
for k in sorted(d): print(k, 'median %', st.median(x[0] for x in d[k]), d[k])
PY
cd $OUT && tar czf run147.tgz run147 && rm -rf run147

# ==============================================================================================
# Run 148 (2026-11-27-h100-run148/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 148 (commit in bundle/COMMIT): the f16 twin of rung 14's persistent TMA-store kernel with
# persistent launches on the fewest blocks that keep the rounds, three processes of
# `rgemm bench` at 4096³ and 8192³, each with its own cuBLAS.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run148; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
K=hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2 3; do
  S=$SECONDS
  timeout 40 bundle/rgemm bench --dtype f16 --kernel $K --sizes 4096,8192 --iters 20 --out /tmp/b$i > $D/f16-p$i.log 2>&1; echo "p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/b$i/results.json $D/f16-p$i.json 2>/dev/null
done
cp bundle-diag/run148.sh $D/script.sh
cat $D/rc.txt; grep -h "PASS\|FAIL" $D/*.log | awk '{print $NF}' | sort | uniq -c
python3 - $D <<'PY'
import json,glob,sys,collections,statistics as st
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/f16-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[s['m']].append((round(100*cb/run['timing']['median_ms'],1), round(run['timing']['median_ms'],4), round(cb,4)))
for k in sorted(d): print(k, 'median %', st.median(x[0] for x in d[k]), d[k])
PY
cd $OUT && tar czf run148.tgz run148 && rm -rf run148

# ==============================================================================================
# Run 149 (2026-11-27-h100-run149/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 149 (commit in bundle/COMMIT): every GPU test; compute-sanitizer (memcheck, racecheck) on
# rungs 5-11 (thread-tile loops now `unroll_short!`) and rung 14's persistent kernels (fewer
# blocks: sizes of two rounds); then ten processes of `rgemm bench` of the persistent TMA-store
# bf16 kernel at 4096³ and 8192³, timed in turn, now with the ratio round by round.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run149; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
(OUT=$D/tests timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc=$?" >> $D/rc.txt) &
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
jobs=()
for k in sgemm_05_blocktile_2d_128x128x8_t8x8 sgemm_06_vectorized_128x128x8_t8x8 sgemm_07_transposed_a_128x128x8_t8x8 sgemm_08_double_buffer_128x128x8_t8x8_s2 \
         sgemm_09_warptile_128x256x8_w64x64_t8x16_s2 sgemm_10_cp_async_128x128x16_w64x32_t8x8_s4_sw sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa; do
  for tool in memcheck racecheck; do
    for s in "260 200 40 0" "136 104 72 0.5"; do jobs+=("$tool $k nn $s"); done
  done
done
for k in bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast bgemm_14_wgmma_tma_128x192x64_s4_persistent_tmast; do
  for tool in memcheck racecheck synccheck; do
    for s in "2176 2320 136 0" "1160 1800 72 0.5"; do jobs+=("$tool $k nn $s"); done
  done
done
printf '%s\n' "${jobs[@]}" | timeout 300 xargs -P 3 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$k-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --beta $6 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 beta $6 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
wait
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
tar czf $D/sanitize-logs.tgz -C $D $(cd $D && ls *check-*.log) && rm -f $D/*check-*.log
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2 3 4 5 6 7 8 9 10; do
  [ $SECONDS -gt 560 ] && break
  S=$SECONDS
  timeout 40 bundle/rgemm bench --dtype bf16 --kernel $K --sizes 4096,8192 --iters 30 --out /tmp/b$i > $D/bf16-p$i.log 2>&1; echo "p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/b$i/results.json $D/bf16-p$i.json 2>/dev/null
done
cp bundle-diag/run149.sh $D/script.sh
cut -c1-170 $D/sanitize.txt | grep -v "rc=0" | head; echo "sanitize ok: $(grep -c "rc=0" $D/sanitize.txt) of $(wc -l < $D/sanitize.txt)"
cat $D/rc.txt; grep "==" $D/tests-summary.txt | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5
grep -h -A3 "cuBLAS best" $D/bf16-p1.log | head -8
cd $OUT && tar czf run149.tgz run149 && rm -rf run149

# ==============================================================================================
# Run 150 (2026-11-27-h100-run150/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 150 (commit in bundle/COMMIT): the headline ratios from one run, five processes, each with its own
# cuBLAS figures, timed in turn (round by round kept): bf16 and f16 rung 14 (TMA-store persistent
# kernel) at 4096³ and 8192³, 30 launches; f32 rung 15 (3×TF32, `_presplit` and `_raw`) and rung 11
# against the best cuBLAS SGEMM at 4096³ and 8192³, 20 launches. Types in turn within a process.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run150; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
for p in 1 2 3 4 5; do
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
cp bundle-diag/run150.sh $D/script.sh
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
cd $OUT && tar czf run150.tgz run150 && rm -rf run150

# ==============================================================================================
# Run 151 (2026-11-27-h100-run151/script.sh)
# ==============================================================================================
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

# ==============================================================================================
# Run 153 (2026-11-27-h100-run153/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 153 (commit in bundle/COMMIT): rung 11 with double fragments (`_df`: A of the next four
# K-steps read while these four are multiplied) against `_wa`, four processes timed in turn at
# 4096³ and 8192³; compute-sanitizer memcheck and racecheck on `_df` first.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run153; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
K=sgemm_11_tma_128x128x32_w64x32_t8x8_s4
jobs=()
for tool in memcheck racecheck synccheck; do
  for s in "260 200 40 0" "136 104 72 0.5" "1000 1000 1000 0"; do jobs+=("$tool ${K}_wa_df nn $s"); done
done
printf '%s\n' "${jobs[@]}" | timeout 200 xargs -P 3 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --beta $6 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 beta $6 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
for p in 1 2 3 4; do
  [ $SECONDS -gt 480 ] && break
  S=$SECONDS
  timeout 80 bundle/rgemm bench --kernel ${K}_wa --kernel ${K}_wa_df --sizes 4096,8192 --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1; echo "p$p rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp bundle-diag/run153.sh $D/script.sh
cut -c1-170 $D/sanitize.txt; cat $D/rc.txt
python3 - $D <<'PY'
import json,glob,sys,collections,statistics as st
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/f32-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']
        for run in s['runs']:
            t=run.get('timing')
            if not t: continue
            pr=st.median([c/k for c,k in zip(cb['rounds_ms'],t['rounds_ms'])])
            d[(run['kernel'][-10:],s['m'])].append((round(100*pr,1), run['outcome']))
for k in sorted(d): print(k, 'per round median', st.median(x[0] for x in d[k]), d[k])
PY
rm -f $D/*check-*.log
cd $OUT && tar czf run153.tgz run153 && rm -rf run153

# ==============================================================================================
# Run 154 (2026-11-27-h100-run154/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 154 (commit in bundle/COMMIT): every GPU test with rung 11's double-fragment entry in the
# catalog (its walks over every kernel take it) and the bench's round order.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run154; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 400 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
cp bundle-diag/run154.sh $D/script.sh
cat $D/rc.txt; grep "==" $D/tests-summary.txt | tail -3; grep -E "FAILED|panicked|^not ok" $D/tests.log | head -10
cd $OUT && tar czf run154.tgz run154 && rm -rf run154

# ==============================================================================================
# Run 155 (2026-11-27-h100-run155/script.sh)
# ==============================================================================================
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
