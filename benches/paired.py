#!/usr/bin/env python3
"""The paired yardstick (issue 11): oomlab and PyTorch on the same GPT, one script run,
one machine, every configuration in a fresh process, each repeated, interleaved.

  python3 benches/paired.py --oomlab target/release/oomlab --config gpu \\
      --steps 30 --repeats 3 --out DIR

For every repeat, in this order: each oomlab configuration (precision f32 / AMP bf16 x
the defaults, attention math / efficient x memory mode growth / exact; strategy baseline)
and each
PyTorch configuration (benches/pytorch_gpt.py: f32 with TF32 / AMP bf16 x attention
written out / SDPA). Both read the same config file (`oomlab configs NAME`, written to
DIR/config.toml) and the same text (`oomlab dataset` with the config's [data] values).
Both report NVML's used memory for their own PID sampled every 10 ms, the median step
after the first, the time to the first step and the final loss.

Pairing refuses (exit 2, no table) when any run's model shapes, vocabulary, batch, steps,
learning rate or weight decay differ from the others'.

--oomlab-before PATH adds "oomlab-before P defaults" rows: the same defaults rows run by
another binary (the commit before a change), interleaved with the rest, so that a change
is measured before and after in one script run.

--variant NAME:VAR=VALUE[,VAR=VALUE] (repeatable) adds "oomlab-NAME P defaults" rows: the
--oomlab binary with those environment variables set (e.g. issue 29's
`--variant cublas:OOMLAB_CUBLAS=1`), interleaved with the rest; paired.md then has a row
per such configuration against issue 29's step bounds.

--device cpu runs the same pairing on the CPU (both sides on the machine's cores, each at
its own default thread count): oomlab rows are the defaults and attention math /
efficient per precision (memory modes are the CUDA pool's), PyTorch's f32 is plain f32
and amp-bf16 is autocast("cpu"). There is no NVML: the memory column is each process's
peak resident set size, read the same way for both (the kernel's ru_maxrss for the child,
from wait4), so it includes each program's code and libraries (PyTorch's are large).

Writes DIR/paired.json (every run, the command, the card) and DIR/paired.md (min and
median per configuration; the issue's goals as ratios, each with what it is measured
against). `--tables-only DIR` rebuilds paired.md from paired.json.
"""
import argparse
import datetime
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import tomllib

# (name, settings). "extra": more `oomlab train` arguments. "defaults": only the precision
# is given (attention and memory mode as a user gets them).
OOMLAB = [
    (f"oomlab {p} defaults", {"precision": p, "defaults": True}) for p in ("f32", "bf16")
] + [
    (f"oomlab {p} {a} {m}", {"precision": p, "attention": a, "memory_mode": m})
    for p in ("f32", "bf16")
    for (a, m) in (("math", "growth"), ("efficient", "growth"), ("efficient", "exact"))
] + [
    (f"oomlab {p} efficient growth, checks once per step",
     {"precision": p, "attention": "efficient", "memory_mode": "growth", "extra": ["--check-every", "step"]})
    for p in ("f32", "bf16")
]
# On the CPU: no memory pool to choose, no per-step checks to move.
OOMLAB_CPU = [
    (f"oomlab {p} defaults", {"precision": p, "defaults": True}) for p in ("f32", "bf16")
] + [
    (f"oomlab {p} {a}", {"precision": p, "attention": a}) for p in ("f32", "bf16") for a in ("math", "efficient")
]
PYTORCH = [
    (f"pytorch {p} {a}", {"precision": p, "attention": a})
    for p in ("f32", "amp-bf16")
    for a in ("math", "sdpa")
]

