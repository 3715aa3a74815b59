# Issue 29: where the host's time goes in a steady step, per thread and function, with
# Linux perf sampling the CPU (the device machine has no perf: it is carried).
# host-threads.sh showed the gpu config's AMP bf16 step bound by two host threads at once
# (the main thread and cubecl's device service thread, DSU-0-0, each busy 97% of the step:
# docs/results/2026-12-06-h100-grads-together/host-threads-91e0fb5); this says what they
# spend it on.
# Needs, in .device-prof/ (scripts/device-bin.sh --profile makes both; carry it beside
# .device-bin/, whose oomlab.xz setup.sh wants, gpu.xz left out for room):
#   oomlab-prof.xz: oomlab built with its symbols and frame pointers (a build of its own,
#                   in another target folder: `CARGO_PROFILE_RELEASE_STRIP=false
#                   RUSTFLAGS="-C force-frame-pointers=yes" cargo build --release
#                   --target-dir /tmp/proftarget`; its TypeIds may differ from the user's
#                   build, so its first steps may compile kernels the pack has: warmed first);
#   perf.tar.xz:    perf and the libraries it needs that the machine lacks (perfpack/:
#                   perf, lib/), from a Debian machine's /usr/bin/perf.
# For each precision of PRECISIONS (default "bf16 f32") on $CONFIG (default gpu): 3 warm-up
# steps, then a run of $STEPS (default 400) steps that perf attaches to after $DELAY
# seconds (default 10: past start-up and the first steps) for $SECONDS_SAMPLED (default 4),
# sampling every thread's CPU time (cpu-clock, 999 Hz, frame-pointer call chains). The
# reports: self time by thread and function (report-P-self.txt) and time by thread and
# function with what it calls (report-P-children.txt).
# An experiment, not what a new user meets: setup.sh sets CUBECL_AUTOTUNE_LEVEL=minimal and
# the shipped kernel pack's cache folder.
#   [COMMIT=<sha>] OUT=... bash scripts/gpu/run.sh host-profile
# Results: $OUT/host-profile.tar.gz (the folder host-profile-$CONFIG).
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
CONFIG=${CONFIG:-gpu}
STEPS=${STEPS:-400}
DELAY=${DELAY:-10}
SECONDS_SAMPLED=${SECONDS_SAMPLED:-4}
start_log "host-profile-$CONFIG"
[ -x /tmp/bin/oomlab-prof ] && BIN=/tmp/bin/oomlab-prof
[ -x /tmp/perfpack/perf ] || tar xf /tmp/bin/perf.tar -C /tmp
perf() { LD_LIBRARY_PATH=/tmp/perfpack/lib /tmp/perfpack/perf "$@"; }
perf --version >> "$LOG" 2>&1
echo "binary: $BIN" >> "$LOG"
for p in ${PRECISIONS:-bf16 f32}; do
  say "warm: $p, 3 steps"
  timeout 300 $BIN train --config "$CONFIG" --device cuda --precision $p --max-steps 3 --quiet \
    --out "$R/warm-$p" > /dev/null 2>> "$LOG"
  echo "exit: $?" >> "$LOG"
  say "run: $p, $STEPS steps, perf from ${DELAY}s for ${SECONDS_SAMPLED}s"
  timeout 200 $BIN train --config "$CONFIG" --device cuda --precision $p --max-steps "$STEPS" \
    --quiet --out "$R/run-$p" > "$R/run-$p.stdout.txt" 2> "$R/run-$p.stderr.txt" &
  pid=$!
  sleep "$DELAY"
  # $! is timeout's process: perf follows the training process, timeout's child.
  child=$(pgrep -P "$pid" | head -1)
  echo "timeout: $pid, training process: $child" >> "$LOG"
  perf record -e cpu-clock -F 999 -g -p "$child" -o "/tmp/perf-$p.data" -- sleep "$SECONDS_SAMPLED" \
    >> "$LOG" 2>&1
  echo "perf record exit: $?" >> "$LOG"
  wait "$pid"
  echo "run exit: $?" >> "$LOG"
  perf report -i "/tmp/perf-$p.data" --no-children --sort comm,symbol --stdio -g none \
    --percent-limit 0.2 > "$R/report-$p-self.txt" 2>> "$LOG"
  perf report -i "/tmp/perf-$p.data" --children --sort comm,symbol --stdio -g none \
    --percent-limit 1 > "$R/report-$p-children.txt" 2>> "$LOG"
  head -60 "$R/report-$p-self.txt" >> "$LOG"
done
say "done"
rm -f "$R"/*/memory.csv "$R"/*/steps.jsonl
tar czf "$OUT/host-profile.tar.gz" -C "${RESULTS:-/tmp/res}" "host-profile-$CONFIG"
cat "$LOG"
