#!/usr/bin/env python3
"""The allocation sequence of a Hugging Face training run, read from the caching allocator's
traces of small models and written down with symbolic sizes, so that src/hf/replay.rs can
replay it for any model of the same architecture (issue 28).

  python3 scripts/hf-templates.py [RUN_DIR] [--out src/hf/templates]

RUN_DIR (default docs/results/2026-12-04-h200-hf-templates/templates/hf-memory) holds the
traces of HF_MEMORY_SET=templates: for each family (gpt2, qwen2-tied, llama-tied,
llama-untied, mistral-untied) two configs, FAMILY-a and FAMILY-b (configs/hf-templates/),
whose dimensions differ from each other everywhere, each trained in f32, AMP bf16 and pure
bf16, with and without gradient checkpointing, 4 steps of AdamW.

For each (family, precision, checkpointing) it reads both traces and:
1. splits each into phases at the bench's marks: the build, then each step's forward pass,
   backward pass and optimizer step (the events after the last step are left out);
2. finds in each phase the runs that repeat once per layer (the config's num_hidden_layers
   times in a row, each run the same sequence of sizes), and writes them as a loop;
3. names every free by the allocation it frees: which phase (the build, or a phase of this
   step or the one before), which item of that phase, which of the loop's iterations
   (counted from the first or the last, or from the iteration the free is in, forwards or
   mirrored) and which allocation of it;
4. names every size by the products of the config's dimensions that equal it in BOTH
   shapes (B batch, S sequence, d hidden, kv = key/value heads x head size, f MLP width, V
   vocabulary, H heads, Hkv key/value heads, hd head size, P positions, L layers) times a
   small factor; a size no product names in both is written as the constant it is, if it is
   the same in both shapes;
5. checks that both traces give the same template (the same loops, frees and sizes) and
   that steps 2 and 3 repeat step 1, and writes FAMILY-PRECISION[-ckpt].tpl.

Then it replays each template for the shape it was read from and for the other one and
checks the sequence against the trace, event by event (a template that does not
reproduce both traces is not written). What remains uncertain is said in src/hf/replay.rs.
"""
import collections
import itertools
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "docs", "results", "2026-12-04-h200-hf-templates")
DEFAULT_RUNS = [os.path.join(RESULTS, "templates", "hf-memory"),
                os.path.join(RESULTS, "templates-gqa", "hf-memory"),
                os.path.join(RESULTS, "templates-untied", "hf-memory")]
# The two shapes each family's template is read from: shape b of the grouped-query
# families has one key/value head, whose multi-query kernels differ (see the results'
# README); shape c, traced in a second call, has three.
SHAPES = {"gpt2": "ab", "qwen2-tied": "ac", "llama-tied": "ac", "llama-untied": "ac",
          "mistral-untied": "ac", "qwen2-untied": "ac"}
FAMILIES = ("gpt2", "qwen2-tied", "llama-tied", "llama-untied", "mistral-untied", "qwen2-untied")
PRECISIONS = ("f32", "amp-bf16", "bf16")
SYMBOLS = ("B", "S", "d", "kv", "f", "V", "H", "Hkv", "hd", "P")
FACTORS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32)
# the fewest events of a loop body: MIN_SHORT where it repeats once per layer (GPT-2's four
# biases autocast's cache frees at the end of the forward pass), MIN_BODY where it repeats
# one time fewer (a layer unlike the others; a shorter run repeated twice, shape a having
# three layers, can be chance: five events twice in Llama's f32 backward pass)
MIN_SHORT = 3
MIN_BODY = 12


