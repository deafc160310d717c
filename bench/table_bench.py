#!/usr/bin/env python3
"""table_bench: rows 11a-11d of bench/README.md, checking tables (issue 15, part 3: "Proof and speed"),
baselines measured in the same run on the same records.

The records: 1,000,000 sign-ups written by ``examples/generate_signups.py --count 1000000`` (fixed
seed; kept in .build/bench-data/table-1m between runs), read once into a ``pyarrow.Table`` with
``pyarrow.json.read_json`` and, from that table, into a pandas DataFrame, a polars DataFrame and a
list of dicts, all outside the timing. Form: examples/registration.json.

11a  ``formwell.check_table(form, table).to_arrow()`` (the verdicts as an Arrow table: ``valid`` and
     every field's message) on the pyarrow Table against pandera (pandas backend) validating
     the same records as a pandas DataFrame: a ``DataFrameSchema`` with the spec's rules (required =
     ``str_length(min_value=1)``, ``str_length``, ``str_matches`` of the e-mail / username / password
     patterns, and ``confirm == password`` as a dataframe-level check), ``lazy=True`` so that every
     failure is collected, as Formwell judges every field of every record. Records per second; target >= 5x.
11b  the same ``check_table`` against pydantic v2 ``Registration.model_validate(d)`` (bench/bulk_models.py,
     the model of row 8a) over the same records as dicts, verdict only; target >= 3x.
11c  ``check_table`` of the same records as a polars DataFrame (through ``__arrow_c_stream__``) against
     the pyarrow Table: for information.
11d  ``formwell.dask.check`` over the records as a Dask DataFrame read from 8 parquet files, on a
     ``distributed.LocalCluster`` of 2 worker processes against 1 (one thread each): the scaling
     ratio, for information. ``threads=1``: one library thread per partition, so the worker
     processes, not the library's threads, use the cores. Timed: the count of valid records
     computed from the verdicts (the verdicts stay on the workers).

A note gives ``check_table`` alone (the result object, messages read on demand) against both.
11a-11c: best of 3 interleaved rounds (order reversed every other round) after a warm-up (pandera
and pydantic warm up on the first 50,000 records); 11d: best of 3 alternating runs after one
warm-up run on each cluster.

Sanity checks (a failure makes the exit status 1): check_table's verdicts equal ``Form.check_many``'s
on the same records (as dicts), from pyarrow and from polars; the Dask verdicts equal them too; a row
that could not be measured. The verdicts of pandera and pydantic are compared record by record and
the differences reported in notes (they are baselines, not references).

When pandera (or pydantic) cannot be imported, a venv with the system's site packages is made under
.build/table-venv, the missing packages are installed there with pip, and this script runs again with
that venv's interpreter (pandera is not a test requirement).

Run by ``make bench`` with ``FORMWELL_LIBRARY`` and ``PYTHONPATH=bindings/python`` set; rows are
printed and appended to ``$BENCH_ROWS`` for bench/summary.py. Alone:
``FORMWELL_LIBRARY=$PWD/.build/release/libformwell.so PYTHONPATH=$PWD/bindings/python python3 bench/table_bench.py``
"""

from __future__ import annotations

import importlib
import logging
import os
import subprocess
import sys
import time
import traceback
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
COUNT = 1_000_000
ROUNDS = 3
WARM = 50_000
PARTS = 8
SPEC = os.path.join(ROOT, "examples", "registration.json")
DATA_DIR = os.path.join(ROOT, ".build", "bench-data", "table-1m")
DATA = os.path.join(DATA_DIR, "signups.jsonl")
PARQUET = os.path.join(DATA_DIR, "parquet")
VENV = os.path.join(ROOT, ".build", "table-venv")
FIELDS = ["name", "email", "username", "password", "confirm"]

#: module -> what pip installs when it is missing (in the bench venv only).
NEEDED = {"pandera": "pandera[pandas]>=0.20", "pydantic": "pydantic>=2,<3", "pandas": "pandas", "pyarrow": "pyarrow",
          "polars": "polars", "dask": "dask[dataframe]", "distributed": "distributed"}

started = time.perf_counter()


