# Experiment for scripts/gpu/run.sh (issue 26 item 1): burn's pool on every compare row of
# the gpu config, growth (the default before issue 26) against exact-size allocation (the
# default since), in one machine's run. On the device machine, from the repository root:
#   OUT=... bash scripts/gpu/run.sh pool-modes
# runner: new-user
# `oomlab compare --config gpu --strategies all` twice: with `--set memory.mode="growth"`
# for every row (the pool-growth row is growth either way) and with `--set
# memory.mode="exact"`. Each compare.json
# comes back; the NVML process peak and steady step time of each row are set side by side.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export BIN OUT
python3 - <<'PY' 2>&1 | tee "$OUT/log.txt"
import json, os, subprocess, time
BIN, OUT = os.environ["BIN"], os.environ["OUT"]
print("commit:", os.environ.get("COMMIT", "unknown"))
print(subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], capture_output=True, text=True).stdout.strip())
for mode, extra in [("growth", ["--set", 'memory.mode="growth"']), ("exact", ["--set", 'memory.mode="exact"'])]:
    t = time.time()
    r = subprocess.run([BIN, "compare", "--config", "gpu", "--strategies", "all", "--json", "--quiet",
                        "--out", f"/tmp/c/{mode}", *extra], capture_output=True, text=True, timeout=280)
    print(f"{mode}: exit {r.returncode}, {time.time() - t:.1f} s")
    if r.returncode != 0:
        print(r.stderr[-2000:])
    open(f"{OUT}/compare-{mode}.json", "w").write(r.stdout)
PY
