#!/usr/bin/env bash
# Regenerates the README's verbatim output of the main command (between the
# `<!-- main-output:start -->` and `<!-- main-output:end -->` markers): runs it as the
# README says, stderr then stdout, and splices the text in; the same for the first
# screen's demo (`<!-- demo-output:... -->`, the table on stdout). A test
# (tests/integration/readme.rs) fails when the README's rows no longer match what the
# program prints.
#   cargo build --release && bash scripts/readme-output.sh
set -eu
BIN=${BIN:-target/release/oomlab}
tmp=$(mktemp -d)
"$BIN" train --strategy grad-accum --steps 4 --out "$tmp/run" > "$tmp/stdout" 2> "$tmp/stderr"
# The run folder's name as a default run would have it (runs/<time>-grad-accum).
stamp=$(date -u +%Y%m%d-%H%M%S)
cat "$tmp/stderr" "$tmp/stdout" | sed "s#$tmp/run#runs/$stamp-grad-accum#g" > "$tmp/output"
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
splice main-output "$tmp/output"
# The first screen's demo, as the README runs it (stdout only: the table).
"$BIN" compare --memory-budget 21MiB --strategies baseline,grad-accum,auto-halve --max-steps 20 --brief --out "$tmp/demo" 2> /dev/null \
  | sed "s#$tmp/demo#runs/$stamp-compare#g" > "$tmp/demo.txt"
splice demo-output "$tmp/demo.txt"
rm -rf "$tmp"
echo "README.md: main command and demo output regenerated"