def dims_of(config, batch, seq):
    c = config
    if c["model_type"] == "gpt2":
        d, h = c["n_embd"], c["n_head"]
        return {"B": batch, "S": seq, "d": d, "kv": d, "f": c["n_inner"] or 4 * d,
                "V": c["vocab_size"], "H": h, "Hkv": h, "hd": d // h, "P": c["n_positions"],
                "L": c["n_layer"]}
    d, h = c["hidden_size"], c["num_attention_heads"]
    hd = c.get("head_dim") or d // h
    hkv = c.get("num_key_value_heads") or h
    return {"B": batch, "S": seq, "d": d, "kv": hkv * hd, "f": c["intermediate_size"],
            "V": c["vocab_size"], "H": h, "Hkv": hkv, "hd": hd,
            "P": c.get("max_position_embeddings", 0), "L": c["num_hidden_layers"]}


def monomials(dims, symbols=SYMBOLS):
    """{value: [expr, ...]}: every product of up to four symbols (B*H*S*S: attention
    written out) times a factor."""
    out = collections.defaultdict(list)
    for n in range(0, 5):
        for combo in itertools.combinations_with_replacement(symbols, n):
            v = 1
            for s in combo:
                v *= dims[s]
            for k in FACTORS:
                expr = "*".join(combo + ((str(k),) if k != 1 or not combo else ()))
                out[v * k].append(expr)
    return out


def evaluate(expr, dims):
    """The value of a sum of products of dimensions and integers, e.g. B*S*8+B*8, or of a
    product times a ratio, rounded (T*d*4~1.01578)."""
    if "~" in expr:
        product, ratio = expr.split("~")
        return round(evaluate(product, dims) * float(ratio))
    total = 0
    for term in expr.split("+"):
        v = 1
        for part in term.split("*"):
            v *= dims[part] if part in dims else int(part)
        total += v
    return total


# ---- traces -------------------------------------------------------------------------

