#!/usr/bin/env bash
# Nsight Compute on the small-products kernel (bundle of ec9587c): where a block's time goes.
set -u
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/ncu168; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle/rgemm
timeout 100 ncu --kernel-name regex:batched --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis $R run --kernel bgemm_00_batched_64x64x32_w32x32_nt --layout nt --m 64 --n 64 --k 64 --batch 2048 --iters 1 > $D/nt-64.txt 2>&1; echo "rc $?" >> $D/nt-64.txt
timeout 100 ncu --kernel-name regex:batched --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats $R run --kernel bgemm_00_batched_64x64x32_w32x32 --m 1024 --n 1024 --k 128 --batch 32 --iters 1 > $D/nn-1024.txt 2>&1; echo "rc $?" >> $D/nn-1024.txt
grep -E "Duration|Throughput|Achieved Occupancy|Theoretical Occupancy|Registers|Block Limit|Stall|Warp Cycles|Issued|Eligible|No Eligible|Active Warps|rc " $D/nt-64.txt | head -60
echo ====
grep -E "Duration|Throughput|Achieved Occupancy|Warp Cycles|Eligible|No Eligible|Issued Ipc|rc " $D/nn-1024.txt | head -30
