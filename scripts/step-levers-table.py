#!/usr/bin/env python3
"""Makes DIR/table.md from one call of scripts/gpu/step-levers.sh (issue 29: the step's
opt-in levers against the defaults, PyTorch in the same script run).

    python3 scripts/step-levers-table.py DIR

DIR is the folder the call's results.tar.gz unpacks to (step-levers-CONFIG). Reads:
- paired/paired.json: the paired yardstick's runs (steady step = the run's median step
  after the first, as benches/paired.py reports it); per row the median over repeats,
  against the defaults row and PyTorch's SDPA row of the same precision;
- long-V-P.json and long-V-P/steps.jsonl: one process of LONG_STEPS steps per variant V
  and precision P: median, min and max of steps 2 onwards, final loss and its relative
  difference from the defaults' (and, for "defaults-again", the same binary and settings
  run twice: how far runs land apart with nothing changed) and from the f32 defaults' (for
  bf16, the yardstick of docs/results/2026-12-05-loss-agreement.md: a bf16 variant no
  farther from f32 than the bf16 defaults are is no less accurate, whatever its distance
  from the bf16 defaults), NVML process peak;
- profile-V-f32-{3,8}.log.gz: benches/profile_breakdown.py's tables (cubecl's kernels
  only: cuBLAS's products are not in them).
"""
import json
import statistics
import re
import subprocess
import sys
from pathlib import Path

GIB = 1024**3
ISSUE_LOSS_BOUND = 1e-3


def paired(root):
    path = root / "paired" / "paired.json"
    if not path.exists():
        return None, {}
    data = json.loads(path.read_text())
    rows = {}
    for run in data["runs"]:
        if run.get("exit") == 0 and run.get("step") is not None:
            rows.setdefault(run["name"], []).append(run)
    return data["meta"], rows


def precision_of(name):
    return "bf16" if "bf16" in name else "f32"


def paired_table(meta, rows):
    out = ["## Paired yardstick", "",
           f"Started {meta['date']}, commit {meta['commit']}, {meta['card']}; `{meta['config']}` config, "
           f"{meta['steps']} steps per run, {meta['repeats']} repeat(s); variants {', '.join(meta.get('variants') or []) or 'none'}.", "",
           "| row | runs | steady step median (min-max) | vs defaults | vs PyTorch SDPA | NVML peak | final loss |",
           "|---|---|---|---|---|---|---|"]
    med = {name: statistics.median(r["step"] for r in runs) for name, runs in rows.items()}
    for name, runs in sorted(rows.items(), key=lambda kv: (precision_of(kv[0]), kv[0])):
        p = precision_of(name)
        base = med.get(f"oomlab {p} defaults")
        torch = med.get("pytorch f32 sdpa" if p == "f32" else "pytorch amp-bf16 sdpa")
        steps = [r["step"] * 1000 for r in runs]
        vs_base = f"{med[name] / base:.3f}x" if base and name.startswith("oomlab") else "-"
        vs_torch = f"{med[name] / torch:.2f}x" if torch and name.startswith("oomlab") else "-"
        out.append(f"| {name} | {len(runs)} | {statistics.median(steps):.1f} ms ({min(steps):.1f}-{max(steps):.1f}) | "
                   f"{vs_base} | {vs_torch} | {max(r['peak_nvml'] for r in runs) / GIB:.2f} GiB | "
                   f"{runs[-1]['final_loss']:.7g} |")
    return out + [""]


def long_runs(root):
    runs = {}
    for path in sorted(root.glob("long-*.json")):
        variant, precision = path.stem[len("long-"):].rsplit("-", 1)
        try:
            summary = json.loads(path.read_text())
        except (json.JSONDecodeError, OSError):
            continue
        steps_file = root / path.stem / "steps.jsonl"
        steps = []
        if steps_file.exists():
            lines = steps_file.read_text().splitlines()
            steps = [json.loads(l)["duration"] * 1000 for l in lines if l.strip()][2:]
        runs[(variant, precision)] = (summary, steps)
    return runs


