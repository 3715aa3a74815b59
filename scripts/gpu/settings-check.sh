# Experiment for scripts/gpu/run.sh: the step's choices as a typed `[kernels]` section,
# the measuring levers removed (cuBLASLt, host-synced ordering, the caller's and the
# blocking thread, stream memory operations, oomlab's own cuBLAS workspace variable) and
# the lesson's new offload stage, on a fresh GPU with nothing set for oomlab. One call, in
# this order (each part bounded by what is left of BUDGET seconds):
#   1. the first steps of `train --config gpu` in f32 and AMP bf16 (fresh processes, 3
#      steps each, the kernel cache empty at the start): time to the first step and
#      kernels compiled;
#   2. this binary against the one before the change (.device-bin/oomlab-before.xz,
#      `bash scripts/device-bin.sh --before SHA`), `train --config gpu --max-steps STEPS`
#      in f32 and AMP bf16, interleaved REPEATS times: the final loss and the weights'
#      fingerprint (equal bit for bit if nothing changed on the default path), the steady
#      step, the NVML peak;
#   3. `oomlab lesson --yes`, as a user runs it: what each stage did, and its wall time;
#   4. the GPU tests of the code the change touched (tests/gpu: the linear layers' and
#      attention's cuBLAS products with their fence, LayerNorm, softmax and GELU kernels,
#      the AdamW kernel), one process each, while BUDGET lasts.
# PARTS="1 2" runs only those parts.
# Results in $OUT: log.txt, pairs.json (part 2), lesson.txt, lesson.json (every stage's
# row), tests.txt, runs.tar.xz.
# runner: new-user
#
#   COMMIT=<sha> BEFORE=<sha> OUT=$OUT BUDGET=560 REPEATS=2 STEPS=30 bash scripts/gpu/run.sh settings-check
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/sc
LOG=$OUT/log.txt
unset CUBECL_AUTOTUNE_LEVEL OOMLAB_KERNEL_CACHE CUBECL_DEBUG_LOG XDG_CACHE_HOME COLUMNS
END=$((SECONDS + ${BUDGET:-560} - 30))
left() { local l=$((END - SECONDS)); [ "$l" -lt "$1" ] && echo $((l > 1 ? l : 1)) || echo "$1"; }
say() { echo "### $* ($(date -u +%H:%M:%S))" | tee -a "$LOG"; }
STEPS=${STEPS:-30}
want() { [ -z "${PARTS:-}" ] || [[ " $PARTS " == *" $1 "* ]]; }
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"; echo "commit: ${COMMIT:-unknown}; before: ${BEFORE:-unknown}"
  echo "card: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader)"
  echo "host: $(nproc) cores, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)"
  echo "kernel cache before: $(find ~/.cache/oomlab/cubecl -type f 2>/dev/null | wc -l) files"
  env | grep -E '^(CUBECL|OOMLAB|COLUMNS|CUBLAS)' | sed 's/^/env: /'
} >> "$LOG" 2>&1

if want 1; then
  say "1. first steps"
  for p in f32 bf16; do
    timeout "$(left 120)" "$BIN" train --config gpu --precision $p --max-steps 3 --json --out /tmp/sc/first-$p > /tmp/sc/first-$p.json 2> /tmp/sc/first-$p.stderr
    echo "first step gpu $p: exit $? $(python3 -c "import json,sys;s=json.load(open(sys.argv[1]));k=(s.get('kernel_cache') or {}).get('added_in_run') or {};print(f\"time to first step {s['time_to_first_step_s']:.2f} s, kernels compiled {k.get('kernels')}\")" /tmp/sc/first-$p.json 2>&1)" >> "$LOG"
  done
  grep -h 'matrix products\|softmax' /tmp/sc/first-f32.stderr | head -3 >> "$LOG"
fi

