#!/usr/bin/env bash
# Run 199: where a split dot-product plan spends its time on small shapes (each kernel's
# duration under Nsight Compute), beside cuBLAS's kernels for the same call.
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
D=$OUT/run199; mkdir -p $D; cp "$0" $D/script.sh
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=quick/rgemm
for s in 6:1:286944:nn 12:1:3370158:nt; do
  IFS=: read -r m n k lay <<< "$s"
  timeout 120 ncu --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,dram__bytes_read.sum --csv $R run --kernel best-bf16 --layout $lay --m $m --n $n --k $k --iters 1 > $D/ncu-$m-$n-$k.csv 2> $D/ncu-$m-$n-$k.err; echo "ncu $s rc $?" >> $D/rc.txt
done
which nsys >> $D/rc.txt 2>&1
timeout 60 nsys profile -o $D/nsys6 --stats=true $R run --kernel best-bf16 --layout nn --m 6 --n 1 --k 286944 --iters 5 > $D/nsys6.txt 2>&1; echo "nsys rc $?" >> $D/rc.txt
rm -f $D/nsys6.nsys-rep $D/nsys6.sqlite
cat $D/rc.txt
cd $OUT && tar czf run199.tgz run199 && rm -rf run199