def replay_module():
    """scripts/allocator-replay.py: its trace reader and its model of the allocator."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("allocator_replay",
                                                  os.path.join(ROOT, "scripts", "allocator-replay.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def load(path):
    """{phase: [("a", id, size) | ("f", id)]}, phases build, F0, B0, O0, F1, ..."""
    raw, marks = replay_module().load(path)  # marks: (time, "build" | "forward 0" | ...)
    marks = [(t, "build" if n == "build" else
              {"forward": "F", "backward": "B", "step": "O"}[n.split()[0]] + n.split()[1])
             for t, n in marks]
    phases = collections.OrderedDict((n, []) for _, n in marks)
    live, nid, mi = {}, 0, 0
    for a, addr, size, t in raw:
        while mi < len(marks) and t > marks[mi][0]:
            mi += 1
        if mi == len(marks):
            break
        ph = marks[mi][1]
        if a == "alloc":
            live[addr] = nid
            phases[ph].append(("a", nid, size))
            nid += 1
        elif a == "free_completed" and addr in live:
            phases[ph].append(("f", live.pop(addr)))
    # Frees with no allocation between them leave the same free blocks in any order; some
    # come in a hash map's order (autocast's cache of bf16 weights at the forward pass's
    # end): put each run of them in the order of allocation.
    for ph, evs in phases.items():
        out, run = [], []
        for e in evs + [("a", -1, 0)]:
            if e[0] == "f":
                run.append(e)
                continue
            out.extend(sorted(run, key=lambda f: f[1]))
            run = []
            out.append(e)
        phases[ph] = out[:-1]
    return phases


def compress(events, sizes, L):
    """Items of a phase: ("e", event) or ("loop", [[event, ...] per iteration]). A loop is
    a run of L (or L - 1: a first or last layer unlike the others) equal bodies, equal by
    the sizes of what is allocated and freed; the loop that covers the most events is taken
    first, then the parts before and after it are searched again."""
    ids = {}
    tok = [ids.setdefault(("a", e[2]) if e[0] == "a" else ("f", sizes[e[1]]), len(ids) + 1)
           for e in events]
    mod, base = (1 << 61) - 1, 1_000_003
    pre, pw = [0], [1]
    for t in tok:
        pre.append((pre[-1] * base + t) % mod)
        pw.append(pw[-1] * base % mod)

    def h(i, j):
        return (pre[j] - pre[i] * pw[j - i]) % mod

    def primitive(i, p):
        """A body that is not itself a shorter run repeated (+x -x +x -x)."""
        return not any(p % q == 0 and h(i, i + p - q) == h(i + q, i + p) for q in range(1, p // 2 + 1))

    def best(lo, hi):
        found = None  # (coverage, -reps, -i, i, p, reps)
        for p in range((hi - lo) // max(L - 1, 2), MIN_SHORT - 1, -1):
            if found and p * L < found[0]:
                break
            for reps in (L, L - 1):
                if reps < 2 or (reps < L and p < MIN_BODY):
                    continue
                span = (reps - 1) * p
                for i in range(lo, hi - reps * p + 1):
                    if h(i, i + span) == h(i + p, i + p + span) and primitive(i, p):
                        key = (p * reps, reps, -i)
                        if found is None or key > found[:3]:
                            found = key + (i, p, reps)
                        break
        return found

    def walk(lo, hi, out):
        b = best(lo, hi) if hi - lo >= 2 * MIN_SHORT else None
        if b is None:
            out.extend(("e", e) for e in events[lo:hi])
            return
        _, _, _, i, p, reps = b
        walk(lo, i, out)
        out.append(("loop", [events[i + k * p:i + (k + 1) * p] for k in range(reps)]))
        walk(i + p * reps, hi, out)

    items = []
    walk(0, len(tok), items)
    return items


class Where:
    """Where each allocation id was made: (phase, item, iteration or None, offset)."""

    def __init__(self):
        self.at = {}

    def add(self, phase, items):
        for j, (kind, x) in enumerate(items):
            if kind == "e":
                if x[0] == "a":
                    self.at[x[1]] = (phase, j, None, 0)
            else:
                for k, body in enumerate(x):
                    off = 0
                    for e in body:
                        if e[0] == "a":
                            self.at[e[1]] = (phase, j, k, off)
                            off += 1


def phase_ref(target, current):
    """The target phase named from the current one: build, or KIND+step delta."""
    if target == "build":
        return "build"
    return f"{target[0]}{int(target[1:]) - int(current[1:])}"


def iteration_codes(k_target, k, L):
    """The ways to name iteration k_target from iteration k (None outside a loop)."""
    codes = {f"abs{k_target}", f"end{L - 1 - k_target}"}
    if k is not None:
        codes |= {f"rel{k_target - k}", f"mir{k_target - (L - 1 - k)}"}
    return codes


def free_code(where, fid, phase, k, L):
    ph, item, kt, off = where.at[fid]
    it = {"-"} if kt is None else iteration_codes(kt, k, L)
    return phase_ref(ph, phase), item, it, off


def template_of(phases, L):
    """[(phase, [item])] with items ("a", size) / ("f", code) / ("loop", [...]) and each
    free's code a set of candidate names (intersected over the loop's iterations)."""
    sizes = {e[1]: e[2] for evs in phases.values() for e in evs if e[0] == "a"}
    where, out = Where(), []
    for phase, evs in phases.items():
        items = compress(evs, sizes, L)
        where.add(phase, items)
        tpl = []
        for kind, x in items:
            if kind == "e":
                if x[0] == "a":
                    tpl.append(("a", x[2]))
                else:
                    p, item, it, off = free_code(where, x[1], phase, None, L)
                    tpl.append(("f", (p, item, frozenset(it), off)))
            else:
                body = []
                for pos in range(len(x[0])):
                    e0 = x[0][pos]
                    if e0[0] == "a":
                        body.append(("a", [b[pos][2] for b in x]))
                        continue
                    per = []
                    for k, b in enumerate(x):
                        p, item, it, off = free_code(where, b[pos][1], phase, k, L)
                        per.append(frozenset((p, item, i, off) for i in it))
                    # the first and the last iteration may free what the others do not
                    # (the hidden state a loop receives, or hands on)
                    mid = None
                    for c in per[1:-1]:
                        mid = c if mid is None else mid & c
                    body.append(("f", (per[0], mid, per[-1])))
                tpl.append(("loop", body, len(x) - L))
        out.append((phase, tpl))
    return out


# ---- two shapes into one template ---------------------------------------------------

class Mismatch(Exception):
    pass


def merge(ta, tb, da, db):
    """One template from the two shapes': sizes named by what names them in both."""
    # a dimension the two shapes share (the head size, Llama's positions) names nothing
    symbols = tuple(x for x in SYMBOLS if da[x] != db[x] or x == "hd")
    ma = monomials(da, symbols)

    def rank(e):
        """Prefer a product with both batch and sequence or neither (activations,
        weights) to one with only one of them, then fewer factors."""
        names = set(e.replace("+", "*").replace("~", "*").split("*"))
        return (("B" in names) != ("S" in names), e.count("*"), len(e), e)

    def size(sa, sb, where):
        if sa == sb:
            return str(sa)
        exprs = [e for e in ma.get(sa, []) if evaluate(e, db) == sb]
        if exprs:
            return min(exprs, key=rank)
        sums = [f"{e1}+{e2}" for v1, es in ma.items() if v1 < sa and sa - v1 in ma
                for e1 in es for e2 in ma[sa - v1]
                if evaluate(e1, db) + evaluate(e2, db) == sb]
        if sums:
            return min(sums, key=rank)
        # a kernel's workspace a little larger than a product (a reduction's partial sums):
        # the product times the ratio, where the ratio agrees in both shapes within 0.2%
        near = []
        for v, es in ma.items():
            if 0 < v <= sa < 1.1 * v:
                for e in es:
                    ra, rb = sa / v, sb / evaluate(e, db)
                    if abs(ra - rb) < 0.002 * ra:
                        near.append((abs(ra - rb), e.count("*"), len(e), f"{e}~{(ra + rb) / 2:.5f}"))
        if near:
            return min(near)[3]
        raise Mismatch(f"{where}: no product of the dimensions is {sa} in a and {sb} in b")

    def code(ca, cb, where):
        c = set(ca) & set(cb)
        if not c:
            raise Mismatch(f"{where}: the free names different allocations ({sorted(ca)} / {sorted(cb)})")
        order = {"rel": 0, "mir": 1, "abs": 2, "end": 3, "": 4}
        return min(c, key=lambda x: (order[x[2].rstrip("-0123456789")], x))

    def loop_code(ca, cb, where):
        """(first, others, last): one code where one names all three."""
        first, last = set(ca[0]) & set(cb[0]), set(ca[2]) & set(cb[2])
        mid = cb[1] if ca[1] is None else ca[1] if cb[1] is None else set(ca[1]) & set(cb[1])
        if mid is None or not mid:
            raise Mismatch(f"{where}: the free names different allocations in the middle iterations")
        common = set(mid) & first & last
        if common:
            return code(common, common, where)
        if not first or not last:
            raise Mismatch(f"{where}: the free names different allocations in the first or last iteration")
        return tuple(code(c, c, where) for c in (first, set(mid), last))

    if [p for p, _ in ta] != [p for p, _ in tb]:
        raise Mismatch("different phases")
    out = []
    for (phase, ia), (_, ib) in zip(ta, tb):
        if len(ia) != len(ib):
            raise Mismatch(f"{phase}: {len(ia)} items in a, {len(ib)} in b")
        items = []
        for j, (xa, xb) in enumerate(zip(ia, ib)):
            w = f"{phase} item {j}"
            if xa[0] != xb[0]:
                raise Mismatch(f"{w}: {xa[0]} in a, {xb[0]} in b")
            if xa[0] == "a":
                items.append(("a", size(xa[1], xb[1], w)))
            elif xa[0] == "f":
                items.append(("f", code({xa[1][:2] + (i, xa[1][3]) for i in xa[1][2]},
                                        {xb[1][:2] + (i, xb[1][3]) for i in xb[1][2]}, w)))
            else:
                if len(xa[1]) != len(xb[1]) or xa[2] != xb[2]:
                    raise Mismatch(f"{w}: loops of L{xa[2]:+d} x {len(xa[1])} events and "
                                   f"L{xb[2]:+d} x {len(xb[1])}")
                body = []
                for pos, (ea, eb) in enumerate(zip(xa[1], xb[1])):
                    if ea[0] != eb[0]:
                        raise Mismatch(f"{w}, body {pos}: {ea[0]} in a, {eb[0]} in b")
                    if ea[0] == "a":
                        body.append(("a", size(ea[1][0], eb[1][0], f"{w}, body {pos}")))
                    else:
                        body.append(("f", loop_code(ea[1], eb[1], f"{w}, body {pos}")))
                items.append(("loop", body, xa[2]))
        out.append((phase, items))
    return out


