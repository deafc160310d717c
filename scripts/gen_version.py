#!/usr/bin/env python3
"""Writes the Python package's version, bindings/python/formwell/_version.py, from the one source of
Formwell's version, the `formwellVersion` line of Sources/Formwell/Version.swift. `--check` writes
nothing and exits 1 when the committed file differs from the one it would write."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "Sources/Formwell/Version.swift"
OUT = ROOT / "bindings/python/formwell/_version.py"
LINE = re.compile(r'^public let formwellVersion: StaticString = "(\d+\.\d+\.\d+)"$', re.M)


def version() -> str:
    found = LINE.findall(SOURCE.read_text(encoding="utf-8"))
    if len(found) != 1:
        raise SystemExit(f'{SOURCE.relative_to(ROOT)}: expected one line `public let formwellVersion: '
                         f'StaticString = "MAJOR.MINOR.PATCH"`, found {len(found)}')
    return found[0]


def generate() -> str:
    return (
        "# Generated from Sources/Formwell/Version.swift by scripts/gen_version.py: do not edit.\n"
        "# Change the version there, then run `python3 scripts/gen_version.py`.\n"
        f'__version__ = "{version()}"\n'
    )


def main() -> None:
    text = generate()
    if "--check" in sys.argv[1:]:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else None
        if current != text:
            state = "is missing" if current is None else "is stale"
            print(f"{OUT.relative_to(ROOT)} {state}: Sources/Formwell/Version.swift says "
                  f"{version()}; run `python3 scripts/gen_version.py`", file=sys.stderr)
            sys.exit(1)
        return
    OUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