# The issues' goals: (what, oomlab configuration, PyTorch configuration, metric, bound).
GOALS = [
    ("issue 26: NVML process peak, f32 with the defaults vs PyTorch TF32 written out",
     "oomlab f32 defaults", "pytorch f32 math", "peak_nvml", 1.0),
    ("issue 26: NVML process peak, f32 with the defaults vs PyTorch f32 SDPA",
     "oomlab f32 defaults", "pytorch f32 sdpa", "peak_nvml", 1.1),
    ("issue 26: NVML process peak, AMP bf16 with the defaults vs PyTorch AMP bf16 SDPA",
     "oomlab bf16 defaults", "pytorch amp-bf16 sdpa", "peak_nvml", 1.0),
    ("NVML process peak, f32 (both with attention written out)",
     "oomlab f32 math growth", "pytorch f32 math", "peak_nvml", 1.0),
    ("NVML process peak, f32 (oomlab's best f32 against PyTorch written out)",
     "best:oomlab f32", "pytorch f32 math", "peak_nvml", 1.0),
    ("NVML process peak, AMP bf16 efficient vs PyTorch AMP bf16 SDPA",
     "best:oomlab bf16 efficient", "pytorch amp-bf16 sdpa", "peak_nvml", 1.1),
    ("steady step, AMP bf16 efficient vs PyTorch AMP bf16 SDPA",
     "best:oomlab bf16 efficient", "pytorch amp-bf16 sdpa", "step", 2.0),
    ("steady step, f32 vs PyTorch TF32 (attention written out)",
     "best:oomlab f32", "pytorch f32 math", "step", 1.5),
    ("steady step, f32 vs PyTorch TF32 SDPA",
     "best:oomlab f32", "pytorch f32 sdpa", "step", 1.5),
]


class Finished:
    """A child's exit, output and peak resident set size (the kernel's ru_maxrss)."""

    def __init__(self, returncode, stdout, stderr, peak_rss):
        self.returncode, self.stdout, self.stderr, self.peak_rss = returncode, stdout, stderr, peak_rss


def run(cmd, log, env=None):
    log.write(f"$ {' '.join(f'{k}={v}' for k, v in (env or {}).items())}{' ' if env else ''}{shlex.join(cmd)}\n")
    log.flush()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, env={**os.environ, **(env or {})})
        # Reaped here, not by Popen, so that this child's own rusage is what we read.
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    log.write(stderr[-4000:])
    log.flush()
    return Finished(child.returncode, stdout, stderr, usage.ru_maxrss * 1024)


def oomlab_run(args, name, settings, repeat, log):
    folder = os.path.join(args.out, "runs", f"{name.replace(' ', '-')}-r{repeat}")
    binary = args.oomlab_before if settings.get("before") else args.oomlab
    cmd = [binary, "train", "--config", os.path.join(args.out, "config.toml"),
           "--device", args.device, "--strategy", "baseline", "--precision", settings["precision"]]
    if not settings.get("defaults"):
        cmd += ["--attention", settings["attention"]]
        if settings.get("memory_mode"):
            cmd += ["--memory-mode", settings["memory_mode"]]
    cmd += ["--quiet", "--json", "--out", folder]
    cmd += settings.get("extra", [])
    if args.batch:
        cmd += ["--batch", str(args.batch)]
    if args.steps:
        cmd += ["--max-steps", str(args.steps)]
    p = run(cmd, log, settings.get("env"))
    try:
        s = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"name": name, "repeat": repeat, "exit": p.returncode, "error": p.stderr[-600:]}
    m = s["model"]
    return {
        "name": name, "repeat": repeat, "exit": p.returncode, "side": "oomlab",
        "stop": s["stop"]["kind"],
        "model": {k: m[k] for k in ("d_model", "n_layers", "n_heads", "d_ff", "seq_len")},
        "vocab": s["vocab"], "batch": s["effective_batch"], "steps": s["steps_planned"],
        "peak_nvml": s["memory"]["process_peak"] if args.device == "cuda" else None,
        "peak_rss": p.peak_rss,
        "peak_in_use_phase_ends": s["memory"]["allocator_peak_in_use"],
        "peak_reserved_phase_ends": s["memory"]["allocator_peak_reserved"],
        "step": s["steady_step_s"], "first_step": s["time_to_first_step_s"],
        "final_loss": s["final_loss"],
        "dtypes": f"{','.join(s['precision']['weight_dtypes'])}/{','.join(s['precision']['compute_dtypes'])}",
        "kernel_cache": s.get("kernel_cache"),
    }