# ---- the template as text, and its replay -------------------------------------------

def steps_of(merged):
    """The build and the phases of the first steps: up to the first step that the later
    ones repeat (step 1's forward pass frees what step 0's optimizer step made, which has
    AdamW's state in it; step 2's frees step 1's)."""
    by = dict(merged)
    n = sum(1 for p in by if p.startswith("O"))
    for s0 in range(n):
        if all(by[f"{k}{s}"] == by[f"{k}{s0}"] for s in range(s0 + 1, n) for k in "FBO"):
            break
    if s0 >= n - 1:
        raise Mismatch(f"no step of {n} is repeated by the next")
    return [("build", by["build"])] + [(f"{k}{s}", by[f"{k}{s}"]) for s in range(s0 + 1) for k in "FBO"]


def fmt_free(c):
    if isinstance(c[0], tuple):  # (first, others, last) in a loop
        first, mid, last = c
        text = "f " + " ".join(map(str, mid))
        if first != mid:
            text += " first " + " ".join(map(str, first))
        if last != mid:
            text += " last " + " ".join(map(str, last))
        return text
    p, item, it, off = c
    return f"f {p} {item} {it} {off}"


def write(tpl, head):
    lines = list(head)
    for phase, items in tpl:
        lines.append(f"phase {phase}")
        for x in items:
            if x[0] == "a":
                lines.append(f"a {x[1]}")
            elif x[0] == "f":
                lines.append(fmt_free(x[1]))
            else:
                lines.append(f"loop L{x[2]:+d}" if x[2] else "loop L")
                for e in x[1]:
                    lines.append(f"  a {e[1]}" if e[0] == "a" else "  " + fmt_free(e[1]))
                lines.append("end")
    return "\n".join(lines) + "\n"


