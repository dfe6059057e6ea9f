#!/usr/bin/env bash
# Where rung 14's fused store spends its time (bundle of 4b69a13; rung 14 unchanged since):
# the plain TMA store of f32 C against the fused store (bf16 C; f32 C with a bias), timed and
# under Nsight Compute (warp states, per-instruction stall samples).
set -u
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/run172; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle/rgemm
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt
cases=(
 "f32 --m 4096 --n 4096 --k 4096 --out-dtype f32"
 "bf16 --m 4096 --n 4096 --k 4096 --out-dtype bf16"
 "f32bias --m 4096 --n 4096 --k 4096 --out-dtype f32 --epilogue bias"
 "bf16gelu --m 4096 --n 4096 --k 4096 --out-dtype bf16 --epilogue bias-gelu"
 "batchf32 --m 512 --n 512 --k 64 --batch 64 --out-dtype f32"
 "batchbf16 --m 512 --n 512 --k 64 --batch 64 --out-dtype bf16"
)
for c in "${cases[@]}"; do
  set -- $c; name=$1; shift
  timeout 60 $R run --kernel $K --layout nt "$@" --iters 20 > $D/time-$name.txt 2>&1; echo "rc $?" >> $D/time-$name.txt
  timeout 120 ncu --kernel-name regex:wgmma_tma --launch-skip 1 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters --import-source no -o $D/$name $R run --kernel $K --layout nt "$@" --iters 1 > $D/ncu-$name.txt 2>&1; echo "rc $?" >> $D/ncu-$name.txt
  ncu -i $D/$name.ncu-rep --page source --csv --print-source sass > $D/sass-$name.csv 2>&1
  ncu -i $D/$name.ncu-rep --page details > $D/details-$name.txt 2>&1
  rm -f $D/$name.ncu-rep
done
for c in "${cases[@]}"; do set -- $c; echo "== $1"; grep -iE "rgemm|cublas|ms|error" $D/time-$1.txt | head -8; grep -E "Duration|Warp Cycles Per Issued|Stall" $D/details-$1.txt | head -12; done
ls -la $D; head -3 $D/sass-bf16.csv | cut -c1-600
