#!/usr/bin/env bash
# The bench command of issue 11, on the H200 through the device tool, from the repository
# root:
#   COMMIT=<sha> CONFIG=gpu STEPS=20 REPEATS=3 bash benches/paired.sh
# Carries .device-bin/ (oomlab.xz; optionally kernels.tar.xz, a kernel cache an earlier call
# returned; see scripts/gpu/setup.sh).
# 1. (unless SKIP_COLD=1) cold start on this fresh machine: `oomlab train --config $CONFIG` (f32, defaults) with
#    an empty kernel cache into which oomlab installs the autotune results it ships
#    (crates/oomlab-kernels/pack/), then, if TRULY_COLD=1, once more without them (--no-tuned-pack);
# 2. benches/paired.py: oomlab and PyTorch, every configuration REPEATS times, interleaved;
# 3. PROFILE=1: cubecl's kernel profiler on two oomlab runs (3 and 8 steps, same warm
#    cache), so the difference is what 5 steady steps spend in each kernel.
# With .device-bin/oomlab-before.xz carried too (the binary of the commit before a change):
# paired.py runs its defaults rows as well (--oomlab-before), the profile runs with both
# binaries (profile-before-P-N), and LONG_STEPS=N (e.g. 100) adds an N-step run of each
# binary at f32 and bf16 whose final losses are compared (long-*); LONG_FIRST=1 runs them
# before the yardstick (when the call's time is short, they answer the loss and peak bounds
# for less). The binary before has a kernel cache folder of its own
# (/tmp/oomlab-kernels-before; since 3a9930f, shared before that), so its first run
# compiles what it needs. ONLY: paired.py's --only;
# PROFILE_PRECISIONS (default "f32 bf16"). VARIANTS: paired.py's --variant values, space
# separated (e.g. "scatter:OOMLAB_EMBEDDING_GRAD=scatter"; name them in ONLY as oomlab-NAME).
# Results: $OUT/results.tar.gz, packed again after every stage (a call cut short returns
# what it finished); the kernel cache: $OUT/kernels.tar.xz, at the end.
set -u
OUT=${OUT:?set OUT}
# The results and the kernel cache are packed into it (a folder not made yet lost call 1's
# tarball in docs/results/2026-12-06-h100-adamw-kernel).
mkdir -p "$OUT"
CONFIG=${CONFIG:-gpu}
STEPS=${STEPS:-20}
REPEATS=${REPEATS:-3}
BUDGET=${BUDGET:-540}
source scripts/gpu/setup.sh
start_log "paired-$CONFIG"
left() { echo $(( BUDGET - SECONDS )); }
# pack: the results so far into $OUT/results.tar.gz, after every stage, so that a call cut
# short (by the device's limit, or a budget nearly spent) still returns what it finished.
pack() {
  rm -f "$R"/*/steps.jsonl "$R"/paired/runs/*/steps.jsonl "$R"/paired/data.txt
  # Written aside, then renamed: a call killed while tar runs keeps the last whole tarball.
  tar czf "$OUT/results.tar.gz.part" -C "${RESULTS:-/tmp/res}" "paired-$CONFIG" && mv "$OUT/results.tar.gz.part" "$OUT/results.tar.gz"
}
# The N-step runs of each binary at f32 and bf16 (LONG_STEPS=N): final losses, steady steps
# and NVML peaks, before against after. 60 s is ample for a warm cache; the binary before
# may meet its first compile here (LONG_BEFORE_S, default 150 s: enough where it installs
# the kernel pack it ships; 75cc3a4 on an H100, which it gives no pack, compiled for 186 s
# in docs/results/2026-12-07-h100-final-check).
# `timeout` sends TERM first: a binary since abc07d6 ends within 20 s of it with its summary
# (its watchdog, src/train/stall.rs), but an older one finishes its compile first (75cc3a4
# overran its 240 s by 79 s in docs/results/2026-12-07-h100-done-when), so KILL follows 30 s
# on; such a killed run leaves no JSON, and long-table.py's row says so. TERM comes at least
# 40 s before the budget ends, so the KILL falls inside it too.
long_runs() {
  for p in f32 bf16; do for which in after before; do
    b=$BIN; [ "$which" = before ] && b=$BEFORE_BIN
    [ -n "$b" ] && [ "$(left)" -gt 60 ] || continue
    say "4. $LONG_STEPS steps, $p, $which"
    t=$([ "$which" = before ] && echo "${LONG_BEFORE_S:-150}" || echo 60)
    [ "$t" -gt $(( $(left) - 40 )) ] && t=$(( $(left) - 40 ))
    timeout -k 30 "$t" $b train --config "$CONFIG" --device cuda --precision $p --max-steps "$LONG_STEPS" --json --quiet \
      --out "$R/long-$which-$p" > "$R/long-$which-$p.json" 2>> "$LOG"
    echo "exit: $?" >> "$LOG"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('final_loss', repr(d['final_loss']), 'steady_step_s', d['steady_step_s'], 'process_peak', d['memory']['process_peak'])" \
      "$R/long-$which-$p.json" >> "$LOG" 2>&1
    rm -f "$R/long-$which-$p/memory.csv"
    pack
  done; done
}

