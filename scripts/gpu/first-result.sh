# Experiment for scripts/gpu/run.sh (issue 23): a GPU user's first result, measured as a
# new user meets it. Nothing is set in the environment for oomlab (no
# CUBECL_AUTOTUNE_LEVEL, no OOMLAB_KERNEL_CACHE, no LD_LIBRARY_PATH: oomlab finds NVRTC
# itself); the kernel cache is the default ~/.cache/oomlab/cubecl. Run from the repository
# root on the device machine, the binary carried xz-compressed in .device-bin/oomlab.xz
# (setup.sh explains).
# runner: new-user
#
#   MODE=build  bash scripts/gpu/run.sh first-result   # warm-up of the gpu config: the pack
#   MODE=build2 bash scripts/gpu/run.sh first-result   # then tiny and h200, same machine
#   MODE=build3 bash scripts/gpu/run.sh first-result   # fresh machine: tiny, h200, f16 rows
#   MODE=verify bash scripts/gpu/run.sh first-result   # fresh machine, binary with the pack,
#                                                      # and another GPU's stand-in
#   MODE=compare bash scripts/gpu/run.sh first-result  # then compare --strategies all
#   MODE=update bash scripts/gpu/run.sh first-result   # fresh machine, binary with the pack:
#                   # the lesson (both parts) as a new user meets it, then what the pack
#                   # lacks for compare --config gpu, tiny and h200: cache for the pack
#   MODE=verify-lesson bash scripts/gpu/run.sh first-result  # fresh machine, updated pack:
#                   # first steps of gpu f32/bf16, the lesson, tiny f32, h200 bf16, the
#                   # OOM CLI check (exit 3 expected; update runs its shape unbudgeted first);
#                   # PACK=1: its kernel cache returned too, for a pack update when the
#                   # binary's defaults changed (what a new user compiled beyond the pack);
#                   # LESSON=0: without the lesson (a short check of the first steps)
#
# COMPILE_LOG=1 (any mode): each first_step process writes cubecl's compilation log
# (OOMLAB_COMPILE_LOG: every kernel it compiles, with name, id and source) to
# /tmp/runs/NAME.compile.log, returned in runs-MODE.tar.xz, and the log counts them by name.
# A diagnostic of what the pack lacks: it slows compiling, so its first-step times are
# not a new user's.
# build/build2/build3/update leave $OUT/kernel-cache.tar.xz, from which scripts/kernel-pack.py makes
# crates/oomlab-kernels/pack/nvidia-h200/. Every timing here is wall-clock on the device machine.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
LOG=$OUT/log-${MODE:-build}.txt
# What a new user's shell has: none of the variables oomlab or cubecl read.
unset CUBECL_AUTOTUNE_LEVEL OOMLAB_KERNEL_CACHE CUBECL_DEBUG_LOG XDG_CACHE_HOME
CACHE=$HOME/.cache/oomlab/cubecl
stamp() { date -u +%H:%M:%S.%N | cut -c1-12; }
# Every step is bounded by what is left of the call (BUDGET seconds, 90 kept for packing
# the results), so the results always come back.
END=$((SECONDS + ${BUDGET:-560} - 90))
left() { local l=$((END - SECONDS)); [ "$l" -lt "$1" ] && echo $((l > 1 ? l : 1)) || echo "$1"; }
say() { echo "### $* ($(stamp))" | tee -a "$LOG"; }
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"; echo "commit: ${COMMIT:-unknown}"; echo "mode: ${MODE:-build}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  echo "kernel cache before: $(find "$CACHE" -type f 2>/dev/null | wc -l) files"
  echo "driver JIT cache before: $(du -sh ~/.nv/ComputeCache 2>/dev/null | cut -f1)"
  env | grep -E '^(CUBECL|OOMLAB|LD_LIBRARY_PATH|CUDA_CACHE)' | sed 's/^/env: /'
} >> "$LOG" 2>&1

