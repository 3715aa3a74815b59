# Experiment for scripts/gpu/run.sh: what a new user meets on a fresh GPU with nothing set,
# and the figures the README's headline table reads (scripts/readme-figures.py). One call
# on a fresh machine, in this order:
#   1. the card: its name and NVML total (nvidia-smi), and the total PyTorch reports
#      (torch.cuda.mem_get_info), the capacity `oomlab estimate --card` lists;
#   2. the first steps of `train --config gpu` in f32 and AMP bf16 (fresh processes, 3
#      steps each, the default kernel cache empty at the start);
#   3. `oomlab lesson --yes` (both parts; the lesson measures the card first and sets its
#      budget from it), with COLUMNS=100 as a piped terminal has it: its time, its output
#      and each part's compare.json; the widest line it printed;
#   4. the first steps of tiny f32 and h200 AMP bf16;
#   5. `oomlab train --config gpu` as text at COLUMNS=100 (its widest line), and
#      `oomlab gpu` while a PyTorch process holds 20 GiB (the guide's example);
#   6. `oomlab compare --config gpu --strategies all` (COMPARE=0 leaves it out): its time.
# Each step is bounded by what is left of the call (BUDGET seconds, 60 kept for packing).
# FIRST=0 leaves the first steps (2 and 4) out.
# Results in $OUT: log.txt (every figure), lesson.stdout, lesson-compare-part1.json,
# lesson-compare-part2.json, train-gpu.txt, gpu.txt, runs.tar.xz (every run's summary).
# compare.json is left on the machine: 8 files come back at most.
# runner: new-user
#
#   OUT=$OUT BUDGET=590 bash scripts/gpu/run.sh new-user
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/runs
LOG=$OUT/log.txt
unset CUBECL_AUTOTUNE_LEVEL OOMLAB_KERNEL_CACHE CUBECL_DEBUG_LOG XDG_CACHE_HOME COLUMNS
END=$((SECONDS + ${BUDGET:-590} - 60))
left() { local l=$((END - SECONDS)); [ "$l" -lt "$1" ] && echo $((l > 1 ? l : 1)) || echo "$1"; }
stamp() { date -u +%H:%M:%S; }
say() { echo "### $* ($(stamp))" | tee -a "$LOG"; }
elapsed() { python3 -c "import sys; print(f'{sys.argv[1]}: exit {sys.argv[2]}, {float(sys.argv[4])-float(sys.argv[3]):.1f} s')" "$@"; }
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"; echo "commit: ${COMMIT:-unknown}"
  echo "card: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader)"
  python3 -c "import torch; f,t=torch.cuda.mem_get_info(); print(f'pytorch total capacity: {t} bytes = {t/2**30:.2f} GiB ({torch.cuda.get_device_name(0)}, torch {torch.__version__})')" 2>&1 | tail -1
  echo "kernel cache before: $(find ~/.cache/oomlab/cubecl -type f 2>/dev/null | wc -l) files"
  env | grep -E '^(CUBECL|OOMLAB|COLUMNS)' | sed 's/^/env: /'
} >> "$LOG" 2>&1

# first_step NAME ARGS...: one fresh `oomlab train` process, 3 steps.
first_step() {
  local name=$1; shift
  say "first step: $name: oomlab train $* --max-steps 3"
  timeout "$(left 120)" "$BIN" train "$@" --max-steps 3 --json --out /tmp/runs/$name > /tmp/runs/$name.json 2> /tmp/runs/$name.stderr
  local rc=$?
  python3 - "$name" "$rc" /tmp/runs/$name.json >> "$LOG" <<'EOF'
import json, sys
name, rc, path = sys.argv[1:]
try:
    s = json.load(open(path))
except Exception as e:
    print(f"first step {name}: exit {rc}, no summary ({e})")
    raise SystemExit
k = (s.get("kernel_cache") or {}).get("added_in_run") or {}
print(f"first step {name}: exit {rc}, time to first step {s.get('time_to_first_step_s'):.2f} s, "
      f"kernels compiled {k.get('kernels')}, steady step {s.get('steady_step_s')} s")
EOF
}

if [ "${FIRST:-1}" = 1 ]; then
  first_step gpu-f32 --config gpu
  first_step gpu-bf16 --config gpu --precision bf16
fi

say "lesson --yes (both parts), COLUMNS=100"
t0=$(date +%s.%N)
COLUMNS=100 timeout "$(left 330)" "$BIN" lesson --yes --out /tmp/runs/lesson > "$OUT/lesson.stdout" 2> /tmp/runs/lesson.stderr
rc=$?; t1=$(date +%s.%N)
elapsed lesson "$rc" "$t0" "$t1" >> "$LOG"
python3 -c "import sys; t=open(sys.argv[1],encoding='utf-8').read().splitlines(); print(f'lesson: widest line {max(map(len,t),default=0)} characters, {sum(len(l)>100 for l in t)} over 100')" "$OUT/lesson.stdout" >> "$LOG"
tail -3 /tmp/runs/lesson.stderr >> "$LOG"
cp /tmp/runs/lesson/compare.json "$OUT/lesson-compare-part1.json" 2>/dev/null
cp /tmp/runs/lesson/big-model/compare.json "$OUT/lesson-compare-part2.json" 2>/dev/null

if [ "${FIRST:-1}" = 1 ]; then
  first_step tiny-f32 --config tiny --device cuda
  first_step h200-bf16 --config h200 --precision bf16
fi

say "train --config gpu --max-steps 3, its summary as a piped terminal shows it (COLUMNS=100)"
COLUMNS=100 timeout "$(left 60)" "$BIN" train --config gpu --max-steps 3 --out /tmp/runs/train-text > "$OUT/train-gpu.txt" 2> /tmp/runs/train-text.stderr
echo "train text: exit $?" >> "$LOG"
python3 -c "import sys; t=open(sys.argv[1],encoding='utf-8').read().splitlines(); print(f'train text: widest line {max(map(len,t),default=0)} characters, {sum(len(l)>100 for l in t)} over 100')" "$OUT/train-gpu.txt" >> "$LOG"

say "oomlab gpu while a PyTorch process holds 20 GiB"
python3 -c "import torch, time; x = torch.empty(20 * 2**30, dtype=torch.uint8, device='cuda'); print('held', flush=True); time.sleep(60)" > /tmp/runs/holder.txt 2>&1 &
holder=$!
for _ in $(seq 30); do grep -q held /tmp/runs/holder.txt 2>/dev/null && break; sleep 1; done
COLUMNS=100 timeout 30 "$BIN" gpu > "$OUT/gpu.txt" 2>&1
echo "gpu: exit $?" >> "$LOG"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null

if [ "${COMPARE:-1}" = 1 ] && [ $((END - SECONDS)) -gt 150 ]; then
  say "compare --config gpu --strategies all"
  t0=$(date +%s.%N)
  timeout "$(left 300)" "$BIN" compare --config gpu --strategies all --out /tmp/runs/compare > /tmp/runs/compare.stdout 2> /tmp/runs/compare.stderr
  rc=$?; t1=$(date +%s.%N)
  elapsed compare "$rc" "$t0" "$t1" >> "$LOG"
fi
(cd /tmp/runs && find . -maxdepth 1 -name "*.json" | tar cf - -T - | python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.compress(sys.stdin.buffer.read()))" > "$OUT/runs.tar.xz")
say done
