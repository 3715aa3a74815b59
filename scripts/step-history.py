#!/usr/bin/env python3
"""Issue 29's steady steps against PyTorch's, one line per committed paired yardstick run
that measured the default of its day, oldest first: the table README.md and
docs/results/step-history.md show instead of a paragraph of typed ratios.

    python3 scripts/step-history.py > docs/results/step-history.md

Every figure comes from a committed `paired.json` (benches/paired.py's), summarised by
paired.py's own `summarize`, so each median equals the one in the folder's `paired.md`.
RUNS below names, for each folder, the oomlab row that ran what was (or became, a variant
measured before it was made the default) the default step, and says what that was; the
PyTorch row is always SDPA (TF32 for f32, AMP for bf16), the side issue 29's bounds name.
"""
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"
spec = importlib.util.spec_from_file_location("paired", ROOT / "benches" / "paired.py")
paired = importlib.util.module_from_spec(spec)
spec.loader.exec_module(paired)

PYTORCH = {"f32": "pytorch f32 sdpa", "bf16": "pytorch amp-bf16 sdpa"}
BOUND = {("gpu", "f32"): 1.3, ("gpu", "bf16"): 1.5, ("h200", "bf16"): 1.5}

# (folder under docs/results holding paired.json, {precision: oomlab row}, what ran)
RUNS = [
    ("2026-12-02-h200-memory-defaults/paired-gpu", {"f32": "oomlab f32 defaults", "bf16": "oomlab bf16 defaults"},
     "issue 26's memory defaults, burn's matrix products (before issue 29's work)"),
    ("2026-12-02-h200-memory-defaults/paired-h200", {"bf16": "oomlab bf16 defaults"},
     "issue 26's memory defaults, burn's matrix products (before issue 29's work)"),
    ("2026-12-04-h200-cublas-queued/call2-default-all/paired", {"f32": "oomlab f32 defaults", "bf16": "oomlab bf16 defaults"},
     "the linear layers' products on cuBLAS for both precisions, each a blocking round trip to cubecl's device thread"),
    ("2026-12-05-h100-defaults-c5a8e16/steps/paired", {"f32": "oomlab f32 defaults", "bf16": "oomlab bf16 defaults"},
     "both precisions' products on cuBLAS; f32's two-stage column sums and dense embedding gradient"),
    ("2026-12-06-h200-row-kernels/paired", {"f32": "oomlab-rowk f32 defaults", "bf16": "oomlab-rowk bf16 defaults"},
     "attention's softmax and LayerNorm as oomlab's kernels, attention's forward pass written out (variant, the default since)"),
    ("2026-12-06-h100-in-place-join/gpu-298fc73/paired", {"f32": "oomlab f32 defaults", "bf16": "oomlab bf16 defaults"},
     "attention's heads written in place into one buffer"),
    ("2026-12-06-h100-in-place-join/h200-298fc73/paired", {"bf16": "oomlab bf16 defaults"},
     "attention's heads written in place into one buffer"),
    ("2026-12-06-h100-probs-bf16/h200-a3b32e1/paired", {"bf16": "oomlab-p16 bf16 defaults"},
     "attention's probabilities recomputed in bf16 (variant, f044144's default)"),
    ("2026-12-06-h100-grads-together/gpu-91e0fb5/paired", {"f32": "oomlab-grads2 f32 defaults", "bf16": "oomlab-grads2 bf16 defaults"},
     "a linear layer's two gradient products as one cuBLAS operation (variant, ac6cb6e's default)"),
    ("2026-12-06-h100-attention-pairs/gpu-248382e-r3/paired", {"f32": "oomlab-pairs2 f32 defaults", "bf16": "oomlab-pairs2 bf16 defaults"},
     "attention's backward products in pairs behind one handshake (variant, 38508c1's default)"),
    ("2026-12-06-h100-host-profile/gpu-613997e/paired", {"f32": "oomlab f32 defaults", "bf16": "oomlab bf16 defaults"},
     "613997e's defaults (the three rows in one call)"),
    ("2026-12-06-h100-host-profile/h200-613997e/paired", {"bf16": "oomlab bf16 defaults"},
     "613997e's defaults (the three rows in one call)"),
    ("2026-12-06-h100-adamw-kernel/paired-gpu-1/paired", {"f32": "oomlab-heapoff f32 defaults", "bf16": "oomlab-heapoff bf16 defaults"},
     "AdamW as one kernel a parameter, host heap not counted (variant, b435a65's default)"),
    ("2026-12-06-h100-adamw-kernel/paired-gpu-2/paired", {"bf16": "oomlab-heapoff bf16 defaults"},
     "AdamW as one kernel a parameter, host heap not counted (variant, b435a65's default)"),
    ("2026-12-06-h100-adamw-kernel/paired-h200/paired", {"bf16": "oomlab-heapoff bf16 defaults"},
     "AdamW as one kernel a parameter, host heap not counted (variant, b435a65's default)"),
    ("2026-12-07-h100-final-check/paired", {"f32": "oomlab f32 defaults", "bf16": "oomlab bf16 defaults"},
     "6787e48's defaults, no variable choosing them (the host heap count off on CUDA by default since b435a65)"),
    ("2026-12-07-h100-done-when/paired-gpu-1", {"f32": "oomlab f32 defaults", "bf16": "oomlab bf16 defaults"},
     "303fab1's defaults (same Rust as 6787e48), the three rows and 100 steps against 75cc3a4 on one machine"),
    ("2026-12-07-h100-done-when/paired-h200", {"bf16": "oomlab bf16 defaults"},
     "303fab1's defaults (same Rust as 6787e48), the three rows and 100 steps against 75cc3a4 on one machine"),
    ("2026-12-07-h100-done-when/paired-gpu-2", {"f32": "oomlab f32 defaults", "bf16": "oomlab bf16 defaults"},
     "303fab1's defaults (same Rust as 6787e48), the three rows and 100 steps against 75cc3a4 on one machine"),
]


