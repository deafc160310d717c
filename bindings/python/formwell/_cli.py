"""The ``formwell`` command of a Python install (the console script and ``python -m formwell``): it
replaces this process with the compiled command-line tool (``os.execv``), so the arguments, the
output and the exit status are the tool's own.

The tool run is the copy bundled in the package, ``formwell/_bin/formwell``. An install without
it (built from source with ``FORMWELL_ALLOW_NO_LIBRARY=1``, or from a source tree) runs the first
``formwell`` on ``PATH`` that is not a Python ``formwell`` command like this one (which would run
this module again); when there is none it says so on stderr and exits with status 2, the tool's
status for a usage error.
"""

import os
import sys
from typing import List, NoReturn, Optional

#: The tool bundled in the package (the wheel's formwell/_bin/formwell).
BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "formwell")

#: What the console script that runs this module contains (pip writes ``from formwell._cli import main``).
_ENTRY_POINT_MARK = b"formwell._cli"


def _is_python_entry_point(path: str) -> bool:
    """Whether ``path`` is a script that runs this module (a ``formwell`` console script of this or
    any other Python environment), rather than the compiled tool or some other program."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return True  # unreadable: not something to run
    return head.startswith(b"#!") and _ENTRY_POINT_MARK in head


def _is_same_file(path: str, other: str) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def find_tool(search_path: Optional[str] = None) -> Optional[str]:
    """The program ``formwell`` runs: the bundled tool if it is there, else the first executable
    ``formwell`` on ``search_path`` (default ``$PATH``) that is not a Python ``formwell`` command;
    None when there is neither."""
    if os.path.isfile(BUNDLED) and os.access(BUNDLED, os.X_OK):
        return BUNDLED
    running = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if search_path is None:
        search_path = os.environ.get("PATH", os.defpath)
    for folder in search_path.split(os.pathsep):
        candidate = os.path.join(folder or os.curdir, "formwell")
        if not (os.path.isfile(candidate) and os.access(candidate, os.X_OK)):
            continue
        if (running and _is_same_file(candidate, running)) or _is_python_entry_point(candidate):
            continue
        return os.path.abspath(candidate)
    return None


def main(argv: Optional[List[str]] = None) -> NoReturn:
    """Runs the tool with ``argv`` (default: this process's arguments after the program name)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    tool = find_tool()
    if tool is None:
        sys.stderr.write(
            "formwell: this installation of the formwell Python package has no command-line tool "
            f"(no {BUNDLED}), and no other formwell program is on PATH.\n"
            "Install a wheel of formwell (they bundle the tool), or build it from the Formwell "
            "repository with `make cli` and put .build/bin on PATH.\n")
        sys.exit(2)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execv(tool, [tool] + arguments)
    except OSError as error:
        sys.stderr.write(f"formwell: cannot run {tool}: {error.strerror or error}\n")
        sys.exit(2)
