#!/usr/bin/env python3
"""Which of a training run's threads is busy on the host, and how busy, over its steady steps.

Issue 29: the gpu config's AMP bf16 step (43.0 ms on an H100) holds 28.8 ms of kernel time
(docs/results/2026-12-06-h100-in-place-join, gpu-298fc73/profile.md), so the host sets its
pace. This says which thread does: the main thread (the model, autodiff, fusion's
registration of each operation) or cubecl's device service threads (`DS…`, where fusion's
graphs are optimised and kernels launched), and how much CPU each spends per step.

It runs the command given after `--`, an `oomlab train … --out RUN` (RUN/steps.jsonl is
watched to know when each step ended), and samples every thread's CPU time
(/proc/PID/task/TID/stat, utime + stime, in clock ticks) every `--interval` seconds. The
window is from the end of step `--from-step` to the last step written; each thread's share
of the window's wall time is its utilisation (1.0 = one core all the time).

    python3 scripts/gpu/host-threads.py --run RUN --out DIR -- oomlab train ... --out RUN

Writes DIR/threads.json and DIR/threads.md. It reads only /proc: Linux, no extra tools.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict

TICK = os.sysconf("SC_CLK_TCK")


def threads(pid):
    """{tid: (name, cpu ticks, state)} of the process's threads now."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The name is in parentheses and may hold spaces; the fields after it are fixed.
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        rest = stat[stat.rindex(")") + 2 :].split()
        state, utime, stime = rest[0], int(rest[11]), int(rest[12])
        out[int(tid)] = (name, utime + stime, state)
    return out


def steps_written(path):
    try:
        with open(path) as f:
            return sum(1 for line in f if line.strip())
    except OSError:
        return 0


def group(name):
    """Threads of one kind together (rayon's and tokio's pools carry an index)."""
    return name.rstrip("0123456789-_") or name


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", required=True, help="the run folder the command writes (--out)")
    ap.add_argument("--out", required=True, help="where threads.json and threads.md go")
    ap.add_argument("--interval", type=float, default=0.02)
    ap.add_argument("--from-step", type=int, default=10)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("give the command after --")
    os.makedirs(a.out, exist_ok=True)
    steps_file = os.path.join(a.run, "steps.jsonl")
    started = time.monotonic()
    proc = subprocess.Popen(cmd)
    start = end = None  # (time, steps, {tid: (name, ticks, state)})
    running = defaultdict(int)  # tid -> samples in state R within the window
    samples = 0
    while proc.poll() is None:
        now = time.monotonic()
        snap = threads(proc.pid)
        n = steps_written(steps_file)
        if start is None and n > a.from_step:
            start = (now, n, snap)
        if start is not None and n > start[1] and (end is None or n > end[1]):
            end = (now, n, snap)
        if start is not None and (end is None or n <= end[1]):
            samples += 1
            for tid, (_, _, state) in snap.items():
                running[tid] += state == "R"
        time.sleep(a.interval)
    code = proc.returncode
    if start is None or end is None:
        print(f"host-threads: the run (exit {code}) never got past step {a.from_step}", file=sys.stderr)
        return code or 1
    wall = end[0] - start[0]
    steps = end[1] - start[1]
    rows = []
    for tid, (name, ticks, _) in end[2].items():
        before = start[2].get(tid, (name, 0, ""))[1]
        cpu = (ticks - before) / TICK
        rows.append({
            "tid": tid, "name": name, "cpu_s": cpu, "utilisation": cpu / wall,
            "cpu_ms_per_step": 1e3 * cpu / steps,
            "running_share": running[tid] / max(samples, 1),
        })
    rows.sort(key=lambda r: -r["cpu_s"])
    groups = defaultdict(lambda: [0, 0.0])
    for r in rows:
        g = groups[group(r["name"])]
        g[0] += 1
        g[1] += r["cpu_s"]
    result = {
        "command": cmd, "exit": code, "window_s": wall, "steps": steps,
        "wall_ms_per_step": 1e3 * wall / steps, "from_step": a.from_step,
        "interval_s": a.interval, "samples": samples, "clock_ticks_per_s": TICK,
        "total_s": time.monotonic() - started, "threads": rows,
        "groups": {k: {"threads": v[0], "cpu_s": v[1], "utilisation": v[1] / wall}
                   for k, v in groups.items()},
    }
    with open(os.path.join(a.out, "threads.json"), "w") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(a.out, "threads.md"), "w") as f:
        f.write(f"`{' '.join(cmd)}` (exit {code})\n\n")
        f.write(f"Window: steps {start[1]} to {end[1]} ({steps} steps) in {wall:.2f} s, "
                f"{result['wall_ms_per_step']:.1f} ms a step; {samples} samples every "
                f"{a.interval} s; CPU time in ticks of 1/{TICK} s.\n\n")
        f.write("| thread | tid | CPU ms a step | utilisation | share of samples running |\n")
        f.write("|---|---|---|---|---|\n")
        for r in rows:
            if r["cpu_s"] > 0 or r["running_share"] > 0:
                f.write(f"| {r['name']} | {r['tid']} | {r['cpu_ms_per_step']:.1f} | "
                        f"{r['utilisation']:.2f} | {r['running_share']:.2f} |\n")
        idle = sum(1 for r in rows if r["cpu_s"] == 0 and r["running_share"] == 0)
        f.write(f"\n{idle} more threads used no CPU in the window.\n")
    print(open(os.path.join(a.out, "threads.md")).read())
    return code


if __name__ == "__main__":
    sys.exit(main())
