# The scripts of the runs of 2026-11-26-h100.md, in run order: each ran on the GPU machine beside
# the bundle (scripts/gpu-bundle.sh) of its commit, with $OUT the folder that came back.

# ==============================================================================================
# Run 20 (2026-11-26-h100-run20/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Diagnostics: ncu of rung 15's four layouts at 4096^3 (source-level), bf16 clocks/power at 8192^3.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=$PWD/bundle/rgemm
D=/tmp/diag; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
# 1. bf16 at 8192^3: clocks and power, ours vs cuBLAS (torch), steady state.
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 50 > $D/smi.csv &
SMI=$!
sleep 1
echo "phase tmast $(date +%T.%N)" >> $D/phases.txt
$R run --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --m 8192 --n 8192 --k 8192 --iters 1500 > $D/run-tmast.txt 2>&1
echo "phase torch $(date +%T.%N)" >> $D/phases.txt
python3 - > $D/torch.txt 2>&1 <<'PY'
import torch, time
a=torch.randn(8192,8192,device='cuda',dtype=torch.bfloat16); b=torch.randn(8192,8192,device='cuda',dtype=torch.bfloat16)
for rep in range(3):
    torch.cuda.synchronize(); t=time.time(); n=0
    s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True); s.record()
    while time.time()-t<2.5:
        for _ in range(20): c=a@b
        n+=20; torch.cuda.synchronize()
    e.record(); torch.cuda.synchronize()
    print("torch bf16 8192^3", n, "launches", 2*8192**3*n/(s.elapsed_time(e)*1e-3)/1e12, "TFLOP/s")
PY
echo "phase pairs $(date +%T.%N)" >> $D/phases.txt
$R run --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs --m 8192 --n 8192 --k 8192 --iters 1500 > $D/run-pairs.txt 2>&1
echo "phase end $(date +%T.%N)" >> $D/phases.txt
kill $SMI
# 2. ncu of rung 15's layouts at 4096^3, full set with source counters.
for L in nn nt tn tt; do
  k=sgemm_15_tf32x3_128x128x32_s4_raw; [ $L != nn ] && k=${k}_$L
  timeout 150 ncu --set full -k "regex:^$k\$" --launch-count 1 -o $D/r15-$L $R run --kernel $k --m 4096 --n 4096 --k 4096 --layout $L --iters 1 > $D/ncu-r15-$L.log 2>&1
  ncu -i $D/r15-$L.ncu-rep --page details --csv --print-units base > $D/details-$L.csv 2>&1
  ncu -i $D/r15-$L.ncu-rep --page source --csv --print-source sass > $D/source-$L.csv 2>&1
