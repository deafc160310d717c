#!/usr/bin/env python3
"""python_bench: rows 6a-6c of bench/README.md, the Python package against baselines measured in the same run.

6a  ``form[id] = v`` then ``form.state(id)`` on a focused [email] field, against ``re.fullmatch(p, v)``
    of seed 02's pattern plus one trivial ctypes call (``fw_abi_version()``), over the same 100,000
    generated e-mails (the C benchmarks' generator); best of 5 interleaved rounds after a warm-up.
    When ``Form`` has a ``set`` method (being added), ``form.set(id, v)`` is timed too (6a2, information).
6b  wall time of ``python -c "import formwell"`` against ``python -c pass``, best of 10 interleaved runs,
    with a bytecode cache (as an installed package has: ``PYTHONPYCACHEPREFIX`` under .build/,
    warmed first).
6c  the same without writing bytecode (``PYTHONDONTWRITEBYTECODE=1``, as this machine's environment
    sets it): the package is compiled from source on every import (information).
Then: whether ``import formwell`` starts other programs (strace when available, and a
``subprocess.Popen`` patch), and the slowest modules of the import (``-X importtime``).

Run by ``make bench`` with ``FORMWELL_LIBRARY`` set to .build/release/libformwell.so and
bindings/python on ``PYTHONPATH``. Rows are printed and appended to ``$BENCH_ROWS`` (TSV) for
bench/summary.py. Exit status 1 only when a sanity check fails (Formwell's verdicts disagree with
``re``'s matches) or a row could not be measured at all (the package raised).
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

import bench_rows
from bench_rows import fail, note


def row(rid, name, formwell, baseline, unit, target, judged=True):
    """A time row: lower is better, the target a ceiling."""
    bench_rows.row(rid, name, formwell, baseline, unit, target, judged, higher_is_better=False)


COUNT = 100_000
ROUNDS = 5
IMPORT_ROUNDS = 10
EMAIL = r"[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,64}"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_emails(count: int, seed: int) -> list:
    """bench_make_emails of bench/bench_common.h, value for value."""
    values = []
    state = seed

    def next_value() -> int:
        nonlocal state
        state = (state * 1103515245 + 12345) & 0xFFFFFFFF
        return state >> 8

    for _ in range(count):
        r = next_value()
        n = next_value() % 100000
        kind = r % 16
        if kind == 0:
            v = f"user{n}.example.com"
        elif kind == 1:
            v = f"user{n}@example"
        elif kind == 2:
            v = f"user {n}@mail.example.org"
        elif kind == 3:
            v = f"u{n}@mail{r % 97}.example.c"
        elif kind == 4:
            v = f"first.last+tag{n}@sub.mail{r % 89}.co.uk"
        elif kind == 5:
            v = f"{n}_x%y@EXAMPLE-{r % 53}.INFO"
        else:
            v = f"user{n}@mail{r % 97}.example.org"
        values.append(v[:47])
    return values


# ---- 6a: per-value cost ----


def keystroke_rows() -> None:
    import formwell
    from formwell import Email, Form, Validity

    lib = ctypes.CDLL(formwell.library_path)  # a plain handle: the baseline's one trivial ctypes call
    lib.fw_abi_version.restype = ctypes.c_int32
    lib.fw_abi_version.argtypes = []

    values = make_emails(COUNT, 12345)
    expected = sum(re.fullmatch(EMAIL, v) is not None for v in values)
    fid = "email"
    form = Form()
    form.add_field(fid, [Email()])
    form.focus(fid)  # typing: the lenient stage, as the C rows
    has_set = hasattr(form, "set")
    print(f"python_bench: formwell {formwell.library_version()} from {formwell.library_path}; "
          f"{COUNT} e-mails ({expected} valid), best of {ROUNDS} interleaved rounds after 1 warm-up; "
          f"Form.set {'present' if has_set else 'absent'}", flush=True)

    def baseline() -> int:
        matched = 0
        for v in values:
            matched += re.fullmatch(EMAIL, v) is not None
            lib.fw_abi_version()
        return matched

    def set_and_state() -> int:
        valid = 0
        for v in values:
            form[fid] = v
            valid += form.state(fid).validity is Validity.VALID
        return valid

    def set_method() -> int:
        valid = 0
        for v in values:
            state = form.set(fid, v)
            valid += getattr(state, "validity", None) is Validity.VALID
        return valid

    passes = [("re.fullmatch + fw_abi_version()", baseline, expected),
              ("form[id] = v; form.state(id)", set_and_state, expected)]
    set_note = None
    if has_set:
        try:
            probe = form.set(fid, values[0])
        except Exception as error:  # the method is being written: report, do not fail the run
            set_note = f"form.set(id, v) raised {type(error).__name__}: {error}; not measured"
        else:
            if hasattr(probe, "validity"):
                passes.append(("form.set(id, v)", set_method, expected))
            else:
                set_note = (f"form.set(id, v) returns {type(probe).__name__}, not a state: "
                            "not comparable, not measured")

    best = {name: float("inf") for name, _, _ in passes}
    reported = set()
    for rnd in range(ROUNDS + 1):
        order = passes if rnd % 2 == 0 else passes[::-1]
        for name, function, want in order:
            start = time.perf_counter()
            got = function()
            elapsed = time.perf_counter() - start
            if rnd > 0:
                best[name] = min(best[name], elapsed)
            if got != want and name not in reported:
                fail(f"{name}: {got} valid of {COUNT}, re.fullmatch matched {want}")
                reported.add(name)

    base = best[passes[0][0]] * 1e9 / COUNT
    row("6a", "py: form[id] = v; form.state(id) vs re + ctypes call",
        best[passes[1][0]] * 1e9 / COUNT, base, "ns", 3.0)
    if len(passes) > 2:
        row("6a2", "py: form.set(id, v) vs re + ctypes call", best[passes[2][0]] * 1e9 / COUNT, base, "ns",
            3.0, judged=False)
    elif set_note:
        note("6a", set_note)
    form.close()


# ---- 6b, 6c: import time ----


def import_env(bytecode_cache: bool) -> dict:
    env = dict(os.environ)
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(ROOT, ".build", "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def wall(code: str, env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return time.perf_counter() - start


def import_row(rid: str, name: str, bytecode_cache: bool, judged: bool) -> None:
    env = import_env(bytecode_cache)
    wall("import formwell", env)  # warm-up (fills the bytecode cache when there is one)
    wall("pass", env)
    best_import = best_pass = float("inf")
    for rnd in range(IMPORT_ROUNDS):
        if rnd % 2 == 0:
            best_pass = min(best_pass, wall("pass", env))
            best_import = min(best_import, wall("import formwell", env))
        else:
            best_import = min(best_import, wall("import formwell", env))
            best_pass = min(best_pass, wall("pass", env))
    row(rid, name, best_import * 1e3, best_pass * 1e3, "ms", 2.0, judged)


def spawned_programs() -> None:
    """Does importing formwell start other programs? strace sees every execve; the Popen patch names
    what Python's subprocess module started."""
    env = import_env(True)
    strace = shutil.which("strace")
    if strace:
        results = {}
        for code in ("pass", "import formwell"):
            with tempfile.NamedTemporaryFile("r", suffix=".strace") as log:
                done = subprocess.run([strace, "-f", "-qq", "-e", "trace=execve", "-o", log.name,
                                       sys.executable, "-c", code], env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    results = None
                    note("6b", f"strace failed ({done.stderr.strip()[:120]}); see the Popen check")
                    break
                programs = []
                first_pid = None
                for line in log.read().splitlines():
                    match = re.match(r'(\d+)\s+execve\("([^"]*)".*\)\s+=\s+0\s*$', line)
                    if not match:
                        continue
                    if first_pid is None:
                        first_pid = match.group(1)  # the interpreter itself
                        continue
                    programs.append(os.path.basename(match.group(2)))
                results[code] = programs
        if results is not None:
            spawned = results["import formwell"]
            note("6b", f"strace: `-c pass` started {len(results['pass'])} other program(s); "
                       f"`import formwell` started {len(spawned)}"
                       + (f": {', '.join(spawned)}" if spawned else ""))
    else:
        note("6b", "strace not installed; only the Popen check below")

    probe = (
        "import json, subprocess\n"
        "started = []\n"
        "original = subprocess.Popen.__init__\n"
        "def init(self, args, *rest, **options):\n"
        "    started.append(args if isinstance(args, str) else ' '.join(map(str, args)))\n"
        "    original(self, args, *rest, **options)\n"
        "subprocess.Popen.__init__ = init\n"
        "import formwell\n"
        "print(json.dumps(started))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    started = json.loads(done.stdout.strip().splitlines()[-1])
    note("6b", f"subprocess.Popen during `import formwell`: {len(started)} call(s)"
               + (": " + "; ".join(started) if started else ""))
    if "FORMWELL_LIBRARY" in env and started:
        note("6b", "(FORMWELL_LIBRARY was set: the library did not need looking for)")

    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import formwell"], env=env,
                          capture_output=True, text=True, check=True)
    entries = []
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|\s*(.*)$", line)
        if match:
            entries.append((int(match.group(1)), int(match.group(2)), match.group(3).strip()))
    if entries:
        slowest = sorted(entries, reverse=True)[:4]
        total = next((cumulative for _, cumulative, name in entries if name == "formwell"), None)
        note("6b", f"-X importtime (one run): formwell {total / 1e3:.1f} ms cumulative; largest self times: "
                   + ", ".join(f"{name} {own / 1e3:.1f} ms" for own, _, name in slowest)
             if total is not None else "-X importtime: no formwell entry")


def guarded(rid: str, function, *arguments) -> None:
    """Runs one part; when the package cannot do what it measures (it may be changing under the
    benchmark), prints why, notes the row as not measured and counts a failure."""
    try:
        function(*arguments)
    except Exception as error:  # noqa: BLE001 - reported, then the other parts run
        traceback.print_exc()
        note(rid, f"NOT MEASURED: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
        fail(f"row {rid} could not run")


def main() -> int:
    guarded("6a", keystroke_rows)
    guarded("6b", import_row, "6b", "py: `import formwell` vs `pass` (bytecode cached)", True, True)
    guarded("6c", import_row, "6c", "py: the same without a bytecode cache", False, False)
    guarded("6b", spawned_programs)
    if bench_rows.failures:
        print(f"python_bench: {bench_rows.failures} sanity check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
