"""Runs the shared conformance vectors (Tests/Conformance/*.json) through the Python binding; the Swift
tests, the C runner and the command-line tool run the same files (Tests/Conformance/README.md).

Vectors 11-19's additions are read too: the events set_error, clear_error, clear_errors,
remove_field, validate / touch_all with a group and reset with values; steps that must fail
(``"error"``: the exception class of that status, and the form exactly as before); the per-field keys
errors, tint, label_raised, emphasized, hint, visited, dirty, modified_since_submit, external_error
(compared when present) and the form keys dirty_fields, submit_count, submit_failed, announcement,
valid_in, first_invalid_in and changed (changed_since the revision before the step).

Vectors 20-24's additions (asynchronous rules, on the host's clock) too: tick; type / set_value with
``now`` (the form's clock reads it: the binding tells the library before setting the value); take
(``next_request(now)``, the request remembered under its label ``as``, or ``expect_request`` null:
nothing due); resolve by label or raw id (``returns`` applied / stale, or the step's ``error``:
unknown_request, request_closed, invalid_argument); submit (``returns`` valid / invalid / pending);
validity ``pending``; the form keys pending_fields, stale_results and next_due.

Vectors 60-63's additions (normalisers and secret fields; the spec's ``normalize`` and ``secret`` reach
the library through ``Form.from_spec``, i.e. fw_form_load_spec): the per-field keys value (as set),
normalized (:attr:`FieldState.normalized_value`) and secret, and the form key values
(:attr:`Form.values`, the normalised values a submission uses).

Vectors 64-68's additions (messages as codes + parameters + locales; the spec's ``locale`` reaches the
library through ``Form.from_spec``): the per-field keys code, params (compared as parsed JSON: the
state's ``params`` dict), display_code and error_codes; records' ``codes`` (``{field: code}`` of each
displayed error), read after a submit (each shown field's :attr:`FieldState.display_code`) and through
the batch path (:meth:`CheckResult.codes`); and the top-level ``checks``, each run through
:func:`formwell.check_value` with its rules as spec dicts, comparing validity, message, code and
params."""

import glob
import json
import os

import pytest

import formwell
from formwell import Form, _native

from conftest import REPO_ROOT

VECTORS = sorted(glob.glob(os.path.join(REPO_ROOT, "Tests", "Conformance", "*.json")))
VALIDATORS = {"starts_with_plus": lambda v: None if v.startswith("+") else "Number must start with '+'"}


class VectorClock:
    """The host clock of a vector run: the last ``now`` a step gave (a form starts at 0)."""

    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


def vector_form(spec):
    """A form for a vector's spec, on a clock the steps drive (see apply)."""
    form = Form.from_spec(spec, validators=VALIDATORS, clock=VectorClock())
    form.request_labels = {}  # label of a take -> the request's id
    return form


#: Per-field keys a vector may give besides the six base keys (compared when present), and how
#: the Python binding reads each from a FieldState.
OPTIONAL_FIELD_KEYS = {
    "failing_rule": lambda s: s.failing_rule,
    "errors": lambda s: s.errors,
    "tint": lambda s: s.tint.name.lower(),
    "label_raised": lambda s: s.label_raised,
    "emphasized": lambda s: s.emphasized,
    "hint": lambda s: s.accessibility_hint,
    "visited": lambda s: s.visited,
    "dirty": lambda s: s.dirty,
    "modified_since_submit": lambda s: s.modified_since_submit,
    "external_error": lambda s: s.external_error,
    # vectors 60-63: normalisers and secret fields
    "value": lambda s: s.value,
    "normalized": lambda s: s.normalized_value,
    "secret": lambda s: s.secret,
    # vectors 64-68: failure codes and parameters
    "code": lambda s: s.code,
    "params": lambda s: s.params,
    "display_code": lambda s: s.display_code,
    "error_codes": lambda s: list(s.error_codes),
}


def observed(state, want):
    seen = {
        "phase": state.phase.name.lower(),
        "validity": state.validity.name.lower(),
        "message": state.message,
        "display": state.display.name.lower(),
        "display_message": state.display_message,
        "touched": state.touched,
    }
    for key, read in OPTIONAL_FIELD_KEYS.items():
        if key in want:
            seen[key] = read(state)
    unknown = set(want) - set(seen)
    assert not unknown, f"unknown per-field keys {sorted(unknown)}"
    return seen


