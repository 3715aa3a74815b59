# Experiment for scripts/gpu/run.sh: the memory probes, the OOM detector and `oomlab gpu`
# (issue 3) on a GPU, run on the H200 through the device tool from the repository root:
#   COMMIT=<sha> OUT=<dir> bash scripts/gpu/run.sh memory-probes
# It carries .device-bin/ (see setup.sh), holding oomlab.xz and gpu.xz (the
# test binary from `cargo test --release --test gpu --no-run`), compressed to fit the
# device tool's 64 MiB transfer limit.
OUT=${OUT:?set OUT}
LOG=$OUT/log.txt
say() { echo "### $*" | tee -a "$LOG"; }
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"; echo "commit: ${COMMIT:-unknown}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
} >> "$LOG" 2>&1

say "1. a PyTorch process holds 6 GiB; oomlab gpu lists it"
python3 -c "import torch,time; x=torch.empty(6*2**30,dtype=torch.uint8,device='cuda'); open('/tmp/holding','w').write('1'); time.sleep(300)" &
PY=$!
for i in $(seq 1 60); do [ -f /tmp/holding ] && break; sleep 1; done
echo "python PID: $PY" >> "$LOG"
$BIN gpu >> "$LOG" 2>&1
$BIN gpu --json > "$OUT/gpu.json" 2>> "$LOG"

say "2. train on CUDA while PyTorch holds memory (preflight), cold kernel cache"
timeout 300 $BIN train --device cuda --max-steps 40 --out "$OUT/run-a" > /dev/null 2>> "$LOG"; echo "exit: $?" >> "$LOG"
cp "$OUT/run-a/summary.txt" "$OUT/run-a-summary.txt" 2>/dev/null

say "3. free the PyTorch holder with oomlab gpu --kill"
$BIN gpu --kill "$PY" --yes --grace 10 >> "$LOG" 2>&1; echo "exit: $?" >> "$LOG"
$BIN gpu >> "$LOG" 2>&1

say "4. probe overhead, A/B/A with a warm kernel cache: probe every 10 ms, probe off (one sample per 1000 s), every 10 ms"
for run in b:10 c:1000000 d:10; do
  name=${run%%:*}; ms=${run##*:}
  timeout 200 $BIN train --device cuda --max-steps 200 --probe-interval-ms "$ms" --out "$OUT/run-$name" > /dev/null 2>> "$LOG"; echo "exit: $?" >> "$LOG"
done
python3 - "$OUT" >> "$LOG" <<'PY'
import json, sys
out = sys.argv[1]; rows = {}
for n in "bcd":
    try:
        s = json.load(open(f"{out}/run-{n}/summary.json"))
        rows[n] = {"probe_interval_ms": s["memory"]["sample_interval_ms"], "samples": s["memory"]["samples"],
                   "sample_cost_us": s["memory"]["sample_cost_us"], "steady_step_s": s["steady_step_s"],
                   "time_to_first_step_s": s["time_to_first_step_s"], "steps_completed": s["steps_completed"]}
    except Exception as e:
        rows[n] = {"error": str(e)}
json.dump(rows, open(f"{out}/probe-overhead.json", "w"), indent=1)
print(json.dumps(rows, indent=1))
PY
rm -rf "$OUT/run-b" "$OUT/run-c" "$OUT/run-d" "$OUT/run-a/steps.jsonl" "$OUT/run-a/config.toml" "$OUT/run-a/summary.txt"

say "5. GPU OOM test: budget 4 GiB, 16384-sample steps, 5 cycles"
OOMLAB_TEST_OOM_CYCLES=5 OOMLAB_TEST_VRAM_BUDGET=4GiB \
  timeout 240 /tmp/bin/gpu --ignored --nocapture --test-threads 1 oom:: > "$OUT/gpu-oom-test.txt" 2>&1
echo "exit: $?" >> "$LOG"
tail -5 "$OUT/gpu-oom-test.txt"
cat "$LOG"