# first_step NAME ARGS...: one fresh `oomlab train` process, 3 steps; the summary's first
# step and what it compiled go to the log, the JSON to $R.
first_step() {
  local name=$1; shift
  say "first step: $name: oomlab train $* --max-steps 3"
  local t0=$(date +%s.%N)
  local compile_log=()
  [ "${COMPILE_LOG:-0}" = 1 ] && compile_log=(OOMLAB_COMPILE_LOG=/tmp/runs/$name.compile.log)
  env "${compile_log[@]}" timeout $(left ${STEP_LIMIT:-120}) $BIN train "$@" --max-steps 3 --json --out /tmp/runs/$name > /tmp/runs/$name.json 2> /tmp/runs/$name.stderr
  local rc=$? t1=$(date +%s.%N)
  if [ -f /tmp/runs/$name.compile.log ]; then
    echo "$name: kernels in its compilation log, by name:" >> "$LOG"
    grep -A1 '^\[START_KERNEL_COMPILATION\]' /tmp/runs/$name.compile.log | grep '^name: ' | cut -c7-90 | sort | uniq -c >> "$LOG"
  fi
  python3 - "$name" "$rc" "$t0" "$t1" /tmp/runs/$name.json >> "$LOG" <<'EOF'
import json, sys
name, rc, t0, t1, path = sys.argv[1:]
try:
    s = json.load(open(path))
except Exception as e:
    print(f"{name}: exit {rc}, process {float(t1)-float(t0):.1f} s, no summary ({e})")
    raise SystemExit
k = s.get("kernel_cache") or {}
run = k.get("added_in_run") or {}
print(f"{name}: exit {rc}, process {float(t1)-float(t0):.1f} s, time to first step {s.get('time_to_first_step_s')} s, "
      f"warm-up step {s.get('warm_up_s')} s, kernels compiled {run.get('kernels')}, autotuned {run.get('tuned')}, "
      f"steady step {s.get('steady_step_s')} s, final loss {s.get('final_loss')}, "
      f"host heap peak {(s.get('memory') or {}).get('host_heap_peak')} (None: not counted, CUDA's default)")
EOF
}
mkdir -p /tmp/runs

case ${MODE:-build} in
build)
  say "warm-up --config gpu (every compare row, two halvings)"
  timeout ${LIMIT:-500} $BIN warm-up --config gpu --json --out /tmp/runs/warm-up-gpu > "$OUT/warm-up-gpu.json" 2> /tmp/runs/warm-up-gpu.stderr
  echo "exit: $?" >> "$LOG"
  tail -5 /tmp/runs/warm-up-gpu.stderr >> "$LOG"
  ;;
build2)
  say "warm-up --config tiny (every row) and h200 (baseline, amp-bf16, amp-f16)"
  timeout $(left 200) $BIN warm-up --config tiny --strategies baseline,amp-bf16 --halvings 0 --json --out /tmp/runs/warm-up-tiny > "$OUT/warm-up-tiny.json" 2> /tmp/runs/warm-up-tiny.stderr
  echo "exit: $?" >> "$LOG"
  timeout $(left 400) $BIN warm-up --config h200 --strategies amp-bf16 --halvings 0 --json --out /tmp/runs/warm-up-h200 > "$OUT/warm-up-h200.json" 2> /tmp/runs/warm-up-h200.stderr
  echo "exit: $?" >> "$LOG"
  tail -5 /tmp/runs/warm-up-h200.stderr >> "$LOG"
  # What the driver's own JIT cache costs: the PTX is all in oomlab's cache now; remove
  # the driver's cache of machine code and start a run, then again with it.
  [ $((END - SECONDS)) -gt 60 ] && rm -rf ~/.nv/ComputeCache
  first_step jit-cold --config gpu --precision bf16
  first_step jit-warm --config gpu --precision bf16
  ;;
build3)
  # What the 889-kernel pack still lacks, measured as first steps (each a fresh process
  # on a fresh machine: how far the pack gets them) and then compiled to the end.
  STEP_LIMIT=200 first_step tiny-f32 --config tiny --device cuda
  STEP_LIMIT=240 first_step h200-bf16 --config h200 --precision bf16
  say "warm-up --config gpu: half-f16, amp-f16"
  timeout $(left 400) $BIN warm-up --config gpu --strategies half-f16,amp-f16 --halvings 0 --json --out /tmp/runs/warm-up-f16 > /tmp/runs/warm-up-f16.json 2> /tmp/runs/warm-up-f16.stderr
  echo "exit: $?" >> "$LOG"
  tail -6 /tmp/runs/warm-up-f16.stderr >> "$LOG"
  ;;