def apply(form, step, where):
    """Runs one step on a form made by vector_form."""
    event, field = step["event"], step.get("field")
    if "now" in step:
        form.clock.now = step["now"]  # read by the binding: tick, set_value, take
    if event == "focus":
        form.focus(field)
    elif event == "blur":
        form.blur(field)
    elif event == "touch":
        form.touch(field)
    elif event in ("type", "set_value"):
        form.set_value(field, step["value"])
    elif event == "touch_all":
        form.touch_all(group=step.get("group"))
    elif event == "validate":
        returned = form.validate(group=step.get("group"))
        if "error" not in step:
            assert returned is step["returns"], f"{where}: validate()"
    elif event == "reset":
        form.reset(values=step.get("values"))
    elif event == "set_error":
        form.set_error(field, step["message"])
    elif event == "clear_error":
        form.clear_error(field)
    elif event == "clear_errors":
        form.clear_errors()
    elif event == "remove_field":
        form.remove_field(field)
    elif event == "tick":
        form.tick(step["now"])
    elif event == "take":
        request = form.next_request(step["now"])
        want = step["expect_request"]
        if want is None:
            assert request is None, f"{where}: take handed out {request} where nothing is due"
        else:
            assert request is not None, f"{where}: take handed out nothing"
            assert {"field": request.field, "value": request.value, "rule": request.rule} == want, f"{where}: take"
            assert request.index == form.field_ids.index(request.field), f"{where}: take: index"
            assert request.due <= step["now"], f"{where}: take: due"
            form.request_labels[step["as"]] = request.id
    elif event == "resolve":
        label = step["request"]
        request = label if isinstance(label, int) else form.request_labels[label]
        returned = form.resolve(request, formwell.Verdict(step["verdict"]), step.get("message"))
        if "error" not in step:
            assert returned == step["returns"], f"{where}: resolve"
    elif event == "submit":
        result = form.submit(group=step.get("group"))
        if "error" not in step:
            assert result.outcome == step["returns"], f"{where}: submit"
            assert bool(result) is (step["returns"] == "valid"), f"{where}: submit truth"
            if result.outcome == "pending":
                assert result.pending_fields, f"{where}: submit pending without pending fields"
                assert set(result.pending_fields) <= set(form.pending_fields), f"{where}: submit's pending fields"
            else:
                assert result.pending_fields == [], f"{where}: submit's pending fields"
    else:
        pytest.fail(f"{where}: unknown event {event!r}")


def error_class(name):
    """The exception class of a step's ``"error"`` (a status name: ``invalid_argument`` is
    FW_ERR_INVALID_ARGUMENT, raised as InvalidArgumentError)."""
    code = getattr(_native, f"FW_ERR_{name.upper()}")
    return formwell.errors.ERRORS[code]


def whole_state(form):
    return (form.field_ids, form.states(), form.is_valid, form.first_invalid, form.revision, form.submit_count,
            form.submit_failed, form.announcement, form.pending_fields, form.stale_results, form.next_due,
            form.clock_ms)


def check_expectations(form, expected, where, revision_before):
    assert set(expected["fields"]) == set(form.field_ids), f"{where}: expect.fields must list every field"
    states = {state.id: state for state in form.states()}
    for field_id, want in expected["fields"].items():
        assert observed(states[field_id], want) == want, f"{where}: field {field_id!r}"
    assert form.is_valid is expected["valid"], f"{where}: valid"
    assert form.first_invalid == expected["first_invalid"], f"{where}: first_invalid"
    known = {"fields", "valid", "first_invalid", "dirty_fields", "submit_count", "submit_failed", "announcement",
             "valid_in", "first_invalid_in", "changed", "pending_fields", "stale_results", "next_due", "values"}
    assert not set(expected) - known, f"{where}: unknown form keys {sorted(set(expected) - known)}"
    if "dirty_fields" in expected:
        assert form.dirty_fields == expected["dirty_fields"], f"{where}: dirty_fields"
        assert form.dirty is bool(expected["dirty_fields"]), f"{where}: dirty"
    if "submit_count" in expected:
        assert form.submit_count == expected["submit_count"], f"{where}: submit_count"
    if "submit_failed" in expected:
        assert form.submit_failed is expected["submit_failed"], f"{where}: submit_failed"
    if "announcement" in expected:
        assert form.announcement == expected["announcement"], f"{where}: announcement"
    for group, valid in expected.get("valid_in", {}).items():
        assert form.is_valid_in(group) is valid, f"{where}: valid_in[{group!r}]"
    for group, first in expected.get("first_invalid_in", {}).items():
        assert form.first_invalid_in(group) == first, f"{where}: first_invalid_in[{group!r}]"
    if "changed" in expected:
        assert form.changed_since(revision_before) == expected["changed"], f"{where}: changed"
    if "pending_fields" in expected:
        assert form.pending_fields == expected["pending_fields"], f"{where}: pending_fields"
        assert form._pending_count() == len(expected["pending_fields"]), f"{where}: pending_count"
    if "stale_results" in expected:
        assert form.stale_results == expected["stale_results"], f"{where}: stale_results"
    if "next_due" in expected:
        assert form.next_due == expected["next_due"], f"{where}: next_due"
    if "values" in expected:
        # What a submission uses: every field's normalised value (str equality is by code point, so
        # a decomposed value never equals its NFC form).
        assert form.values == expected["values"], f"{where}: values"