def long_table(runs):
    out = ["## One process each, the defaults and each variant", "",
           f"Issue 29 allows a final loss within {ISSUE_LOSS_BOUND:g} (relative) of the defaults' and no "
           "higher NVML peak. `defaults-again` is the defaults run a second time. \"vs f32\": the relative "
           "distance to the f32 defaults' final loss: docs/results/2026-12-05-loss-agreement.md has how far "
           "bf16's implementations land from one another and from f32.", "",
           "| variant | precision | steps | step median (min-max), step 2 on | final loss | vs defaults | vs f32 | NVML peak | vs defaults |",
           "|---|---|---|---|---|---|---|---|---|"]
    f32 = runs.get(("defaults", "f32"), (None, None))[0]
    for (variant, precision), (s, steps) in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0] != "defaults", kv[0][0])):
        base = runs.get(("defaults", precision), (None, None))[0]
        loss, peak = s.get("final_loss"), s["memory"]["process_peak"]
        step = f"{statistics.median(steps):.1f} ms ({min(steps):.1f}-{max(steps):.1f})" if steps else "-"
        if base and variant != "defaults" and loss is not None and base.get("final_loss"):
            rel = abs(loss - base["final_loss"]) / abs(base["final_loss"])
            dloss = f"{rel:.1e}{' (over the bound)' if rel > ISSUE_LOSS_BOUND else ''}"
            dpeak = f"{(peak - base['memory']['process_peak']) / 2**20:+.0f} MiB"
        else:
            dloss, dpeak = "-", "-"
        dref = "-"
        if f32 and f32 is not s and loss is not None and f32.get("final_loss"):
            dref = f"{abs(loss - f32['final_loss']) / abs(f32['final_loss']):.1e}"
        out.append(f"| {variant} | {precision} | {s.get('steps_completed')} | {step} | "
                   f"{loss if loss is None else f'{loss:.7g}'} | {dloss} | {dref} | {peak / GIB:.2f} GiB | {dpeak} |")
    return out + [""]


def profile_tables(root):
    # Every profiled variant, the defaults first (step-levers.sh's PROFILE_VARIANTS).
    found = {re.sub(r"-(f32|bf16)-8\.log.*$", "", p.name)[len("profile-"):]
             for p in root.glob("profile-*-8.log*") if re.search(r"-(f32|bf16)-8\.log", p.name)}
    tags = [t for t in ("defaults",) if t in found] + sorted(found - {"defaults"})
    if not tags:
        return []
    script = Path(__file__).resolve().parent.parent / "benches" / "profile_breakdown.py"
    done = subprocess.run([sys.executable, str(script), str(root), *tags], capture_output=True, text=True)
    if done.returncode != 0:
        return ["## Kernel profile", "", f"benches/profile_breakdown.py failed: {done.stderr.strip()}", ""]
    return ["## Kernel profile (cubecl's kernels; cuBLAS's products not included)", "",
            "`python3 benches/profile_breakdown.py DIR " + " ".join(tags) + "`: 5 steady steps, the 8-step "
            "log minus the 3-step log, over 5.", done.stdout.strip(), ""]


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: python3 scripts/step-levers-table.py DIR")
    root = Path(sys.argv[1])
    out = ["# The step's opt-in levers against the defaults (issue 29)", "",
           "Generated by `python3 scripts/step-levers-table.py` from the files beside it "
           "(scripts/gpu/step-levers.sh made them; README.md: the command and settings).", ""]
    meta, rows = paired(root)
    if meta:
        out += paired_table(meta, rows)
    runs = long_runs(root)
    if runs:
        out += long_table(runs)
    out += profile_tables(root)
    if len(out) == 4:
        raise SystemExit(f"nothing of scripts/gpu/step-levers.sh's in {root}")
    (root / "table.md").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
