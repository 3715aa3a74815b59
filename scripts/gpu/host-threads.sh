# Issue 29: which host thread sets a step's pace, and the host's time per cuBLAS product.
# The gpu config's AMP bf16 step on an H100 held 28.8 ms of kernel time in 43.0 ms
# (docs/results/2026-12-06-h100-in-place-join): the host, not the GPU, sets its pace.
# For each precision of PRECISIONS (default "bf16 f32"), on $CONFIG (default gpu):
#   warm-P:    2 steps, so that nothing compiles in the timed runs;
#   threads-P: $STEPS (default 60) steps under scripts/gpu/host-threads.py: every thread's
#              CPU time from step 10 to the last (threads.md, threads.json): the main
#              thread (model, autodiff, fusion's registration of each operation) against
#              cubecl's device service threads (DS-…: fusion's graphs run, kernels launched,
#              the cuBLAS products queued there);
#   timing-P:  the same run with OOMLAB_CUBLAS_TIMING=1: the host's microseconds per cuBLAS
#              product in each phase of the handshake (crates/oomlab-kernels/src/cuda/cublas.rs, Clock), every
#              500 products, on stderr (timing-P.stderr.txt).
# An experiment, not what a new user meets: setup.sh sets CUBECL_AUTOTUNE_LEVEL=minimal and
# the shipped kernel pack's cache folder.
#   [COMMIT=<sha>] OUT=... [CONFIG=gpu] bash scripts/gpu/run.sh host-threads
# Results: $OUT/host-threads.tar.gz (the folder host-threads-$CONFIG).
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
CONFIG=${CONFIG:-gpu}
STEPS=${STEPS:-60}
start_log "host-threads-$CONFIG"
for p in ${PRECISIONS:-bf16 f32}; do
  say "warm: $p, 2 steps"
  timeout 240 $BIN train --config "$CONFIG" --device cuda --precision $p --max-steps 2 --quiet \
    --out "$R/warm-$p" > /dev/null 2>> "$LOG"
  echo "exit: $?" >> "$LOG"
  say "threads: $p, $STEPS steps"
  timeout 180 python3 scripts/gpu/host-threads.py --run "$R/run-$p" --out "$R/threads-$p" -- \
    $BIN train --config "$CONFIG" --device cuda --precision $p --max-steps "$STEPS" --quiet \
    --out "$R/run-$p" > "$R/threads-$p.stdout.txt" 2> "$R/threads-$p.stderr.txt"
  echo "exit: $?" >> "$LOG"
  cat "$R/threads-$p/threads.md" >> "$LOG" 2>/dev/null
  say "timing: $p, $STEPS steps, OOMLAB_CUBLAS_TIMING=1"
  OOMLAB_CUBLAS_TIMING=1 timeout 180 $BIN train --config "$CONFIG" --device cuda --precision $p \
    --max-steps "$STEPS" --quiet --out "$R/timing-$p" > /dev/null 2> "$R/timing-$p.stderr.txt"
  echo "exit: $?" >> "$LOG"
  grep "host time per product" "$R/timing-$p.stderr.txt" | tail -2 >> "$LOG"
done
say "done"
rm -f "$R"/*/memory.csv "$R"/*/steps.jsonl
tar czf "$OUT/host-threads.tar.gz" -C "${RESULTS:-/tmp/res}" "host-threads-$CONFIG"
cat "$LOG"
