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
