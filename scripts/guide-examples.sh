#!/usr/bin/env bash
# Regenerates the example output on every page of docs/guide/: each
# `<!-- example:NAME:start -->` .. `<!-- example:NAME:end -->` block becomes
# `$ oomlab ARGS` and what that command prints (stdout; progress and notes on stderr are
# left out of every block), as a pipe at 100 columns gets it, on the CPU. The commands run
# in a temporary folder, so their run folders (runs/...) are named as a user's would be
# and nothing is left in the checkout. A page's `example-input:NAME` block, where there
# is one, shows the file its example reads.
# explain, estimate and diagnose print the same text every time; train, compare, lesson,
# report and warm-up print timings (and folder names with the time) that change from run
# to run.
#   cargo build --release && bash scripts/guide-examples.sh
set -eu
BIN=$(realpath "${BIN:-target/release/oomlab}")
export COLUMNS=100 CUDA_VISIBLE_DEVICES=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work"

# splice NAME PAGE FILE [FENCE]: PAGE's <!-- NAME:start --> .. <!-- NAME:end --> block
# becomes FILE's text in a code fence (console by default).
splice() {
  python3 - "$1" "$2" "$3" "${4:-console}" <<'PY'
import re, sys
marker, page, out, fence = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().rstrip("\n"), sys.argv[4]
text = open(page).read()
block = f"<!-- {marker}:start -->\n```{fence}\n{out}\n```\n<!-- {marker}:end -->"
new, n = re.subn(rf"<!-- {re.escape(marker)}:start -->.*?<!-- {re.escape(marker)}:end -->",
                 lambda _: block, text, flags=re.S)
if n != 1:
    sys.exit(f"{page} has {n} blocks of {marker} markers, not one")
open(page, "w").write(new)
PY
}

# command_line ARGS: `$ oomlab ARGS`, continued with ` \` onto indented lines where it is
# longer than 100 characters.
command_line() {
  python3 -c 'import sys, textwrap
print(" \\\n".join(textwrap.wrap("$ oomlab " + sys.argv[1], 98, subsequent_indent="    ",
                                  break_long_words=False, break_on_hyphens=False)))' "$1"
}

# example NAME PAGE -- ARGS...: runs `oomlab ARGS` in the temporary folder (it must exit
# 0) and splices its stdout into docs/guide/PAGE.
example() {
  local name=$1 page=docs/guide/$2 rc=0
  shift 3 # NAME PAGE --
  (cd "$tmp/work" && "$BIN" "$@" > "$tmp/stdout" 2> "$tmp/stderr") || rc=$?
  if [ "$rc" != 0 ]; then
    echo "$name: oomlab $* exited $rc" >&2
    cat "$tmp/stderr" >&2
    exit 1
  fi
  { command_line "$*"; cat "$tmp/stdout"; } | sed "s#$tmp/work/##g" > "$tmp/block"
  splice "example:$name" "$page" "$tmp/block"
}

# example_stderr NAME PAGE -- ARGS...: as `example`, stdout then stderr (for a command
# whose report goes to stderr, after the output it passes through: oomlab run).
example_stderr() {
  local name=$1 page=docs/guide/$2 rc=0
  shift 3 # NAME PAGE --
  (cd "$tmp/work" && "$BIN" "$@" > "$tmp/stdout" 2> "$tmp/stderr") || rc=$?
  # The command as a shell takes it: an argument with spaces or shell characters quoted.
  local shown="" a
  for a in "$@"; do
    case $a in *[\ \>\;\&\|]*) shown+=" '$a'" ;; *) shown+=" $a" ;; esac
  done
  { command_line "${shown# }"; cat "$tmp/stdout" "$tmp/stderr"; echo "(exit $rc)"; } | sed "s#$tmp/work/##g" > "$tmp/block"
  splice "example:$name" "$page" "$tmp/block"
}


# example_input NAME PAGE FILE AS: a file an example reads, copied into the temporary
# folder as AS and shown (folded at 100 columns) in PAGE's example-input:NAME block.
example_input() {
  cp "$3" "$tmp/work/$4"
  python3 -c 'import sys, textwrap
for line in open(sys.argv[1]).read().splitlines():
    print(textwrap.fill(line, 100, break_long_words=False, break_on_hyphens=False) if line else "")' \
    "$3" > "$tmp/block"
  splice "example-input:$1" "docs/guide/$2" "$tmp/block" text
}

# A real PyTorch 2.1+ message, as a user posted it.
example_input diagnose-fragmentation diagnose.md tests/data/oom-messages/real/034-pytorch21-capacty-fragmentation.txt oom.txt
example diagnose-fragmentation diagnose.md -- diagnose oom.txt

# oomlab gpu needs a GPU: its block is the rows of a committed GPU run's output, laid out
# as oomlab gpu lays them out at 100 columns now. tests/integration/guide.rs renders them
# and, where the block differs, prints the block to paste:
# example_gpu gpu-holder docs/results/2026-12-07-h100-new-user/gpu.txt

# A job that prints the same message and exits 1 (the run folder's name is the time's).
example_stderr run-oom run.md -- run --out runs/job -- sh -c 'sleep 0.5; fold -s -w 100 oom.txt >&2; exit 1'

example estimate-llama estimate.md -- estimate --model llama-3.2-1b --seq 2048 --precision bf16 --card 24GB

example train-grad-accum train.md -- train --strategy grad-accum --steps 4

example compare-budget compare.md -- compare --memory-budget 21MiB --strategies baseline,grad-accum,auto-halve --max-steps 20 --brief

# The folder the compare above wrote (runs/<time>-compare).
compare_dir=$(cd "$tmp/work" && ls -d runs/*-compare)
example report-compare report.md -- report "$compare_dir"

example lesson-cpu-part1 lesson.md -- lesson --yes --device cpu --part 1 --max-steps 5

example warm-up-no-gpu warm-up.md -- warm-up
example warm-up-cpu warm-up.md -- warm-up --device cpu --config tiny --strategies baseline --halvings 0 --max-steps 2

example explain-list explain.md -- explain
example explain-grad-accum explain.md -- explain grad-accum

# Lines a 100-column terminal would wrap: a program's bug to fix, not to hide here.
python3 - docs/guide/*.md <<'PY'
import re, sys
for page in sys.argv[1:]:
    for name, body in re.findall(r"<!-- example:(\S+):start -->\n(.*?)<!-- example:\1:end -->",
                                 open(page).read(), flags=re.S):
        for line in body.splitlines():
            if len(line) > 100:
                print(f"{page}: {name}: a line of {len(line)} characters: {line[:60]}...", file=sys.stderr)
PY
echo "docs/guide: example output regenerated"