def ensure_packages() -> None:
    """Imports what the rows need, or re-runs this script in .build/table-venv with it installed."""
    missing = []
    for module, requirement in NEEDED.items():
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(requirement)
    if not missing:
        return
    if os.environ.get("FORMWELL_TABLE_BENCH_IN_VENV"):
        raise SystemExit(f"table_bench: still missing inside {VENV}: {', '.join(missing)}")
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        print(f"table_bench: {', '.join(missing)} not importable; making {VENV}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *missing], check=True)
    os.environ["FORMWELL_TABLE_BENCH_IN_VENV"] = "1"
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])


def ensure_data() -> None:
    """examples/generate_signups.py --count 1000000 into .build/bench-data/table-1m (kept between
    runs; about 20 s the first time), and the same records as PARTS parquet files for Dask."""
    fresh = False
    if os.path.exists(DATA):
        with open(DATA, "rb") as data:
            fresh = sum(1 for _ in data) == COUNT
    if not fresh:
        os.makedirs(DATA_DIR, exist_ok=True)
        print(f"table_bench: writing {COUNT:,} sign-ups into {os.path.relpath(DATA_DIR, ROOT)}", flush=True)
        subprocess.run([sys.executable, os.path.join(ROOT, "examples", "generate_signups.py"), "--count",
                        str(COUNT), "--out-dir", DATA_DIR], check=True, stdout=subprocess.DEVNULL)
        os.remove(os.path.join(DATA_DIR, "signups.csv"))
    stamp = os.path.join(PARQUET, "complete")
    if not fresh or not os.path.exists(stamp):
        import pyarrow.parquet as pq

        os.makedirs(PARQUET, exist_ok=True)
        table = read_table()
        size = -(-table.num_rows // PARTS)
        for part in range(PARTS):
            pq.write_table(table.slice(part * size, size), os.path.join(PARQUET, f"part-{part}.parquet"))
        with open(stamp, "w", encoding="utf-8") as out:
            out.write(f"{table.num_rows}\n")


def read_table():
    import pyarrow as pa
    import pyarrow.json as pj

    table = pj.read_json(DATA, parse_options=pj.ParseOptions(explicit_schema=pa.schema(
        [(field, pa.string()) for field in FIELDS])))
    return table.select(FIELDS).combine_chunks()


# ---- the API under test, or its stand-ins ----

import formwell  # noqa: E402  (after the helpers: PYTHONPATH is set by make bench)

import bench_rows
from bench_rows import fail, note, row

def check_table(form, table, threads=0):
    return formwell.check_table(form, table, threads=threads)


def verdicts_of(result) -> list:
    """[bool] per record, from whatever check_table returns (a CheckResult-like object with
    .valid, a pyarrow Table with a `valid` column, or an object with to_arrow())."""
    import pyarrow as pa

    if isinstance(result, (pa.Table, pa.RecordBatch)):
        return result.column("valid").to_pylist()
    valid = getattr(result, "valid", None)
    if valid is not None:
        if isinstance(valid, (pa.Array, pa.ChunkedArray)):
            return valid.to_pylist()
        return list(valid)
    if hasattr(result, "to_arrow"):
        return result.to_arrow().column("valid").to_pylist()
    raise TypeError(f"cannot read verdicts from {type(result).__name__}")


def consume(result) -> int:
    """What a timed pass reads of a result: the verdicts as an Arrow table (a bool ``valid`` column
    and every field's message, null where it passes) when the result has ``to_arrow()``, else (the
    stand-in's CheckResult) ``.valid`` and every invalid record's errors. Returns the number of
    invalid records."""
    if hasattr(result, "to_arrow"):
        valid = result.to_arrow().column("valid")
        return len(valid) - valid.true_count if hasattr(valid, "true_count") else \
            sum(1 for v in valid.to_pylist() if not v)
    result.valid
    return sum(1 for _ in result.invalid())


def failing_fields_of(result, count: int):
    """{field: numpy bool array of records whose field fails}."""
    import numpy as np

    failing = {field: np.zeros(count, dtype=bool) for field in FIELDS}
    if not hasattr(result, "to_arrow"):
        for index, errors in result.invalid():
            for field in errors:
                failing[field][index] = True
        return failing
    table = result.to_arrow()
    for field in FIELDS:
        if field in table.column_names:
            failing[field] = table.column(field).is_valid().combine_chunks().to_numpy(zero_copy_only=False)
    return failing


# ---- pandera ----


def pandera_schema():
    """examples/registration.json as a pandera DataFrameSchema (pandas backend). Patterns: the
    spec's, anchored at both ends (str_matches is re.match / pyarrow's match_substring_regex with a
    leading ^, so only the start is anchored otherwise; Formwell anchors both ends)."""
    from pandera.pandas import Check, Column, DataFrameSchema

    required = Check.str_length(min_value=1)
    return DataFrameSchema({
        "name": Column(str, [required]),
        "email": Column(str, [required, Check.str_matches(r"^[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,64}$")]),
        "username": Column(str, [required, Check.str_length(3, 20), Check.str_matches(r"^[a-z0-9_]+$")]),
        "password": Column(str, [required, Check.str_length(min_value=8), Check.str_matches(r"^.*[A-Z].*$"),
                                 Check.str_matches(r"^.*[0-9].*$")]),
        "confirm": Column(str, [required]),
    }, checks=[Check(lambda frame: frame["confirm"] == frame["password"], name="confirm_matches_password")])


def pandera_pass(schema, errors_type, frame):
    """validate(lazy=True); returns (numpy valid per row, failure_cases or None)."""
    import numpy as np

    valid = np.ones(len(frame), dtype=bool)
    try:
        schema.validate(frame, lazy=True)
        return valid, None
    except errors_type as error:
        cases = error.failure_cases
    rows = cases["index"].dropna().astype("int64").to_numpy()
    valid[rows] = False
    return valid, cases


def pandera_failing_fields(cases, count: int):
    """{field: records whose field fails a column check}; the dataframe-level check counts as confirm's."""
    import numpy as np

    failing = {field: np.zeros(count, dtype=bool) for field in FIELDS}
    if cases is None:
        return failing
    cases = cases.dropna(subset=["index"])
    columns = cases[cases["schema_context"] == "Column"]
    for field in FIELDS:
        failing[field][columns.loc[columns["column"] == field, "index"].astype("int64").to_numpy()] = True
    frame_level = cases[cases["schema_context"] == "DataFrameSchema"]
    failing["confirm"][frame_level["index"].astype("int64").to_numpy()] = True
    return failing


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


# ---- rows 11a-11c ----


def in_process_rows(table) -> list:
    """Rows 11a-11c; returns check_many's verdicts (the reference for 11d)."""
    import numpy as np
    import pandera
    import pandera.errors
    import polars as pl
    import pydantic

    import bulk_models as models

    form = formwell.Form.from_spec(SPEC)
    count = table.num_rows
    frame = table.to_pandas()
    polars_frame = pl.from_arrow(table)
    records = table.to_pylist()
    schema = pandera_schema()
    print(f"table_bench: formwell {formwell.library_version()} from {formwell.library_path}; pandera "
          f"{pandera.__version__}, pydantic {pydantic.VERSION}, polars {pl.__version__}; {count:,} records; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; data ready after {time.perf_counter() - started:.1f} s", flush=True)

    # The reference: check_many over the same records as dicts (untimed).
    reference = form.check_many(records)
    expected = reference.valid

    passes = {
        "arrow": lambda: consume(check_table(form, table)),
        "bare": lambda: check_table(form, table).valid_count,
        "polars": lambda: consume(check_table(form, polars_frame)),
        "pandera": lambda: pandera_pass(schema, pandera.errors.SchemaErrors, frame),
        "pydantic": lambda: pydantic_pass(models.Registration, models.ValidationError, records),
    }
    warm = {
        "arrow": passes["arrow"],
        "bare": passes["bare"],
        "polars": passes["polars"],
        "pandera": lambda: pandera_pass(schema, pandera.errors.SchemaErrors, frame.iloc[:WARM]),
        "pydantic": lambda: pydantic_pass(models.Registration, models.ValidationError, records[:WARM]),
    }
    for function in warm.values():
        function()
    times = {name: [] for name in passes}
    outputs = {}
    order = list(passes)
    for round_index in range(ROUNDS):
        for name in (order if round_index % 2 == 0 else order[::-1]):
            start = time.perf_counter()
            output = passes[name]()
            times[name].append(time.perf_counter() - start)
            outputs.setdefault(name, output)
    rate = {name: count / min(spent) / 1e3 for name, spent in times.items()}

    # Sanity (untimed): check_table's verdicts from pyarrow and from polars against check_many's.
    arrow_result = check_table(form, table)
    ours = verdicts_of(arrow_result)
    for source, result in (("pyarrow", arrow_result), ("polars", check_table(form, polars_frame))):
        theirs = ours if result is arrow_result else verdicts_of(result)
        if theirs != expected:
            differing = [i for i, (a, b) in enumerate(zip(theirs, expected)) if a != b]
            fail(f"11a/11c: check_table's verdicts from {source} differ from check_many's on "
                 f"{len(differing) + abs(len(theirs) - len(expected))} records"
                 + (f" (first: record {differing[0]}: {records[differing[0]]!r})" if differing else ""))
    if all(len(t) for t in times.values()) and not bench_rows.failures:
        note("11a", f"verdicts: check_table (pyarrow and polars) and check_many agree on every one of {count:,} "
                    f"records ({reference.valid_count:,} valid, {reference.invalid_count:,} invalid)")
    invalid_read = outputs["arrow"]
    if invalid_read != reference.invalid_count:
        fail(f"11a: a timed check_table pass read {invalid_read} invalid records, check_many found "
             f"{reference.invalid_count}")

    # pandera's verdicts and failing fields against Formwell's (reported, not failed).
    ours_array = np.asarray(expected, dtype=bool)
    pandera_valid, cases = outputs["pandera"]
    differ = np.flatnonzero(pandera_valid != ours_array)
    note("11a", f"verdicts: pandera agrees with Formwell on {count - len(differ):,} of {count:,} records"
                + (f"; first difference: record {differ[0]}: {records[differ[0]]!r}, formwell "
                   f"{bool(ours_array[differ[0]])}" if len(differ) else ""))
    theirs_fields = pandera_failing_fields(cases, count)
    ours_fields = failing_fields_of(arrow_result, count)
    same_rows = np.ones(count, dtype=bool)
    for field in FIELDS:
        same_rows &= theirs_fields[field] == ours_fields[field]
    extra_confirm = (theirs_fields["confirm"] & ~ours_fields["confirm"])
    note("11a", f"failing fields (pandera: columns with a failed check, the confirm == password check counted "
                f"as confirm's): the same set as Formwell's errors on {int(same_rows.sum()):,} of {count:,} "
                f"records; {int(extra_confirm.sum()):,} records have confirm failing in pandera only"
                + ("" if same_rows.all() else
                   f" (first other difference: record {int(np.flatnonzero(~same_rows)[0])})")
                + ". pandera runs every check and lists every failure (its failure_cases: "
                f"{0 if cases is None else len(cases):,} rows); Formwell stops at a field's first failing rule")

    pydantic_valid = outputs["pydantic"]
    differ = [i for i, (a, b) in enumerate(zip(pydantic_valid, expected)) if a != b]
    note("11b", f"verdicts: pydantic Registration agrees with Formwell on {count - len(differ):,} of {count:,} "
                f"records" + (f"; first difference: record {differ[0]}: {records[differ[0]]!r}" if differ else ""))

    row("11a", "table: check_table (pyarrow) vs pandera lazy (1M)", rate["arrow"], rate["pandera"], "krec/s", 5)
    row("11b", "table: check_table (pyarrow) vs pydantic dicts (1M)", rate["arrow"], rate["pydantic"], "krec/s", 3)
    row("11c", "table: check_table from polars vs from pyarrow (1M)", rate["polars"], rate["arrow"], "krec/s", 1,
        judged=False)
    note("11a", "best of {} rounds, seconds per pass: check_table + to_arrow() {:.3f} (from polars {:.3f}), "
                "pandera {:.3f}, pydantic {:.3f}; Formwell's time includes the verdicts as an Arrow table (valid "
                "and every field's message), pandera's the failure cases it collects, pydantic's only the "
                "verdict; load average {:.1f}".format(ROUNDS, *(min(times[name]) for name in ("arrow", "polars", "pandera", "pydantic")),
                                                os.getloadavg()[0]))
    note("11a", f"check_table alone (the result object; messages read on demand, not read here): {min(times['bare']):.3f} s, "
                f"{rate['bare']:.1f} krec/s, {rate['bare'] / rate['pandera']:.2f}x pandera, "
                f"{rate['bare'] / rate['pydantic']:.2f}x pydantic")
    form.close()
    return expected


# ---- row 11d: Dask ----


def dask_check(ddf, spec_text):
    from formwell import dask as formwell_dask

    return formwell_dask.check(ddf, spec_text, threads=1)


def dask_row(expected: list) -> None:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    with open(SPEC, encoding="utf-8") as text:
        spec_text = text.read()
    note("11d", "formwell.dask.check(ddf, spec, threads=1): one library thread per partition, so that the "
                "two worker processes, not the library's own threads, use the two cores")
    logging.getLogger("distributed").setLevel(logging.ERROR)
    clusters, clients = {}, {}
    try:
        for workers in (1, 2):
            clusters[workers] = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                             dashboard_address=":0", silence_logs=logging.ERROR)
            clients[workers] = Client(clusters[workers], set_as_default=False)

        def verdicts():
            ddf = dd.read_parquet(PARQUET)
            return dask_check(ddf, spec_text)

        def run(workers) -> int:
            return int(clients[workers].compute(verdicts()["valid"].sum()).result())

        # Sanity (untimed, on the 2-worker cluster): every verdict, in order, against check_many's.
        got = clients[2].compute(verdicts()["valid"]).result().tolist()
        if [bool(v) for v in got] != expected:
            differing = sum(bool(a) != b for a, b in zip(got, expected)) + abs(len(got) - len(expected))
            fail(f"11d: the Dask verdicts differ from check_many's on {differing} records")
        else:
            note("11d", f"verdicts: the Dask run (2 workers) and check_many agree on every one of {len(expected):,} records")
        valid_expected = sum(expected)
        for workers in (1, 2):  # warm-up: each worker imports formwell and loads the library
            run(workers)
        times = {1: [], 2: []}
        busy = {1: [], 2: []}  # CPU-s the workers ran per wall-s, per run
        for round_index in range(ROUNDS):
            for workers in ((1, 2) if round_index % 2 == 0 else (2, 1)):
                before = clients[workers].run(time.process_time)
                start = time.perf_counter()
                valid = run(workers)
                wall = time.perf_counter() - start
                after = clients[workers].run(time.process_time)
                times[workers].append(wall)
                busy[workers].append(sum(after[w] - before[w] for w in after if w in before) / wall)
                if valid != valid_expected:
                    fail(f"11d: {workers} worker(s) counted {valid} valid records, check_many {valid_expected}")
        rate = {workers: len(expected) / min(spent) / 1e3 for workers, spent in times.items()}
        row("11d", "dask: formwell.dask.check, 2 workers vs 1 (1M)", rate[2], rate[1], "krec/s", 1.7, judged=False)
        note("11d", f"best of {ROUNDS} runs: 2 workers {min(times[2]):.3f} s, 1 worker {min(times[1]):.3f} s "
                    f"(LocalCluster, processes, 1 thread each; {PARTS} parquet files read on the workers; timed: "
                    "the count of valid records computed from the verdicts)")
        best = {workers: busy[workers][spent.index(min(spent))] for workers, spent in times.items()}
        note("11d", f"in those runs the worker processes ran {best[2]:.2f} CPU-s per wall-s with 2 workers (2.00 = "
                    f"both cores busy throughout), {best[1]:.2f} with 1; load average {os.getloadavg()[0]:.1f}"
                    + ("; well under 2: the run did not have two free cores, and 11d says little"
                       if best[2] < 1.6 else ""))
    finally:
        for client in clients.values():
            client.close()
        for cluster in clusters.values():
            cluster.close()


def guarded(rid: str, function, *arguments):
    try:
        return function(*arguments)
    except Exception as error:  # noqa: BLE001 - reported, then the other rows run
        traceback.print_exc()
        note(rid, f"NOT MEASURED: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
        fail(f"row {rid} could not run")
        return None


def main() -> int:
    warnings.filterwarnings("ignore", category=FutureWarning, module="pyspark")  # pyspark (imported by pandera) on pandas 3
    ensure_packages()
    sys.path.insert(0, BENCH)
    ensure_data()
    table = read_table()
    expected = guarded("11a", in_process_rows, table)
    del table
    if expected is not None:
        guarded("11d", dask_row, expected)
    else:
        note("11d", "NOT MEASURED: rows 11a-11c failed, so there is no reference to check the Dask verdicts against")
        fail("row 11d could not run")
    print(f"table_bench: {time.perf_counter() - started:.1f} s", flush=True)
    if bench_rows.failures:
        print(f"table_bench: {bench_rows.failures} sanity check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
