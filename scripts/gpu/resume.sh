# Experiment for scripts/gpu/run.sh (issue 25 item 12): is resume on CUDA bit for bit, and
# if not, why? On the device machine, from the repository root, the binary carried
# xz-compressed in .device-bin/oomlab.xz, nothing set for oomlab:
#   OUT=... bash scripts/gpu/run.sh resume
# runner: new-user
# Four processes of `oomlab train --config gpu --max-steps 30 --checkpoint-every 5`:
# whole1 and whole2, uninterrupted (does CUDA give the same run twice?); cut, killed with
# SIGKILL once 17 steps are logged, then `--resume` of its folder. Losses are compared
# step by step and the final weights by their fingerprint (summary's final_params).
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/r
unset CUBECL_AUTOTUNE_LEVEL OOMLAB_KERNEL_CACHE
export BIN OUT
python3 - <<'PY' 2>&1 | tee "$OUT/log.txt"
import json, os, signal, subprocess, time
BIN, OUT = os.environ["BIN"], os.environ["OUT"]
ARGS = ["--config", "gpu", "--max-steps", "30", "--checkpoint-every", "5"]
print("commit:", os.environ.get("COMMIT", "unknown"))
print(subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], capture_output=True, text=True).stdout.strip())
def train(name, extra):
    t = time.time()
    r = subprocess.run([BIN, "train", *extra, "--json", "--quiet"], capture_output=True, text=True)
    print(f"{name}: exit {r.returncode}, {time.time() - t:.1f} s")
    open(f"{OUT}/{name}.json", "w").write(r.stdout)
    return json.loads(r.stdout) if r.returncode == 0 else None
def steps(d):
    return [json.loads(l) for l in open(f"/tmp/r/{d}/steps.jsonl")]
w1 = train("whole1", [*ARGS, "--out", "/tmp/r/whole1"])
w2 = train("whole2", [*ARGS, "--out", "/tmp/r/whole2"])
p = subprocess.Popen([BIN, "train", *ARGS, "--quiet", "--out", "/tmp/r/cut"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t = time.time()
while time.time() - t < 200:
    try:
        if len(open("/tmp/r/cut/steps.jsonl").read().splitlines()) >= 17:
            break
    except FileNotFoundError:
        pass
    if p.poll() is not None:
        break
    time.sleep(0.002)
p.send_signal(signal.SIGKILL); p.wait()
print(f"cut: killed with SIGKILL (exit {p.returncode}) with {len(steps('cut'))} steps logged")
res = train("resumed", ["--resume", "/tmp/r/cut"])
def compare(a, b):
    la = {s["step"]: s["loss"] for s in steps(a)}
    lb = {}
    for s in steps(b):  # a resumed folder logs redone steps again: the last line counts
        lb[s["step"]] = s["loss"]
    diffs = [(k, la[k], lb[k]) for k in sorted(la) if k in lb and la[k] != lb[k]]
    first = diffs[0] if diffs else None
    worst = max((abs(x - y) for _, x, y in diffs), default=0.0)
    return {"steps_compared": len([k for k in la if k in lb]), "steps_differing": len(diffs),
            "first_differing_step": first, "largest_difference": worst}
def fp(s):
    return s and s["final_params"]["fnv1a64"]
out = {
    "whole2_vs_whole1": {**compare("whole1", "whole2"), "same_final_weights": fp(w1) == fp(w2)},
    "resumed_vs_whole1": {**compare("whole1", "cut"), "same_final_weights": fp(w1) == fp(res),
                           "resumes": res and res["checkpoints"]["resumes"]},
}
print(json.dumps(out, indent=1))
json.dump(out, open(f"{OUT}/resume.json", "w"), indent=1)
for d in ("whole1", "whole2", "cut"):
    open(f"{OUT}/{d}-steps.jsonl", "w").write(open(f"/tmp/r/{d}/steps.jsonl").read())
PY
