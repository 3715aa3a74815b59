# Issue 29: is the +66 MiB NVML peak of bf16's products on cuBLAS (OOMLAB_CUBLAS=1;
# docs/results/2026-12-04-h200-cublas-queued) cuBLAS's workspace? That peak is what keeps
# bf16 off cuBLAS by default (crates/oomlab-kernels/src/cuda/cublas.rs, by_default). Three `gpu`-config AMP
# bf16 runs of $STEPS (default 20) steps, side by side: the defaults (bf16's products on
# cubecl), OOMLAB_CUBLAS=1, and OOMLAB_CUBLAS=1 with CUBLAS_WORKSPACE_CONFIG=:4096:1
# (cuBLAS's own variable: one 4 MiB workspace instead of its default pool). NVML's figure is
# each process's own, so running them together changes no row's peak; their step times
# are not comparable with each other and are not the point. Each run has its own kernel
# cache folder (a process installs oomlab's pack into an empty one).
#   OUT=... bash scripts/gpu/run.sh cublas-workspace
# Results: $OUT/cublas-workspace.tar.gz (each run's --json line and folder, log.txt).
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
start_log cublas-workspace
run_one() {  # NAME SETTINGS...
  local name=$1; shift
  say "start: $name ($*)"
  env OOMLAB_KERNEL_CACHE=/tmp/oomlab-kernels-$name "$@" timeout ${RUN_TIMEOUT:-150} $BIN train --config gpu \
    --device cuda --precision bf16 --max-steps "${STEPS:-20}" --json --quiet --out "$R/$name" \
    > "$R/$name.json" 2> "$R/$name.stderr"
  echo "$name exit: $?" >> "$LOG"
}
run_one defaults &
run_one cublas OOMLAB_CUBLAS=1 &
run_one cublas-ws OOMLAB_CUBLAS=1 CUBLAS_WORKSPACE_CONFIG=:4096:1 &
wait
for n in defaults cublas cublas-ws; do
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=d.get('memory',{}); print(sys.argv[2], 'peak_process', m.get('process_peak'), 'final_loss', d.get('final_loss'))" \
    "$R/$n.json" "$n" >> "$LOG" 2>&1
  grep -h "matrix products" "$R/$n.stderr" >> "$LOG" 2>/dev/null
  rm -f "$R/$n/memory.csv"
done
say "done"
tar czf "$OUT/cublas-workspace.tar.gz" -C "${RESULTS:-/tmp/res}" cublas-workspace
cat "$LOG"