def pytorch_run(args, name, settings, repeat, cfg, log):
    out = os.path.join(args.out, "runs", f"{name.replace(' ', '-')}-r{repeat}.json")
    cmd = [sys.executable, os.path.join(os.path.dirname(__file__), "pytorch_gpt.py"),
           "--config", os.path.join(args.out, "config.toml"), "--data", os.path.join(args.out, "data.txt"),
           "--attention", settings["attention"], "--precision", settings["precision"], "--out", out,
           "--device", args.device]
    if args.batch:
        cmd += ["--batch", str(args.batch)]
    if args.steps:
        cmd += ["--steps", str(args.steps)]
    p = run(cmd, log)
    if p.returncode != 0:
        return {"name": name, "repeat": repeat, "exit": p.returncode, "error": p.stderr[-600:]}
    r = json.load(open(out))
    return {
        "name": name, "repeat": repeat, "exit": 0, "side": "pytorch", "stop": "completed",
        "model": r["model"], "vocab": r["vocab"], "batch": r["batch"], "steps": r["steps"],
        "peak_nvml": r["peak_nvml_process_bytes"], "peak_rss": p.peak_rss,
        "peak_allocated": r["peak_allocated_bytes"],
        "peak_reserved": r["peak_reserved_bytes"], "step": r["steady_step_s"],
        "first_step": r["time_to_first_step_s"], "final_loss": r["final_loss"],
        "tf32": r["tf32"], "tool": r["tool"],
    }


def check_pairing(runs):
    """Every completed run must have trained the same thing."""
    keys = ("model", "vocab", "batch", "steps")
    ok = [r for r in runs if "model" in r]
    if not ok:
        return "no run finished"
    ref = ok[0]
    for r in ok[1:]:
        for k in keys:
            if r[k] != ref[k]:
                return f"{r['name']} (repeat {r['repeat']}) has {k} = {r[k]}, {ref['name']} has {ref[k]}"
    return None


def gib(b):
    return "n/a" if b is None else f"{b / 2**30:.2f} GiB"


def mib(b):
    return "n/a" if b is None else f"{b / 2**20:.1f} MiB"


def ms(s):
    return "n/a" if s is None else f"{s * 1e3:.1f} ms"


def secs(s):
    return "n/a" if s is None else f"{s:.1f} s"


def loss(x):
    return "n/a" if x is None else f"{x:.4f}"


def stats(values):
    v = [x for x in values if x is not None]
    return (min(v), statistics.median(v)) if v else (None, None)


def summarize(runs):
    names = list(dict.fromkeys(r["name"] for r in runs))
    rows = {}
    for n in names:
        rs = [r for r in runs if r["name"] == n]
        done = [r for r in rs if r.get("stop") == "completed" and r.get("exit") == 0]
        rows[n] = {
            "runs": len(rs), "completed": len(done),
            "step": stats([r["step"] for r in done]),
            "peak_nvml": stats([r["peak_nvml"] for r in done]),
            "peak_rss": stats([r.get("peak_rss") for r in done]),
            "first_step": stats([r["first_step"] for r in done]),
            "final_loss": stats([r["final_loss"] for r in done]),
            "failed": [f"repeat {r['repeat']}: {r.get('stop') or r.get('error', '')[:120]}" for r in rs if r not in done],
        }
    return rows


def resolve(rows, name, metric):
    """`best:PREFIX`: the configuration starting with PREFIX whose median is lowest."""
    if not name.startswith("best:"):
        return name
    prefix = name[5:]
    cands = [(r[metric][1], n) for n, r in rows.items() if n.startswith(prefix) and r[metric][1] is not None]
    return min(cands)[1] if cands else None


