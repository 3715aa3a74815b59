# Experiment for scripts/gpu/run.sh: crash-safe training (issue 14) on a GPU, run on the
# H200 through the device tool from the repository root:
#   COMMIT=<sha> PART=stuck|phases|soak bash scripts/gpu/run.sh crash   (default: stuck,phases)
# Carries .device-bin/ (oomlab.xz, and gpu.xz for the soak; see setup.sh). Its helpers are
# the Python scripts beside it (vram-watch.py, zombie-parent.py, fork-holder.py, oom-phases.py).
# Results: $RESULTS/crash (default /tmp/res/crash), log.txt first.
rm -rf "${RESULTS:-/tmp/res}/crash"   # a warm machine keeps the last call's folders
start_log crash
PART=${PART:-stuck,phases}
T0=$(date +%s)
elapsed() { echo $(( $(date +%s) - T0 )); }
used() { python3 scripts/gpu/vram-watch.py used; }
gib() { python3 -c "print(f'{int($1)/2**30:.2f} GiB')"; }
# wait_steps DIR N SECS: until DIR/steps.jsonl has N lines
wait_steps() {
  for _ in $(seq 1 $(( $3 * 20 ))); do
    [ "$(cat "$1/steps.jsonl" 2>/dev/null | wc -l)" -ge "$2" ] && return 0
    sleep 0.05
  done
  return 1
}
# reap PID SECS: waits for PID (a child of this shell) at most SECS; its exit status, or
# 'still running' (then it is killed with SIGKILL so the script goes on).
reap() {
  for _ in $(seq 1 $(( $2 * 10 ))); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$1" 2>/dev/null; then kill -9 "$1"; wait "$1" 2>/dev/null; echo "still running after $2 s (killed)"; else wait "$1"; echo $?; fi
}
# holder DIR ARGS: a training run holding 30% of the card (exec: $! is oomlab's own PID)
holder() { exec "$BIN" train --device cuda --config tiny --max-steps 1000000 --memory-mode prealloc=0.3 --out "$1" -q "${@:2}"; }

if [[ $PART == *stuck* ]]; then
  U0=$(used); say "baseline: $(gib $U0) in use on GPU 0"
  say "warm the kernel cache: oomlab train --device cuda --config tiny --max-steps 3"
  timeout 200 "$BIN" train --device cuda --config tiny --max-steps 3 --out "$R/warm" -q > /dev/null 2>> "$LOG"
  echo "exit $? after $(elapsed) s" >> "$LOG"

  say "A. SIGKILL while training: a process holding prealloc=0.3 of the card is killed with kill -9"
  holder "$R/a" 2>> "$LOG" & P=$!
  wait_steps "$R/a" 3 120 || echo "no steps" >> "$LOG"
  "$BIN" gpu --json > "$R/a-before.json" 2>&1; "$BIN" gpu >> "$LOG" 2>&1
  U1=$(used); echo "in use while training: $(gib $U1) (PID $P)" >> "$LOG"
  kill -9 $P
  MS=$(python3 scripts/gpu/vram-watch.py until-below $(( U0 + (1 << 30) )) 30)
  echo "exit status $(reap $P 10) (137 = SIGKILL); back within 1 GiB of the baseline after: $MS ms" >> "$LOG"
  "$BIN" gpu --json > "$R/a-after.json" 2>&1; "$BIN" gpu >> "$LOG" 2>&1

  say "B. SIGSTOP: the process keeps its VRAM; oomlab gpu flags it; oomlab gpu --kill (SIGTERM + SIGCONT) stops it cleanly"
  holder "$R/b" --checkpoint-every 0 2>> "$LOG" & P=$!
  wait_steps "$R/b" 3 60 || echo "no steps" >> "$LOG"
  kill -STOP $P; sleep 1; U1=$(used)
  "$BIN" gpu > "$R/b-stopped.txt" 2>&1; "$BIN" gpu --json > "$R/b-stopped.json" 2>&1; cat "$R/b-stopped.txt" >> "$LOG"
  sleep 3; U2=$(used); echo "in use while stopped: $(gib $U1), 3 s later $(gib $U2)" >> "$LOG"
  "$BIN" gpu --kill $P --yes >> "$LOG" 2>&1; echo "oomlab gpu --kill exit $?" >> "$LOG"
  echo "training process exit status $(reap $P 30) (143 = stopped by SIGTERM, checkpoint and summary written)" >> "$LOG"
  ls -la "$R/b/checkpoints" >> "$LOG" 2>&1
  python3 -c "import json; s=json.load(open('$R/b/summary.json')); print('summary: stop', s['stop'], 'steps', s['steps_completed'], 'checkpoint', s['checkpoints']['last'])" >> "$LOG" 2>&1
  echo "in use after: $(gib $(used))" >> "$LOG"

  say "C. a zombie: killed, its parent does not reap it for 2 s"
  timeout 150 python3 scripts/gpu/zombie-parent.py "$BIN" "$R/c" > "$R/c-zombie.jsonl" 2>> "$LOG"
  cat "$R/c-zombie.jsonl" >> "$LOG"

  say "D. an inherited context: PyTorch holds 20 GiB, forks a child that never uses CUDA; the parent is killed"
  rm -f /tmp/fork-ready
  python3 scripts/gpu/fork-holder.py 20 /tmp/fork-ready 2>> "$LOG" &
  for _ in $(seq 1 600); do [ -s /tmp/fork-ready ] && break; sleep 0.1; done
  read PARENT CHILD < /tmp/fork-ready
  echo "parent $PARENT child $CHILD; in use $(gib $(used))" >> "$LOG"
  "$BIN" gpu --json > "$R/d-before.json" 2>&1
  kill -9 $PARENT; sleep 2
  echo "2 s after kill -9 of the parent: in use $(gib $(used)); child alive: $(kill -0 $CHILD 2>/dev/null && echo yes || echo no)" >> "$LOG"
  "$BIN" gpu > "$R/d-after-parent.txt" 2>&1; "$BIN" gpu --json > "$R/d-after-parent.json" 2>&1; cat "$R/d-after-parent.txt" >> "$LOG"
  echo "the child's open NVIDIA device files:" >> "$LOG"; ls -l /proc/$CHILD/fd 2>/dev/null | grep -c nvidia >> "$LOG"
  kill -9 $CHILD
  MS=$(python3 scripts/gpu/vram-watch.py until-below $(( U0 + (1 << 30) )) 30)
  echo "after kill -9 of the child: back within 1 GiB of the baseline after $MS ms" >> "$LOG"
  "$BIN" gpu --json > "$R/d-after-child.json" 2>&1
  echo "stuck part done at $(elapsed) s" >> "$LOG"
