#!/usr/bin/env bash
# Regenerates the README's generated parts: the first screen's demo (between
# `<!-- demo-output:start -->` and `<!-- demo-output:end -->`: the table the demo command
# prints, as a pipe gets it, 100 columns) and the table of today's figures
# (scripts/readme-figures.py). Tests fail when either no longer matches what the program
# prints or what the result files hold.
#   cargo build --release && bash scripts/readme-output.sh
set -eu
BIN=${BIN:-target/release/oomlab}
tmp=$(mktemp -d)
stamp=$(date -u +%Y%m%d-%H%M%S)
# splice MARKER FILE: README's <!-- MARKER:start --> .. <!-- MARKER:end --> block becomes
# FILE's text in a code fence.
splice() {
  python3 - "$1" "$2" <<'PY'
import re, sys
marker, out = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
readme = open("README.md").read()
block = f"<!-- {marker}:start -->\n```\n{out}\n```\n<!-- {marker}:end -->"
new, n = re.subn(rf"<!-- {marker}:start -->.*?<!-- {marker}:end -->", lambda _: block, readme, flags=re.S)
if n != 1:
    sys.exit(f"README.md has no {marker} markers")
open("README.md", "w").write(new)
PY
}
# The first screen's demo, as the README runs it (stdout only: the table).
COLUMNS=100 CUDA_VISIBLE_DEVICES= "$BIN" compare --memory-budget 21MiB --strategies baseline,grad-accum,auto-halve --max-steps 20 --brief --out "$tmp/demo" 2> /dev/null \
  | sed "s#$tmp/demo#runs/$stamp-compare#g" > "$tmp/demo.txt"
splice demo-output "$tmp/demo.txt"
rm -rf "$tmp"
python3 scripts/readme-figures.py
echo "README.md: demo output and figures regenerated"
