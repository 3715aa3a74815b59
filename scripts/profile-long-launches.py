#!/usr/bin/env python3
"""How many of one kernel family's launches per steady step take longer than a threshold,
and their time: a profile family split by duration (e.g. a few large casts among many
small ones), from cubecl's kernel profiler logs as scripts/gpu/step-levers.sh writes them.

    python3 scripts/profile-long-launches.py DIR TAG PRECISION FAMILY MS

reads DIR/profile-TAG-PRECISION-{3,8}.log[.gz]; a steady step is the difference of the
8-step and 3-step logs over 5 (as benches/profile_breakdown.py without --tail). Markdown
on stdout.
"""
import gzip
import os
import re
import sys

UNITS = {"ns": 1e-6, "µs": 1e-3, "us": 1e-3, "ms": 1.0, "s": 1e3}
LINE = re.compile(r"\|\s*([0-9.]+)(ns|µs|us|ms|s)\s*\|\s*([^|]+)\|")


def durations(path, family):
    """Every launch of `family` in the log, in ms."""
    if not os.path.exists(path):
        path += ".gz"
    opener = gzip.open if path.endswith(".gz") else open
    out = []
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m and m.group(3).strip() == family:
                out.append(float(m.group(1)) * UNITS[m.group(2)])
    return out


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    folder, tag, precision, family, ms = sys.argv[1:]
    ms = float(ms)
    logs = [os.path.join(folder, f"profile-{tag}-{precision}-{n}.log") for n in (3, 8)]
    short, long_ = (durations(p, family) for p in logs)
    def over(xs):
        big = [x for x in xs if x > ms]
        return len(big), sum(big)
    (n3, t3), (n8, t8) = over(short), over(long_)
    print(f"### {family} launches over {ms} ms, {tag} {precision} ({folder})\n")
    print("| | launches per step | ms per step |")
    print("|---|---|---|")
    print(f"| over {ms} ms | {(n8 - n3) / 5:.1f} | {(t8 - t3) / 5:.2f} |")
    print(f"| all | {(len(long_) - len(short)) / 5:.1f} | {(sum(long_) - sum(short)) / 5:.2f} |")


if __name__ == "__main__":
    main()
