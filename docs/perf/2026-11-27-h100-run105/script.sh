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
