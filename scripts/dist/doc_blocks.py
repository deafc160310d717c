#!/usr/bin/env python3
"""The install commands and examples the documentation shows, as the install tests run them.

A block is named by an HTML comment on the line just before its fence:

    <!-- install-test: wheel -->
    ```sh
    ...
    ```

`doc_blocks.py NAME` prints block NAME's text; `doc_blocks.py --check` fails when a name the tests run
is missing, or when README.md and the pages of docs/ show two different blocks under one name (so
every copy of a command a reader sees is the one CI runs).
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
# The blocks scripts/dist/test_*.sh run.
REQUIRED = ["wheel", "deb", "tarball", "source", "c", "app.c", "example.py", "example.lua"]
BLOCK = re.compile(r"^<!-- install-test: (\S+) -->\n```[a-z]*\n(.*?)^```$", re.M | re.S)


def blocks():
    found = {}
    for page in PAGES:
        if not page.exists():
            continue
        for match in BLOCK.finditer(page.read_text(encoding="utf-8")):
            found.setdefault(match.group(1), []).append((page.relative_to(ROOT), match.group(2)))
    return found


def main(argv):
    found = blocks()
    if argv == ["--check"]:
        problems = [f"no block named {name!r} in README.md or docs/" for name in REQUIRED if name not in found]
        for name, copies in sorted(found.items()):
            texts = {text for _, text in copies}
            if len(texts) > 1:
                problems.append(f"block {name!r} differs between " + ", ".join(str(page) for page, _ in copies))
        for problem in problems:
            print(f"doc_blocks: {problem}", file=sys.stderr)
        if not problems:
            shown = sum(len(copies) for copies in found.values())
            print(f"doc_blocks: {len(found)} named blocks, {shown} copies in the docs, all consistent")
        return 1 if problems else 0
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: doc_blocks.py NAME | --check", file=sys.stderr)
        return 2
    if argv[0] not in found:
        print(f"doc_blocks: no block named {argv[0]!r}", file=sys.stderr)
        return 1
    sys.stdout.write(found[argv[0]][0][1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
