#!/usr/bin/env python3
"""Prints one line per row of an `oomlab compare` folder's compare.json, for a results
README: python3 scripts/compare-rows.py docs/results/<folder>"""
import json
import sys

c = json.load(open(f"{sys.argv[1]}/compare.json"))
sim = "SIMULATED " if c.get("simulated") else ""
mib = lambda b: "n/a" if b is None else f"{b / 2**20:.1f} MiB"
for r in c["rows"]:
    kind = r["status"]["kind"]
    line = (f"- {r['strategy']} ({r['split']}): {kind}, {r['steps_completed']} steps applied, "
            f"{r['oom_retries']} {sim}OOM(s), peak heap {mib(r['peak_in_use_bytes'])}")
    if kind == "completed" and r["final_loss"] is not None:
        line += f", final loss {r['final_loss']:.4f}"
    if r.get("note"):
        line += f"; note: {r['note']}"
    print(line)
