#!/usr/bin/env python3
"""Side-by-side table of `oomlab compare` (compare.json) and the PyTorch yardstick
(pytorch_yardstick.py's JSON): per strategy present in both, oomlab/PyTorch ratios of peak
memory (allocator in use vs max_memory_allocated; reserved vs max_memory_reserved) and of
steady step time, plus oomlab's and PyTorch's time to the first step. Markdown on stdout.

  python3 benches/side_by_side.py compare.json pytorch.json > side-by-side.md
"""
import json
import sys


def fmt_b(b):
    return "n/a" if b is None else f"{b / 2**20:.1f} MiB"


def ratio(a, b):
    return "n/a" if a is None or b in (None, 0) else f"{a / b:.2f}"


def main():
    ours = json.load(open(sys.argv[1]))
    theirs = json.load(open(sys.argv[2]))
    py = {r["strategy"]: r for r in theirs["rows"]}
    print(f"oomlab ({ours['device']}, args: {' '.join(ours['common_args'])}) vs {theirs['tool']} ({theirs['device']})\n")
    print("| strategy | oomlab split | oomlab peak in use | PyTorch peak allocated | ratio | oomlab peak reserved | PyTorch peak reserved | ratio | oomlab steady step | PyTorch steady step | ratio | oomlab first step | PyTorch first step |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in ours["rows"]:
        p = py.get(r["strategy"])
        if p is None:
            continue
        ms = lambda s: "n/a" if s is None else f"{s * 1e3:.2f} ms"
        sec = lambda s: "n/a" if s is None else f"{s:.1f} s"
        print(f"| {r['strategy']} | {r['split']} | {fmt_b(r['peak_in_use_bytes'])} | {fmt_b(p['peak_in_use_bytes'])} | "
              f"{ratio(r['peak_in_use_bytes'], p['peak_in_use_bytes'])} | {fmt_b(r['peak_reserved_bytes'])} | "
              f"{fmt_b(p['peak_reserved_bytes'])} | {ratio(r['peak_reserved_bytes'], p['peak_reserved_bytes'])} | "
              f"{ms(r['steady_step_s'])} | {ms(p['steady_step_s'])} | {ratio(r['steady_step_s'], p['steady_step_s'])} | "
              f"{sec(r['time_to_first_step_s'])} | {sec(p['time_to_first_step_s'])} |")
    missing = [s for s in py if s not in {r["strategy"] for r in ours["rows"]}]
    if missing:
        print(f"\nPyTorch only (oomlab has no such strategy yet): {', '.join(missing)}")
        for s in missing:
            p = py[s]
            print(f"- {s}: peak allocated {fmt_b(p['peak_in_use_bytes'])}, reserved {fmt_b(p['peak_reserved_bytes'])}, "
                  f"steady step {p['steady_step_s'] * 1e3:.2f} ms, final loss {p['final_loss']:.4f}")


if __name__ == "__main__":
    main()
