#!/usr/bin/env python3
"""Table of the phase runs of scripts/gpu/crash.sh (part `phases`): for each resumed run
under a --vram-budget, where the out-of-memory failure hit, whether the weights after it
equal the checkpoint's (final_params fingerprint) and whether the checkpoint written at
the stop holds byte for byte the model and optimizer state the run resumed from.

  oom-phases.py RESULTS_DIR   (reads e0.json and e-b*/ ; writes Markdown to stdout)
"""
import json
import pathlib
import struct
import sys


def sections(path):
    b = pathlib.Path(path).read_bytes()
    assert b[:8] == b"OOMLABCK", path
    at, out = 12, []
    for _ in range(3):
        (n,) = struct.unpack_from("<Q", b, at)
        at += 8
        out.append(b[at:at + n])
        at += n
    return out  # meta, model, optim


root = pathlib.Path(sys.argv[1])
ref = json.loads((root / "e0.json").read_text())["final_params"]["fnv1a64"]
print(f"Reference: `gpu` config, 3 steps, no budget: weights fingerprint {ref}.\n")
print("| batch | --vram-budget | outcome | phase | failed allocation | weights after = checkpoint | model + AdamW state in the stop's checkpoint = resumed-from | exit |")
print("|---|---|---|---|---|---|---|---|")
runs = sorted(root.glob("e-b*"), key=lambda p: (int(p.name.split("-")[1][1:]), p.name))
for d in runs:
    batch, budget = d.name.split("-")[1][1:], d.name.split("-", 2)[2]
    try:
        s = json.loads((d / "out.json").read_text())
    except Exception as e:  # a run that died without a summary
        print(f"| {batch} | {budget} | no summary ({type(e).__name__}) | | | | | |")
        continue
    stop = s["stop"]
    kind = stop["kind"]
    phase = req = ""
    if kind == "out-of-memory":
        phase = stop["detail"]["phase"]
        req = stop["detail"].get("requested") or ""
        if req:
            req = f"{int(req) / 2**20:.0f} MiB"
    fp = (s.get("final_params") or {}).get("fnv1a64")
    same_weights = "yes" if fp == ref else ("no (a step was applied)" if kind == "completed" else "NO")
    stop_ckpt = d / "checkpoints" / "step-000003.ckpt"
    same_state = ""
    if kind == "out-of-memory" and stop_ckpt.exists():
        a, b = sections(d / "resumed-from.ckpt"), sections(stop_ckpt)
        same_state = "yes" if (a[1], a[2]) == (b[1], b[2]) else "NO"
    exit_code = {"completed": 0, "out-of-memory": 3}.get(kind, "?")
    print(f"| {batch} | {budget} | {kind} | {phase} | {req} | {same_weights} | {same_state} | {exit_code} |")
