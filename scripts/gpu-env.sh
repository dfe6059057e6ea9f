# Sourced by the bundle's run.sh and library.sh on the GPU machine (as env.sh): the commit, the
# CUDA libraries' folders and the summary note. Needs $here (the bundle) and $logs (the logs).
[ -f "$here/COMMIT" ] && export RGEMM_COMMIT="$(cat "$here/COMMIT")"
# cuBLAS: from the CUDA toolkit or a pip wheel, whichever is there.
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
         $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
status=0
note() { echo "== $* ==" | tee -a "$logs/summary.txt"; }