# On the CPU no issue sets a bound: the ratios are what they are.
GOALS_CPU = [
    ("steady step, f32 with the defaults vs PyTorch f32 SDPA", "oomlab f32 defaults", "pytorch f32 sdpa", "step"),
    ("steady step, f32 with the defaults vs PyTorch f32 written out", "oomlab f32 defaults", "pytorch f32 math", "step"),
    ("steady step, bf16 with the defaults vs PyTorch AMP bf16 SDPA", "oomlab bf16 defaults", "pytorch amp-bf16 sdpa", "step"),
    ("steady step, oomlab's best f32 vs PyTorch's best f32", "best:oomlab f32", "best:pytorch f32", "step"),
    ("steady step, oomlab's best bf16 vs PyTorch's best AMP bf16", "best:oomlab bf16", "best:pytorch amp-bf16", "step"),
    ("peak RSS, f32 with the defaults vs PyTorch f32 SDPA", "oomlab f32 defaults", "pytorch f32 sdpa", "peak_rss"),
    ("peak RSS, bf16 with the defaults vs PyTorch AMP bf16 SDPA", "oomlab bf16 defaults", "pytorch amp-bf16 sdpa", "peak_rss"),
]


def cpu_tables(meta, runs):
    rows = summarize(runs)
    out = [f"# Paired yardstick on the CPU: `{meta['config']}` config, {meta['card']}", "",
           f"Date {meta['date']}, commit {meta['commit']}, {meta['repeats']} repeats of every configuration, "
           f"interleaved, each in a fresh process; {meta['steps']} steps at batch {meta['batch']}. "
           f"Command: `{meta['command']}`.", ""] + ([f"Stopped early: {meta['stopped_early']}.", ""] if meta.get("stopped_early") else []) + [
           "Min and median over the repeats. Peak RSS: the process's peak resident set size (ru_maxrss, "
           "read by this script for both sides the same way), code and libraries included. "
           "Steady step: the median step after the first. Each side at its default thread count.", "",
           "| configuration | runs ok | steady step min | steady step median | peak RSS min | peak RSS median | first step median | final loss median |",
           "|---|---|---|---|---|---|---|---|"]
    for n, r in rows.items():
        out.append(f"| {n} | {r['completed']}/{r['runs']} | {ms(r['step'][0])} | {ms(r['step'][1])} | "
                   f"{mib(r['peak_rss'][0])} | {mib(r['peak_rss'][1])} | {secs(r['first_step'][1])} | "
                   f"{loss(r['final_loss'][1])} |")
    failed = [(n, f) for n, r in rows.items() for f in r["failed"]]
    if failed:
        out += ["", "Runs that did not complete: " + "; ".join(f"{n} {f}" for n, f in failed)]
    out += ["", "## oomlab / PyTorch on the CPU (medians)", "",
            "| comparison | oomlab | PyTorch | oomlab | PyTorch | ratio |", "|---|---|---|---|---|---|"]
    for what, ours, theirs, metric in GOALS_CPU:
        ours, theirs = resolve(rows, ours, metric), resolve(rows, theirs, metric)
        a = rows.get(ours, {}).get(metric, (None, None))[1] if ours else None
        b = rows.get(theirs, {}).get(metric, (None, None))[1] if theirs else None
        fmt = mib if metric == "peak_rss" else ms
        ratio = None if a is None or not b else a / b
        out.append(f"| {what} | {ours} | {theirs} | {fmt(a)} | {fmt(b)} | "
                   f"{'n/a' if ratio is None else f'{ratio:.2f}x'} |")
    return "\n".join(out) + "\n", rows


