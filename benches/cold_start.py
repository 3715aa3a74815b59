#!/usr/bin/env python3
"""The cold-start table of docs/results/2026-11-30-h200-cold-start, from the run folders'
summary.json files (scripts/gpu/cold-first-step.sh, benches/paired.sh). Markdown on stdout.

  python3 benches/cold_start.py docs/results/2026-11-30-h200-cold-start
"""
import json
import os
import sys

RUNS = [
    ("A-cold", "empty (fresh machine, nothing shipped)"),
    ("B-autotune-only", "only A's autotune results (no compiled kernels)"),
    ("C-warm", "A's whole cache (kernels and autotune results)"),
    ("D-exact", "A's whole cache, --memory-mode exact"),
    ("cold-shipped", "empty on a fresh machine + the autotune results oomlab ships (f32 subset)"),
]


def main():
    folder = sys.argv[1]
    print("| run | kernel cache at the start | first step (warm-up included) | warm-up step | kernels compiled / operations autotuned in the warm-up | ... in the whole run | steady step | NVML peak |")
    print("|---|---|---|---|---|---|---|---|")
    for name, cache in RUNS:
        path = os.path.join(folder, name, "summary.json")
        if not os.path.exists(path):
            continue
        s = json.load(open(path))
        k = s.get("kernel_cache") or {}
        w, r = k.get("added_in_warm_up", {}), k.get("added_in_run", {})
        print(f"| {name} | {cache} | {s['time_to_first_step_s']:.1f} s | {s['warm_up_s']:.1f} s | "
              f"{w.get('kernels')} / {w.get('tuned')} | {r.get('kernels')} / {r.get('tuned')} | "
              f"{steady(s)} | {s['memory']['process_peak'] / 2**30:.2f} GiB |")


def steady(s):
    # The median of the steps after the first; with 3 steps that is step 2's, which on a
    # cold cache still compiles kernels (AdamW's first update with moments from before).
    if s["steps_completed"] < 5:
        return f"n/a ({s['steps_completed']} steps)"
    return f"{s['steady_step_s'] * 1e3:.1f} ms"


if __name__ == "__main__":
    main()