def instantiate(tpl, dims, steps):
    """[("a", id, size) | ("f", id)] for build and `steps` steps, as src/hf/replay.rs does."""
    by = dict(tpl)
    L = dims["L"]
    ids, out = {}, []

    def iteration(code, k):
        kind, n = code.rstrip("-0123456789"), int(code[len(code.rstrip("-0123456789")):] or 0)
        return {"abs": n, "end": L - 1 - n, "rel": (k or 0) + n, "mir": L - 1 - (k or 0) + n}[kind]

    def run(name, src, step):
        for j, x in enumerate(by[src]):
            shift = x[2] if x[0] == "loop" else 0
            bodies = [(None, [x])] if x[0] != "loop" else [(k, x[1]) for k in range(L + shift)]
            for k, body in bodies:
                off = 0
                for e in body:
                    if e[0] == "a":
                        i = len(ids)
                        ids[(name, j, k, off)] = i
                        out.append(("a", i, evaluate(e[1], dims)))
                        off += 1
                    else:
                        c = e[1]
                        if isinstance(c[0], tuple):
                            first, mid, last = c
                            c = first if k == 0 else last if k == L - 1 + shift else mid
                        p, item, it, o = c
                        target = "build" if p == "build" else f"{p[0]}{step + int(p[1:])}"
                        kt = None if it == "-" else iteration(it, k)
                        out.append(("f", ids[(target, item, kt, o)]))

    last = max(int(p[1:]) for p in by if p != "build")
    run("build", "build", 0)
    for s in range(steps):
        for kind in "FBO":
            run(f"{kind}{s}", f"{kind}{min(s, last)}", s)
    return out


