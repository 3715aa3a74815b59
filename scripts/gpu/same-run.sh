# Experiment for scripts/gpu/run.sh: does this binary train on CUDA exactly as a committed
# reference run did? A regression check for changes that must not move a number (e.g.
# issue 25's one pipeline for one or many devices). On the device machine, from the
# repository root, the binary carried xz-compressed in .device-bin/oomlab.xz:
#   OUT=... bash scripts/gpu/run.sh same-run
# runner: new-user
# 1. `oomlab train --config gpu --max-steps 30 --checkpoint-every 5`, the command of
#    docs/results/2026-12-02-h200-resume's whole1 (binary of c546a2d, same settings):
#    every step's loss and the final weights' fingerprint compared with whole1's.
# 2. `oomlab train --config gpu --max-steps 20 --devices cuda:0,cuda:0 --batch 64`: two
#    data-parallel peers on the one card; completes, replicas identical, and its
#    fingerprint beside call4's of docs/results/2026-12-01-h200-parallel-one-gpu (binary
#    of 98e6fa7, before the kernel pack and the autotune level changed: equal only if
#    no kernel choice changed since).
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/s
export BIN OUT
python3 - <<'PY' 2>&1 | tee "$OUT/log.txt"
import json, os, subprocess, time
BIN, OUT = os.environ["BIN"], os.environ["OUT"]
REF = "docs/results/2026-12-02-h200-resume"
PAR = "docs/results/2026-12-01-h200-parallel-one-gpu/call4/dp-shared-bucket.json"
print("commit:", os.environ.get("COMMIT", "unknown"))
print(subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], capture_output=True, text=True).stdout.strip())
def train(name, args):
    t = time.time()
    r = subprocess.run([BIN, "train", *args, "--json", "--quiet", "--out", f"/tmp/s/{name}"], capture_output=True, text=True)
    print(f"{name}: exit {r.returncode}, {time.time() - t:.1f} s")
    open(f"{OUT}/{name}.json", "w").write(r.stdout)
    if r.returncode != 0:
        print(r.stderr[-2000:])
    return json.loads(r.stdout) if r.stdout.strip() else None
one = train("one", ["--config", "gpu", "--max-steps", "30", "--checkpoint-every", "5"])
ref = {json.loads(l)["step"]: json.loads(l)["loss"] for l in open(f"{REF}/whole1-steps.jsonl")}
new = {json.loads(l)["step"]: json.loads(l)["loss"] for l in open("/tmp/s/one/steps.jsonl")}
diffs = [(k, ref[k], new.get(k)) for k in sorted(ref) if new.get(k) != ref[k]]
ref_fp = json.load(open(f"{REF}/whole1.json"))["final_params"]["fnv1a64"]
dp = train("dp", ["--config", "gpu", "--max-steps", "20", "--devices", "cuda:0,cuda:0", "--batch", "64"])
par_ref = json.load(open(PAR))["final_params"]["fnv1a64"]
out = {
    "one_device": {"reference": f"{REF}/whole1-steps.jsonl", "steps_compared": len(ref),
                   "steps_differing": len(diffs), "first_difference": diffs[0] if diffs else None,
                   "fingerprint": one and one["final_params"]["fnv1a64"], "reference_fingerprint": ref_fp,
                   "same_final_weights": bool(one) and one["final_params"]["fnv1a64"] == ref_fp},
    "two_peers": {"stop": dp and dp["stop"], "steps": dp and dp["steps_completed"],
                  "replicas_identical": dp and dp["parallel"]["replicas_identical"],
                  "fingerprint": dp and dp["final_params"]["fnv1a64"], "call4_fingerprint": par_ref},
}
print(json.dumps(out, indent=1))
json.dump(out, open(f"{OUT}/same-run.json", "w"), indent=1)
PY