verify)
  # The Done-when runs, each a fresh process, in this order on a fresh machine, then the
  # stand-in for a GPU oomlab ships nothing for. Its kernel cache is not packed (the
  # pack should hold all of it: the log's "kernels compiled" says whether it did).
  first_step gpu-f32 --config gpu
  first_step gpu-bf16 --config gpu --precision bf16
  # SIGTERM while kernels compile: without the kernel cache (--kernel-cache off) the
  # first step compiles for minutes; the signal comes 20 s in.
  say "SIGTERM during a compile: train --config gpu --precision f16 --kernel-cache off, SIGTERM at 20 s"
  $BIN train --config gpu --precision f16 --kernel-cache off --max-steps 3 --out /tmp/runs/sigterm > "$OUT/sigterm.stdout" 2> /tmp/runs/sigterm.stderr &
  pid=$!
  sleep 20
  t0=$(date +%s.%N); kill -TERM $pid
  timeout 60 tail --pid=$pid -f /dev/null || { echo "sigterm: still running 60 s after SIGTERM: SIGKILL" >> "$LOG"; kill -KILL $pid; }
  wait $pid; rc=$?; t1=$(date +%s.%N)
  python3 -c "import sys; print(f'sigterm: exit {sys.argv[1]}, ended {float(sys.argv[3])-float(sys.argv[2]):.2f} s after SIGTERM')" $rc $t0 $t1 >> "$LOG"
  tail -3 /tmp/runs/sigterm.stderr >> "$LOG"
  grep -o '"stopped_during": "[^"]*"' /tmp/runs/sigterm/summary.json >> "$LOG" 2>&1
  say "lesson --yes"
  t0=$(date +%s.%N)
  timeout $(left ${LESSON_LIMIT:-300}) $BIN lesson --yes --out /tmp/runs/lesson > "$OUT/lesson.stdout" 2> /tmp/runs/lesson.stderr
  rc=$?; t1=$(date +%s.%N)
  python3 -c "import sys; print(f'lesson: exit {sys.argv[1]}, {float(sys.argv[3])-float(sys.argv[2]):.1f} s')" $rc $t0 $t1 >> "$LOG"
  cp /tmp/runs/lesson/compare.json /tmp/runs/lesson-compare.json 2>/dev/null
  first_step tiny-f32 --config tiny --device cuda
  first_step gpu-f16 --config gpu --precision f16
  first_step h200-bf16 --config h200 --precision bf16
  # Another GPU: oomlab ships nothing for it. The closest stand-in here is this H200 with
  # the shipped kernels and autotune results withheld (--no-tuned-pack) and a cache of
  # its own: the first run compiles everything, the second reuses what the first left.
  STEP_LIMIT=${OTHER_LIMIT:-240} first_step other-gpu-f32 --config gpu --no-tuned-pack --kernel-cache /tmp/other-gpu-cache
  first_step other-gpu-f32-again --config gpu --no-tuned-pack --kernel-cache /tmp/other-gpu-cache
  ;;
