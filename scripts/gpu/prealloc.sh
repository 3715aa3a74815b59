# Experiment for scripts/gpu/run.sh (issue 6): the two-process demonstration of memory growth
# vs preallocation, then `oomlab compare --strategies all` (f32, AMP, pure half and the
# memory strategies), on the H200 through the device tool from the repository root:
#   COMMIT=<sha> OUT=<dir> bash scripts/gpu/run.sh prealloc   (COMPARE=0: the demonstration only)
# Carries .device-bin/ (oomlab.xz, kernels.tar.xz; see setup.sh).
# Results: $OUT/results.tar.gz, kernel cache: $OUT/kernels.tar.xz.
OUT=${OUT:?set OUT}
BATCH=${BATCH:-2048}
start_log prealloc

# Two trainings of the tiny GPT at batch $BATCH on one GPU, both with --memory-mode MODE:
# A starts, B starts as soon as A has finished its first step (so both hold their memory
# at the same time). nvidia-smi lists both processes' VRAM every 250 ms meanwhile.
demo() {
  local mode=$1 d=$R/$1
  mkdir -p "$d"
  say "two processes, --memory-mode $mode"
  nvidia-smi --query-compute-apps=timestamp,pid,used_memory --format=csv,noheader -lms 250 > "$d/nvidia-smi.csv" 2>&1 &
  local smi=$!
  timeout 120 $BIN train --device cuda --config tiny --batch "$BATCH" --max-steps 100 --memory-mode "$mode" \
    --out "$d/a" > /dev/null 2> "$d/a.stderr.txt" &
  local a=$!
  for i in $(seq 1 900); do [ -s "$d/a/steps.jsonl" ] && break; sleep 0.1; done
  echo "B starts after A's first step ($(date -u +%H:%M:%S.%N))" >> "$LOG"
  timeout 120 $BIN train --device cuda --config tiny --batch "$BATCH" --max-steps 40 --memory-mode "$mode" \
    --out "$d/b" > /dev/null 2> "$d/b.stderr.txt" &
  local b=$!
  wait $a; echo "A exit: $?" >> "$LOG"
  wait $b; echo "B exit: $?" >> "$LOG"
  kill $smi 2>/dev/null
}
demo growth
demo prealloc
python3 - "$R" > "$R/demo.json" <<'PY'
import json, sys
r = sys.argv[1]; out = {}
for mode in ("growth", "prealloc"):
    for p in ("a", "b"):
        try:
            s = json.load(open(f"{r}/{mode}/{p}/summary.json"))
        except Exception as e:
            out[f"{mode}/{p}"] = {"error": str(e)}; continue
        stop = s["stop"]
        out[f"{mode}/{p}"] = {
            "pid": s["pid"], "stop": stop["kind"],
            "oom": None if stop["kind"] != "out-of-memory" else {
                k: stop["detail"].get(k) for k in ("step", "phase", "requested", "message")},
            "steps_completed": s["steps_completed"],
            "nvml_process_peak": s["memory"].get("process_peak"),
            "nvml_device_used_peak": s["memory"].get("device_used_peak"),
            "allocator_peak_reserved": s["memory"].get("allocator_peak_reserved"),
            "prealloc": s.get("prealloc"),
            "notes": s["memory"].get("notes"),
        }
json.dump(out, sys.stdout, indent=1)
PY
if [ "${COMPARE:-1}" = 1 ]; then
  say "compare --strategies all --config tiny --batch $BATCH --max-steps 40"
  timeout ${COMPARE_TIMEOUT:-420} $BIN compare --strategies all --device cuda --config tiny --batch "$BATCH" \
    --max-steps 40 --out "$R/compare" > "$R/compare-stdout.txt" 2> "$R/compare-stderr.txt"
  echo "exit: $?" >> "$LOG"
fi
say "done"
rm -f "$R"/compare/*/steps.jsonl
touch "$R/compare-stdout.txt"
[ -n "${OUT:-}" ] && tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" prealloc
tar cJf "$OUT/kernels.tar.xz" -C /tmp oomlab-kernels
cat "$LOG" "$R/demo.json" "$R/compare-stdout.txt"
