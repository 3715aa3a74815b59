# Experiment for scripts/gpu/run.sh: auto-halve (issue 4) on a GPU, run on the H200 through
# the device tool from the repository root:
#   COMMIT=<sha> OUT=<dir> bash scripts/gpu/run.sh auto-halve
# ONLY_RUNS=1 skips parts 4 and 5; COLD_TIMEOUT / CLEAN_TIMEOUT lengthen parts 1 and 3;
# KEEP_KERNELS=0 leaves the kernel cache out (packing it can take minutes).
# Carries .device-bin/ (oomlab.xz and gpu.xz, see setup.sh). Everything
# lands in $OUT/results.tar.gz; the kernel cache comes back as $OUT/kernels.tar.xz so a
# later call can start warm.
OUT=${OUT:?set OUT}
start_log auto-halve
TINY="--device cuda --config tiny --batch 16384 --max-steps 20"

say "1. auto-halve, 16384 samples under --vram-budget 4GiB, empty kernel cache (cold)"
timeout ${COLD_TIMEOUT:-210} $BIN train $TINY --strategy auto-halve --vram-budget 4GiB --out "$R/cold" > "$R/cold.stdout" 2> "$R/cold.stderr"
echo "exit: $?" >> "$LOG"

say "2. the same in a new process, kernel cache warm"
timeout 60 $BIN train $TINY --strategy auto-halve --vram-budget 4GiB --out "$R/warm" > "$R/warm.stdout" 2> "$R/warm.stderr"
echo "exit: $?" >> "$LOG"

K=$(python3 -c "import json;print(json.load(open('$R/warm/summary.json'))['plan']['accumulation'])" 2>/dev/null || echo 8)
say "3. clean run configured from the start at the final split: grad-accum --steps $K"
timeout ${CLEAN_TIMEOUT:-60} $BIN train $TINY --strategy grad-accum --steps "$K" --vram-budget 4GiB --out "$R/clean" > "$R/clean.stdout" 2> "$R/clean.stderr"
echo "exit: $?" >> "$LOG"
python3 - "$R" >> "$LOG" 2>&1 <<'PY'
import json, sys
r = sys.argv[1]
import os
s = {k: json.load(open(f"{r}/{k}/summary.json")) for k in ("cold", "warm", "clean")
     if os.path.exists(f"{r}/{k}/summary.json")}
print("summaries found:", sorted(s))
for k, v in s.items():
    a = v["adaptation"]
    print(f"{k}: plan {v['plan']} stop {v['stop']['kind']} steps {v['steps_completed']} "
          f"attempts {a['attempts_made']} ooms {a['oom_attempts']} failed-attempts {a['failed_attempts_s']:.2f} s "
          f"time-to-first-step {v['time_to_first_step_s']} wall {v['wall_s']:.1f} s final_loss {v['final_loss']} "
          f"params {v['final_params']}")
for k in [k for k in ("cold", "warm") if k in s and "clean" in s and s[k]["final_params"] and s["clean"]["final_params"]]:
    same = s[k]["final_params"] == s["clean"]["final_params"]
    print(f"{k} vs clean: final params identical: {same}; |sum diff| "
          f"{abs(s[k]['final_params']['sum'] - s['clean']['final_params']['sum']):.3e}")
PY

if [ -z "${ONLY_RUNS:-}" ]; then
say "4. tests/gpu/oom.rs: 100 OOM -> recover cycles under --vram-budget 4GiB"
OOMLAB_TEST_OOM_CYCLES=100 OOMLAB_TEST_VRAM_BUDGET=4GiB timeout 140 /tmp/bin/gpu --ignored --nocapture --test-threads 1 oom:: > "$R/gpu-oom-100.txt" 2>&1
echo "exit: $?" >> "$LOG"

say "5. auto-halve without a budget: 524288 samples cannot fit the whole card"
timeout 90 $BIN train --device cuda --config tiny --batch 524288 --max-steps 3 --strategy auto-halve --out "$R/card" > "$R/card.stdout" 2> "$R/card.stderr"
echo "exit: $?" >> "$LOG"
fi
say "done"

rm -f "$R"/*/steps.jsonl
[ -n "${OUT:-}" ] && tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" auto-halve
[ "${KEEP_KERNELS:-1}" = 1 ] && tar cJf "$OUT/kernels.tar.xz" -C /tmp oomlab-kernels
du -sh /tmp/oomlab-kernels
cat "$LOG"; [ -f "$R/gpu-oom-100.txt" ] && tail -5 "$R/gpu-oom-100.txt"; for f in "$R"/*.stderr; do tail -n 3 "$f"; done
