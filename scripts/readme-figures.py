#!/usr/bin/env python3
"""The README's table of today's figures, made from the committed result files it cites.

  python3 scripts/readme-figures.py           # rewrites the table in README.md
  python3 scripts/readme-figures.py --check   # exits 1 (and prints the difference) when stale

Each row reads the newest committed result of its kind (the sources below); to move a row
to a newer result, point its source here at the new file and run the script. The table sits
between `<!-- figures:start -->` and `<!-- figures:end -->` in README.md; a test runs
`--check`, so a figure in the README is always the one its file holds.
"""
import difflib, json, os, re, sys, tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
R = "docs/results"
NEW_USER = f"{R}/2026-12-07-h100-new-user"
# The newest fresh card with nothing set, on today's binary: its first steps and the lesson
# (first-result.sh's log format).
LESSON = f"{R}/2026-12-07-h100-kernels-crate/verify/log-verify-lesson.txt"
PAIRED_GPU = f"{R}/2026-12-07-h100-done-when/paired-gpu-2/paired.json"
PAIRED_H200 = f"{R}/2026-12-07-h100-done-when/paired-h200/paired.json"
HF_VALIDATION = f"{R}/2026-12-04-hf-estimate-validation.md"
OWN_VALIDATION = f"{R}/2026-12-02-estimate-validation.md"
DIAGNOSE_CORPUS = "tests/data/oom-messages/real/sources.toml"


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def short_card(card):
    """'NVIDIA H100 80GB HBM3, 580.159.04, 81559 MiB' -> 'H100'."""
    for name in ("H200", "H100"):
        if name in card:
            return name
    return card


def first_steps():
    log = read(f"{NEW_USER}/log.txt")
    steps = dict(re.findall(r"first step (\S+): exit 0, time to first step ([\d.]+) s", log))
    times = dict(re.findall(r"^(lesson|compare): exit 0, ([\d.]+) s", log, re.M))
    card = short_card(re.search(r"^card: (.*)$", log, re.M).group(1))
    date = re.search(r"^date: (\d{4}-\d\d-\d\d)", log, re.M).group(1)
    return steps, times, card, date


def fresh_first_steps():
    """The first steps of LESSON's fresh card: {name: seconds}."""
    found = re.findall(r"^(\S+): exit 0, process [\d.]+ s, time to first step ([\d.]+) s", read(LESSON), re.M)
    return {name: float(seconds) for name, seconds in found}


def lesson_time():
    log = read(LESSON)
    seconds = re.search(r"^lesson: exit 0, ([\d.]+) s", log, re.M).group(1)
    card = short_card(re.search(r"^NVIDIA .*$", log, re.M).group(0))
    date = re.search(r"^date: (\d{4}-\d\d-\d\d)", log, re.M).group(1)
    return float(seconds), card, date


def medians(path):
    data = json.loads(read(path))
    runs = [r for r in data["runs"] if r.get("exit") == 0]

    def median(name, key):
        vals = sorted(r[key] for r in runs if r["name"] == name and r.get(key) is not None)
        if not vals:
            return None
        n = len(vals)
        return vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2

    meta = data["meta"]
    return median, short_card(meta["card"]), meta["date"][:10]


def summary_line(path, starts):
    for line in read(path).splitlines():
        if line.startswith("- " + starts):
            return line[2:]
    raise SystemExit(f"{path}: no line starting '- {starts}'")


