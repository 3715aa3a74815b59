# Experiment for scripts/gpu/run.sh: where a cold first step's time goes, and efficient
# attention on CUDA (issue 11, first part), run on the H200 through the device tool from the
# repository root:
#   COMMIT=<sha> OUT=<dir> bash scripts/gpu/run.sh cold-first-step
# Carries .device-bin/ (oomlab.xz, gpu.xz: the test binary from
# `cargo test --release --test gpu --no-run`; see setup.sh).
# 1. efficient attention equals the written-out one on CUDA (tests/gpu/attention.rs),
#    with its own kernel cache so the next steps start cold;
# 2. where a cold first step's time goes, `gpu` config, f32, efficient attention, 5 steps:
#    A: empty kernel cache (autotune log on), B: only A's autotune results (kernels
#    compiled again, nothing benchmarked), C: A's whole cache (nothing compiled);
# 3. --memory-mode exact, one short run; 4. PyTorch side of the paired yardstick, one short
#    run per configuration (benches/pytorch_gpt.py).
# Results: $OUT/results.tar.gz; the kernel cache A built: $OUT/kernels.tar.xz.
OUT=${OUT:?set OUT}
start_log attention
# The device call has 600 s: every step gets at most what is left before 520 s, so the
# results are packed in any case.
left() { local l=$(( 520 - SECONDS )); [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; }
gpu_run() { # NAME CACHE TIMEOUT ARGS...: one `oomlab train --config gpu` run
  local name=$1 cache=$2 limit; limit=$(left "$3"); shift 3
  [ "$limit" -gt 5 ] || { say "$name: skipped, out of time"; return; }
  say "$name: cache $cache, $*"
  ( cd "$R/cfg" && OOMLAB_KERNEL_CACHE=$cache timeout "$limit" $BIN train --config gpu --device cuda \
      --max-steps 5 --out "$R/$name" "$@" > /dev/null 2> "$R/$name.stderr.txt" )
  echo "exit: $?" >> "$LOG"
  python3 - "$R/$name/summary.json" >> "$LOG" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"  no summary: {e}"); sys.exit()
k = s.get("kernel_cache") or {}
print(f"  first step {s['time_to_first_step_s']:.1f} s (warm-up {s['warm_up_s']}), steady {s['steady_step_s']}, "
      f"NVML peak {s['memory']['process_peak']}, kernels {k.get('added_in_warm_up')} / run {k.get('added_in_run')}, "
      f"loss {s['final_loss']}")
PY
}
mkdir -p "$R/cfg"
printf '[autotune]\nlogger = { level = "full", file = "%s/autotune-A.log" }\n' "$R" > "$R/cfg/cubecl.toml"

say "1. tests/gpu/attention.rs"
OOMLAB_KERNEL_CACHE=/tmp/kernels-test timeout 150 /tmp/bin/gpu --ignored --nocapture attention:: >> "$LOG" 2>&1
echo "exit: $?" >> "$LOG"

gpu_run A-cold /tmp/oomlab-kernels 260
rm -f "$R/cfg/cubecl.toml"
mkdir -p /tmp/kB && cp -r /tmp/oomlab-kernels/autotune /tmp/kB/ 2>/dev/null
gpu_run B-autotune-only /tmp/kB 110
gpu_run C-warm /tmp/oomlab-kernels 40
gpu_run D-exact /tmp/oomlab-kernels 40 --memory-mode exact

say "4. PyTorch, 5 steps per configuration"
$BIN configs gpu > "$R/gpu.toml"
$BIN dataset --chars 2000000 > /tmp/text.txt
for p in f32 amp-bf16; do for a in math sdpa; do
  [ "$(left 40)" -gt 5 ] || continue
  timeout "$(left 40)" python3 benches/pytorch_gpt.py --config "$R/gpu.toml" --data /tmp/text.txt --steps 5 \
    --precision $p --attention $a --out "$R/pytorch-$p-$a.json" >> "$LOG" 2>&1; echo "exit: $?" >> "$LOG"
done; done
say "done"
du -sh /tmp/oomlab-kernels /tmp/kB >> "$LOG" 2>&1
find /tmp/oomlab-kernels -type f | head -50 >> "$LOG"
rm -f "$R"/*/steps.jsonl
[ -n "${OUT:-}" ] && tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" attention
tar cJf "$OUT/kernels.tar.xz" -C /tmp oomlab-kernels
ls -la "$OUT"
cat "$LOG"
