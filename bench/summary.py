#!/usr/bin/env python3
"""summary: prints the rows the benchmarks appended to a TSV file as one Markdown table (for
bench/README.md), with the run's date, commit and machine, and the notes under it.

Usage: python3 bench/summary.py ROWS.tsv

Each line of ROWS.tsv is ``id, name, formwell, baseline, unit, ratio, target, verdict`` or
``#note, id, text`` (tab-separated), as written by bench_row / bench_note (bench/bench_common.h),
bench/python_bench.py and bench/lua_bench.lua.
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys

#: Every row `make bench` should produce, in order; a missing one is listed as not measured.
EXPECTED = ["1a", "1b", "1c", "1d", "1v1", "2a", "2b", "2c", "2d", "2v1", "3", "3v1", "4", "5", "5r", "5p", "6a", "6a2", "6b", "6c", "7a", "7b", "8a", "8a2", "8b", "9a", "9b", "10a", "10b", "10c", "10d", "10e", "11a", "11b", "11c", "11d"]
OPTIONAL = {"6a2"}  # only when formwell.Form has a `set` method

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(*arguments: str) -> str:
    try:
        done = subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True, check=True)
        return done.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows, notes = [], []
    try:
        with open(sys.argv[1], encoding="utf-8") as source:
            for line in source:
                fields = line.rstrip("\n").split("\t")
                if fields[0] == "#note" and len(fields) == 3:
                    notes.append((fields[1], fields[2]))
                elif len(fields) == 8:
                    rows.append(fields)
    except FileNotFoundError:
        pass

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "Sources", "bindings", "Package.swift")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print()
    print(f"Run of {stamp}, commit {commit}" + (" plus uncommitted changes in Sources/ or bindings/" if dirty else "")
          + f", {os.cpu_count()} CPUs. Best of 5 rounds (imports: of 10); verdicts in parentheses are"
          " for information, not judged.")
    print()
    print("| row | what | Formwell | baseline | ratio | target | verdict |")
    print("|---|---|---:|---:|---:|---|---|")
    seen = set()
    for rid, name, formwell, baseline, unit, ratio, target, verdict in rows:
        seen.add(rid)
        print(f"| {rid} | {cell(name)} | {formwell} {unit} | {baseline} {unit} | {ratio}x | {target} | "
              f"{'**MISSES**' if verdict == 'MISSES' else verdict} |")
    missing = [rid for rid in EXPECTED if rid not in seen and rid not in OPTIONAL]
    for rid in missing:
        print(f"| {rid} | not measured (see the output above) | | | | | |")
    judged = [r for r in rows if not r[7].startswith("(")]
    holding = sum(r[7] == "holds" for r in judged)
    print()
    print(f"Judged rows: {holding} of {len(judged)} hold" + (f"; {len(missing)} not measured" if missing else "") + ".")
    if notes:
        print()
        for rid, text in notes:
            print(f"- {rid}: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