def tables(meta, runs):
    if meta.get("device") == "cpu":
        return cpu_tables(meta, runs)
    rows = summarize(runs)
    out = [f"# Paired yardstick: `{meta['config']}` config, {meta['card']}", "",
           f"Date {meta['date']}, commit {meta['commit']}, {meta['repeats']} repeats of every configuration, "
           f"interleaved, each in a fresh process; {meta['steps']} steps at batch {meta['batch']}. "
           f"Command: `{meta['command']}`.", ""] + ([f"Stopped early: {meta['stopped_early']}.", ""] if meta.get("stopped_early") else []) + [
           "Min and median over the repeats. NVML peak: this process's used memory as NVML reports it, "
           "sampled every 10 ms (by oomlab's own sampler and by pytorch_gpt.py's thread). "
           "Steady step: the median step after the first, synchronised with the device.", "",
           "| configuration | runs ok | steady step min | steady step median | NVML peak min | NVML peak median | first step median | final loss median |",
           "|---|---|---|---|---|---|---|---|"]
    for n, r in rows.items():
        out.append(f"| {n} | {r['completed']}/{r['runs']} | {ms(r['step'][0])} | {ms(r['step'][1])} | "
                   f"{gib(r['peak_nvml'][0])} | {gib(r['peak_nvml'][1])} | {secs(r['first_step'][1])} | "
                   f"{loss(r['final_loss'][1])} |")
    failed = [(n, f) for n, r in rows.items() for f in r["failed"]]
    if failed:
        out += ["", "Runs that did not complete: " + "; ".join(f"{n} {f}" for n, f in failed)]
    out += ["", "## The goals of issues 11 and 26 (medians; oomlab / PyTorch)", "",
            "| goal | oomlab | PyTorch | oomlab | PyTorch | ratio | bound | met |", "|---|---|---|---|---|---|---|---|"]
    for what, ours, theirs, metric, bound in GOALS:
        ours = resolve(rows, ours, metric)
        a = rows.get(ours, {}).get(metric, (None, None))[1] if ours else None
        b = rows.get(theirs, {}).get(metric, (None, None))[1]
        fmt = gib if metric == "peak_nvml" else ms
        ratio = None if a is None or not b else a / b
        out.append(f"| {what} | {ours} | {theirs} | {fmt(a)} | {fmt(b)} | "
                   f"{'n/a' if ratio is None else f'{ratio:.2f}x'} | <= {bound}x | "
                   f"{'n/a' if ratio is None else ('yes' if ratio <= bound else 'no')} |")
    step_goals = [(n, "pytorch f32 sdpa" if " f32 " in n else "pytorch amp-bf16 sdpa", 1.3 if " f32 " in n else 1.5)
                  for n in rows if n.startswith("oomlab") and n.endswith(" defaults")]
    if any(rows.get(t, {}).get("step", (None, None))[1] for _, t, _ in step_goals):
        out += ["", "## Issue 29's step bounds (medians; every defaults row, variants included)", "",
                "| oomlab | PyTorch | oomlab step | PyTorch step | ratio | bound | met | final loss, oomlab | final loss, PyTorch |",
                "|---|---|---|---|---|---|---|---|---|"]
        for ours, theirs, bound in step_goals:
            a, b = rows[ours]["step"][1], rows.get(theirs, {}).get("step", (None, None))[1]
            ratio = None if a is None or not b else a / b
            out.append(f"| {ours} | {theirs} | {ms(a)} | {ms(b)} | {'n/a' if ratio is None else f'{ratio:.2f}x'} | "
                       f"<= {bound}x | {'n/a' if ratio is None else ('yes' if ratio <= bound else 'no')} | "
                       f"{loss(rows[ours]['final_loss'][1])} | {loss(rows.get(theirs, {}).get('final_loss', (None, None))[1])} |")
    return "\n".join(out) + "\n", rows


