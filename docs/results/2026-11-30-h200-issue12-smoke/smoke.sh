#!/usr/bin/env bash
# Issue 12's code on a GPU (device tool, repository root, or any NVIDIA machine with
# OOMLAB=path/to/oomlab):
#   COMMIT=<sha> OUT=<dir> bash docs/results/2026-11-30-h200-issue12-smoke/smoke.sh
# Carries .device-bin/ (oomlab.xz, kernels.tar.xz) on the device machine.
# 1-2. the `gpu` config, f32 defaults and AMP bf16 with --memory-mode exact (LayerNorm now
#      in f32 under AMP, as autocast does): loss, step time, peak next to issue 11's
#      smoke run (REPEAT_BF16=1: the bf16 run twice; SKIP_TRAIN=1: neither; NORM_PAIR=1:
#      bf16 with LayerNorm in f32 and in bf16, alternated twice; CUDARC=1: the cudarc
#      device checks and ballast (SKIP_GPU_TEST=1: without the test binary); CHECKPOINTING=1:
#      grad-accum with and without --checkpointing; SKIP_COMPARE=1: no part 3);
#      3. `oomlab compare` on CUDA (`gpu` config, 10 steps), each row a typed preset written as
#      <row>.toml and run as `train --config`, read back typed.
set -u
OUT=${OUT:?set OUT}
source scripts/gpu/setup.sh
start_log issue12-smoke
summary() { # SUMMARY.JSON
  python3 - "$1" >> "$LOG" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"  stop {s['stop']['kind']}, checks {s['checks']}, steps {s['steps_completed']}, "
      f"precision {s['precision']['mode']} weights {s['precision']['weight_dtypes']} compute {s['precision']['compute_dtypes']}, "
      f"steady {s['steady_step_s']}, NVML peak {s['memory']['process_peak']}, first loss {s['first_loss']}, final loss {s['final_loss']}")
PY
}
one() { # NAME ARGS...
  local name=$1; shift
  say "$name: train --config gpu --device cuda $*"
  timeout 120 $BIN train --config gpu --device cuda --out "$R/$name" "$@" > /dev/null 2> "$R/$name.stderr.txt"
  echo "exit: $?" >> "$LOG"
  summary "$R/$name/summary.json"
}
if [ "${SKIP_TRAIN:-0}" != 1 ]; then
  one f32-defaults --max-steps 20
  one bf16-exact --max-steps 20 --precision bf16 --memory-mode exact
fi
[ "${REPEAT_BF16:-0}" = 1 ] && one bf16-exact-again --max-steps 20 --precision bf16 --memory-mode exact
# NORM_PAIR=1: the cost of autocast's f32 LayerNorm, one script run, alternated twice.
if [ "${NORM_PAIR:-0}" = 1 ]; then
  for i in 1 2; do
    one "bf16-exact-norm-f32-$i" --max-steps 20 --precision bf16 --memory-mode exact
    one "bf16-exact-norm-half-$i" --max-steps 20 --precision bf16 --memory-mode exact --set model.norm_in_f32=false
    one "bf16-growth-norm-f32-$i" --max-steps 20 --precision bf16
    one "bf16-growth-norm-half-$i" --max-steps 20 --precision bf16 --set model.norm_in_f32=false
  done
fi
# CUDARC=1: the device checks and the --vram-budget ballast now go through cudarc: a
# budget the gpu config cannot fit (a real OOM, detected), one it fits, the OOM/recover
# cycles of the gpu test binary (.device-bin/gpu.xz, `oom::`), and `oomlab gpu`.
if [ "${CUDARC:-0}" = 1 ]; then
  say "budget-6GiB: train --config gpu --device cuda --vram-budget 6GiB --max-steps 3"
  timeout 60 $BIN train --config gpu --device cuda --vram-budget 6GiB --max-steps 3 --out "$R/budget-6GiB" > /dev/null 2> "$R/budget-6GiB.stderr.txt"
  echo "exit: $? (3: stopped by a detected OOM)" >> "$LOG"; grep -i "vram-budget\|out of memory" "$R/budget-6GiB.stderr.txt" | head -3 >> "$LOG"
  one budget-20GiB --max-steps 3 --vram-budget 20GiB
  grep -i "vram-budget" "$R/budget-20GiB.stderr.txt" | head -2 >> "$LOG"
  if [ "${SKIP_GPU_TEST:-0}" != 1 ]; then
    say "gpu test binary: oom:: with 5 cycles"
    OOMLAB_TEST_OOM_CYCLES=5 OOMLAB_TEST_VRAM_BUDGET=4GiB timeout 200 /tmp/bin/gpu --ignored --nocapture --test-threads 1 oom:: > "$R/gpu-oom-test.txt" 2>&1
    echo "exit: $?" >> "$LOG"; tail -n 5 "$R/gpu-oom-test.txt" >> "$LOG"
  fi
  say "oomlab gpu"
  $BIN gpu >> "$LOG" 2>&1
fi
# CHECKPOINTING=1: --checkpointing combined with grad-accum, against grad-accum alone.
if [ "${CHECKPOINTING:-0}" = 1 ]; then
  one grad-accum --max-steps 10 --strategy grad-accum --steps 4
  one grad-accum-checkpointing --max-steps 10 --strategy grad-accum --steps 4 --checkpointing
fi
[ "${SKIP_COMPARE:-0}" = 1 ] && { say "done"; rm -f "$R"/*/steps.jsonl; [ -n "${OUT:-}" ] && tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" issue12-smoke; cat "$LOG"; exit 0; }
# The gpu config's kernels are in the carried cache; the tiny config's at batch 2048 were
# not (first try: 86 s of warm-up per process, past the time limit).
say "compare: --config gpu --device cuda --strategies baseline,amp-bf16,attention-math,pool-exact --max-steps 10"
timeout 300 $BIN compare --config gpu --device cuda --strategies baseline,amp-bf16,attention-math,pool-exact \
  --max-steps 10 --quiet --out "$R/compare" > "$R/compare.stdout" 2> "$R/compare.stderr.txt"
echo "exit: $?" >> "$LOG"
cat "$R/compare.stdout" >> "$LOG"
ls "$R/compare" >> "$LOG"
say "done"
rm -f "$R"/*/steps.jsonl "$R"/compare/*/steps.jsonl
[ -n "${OUT:-}" ] && tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" issue12-smoke
cat "$LOG"