def same(got, want):
    """The replay is the trace: the same allocations and frees, sizes equal (within 0.5%
    where the template names a size by a ratio)."""
    if len(got) != len(want):
        return False
    for g, w in zip(got, want):
        if g[:2] != w[:2] or (g[0] == "a" and abs(g[2] - w[2]) > 0.005 * w[2]):
            return False
    return True


def flatten(phases):
    """The trace's events in order, ids renumbered by allocation order."""
    ren, out = {}, []
    for evs in phases.values():
        for e in evs:
            if e[0] == "a":
                ren[e[1]] = len(ren)
                out.append(("a", ren[e[1]], e[2]))
            else:
                out.append(("f", ren[e[1]]))
    return out


# The built-in shapes' traces of the earlier sessions (real sizes): the check of what the
# small models' templates say about large ones.
REAL_RUNS = [os.path.join(ROOT, "docs", "results", "2026-12-04-h200-hf-allocator-trace", "hf-memory"),
             os.path.join(ROOT, "docs", "results", "2026-12-04-h200-hf-allocator-trace2", "hf-memory")]
BUILTIN_FAMILY = {"gpt2": "gpt2", "gpt2-medium": "gpt2", "qwen2.5-0.5b": "qwen2-tied",
                  "llama-3.2-1b": "llama-tied", "mistral-7b": "mistral-untied",
                  "llama-3-8b": "llama-untied", "qwen2.5-7b": "qwen2-untied"}


def replay_peak(events):
    """Reserved peak of events through scripts/allocator-replay.py's model, from the state
    each row starts in (cuBLAS's 32 MiB workspace and a small block)."""
    a, live = replay_module().Allocator(), {}
    a.malloc(32 << 20, "context")
    a.malloc(512, "context")
    for e in events:
        if e[0] == "a":
            live[e[1]] = a.malloc(e[2], "run")
        elif e[1] in live:
            a.free(live.pop(e[1]))
    return a.peak


def check_real(templates):
    """Markdown: each traced built-in row, its template ({name: template}) replayed for its
    dimensions."""
    lines = ["| row | template | events replayed | events traced | replayed reserved peak | "
             "trace replayed | max_memory_reserved | replayed / measured - 1 |", "|---|---|---|---|---|---|---|---|"]
    for run in REAL_RUNS:
        for line in open(os.path.join(run, "rows.jsonl")):
            r = json.loads(line)
            name = f"{BUILTIN_FAMILY[r['model']]}-{r['precision']}{'-ckpt' if r['checkpointing'] else ''}"
            cfg = json.load(open(os.path.join(ROOT, "configs", "hf", r["model"] + ".json")))
            dims = dims_of(cfg, r["batch"], r["seq"])
            got = instantiate(templates[name], dims, 4)
            want = flatten(load(os.path.join(run, r["trace"]["file"])))
            peak, traced = replay_peak(got), replay_peak(want)
            m = r["peak_reserved_bytes"]
            row = f"{r['model']} {r['precision']} {r['batch']} x {r['seq']}{' ckpt' if r['checkpointing'] else ''}"
            lines.append(f"| {row} | {name} | {len(got)} | {len(want)} | {peak / 2**30:.3f} GiB | "
                         f"{traced / 2**30:.3f} GiB | {m / 2**30:.3f} GiB | {peak / m - 1:+.2%} |")
    return lines


