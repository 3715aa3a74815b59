# Experiment for scripts/gpu/run.sh: the CUDA defaults of c5a8e16 (bf16's products on
# cuBLAS, the 4 MiB workspace, f32's split sums and dense embeddings) under real
# out-of-memory failures, as a new user meets them (fresh machine, nothing set):
#   COMMIT=<sha> OUT=<dir> bash scripts/gpu/run.sh oom-defaults
# For each of f32 and AMP bf16, on the tiny config (its linear layers' products on cuBLAS):
#   oom-P:   16384 samples under --vram-budget 4GiB, 3 steps: the run must stop on the
#            detected out-of-memory failure with exit 3;
#   halve-P: the same with --strategy auto-halve, 6 steps: the run must halve until the
#            step fits and complete (exit 0), the summary holding each failed attempt.
# PRECISIONS (default "f32 bf16") picks which. RUN_TIMEOUT (default 90 s) bounds each run. Results: $OUT/results.tar.gz (each run's
# folder, stdout, stderr and --json summary; log.txt with the exit codes).
# runner: new-user
OUT=${OUT:?set OUT}
start_log oom-defaults
TINY="--device cuda --config tiny --batch 16384 --vram-budget 4GiB"
for p in ${PRECISIONS:-f32 bf16}; do
  say "oom-$p: train $TINY --precision $p --max-steps 3 (exit 3 expected)"
  timeout ${RUN_TIMEOUT:-90} $BIN train $TINY --precision $p --max-steps 3 --json --out "$R/oom-$p" \
    > "$R/oom-$p.json" 2> "$R/oom-$p.stderr"
  echo "exit: $?" >> "$LOG"
  say "halve-$p: train $TINY --precision $p --max-steps 6 --strategy auto-halve (exit 0 expected)"
  timeout ${RUN_TIMEOUT:-90} $BIN train $TINY --precision $p --max-steps 6 --strategy auto-halve --json \
    --out "$R/halve-$p" > "$R/halve-$p.json" 2> "$R/halve-$p.stderr"
  echo "exit: $?" >> "$LOG"
  python3 - "$R/halve-$p.json" >> "$LOG" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = d.get("adaptation") or {}
print("stop:", d.get("stop"), "steps:", d.get("steps_completed"), "final loss:", d.get("final_loss"))
print("plan:", d.get("plan"), "attempts:", a.get("attempts_made"), "oom attempts:", a.get("oom_attempts"),
      "simulated:", [x.get("simulated") for x in a.get("attempts", [])])
PY
done
say "done"
rm -f "$R"/*/steps.jsonl "$R"/*/memory.csv
tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" oom-defaults
cat "$LOG"
