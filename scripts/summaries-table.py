#!/usr/bin/env python3
"""A Markdown table of the run folders under DIR (one row per summary.json, sorted by
folder name): python3 scripts/summaries-table.py DIR"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1])
print("| run | precision | memory mode | layer norm | NVML process peak | steady step | final loss | stop |")
print("|---|---|---|---|---|---|---|---|")
for path in sorted(root.glob("*/summary.json")):
    s = json.loads(path.read_text())
    norm = "f32" if s["model"].get("norms_in_f32") else "compute dtype"
    peak = s["memory"]["process_peak"]
    fmt = lambda v, f: "n/a" if v is None else f(v)
    print(f"| {path.parent.name} | {s['precision']['mode']} | {s['memory_mode']['mode']} | {norm} | "
          f"{fmt(peak, lambda b: f'{b / 2**30:.2f} GiB')} | "
          f"{fmt(s['steady_step_s'], lambda t: f'{t * 1e3:.1f} ms')} | "
          f"{fmt(s['final_loss'], lambda l: f'{l:.6f}')} | {s['stop']['kind']} |")