def main():
    args = sys.argv[1:]
    out_dir = os.path.join(ROOT, "src", "hf", "templates")
    if "--out" in args:
        i = args.index("--out")
        out_dir = args[i + 1]
        args = args[:i] + args[i + 2:]
    runs = args or DEFAULT_RUNS
    by = {}
    for run in runs:
        for line in open(os.path.join(run, "rows.jsonl")):
            if line.strip():
                r = json.loads(line)
                r["run"] = run
                by[(r["model"], r["precision"], r["checkpointing"])] = r
    rows = list(by.values())
    configs = os.path.join(ROOT, "configs", "hf-templates")
    os.makedirs(out_dir, exist_ok=True)
    failed, templates = 0, {}
    for fam in FAMILIES:
        for prec in PRECISIONS:
            for ckpt in (False, True):
                name = f"{fam}-{prec}{'-ckpt' if ckpt else ''}"
                shapes = []
                for s in SHAPES[fam]:
                    r = by[(f"{fam}-{s}", prec, ckpt)]
                    cfg = json.load(open(os.path.join(configs, f"{fam}-{s}.json")))
                    dims = dims_of(cfg, r["batch"], r["seq"])
                    phases = load(os.path.join(r["run"], r["trace"]["file"]))
                    shapes.append((dims, phases, template_of(phases, dims["L"])))
                try:
                    merged = merge(shapes[0][2], shapes[1][2], shapes[0][0], shapes[1][0])
                    tpl = steps_of(merged)
                    for dims, phases, _ in shapes:
                        steps = sum(1 for p in phases if p.startswith("O"))
                        got, want = instantiate(tpl, dims, steps), flatten(phases)
                        if not same(got, want):
                            n = next((i for i, (g, w) in enumerate(zip(got, want)) if not same([g], [w])),
                                     min(len(got), len(want)))
                            raise Mismatch(f"replay differs from the trace of L={dims['L']} at event "
                                           f"{n} of {len(want)}: {got[n:n + 3]} vs {want[n:n + 3]}")
                except Mismatch as e:
                    print(f"{name}: NOT WRITTEN: {e}")
                    failed += 1
                    continue
                head = [f"# {name}: read by scripts/hf-templates.py from "
                        f"{', '.join(sorted({os.path.relpath(by[(f'{fam}-{s}', prec, ckpt)]['run'], ROOT) for s in SHAPES[fam]}))}"
                        f" (shapes {' and '.join(SHAPES[fam])}), torch {rows[0]['torch']}, "
                        f"transformers {rows[0]['transformers']}",
                        f"template {fam} {prec} {'ckpt' if ckpt else 'no-ckpt'}"]
                templates[name] = tpl
                text = write(tpl, head)
                with open(os.path.join(out_dir, name + ".tpl"), "w") as f:
                    f.write(text)
                n_events = sum(len(v) for v in shapes[1][1].values())
                print(f"{name}: {len(text.splitlines())} lines, reproduces both traces "
                      f"({n_events} events of shape b)")
    if failed:
        sys.exit(1)
    report = ["# The templates replayed for the built-in shapes' traces",
              "",
              "Generated by `python3 scripts/hf-templates.py` (it writes src/hf/templates/ and this file). "
              "Each traced row of ../2026-12-04-h200-hf-allocator-trace and -trace2 (the built-in shapes, "
              "real sizes), its template (read from the small models of this folder) instantiated for its "
              "dimensions and replayed through the allocator's model (scripts/allocator-replay.py's, as "
              "src/hf/allocator.rs), beside its own trace replayed the same way and torch's "
              "max_memory_reserved. The event counts differ: the large shapes' kernels ask for workspaces "
              "the small ones do not (requests freed at once: 128 MiB and 64 bytes in llama-3.2-1b bf16's "
              "backward pass, 28 MiB ones in qwen2.5-0.5b f32's); the first set's rows after a worker's first "
              "began with an earlier row's segments.",
              ""] + check_real(templates)
    with open(os.path.join(RESULTS, "check.md"), "w") as f:
        f.write("\n".join(report) + "\n")
    print(f"wrote {os.path.relpath(os.path.join(RESULTS, 'check.md'), ROOT)}")


if __name__ == "__main__":
    main()
