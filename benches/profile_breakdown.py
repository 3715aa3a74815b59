#!/usr/bin/env python3
"""Where a steady step's device time goes, from cubecl's kernel profiler.

benches/paired.sh (PROFILE=1) runs `oomlab train` twice per precision with
CUBECL_DEBUG_OPTION=profile and CUBECL_DEBUG_LOG=FILE: 3 steps and 8 steps, same warm
kernel cache. Both runs do the same start (model, warm-up step, the first steps), so the
difference of the two logs is what 5 steady steps spent in each kernel. The profiler
times every kernel on its own (it waits for each), so the sum is device time without
overlap; compare it with the steady step of unprofiled runs.

  python3 benches/profile_breakdown.py DIR   # reads DIR/profile-{f32,bf16}-{3,8}.log[.gz]

and, where they exist, DIR/profile-before-{f32,bf16}-{3,8}.log[.gz] (the binary before a
change, benches/paired.sh with oomlab-before carried).

  python3 benches/profile_breakdown.py DIR TAG...   # DIR/profile-TAG-{f32,bf16}-{3,8}.log[.gz]

reads the runs of each named variant instead (scripts/gpu/step-levers.sh: "defaults",
"levers"); the tag "" is the plain profile-{f32,bf16} pair.

  python3 benches/profile_breakdown.py --tail DIR TAG...

reads the 8-step log's last 5 steps instead of the difference of the logs: (launches of
the 8-step log - launches of the 3-step log) / 5 kernels make a step, and the last 5 times
that many kernel lines are 5 steady steps. For a pair whose first run met kernels cold in
the driver (a fresh machine, no warm-up process first: the 3-step run pays the driver's
compilation of the PTX and the 8-step run does not, so the difference goes negative).

Markdown on stdout.
"""
import collections
import gzip
import os
import re
import sys

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
LINE = re.compile(r"\|\s*([0-9.]+)(ns|µs|us|ms|s)\s*\|\s*([^|]+)\|")


def lines(path):
    """(kernel family, seconds) for each kernel line of a log, in launch order."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                yield m.group(3).strip(), float(m.group(1)) * UNITS[m.group(2)]


def count(rows):
    seconds, launches = collections.Counter(), collections.Counter()
    for name, t in rows:
        seconds[name] += t
        launches[name] += 1
    return seconds, launches


def parse(path):
    return count(lines(path))


def find(folder, name):
    for candidate in (name, name + ".gz"):
        p = os.path.join(folder, candidate)
        if os.path.exists(p):
            return p
    return None


def main():
    args = sys.argv[1:]
    tail = args[:1] == ["--tail"]
    args = args[1:] if tail else args
    folder = args[0]
    tags = [f"{t}-" if t else "" for t in args[1:]] or ["", "before-"]
    found = 0
    for tag in tags:
        for precision in ("f32", "bf16"):
            p3 = find(folder, f"profile-{tag}{precision}-3.log")
            p8 = find(folder, f"profile-{tag}{precision}-8.log")
            if not (p3 and p8):
                continue
            found += 1
            s3, l3 = parse(p3)
            s8, l8 = parse(p8)
            per = {n: ((s8[n] - s3[n]) / 5, (l8[n] - l3[n]) / 5) for n in set(s8) | set(s3)}
            if tail:
                step = round((sum(l8.values()) - sum(l3.values())) / 5)
                st, sl = count(list(lines(p8))[-5 * step:])
                per = {n: (st[n] / 5, sl[n] / 5) for n in set(per) | set(st)}
            # A family the steady steps never launch (the same launches in both logs: the
            # start only, e.g. the parameters' PrngKernel) differs only by its first
            # launch's compile and load time, which is not a step's.
            start_only = sorted(n for n, (_, launches) in per.items() if launches == 0)
            per = {n: v for n, v in per.items() if n not in start_only}
            total = sum(t for t, _ in per.values())
            which = {"": "", "before-": " (binary before the change)"}.get(tag, f" ({tag[:-1]})")
            how = " (the 8-step log's last 5 steps)" if tail else ""
            print(f"\n### {precision}{which}: {total * 1e3:.1f} ms of kernel time per steady step{how}, "
                  f"{sum(n for _, n in per.values()):.0f} launches\n")
            if start_only:
                print(f"Left out (launched at the start only): {', '.join(start_only)}.\n")
            print("| kernel family | ms per step | share | launches per step |")
            print("|---|---|---|---|")
            for name, (t, n) in sorted(per.items(), key=lambda x: -x[1][0]):
                if t * 1e3 >= 0.05:
                    print(f"| {name} | {t * 1e3:.2f} | {t / total:.0%} | {n:.0f} |")
    if not found:
        raise SystemExit(f"no profile-*-3.log / -8.log pair in {folder}")


if __name__ == "__main__":
    main()
