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
python3 - "$tmp/output" <<'PY'
import re, sys
out = open(sys.argv[1]).read().rstrip("\n")
readme = open("README.md").read()
block = "<!-- main-output:start -->\n```\n" + out + "\n```\n<!-- main-output:end -->"
new, n = re.subn(r"<!-- main-output:start -->.*?<!-- main-output:end -->", lambda _: block, readme, flags=re.S)
if n != 1:
    sys.exit("README.md has no main-output markers")
open("README.md", "w").write(new)
PY
# The first screen's demo, as the README runs it (stdout only: the table).
"$BIN" compare --memory-budget 30MiB --strategies baseline,grad-accum,auto-halve --max-steps 20 --brief --out "$tmp/demo" 2> /dev/null \
  | sed "s#$tmp/demo#runs/$stamp-compare#g" > "$tmp/demo.txt"
python3 - "$tmp/demo.txt" <<'PY'
import re, sys
out = open(sys.argv[1]).read().rstrip("\n")
readme = open("README.md").read()
block = "<!-- demo-output:start -->\n```\n" + out + "\n```\n<!-- demo-output:end -->"
new, n = re.subn(r"<!-- demo-output:start -->.*?<!-- demo-output:end -->", lambda _: block, readme, flags=re.S)
if n != 1:
    sys.exit("README.md has no demo-output markers")
open("README.md", "w").write(new)
PY
rm -rf "$tmp"
echo "README.md: main command and demo output regenerated"
