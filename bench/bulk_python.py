#!/usr/bin/env python3
"""bulk_python: rows 8a, 8a2 and 8b of bench/README.md, bulk validation against pydantic v2 (issue 10,
"Bulk validation faster than pydantic"), baselines measured in the same run on the same records.

8a   ``Form.check_many`` over 100,000 dicts (examples/registration.json; records written by
     ``examples/generate_signups.py --count 100000``), including reading ``.valid`` and the errors of
     every invalid record, against ``Registration.model_validate(d)`` (bench/bulk_models.py: the
     spec's rules and messages) over the same dicts with a try/except per record. Throughput in
     thousands of records per second, best of 5 interleaved rounds after a warm-up; target >= 2x.
8a2  the same against ``RegistrationConstraints`` (pydantic-core's built-in constraints, its own
     messages): pydantic at its fastest, for information.
8b   whole processes: ``.build/bin/formwell check examples/registration.json DATA --format json``
     against ``python3 bench/bulk_pydantic_check.py DATA`` (model_validate_json per line, one
     json.dumps verdict per line), both writing to /dev/null; median of 5 interleaved runs,
     records per second and peak RSS of each (``os.wait4``); target >= 1.5x. Runs whatever
     .build/bin/formwell is (``make bench`` runs ``make cli`` first).

Sanity checks (a failure makes the exit status 1): Formwell's verdicts and pydantic's agree record
by record (8a, 8a2), the CLI's JSON verdicts agree with check_many's and with the pydantic script's
(8b), a row that could not be measured. Messages are compared too and the differences explained in
notes, not failed: pydantic's model validator does not run when a field already failed.

When pydantic cannot be imported, a venv is made under .build/bench-venv, pydantic is installed
there with pip, and this script runs again with that venv's interpreter.

Run by ``make bench`` with ``FORMWELL_LIBRARY`` and ``PYTHONPATH=bindings/python`` set; rows are
printed and appended to ``$BENCH_ROWS`` for bench/summary.py.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import traceback

import bench_rows
from bench_rows import fail, note, row

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
COUNT = 100_000
ROUNDS = 5
SPEC = os.path.join(ROOT, "examples", "registration.json")
DATA_DIR = os.path.join(ROOT, ".build", "bench-data")
DATA = os.path.join(DATA_DIR, "signups.jsonl")
CLI = os.path.join(ROOT, ".build", "bin", "formwell")
VENV = os.path.join(ROOT, ".build", "bench-venv")


def ensure_pydantic() -> None:
    """Imports pydantic, or re-runs this script in .build/bench-venv with pydantic installed."""
    try:
        import pydantic  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("FORMWELL_BENCH_IN_VENV"):
        raise SystemExit("bulk_python: pydantic is still not importable inside .build/bench-venv")
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        print(f"bulk_python: pydantic not importable; making {VENV}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "pydantic>=2,<3"],
                   check=True)
    os.environ["FORMWELL_BENCH_IN_VENV"] = "1"
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])


def ensure_data() -> None:
    """examples/generate_signups.py --count 100000 into .build/bench-data (kept between runs)."""
    if os.path.exists(DATA):
        with open(DATA, "rb") as data:
            if sum(1 for _ in data) == COUNT:
                return
    os.makedirs(DATA_DIR, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "examples", "generate_signups.py"), "--count", str(COUNT),
                    "--out-dir", DATA_DIR], check=True, stdout=subprocess.DEVNULL)


def load_records() -> list:
    with open(DATA, encoding="utf-8") as data:
        return [json.loads(line) for line in data]


# ---- row 8a: check_many against model_validate, in-process ----


def formwell_pass(form, records):
    result = form.check_many(records)
    valid = result.valid
    errors = [errors for _, errors in result.invalid()]
    return valid, errors


def pydantic_pass(model, error_type, records):
    validate = model.model_validate
    valid = []
    append_verdict = valid.append
    for record in records:
        try:
            validate(record)
        except error_type:
            append_verdict(False)
        else:
            append_verdict(True)
    return valid


def compare_messages(form, records, models, result) -> None:
    """Notes how far pydantic's messages (the Registration model) agree with Formwell's."""
    same = skipped_match = other = 0
    example = None
    for index, record in enumerate(records):
        try:
            models.Registration.model_validate(record)
            theirs = {}
        except models.ValidationError as error:
            theirs = models.errors_of(error)
        ours = result.errors(index)
        if theirs == ours:
            same += 1
        elif ours.get("confirm") == "Passwords don't match" and "confirm" not in theirs and \
                {k: v for k, v in ours.items() if k != "confirm"} == theirs:
            skipped_match += 1
        else:
            other += 1
            example = example or (index, ours, theirs)
    note("8a", f"messages: the same for {same:,} of {len(records):,} records; {skipped_match:,} differ only by "
               "\"Passwords don't match\", which pydantic's model_validator never says when another field "
               f"already failed (it does not run); {other:,} other differences"
               + (f" (first: record {example[0]}: formwell {example[1]}, pydantic {example[2]})" if example else ""))


def in_process_rows() -> None:
    import bulk_models as models
    import pydantic

    import formwell

    records = load_records()
    form = formwell.Form.from_spec(SPEC)
    print(f"bulk_python: formwell {formwell.library_version()} from {formwell.library_path}; pydantic "
          f"{pydantic.VERSION}; {len(records):,} records from {os.path.relpath(DATA, ROOT)}; "
          f"{os.cpu_count()} CPUs", flush=True)

    # Sanity: verdicts record by record (untimed).
    ours, _ = formwell_pass(form, records)
    result = form.check_many(records)
    for name, model in (("Registration", models.Registration), ("RegistrationConstraints",
                                                                models.RegistrationConstraints)):
        theirs = pydantic_pass(model, models.ValidationError, records)
        differing = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
        if differing or len(theirs) != len(ours):
            first = differing[0] if differing else None
            fail(f"8a: verdicts of check_many and pydantic {name} differ on {len(differing)} records"
                 + (f" (first: record {first}: {records[first]!r}, formwell {ours[first]})" if differing else ""))
    note("8a", f"verdicts: check_many and both pydantic models agree on every one of {len(records):,} records "
               f"({result.valid_count:,} valid, {result.invalid_count:,} invalid)" if not bench_rows.failures else
               "verdicts: DISAGREE (see above)")
    compare_messages(form, records, models, result)

    passes = {
        "formwell": lambda: formwell_pass(form, records),
        "pydantic": lambda: pydantic_pass(models.Registration, models.ValidationError, records),
        "constraints": lambda: pydantic_pass(models.RegistrationConstraints, models.ValidationError, records),
    }
    for function in passes.values():  # warm-up
        function()
    times = {name: [] for name in passes}
    order = list(passes)
    for round_index in range(ROUNDS):
        for name in (order if round_index % 2 == 0 else order[::-1]):
            start = time.perf_counter()
            passes[name]()
            times[name].append(time.perf_counter() - start)
    rate = {name: len(records) / min(spent) / 1e3 for name, spent in times.items()}
    median = {name: len(records) / statistics.median(spent) / 1e3 for name, spent in times.items()}
    row("8a", "py bulk: check_many vs pydantic model_validate (100k)", rate["formwell"], rate["pydantic"],
        "krec/s", 2)
    row("8a2", "py bulk: check_many vs pydantic built-in constraints", rate["formwell"], rate["constraints"],
        "krec/s", 2, judged=False)
    note("8a", f"medians of {ROUNDS} rounds: formwell {median['formwell']:.1f} krec/s, pydantic "
               f"{median['pydantic']:.1f} krec/s ({median['formwell'] / median['pydantic']:.2f}x), constraints "
               f"{median['constraints']:.1f} krec/s ({median['formwell'] / median['constraints']:.2f}x); "
               "formwell's time includes .valid and the errors of every invalid record, pydantic's only the "
               "verdict (try/except)")
    form.close()


# ---- row 8b: whole processes ----


TIME = "/usr/bin/time"


def run_measured(command: list, stdout) -> tuple:
    """(wall seconds, peak RSS KiB, exit status) of one process. The peak RSS comes from
    /usr/bin/time -f %M when it exists: a process forked from this (large) interpreter carries this
    interpreter's high-water mark into its own ru_maxrss at exec, so os.wait4 here would report at
    least this process's size; /usr/bin/time forks the command from its own small image."""
    report = os.path.join(DATA_DIR, "time-report.txt")
    timed = [TIME, "-f", "%M", "-o", report, *command] if os.path.exists(TIME) else command
    start = time.perf_counter()
    process = subprocess.Popen(timed, stdout=stdout, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8
    peak = usage.ru_maxrss
    if timed is not command:
        with open(report, encoding="utf-8") as text:
            lines = text.read().split()
        # /usr/bin/time writes "Command exited with non-zero status N" before the figure.
        peak = int(lines[-1])
    return wall, peak, code


def read_verdicts(path: str) -> list:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def process_rows() -> None:
    if not os.path.exists(CLI):
        raise FileNotFoundError(f"{CLI} is missing (make cli)")
    cli = [CLI, "check", SPEC, DATA, "--format", "json"]
    script = [sys.executable, os.path.join(BENCH, "bulk_pydantic_check.py"), DATA]
    env_note = "" if os.path.exists(TIME) else " (no /usr/bin/time: peak RSS from os.wait4, which includes this interpreter's size)"

    # Sanity (untimed): the CLI's verdicts against check_many's and the script's, line by line.
    import formwell

    out_dir = os.path.join(ROOT, ".build", "bench-data")
    outputs = {}
    for name, command in (("cli", cli), ("script", script)):
        path = os.path.join(out_dir, f"verdicts-{name}.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            _, _, status = run_measured(command, out)
        if status not in (0, 1):
            raise RuntimeError(f"{' '.join(command)} exited with status {status}")
        outputs[name] = read_verdicts(path)
    form = formwell.Form.from_spec(SPEC)
    expected = form.check_many(load_records())
    ours = expected.valid
    cli_verdicts = [v.get("valid") for v in outputs["cli"]]
    script_verdicts = [v.get("valid") for v in outputs["script"]]
    if cli_verdicts != ours:
        differing = sum(a != b for a, b in zip(cli_verdicts, ours)) + abs(len(cli_verdicts) - len(ours))
        fail(f"8b: the CLI's verdicts differ from check_many's on {differing} records "
             f"({len(cli_verdicts)} lines for {len(ours)} records)")
    if script_verdicts != ours:
        differing = sum(a != b for a, b in zip(script_verdicts, ours)) + abs(len(script_verdicts) - len(ours))
        fail(f"8b: the pydantic script's verdicts differ from check_many's on {differing} records")
    cli_errors_same = sum(v.get("errors") == expected.errors(i) for i, v in enumerate(outputs["cli"][:len(ours)]))
    note("8b", f"verdicts: the CLI, the pydantic script and check_many agree on every record"
         if cli_verdicts == script_verdicts == ours else "verdicts: DISAGREE (see above)")
    note("8b", f"the CLI's messages equal check_many's on {cli_errors_same:,} of {len(ours):,} records")
    form.close()

    times = {"cli": [], "script": []}
    peaks = {"cli": 0, "script": 0}
    commands = {"cli": cli, "script": script}
    order = ["cli", "script"]
    with open(os.devnull, "w") as null:
        for name in order:  # warm-up (page cache, bytecode)
            run_measured(commands[name], null)
        for round_index in range(ROUNDS):
            for name in (order if round_index % 2 == 0 else order[::-1]):
                wall, peak, status = run_measured(commands[name], null)
                if status not in (0, 1):
                    raise RuntimeError(f"{' '.join(commands[name])} exited with status {status}")
                times[name].append(wall)
                peaks[name] = max(peaks[name], peak)
    count = len(ours)
    rate = {name: count / statistics.median(spent) / 1e3 for name, spent in times.items()}
    row("8b", "process: formwell check vs pydantic script (100k)", rate["cli"], rate["script"], "krec/s", 1.5)
    note("8b", f"median of {ROUNDS} whole runs: formwell check {statistics.median(times['cli']):.3f} s, peak RSS "
               f"{peaks['cli'] / 1024:.1f} MiB; pydantic script {statistics.median(times['script']):.3f} s "
               f"(best {min(times['script']):.3f} s), peak RSS {peaks['script'] / 1024:.1f} MiB{env_note}")


def guarded(rid: str, function) -> None:
    try:
        function()
    except Exception as error:  # noqa: BLE001 - reported, then the other rows run
        traceback.print_exc()
        note(rid, f"NOT MEASURED: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
        fail(f"row {rid} could not run")


def main() -> int:
    ensure_pydantic()
    sys.path.insert(0, BENCH)
    ensure_data()
    guarded("8a", in_process_rows)
    guarded("8b", process_rows)
    if bench_rows.failures:
        print(f"bulk_python: {bench_rows.failures} sanity check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
