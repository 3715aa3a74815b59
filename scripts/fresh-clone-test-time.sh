#!/usr/bin/env bash
# How long the README's two commands take from a fresh clone (issue 25 item 8): clones
# COMMIT (default HEAD) into a temporary folder with an empty target folder, runs the
# README's first command, then .ci/run (fmt, clippy, the README's test command; each
# section prints its seconds). The cargo registry is the user's (~/.cargo), as on any
# machine that has fetched the crates once. Writes the log to $1 (default
# /tmp/fresh-clone-test-time.txt).
#   bash scripts/fresh-clone-test-time.sh docs/results/DATE-fresh-clone-test-time.txt
set -u
LOG=$(realpath -m "${1:-/tmp/fresh-clone-test-time.txt}")
COMMIT=${COMMIT:-$(git rev-parse HEAD)}
dir=$(mktemp -d)
git clone -q "$(git rev-parse --show-toplevel)" "$dir/oomlab" && cd "$dir/oomlab" && git checkout -q "$COMMIT" || exit 1
{
  echo "commit: $COMMIT"; date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  echo "cores: $(nproc)"; rustc --version
  echo "== README's first command: cargo run --release -- train --strategy grad-accum --steps 4"
  start=$SECONDS
  CUDA_VISIBLE_DEVICES= cargo run --release -- train --strategy grad-accum --steps 4 --out "$dir/run" > /dev/null 2>&1
  echo "exit $?, $((SECONDS - start)) s"
  echo "== bash .ci/run"
  bash .ci/run 2>&1 | grep -E "^(==|test result)"
  echo "exit ${PIPESTATUS[0]}"
} > "$LOG" 2>&1
rm -rf "$dir"
cat "$LOG"