def test_there_are_vectors():
    assert VECTORS


@pytest.mark.parametrize("path", VECTORS, ids=os.path.basename)
def test_vector(path):
    with open(path, encoding="utf-8") as file:
        vector = json.load(file)
    name = os.path.basename(path)
    with vector_form(vector["spec"]) as form:
        for index, step in enumerate(vector["steps"]):
            where = f"{name} step {index} ({step['event']} {step.get('field', '')})"
            revision = form.revision
            if "error" in step:
                before = whole_state(form)
                with pytest.raises(error_class(step["error"])):
                    apply(form, step, where)
                assert whole_state(form) == before, f"{where}: a failed event changed the form"
            else:
                apply(form, step, where)
            check_expectations(form, step["expect"], where, revision)
    for index, record in enumerate(vector.get("records", [])):
        with Form.from_spec(vector["spec"], validators=VALIDATORS) as form:
            for field_id, value in record["values"].items():
                form.set_value(field_id, value)
            assert form.validate() is record["valid"], f"{name} record {index}: valid"
            errors = {i: form.state(i).error for i in form.field_ids if form.state(i).error is not None}
            assert errors == record["errors"], f"{name} record {index}: errors"
            if "codes" in record:
                states = form.states()
                codes = {s.id: s.display_code for s in states if s.display is formwell.Display.ERROR}
                assert codes == record["codes"], f"{name} record {index}: codes"
                assert all(s.display_code == "" for s in states if s.display is not formwell.Display.ERROR), \
                    f"{name} record {index}: a display code without a displayed error"
    for index, check in enumerate(vector.get("checks", [])):
        where = f"{name} check {index}"
        verdict = formwell.check_value(check["rules"], check["value"], locale=check.get("locale"))
        assert verdict.validity.name.lower() == check["validity"], f"{where}: validity"
        assert verdict.message == check["message"], f"{where}: message"
        assert verdict.code == check["code"], f"{where}: code"
        assert verdict.params == check["params"], f"{where}: params"
        assert bool(verdict) is (check["validity"] != "invalid"), f"{where}: truth"
        assert (verdict.failing_rule is None) is (check["validity"] != "invalid"), f"{where}: failing_rule"


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
            if "codes" in record:
                assert result.codes(index) == record["codes"], f"{name} record {index}: codes"
                for field_id in form.field_ids:
                    assert result.code(index, field_id) == record["codes"].get(field_id), \
                        f"{name} record {index}: code of {field_id!r}"
            # Codes and messages go together: each error has its code, and only errors do.
            assert list(result.codes(index)) == list(result.errors(index)), f"{name} record {index}: codes' fields"
        # As columns: only records that give every field (a missing key means "initial value",
        # which a column cannot say per record).
        complete = [r for r in records if set(r["values"]) == set(form.field_ids)]
        if complete:
            columns = {field_id: [r["values"][field_id] for r in complete] for field_id in form.field_ids}
            by_column = form.check_many(columns, threads=threads)
            assert by_column.valid == [r["valid"] for r in complete], name
            assert [by_column.errors(i) for i in range(len(complete))] == [r["errors"] for r in complete]
            assert [by_column.codes(i) for i in range(len(complete)) if "codes" in complete[i]] == \
                [r["codes"] for r in complete if "codes" in r]
