#!/usr/bin/env python3
"""Copies Markdown tables from generated files into a README, so that no figure in it is
typed by hand.

    python3 scripts/splice-tables.py README.md

Each block of the README between `<!-- table: PATH#N -->` and `<!-- /table -->` becomes
the N-th table (1 = the first) of the file PATH, relative to the README's folder. A table
is a run of lines that start with `|`. Prints which blocks it filled; exits 1 if a file or
table is missing.
"""
import re
import sys
from pathlib import Path

BLOCK = re.compile(r"(<!-- table: (\S+?)#(\d+) -->\n).*?(<!-- /table -->)", re.S)


def tables(text):
    """The tables of `text`, each a list of lines."""
    found, current = [], []
    for line in text.splitlines():
        if line.startswith("|"):
            current.append(line)
        elif current:
            found.append(current)
            current = []
    if current:
        found.append(current)
    return found


def main():
    readme = Path(sys.argv[1])
    text = readme.read_text()
    problems = []

    def fill(m):
        path, n = readme.parent / m.group(2), int(m.group(3))
        if not path.exists():
            problems.append(f"{path}: no such file")
            return m.group(0)
        found = tables(path.read_text())
        if not 1 <= n <= len(found):
            problems.append(f"{path}: {len(found)} tables, not {n}")
            return m.group(0)
        print(f"{m.group(2)}#{n}: {len(found[n - 1])} lines")
        return m.group(1) + "\n".join(found[n - 1]) + "\n" + m.group(4)

    readme.write_text(BLOCK.sub(fill, text))
    for p in problems:
        print(p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
