#!/usr/bin/env python3
"""Final loss after 100 steps by seed: how far AMP bf16 lands from f32, and each change from
the defaults of its precision and from f32 (issue 29's loss bound: within 1e-3 relative of
the defaults' over 100 steps).

    python3 scripts/seed-spread.py DIR

Reads DIR/seeds/SEED-P.json (the defaults at precision P, `oomlab train --max-steps 100
--seed SEED --json`) and DIR/seeds/SEED-P-VARIANT.json (a variant of scripts/gpu/
step-levers.sh, whose `seeds` part writes them). For docs/results/2026-12-06-h100-pack-update,
seed 42 comes from docs/results/2026-12-06-h100-gelu-kernels's 100-step runs (the same graphs).
Writes DIR/seeds/table.md, with each run's steady step (median, min and max over the
seeds) and NVML process peak as a second table: the runs go one after another in one
script run on one GPU, so they time the change too, with more samples than the paired
yardstick's repeats.

Why seeds, and the rule this table applies to a bf16 change (decided 2026-12-06, issue 29):
bf16's final loss moves by more than the 1e-3 bound with any change of rounding or summation
order, and by how much depends on the seed (docs/results/2026-12-06-h100-pack-update: AMP
bf16 lands 7.1e-4 to 6.7e-3 from f32 by seed alone). So a change is judged on the mean over
the seeds, two ways:
  - "vs defaults": the mean relative distance of its final loss from the defaults' of its
    precision, the issue's bound as written (at most 1e-3);
  - "vs f32": the mean relative distance from f32's final loss (TF32 products, a nearer
    arithmetic than bf16's), minus the bf16 defaults' own mean distance from f32. At most
    1e-3: the change does not take bf16 further from f32's result than the issue's bound.
An f32 change must meet "vs defaults". A bf16 change that keeps the arithmetic (its kernels
tested equal to burn's operations within bf16's rounding) passes with either: "vs f32" is
the one that tells an error from bf16's rounding path.
"""
import json
import statistics
import sys
from pathlib import Path

BOUND = 1e-3
GELU = Path("docs/results/2026-12-06-h100-gelu-kernels")
EXTRA = {"2026-12-06-h100-pack-update": {42: {
    "f32": GELU / "long-gelk-f32.json", "bf16": GELU / "long-defaults-bf16.json",
    "bf16-lnk": GELU / "long-lnk-bf16.json"}}}


def loss(path):
    return json.loads(Path(path).read_text())["final_loss"]


def steady(path):
    """The run's steady step (ms) and NVML process peak (bytes), where it recorded them."""
    d = json.loads(Path(path).read_text())
    step = d.get("steady_step_s")
    return (None if step is None else step * 1e3,
            (d.get("memory") or {}).get("process_peak"))


def rel(a, b):
    return abs(a - b) / abs(b)


def main():
    folder = Path(sys.argv[1])
    out = folder / "seeds"
    runs = {}
    for seed, files in EXTRA.get(folder.resolve().name, {}).items():
        runs[seed] = dict(files)
    for f in sorted(out.glob("*.json")):
        seed, run = f.stem.split("-", 1)
        runs.setdefault(int(seed), {})[run] = f
    names = sorted({r for files in runs.values() for r in files},
                   key=lambda r: (r.split("-")[0] != "f32", "-" in r, r))
    losses = {s: {r: loss(p) for r, p in files.items()} for s, files in runs.items()}
    seeds = sorted(losses)

    rows = ["| seed | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for s in seeds:
        rows.append(f"| {s} | " + " | ".join(
            f"{losses[s][r]:.6f}" if r in losses[s] else "-" for r in names) + " |")

    def distances(run, ref):
        return [rel(losses[s][run], losses[s][ref]) for s in seeds
                if run in losses[s] and ref in losses[s]]

    base16 = distances("bf16", "f32")
    base16_mean = statistics.mean(base16) if base16 else None
    dist = ["| run | seeds | vs its defaults, by seed | mean | vs f32, by seed | mean | "
            "mean vs f32 minus bf16 defaults' | verdict |", "|---|---|---|---|---|---|---|---|"]
    for run in names:
        if run == "f32":
            continue
        precision = run.split("-")[0]
        own = distances(run, precision) if run != precision else []
        to32 = distances(run, "f32")
        own_mean = statistics.mean(own) if own else None
        to32_mean = statistics.mean(to32) if to32 else None
        excess = (to32_mean - base16_mean if precision == "bf16" and to32_mean is not None
                  and base16_mean is not None and run != "bf16" else None)
        fmt = lambda xs: ", ".join(f"{x:.1e}" for x in xs) or "-"
        num = lambda x: "-" if x is None else f"{x:.1e}"
        if run == precision:
            verdict = "the defaults"
        elif precision == "f32":
            verdict = "passes" if own_mean is not None and own_mean <= BOUND else "fails"
        else:
            ok = [own_mean is not None and own_mean <= BOUND, excess is not None and excess <= BOUND]
            verdict = ("passes both" if all(ok) else "passes vs f32" if ok[1]
                       else "passes vs defaults" if ok[0] else "fails")
        dist.append(f"| {run} | {len(to32)} | {fmt(own)} | {num(own_mean)} | {fmt(to32)} | "
                    f"{num(to32_mean)} | {num(excess)} | {verdict} |")
    speed = ["| run | seeds | steady step median | min | max | vs its defaults (medians) | "
             "NVML process peak, max over the seeds |", "|---|---|---|---|---|---|---|"]
    timed = {r: [steady(files[r]) for files in runs.values() if r in files] for r in names}
    medians = {}
    for run in names:
        steps = [t for t, _ in timed[run] if t is not None]
        peaks = [p for _, p in timed[run] if p is not None]
        if not steps:
            continue
        medians[run] = statistics.median(steps)
        base = medians.get(run.split("-")[0])
        ratio = "-" if base is None or run == run.split("-")[0] else f"{medians[run] / base:.3f}x"
        peak = f"{max(peaks) / 2**30:.2f} GiB" if peaks else "-"
        speed.append(f"| {run} | {len(steps)} | {medians[run]:.1f} ms | {min(steps):.1f} ms | "
                     f"{max(steps):.1f} ms | {ratio} | {peak} |")
    text = ("# Final loss after 100 steps, by seed\n\n"
            "Generated by `python3 scripts/seed-spread.py` from the runs in this folder "
            "(relative distances; the rule is in the script's docstring: a change is judged "
            f"on the mean over the seeds, at most {BOUND:.0e} from its defaults, or for bf16 "
            f"at most {BOUND:.0e} further from f32's final loss than the bf16 defaults land).\n\n"
            + "\n".join(rows) + "\n\n" + "\n".join(dist) + "\n"
            + ("\n## Steady step and peak of the same runs\n\n" + "\n".join(speed) + "\n"
               if len(speed) > 2 else ""))
    (out / "table.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
