#!/usr/bin/env python3
"""summary: prints the rows the benchmarks appended to a TSV file as one Markdown table, with the
run's date, commit and machine, and the notes under it. With ``--readme FILE`` it also writes the
table and its notes (without the date and commit, which git keeps) between FILE's
``<!-- bench-table:start -->`` and ``<!-- bench-table:end -->`` lines, so the file holds the last run.

Usage: python3 bench/summary.py ROWS.tsv [--readme bench/README.md]

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


START, END = "<!-- bench-table:start -->", "<!-- bench-table:end -->"


def replace_table(readme: str, table: str) -> None:
    """Writes `table` between the markers of `readme`; fails when they are missing."""
    with open(readme, encoding="utf-8") as source:
        text = source.read()
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"summary: {readme} has no {START} ... {END} block")
    text = text[: start + len(START)] + "\n" + table + "\n" + text[end:]
    with open(readme, "w", encoding="utf-8") as out:
        out.write(text)


def main() -> int:
    arguments = sys.argv[1:]
    readme = None
    if len(arguments) == 3 and arguments[1] == "--readme":
        readme = arguments[2]
        arguments = arguments[:1]
    if len(arguments) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    rows, notes = [], []
    try:
        with open(arguments[0], encoding="utf-8") as source:
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
    lines = [f"{os.cpu_count()} CPUs. Best of 5 rounds (imports: of 10); verdicts in parentheses are"
             " for information, not judged.", "",
             "| row | what | Formwell | baseline | ratio | target | verdict |",
             "|---|---|---:|---:|---:|---|---|"]
    seen = set()
    for rid, name, formwell, baseline, unit, ratio, target, verdict in rows:
        seen.add(rid)
        lines.append(f"| {rid} | {cell(name)} | {formwell} {unit} | {baseline} {unit} | {ratio}x | {target} | "
                     f"{'**MISSES**' if verdict == 'MISSES' else verdict} |")
    missing = [rid for rid in EXPECTED if rid not in seen and rid not in OPTIONAL]
    for rid in missing:
        lines.append(f"| {rid} | not measured (see the output above) | | | | | |")
    judged = [r for r in rows if not r[7].startswith("(")]
    holding = sum(r[7] == "holds" for r in judged)
    lines += ["", f"Judged rows: {holding} of {len(judged)} hold" + (f"; {len(missing)} not measured" if missing else "") + "."]
    if notes:
        lines.append("")
        lines += [f"- {rid}: {text}" for rid, text in notes]
    table = "\n".join(lines)
    print()
    print(f"Run of {stamp}, commit {commit}" + (" plus uncommitted changes in Sources/ or bindings/" if dirty else ""))
    print(table)
    if readme:
        replace_table(readme, table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