def ms(s):
    return f"{s * 1000:.1f} ms"


def main():
    print("# Issue 29's steady steps against PyTorch's, run by run")
    print()
    print("Generated by `python3 scripts/step-history.py` from the committed `paired.json` of each")
    print("folder below (medians as in its `paired.md`; each folder's README has the command and the")
    print("settings). Each line is one paired yardstick run: oomlab and PyTorch interleaved, each")
    print("configuration in fresh processes, on one card. Ratios compare within a line only: the")
    print("cards differ between lines, and so do machines of one kind (see PyTorch's own steps below).")
    print("Bound: issue 29's (gpu f32 1.3x PyTorch TF32 + SDPA, AMP bf16 1.5x PyTorch AMP + SDPA on")
    print("both configs).")
    print()
    print("| results | card | binary | config | precision | oomlab row | oomlab step | PyTorch step | ratio | bound | runs (oomlab, PyTorch) | what the oomlab row ran |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    theirs = {}
    for folder, rows, what in RUNS:
        data = json.loads((RESULTS / folder / "paired.json").read_text())
        meta, summary = data["meta"], paired.summarize(data["runs"])
        card = meta["card"].split(",")[0].replace("NVIDIA ", "").replace(" 80GB HBM3", "")
        for precision, ours in rows.items():
            a, b = summary[ours], summary[PYTORCH[precision]]
            step_a, step_b = a["step"][1], b["step"][1]
            theirs.setdefault((card, meta["config"], precision), []).append(step_b)
            ratio = step_a / step_b
            bound = BOUND[(meta["config"], precision)]
            print(f"| `{folder}` | {card} | {meta['commit'][:7]} | {meta['config']} | {precision} | {ours} | "
                  f"{ms(step_a)} | {ms(step_b)} | {ratio:.2f}x | {bound}x ({'met' if ratio <= bound else 'not met'}) | "
                  f"{a['completed']}, {b['completed']} | {what} |")
    print()
    print("PyTorch's own median step over the lines above, by card, config and precision")
    print("(benches/pytorch_gpt.py, whose CUDA path has not changed since these runs began):")
    print()
    print("| card | config | precision | lines | lowest | highest | highest / lowest |")
    print("|---|---|---|---|---|---|---|")
    for (card, config, precision), steps in theirs.items():
        print(f"| {card} | {config} | {precision} | {len(steps)} | {ms(min(steps))} | {ms(max(steps))} | "
              f"{max(steps) / min(steps):.2f}x |")


if __name__ == "__main__":
    main()