if [ "${SKIP_COLD:-0}" != 1 ]; then
  say "1. cold start, empty kernel cache + the shipped autotune results"
  OOMLAB_KERNEL_CACHE=/tmp/fresh-kernels timeout 200 $BIN train --config "$CONFIG" --device cuda \
    --max-steps 3 --out "$R/cold-shipped" > /dev/null 2> "$R/cold-shipped.stderr.txt"
  echo "exit: $?" >> "$LOG"
fi
if [ "${TRULY_COLD:-0}" = 1 ]; then
  say "1b. cold start, empty kernel cache, nothing shipped"
  OOMLAB_KERNEL_CACHE=/tmp/empty-kernels timeout 280 $BIN train --config "$CONFIG" --device cuda \
    --max-steps 3 --no-tuned-pack --out "$R/cold-nothing" > /dev/null 2> "$R/cold-nothing.stderr.txt"
  echo "exit: $?" >> "$LOG"
fi
[ -d /tmp/oomlab-kernels ] || cp -r /tmp/fresh-kernels /tmp/oomlab-kernels 2>/dev/null

PROFILE_S=$([ "${PROFILE:-0}" = 1 ] && echo 45 || echo 0)
BEFORE_BIN=$([ -x /tmp/bin/oomlab-before ] && [ -e .device-bin/oomlab-before.xz ] && echo /tmp/bin/oomlab-before || true)
if [ -n "$BEFORE_BIN" ]; then
  # The binary before runs with a kernel cache of its own: an older binary installs its own
  # shipped autotune results where the two would share a folder, and the binary after would
  # then tune from them in its later repeats. Its first run compiles what its cache lacks.
  printf '#!/bin/sh\nOOMLAB_KERNEL_CACHE=/tmp/oomlab-kernels-before exec %s "$@"\n' "$BEFORE_BIN" > "$BEFORE_BIN-own-cache"
  chmod +x "$BEFORE_BIN-own-cache"
  BEFORE_BIN=$BEFORE_BIN-own-cache
fi
EXTRA=()
[ -n "$BEFORE_BIN" ] && EXTRA+=(--oomlab-before "$BEFORE_BIN")
[ -n "${ONLY:-}" ] && EXTRA+=(--only "$ONLY")
for v in ${VARIANTS:-}; do EXTRA+=(--variant "$v"); done
# What the yardstick's deadline leaves for the long runs when they come after it.
LONG_S=0
if [ -n "${LONG_STEPS:-}" ] && [ "${LONG_FIRST:-0}" = 1 ]; then
  long_runs
elif [ -n "${LONG_STEPS:-}" ]; then
  LONG_S=$([ -n "$BEFORE_BIN" ] && echo "${LONG_BEFORE_S:-150}" || echo 90)
fi
# The long runs that came first may have spent the budget (a negative or zero limit would
# make `timeout` fail on its argument, as it did in docs/results/2026-12-07-h100-done-when).
DEADLINE=$(( $(left) - 60 - PROFILE_S - LONG_S ))
if [ "$DEADLINE" -lt 20 ]; then
  say "2. paired yardstick: skipped, $(left) s of the budget left"
else
  say "2. paired yardstick, $REPEATS repeats, $STEPS steps"
  timeout $(( $(left) - 15 )) python3 benches/paired.py --oomlab "$BIN" --config "$CONFIG" --steps "$STEPS" \
    --repeats "$REPEATS" --deadline-s "$DEADLINE" --out "$R/paired" "${EXTRA[@]}" > "$R/paired-stdout.txt" 2>&1
  echo "exit: $?" >> "$LOG"
  [ -f "$R/paired/paired.md" ] || python3 benches/paired.py --tables-only --out "$R/paired" >> "$LOG" 2>&1
  pack
fi

if [ -n "${LONG_STEPS:-}" ] && [ "${LONG_FIRST:-0}" != 1 ]; then
  long_runs
fi
if [ "${PROFILE:-0}" = 1 ]; then
  for which in after before; do
    b=$BIN; tag=""; [ "$which" = before ] && { b=$BEFORE_BIN; tag="before-"; }
    [ -n "$b" ] || continue
    for p in ${PROFILE_PRECISIONS:-f32 bf16}; do for n in 3 8; do
      [ "$(left)" -gt 20 ] || break
      say "3. profile $tag$p, $n steps"
      CUBECL_DEBUG_OPTION=profile CUBECL_DEBUG_LOG="$R/profile-$tag$p-$n.log" timeout 30 $b train --config "$CONFIG" \
        --device cuda --precision $p --max-steps $n --out "$R/profile-$tag$p-$n" > /dev/null 2>> "$LOG"
      echo "exit: $?" >> "$LOG"
      gzip -f "$R/profile-$tag$p-$n.log" 2>/dev/null
      pack
    done; done
  done
fi
say "done"
pack
tar cJf "$OUT/kernels.tar.xz" -C /tmp oomlab-kernels
cat "$LOG"
tail -40 "$R/paired/paired.md" 2>/dev/null