update|verify-lesson)
  # FIRST=1 with update: first the gpu config's first steps, as a new user meets a binary
  # whose kernels the shipped pack does not yet all hold.
  if [ "$MODE" = verify-lesson ] || [ "${FIRST:-0}" = 1 ]; then
    first_step gpu-f32 --config gpu
    first_step gpu-bf16 --config gpu --precision bf16
  fi
  if [ "${LESSON:-1}" = 1 ]; then
    say "lesson --yes (both parts)"
    t0=$(date +%s.%N)
    timeout $(left ${LESSON_LIMIT:-330}) $BIN lesson --yes --out /tmp/runs/lesson > /tmp/runs/lesson.stdout 2> /tmp/runs/lesson.stderr
    rc=$?; t1=$(date +%s.%N)
    python3 -c "import sys; print(f'lesson: exit {sys.argv[1]}, {float(sys.argv[3])-float(sys.argv[2]):.1f} s')" $rc $t0 $t1 >> "$LOG"
    tail -3 /tmp/runs/lesson.stderr >> "$LOG"
    $BIN lesson --exercises > "$OUT/exercises.md" 2>> "$LOG"
    find /tmp/runs/lesson -name memory.csv -size +300k -delete
    cp /tmp/runs/lesson.stdout /tmp/runs/lesson/lesson.stdout
    (cd /tmp/runs && tar cf - lesson | python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.compress(sys.stdin.buffer.read()))" > "$OUT/lesson-$MODE.tar.xz")
  fi
  if [ "$MODE" = update ]; then
    say "warm-up --config gpu (every compare row, no halvings)"
    timeout $(left 300) $BIN warm-up --config gpu --halvings 0 --json --out /tmp/runs/warm-up-gpu > /tmp/runs/warm-up-gpu.json 2> /tmp/runs/warm-up-gpu.stderr
    echo "exit: $?" >> "$LOG"
    tail -4 /tmp/runs/warm-up-gpu.stderr >> "$LOG"
  fi
  STEP_LIMIT=90 first_step tiny-f32 --config tiny --device cuda
  STEP_LIMIT=150 first_step h200-bf16 --config h200 --precision bf16
  # The OOM CLI check (tests/gpu/oom.rs's size): `train --config tiny --batch 16384
  # --vram-budget 4GiB` must end with exit 3 on a fresh machine. A kernel that is neither
  # packed nor tuned gets autotuned inside the step that runs out of memory, where every
  # candidate fails and burn's fusion stream dies (exit 1: docs/results/2026-12-04-h200-
  # cublas-oom, call3/call4). update: the same shape without a budget first, so that the
  # pack gets its kernels and tunes; verify-lesson: the check itself.
  if [ "$MODE" = update ]; then
    STEP_LIMIT=90 first_step oom-shape --config tiny --device cuda --batch 16384
  fi
  say "oom cli (nothing set): train --device cuda --config tiny --batch 16384 --vram-budget 4GiB --max-steps 3"
  timeout $(left 90) $BIN train --device cuda --config tiny --batch 16384 --vram-budget 4GiB --max-steps 3 \
    --out /tmp/runs/oom-cli > /dev/null 2> /tmp/runs/oom-cli.stderr
  echo "oom cli exit $?" >> "$LOG"
  tail -3 /tmp/runs/oom-cli.stderr >> "$LOG"
  ;;
compare)
  say "compare --config gpu --strategies all"
  t0=$(date +%s.%N)
  timeout $(left ${COMPARE_LIMIT:-420}) $BIN compare --config gpu --strategies all --out /tmp/runs/compare > "$OUT/compare.stdout" 2> /tmp/runs/compare.stderr
  rc=$?; t1=$(date +%s.%N)
  python3 -c "import sys; print(f'compare: exit {sys.argv[1]}, {float(sys.argv[3])-float(sys.argv[2]):.1f} s')" $rc $t0 $t1 >> "$LOG"
  cp /tmp/runs/compare/compare.json "$OUT/compare.json" 2>/dev/null
  cp /tmp/runs/compare/report.html "$OUT/report.html" 2>/dev/null
  ;;
esac

say "kernel cache after: $(find "$CACHE" -type f | wc -l) files, $(du -sh "$CACHE" | cut -f1); toc lines $(cat "$CACHE"/cuda/*/ptx/toc.json.log 2>/dev/null | wc -l), autotune lines $(cat "$CACHE"/autotune/*/*/*.json.log 2>/dev/null | wc -l)"
case ${MODE:-build}:${PACK:-0} in
build:*|build2:*|build3:*|update:*|verify-lesson:1)
  tar cf - -C "$CACHE" . | python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.compress(sys.stdin.buffer.read(), preset=1))" > "$OUT/kernel-cache.tar.xz"
  ls -la "$OUT/kernel-cache.tar.xz" >> "$LOG"
  # The device tool returns files of up to 16 MiB: larger, in parts (cat them back).
  if [ "$(stat -c %s "$OUT/kernel-cache.tar.xz")" -gt 15728640 ]; then
    split -b 15M "$OUT/kernel-cache.tar.xz" "$OUT/kernel-cache.tar.xz.part-" && rm "$OUT/kernel-cache.tar.xz"
  fi
  ;;
esac
# Every run's summary (the figures in the log come from these), in one file.
(cd /tmp/runs && find . -maxdepth 1 \( -name "*.json" -o -name "*.compile.log" \) | tar cf - -T - | python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.compress(sys.stdin.buffer.read()))" > "$OUT/runs-${MODE:-build}.tar.xz")
say done
