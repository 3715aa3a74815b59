#!/usr/bin/env python3
"""Writes docs/results/2026-12-02-h200-first-result/README.md and the README's GPU
first-result block from the files the device calls returned (issue 23). Every figure is
read from those files.

    python3 scripts/first-result-readme.py
"""
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "docs/results/2026-12-02-h200-first-result"


def log_line(path, prefix):
    for line in (DIR / path).read_text().splitlines():
        if line.startswith(prefix):
            return line
    return None


def header(path):
    lines = (DIR / path).read_text().splitlines()
    return {l.split(": ", 1)[0]: l.split(": ", 1)[1] for l in lines[:3] if ": " in l}, lines[3]


def summary(name):
    return json.loads((DIR / "call2-verify" / f"{name}.json").read_text())


def process_s(name):
    line = log_line("call2-verify/log-verify.txt", f"{name}: exit")
    return float(re.search(r"process ([\d.]+) s", line).group(1)), int(re.search(r"exit (\d+)", line).group(1))


def fmt(x, unit=" s"):
    return "-" if x is None else f"{x:.1f}{unit}"


ROWS = [
    ("gpu-f32", "gpu", "f32", "yes"),
    ("gpu-bf16", "gpu", "AMP bf16", "yes"),
    ("gpu-f16", "gpu", "AMP f16", "part (its first build ran out of time)"),
    ("tiny-f32", "tiny", "f32", "no"),
    ("h200-bf16", "h200", "AMP bf16", "no"),
]


def first_step_table():
    out = ["| run | config | precision | in the shipped pack | process, start to exit | time to first step | kernels compiled | operations autotuned | how it ended |",
           "|---|---|---|---|---|---|---|---|---|"]
    for name, config, precision, packed in ROWS:
        s = summary(name)
        p, rc = process_s(name)
        k = (s.get("kernel_cache") or {}).get("added_in_run") or {}
        ended = s["stop"]["kind"]
        if ended == "interrupted":
            ended = "stopped by the script's 120 s limit (SIGTERM) while compiling; summary written"
        out.append(f"| {name} | {config} | {precision} | {packed} | {p:.1f} s | {fmt(s.get('time_to_first_step_s'))} | {k.get('kernels', '-')} | {k.get('tuned', '-')} | {ended} |")
    return "\n".join(out)


def before_table():
    w = json.loads((DIR / "call1-build/warm-up-gpu.json").read_text())
    out = ["| row (gpu config, batch 64) | first step | process | kernels compiled | autotuned | status |", "|---|---|---|---|---|---|"]
    for r in w["rows"]:
        if r["status"] == "not run":
            continue
        out.append(f"| {r['strategy']} | {fmt(r['first_step_s'])} | {r['process_s']:.1f} s | {r['kernels_compiled']} | {r['autotuned']} | {r['status']} |")
    return "\n".join(out), w["total_s"]


