# Experiment for scripts/gpu/run.sh: optimizer-state offload on a fresh GPU, nothing set for
# oomlab. One call, in this order (each bounded by what is left of BUDGET seconds):
#   1. the first steps of `train --config gpu` in f32 and AMP bf16 (fresh processes, 3
#      steps each, the kernel cache empty at the start): still within 15 s with this binary;
#   2. `oomlab estimate --config gpu --card H100` for baseline and offload-optimizer, f32 and
#      AMP bf16 (--json): the predicted peaks and the offload's host and bus terms;
#   3. REPEATS times, interleaved: `oomlab compare --config gpu --max-steps STEPS
#      --strategies baseline,offload-optimizer` with train.precision f32 and bf16 (AMP): NVML peaks,
#      steady steps, losses;
#   4. the same model in PyTorch (benches/pytorch_gpt.py, f32 with TF32, SDPA attention),
#      with AdamW on the GPU and with AdamW on the host (--offload: pinned f32 master
#      weights and moments, the update on the CPU), REPEATS times, interleaved with 3;
#   5. run-job's part 4 (Ctrl-C to `oomlab run`), which the first run-job call ran before
#      its one-process case existed.
# PARTS="1" runs only those parts (2 goes with 3: its estimates are read there).
# Results in $OUT: log.txt, offload.json (every figure, one object), estimate-f32.json,
# estimate-bf16.json, compare-f32-1.json, compare-bf16-1.json, pytorch.json, runs.tar.xz.
# runner: new-user
#
#   OUT=$OUT BUDGET=480 REPEATS=2 STEPS=30 bash scripts/gpu/run.sh offload
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/off
LOG=$OUT/log.txt
unset CUBECL_AUTOTUNE_LEVEL OOMLAB_KERNEL_CACHE CUBECL_DEBUG_LOG XDG_CACHE_HOME COLUMNS
END=$((SECONDS + ${BUDGET:-480} - 40))
left() { local l=$((END - SECONDS)); [ "$l" -lt "$1" ] && echo $((l > 1 ? l : 1)) || echo "$1"; }
say() { echo "### $* ($(date -u +%H:%M:%S))" | tee -a "$LOG"; }
STEPS=${STEPS:-30}
want() { [ -z "${PARTS:-}" ] || [[ " $PARTS " == *" $1 "* ]]; }
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"; echo "commit: ${COMMIT:-unknown}"
  echo "card: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader)"
  echo "host: $(nproc) cores, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)"
  echo "kernel cache before: $(find ~/.cache/oomlab/cubecl -type f 2>/dev/null | wc -l) files"
  env | grep -E '^(CUBECL|OOMLAB|COLUMNS)' | sed 's/^/env: /'
} >> "$LOG" 2>&1

if want 1; then
say "1. first steps"
for p in f32 bf16; do
  timeout "$(left 120)" "$BIN" train --config gpu --precision $p --max-steps 3 --json --out /tmp/off/first-$p > /tmp/off/first-$p.json 2> /tmp/off/first-$p.stderr
  echo "first step gpu $p: exit $? $(python3 -c "import json,sys;s=json.load(open(sys.argv[1]));k=(s.get('kernel_cache') or {}).get('added_in_run') or {};print(f\"time to first step {s['time_to_first_step_s']:.2f} s, kernels compiled {k.get('kernels')}\")" /tmp/off/first-$p.json 2>&1)" >> "$LOG"
done

fi

if want 3; then
say "2. estimates"
for p in f32 bf16; do
  "$BIN" estimate --config gpu --card H100 --precision $p --json > "$OUT/estimate-$p.json" 2>> "$LOG"
done