fi

if [[ $PART == *phases* ]]; then
  say "E. OOM in each phase on the current code: the gpu config trains 3 steps with a checkpoint, then resumes under smaller --vram-budget"
  timeout 240 "$BIN" train --device cuda --config gpu --max-steps 3 --checkpoint-every 3 --out "$R/e0" -q --json > "$R/e0.json" 2>> "$LOG"
  echo "e0 exit $? at $(elapsed) s" >> "$LOG"
  sweep() { # BATCH BUDGETS...
    local batch=$1; shift
    for b in "$@"; do
      [ "$(elapsed)" -gt "${STOP_AT:-520}" ] && { echo "time: sweep stopped before batch $batch budget $b" >> "$LOG"; return; }
      local d="$R/e-b$batch-$b"; rm -rf "$d"; cp -r "$R/e0" "$d"
      cp "$d/checkpoints/step-000003.ckpt" "$d/resumed-from.ckpt"
      timeout 120 "$BIN" train --resume "$d" --vram-budget "$b" --batch "$batch" --max-steps 4 --force --check-every phase -q --json > "$d/out.json" 2> "$d/stderr.txt"
      echo "batch $batch budget $b: exit $? ($(elapsed) s)" >> "$LOG"
    done
  }
  sweep 64 1536MiB 2GiB 3GiB 4GiB 5GiB 6GiB 7GiB 8GiB 9GiB
  sweep 1 1GiB 1152MiB 1280MiB 1408MiB 1536MiB
  python3 scripts/gpu/oom-phases.py "$R" > "$R/phases.md" 2>> "$LOG"; cat "$R/phases.md" >> "$LOG"
fi

if [[ $PART == *soak* ]]; then
  say "F. 100 OOM -> recover cycles under a 4 GiB budget (tests/gpu/oom.rs, current code)"
  OOMLAB_TEST_OOM_CYCLES=100 OOMLAB_TEST_VRAM_BUDGET=4GiB \
    timeout 400 /tmp/bin/gpu --ignored --nocapture --test-threads 1 oom:: > "$R/soak.txt" 2>&1
  echo "soak exit $? at $(elapsed) s" >> "$LOG"; tail -15 "$R/soak.txt" >> "$LOG"
fi
pkill -9 -f "^$BIN train" 2>/dev/null
say "done at $(elapsed) s"