done
# 3. bf16 8192^3 under ncu, ours and cuBLAS's kernels, clocks unlocked.
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct --csv --print-units base -k "regex:^(bgemm|sm90|nvjet|cutlass|gemm|Kernel)" $R run --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --m 8192 --n 8192 --k 8192 --iters 3 > $D/ncu-bf16-8192.csv 2>&1
rm -f $D/*.ncu-rep
cd /tmp && tar czf $OUT/diag.tgz diag

# ==============================================================================================
# Run 21 (2026-11-26-h100-run21/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Interleaved timing, bf16 clusters (grid and persistent) against the single-block kernels; rung 15 layouts.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=$PWD/bundle/rgemm
D=/tmp/exp2; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
# correctness of the cluster kernels on awkward sizes
for k in ${P}_c2_tmast ${P}_c2_persistent_tmast ${P}_c2_persistent_pairs; do
  for s in "1001 1000 1000" "4096 4096 4096" "129 8 64" "3000 264 4104"; do set -- $s
    $R run --kernel $k --m $1 --n $2 --k $3 --iters 3 2>&1 | grep -E "check|error|Error" | sed "s/^/$k $1x$2x$3: /" >> $D/checks.txt
  done
done
timeout 120 compute-sanitizer --tool memcheck $R run --kernel ${P}_c2_persistent_tmast --m 1001 --n 1000 --k 1000 --iters 1 > $D/memcheck.txt 2>&1; echo "memcheck rc $?" >> $D/checks.txt
timeout 120 compute-sanitizer --tool racecheck $R run --kernel ${P}_c2_persistent_tmast --m 520 --n 512 --k 256 --iters 1 > $D/racecheck.txt 2>&1; echo "racecheck rc $?" >> $D/checks.txt
# bf16, interleaved, 3 processes
for p in 1 2 3; do
  $R bench --dtype bf16 --kernel ${P}_persistent_tmast --kernel ${P}_persistent_pairs --kernel ${P}_tmast --kernel ${P}_c2_tmast --kernel ${P}_c2_persistent_tmast --kernel ${P}_c2_persistent_pairs --sizes 4096,8192 --iters 20 --out $D/bf16-p$p > $D/bf16-p$p.log 2>&1
done
# f32 rung 15 layouts, interleaved, 2 processes
F=sgemm_15_tf32x3_128x128x32_s4_raw
for p in 1 2; do
  $R bench --kernel $F --kernel ${F}_nt --kernel ${F}_tn --kernel ${F}_tt --kernel sgemm_15_tf32x3_128x128x32_s4_trunc --sizes 4096,4096:nt,4096:tn,4096:tt,8192 --iters 10 --out $D/f32-p$p > $D/f32-p$p.log 2>&1
done
cd /tmp && tar czf $OUT/exp2.tgz exp2

# ==============================================================================================
# Run 22 (2026-11-26-h100-run22/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Five processes per type, timed in turn; two with each contender sustained alone.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run22; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3 4 5; do
  timeout 100 $R bench --dtype bf16 --kernel ${P}_persistent_tmast --kernel ${P}_persistent_pairs --sizes 4096,8192 --iters 20 --out $D/bf16-p$i > $D/bf16-p$i.log 2>&1
done
for i in 1 2 3 4 5; do
  timeout 100 $R bench --kernel $F --kernel ${F}_tn --sizes 4096,8192,4096:tn,8192:tn --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1
done
for i in 1 2; do
  timeout 100 $R bench --dtype bf16 --kernel ${P}_persistent_tmast --sizes 4096,8192 --iters 20 --sustain 2000 --out $D/bf16-sustained-p$i > $D/bf16-sustained-p$i.log 2>&1
  timeout 100 $R bench --kernel $F --sizes 4096,8192 --iters 10 --sustain 2000 --out $D/f32-sustained-p$i > $D/f32-sustained-p$i.log 2>&1
done
cd /tmp && tar czf $OUT/run22.tgz run22

# ==============================================================================================
# Run 23 (2026-11-26-h100-run23/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Rung 15 with a splitter warpgroup (_ws): checks, sanitizers, and in-turn timing against _raw.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run23; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
W=sgemm_15_tf32x3_128x128x32_s4_ws
F=sgemm_15_tf32x3_128x128x32_s4_raw
for L in nn nt tn tt; do k=$W; [ $L != nn ] && k=${k}_$L
  for s in "1001 1000 1000" "4096 4096 4096" "129 8 64" "3000 264 4104" "1 4 4"; do set -- $s
    timeout 60 $R run --kernel $k --m $1 --n $2 --k $3 --layout $L --iters 3 2>&1 | grep -E "check|error" | sed "s/^/$k $1x$2x$3: /" >> $D/checks.txt
  done
  timeout 60 $R run --kernel $k --m 300 --n 260 --k 520 --layout $L --batch 3 --iters 3 2>&1 | grep -E "check|error" | sed "s/^/$k batch 3: /" >> $D/checks.txt
  timeout 120 compute-sanitizer --tool memcheck $R run --kernel $k --m 1001 --n 1000 --k 1000 --layout $L --iters 1 > $D/memcheck-$L.txt 2>&1; echo "memcheck $L rc $? $(tail -1 $D/memcheck-$L.txt)" >> $D/checks.txt
  timeout 120 compute-sanitizer --tool racecheck $R run --kernel $k --m 260 --n 264 --k 200 --layout $L --iters 1 > $D/racecheck-$L.txt 2>&1; echo "racecheck $L rc $? $(tail -1 $D/racecheck-$L.txt)" >> $D/checks.txt
  timeout 120 compute-sanitizer --tool synccheck $R run --kernel $k --m 260 --n 264 --k 200 --layout $L --iters 1 > $D/synccheck-$L.txt 2>&1; echo "synccheck $L rc $? $(tail -1 $D/synccheck-$L.txt)" >> $D/checks.txt
done
for i in 1 2 3; do
  timeout 150 $R bench --kernel $F --kernel ${F}_nt --kernel ${F}_tn --kernel ${F}_tt --kernel $W --kernel ${W}_nt --kernel ${W}_tn --kernel ${W}_tt --sizes 4096,4096:nt,4096:tn,4096:tt,8192,8192:tn --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1
done
timeout 100 $R bench --kernel $F --kernel $W --sizes 4096,8192 --iters 10 --sustain 2000 --out $D/f32-sustained-p1 > $D/f32-sustained-p1.log 2>&1
cd /tmp && tar czf $OUT/run23.tgz run23

# ==============================================================================================
# Run 25 (2026-11-26-h100-run25/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run25; mkdir -p $D
W=sgemm_15_tf32x3_128x128x32_s4_ws
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2; do
  timeout 150 $R bench --kernel $F --kernel ${F}_tn --kernel $W --kernel ${W}_tn --sizes 4096,4096:tn --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1
done
for k in $W ${W}_tn; do L=nn; [ $k != $W ] && L=tn
  timeout 150 ncu --set full -k "regex:^$k\$" --launch-count 1 -o $D/$L $R run --kernel $k --m 4096 --n 4096 --k 4096 --layout $L --iters 1 > $D/ncu-$L.log 2>&1
  ncu -i $D/$L.ncu-rep --page details --csv --print-units base > $D/details-ws-$L.csv 2>&1
  ncu -i $D/$L.ncu-rep --page source --csv --print-source sass > $D/source-ws-$L.csv 2>&1
done
rm -f $D/*.ncu-rep
cd /tmp && tar czf $OUT/run25.tgz run25

# ==============================================================================================
# Run 26 (2026-11-26-h100-run26/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
set -u
tar xzf bundle.tgz
mkdir -p /tmp/t /tmp/l
OUT=/tmp/t bash bundle/run.sh tests > /tmp/t-run.log 2>&1; echo "tests rc $?" > /tmp/final-rc.txt
OUT=/tmp/l bash bundle/library.sh layouts > /tmp/l-run.log 2>&1; echo "layouts rc $?" >> /tmp/final-rc.txt
cp /tmp/final-rc.txt /tmp/t-run.log /tmp/l-run.log $OUT/
cd /tmp && tar czf $OUT/final.tgz t l

# ==============================================================================================
# Run 28 (2026-11-26-h100-run28/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Rung 11 (SIMT, TMA) against cuBLAS SGEMM, timed in turn, three processes.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run28; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for i in 1 2 3; do
  timeout 150 $R bench --kernel sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa --sizes 4096,8192 --iters 10 --out $D/r11-p$i > $D/r11-p$i.log 2>&1
done
timeout 150 $R bench --kernel sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa --sizes 4096,8192 --iters 10 --sustain 2000 --out $D/r11-sustained-p1 > $D/r11-sustained-p1.log 2>&1
cd /tmp && tar czf $OUT/run28.tgz run28

# ==============================================================================================
# Run 29 (2026-11-26-h100-run29/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Rung 15 with two wgmma groups per K-tile (_halves): checks, sanitizers, in-turn timing against _raw.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run29; mkdir -p $D
H=sgemm_15_tf32x3_128x128x32_s4_halves
F=sgemm_15_tf32x3_128x128x32_s4_raw
for L in nn tn; do k=$H; [ $L != nn ] && k=${k}_$L
  for s in "1000 1000 1000" "4096 4096 4096" "128 8 64" "3000 264 4104" "8 4 4" "260 136 520"; do set -- $s
    timeout 60 $R run --kernel $k --m $1 --n $2 --k $3 --layout $L --iters 3 2>&1 | grep -E "check|error" | sed "s/^/$k $1x$2x$3: /" >> $D/checks.txt
  done
  timeout 60 $R run --kernel $k --m 300 --n 260 --k 520 --layout $L --batch 3 --iters 3 2>&1 | grep -E "check|error" | sed "s/^/$k batch 3: /" >> $D/checks.txt
  for tool in memcheck racecheck synccheck; do
    timeout 120 compute-sanitizer --tool $tool $R run --kernel $k --m 1000 --n 1000 --k 1000 --layout $L --iters 1 > $D/$tool-$L.txt 2>&1; echo "$tool $L rc $? $(tail -1 $D/$tool-$L.txt)" >> $D/checks.txt
  done
done
for i in 1 2 3; do
  timeout 150 $R bench --kernel $F --kernel ${F}_tn --kernel $H --kernel ${H}_tn --sizes 4096,8192,4096:tn --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1
done
cd /tmp && tar czf $OUT/run29.tgz run29

# ==============================================================================================
# Run 30 (2026-11-26-h100-run30/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B: rung 15's loop as before (a) and with the stage released and refilled before the flush (b),
# alternating processes, in turn with the best cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-a.gz rgemm-b.gz && chmod +x rgemm-a rgemm-b && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=/tmp/run30; mkdir -p $D
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3; do for v in a b; do
  RGEMM_COMMIT=$v timeout 120 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --kernel ${F}_nt --sizes 4096,8192,4096:tn,4096:nt --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1
done; done
cd /tmp && tar czf $OUT/run30.tgz run30

# ==============================================================================================
# Run 31 (2026-11-26-h100-run31/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
set -u
tar xzf bundle.tgz
mkdir -p /tmp/v
OUT=/tmp/v timeout 540 bash bundle/run.sh all sgemm_15 > /tmp/v-run.log 2>&1; echo "all rc $?" > /tmp/v-rc.txt
cp /tmp/v-rc.txt /tmp/v-run.log $OUT/
cd /tmp && tar czf $OUT/verify.tgz v

# ==============================================================================================
# Run 32 (2026-11-26-h100-run32/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B/C: rung 15 at HEAD (a), with trunc(x) stored as the transposing split's high part and R's
# addresses one per value (b), and b with the refill of K-tile kt-2's stage asked for at kt,
# before the wait (c); processes alternating, in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in a b c; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=/tmp/run32; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3; do for v in a b c; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --kernel ${F}_nt --kernel ${F}_tt --sizes 4096,8192,4096:tn,4096:nt,4096:tt --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
done; done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run32.tgz run32

# ==============================================================================================
# Run 33 (2026-11-26-h100-run33/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B: rung 15 with the refill asked for before the wait (c) and with its wgmma descriptors
# encoded once per K-tile and offset (d); processes alternating, in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in c d; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=/tmp/run33; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3; do for v in c d; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --kernel ${F}_nt --kernel ${F}_tt --sizes 4096,8192,4096:tn,4096:nt,4096:tt --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
done; done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run33.tgz run33

# ==============================================================================================
# Run 34 (2026-11-26-h100-run34/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 34: run.sh all over rung 15 on commit 618aae2 (every test, the sanitizers over rung 15).
set -u
tar xzf bundle.tgz
mkdir -p /tmp/v
OUT=/tmp/v timeout 560 bash bundle/run.sh all sgemm_15 > /tmp/v-run.log 2>&1; echo "all rc $?" > /tmp/v-rc.txt
cp /tmp/v-rc.txt /tmp/v-run.log bundle-diag/run34.sh /tmp/v/
cd /tmp && tar czf $OUT/run34.tgz v

# ==============================================================================================
# Run 35 (2026-11-26-h100-run35/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 35 (commit 618aae2): the fastest kernels of each type in all four layouts (library.sh
# layouts), then rung 15 in five processes timed in turn and two timed alone after 2 s.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run35; mkdir -p $D/l
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/l timeout 240 bash bundle/library.sh layouts > $D/layouts-run.log 2>&1; echo "layouts rc $?" >> $D/rc.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3 4 5; do
  timeout 100 $R bench --kernel $F --kernel ${F}_tn --sizes 4096,8192,4096:tn,8192:tn --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1; echo "f32-p$i rc $?" >> $D/rc.txt
done
for i in 1 2; do
  timeout 100 $R bench --kernel $F --sizes 4096,8192 --iters 10 --sustain 2000 --out $D/f32-sustained-p$i > $D/f32-sustained-p$i.log 2>&1; echo "f32-sustained-p$i rc $?" >> $D/rc.txt
done
cp bundle-diag/run35.sh $D/script.sh
cd /tmp && tar czf $OUT/run35.tgz run35

# ==============================================================================================
# Run 36 (2026-11-26-h100-run36/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 36: rung 14's TMA-store persistent kernel with three stages and a ring of four C buffers
# per warpgroup (_s3_persistent_tmast) against four stages and two (_s4_persistent_tmast):
# checks at odd sizes and batches with beta = 0 (the TMA-store path), the sanitizers over a grid
# that walks several tiles per block, and three processes timed in turn.
set -u
cd bundle-ab && gunzip -kf rgemm-e.gz && chmod +x rgemm-e && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=e
R=$PWD/bundle-ab/rgemm-e
D=/tmp/run36; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
P=bgemm_14_wgmma_tma_128x256x64
S3=${P}_s3_persistent_tmast
{
for args in "--m 4096 --n 4096 --k 4096" "--m 1000 --n 1000 --k 1000" "--m 4100 --n 2056 --k 264" "--m 520 --n 1800 --k 72 --batch 3" "--m 8 --n 8 --k 8" "--m 2100 --n 4096 --k 64"; do
  $R check --kernel $S3 $args --beta 0; $R check --kernel $S3 $args --beta 0.5
done
$R check --kernel $S3 --m 4096 --n 4096 --k 4096 --beta 0 --layout nt --skip-unsupported
for tool in memcheck racecheck synccheck initcheck; do
  echo "== $tool"; compute-sanitizer --tool $tool $R check --kernel $S3 --m 2100 --n 4096 --k 64 --beta 0 2>&1 | tail -3
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do
  timeout 100 $R bench --dtype bf16 --kernel ${P}_s4_persistent_tmast --kernel $S3 --sizes 4096,8192 --iters 20 --out $D/bf16-p$i > $D/bf16-p$i.log 2>&1; echo "p$i rc $?" >> $D/rc.txt
done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run36.tgz run36

# ==============================================================================================
# Run 37 (2026-11-26-h100-run37/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 37 (commit 47ef20a): rung 14's TMA-store persistent kernel and cuBLAS, timed in turn, at
# M = N = 4096 and 8192 over K from 256 to 8192: the time a tile costs besides its K-tiles.
set -u
cd bundle-ab && gunzip -kf rgemm-f.gz && chmod +x rgemm-f && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=47ef20a
R=$PWD/bundle-ab/rgemm-f
D=/tmp/run37; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2; do
  timeout 200 $R bench --dtype bf16 --kernel $K --sizes 4096x4096x256,4096x4096x512,4096x4096x1024,4096x4096x2048,4096x4096x4096,4096x4096x8192,8192x8192x256,8192x8192x1024,8192x8192x4096 --iters 20 --out $D/k-p$i > $D/k-p$i.log 2>&1; echo "p$i rc $?" >> $D/rc.txt
done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run37.tgz run37

# ==============================================================================================
# Run 38 (2026-11-26-h100-run38/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 38: every test, the GPU ones included, on commit c808797.
set -u
tar xzf bundle.tgz
mkdir -p /tmp/t
OUT=/tmp/t timeout 560 bash bundle/run.sh tests > /tmp/t-run.log 2>&1; echo "tests rc $?" > /tmp/t/rc.txt
cp /tmp/t-run.log bundle-diag/run38.sh /tmp/t/
cd /tmp && tar czf $OUT/run38.tgz t

# ==============================================================================================
# Run 39 (2026-11-26-h100-run39/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 39: rung 15's tn with S (A stored K×M) loaded from global memory into registers a K-tile
# ahead and written transposed by the split (g), against commit c808797, where the copy engine
# brings S and the split reads it back (a). Checks and sanitizers of g's tn; A/B in turn.
set -u
cd bundle-ab && for v in a g; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=/tmp/run39; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
G=bundle-ab/rgemm-g
{
for args in "--m 4096 --n 4096 --k 4096" "--m 130 --n 77 --k 99 --lda 132 --ldb 80" "--m 1001 --n 1003 --k 1005 --lda 1004 --ldb 1004" "--m 131 --n 140 --k 333 --lda 132 --batch 3" "--m 7 --n 9 --k 5 --lda 8 --ldb 12" "--m 3000 --n 264 --k 4104"; do
  $G check --kernel ${F}_tn --layout tn $args
done
for tool in memcheck racecheck synccheck initcheck; do
  echo "== $tool"; compute-sanitizer --tool $tool $G check --kernel ${F}_tn --layout tn --m 520 --n 300 --k 260 --lda 520 --ldb 300 2>&1 | tail -2
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in a g; do
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --sizes 4096,4096:tn,8192:tn --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1; echo "$v p$i rc $?" >> $D/rc.txt
done; done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run39.tgz run39

# ==============================================================================================
# Run 40 (2026-11-26-h100-run40/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 40: run.sh all over rung 15 on commit 6e83523 (every test, the sanitizers over rung 15).
set -u
tar xzf bundle.tgz
mkdir -p /tmp/v
OUT=/tmp/v timeout 560 bash bundle/run.sh all sgemm_15 > /tmp/v-run.log 2>&1; echo "all rc $?" > /tmp/v-rc.txt
cp /tmp/v-rc.txt /tmp/v-run.log bundle-diag/run40.sh /tmp/v/
cd /tmp && tar czf $OUT/run40.tgz v

# ==============================================================================================
# Run 41 (2026-11-26-h100-run41/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 41: run.sh all over the stream-K kernels (every test; the four sanitizers over them; their bench).
set -u
tar xzf bundle.tgz
mkdir -p /tmp/r41
OUT=/tmp/r41 timeout 570 bash bundle/run.sh all streamk > /tmp/r41-run.log 2>&1; echo "all rc $?" > /tmp/r41-rc.txt
cp /tmp/r41-rc.txt /tmp/r41-run.log bundle-diag/run41.sh /tmp/r41/
cd /tmp && tar czf $OUT/run41.tgz r41

# ==============================================================================================
# Run 42 (2026-11-26-h100-run42/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 42: the stream-K kernels under the four sanitizers on a launch with whole rounds and shared
# ones, checked at the sizes they exist for, and timed against the persistent kernel and cuBLAS in
# three alternating processes.
set -u
[ -d bundle ] || tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run42; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
SB=bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast
SH=hgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast
PB=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for tool in memcheck racecheck synccheck initcheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $R check --kernel $SB --kernel $SH --m 2048 --n 4352 --k 512 --beta 0 >> $D/sanitize.log 2>&1; echo "$tool rc $?" >> $D/rc.txt
done
for s in "4096 4096 4096 0" "8192 8192 8192 0" "6144 6144 6144 0.5" "256 256 131072 0" "4096 4096 1024 0.5"; do
  set -- $s
  timeout 120 $R check --kernel $SB --kernel $SH --m $1 --n $2 --k $3 --beta $4 >> $D/check.log 2>&1; echo "check $s rc $?" >> $D/rc.txt
done
SIZES=4096x4096x4096,8192x8192x8192,6144x6144x6144,3072x3072x3072,2048x2048x8192,4096x4096x1024
for i in 1 2 3; do
  timeout 100 $R bench --dtype bf16 --kernel $PB --kernel $SB --sizes $SIZES --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bf16 p$i rc $?" >> $D/rc.txt
done
timeout 100 $R bench --dtype f16 --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel $SH --sizes 4096x4096x4096,8192x8192x8192 --iters 20 --out $D/h-p1 > $D/h-p1.log 2>&1; echo "f16 p1 rc $?" >> $D/rc.txt
cp bundle-diag/run42.sh $D/script.sh
cd /tmp && tar czf $OUT/run42.tgz run42

# ==============================================================================================
# Run 46 (2026-11-26-h100-run46/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 46: stream-K in every layout. Sanitizers over the new kernels, checks where they cut, then
# the bf16 dispatch rows retuned with them as candidates (into a copy of the repository's table).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run46; rm -rf $D; mkdir -p $D/san
cp dispatch/h100.tsv $D/dispatch.tsv
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
S=$SECONDS
OUT=$D/san timeout 170 bash bundle/run.sh sanitize 'streamk_tmast_' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
for l in nt tn tt; do
  for dt in bgemm hgemm; do
    timeout 60 $R check --kernel ${dt}_14_wgmma_tma_128x256x64_s4_streamk_tmast_$l --layout $l --m 3072 --n 3072 --k 3072 >> $D/check.log 2>&1; echo "check $dt $l 3072 rc $?" >> $D/rc.txt
    timeout 60 $R check --kernel ${dt}_14_wgmma_tma_128x256x64_s4_streamk_tmast_$l --layout $l --m 128 --n 4096 --k 4096 --beta 0 >> $D/check.log 2>&1; echo "check $dt $l 128x4096x4096 rc $?" >> $D/rc.txt
  done
done
echo "checks $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 330 $R tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run46.sh $D/script.sh
cd /tmp && tar czf $OUT/run46.tgz run46

# ==============================================================================================
# Run 47 (2026-11-26-h100-run47/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 47: stream-K whose sharers wait for each other and each add up a share of the tile
# (cooperative launch). Sanitizers and checks over the stream-K kernels, persistent against
# stream-K in three processes timed in turn, then the bf16 rows retuned and the suite with them.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run47; rm -rf $D; mkdir -p $D/san
cp dispatch/h100.tsv $D/dispatch.tsv
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
S=$SECONDS
OUT=$D/san timeout 150 bash bundle/run.sh sanitize 'streamk_tmast' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
for l in nn nt tn tt; do
  sfx=_$l; [ $l = nn ] && sfx=
  for dt in bgemm hgemm; do
    timeout 60 $R check --kernel ${dt}_14_wgmma_tma_128x256x64_s4_streamk_tmast$sfx --layout $l --m 3072 --n 3072 --k 3072 >> $D/check.log 2>&1; echo "check $dt $l 3072 rc $?" >> $D/rc.txt
    timeout 60 $R check --kernel ${dt}_14_wgmma_tma_128x256x64_s4_streamk_tmast$sfx --layout $l --m 128 --n 4096 --k 4096 --beta 0 >> $D/check.log 2>&1; echo "check $dt $l 128x4096x4096 rc $?" >> $D/rc.txt
  done
done
timeout 60 $R check --kernel bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --m 256 --n 256 --k 131072 >> $D/check.log 2>&1; echo "check 256x256x131072 rc $?" >> $D/rc.txt
echo "checks $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
for i in 1 2 3; do
  timeout 60 $R bench --dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --sizes 3072x3072x3072,3072x3072x8192,1024x1024x16384,4096x4608x4096,2048x1024x8192,4096x4096x4096 --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bench p$i rc $?" >> $D/rc.txt
done
echo "bench $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 200 $R tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 120 $R bench --suite real --dtype bf16 --iters 10 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run47.sh $D/script.sh
cd /tmp && tar czf $OUT/run47.tgz run47

# ==============================================================================================
# Run 48 (2026-11-26-h100-run48/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 48: where stream-K's time goes at 128x4096x4096 nt (16 tiles, 8 slices each): Nsight Compute
# on one launch of the stream-K kernel and of the split-K plan's kernel, and the event timings.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run48; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
SK=bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast_nt
P=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt
for k in $SK $P; do
  timeout 60 $R run --kernel $k --layout nt --m 128 --n 4096 --k 4096 --iters 20 > $D/run-$k.log 2>&1
  timeout 120 ncu --kernel-name regex:bgemm_14 --launch-skip 3 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section LaunchStats --section SourceCounters --section MemoryWorkloadAnalysis $R run --kernel $k --layout nt --m 128 --n 4096 --k 4096 --iters 5 > $D/ncu-$k.txt 2>&1
  echo "$k rc $?" >> $D/rc.txt
done
timeout 60 ncu --kernel-name regex:bgemm_14 --launch-skip 3 --launch-count 1 --metrics gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.max,lts__t_bytes.sum,dram__bytes.sum $R run --kernel $SK --layout nt --m 3072 --n 3072 --k 3072 --iters 5 > $D/ncu-3072.txt 2>&1
cp bundle-diag/run48.sh $D/script.sh
cd /tmp && tar czf $OUT/run48.tgz run48

# ==============================================================================================
# Run 49 (2026-11-26-h100-run49/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 49: A/B of the stream-K hand-over on one device: the last arriver reads every partial
# (commit be9e3d6, "old") against every sharer adding up a share after a wait (b3a1608, "new"),
# three processes of each, alternating, each timing the persistent and the stream-K kernel and
# cuBLAS in turn.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run49; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-old.gz > $D/rgemm-old; chmod +x $D/rgemm-old
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
SIZES=3072x3072x3072,3072x3072x8192,1024x1024x16384,4096x4608x4096,2048x1024x8192,1000x1000x1000,1024x1024x32768,4096x4096x4096
for i in 1 2 3; do
  for v in old new; do
    if [ $v = old ]; then R=$D/rgemm-old; export RGEMM_COMMIT=be9e3d6; else R=$PWD/bundle/rgemm; export RGEMM_COMMIT=$(cat bundle/COMMIT); fi
    timeout 60 $R bench --dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --sizes $SIZES --iters 20 --out $D/$v-p$i > $D/$v-p$i.log 2>&1; echo "$v p$i rc $?" >> $D/rc.txt
  done
done
rm -f $D/rgemm-old
cp bundle-diag/run49.sh $D/script.sh
cd /tmp && tar czf $OUT/run49.tgz run49

# ==============================================================================================
# Run 50 (2026-11-26-h100-run50/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 50: every test on the final code (run.sh tests).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run50; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 420 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run50.sh $D/script.sh
cd /tmp && tar czf $OUT/run50.tgz run50

# ==============================================================================================
# Run 51 (2026-11-26-h100-run51/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 51: the real-shape suite for bf16 and f32 with the repository's table (built in), timed in turn.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run51; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
for dt in bf16 f32; do
  S=$SECONDS
  timeout 270 $R bench --suite real --dtype $dt --iters 10 --out $D/suite-$dt > $D/suite-$dt.log 2>&1; echo "suite $dt rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
cp bundle-diag/run51.sh $D/script.sh
cd /tmp && tar czf $OUT/run51.tgz run51

# ==============================================================================================
# Run 52 (2026-11-26-h100-run52/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 52: run.sh bench with a filter that matches kernels of two element types (bf16 and f16).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run52; rm -rf $D; mkdir -p $D/out
OUT=$D/out RGEMM_BENCH_SIZES=2048,3072 RGEMM_BENCH_ITERS=10 timeout 200 bash bundle/run.sh bench 'streamk_tmast$' > $D/bench.log 2>&1; echo "bench rc $?" >> $D/rc.txt
cp bundle-diag/run52.sh $D/script.sh
cd /tmp && tar czf $OUT/run52.tgz run52

# ==============================================================================================
# Run 53 (2026-11-26-h100-run53/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 53: the new 64 x 128 nn configuration: checks and sanitizers, then the bf16 rows retuned
# with it among the candidates (into a copy of the repository's table) and the suite with them.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run53; rm -rf $D; mkdir -p $D/san
cp dispatch/h100.tsv $D/dispatch.tsv
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
K=bgemm_14_wgmma_tma_64x128x64_s4_pairs
S=$SECONDS
OUT=$D/san timeout 100 bash bundle/run.sh sanitize "${K}\$" > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
for sz in "1000 1000 1000" "4096 4096 4096" "333 4099 1021"; do set -- $sz
  timeout 60 $R check --kernel $K --m $1 --n $2 --k $3 --skip-unsupported >> $D/check.log 2>&1; echo "check $sz rc $?" >> $D/rc.txt
done
for i in 1 2 3; do
  timeout 60 $R bench --dtype bf16 --kernel $K --kernel bgemm_14_wgmma_tma_128x128x64_s6 --sizes 1000x1000x1000,1024x1024x1024,2048x2048x1024 --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bench p$i rc $?" >> $D/rc.txt
done
S=$SECONDS
timeout 200 $R tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 150 $R bench --suite real --dtype bf16 --iters 10 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run53.sh $D/script.sh
cd /tmp && tar czf $OUT/run53.tgz run53

# ==============================================================================================
# Run 54 (2026-11-26-h100-run54/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 54: the new f16 twins: sanitizers and the catalog-wide GPU test over them, then the f16
# real-shape suite (the bf16 rows' f16 twins).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run54; rm -rf $D; mkdir -p $D/san
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
S=$SECONDS
OUT=$D/san timeout 150 bash bundle/run.sh sanitize 'hgemm_14_wgmma_tma_(128x256x64_s4_(pairs|tmast)|128x128x64_s6(_pairs_nt)?|64x256x64_s4_pairs_nt|64x128x64_s4_pairs(_nt)?)$' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 240 $R bench --suite real --dtype f16 --iters 10 --out $D/suite-f16 > $D/suite-f16.log 2>&1; echo "suite f16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run54.sh $D/script.sh
cd /tmp && tar czf $OUT/run54.tgz run54

# ==============================================================================================
# Run 55 (2026-11-26-h100-run55/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 55: the new f16 twins under the four sanitizers (run 54 matched none: the filter was
# an extended regex, which run.sh now reads as one), plus a filter that matches nothing.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run55; rm -rf $D; mkdir -p $D/san
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
S=$SECONDS
OUT=$D/san timeout 150 bash bundle/run.sh sanitize 'hgemm_14_wgmma_tma_(128x256x64_s4_(pairs|tmast)|128x128x64_s6(_pairs_nt)?|64x256x64_s4_pairs_nt|64x128x64_s4_pairs(_nt)?)$' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
OUT=$D/none timeout 30 bash bundle/run.sh sanitize 'no_such_kernel' > $D/none.log 2>&1; echo "sanitize of nothing rc $?" >> $D/rc.txt
cp bundle-diag/run55.sh $D/script.sh
cd /tmp && tar czf $OUT/run55.tgz run55

# ==============================================================================================
# Run 56 (2026-11-26-h100-run56/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 56: every test on the final code (run.sh tests).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run56; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 420 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run56.sh $D/script.sh
cd /tmp && tar czf $OUT/run56.tgz run56

# ==============================================================================================
# Run 57 (2026-11-26-h100-run57/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 57: (1) the f16 decode GEMV with the hardware conversion against cuBLAS, three processes;
# (2) the persistent TMA-store kernel's tile-order groups (4, 8, 16, 32 block rows) timed in turn
# at 4096³ and 8192³, three processes; (3) which kernels PyTorch's cuBLAS runs there.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run57; rm -rf $D; mkdir -p $D/san
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $D/smi.txt 2>&1
G=1x4096x4096:nt,1x6144x4096:nt,1x28672x4096:nt,1x4096x14336:nt,4x4096x4096:nt
for sz in "1 4096 4096" "3 1000 777" "4 28672 4096"; do set -- $sz
  timeout 60 $R check --kernel hgemm_00_gemv_1x8x256_nt --kernel hgemm_00_gemv_4x8x256_nt --layout nt --m $1 --n $2 --k $3 --skip-unsupported >> $D/check.log 2>&1; echo "check gemv $sz rc $?" >> $D/rc.txt
done
for i in 1 2 3; do
  timeout 60 $R bench --dtype f16 --kernel hgemm_00_gemv_1x8x256_nt --kernel hgemm_00_gemv_4x8x256_nt --sizes $G --iters 20 --out $D/gemv-f16-p$i > $D/gemv-f16-p$i.log 2>&1; echo "gemv f16 p$i rc $?" >> $D/rc.txt
done
K='bgemm_14_wgmma_tma_128x256x64_s4_persistent_(g[0-9]+_)?tmast$'
for k in g4 g16 g32; do
  for sz in "4096 4096 4096" "333 4099 1021" "3001 2999 3003"; do set -- $sz
    timeout 60 $R check --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_${k}_tmast --m $1 --n $2 --k $3 --skip-unsupported >> $D/check.log 2>&1; echo "check $k $sz rc $?" >> $D/rc.txt
  done
done
for i in 1 2 3; do
  timeout 90 $R bench --dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_g4_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_g16_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_g32_tmast --sizes 4096,8192,6144 --iters 20 --out $D/groups-p$i > $D/groups-p$i.log 2>&1; echo "groups p$i rc $?" >> $D/rc.txt
done
timeout 60 python3 bundle-diag/cublas_kernels.py 4096x4096x4096/bf16 8192x8192x8192/bf16 1x4096x4096:nt/f16 1x4096x4096:nt/bf16 > $D/cublas-kernels.txt 2>&1; echo "cublas kernels rc $?" >> $D/rc.txt
S=$SECONDS
OUT=$D/san timeout 150 bash bundle/run.sh sanitize 'bgemm_14_wgmma_tma_128x256x64_s4_persistent_g16_tmast$|hgemm_00_gemv_1x8x256_nt$' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run57.sh $D/script.sh
cd /tmp && tar czf $OUT/run57.tgz run57

# ==============================================================================================
# Run 58 (2026-11-26-h100-run58/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 58: (1) A/B of rung 15's paired rows of MN-major R (new) against the commit before it
# (old: one scalar load per fragment value), three processes of each, alternating, the four
# layouts' `_raw` kernels at 4096³ and 8192³ with cuBLAS timed in turn; (2) checks of the four at
# odd sizes and padded leading dimensions; sanitizers on them and on the persistent bf16 kernel
# (tile groups of 16); (3) the bf16 and f16 real-shape suites.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run58; rm -rf $D; mkdir -p $D/san
gunzip -c bundle-ab/rgemm-old.gz > $D/rgemm-old; chmod +x $D/rgemm-old
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader > $D/device.txt
R=$PWD/bundle/rgemm
F=sgemm_15_tf32x3_128x128x32_s4_raw
for l in nn nt tn tt; do
  k=$F; [ $l != nn ] && k=${F}_$l
  for sz in "1000 1004 1000" "333 4100 1020" "129 260 68" "4096 4096 4096"; do set -- $sz
    RGEMM_COMMIT=$(cat bundle/COMMIT) timeout 60 $R check --kernel $k --layout $l --m $1 --n $2 --k $3 >> $D/check.log 2>&1; echo "check $l $sz rc $?" >> $D/rc.txt
  done
  RGEMM_COMMIT=$(cat bundle/COMMIT) timeout 60 $R check --kernel $k --layout $l --m 300 --n 264 --k 136 --lda 140 --ldb 300 --ldc 270 >> $D/check.log 2>&1; echo "check $l ld rc $?" >> $D/rc.txt
done
for i in 1 2 3; do
  for v in old new; do
    if [ $v = old ]; then RR=$D/rgemm-old; export RGEMM_COMMIT=$(cat bundle-ab/COMMIT); else RR=$R; export RGEMM_COMMIT=$(cat bundle/COMMIT); fi
    timeout 100 $RR bench --dtype f32 --kernel $F --kernel ${F}_nt --kernel ${F}_tn --kernel ${F}_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn,8192:tn --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1; echo "$v p$i rc $?" >> $D/rc.txt
  done
done
rm -f $D/rgemm-old
export RGEMM_COMMIT=$(cat bundle/COMMIT)
S=$SECONDS
OUT=$D/san timeout 200 bash bundle/run.sh sanitize "${F}(_nt|_tn|_tt)?\$|bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast\$" > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in bf16 f16; do
  S=$SECONDS
  timeout 170 $R bench --suite real --dtype $t --iters 10 --out $D/suite-$t > $D/suite-$t.log 2>&1; echo "suite $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
cp bundle-diag/run58.sh $D/script.sh
cd /tmp && tar czf $OUT/run58.tgz run58

# ==============================================================================================
# Run 59 (2026-11-26-h100-run59/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 59: the bf16 processes table with tile groups of 16 (five processes timed in turn, two with
# each contender alone after two seconds of its own launches), and the f16 real-shape suite with
# the hardware conversion in the decode GEMV. Every step under its own limit, 480 s in all.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run59; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
for i in 1 2 3 4 5; do
  S=$SECONDS
  timeout 45 $R bench --dtype bf16 --kernel ${P}_persistent_tmast --kernel ${P}_persistent_pairs --sizes 4096,8192 --iters 20 --out $D/bf16-p$i > $D/bf16-p$i.log 2>&1; echo "bf16 p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp $D/bf16-p$i/results.json $D/bf16-p$i.json 2>/dev/null
done
for i in 1 2; do
  S=$SECONDS
  timeout 45 $R bench --dtype bf16 --kernel ${P}_persistent_tmast --sizes 4096,8192 --iters 20 --sustain 2000 --out $D/bf16-sustained-p$i > $D/bf16-sustained-p$i.log 2>&1; echo "bf16 sustained p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp $D/bf16-sustained-p$i/results.json $D/bf16-sustained-p$i.json 2>/dev/null
done
S=$SECONDS
timeout 170 $R bench --suite real --dtype f16 --iters 10 --out $D/suite-f16 > $D/suite-f16.log 2>&1; echo "suite f16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run59.sh $D/script.sh
cd /tmp && tar czf $OUT/run59.tgz run59

# ==============================================================================================
# Run 60 (2026-11-26-h100-run60/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 60: A/B of the persistent tile order's groups on one H100: 16 block rows (the bundle,
# commit 2cbf286) against 8 (the same tree with PERSISTENT_GROUP_M = 8), alternating processes:
# three of each timed in turn, then two of each with the kernel alone after two seconds of its
# own launches, at 4096³ and 8192³.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run60; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-g8.gz > $D/rgemm-g8; chmod +x $D/rgemm-g8
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
run() { # variant, label, extra args
  local v=$1 label=$2; shift 2
  if [ $v = g8 ]; then RR=$D/rgemm-g8; export RGEMM_COMMIT="$(cat bundle/COMMIT) with PERSISTENT_GROUP_M = 8"; else RR=$PWD/bundle/rgemm; export RGEMM_COMMIT=$(cat bundle/COMMIT); fi
  S=$SECONDS
  timeout 60 $RR bench --dtype bf16 --kernel $K --sizes 4096,8192 --iters 20 "$@" --out $D/$label > $D/$label.log 2>&1; echo "$label rc $? $((SECONDS-S)) s" >> $D/rc.txt
}
for i in 1 2 3; do for v in g8 g16; do run $v $v-p$i; done; done
for i in 1 2; do for v in g8 g16; do run $v $v-sustained-p$i --sustain 2000; done; done
rm -f $D/rgemm-g8
cp bundle-diag/run60.sh $D/script.sh
cd /tmp && tar czf $OUT/run60.tgz run60

# ==============================================================================================
# Run 61 (2026-11-26-h100-run61/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 61: decode GEMVs with two columns per warp (_1x16, _4x16) against one (_1x8, _4x8):
# checks at odd sizes and unaligned K, sanitizers, then three processes per type timed in turn
# with cuBLAS at M = 1, 2, 4.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run61; rm -rf $D; mkdir -p $D/san
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv > $D/gpu.txt
for p in b h s; do
  w=256; [ $p = s ] && w=128
  for sz in "1 4097 4096" "3 1001 777" "4 28672 4096" "2 64 8"; do set -- $sz
    timeout 40 $R check --kernel ${p}gemm_00_gemv_1x16x${w}_nt --kernel ${p}gemm_00_gemv_4x16x${w}_nt --layout nt --m $1 --n $2 --k $3 >> $D/check.log 2>&1; echo "check $p $sz rc $?" >> $D/rc.txt
  done
done
S=$SECONDS
OUT=$D/san timeout 120 bash bundle/run.sh sanitize 'gemm_00_gemv_[14]x16x(128|256)_nt$' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
G=1x4096x4096:nt,2x4096x4096:nt,4x4096x4096:nt,1x28672x4096:nt,4x28672x4096:nt,1x4096x14336:nt,4x4096x14336:nt
for i in 1 2 3; do
  for t in bf16 f16; do
    p=b; [ $t = f16 ] && p=h
    timeout 60 $R bench --dtype $t --kernel ${p}gemm_00_gemv_1x8x256_nt --kernel ${p}gemm_00_gemv_1x16x256_nt --kernel ${p}gemm_00_gemv_4x8x256_nt --kernel ${p}gemm_00_gemv_4x16x256_nt --sizes $G --iters 20 --out $D/$t-p$i > $D/$t-p$i.log 2>&1; echo "$t p$i rc $?" >> $D/rc.txt
  done
  timeout 60 $R bench --dtype f32 --kernel sgemm_00_gemv_1x8x128_nt --kernel sgemm_00_gemv_1x16x128_nt --kernel sgemm_00_gemv_4x8x128_nt --kernel sgemm_00_gemv_4x16x128_nt --sizes 1x4096x4096:nt,4x4096x4096:nt,1x28672x4096:nt,4x28672x4096:nt --iters 20 --out $D/f32-p$i > $D/f32-p$i.log 2>&1; echo "f32 p$i rc $?" >> $D/rc.txt
done
cp bundle-diag/run61.sh $D/script.sh
cd /tmp && tar czf $OUT/run61.tgz run61

# ==============================================================================================
# Run 62 (2026-11-26-h100-run62/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 62: every test on the final code (run.sh tests).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run62; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 400 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run62.sh $D/script.sh
cd /tmp && tar czf $OUT/run62.tgz run62

# ==============================================================================================
# Run 63 (2026-11-26-h100-run63/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 63: persistent clusters of two (multicast of B) against the one-block persistent kernel,
# on the current tree (commit in bundle-ab/COMMIT-c2 plus the experiment's entries): checks at odd
# sizes, then five processes timed in turn at 4096³ and 8192³, then two with --sustain 2000.
set -u
D=/tmp/run63; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-c2.gz > $D/rgemm; chmod +x $D/rgemm
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT="$(cat bundle-ab/COMMIT-c2) + persistent clusters of two (experiment)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
KS="--kernel ${P}_persistent_tmast --kernel ${P}_c2g8_persistent_tmast --kernel ${P}_c2g4_persistent_tmast"
S=$SECONDS
timeout 60 $D/rgemm bench --dtype bf16 --kernel ${P}_c2g8_persistent_tmast --kernel ${P}_c2g4_persistent_tmast --sizes 1000x1000x1000,264x3000x4104,3x256x520x136,4104x3000x264 --iters 2 --out $D/checks > $D/checks.log 2>&1; echo "checks rc $? $((SECONDS-S)) s" >> $D/rc.txt
for i in 1 2 3 4 5; do
  S=$SECONDS
  timeout 70 $D/rgemm bench --dtype bf16 $KS --sizes 4096,8192 --iters 20 --out $D/p$i > $D/p$i.log 2>&1; echo "p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for i in 1 2; do
  S=$SECONDS
  timeout 80 $D/rgemm bench --dtype bf16 $KS --sizes 4096,8192 --iters 20 --sustain 2000 --out $D/sustained-p$i > $D/sustained-p$i.log 2>&1; echo "sustained-p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
rm -f $D/rgemm
cp bundle-diag/run63.sh $D/script.sh
cd /tmp && tar czf $OUT/run63.tgz run63

# ==============================================================================================
# Run 64 (2026-11-26-h100-run64/run64.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 64: where the time goes in the decode-batch linear layers (bf16, y = x·Wᵀ, M = 16 and 128):
# per-kernel durations under Nsight Compute (clocks not locked) of the automatic plan and of the
# cuBLAS calls in the same process, and the kernels PyTorch's cuBLAS launches with their times.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run64; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
timeout 90 python3 bundle-diag/cublas_times.py 16x4096x4096:nt/bf16 128x4096x4096:nt/bf16 128x6144x4096:nt/bf16 16x6144x4096:nt/bf16 > $D/torch.txt 2>&1; echo "torch rc $?" >> $D/rc.txt
for m in 16 128; do
  S=$SECONDS
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size --csv bundle/rgemm run --kernel best-bf16 --m $m --n 4096 --k 4096 --layout nt --iters 3 > $D/ncu-m$m.csv 2> $D/ncu-m$m.err; echo "ncu m$m rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS
timeout 60 bundle/rgemm run --kernel best-bf16 --m 128 --n 4096 --k 4096 --layout nt --iters 20 > $D/run-m128.txt 2>&1; echo "run m128 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run64.sh bundle-diag/cublas_times.py $D/
cd /tmp && tar czf $OUT/run64.tgz run64

# ==============================================================================================
# Run 65 (2026-11-26-h100-run65/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 65: deeper rings and 64 × 64 tiles for the linear layers of few rows (bf16): the bf16 rows
# of the dispatch table retuned with three new candidates (64x128x64_s8_pairs_nt,
# 64x64x64_s12_pairs_nt, 64x64x64_s12_tmast_nt), then the real-shape suite on that table.
set -u
D=/tmp/run65; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-narrow.gz > $D/rgemm; chmod +x $D/rgemm
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT="$(cat bundle-ab/COMMIT-narrow) + three narrow nt entries (experiment)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma
S=$SECONDS
timeout 60 $D/rgemm bench --dtype bf16 --kernel ${P}_64x128x64_s8_pairs_nt --kernel ${P}_64x64x64_s12_pairs_nt --kernel ${P}_64x64x64_s12_tmast_nt --kernel ${P}_128x128x64_s6_pairs_nt --sizes 16x4096x4096:nt,128x4096x4096:nt,128x6144x4096:nt,16x6144x4096:nt,1000x1000x1000:nt,130x4100x4096:nt --iters 10 --out $D/direct > $D/direct.log 2>&1; echo "direct rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 200 $D/rgemm tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 150 $D/rgemm bench --suite real --dtype bf16 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite rc $? $((SECONDS-S)) s" >> $D/rc.txt
rm -f $D/rgemm
cp bundle-diag/run65.sh $D/script.sh
cd /tmp && tar czf $OUT/run65.tgz run65

# ==============================================================================================
# Run 66 (2026-11-26-h100-run66/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 66: every GPU test on the committed bundle (the narrow nt configurations among the catalog's
# kernels), then the four sanitizers over the six new entries.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run66; rm -rf $D; mkdir -p $D/tests $D/san
S=$SECONDS
OUT=$D/tests timeout 270 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
OUT=$D/san timeout 240 bash bundle/run.sh sanitize '(64x64x64_s12|64x128x64_s8)' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle/COMMIT $D/; cp bundle-diag/run66.sh $D/script.sh
cd /tmp && tar czf $OUT/run66.tgz run66

# ==============================================================================================
# Run 67 (2026-11-26-h100-run67/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 67: the narrow configurations against the decode GEMV at 2 to 8 rows (bf16), the f16 suite
# with the retuned table (f16 takes each bf16 row's twin), and the bf16 suite again.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run67; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
P=bgemm_14_wgmma_tma
S=$SECONDS
timeout 100 $R bench --dtype bf16 --kernel bgemm_00_gemv_4x8x256_nt --kernel ${P}_64x64x64_s12_tmast_nt --kernel ${P}_64x128x64_s8_pairs_nt --sizes 2x4096x4096:nt,4x4096x4096:nt,8x4096x4096:nt,4x6144x4096:nt,4x4096x14336:nt --iters 10 --out $D/few-rows > $D/few-rows.log 2>&1; echo "few rows rc $? $((SECONDS-S)) s" >> $D/rc.txt
for m in 2 4 8; do timeout 20 $R run --kernel best-bf16 --m $m --n 4096 --k 4096 --layout nt --iters 10 > $D/best-m$m.txt 2>&1; echo "best m$m rc $?" >> $D/rc.txt; done
S=$SECONDS
timeout 190 $R bench --suite real --dtype f16 --out $D/suite-f16 > $D/suite-f16.log 2>&1; echo "suite f16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 170 $R bench --suite real --dtype bf16 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run67.sh $D/script.sh
cd /tmp && tar czf $OUT/run67.tgz run67

# ==============================================================================================
# Run 68 (2026-11-26-h100-run68/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 68: every GPU test on the committed bundle (decode rows per type; a GEMV row runs the GEMV
# that holds all M rows), then the automatic plans at a few rows.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run68; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
for mk in "2 4096" "3 4096" "4 4096" "4 4095" "8 4096"; do set -- $mk
  for t in bf16 f16 f32; do k=best-$t; [ $t = f32 ] && k=best
    timeout 20 bundle/rgemm run --kernel $k --m $1 --n 4096 --k $2 --layout nt --iters 5 > $D/best-$t-m$1-k$2.txt 2>&1; echo "best $t m$1 k$2 rc $?" >> $D/rc.txt
  done
done
cp bundle/COMMIT $D/; cp bundle-diag/run68.sh $D/script.sh
cd /tmp && tar czf $OUT/run68.tgz run68

# ==============================================================================================
# Run 69 (2026-11-26-h100-run69/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 69: two independent accumulator chains per warpgroup in the narrow nt tiles (experiment:
# _64x64x64_s13_tmast_nt and _64x128x64_s9_pairs_nt carry two chains; s12, s8 one), A/B in one
# process, with the L2 flushed and without.
set -u
D=/tmp/run69; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-chains.gz > $D/rgemm; chmod +x $D/rgemm
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT="271da47 + two accumulator chains (experiment)"
P=bgemm_14_wgmma_tma
KS="--kernel ${P}_64x64x64_s12_tmast_nt --kernel ${P}_64x64x64_s13_tmast_nt --kernel ${P}_64x128x64_s8_pairs_nt --kernel ${P}_64x128x64_s9_pairs_nt"
SZ=4x4096x4096:nt,16x4096x4096:nt,128x4096x4096:nt,128x6144x4096:nt,16x6144x4096:nt,128x4096x14336:nt,130x4100x4096:nt
for i in 1 2; do
S=$SECONDS
timeout 100 $D/rgemm bench --dtype bf16 $KS --sizes $SZ --iters 10 --out $D/flushed-p$i > $D/flushed-p$i.log 2>&1; echo "flushed p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS
timeout 100 $D/rgemm bench --dtype bf16 $KS --sizes $SZ --iters 10 --no-flush --out $D/warm > $D/warm.log 2>&1; echo "warm rc $? $((SECONDS-S)) s" >> $D/rc.txt
rm -f $D/rgemm
cp bundle-diag/run69.sh $D/script.sh
cd /tmp && tar czf $OUT/run69.tgz run69

# ==============================================================================================
# Run 70 (2026-11-26-h100-run70/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 70: Nsight Compute (full set, source counters) of the 64 x 64 nt kernel at 16 and 128 rows
# against a 4096 x 4096 weight, and of cuBLAS's kernels at 16 rows: what limits the narrow tile.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run70; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=$PWD/bundle/rgemm
k=bgemm_14_wgmma_tma_64x64x64_s12_tmast_nt
for m in 16 128; do
  S=$SECONDS
  timeout 150 ncu --set full -k "regex:^$k\$" --launch-count 1 -o $D/n64-m$m $R run --kernel $k --m $m --n 4096 --k 4096 --layout nt --iters 1 > $D/ncu-m$m.log 2>&1; echo "ncu m$m rc $? $((SECONDS-S)) s" >> $D/rc.txt
  ncu -i $D/n64-m$m.ncu-rep --page details --csv --print-units base > $D/details-m$m.csv 2>&1
  ncu -i $D/n64-m$m.ncu-rep --page source --csv --print-source sass > $D/source-m$m.csv 2>&1
done
gzip $D/source-*.csv
S=$SECONDS
timeout 120 ncu --set full -k "regex:^(nvjet|sm90|cutlass|gemm)" --launch-count 1 -o $D/cublas-m16 $R run --kernel $k --m 16 --n 4096 --k 4096 --layout nt --iters 1 > $D/ncu-cublas.log 2>&1; echo "ncu cublas rc $? $((SECONDS-S)) s" >> $D/rc.txt
ncu -i $D/cublas-m16.ncu-rep --page details --csv --print-units base > $D/details-cublas-m16.csv 2>&1
rm -f $D/*.ncu-rep
cp bundle-diag/run70.sh $D/script.sh
cd /tmp && tar czf $OUT/run70.tgz run70

# ==============================================================================================
# Run 71 (2026-11-26-h100-run71/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B: rung 15 at HEAD (base) and with warpgroup 1 issuing each K-tile's group after warpgroup 0's
# (pp: a bar.arrive / bar.sync turn); checks, sanitizers, then processes alternating, in turn
# with the best cuBLAS.
set -u
cd bundle-ab && for v in base pp; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run71; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
B=bundle-ab/rgemm-pp
{
for l in nn nt tn tt; do
  k=$F; [ $l != nn ] && k=${F}_$l
  timeout 60 $B check --kernel $k --layout $l --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 260 --n 136 --k 520 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 4096 --n 4096 --k 4096; echo "rc=$?"
done
for l in nn tn; do
  k=$F; [ $l != nn ] && k=${F}_$l
  for tool in synccheck racecheck; do
    timeout 90 compute-sanitizer --tool $tool $B check --kernel $k --layout $l --m 136 --n 260 --k 200 2>&1 | tail -3; echo "$tool $l rc=$?"
  done
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base pp; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --kernel ${F}_nt --kernel ${F}_tt --sizes 4096,8192,4096:tn,4096:nt,4096:tt --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
done; done
cp bundle-diag/run71.sh $D/script.sh

# ==============================================================================================
# Run 72 (2026-11-26-h100-run72/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B/C: rung 15 at HEAD (base); with tn's S read from global memory by the warps instead of the
# copy engine (g); g with an L2 prefetch of S three K-tiles ahead (gp). Checks and sanitizers of gp
# in tn, then processes alternating, in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base g gp; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run72; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
B=bundle-ab/rgemm-gp
{
for l in tn; do
  k=$F; [ $l != nn ] && k=${F}_$l
  timeout 60 $B check --kernel $k --layout $l --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 260 --n 136 --k 520 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 135 --n 260 --k 203 --lda 140; echo "rc=$?"
  timeout 60 bundle-ab/rgemm-g check --kernel $k --layout $l --m 135 --n 260 --k 203 --lda 140; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 4096 --n 4096 --k 4096; echo "rc=$?"
done
for l in tn; do
  k=$F; [ $l != nn ] && k=${F}_$l
  for tool in memcheck synccheck racecheck; do
    timeout 90 compute-sanitizer --tool $tool $B check --kernel $k --layout $l --m 136 --n 260 --k 200 2>&1 | tail -3; echo "$tool $l rc=$?"
  done
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base g gp; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --sizes 4096,4096:tn,8192:tn --iters 10 --out /tmp/r72/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r72/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run72.sh $D/script.sh

# ==============================================================================================
# Run 73 (2026-11-26-h100-run73/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B: rung 15 at HEAD (base); with tn computing C itself, B the shared operand transposed by the
# split and A the register operand, as tt does (tc). Checks and sanitizers of tc in tn, then
# processes alternating, in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base tc; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run73; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
B=bundle-ab/rgemm-tc
{
for l in tn; do
  k=$F; [ $l != nn ] && k=${F}_$l
  timeout 60 $B check --kernel $k --layout $l --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 260 --n 136 --k 520 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 135 --n 260 --k 203 --lda 140; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 4096 --n 4096 --k 4096; echo "rc=$?"
done
for l in tn; do
  k=$F; [ $l != nn ] && k=${F}_$l
  for tool in memcheck synccheck racecheck; do
    timeout 90 compute-sanitizer --tool $tool $B check --kernel $k --layout $l --m 136 --n 260 --k 200 2>&1 | tail -3; echo "$tool $l rc=$?"
  done
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base tc; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --sizes 4096,4096:tn,8192:tn --iters 10 --out /tmp/r73/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r73/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run73.sh $D/script.sh

# ==============================================================================================
# Run 74 (2026-11-26-h100-run74/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Small square-ish products in bf16 and f16: the 64 × 128 tile with a ring of 8 stages (pair
# stores, or the copy engine's stores) against the 4-stage tile the table picks at 1000³; checks,
# then three processes timed in turn with the best cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-s8.gz && chmod +x rgemm-s8 && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run74; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-s8
{
for t in bgemm hgemm; do for k in ${t}_14_wgmma_tma_64x128x64_s8_pairs ${t}_14_wgmma_tma_64x128x64_s8_tmast; do
  timeout 60 $B check --kernel $k --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 130 --n 264 --k 1000 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 67 --n 136 --k 72 --ldc 140; echo "rc=$?"
done; done
for tool in memcheck racecheck synccheck initcheck; do
  timeout 100 compute-sanitizer --tool $tool $B check --kernel bgemm_14_wgmma_tma_64x128x64_s8_pairs --kernel bgemm_14_wgmma_tma_64x128x64_s8_tmast --m 130 --n 264 --k 1000 --beta 0 2>&1 | tail -2; echo "$tool rc=$?"
done
} > $D/checks.txt 2>&1
S=1000,1024,768,1536,1000x1000x4000,2048x1024x1024
for i in 1 2 3; do for t in bgemm hgemm; do
  s=$SECONDS
  timeout 100 $B bench --kernel ${t}_14_wgmma_tma_64x128x64_s4_pairs --kernel ${t}_14_wgmma_tma_64x128x64_s8_pairs --kernel ${t}_14_wgmma_tma_64x128x64_s8_tmast --kernel ${t}_14_wgmma_tma_128x128x64_s6 --sizes $S --iters 20 --out /tmp/r74/$t-p$i > $D/$t-p$i.log 2>&1
  echo "$t p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r74/$t-p$i/results.json $D/$t-p$i.json
done; done
cp bundle-diag/run74.sh $D/script.sh

# ==============================================================================================
# Run 75 (2026-11-26-h100-run75/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 75: every GPU test on the committed bundle (the 8-stage 64 × 128 nn entries among the
# catalog's kernels), then the bf16 and f16 suites with the retuned 1000³ row.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run75; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 270 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
S=$SECONDS
timeout 135 $R bench --suite real --dtype bf16 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 135 $R bench --suite real --dtype f16 --out $D/suite-f16 > $D/suite-f16.log 2>&1; echo "suite f16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle/COMMIT $D/; cp bundle-diag/run75.sh $D/script.sh
cd /tmp && tar czf $OUT/run75.tgz run75

# ==============================================================================================
# Run 76 (2026-11-26-h100-run76/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Mid-size products in bf16 that the table's nearest row (1000³ or 4096³) decides: the candidate
# tiles side by side, three processes timed in turn with the best cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-s8.gz && chmod +x rgemm-s8 && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run76; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-s8
P=bgemm_14_wgmma_tma
S=1536,2048,3072,2048x1024x1024,1024x2048x1024,2048x2048x1024,1024x1024x2048,1536x1536x4096
for i in 1 2 3; do
  s=$SECONDS
  timeout 150 $B bench --kernel ${P}_128x256x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_tmast --kernel ${P}_128x256x64_s4_streamk_tmast --kernel ${P}_128x128x64_s6 --kernel ${P}_64x128x64_s8_tmast --sizes $S --iters 20 --out /tmp/r76/p$i > $D/mid-p$i.log 2>&1
  echo "p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r76/p$i/results.json $D/mid-p$i.json
done
cp bundle-diag/run76.sh $D/script.sh

# ==============================================================================================
# Run 77 (2026-11-26-h100-run77/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B: rung 15 at HEAD (base); with K-tiles in pairs, one group of 24 wgmmas per pair (pr).
# Checks and sanitizers of pr in nn and tt (no spills there), then processes alternating, in turn
# with the best cuBLAS.
set -u
cd bundle-ab && for v in base pr; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run77; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
B=bundle-ab/rgemm-pr
{
for l in nn tt; do
  k=$F; [ $l != nn ] && k=${F}_$l
  timeout 60 $B check --kernel $k --layout $l --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 260 --n 136 --k 520 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 132 --n 258 --k 203 --ldb 260; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 4096 --n 4096 --k 4096; echo "rc=$?"
done
for l in nn tt; do
  k=$F; [ $l != nn ] && k=${F}_$l
  for tool in memcheck synccheck racecheck; do
    timeout 90 compute-sanitizer --tool $tool $B check --kernel $k --layout $l --m 136 --n 260 --k 200 2>&1 | tail -3; echo "$tool $l rc=$?"
  done
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base pr; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tt --sizes 4096,8192,4096:tt --iters 10 --out /tmp/r77/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r77/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run77.sh $D/script.sh

# ==============================================================================================
# Run 78 (2026-11-26-h100-run78/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 78: the bf16 rows of the dispatch table retuned with the 8-stage 64 × 128 nn entries among
# the candidates (the suite's deep-K and small cases may take them, directly or split), then the
# real-shape suite on that table.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run78; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
cp dispatch/h100.tsv $D/dispatch.tsv
S=$SECONDS
timeout 220 $R tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 150 $R bench --suite real --dtype bf16 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle/COMMIT $D/; cp bundle-diag/run78.sh $D/script.sh
cd /tmp && tar czf $OUT/run78.tgz run78

# ==============================================================================================
# Run 79 (2026-11-26-h100-run79/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# 128 × 192 tiles (wgmma n192; grid and persistent, TMA stores) against the 128 × 256 kernels at
# sizes that are multiples of 192: checks and sanitizers, then three processes timed in turn.
set -u
cd bundle-ab && gunzip -kf rgemm-w192.gz && chmod +x rgemm-w192 && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run79; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-w192
P=bgemm_14_wgmma_tma
{
for k in ${P}_128x192x64_s4_tmast ${P}_128x192x64_s4_persistent_tmast; do
  timeout 60 $B check --kernel $k --m 1536 --n 1536 --k 1536 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 130 --n 392 --k 264 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 67 --n 200 --k 72 --ldc 204; echo "rc=$?"
done
for tool in memcheck racecheck synccheck initcheck; do
  timeout 100 compute-sanitizer --tool $tool $B check --kernel ${P}_128x192x64_s4_tmast --kernel ${P}_128x192x64_s4_persistent_tmast --m 260 --n 392 --k 264 --beta 0 2>&1 | tail -2; echo "$tool rc=$?"
done
} > $D/checks.txt 2>&1
S=1536,2304,3072,4608,6144,1536x1536x4096,4096
for i in 1 2 3; do
  s=$SECONDS
  timeout 150 $B bench --kernel ${P}_128x192x64_s4_tmast --kernel ${P}_128x192x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_tmast --kernel ${P}_128x256x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_streamk_tmast --sizes $S --iters 10 --out /tmp/r79/p$i > $D/w-p$i.log 2>&1
  echo "p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r79/p$i/results.json $D/w-p$i.json
done
cp bundle-diag/run79.sh $D/script.sh

# ==============================================================================================
# Run 80 (2026-11-26-h100-run80/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 80: every GPU test on the committed bundle (the 128 × 192 entries among the kernels), and
# the f16 twins of the 128 × 192 entries checked and sanitized.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run80; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle/rgemm; P=hgemm_14_wgmma_tma
{
for k in ${P}_128x192x64_s4_tmast ${P}_128x192x64_s4_persistent_tmast; do
  timeout 60 $R check --kernel $k --m 1536 --n 1536 --k 1536 --beta 0; echo "rc=$?"
  timeout 60 $R check --kernel $k --m 130 --n 392 --k 264 --batch 3; echo "rc=$?"
done
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool $R check --kernel ${P}_128x192x64_s4_tmast --kernel ${P}_128x192x64_s4_persistent_tmast --m 260 --n 392 --k 264 --beta 0 2>&1 | tail -2; echo "$tool rc=$?"
done
} > $D/checks-f16.txt 2>&1
cp bundle/COMMIT $D/; cp bundle-diag/run80.sh $D/script.sh
cd /tmp && tar czf $OUT/run80.tgz run80

# ==============================================================================================
# Run 81 (2026-11-26-h100-run81/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 81: every GPU test on the final bundle of this stop (the dispatch test asks at 3840³ now),
# and the f16 twins of the 128 × 192 entries checked again.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run81; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle/rgemm; P=hgemm_14_wgmma_tma
{
for k in ${P}_128x192x64_s4_tmast ${P}_128x192x64_s4_persistent_tmast; do
  timeout 60 $R check --kernel $k --m 1536 --n 1536 --k 1536 --beta 0; echo "rc=$?"
  timeout 60 $R check --kernel $k --m 130 --n 392 --k 264 --batch 3; echo "rc=$?"
done
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool $R check --kernel ${P}_128x192x64_s4_tmast --kernel ${P}_128x192x64_s4_persistent_tmast --m 260 --n 392 --k 264 --beta 0 2>&1 | tail -2; echo "$tool rc=$?"
done
} > $D/checks-f16.txt 2>&1
cp bundle/COMMIT $D/; cp bundle-diag/run81.sh $D/script.sh
cd /tmp && tar czf $OUT/run81.tgz run81

# ==============================================================================================
# Run 82 (2026-11-26-h100-run82/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Stream-K runs laid end to end over a last round more than half full (4096³: 116 tiles on 132
# SMs): checks, sanitizers, then the persistent and stream-K kernels timed in turn.
set -u
cd bundle-ab && gunzip -kf rgemm-runs.gz && chmod +x rgemm-runs && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run82; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-runs
P=bgemm_14_wgmma_tma_128x256x64_s4
H=hgemm_14_wgmma_tma_128x256x64_s4
{
for k in ${P}_streamk_tmast ${H}_streamk_tmast; do
  timeout 60 $B check --kernel $k --m 4096 --n 4096 --k 4096 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 1280 --n 2560 --k 520 --beta 0.5; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 1280 --n 2560 --k 512 --batch 2 --beta 0; echo "rc=$?"
done
timeout 60 $B check --kernel ${P}_streamk_tmast_nt --m 4096 --n 4096 --k 1024 --beta 0; echo "rc=$?"
timeout 60 $B check --kernel ${P}_streamk_tmast_tn --m 6144 --n 6144 --k 1024 --beta 0; echo "rc=$?"
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool $B check --kernel ${P}_streamk_tmast --m 1280 --n 2560 --k 512 --beta 0 2>&1 | tail -2; echo "$tool rc=$?"
done
} > $D/checks.txt 2>&1
echo "checks done $SECONDS s" >> $D/times.txt
for i in 1 2 3; do
  s=$SECONDS
  timeout 100 $B bench --kernel ${P}_persistent_tmast --kernel ${P}_streamk_tmast --sizes 4096,8192,6144,7168,4096x4096x1024 --iters 10 --out /tmp/r82/b$i > $D/bf16-p$i.log 2>&1
  echo "bf16 p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r82/b$i/results.json $D/bf16-p$i.json
done
for i in 1 2; do
  s=$SECONDS
  timeout 60 $B bench --kernel ${H}_persistent_tmast --kernel ${H}_streamk_tmast --sizes 4096,8192 --iters 10 --out /tmp/r82/h$i > $D/f16-p$i.log 2>&1
  echo "f16 p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r82/h$i/results.json $D/f16-p$i.json
done
cp bundle-diag/run82.sh $D/script.sh
cd $OUT && tar czf run82.tgz run82

# ==============================================================================================
# Run 83 (2026-11-26-h100-run83/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# The width rule between measured rows (bf16: 192- and 256-wide persistent tiles, stream-K, and
# what the automatic choice runs), the f16 128 × 192 twins against cuBLAS, and the f16 8-stage
# 64 × 128 twins under the sanitizers.
set -u
cd bundle-ab && gunzip -kf rgemm-head.gz && chmod +x rgemm-head && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run83; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-head
P=bgemm_14_wgmma_tma
H=hgemm_14_wgmma_tma
{
for k in ${H}_64x128x64_s8_pairs ${H}_64x128x64_s8_tmast; do
  for tool in memcheck racecheck synccheck; do
    timeout 60 compute-sanitizer --tool $tool $B check --kernel $k --m 200 --n 392 --k 1000 --beta 0 2>&1 | grep -E "SUMMARY|passed|Race|hazard|nvjet|gemm" | head -8; echo "$k $tool"
  done
done
} > $D/sanitizers.txt 2>&1
echo "sanitizers done $SECONDS s" >> $D/times.txt
S=1760,2600,3500,3840,4800
for s in 1760 2600 3500 3840 4800; do
  timeout 30 $B run --kernel best-bf16 --m $s --n $s --k $s > $D/best-$s.log 2>&1; echo "best $s rc=$?" >> $D/times.txt
done
for i in 1 2 3; do
  s=$SECONDS
  timeout 120 $B bench --kernel ${P}_128x192x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_streamk_tmast --sizes $S --iters 10 --out /tmp/r83/w$i > $D/w-p$i.log 2>&1
  echo "w p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r83/w$i/results.json $D/w-p$i.json
done
for i in 1 2; do
  s=$SECONDS
  timeout 100 $B bench --kernel ${H}_128x192x64_s4_tmast --kernel ${H}_128x192x64_s4_persistent_tmast --kernel ${H}_128x256x64_s4_persistent_tmast --sizes 1536,2304,3072,1536x1536x4096 --iters 10 --out /tmp/r83/h$i > $D/f16-p$i.log 2>&1
  echo "f16 p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r83/h$i/results.json $D/f16-p$i.json
done
cp bundle-diag/run83.sh $D/script.sh
cd $OUT && tar czf run83.tgz run83

# ==============================================================================================
# Run 87 (2026-11-26-h100-run87/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 87: the f16 persistent TMA-store kernel at 4096³ and 8192³ in five processes, timed in turn.
set -u
rm -rf bundle; tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run87; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
timeout 120 bundle/rgemm check --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --m 256 --n 256 --k 256 > $D/warm.log 2>&1
for i in 1 2 3 4 5; do
  s=$SECONDS
  timeout 90 bundle/rgemm bench --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --sizes 4096,8192 --iters 20 --out /tmp/r87/p$i > $D/f16-p$i.log 2>&1
  echo "p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r87/p$i/results.json $D/f16-p$i.json
done
cp bundle/COMMIT $D/; cp bundle-diag/run87.sh $D/script.sh
cd $OUT && tar czf run87.tgz run87

# ==============================================================================================
# Run 88 (2026-11-26-h100-run88/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B: rung 15 at HEAD~1 (base, tn's S transposed by the split) against tn's S gathered by every
# thread with 4-byte cp.async into the K-major tile (gather). Checks and sanitizers of the gather
# kernel, then processes alternating, in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base gather; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run88; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
B=bundle-ab/rgemm-gather
k=${F}_tn
if [ "${PART:-ab}" = checks ]; then
{
  timeout 90 $B check --kernel $k --layout tn --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout tn --m 260 --n 136 --k 520 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout tn --m 135 --n 260 --k 203 --lda 140; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout tn --m 7 --n 9 --k 33; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout tn --m 129 --n 4 --k 1 --lda 132; echo "rc=$?"
  timeout 90 $B check --kernel $k --layout tn --m 4096 --n 4096 --k 4096; echo "rc=$?"
  for tool in memcheck synccheck racecheck initcheck; do
    timeout 120 compute-sanitizer --tool $tool $B check --kernel $k --layout tn --m 136 --n 260 --k 200 --lda 140 2>&1 | tail -3; echo "$tool rc=$?"
  done
} > $D/checks.txt 2>&1
else
for i in 1 2 3; do for v in base gather; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 120 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --sizes 4096,4096:tn,8192:tn --iters 10 --out /tmp/r88/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r88/$v-p$i/results.json $D/$v-p$i.json
done; done
fi
cp bundle-diag/run88.sh $D/script.sh
cd $OUT && tar czf run88-${PART:-ab}.tgz run88 && rm -rf run88

# ==============================================================================================
# Run 89 (2026-11-26-h100-run89/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B/C: rung 14's persistent TMA-store kernel with its two consumer warpgroups together (base,
# commit b6d6148) and with warpgroup 0 starting 1 or 2 K-tiles after warpgroup 1 (lag1, lag2), so
# that one warpgroup's epilogue may overlap the other's wgmmas. Checks, then processes
# alternating, timed in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base lag1 lag2; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run89; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
{
for v in lag1 lag2; do
  B=bundle-ab/rgemm-$v
  timeout 90 $B check --kernel ${P}_persistent_tmast --m 1000 --n 1000 --k 1000; echo "$v rc=$?"
  timeout 60 $B check --kernel ${P}_persistent_tmast --m 264 --n 3000 --k 64 --batch 3 --beta 0; echo "$v rc=$?"
  timeout 60 $B check --kernel ${P}_streamk_tmast --m 3072 --n 3072 --k 1000; echo "$v rc=$?"
  timeout 60 $B check --kernel ${P}_persistent_tmast_nt --m 129 --n 8 --k 64; echo "$v rc=$?"
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base lag1 lag2; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 120 bundle-ab/rgemm-$v bench --kernel ${P}_persistent_tmast --sizes 4096,8192,4096x4096x1024 --iters 20 --out /tmp/r89/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r89/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run89.sh $D/script.sh
cd $OUT && tar czf run89.tgz run89

# ==============================================================================================
# Run 90 (2026-11-26-h100-run90/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Nsight Compute at 4096³ bf16: the persistent TMA-store kernel and cuBLAS's kernel, clocks
# locked (per-cycle work) and free (the clock each runs at under the power limit), plus launch
# statistics: is the last 0.5% to cuBLAS cycles or clock?
set -u
cd bundle-ab && gunzip -kf rgemm-base.gz && chmod +x rgemm-base && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run90; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader > $D/device.txt
R=bundle-ab/rgemm-base
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,sm__cycles_active.max,sm__cycles_active.min,sm__cycles_active.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
for cc in base none; do
  timeout 150 ncu --clock-control $cc --metrics $M --csv --print-units base -k "regex:^(bgemm|nvjet|sm90|cutlass)" $R run --kernel $K --m 4096 --n 4096 --k 4096 --iters 3 > $D/ncu-$cc.csv 2> $D/ncu-$cc.log
  echo "$cc rc=$?" >> $D/times.txt
done
timeout 150 ncu --section LaunchStats --csv --print-units base -k "regex:^(bgemm|nvjet|sm90|cutlass)" --launch-count 4 $R run --kernel $K --m 4096 --n 4096 --k 4096 --iters 1 > $D/ncu-launch.csv 2> $D/ncu-launch.log
echo "launch rc=$?" >> $D/times.txt
cp bundle-diag/run90.sh $D/script.sh
cd $OUT && tar czf run90.tgz run90 && rm -rf run90

# ==============================================================================================
# Run 91 (2026-11-26-h100-run91/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# The persistent TMA-store kernel against the best cuBLAS at 4096³ and 4096×4096×1024 with the L2
# flushed before every timed launch (as always) and without: does what the kernel reads first
# (its tensor maps, in global memory) cost it more than cuBLAS, whose maps are kernel parameters?
set -u
cd bundle-ab && gunzip -kf rgemm-base.gz && chmod +x rgemm-base && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run91; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2 3; do for v in flush noflush; do
  f=""; [ $v = noflush ] && f="--no-flush"
  RGEMM_COMMIT=b6d6148 timeout 100 bundle-ab/rgemm-base bench --kernel $K --sizes 4096,4096x4096x1024 --iters 20 $f --out /tmp/r91/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$?" >> $D/times.txt
  cp /tmp/r91/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run91.sh $D/script.sh
cd $OUT && tar czf run91.tgz run91 && rm -rf run91

# ==============================================================================================
# Run 92 (2026-11-26-h100-run92/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Persistent clusters of two sharing B's tile by multicast (run 63's kernel on today's tree,
# groups of 8 cluster rows = 16 block rows) beside the single-block persistent kernel: checks,
# five processes timed in turn, and Nsight Compute at 4096³ (clocks locked and free): do they
# cut L2 bytes and raise the clock under the power limit, and what do they cost in cycles?
set -u
cd bundle-ab && gunzip -kf rgemm-c2.gz && chmod +x rgemm-c2 && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run92; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
R=bundle-ab/rgemm-c2
P=bgemm_14_wgmma_tma_128x256x64_s4
C=${P}_c2g8_persistent_tmast
{
  timeout 90 $R check --kernel $C --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $R check --kernel $C --m 264 --n 3000 --k 4104 ; echo "rc=$?"
  timeout 60 $R check --kernel $C --m 256 --n 520 --k 136 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $R check --kernel $C --m 4104 --n 3000 --k 264; echo "rc=$?"
} > $D/checks.txt 2>&1
for i in 1 2 3 4 5; do
  RGEMM_COMMIT=c2 timeout 100 $R bench --kernel ${P}_persistent_tmast --kernel $C --sizes 4096,8192 --iters 20 --out /tmp/r92/p$i > $D/p$i.log 2>&1
  echo "p$i rc=$?" >> $D/times.txt
  cp /tmp/r92/p$i/results.json $D/p$i.json
done
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,sm__cycles_active.max,sm__cycles_active.min,sm__cycles_active.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum
for cc in base none; do
  timeout 120 ncu --clock-control $cc --metrics $M --csv --print-units base -k "regex:^bgemm" --launch-count 16 $R bench --kernel ${P}_persistent_tmast --kernel $C --sizes 4096 --iters 3 --out /tmp/r92/ncu > $D/ncu-$cc.csv 2> $D/ncu-$cc.log
  echo "ncu $cc rc=$?" >> $D/times.txt
done
cp bundle-diag/run92.sh $D/script.sh
cd $OUT && tar czf run92.tgz run92 && rm -rf run92

# ==============================================================================================
# Run 93 (2026-11-26-h100-run93/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B: rung 14's TMA-store epilogue with two named barriers per 64 × 32 slice (base, kernels of
# b6d6148) against one (onebar: the leader waits for the previous slice's store to have read its
# buffer before the barrier that publishes this slice). Checks, then processes alternating,
# each timed in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base onebar; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run93; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
R=bundle-ab/rgemm-onebar
{
  timeout 90 $R check --kernel ${P}_persistent_tmast --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $R check --kernel ${P}_persistent_tmast --m 264 --n 3000 --k 64 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $R check --kernel ${P}_streamk_tmast --m 3072 --n 3072 --k 1000; echo "rc=$?"
  timeout 60 $R check --kernel ${P}_tmast --m 129 --n 520 --k 72; echo "rc=$?"
  timeout 120 compute-sanitizer --tool racecheck $R check --kernel ${P}_persistent_tmast --m 520 --n 1032 --k 136 2>&1 | tail -3; echo "racecheck rc=$?"
  timeout 120 compute-sanitizer --tool synccheck $R check --kernel ${P}_persistent_tmast --m 520 --n 1032 --k 136 2>&1 | tail -3; echo "synccheck rc=$?"
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base onebar; do
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel ${P}_persistent_tmast --sizes 4096,8192 --iters 20 --out /tmp/r93/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$?" >> $D/times.txt
  cp /tmp/r93/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run93.sh $D/script.sh
cd $OUT && tar czf run93.tgz run93 && rm -rf run93

# ==============================================================================================
# Run 94 (2026-11-26-h100-run94/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# A/B/C after run 93's hang: named barriers as LLVM's convergent intrinsic instead of inline asm
# (intr: the same two barriers per epilogue slice; onebar: one per slice), against the kernels of
# b6d6148 (base). Checks with beta = 0 (the TMA-store path that hung), two sanitizers, then
# processes alternating, each timed in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base intr onebar; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run94; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
{
for v in onebar intr; do
  R=bundle-ab/rgemm-$v
  timeout 100 $R check --kernel ${P}_persistent_tmast --m 264 --n 3000 --k 64 --batch 3 --beta 0; echo "$v rc=$?"
  timeout 100 $R check --kernel ${P}_streamk_tmast --m 3072 --n 3072 --k 1000 --beta 0; echo "$v rc=$?"
  timeout 100 $R check --kernel ${P}_tmast --m 129 --n 520 --k 72 --beta 0; echo "$v rc=$?"
done
R=bundle-ab/rgemm-onebar
timeout 150 compute-sanitizer --tool racecheck $R check --kernel ${P}_persistent_tmast --m 520 --n 1032 --k 136 --beta 0 2>&1 | tail -3; echo "racecheck rc=$?"
timeout 150 compute-sanitizer --tool synccheck $R check --kernel ${P}_persistent_tmast --m 520 --n 1032 --k 136 --beta 0 2>&1 | tail -3; echo "synccheck rc=$?"
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base intr onebar; do
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel ${P}_persistent_tmast --sizes 4096,8192 --iters 20 --out /tmp/r94/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$?" >> $D/times.txt
  cp /tmp/r94/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run94.sh $D/script.sh
cd $OUT && tar czf run94.tgz run94 && rm -rf run94

# ==============================================================================================
# Run 95 (2026-11-26-h100-run95/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Run 95: every GPU test on the final bundle of this stop (named barriers through LLVM's
# convergent intrinsic).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run95; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 420 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle/COMMIT $D/; cp bundle-diag/run95.sh $D/script.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
cd /tmp && tar czf $OUT/run95.tgz run95

# ==============================================================================================
# Run 96 (2026-11-26-h100-run96/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Rung 11's `_wa` kernels (the only users of sync_warp) with bar.warp.sync as LLVM's convergent
# intrinsic: checks at odd sizes, 4096³, a batch, and synccheck/racecheck.
set -u
cd bundle-ab && gunzip -kf rgemm-ws.gz && chmod +x rgemm-ws && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run96; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
R=bundle-ab/rgemm-ws
{
for k in sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa sgemm_11_tma_128x128x32_w64x32_t8x8_s3_wa; do
  timeout 90 $R check --kernel $k --m 1001 --n 1000 --k 1003; echo "rc=$?"
  timeout 90 $R check --kernel $k --m 4096 --n 4096 --k 4096 --beta 0; echo "rc=$?"
  timeout 90 $R check --kernel $k --m 260 --n 136 --k 520 --batch 3; echo "rc=$?"
done
k=sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa
timeout 120 compute-sanitizer --tool synccheck $R check --kernel $k --m 264 --n 136 --k 200 2>&1 | tail -2; echo "synccheck rc=$?"
timeout 120 compute-sanitizer --tool racecheck $R check --kernel $k --m 264 --n 136 --k 200 2>&1 | tail -2; echo "racecheck rc=$?"
} > $D/checks.txt 2>&1
cp bundle-diag/run96.sh $D/script.sh
cat $D/checks.txt | grep -E "PASS|FAIL|rc=|SUMMARY"

# ==============================================================================================
# Run 97 (2026-11-26-h100-run97/script.sh)
# ==============================================================================================
#!/usr/bin/env bash
# Rung 15 (fp32, 3×TF32) nn and tn at 4096³ on the final code: the named barrier as LLVM's
# intrinsic moved tn from 239 to 241 registers; three processes, timed in turn with cuBLAS SGEMM.
set -u
cd bundle-ab && gunzip -kf rgemm-now.gz && chmod +x rgemm-now && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run97; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3; do
  RGEMM_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo final) timeout 100 bundle-ab/rgemm-now bench --kernel $F --kernel ${F}_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r97/p$i > $D/p$i.log 2>&1
  echo "p$i rc=$?" >> $D/times.txt
  cp /tmp/r97/p$i/results.json $D/p$i.json
done
cp bundle-diag/run97.sh $D/script.sh
grep -h "raw" $D/p*.log | grep -v "^ *[0-9.]* s" | head -12
