"""Runs the shared conformance vectors (Tests/Conformance/*.json) through the Python binding; the Swift
tests, the C runner and the command-line tool run the same files (Tests/Conformance/README.md)."""

import glob
import json
import os

import pytest

from formwell import Form

from conftest import REPO_ROOT

VECTORS = sorted(glob.glob(os.path.join(REPO_ROOT, "Tests", "Conformance", "*.json")))
VALIDATORS = {"starts_with_plus": lambda v: None if v.startswith("+") else "Number must start with '+'"}


def observed(form, field_id, want):
    s = form.state(field_id)
    seen = {
        "phase": s.phase.name.lower(),
        "validity": s.validity.name.lower(),
        "message": s.message,
        "display": s.display.name.lower(),
        "display_message": s.display_message,
        "touched": s.touched,
    }
    if "failing_rule" in want:  # optional in a vector
        seen["failing_rule"] = s.failing_rule
    return seen


def apply(form, step, where):
    event, field = step["event"], step.get("field")
    if event == "focus":
        form.focus(field)
    elif event == "blur":
        form.blur(field)
    elif event == "touch":
        form.touch(field)
    elif event in ("type", "set_value"):
        form.set_value(field, step["value"])
    elif event == "touch_all":
        form.touch_all()
    elif event == "validate":
        assert form.validate() is step["returns"], f"{where}: validate()"
    elif event == "reset":
        form.reset()
    else:
        pytest.fail(f"{where}: unknown event {event!r}")


def test_there_are_vectors():
    assert VECTORS


@pytest.mark.parametrize("path", VECTORS, ids=os.path.basename)
def test_vector(path):
    with open(path, encoding="utf-8") as file:
        vector = json.load(file)
    name = os.path.basename(path)
    with Form.from_spec(vector["spec"], validators=VALIDATORS) as form:
        for index, step in enumerate(vector["steps"]):
            where = f"{name} step {index} ({step['event']} {step.get('field', '')})"
            apply(form, step, where)
            expected = step["expect"]
            assert set(expected["fields"]) == set(form.field_ids), f"{where}: expect.fields must list every field"
            for field_id, want in expected["fields"].items():
                assert observed(form, field_id, want) == want, f"{where}: field {field_id!r}"
            assert form.is_valid is expected["valid"], f"{where}: valid"
            assert form.first_invalid == expected["first_invalid"], f"{where}: first_invalid"
    for index, record in enumerate(vector.get("records", [])):
        with Form.from_spec(vector["spec"], validators=VALIDATORS) as form:
            for field_id, value in record["values"].items():
                form.set_value(field_id, value)
            assert form.validate() is record["valid"], f"{name} record {index}: valid"
            errors = {i: form.state(i).error for i in form.field_ids if form.state(i).error is not None}
            assert errors == record["errors"], f"{name} record {index}: errors"


@pytest.mark.parametrize("threads", [0, 1])
@pytest.mark.parametrize("path", VECTORS, ids=os.path.basename)
def test_vector_records_check_many(path, threads):
    """Every vector's records at once through Form.check_many, as records and as columns."""
    with open(path, encoding="utf-8") as file:
        vector = json.load(file)
    records = vector.get("records", [])
    name = os.path.basename(path)
    with Form.from_spec(vector["spec"], validators=VALIDATORS) as form:
        result = form.check_many([record["values"] for record in records], threads=threads)
        assert len(result) == len(records)
        assert result.valid == [record["valid"] for record in records], name
        assert result.invalid_count == sum(not record["valid"] for record in records)
        for index, record in enumerate(records):
            assert result.errors(index) == record["errors"], f"{name} record {index}: errors"
        # As columns: only records that give every field (a missing key means "initial value",
        # which a column cannot say per record).
        complete = [r for r in records if set(r["values"]) == set(form.field_ids)]
        if complete:
            columns = {field_id: [r["values"][field_id] for r in complete] for field_id in form.field_ids}
            by_column = form.check_many(columns, threads=threads)
            assert by_column.valid == [r["valid"] for r in complete], name
            assert [by_column.errors(i) for i in range(len(complete))] == [r["errors"] for r in complete]