if want 2 && [ -x /tmp/bin/oomlab-before ]; then
  say "2. this binary against the one before"
  for r in $(seq "${REPEATS:-2}"); do
    for p in f32 bf16; do
      for who in before now; do
        [ $((END - SECONDS)) -lt 200 ] && break 3
        exe=$BIN; [ $who = before ] && exe=/tmp/bin/oomlab-before
        timeout "$(left 120)" "$exe" train --config gpu --precision $p --max-steps "$STEPS" --json --quiet --out /tmp/sc/pair-$who-$p-$r > /tmp/sc/pair-$who-$p-$r.json 2> /tmp/sc/pair-$who-$p-$r.stderr
        echo "pair $who $p repeat $r: exit $?" >> "$LOG"
      done
    done
  done
  python3 - /tmp/sc "$OUT" >> "$LOG" <<'EOF'
import glob, json, os, sys
d, out = sys.argv[1:]
rows = []
for f in sorted(glob.glob(f"{d}/pair-*.json")):
    _, who, p, r = os.path.basename(f)[:-5].split("-")
    try:
        s = json.load(open(f))
    except ValueError:
        continue
    rows.append({"binary": who, "precision": p, "repeat": int(r), "final_loss": s.get("final_loss"),
                 "fingerprint": (s.get("final_params") or {}).get("fnv1a64"),
                 "steady_step_s": s.get("steady_step_s"),
                 "nvml_process_peak": (s.get("memory") or {}).get("process_peak"),
                 "stop": (s.get("stop") or {}).get("kind")})
json.dump(rows, open(f"{out}/pairs.json", "w"), indent=1)
for p in ("f32", "bf16"):
    mine = [x for x in rows if x["precision"] == p]
    for x in mine:
        print(f"{p} {x['binary']} r{x['repeat']}: loss {x['final_loss']!r} weights {x['fingerprint']} step {x['steady_step_s']} peak {x['nvml_process_peak']} {x['stop']}")
    before = {x["fingerprint"] for x in mine if x["binary"] == "before"}
    now = {x["fingerprint"] for x in mine if x["binary"] == "now"}
    print(f"{p}: weights equal bit for bit: {before == now and len(now) == 1}")
EOF
fi

if want 3; then
  say "3. lesson"
  start=$SECONDS
  timeout "$(left 300)" "$BIN" lesson --yes --out /tmp/sc/lesson > "$OUT/lesson.txt" 2> /tmp/sc/lesson.stderr
  echo "lesson: exit $?, wall $((SECONDS - start)) s" >> "$LOG"
  python3 - /tmp/sc/lesson "$OUT/lesson.json" >> "$LOG" <<'EOF'
import json, os, sys
d, out = sys.argv[1:]
parts = {}
for part, f in (("1", f"{d}/compare.json"), ("2", f"{d}/big-model/compare.json")):
    if os.path.exists(f):
        parts[part] = [{k: r.get(k) for k in ("strategy", "status", "oom_retries", "peak_process_bytes", "steady_step_s", "final_loss", "wall_s")}
                       for r in json.load(open(f)).get("rows", [])]
json.dump(parts, open(out, "w"), indent=1)
for part, rows in parts.items():
    for r in rows:
        print(f"part {part} {r['strategy']}: {r['status']} retries {r['oom_retries']} peak {r['peak_process_bytes']} step {r['steady_step_s']} wall {r['wall_s']}")
EOF
fi

if want 4 && [ -x /tmp/bin/gpu ]; then
  say "4. GPU tests"
  for t in linear:: batched:: norm:: softmax:: gelu:: adamw::; do
    [ $((END - SECONDS)) -lt 40 ] && { echo "tests: out of time before $t" >> "$LOG"; break; }
    timeout "$(left 150)" /tmp/bin/gpu --ignored --test-threads=1 "$t" >> /tmp/sc/tests.txt 2>&1
    echo "tests $t: exit $?" >> "$LOG"
  done
  grep -E '^test |test result' /tmp/sc/tests.txt > "$OUT/tests.txt"
fi
(cd /tmp/sc && tar cf - --exclude='*.svg' --exclude=memory.csv --exclude=timeline.csv --exclude='*.html' . 2>/dev/null | xz -6 > "$OUT/runs.tar.xz")
say done