def card(device):
    """The GPU (nvidia-smi) or the CPU (its model name and the cores this process may use)."""
    if device == "cuda":
        return subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                              capture_output=True, text=True).stdout.strip()
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "cpu")
    return f"{model}, {len(os.sched_getaffinity(0))} cores"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--oomlab", help="the oomlab binary")
    p.add_argument("--oomlab-before", help="another oomlab binary: adds 'oomlab-before P defaults' rows")
    p.add_argument("--variant", action="append", default=[],
                   help="NAME:VAR=VALUE[,VAR=VALUE]: adds 'oomlab-NAME P defaults' rows (this binary, these variables)")
    p.add_argument("--config", default="gpu", help="a built-in config name")
    p.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                   help="cpu: the same pairing on this machine's CPU (peak RSS instead of NVML)")
    p.add_argument("--batch", type=int)
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--only", help="comma-separated configuration names to run (default: all)")
    p.add_argument("--out", required=True)
    p.add_argument("--tables-only", action="store_true")
    p.add_argument("--deadline-s", type=float, default=1e9,
                   help="start no run after this many seconds (the tables cover what ran)")
    args = p.parse_args()
    if args.tables_only:
        data = json.load(open(os.path.join(args.out, "paired.json")))
        md, _ = tables(data["meta"], data["runs"])
        open(os.path.join(args.out, "paired.md"), "w").write(md)
        print(md)
        return
    os.makedirs(os.path.join(args.out, "runs"), exist_ok=True)
    text = subprocess.run([args.oomlab, "configs", args.config], capture_output=True, text=True, check=True).stdout
    open(os.path.join(args.out, "config.toml"), "w").write(text)
    cfg = tomllib.loads(text)
    d = cfg["data"]
    data = subprocess.run([args.oomlab, "dataset", "--task", d["task"], "--chars", str(d["corpus_chars"]),
                           "--seed", str(d["seed"])], capture_output=True, text=True, check=True).stdout
    open(os.path.join(args.out, "data.txt"), "w").write(data)
    only = set(args.only.split(",")) if args.only else None
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": os.environ.get("COMMIT", "unknown"),
        "card": card(args.device),
        "device": args.device,
        "command": "python3 benches/paired.py " + shlex.join(sys.argv[1:]),
        "config": args.config, "batch": args.batch or cfg["train"]["batch"],
        "steps": args.steps, "repeats": args.repeats,
    }
    runs = []
    log = open(os.path.join(args.out, "log.txt"), "a")
    started = datetime.datetime.now().timestamp()
    before = [(f"oomlab-before {p} defaults", {"precision": p, "defaults": True, "before": True})
              for p in ("f32", "bf16")] if args.oomlab_before else []
    variants = []
    for v in args.variant:
        vname, _, assignments = v.partition(":")
        env = dict(a.split("=", 1) for a in assignments.split(",") if a)
        variants += [(f"oomlab-{vname} {p} defaults", {"precision": p, "defaults": True, "env": env})
                     for p in ("f32", "bf16")]
    meta["variants"] = args.variant
    ours = OOMLAB if args.device == "cuda" else OOMLAB_CPU
    plan = [(r, n, s, "oomlab") for r in range(1, args.repeats + 1) for n, s in ours + before + variants] + \
           [(r, n, s, "pytorch") for r in range(1, args.repeats + 1) for n, s in PYTORCH]
    plan.sort(key=lambda x: x[0])  # interleaved: every configuration once per repeat
    for repeat, name, settings, side in plan:
        if only is not None and name not in only:
            continue
        if datetime.datetime.now().timestamp() - started > args.deadline_s:
            meta["stopped_early"] = f"deadline of {args.deadline_s:.0f} s reached before {name} repeat {repeat}"
            break
        if side == "oomlab":
            runs.append(oomlab_run(args, name, settings, repeat, log))
        else:
            runs.append(pytorch_run(args, name, settings, repeat, cfg, log))
        print(json.dumps(runs[-1]), flush=True)
        # Written after every run, so a stopped script still leaves what it measured.
        json.dump({"meta": meta, "runs": runs}, open(os.path.join(args.out, "paired.json"), "w"), indent=1)
    problem = check_pairing(runs)
    if problem:
        print(f"pairing refused: {problem}", file=sys.stderr)
        sys.exit(2)
    md, _ = tables(meta, runs)
    open(os.path.join(args.out, "paired.md"), "w").write(md)
    print(md)


if __name__ == "__main__":
    main()
