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
