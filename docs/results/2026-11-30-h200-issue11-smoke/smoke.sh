#!/usr/bin/env bash
# The final code of issue 11 on the H200 (device tool, repository root):
#   COMMIT=<sha> bash docs/results/2026-11-30-h200-issue11-smoke/smoke.sh
# Carries .device-bin/ (oomlab.xz, kernels.tar.xz from benches/paired.sh).
# 1-2. the `gpu` config with the defaults (efficient attention, checks once per step), f32
#      and AMP bf16 with --memory-mode exact; 3. a 6 GiB --vram-budget that batch 64 does
#      not fit: detected with checks once per step; 4. the same with auto-halve and
#      --memory-mode exact (sizes change: does the exact pool cope?).
set -u
OUT=${OUT:?set OUT}
source scripts/gpu/setup.sh
start_log final-smoke
one() { # NAME ARGS...
  local name=$1; shift
  say "$name: $*"
  timeout 40 $BIN train --config gpu --device cuda --out "$R/$name" "$@" > /dev/null 2> "$R/$name.stderr.txt"
  echo "exit: $?" >> "$LOG"
  python3 - "$R/$name/summary.json" >> "$LOG" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
stop = s["stop"]
detail = stop.get("detail") if isinstance(stop.get("detail"), dict) else {}
print(f"  stop {stop['kind']} {detail.get('phase', '')}, checks {s['checks']}, steps {s['steps_completed']}, "
      f"split {s['plan']['micro_batch']} x {s['plan']['accumulation']}, oom attempts {s['adaptation']['oom_attempts']}, "
      f"steady {s['steady_step_s']}, NVML peak {s['memory']['process_peak']}, loss {s['final_loss']}")
PY
}
one f32-defaults --max-steps 20
one bf16-exact --max-steps 20 --precision bf16 --memory-mode exact
one budget-baseline --max-steps 5 --vram-budget 6GiB
one budget-auto-halve-exact --max-steps 5 --vram-budget 6GiB --strategy auto-halve --memory-mode exact
say "done"
rm -f "$R"/*/steps.jsonl
[ -n "${OUT:-}" ] && tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" final-smoke
cat "$LOG"
