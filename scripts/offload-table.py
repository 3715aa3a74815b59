#!/usr/bin/env python3
"""Writes docs/results/2026-12-07-h100-offload/table.md from that folder's offload.json
(the binary of record) and first-run/offload.json (the first binary, whose host side
copied element by element): oomlab's baseline and offload-optimizer, f32 and AMP bf16,
against PyTorch's GPT with AdamW on the GPU and on the host, and against the estimate.

  python3 scripts/offload-table.py [--check]
"""
import json, os, statistics, sys

D = "docs/results/2026-12-07-h100-offload"
GIB = 2**30


def rows(path, label):
    r = json.load(open(path))
    out = []
    for key, runs in r["compare"].items():
        prec, strat = key.split(" ", 1)
        est = r["estimate"].get(key, {})
        peak = runs[0]["peak_process_bytes"]
        out.append((label, f"oomlab {strat}", prec,
                    peak, est.get("peak"),
                    statistics.median(x["steady_step_s"] for x in runs),
                    runs[0]["final_loss"], len(runs)))
    for kind, runs in r["pytorch"].items():
        name = "PyTorch, AdamW on the host" if kind == "offload" else "PyTorch, AdamW on the GPU"
        out.append((label, name, "f32", runs[0]["peak_nvml_process_bytes"], None,
                    statistics.median(x["steady_step_s"] for x in runs), runs[0]["final_loss"], len(runs)))
    return out


def table():
    lines = [
        "| binary | run | precision | NVML peak GiB | estimate GiB (error) | steady step ms | final loss | runs |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, path in (("c42f4a4", f"{D}/offload.json"), ("ce25563", f"{D}/first-run/offload.json")):
        for b, name, prec, peak, est, step, loss, n in rows(path, label):
            e = f"{est / GIB:.2f} ({(est / peak - 1) * 100:+.1f}%)" if est else "-"
            lines.append(f"| {b} | {name} | {prec} | {peak / GIB:.2f} | {e} | {step * 1000:.1f} | {loss:.4f} | {n} |")
    r = json.load(open(f"{D}/offload.json"))
    saved = {}
    for prec in ("f32", "bf16"):
        base = r["compare"][f"{prec} baseline"][0]["peak_process_bytes"]
        off = r["compare"][f"{prec} offload-optimizer"][0]["peak_process_bytes"]
        saved[prec] = (base - off) / 2**20
    o = r["estimate"]["f32 offload-optimizer"]["offload"]
    pt = r["pytorch"]
    pt_saved = (pt["gpu"][0]["peak_nvml_process_bytes"] - pt["offload"][0]["peak_nvml_process_bytes"]) / 2**20
    lines += [
        "",
        f"NVML peak saved by offload-optimizer (c42f4a4): f32 {saved['f32']:.0f} MiB, AMP bf16 "
        f"{saved['bf16']:.0f} MiB; PyTorch with AdamW on the host: {pt_saved:.0f} MiB. "
        f"The estimate's terms: moments {o['device_saved'] / 2**20:.1f} MiB off the device, "
        f"{o['host_state'] / 2**20:.1f} MiB in host memory ({o['host_peak'] / 2**20:.1f} MiB at the update), "
        f"{o['bus_per_step'] / 2**20:.1f} MiB over the bus a step.",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    text = table()
    path = f"{D}/table.md"
    if "--check" in sys.argv:
        if open(path).read() != text:
            sys.exit(f"{path} is not what scripts/offload-table.py makes from its files")
    else:
        open(path, "w").write(text)
        print(text)