say "3-4. compare and PyTorch, interleaved"
"$BIN" configs gpu > /tmp/off/gpu.toml
python3 - /tmp/off/gpu.toml > /tmp/off/data-args <<'EOF'
import sys, tomllib
d = tomllib.load(open(sys.argv[1], "rb"))["data"]
print(d["task"], d["corpus_chars"], d["seed"])
EOF
read task chars seed < /tmp/off/data-args
"$BIN" dataset --task "$task" --chars "$chars" --seed "$seed" > /tmp/off/data.txt
for r in $(seq "${REPEATS:-2}"); do
  for p in f32 bf16; do
    [ $((END - SECONDS)) -lt 60 ] && break 2
    timeout "$(left 200)" "$BIN" compare --config gpu --set train.precision=$p --max-steps "$STEPS" --strategies baseline,offload-optimizer --out /tmp/off/compare-$p-$r > /tmp/off/compare-$p-$r.txt 2>&1
    echo "compare $p repeat $r: exit $?" >> "$LOG"
    cp /tmp/off/compare-$p-$r/compare.json /tmp/off/compare-$p-$r.json 2>/dev/null
  done
  for o in "" --offload; do
    [ $((END - SECONDS)) -lt 40 ] && break 2
    name=pytorch${o:+-offload}-$r
    timeout "$(left 120)" python3 benches/pytorch_gpt.py --config /tmp/off/gpu.toml --data /tmp/off/data.txt --steps "$STEPS" --attention sdpa --precision f32 $o --out /tmp/off/$name.json > /dev/null 2> /tmp/off/$name.stderr
    echo "$name: exit $?" >> "$LOG"
  done
done
cp /tmp/off/compare-f32-1.json /tmp/off/compare-bf16-1.json "$OUT/" 2>/dev/null
python3 - /tmp/off "$OUT" >> "$LOG" <<'EOF'
import glob, json, os, statistics, sys
d, out = sys.argv[1:]
res = {"compare": {}, "pytorch": {}, "estimate": {}}
for p in ("f32", "bf16"):
    for f in sorted(glob.glob(f"{d}/compare-{p}-*.json")):
        for row in json.load(open(f)).get("rows", []):
            res["compare"].setdefault(f"{p} {row['strategy']}", []).append(
                {k: row.get(k) for k in ("peak_process_bytes", "predicted_peak_bytes", "steady_step_s",
                                         "time_to_first_step_s", "final_loss", "status")})
    e = json.load(open(f"{out}/estimate-{p}.json"))
    for row in e.get("rows", []):
        if row.get("label") in ("baseline", "offload-optimizer"):
            est = row["estimate"]
            res["estimate"][f"{p} {row['label']}"] = {"peak": est["peak"], "offload": est.get("offload")}
for f in sorted(glob.glob(f"{d}/pytorch*.json")):
    j = json.load(open(f))
    res["pytorch"].setdefault("offload" if j.get("offload") else "gpu", []).append(
        {k: j[k] for k in ("peak_nvml_process_bytes", "peak_allocated_bytes", "steady_step_s", "final_loss")})
json.dump(res, open(f"{out}/offload.json", "w"), indent=1)
json.dump([json.load(open(f)) for f in sorted(glob.glob(f"{d}/pytorch*.json"))], open(f"{out}/pytorch.json", "w"), indent=1)
for k, v in res["compare"].items():
    print(f"oomlab {k}: " + "; ".join(f"peak {r['peak_process_bytes']} (predicted {r['predicted_peak_bytes']}) step {r['steady_step_s']} loss {r['final_loss']} {r['status']}" for r in v))
for k, v in res["estimate"].items():
    print(f"estimate {k}: {v}")
for k, v in res["pytorch"].items():
    print(f"pytorch {k}: " + "; ".join(f"nvml peak {r['peak_nvml_process_bytes']} step {r['steady_step_s']:.4f} loss {r['final_loss']:.4f}" for r in v))
EOF

fi

if want 5; then
say "5. run-job part 4"
( PARTS=4 BUDGET=$(left 80) OUT=/tmp/off/rj source scripts/gpu/run-job.sh ) > /dev/null 2>&1
cat /tmp/off/rj/run-job/log.txt >> "$LOG" 2>/dev/null
fi
(cd /tmp/off && tar cf - --exclude='*.svg' --exclude=memory.csv --exclude=timeline.csv --exclude=data.txt . 2>/dev/null | xz -6 > "$OUT/runs.tar.xz")
say done
