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