def table():
    _, times, card, date = first_steps()
    gpu, gcard, gdate = medians(PAIRED_GPU)
    h200, hcard, hdate = medians(PAIRED_H200)
    ratio = lambda m, a, b, k: m(a, k) / m(b, k)
    hf = re.search(r"(\d+) of (\d+); errors from (\S+) to (\S+)\.",
                   summary_line(HF_VALIDATION, "Completed rows, predicted reserved peak"))
    own = [re.search(r"^(.*?), .*: (\d+) of (\d+); errors from (\S+) to (\S+)\.$", line)
           for line in read(OWN_VALIDATION).splitlines() if line.startswith("- ") and "+-10%" in line]
    own = [m for m in own if m]
    own_in = sum(int(m.group(2)) for m in own)
    own_all = sum(int(m.group(3)) for m in own)
    lo = min(float(m.group(4).rstrip("%")) for m in own)
    hi = max(float(m.group(5).rstrip("%")) for m in own)
    messages = len(tomllib.loads(read(DIAGNOSE_CORPUS))["message"])
    # Where and when: the validation's card from its header, its date from its name; the
    # own model's from the machines of its rows and the newest file they cite.
    hf_card = re.search(r"on the NVIDIA (H\d+)", read(HF_VALIDATION)).group(1)
    hf_date = re.search(r"(\d{4}-\d\d-\d\d)", HF_VALIDATION).group(1)
    own_rows = [l.split("|") for l in read(OWN_VALIDATION).splitlines() if re.match(r"\| (CPU|H\d+|CUDA) ", l)]
    machines = sorted({r[1].split()[0] for r in own_rows} - {"CUDA"}, reverse=True)
    own_date = max(re.search(r"(\d{4}-\d\d-\d\d)", r[-2]).group(1) for r in own_rows)
    lesson = lesson_time()
    first = fresh_first_steps()
    rows = [
        ("a fresh GPU's first step, `gpu` config, f32 / AMP bf16",
         f"{first['gpu-f32']:.1f} s / {first['gpu-bf16']:.1f} s", f"{lesson[1]}, {lesson[2]}", "fresh-card"),
        ("... `tiny` f32 / `h200` AMP bf16",
         f"{first['tiny-f32']:.1f} s / {first['h200-bf16']:.1f} s", f"{lesson[1]}, {lesson[2]}", "fresh-card"),
        ("`oomlab lesson --yes`, both parts", f"{lesson[0]:.0f} s", f"{lesson[1]}, {lesson[2]}", "fresh-card"),
        ("`oomlab compare --config gpu --strategies all`", f"{float(times['compare']):.0f} s",
         f"{card}, {date}", "new-user"),
        ("step against PyTorch SDPA, `gpu` f32 (TF32) / AMP bf16",
         f"{ratio(gpu, 'oomlab f32 defaults', 'pytorch f32 sdpa', 'step'):.2f}x / "
         f"{ratio(gpu, 'oomlab bf16 defaults', 'pytorch amp-bf16 sdpa', 'step'):.2f}x", f"{gcard}, {gdate}", "paired-gpu"),
        ("step against PyTorch SDPA, `h200` config, AMP bf16",
         f"{ratio(h200, 'oomlab bf16 defaults', 'pytorch amp-bf16 sdpa', 'step'):.2f}x", f"{hcard}, {hdate}", "paired-h200"),
        ("process VRAM against PyTorch, `gpu` f32 / AMP bf16",
         f"{ratio(gpu, 'oomlab f32 defaults', 'pytorch f32 sdpa', 'peak_nvml'):.2f}x / "
         f"{ratio(gpu, 'oomlab bf16 defaults', 'pytorch amp-bf16 sdpa', 'peak_nvml'):.2f}x", f"{gcard}, {gdate}", "paired-gpu"),
        ("process VRAM against PyTorch, `h200` config, AMP bf16",
         f"{ratio(h200, 'oomlab bf16 defaults', 'pytorch amp-bf16 sdpa', 'peak_nvml'):.2f}x", f"{hcard}, {hdate}", "paired-h200"),
        ("`estimate --model` against real transformers training",
         f"{hf.group(1)} of {hf.group(2)} runs within 10% ({hf.group(3)} to {hf.group(4)})", f"{hf_card}, {hf_date}", "hf-validation"),
        ("`estimate` of oomlab's own model against its runs",
         f"{own_in} of {own_all} within 10% ({lo:+.1f}% to {hi:+.1f}%)", f"{' and '.join(machines)}, {own_date}", "own-validation"),
        ("`diagnose` on real messages users posted", f"{messages} messages, each read right",
         "the test suite", "diagnose-corpus"),
    ]
    links = {
        "new-user": NEW_USER + "/README.md",
        "fresh-card": "docs/results/2026-12-07-h100-kernels-crate/README.md",
        "paired-gpu": PAIRED_GPU.replace("paired.json", "paired.md"),
        "paired-h200": PAIRED_H200.replace("paired.json", "paired.md"),
        "hf-validation": HF_VALIDATION,
        "own-validation": OWN_VALIDATION,
        # The corpus lives with the tests; the results index describes it.
        "diagnose-corpus": "docs/results/README.md#oom-messages",
    }
    out = ["| what | figure | where, when | from |", "|---|---|---|---|"]
    for what, figure, where, src in rows:
        out.append(f"| {what} | {figure} | {where} | [{src}] |")
    out.append("")
    out += [f"[{k}]: {v}" for k, v in links.items()]
    return "\n".join(out)


def main():
    readme_path = os.path.join(ROOT, "README.md")
    readme = read("README.md")
    block = f"<!-- figures:start -->\n{table()}\n<!-- figures:end -->"
    new, n = re.subn(r"<!-- figures:start -->.*?<!-- figures:end -->", lambda _: block, readme, flags=re.S)
    if n != 1:
        raise SystemExit("README.md has no <!-- figures:start --> ... <!-- figures:end --> block")
    if "--check" in sys.argv[1:]:
        if new != readme:
            sys.stdout.writelines(difflib.unified_diff(readme.splitlines(True), new.splitlines(True),
                                                       "README.md", "README.md (from the result files)"))
            print("README.md's figures are stale: run python3 scripts/readme-figures.py")
            sys.exit(1)
        return
    with open(readme_path, "w", encoding="utf-8") as f:
        f.write(new)
    print("README.md: figures regenerated")


if __name__ == "__main__":
    main()
