#!/usr/bin/env python3
"""The constants of src/hf/measured.rs, read from a benches/hf_memory.py run (issue 28).

  python3 scripts/hf-calibrate.py [RUN_DIR]   (needs target/release/oomlab, or OOMLAB=path)

RUN_DIR default: docs/results/2026-12-04-h200-hf-estimate/hf-memory (the calibration run;
the validation table is made from another run). It prints:
- CONTEXT: the median over completed rows of NVML's process peak less
  torch.cuda.max_memory_reserved (the CUDA context and the libraries' own memory);
- RESERVED_OVER_ALLOCATED / RESERVED_OVER_ALLOCATED_CHECKPOINTING: the factor from the
  predicted allocated peak (`oomlab estimate --json`, which does not depend on these
  constants) to the measured reserved peak that makes the largest error over the rows
  smallest (the geometric middle of the smallest and largest ratio), apart for rows with
  gradient checkpointing whose peak falls in the passes (the recomputed layers' blocks
  leave more in the cache) and for the rest.
"""
import json, math, os, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "results", "2026-12-04-h200-hf-estimate", "hf-memory")
BIN = os.environ.get("OOMLAB", os.path.join(ROOT, "target", "release", "oomlab"))

def predicted(r):
    a = [BIN, "estimate", "--model", r["model"], "--seq", str(r["seq"]), "--batch", str(r["batch"]), "--json"]
    a += {"f32": [], "amp-bf16": ["--precision", "bf16"], "bf16": ["--precision", "bf16", "--strategy", "half"]}[r["precision"]]
    if r["checkpointing"]:
        a.append("--checkpointing")
    return json.loads(subprocess.run(a, capture_output=True, text=True, check=True).stdout)["estimate"]

rows = [json.loads(l) for l in open(os.path.join(RUN, "rows.jsonl")) if l.strip()]
done = [r for r in rows if r.get("status") == "completed"]
context = statistics.median(r["peak_nvml_bytes"] - r["peak_reserved_bytes"] for r in done)
groups = {True: [], False: []}
for r in done:
    e = predicted(r)
    groups[r["checkpointing"] and e["moment"] != "optimizer-step"].append(r["peak_reserved_bytes"] / e["allocated"])
print(f"rows: {len(done)} completed of {len(rows)}")
print(f"CONTEXT = {context:.0f} bytes ({context / 2**20:.0f} MiB)")
for ck, name in ((False, "RESERVED_OVER_ALLOCATED"), (True, "RESERVED_OVER_ALLOCATED_CHECKPOINTING")):
    ratios = groups[ck]
    mid = math.sqrt(min(ratios) * max(ratios))
    print(f"{name} = {mid:.3f} (from {len(ratios)} rows, ratios {min(ratios):.3f} .. {max(ratios):.3f}; largest error {max(max(ratios) / mid, mid / min(ratios)) - 1:.1%})")
