#!/usr/bin/env bash
# Rung 14's fused epilogue finished in its staging buffer and stored by the copy engine (an
# uncommitted tree after b9a40ae: rgemm binary only, four values at a time; spills not yet removed):
# the cases of run 172 again, the epilogue goals' shapes, and racecheck/memcheck on one fused plan.
set -u
D=$OUT/run173; mkdir -p $D
xz -dc bundle-diag/rgemm.xz > /tmp/rgemm && chmod +x /tmp/rgemm
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=/tmp/rgemm
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt
{
for c in "--m 4096 --n 4096 --k 4096 --out-dtype f32" "--m 4096 --n 4096 --k 4096 --out-dtype bf16" "--m 4096 --n 4096 --k 4096 --out-dtype f32 --epilogue bias" "--m 4096 --n 4096 --k 4096 --out-dtype bf16 --epilogue bias-gelu" "--m 512 --n 512 --k 64 --batch 64 --out-dtype f32" "--m 512 --n 512 --k 64 --batch 64 --out-dtype bf16" "--m 4096 --n 11008 --k 4096 --out-dtype bf16" "--m 4096 --n 11008 --k 4096 --out-dtype bf16 --epilogue bias-gelu" "--m 8192 --n 8192 --k 8192 --out-dtype bf16"; do
  echo "== $c"; timeout 60 $R run --kernel $K --layout nt $c --iters 20 2>&1 | grep -E "^kernel|^ratio|^check|rror"
done
echo "== best-bf16"
for c in "--m 4096 --n 4096 --k 4096 --out-dtype bf16" "--m 4096 --n 11008 --k 4096 --out-dtype bf16 --epilogue bias" "--m 4096 --n 11008 --k 4096 --out-dtype bf16 --epilogue bias-relu" "--m 16 --n 11008 --k 4096 --out-dtype bf16 --epilogue bias-gelu" "--m 64 --n 512 --k 512 --batch 64 --out-dtype bf16" "--m 1024 --n 1024 --k 128 --batch 32 --out-dtype bf16" "--m 512 --n 512 --k 128 --batch 64 --out-dtype bf16"; do
  echo "== $c"; timeout 60 $R run --kernel best-bf16 --layout nt $c --iters 20 2>&1 | grep -E "^kernel|^ratio|^check|rror"
done
timeout 200 ncu --kernel-name regex:wgmma_tma --launch-skip 1 --launch-count 1 --section SpeedOfLight --section WarpStateStats $R run --kernel $K --layout nt --m 512 --n 512 --k 64 --batch 64 --out-dtype bf16 --iters 1 2>&1 | grep -E "Duration|Warp Cycles Per Issued|stalled" | head
for tool in memcheck racecheck synccheck; do
  echo "== $tool"; timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel $K --layout nt --m 200 --n 264 --k 192 --batch 2 --beta 0.5 --out-dtype bf16 --epilogue bias-gelu-aux --iters 1 2>&1 | grep -E "ERROR SUMMARY|^check|rror" | head -5
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel $K --layout nt --m 130 --n 72 --k 64 --out-dtype f32 --epilogue row-bias-silu --iters 1 2>&1 | grep -E "ERROR SUMMARY|^check|rror" | head -5
done
} 2>&1 | tee $D/log.txt