def main():
    meta, card = header("call2-verify/log-verify.txt")
    lesson = log_line("call2-verify/log-verify.txt", "lesson: exit")
    lesson_s = float(re.search(r"([\d.]+) s", lesson).group(1))
    sig = log_line("call2-verify/log-verify.txt", "sigterm: exit")
    sig_rc, sig_s = re.search(r"exit (\d+), ended ([\d.]+) s", sig).groups()
    cold = log_line("call3-build2/log-build2.txt", "jit-cold:")
    warm = log_line("call3-build2/log-build2.txt", "jit-warm:")
    jit = [float(re.search(r"warm-up step ([\d.]+) s", l).group(1)) for l in (cold, warm)]
    before, before_total = before_table()
    f32, bf16 = summary("gpu-f32"), summary("gpu-bf16")
    text = f"""# A GPU user's first result (issue 23), on a fresh H200 with nothing set

Made by `scripts/h200-cold-start.sh` on the device machine ({card}), in three calls,
each on the binary of the commit named in its log, carried xz-compressed. Nothing was set
in the environment for oomlab or cubecl (no CUBECL_AUTOTUNE_LEVEL, no
OOMLAB_KERNEL_CACHE; each log lists the variables it saw): the kernel cache is the
default ~/.cache/oomlab/cubecl, empty at the start of each call. This README is written by
`python3 scripts/first-result-readme.py` from the files here.

| call | command | what it left |
|---|---|---|
| 1 (fresh machine) | `COMMIT=abc07d6 MODE=build LIMIT=530 bash scripts/h200-cold-start.sh` | call1-build/: `oomlab warm-up --config gpu` until its 530 s limit |
| 2 (fresh machine) | `COMMIT=50a1249 MODE=verify BUDGET=545 bash scripts/h200-cold-start.sh` | call2-verify/: the first steps below, SIGTERM during a compile, the lesson |
| 3 (call 2's machine) | `COMMIT=50a1249 MODE=build2 BUDGET=400 bash scripts/h200-cold-start.sh` | call3-build2/: warm-up of tiny and h200 (its kernel cache did not come back: packing it outran the call) |

## With the kernels and autotune results oomlab ships (call 2, commit {meta.get('commit')})

Call 2's binary carried the pack made from call 1's kernel cache
(`python3 scripts/kernel-pack.py kernel-cache.tar.xz`): the PTX of 459 kernels and 107
autotune results, all from the `gpu` config's first seven compare rows. Each run is a
fresh `oomlab train ... --max-steps 3` process, in this order, on a machine that had
never run oomlab; "process" is the shell's clock around it (it includes installing the
pack into the cache and starting CUDA), "time to first step" the summary's (from model
creation to the end of step 1, the warm-up step included).

{first_step_table()}

The `gpu` config's first step: {f32['time_to_first_step_s']:.1f} s in f32 and
{bf16['time_to_first_step_s']:.1f} s in bf16, with no kernel compiled: every kernel came
from the pack (the pack's keys are hashes of kernel types, and they matched a binary built
from another commit of the same crates by the same rustc). Configs and precisions the
pack did not hold still compiled for minutes: those rows are what the next pack must cover
(the kernels those runs compiled are in the pack committed after these calls, 889 in all,
163 autotune results, not yet measured on a fresh machine).

`oomlab lesson --yes` on the same machine, right after: {lesson_s:.1f} s for its five
stages and the table (call2-verify/lesson.stdout; every stage's rows are in the pack).

## Before: the shipped autotune results alone (call 1, commit abc07d6)

Call 1 ran `oomlab warm-up --config gpu` on a fresh machine whose binary shipped only the
82 autotune results of the earlier pack (no compiled kernels), at the autotune level
oomlab now chooses (`minimal`, the level those results were measured at). Its rows, in
order (the warm-up was stopped by its 530 s limit during amp-f16; {before_total:.0f} s in all):

{before}

## Stopping while kernels compile

`oomlab train --config gpu --precision f16 --kernel-cache off`, SIGTERM 20 s after the
start (during the warm-up step's compilation): the process ended {sig_s} s after the
signal, with its summary written (call2-verify/sigterm.stdout: "0 of 3", stopped during the
warm-up step) but **exit {sig_rc}** (a segmentation fault) instead of 143: `exit` ran the CUDA
libraries' exit handlers beside the thread still compiling. The code now ends such a stop
with `_exit(143)` after writing and flushing the summary; that fix has not run on the
H200 yet. The two rows above that the script's `timeout 120` stopped (tiny-f32, h200-bf16)
went the same way: each wrote its summary ("stopped during the warm-up step") and the
process ended about 3 s after the signal.

## The driver's JIT cache

Call 3 removed the driver's own cache of machine code (~/.nv/ComputeCache) and ran the
`gpu` config in bf16 with every kernel's PTX in oomlab's cache: the warm-up step took
{jit[0]:.2f} s, against {jit[1]:.2f} s with the driver's cache kept. Turning PTX into
machine code is not where a cold start's time goes; NVRTC's compilation and autotuning
are.

## Not measured here
- `oomlab compare --config gpu --strategies all` on a fresh machine (no device time was
  left);
- the first steps of gpu f16, tiny and h200 with the pack that now covers (part of) them;
- a card other than the H200 (the shipped pack is installed only on an `NVIDIA H200`; on
  another card every kernel compiles, as the rows marked "no" above do).
"""
    (DIR / "README.md").write_text(text)

    block = f"""On an NVIDIA H200 oomlab ships compiled kernels and autotune results, so the first
CUDA run does not compile them: measured on a fresh H200 with nothing set in the
environment, the `gpu` config reached the end of its first step in
{f32['time_to_first_step_s']:.1f} s (f32) and {bf16['time_to_first_step_s']:.1f} s (bf16),
and `oomlab lesson --yes` ran its five stages in {lesson_s:.0f} s
([docs/results/2026-12-02-h200-first-result](docs/results/2026-12-02-h200-first-result/)).
On another GPU, or for shapes the pack does not hold (there: the `tiny` and `h200`
configs), the first run of each compiles for minutes; `oomlab warm-up` does that ahead of
time (`oomlab warm-up --help`), and every later process starts from the kernel cache."""
    readme = ROOT / "README.md"
    t = readme.read_text()
    start, end = "<!-- first-result:start -->", "<!-- first-result:end -->"
    if start in t:
        t = t[: t.index(start) + len(start)] + "\n" + block + "\n" + t[t.index(end):]
        readme.write_text(t)


if __name__ == "__main__":
    main()
