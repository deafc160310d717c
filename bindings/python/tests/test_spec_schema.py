"""The JSON Schema in schema/form-spec.schema.json agrees with the library: every spec the repository
ships (examples, conformance vectors) validates against it, and specs the library refuses for their
shape are refused by the schema too."""

import glob
import json
import os

import jsonschema
import pytest

from formwell import Form, InvalidSpecError

from conftest import REPO_ROOT

with open(os.path.join(REPO_ROOT, "schema", "form-spec.schema.json"), encoding="utf-8") as _file:
    SCHEMA = json.load(_file)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def shipped_specs():
    for path in sorted(glob.glob(os.path.join(REPO_ROOT, "examples", "*.json"))):
        yield os.path.relpath(path, REPO_ROOT), json.load(open(path, encoding="utf-8"))
    for path in sorted(glob.glob(os.path.join(REPO_ROOT, "Tests", "Conformance", "*.json"))):
        yield os.path.relpath(path, REPO_ROOT), json.load(open(path, encoding="utf-8"))["spec"]


def test_the_schema_is_a_valid_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("name, spec", list(shipped_specs()), ids=lambda v: v if isinstance(v, str) else "")
def test_shipped_specs_validate(name, spec):
    VALIDATOR.validate(spec)


@pytest.mark.parametrize(
    "spec",
    [
        {"formwell": 2, "fields": []},
        {"fields": []},
        {"formwell": 1, "fields": [{"label": "no id"}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "emial"}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "email", "mesage": "typo"}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "min_length"}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "min_length", "length": -1}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "regex"}]}]},
        {"formwell": 1, "fields": [{"id": "a", "extra": 1}]},
        # the keys of modes, error mode, groups, hints
        {"formwell": 1, "mode": "on_focus", "fields": []},
        {"formwell": 1, "errors": "every", "fields": []},
        {"formwell": 1, "fields": [{"id": "a", "mode": "onBlur"}]},
        {"formwell": 1, "fields": [{"id": "a", "groups": "account"}]},
        {"formwell": 1, "fields": [{"id": "a", "groups": [""]}]},
        {"formwell": 1, "fields": [{"id": "a", "groups": [1]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "email", "hint": 3}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "email", "hnit": "typo"}]}]},
        # the async rule: a name, an integer debounce in range, nothing else
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async"}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": ""}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": None}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": 3}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": "x", "debounce_ms": -1}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": "x", "debounce_ms": 1.5}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": "x", "debounce_ms": "500"}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": "x", "debounce_ms": None}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": "x", "debounce_ms": 2**31}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": "x", "debounce": 500}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": "x", "pattern": "a+"}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "async", "name": "x", "message": 1}]}]},
        {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "custom", "name": "x", "debounce_ms": 5}]}]},
    ],
)
def test_shape_errors_are_refused_by_both(spec):
    assert not VALIDATOR.is_valid(spec)
    with pytest.raises(InvalidSpecError):
        Form.from_spec(spec)


ISSUE_11_SPEC = {
    "formwell": 1,
    "mode": "on_touched",
    "errors": "all",
    "fields": [
        {"id": "email", "label": "Email", "groups": ["account"], "mode": "on_blur",
         "rules": [{"rule": "required", "hint": "Type your email"}, {"rule": "email"}]},
        {"id": "password", "groups": ["account", "security"], "mode": None,
         "rules": [{"rule": "min_length", "length": 8, "message": "Too short", "hint": "Use 8 characters"},
                   {"rule": "regex", "pattern": ".*[0-9].*", "hint": None}]},
        {"id": "confirm", "groups": None, "rules": [{"rule": "matches", "field": "password", "hint": "Repeat it"}]},
    ],
}


@pytest.mark.parametrize("mode", ["two_stage", "on_change", "on_blur", "on_touched", "on_submit"])
def test_every_mode_is_accepted_by_both(mode):
    spec = {"formwell": 1, "mode": mode, "errors": "first", "fields": [{"id": "a", "mode": mode}]}
    VALIDATOR.validate(spec)
    with Form.from_spec(spec) as form:
        assert form.mode == mode and form.state("a").mode == mode


def test_modes_groups_and_hints_are_accepted_by_both_and_exported_valid():
    VALIDATOR.validate(ISSUE_11_SPEC)
    with Form.from_spec(ISSUE_11_SPEC) as form:
        exported = form.to_spec()
        VALIDATOR.validate(exported)
    assert exported["mode"] == "on_touched" and exported["errors"] == "all"
    assert exported["fields"][0]["groups"] == ["account"] and exported["fields"][0]["mode"] == "on_blur"
    assert exported["fields"][0]["rules"][0] == {"rule": "required", "hint": "Type your email"}
    assert exported["fields"][1]["groups"] == ["account", "security"] and "mode" not in exported["fields"][1]


ASYNC_SPEC = {
    "formwell": 1,
    "fields": [
        {"id": "username", "label": "Username",
         "rules": [{"rule": "required"}, {"rule": "async", "name": "username_available"},
                   {"rule": "min_length", "length": 3}]},
        {"id": "confirm",
         "rules": [{"rule": "async", "name": "policy", "debounce_ms": 0, "message": "Too weak",
                    "hint": "Add a symbol"},
                   {"rule": "async", "name": "not_previous", "debounce_ms": 2147483647, "message": None,
                    "hint": None}]},
    ],
}


def test_async_rules_are_accepted_by_both_and_exported_valid():
    """The async rule object: name required, debounce_ms an integer 0 ... 2**31 - 1
    (absent: 500), message and hint; the library exports it with its debounce written out, after
    the field's synchronous rules."""
    VALIDATOR.validate(ASYNC_SPEC)
    with Form.from_spec(ASYNC_SPEC) as form:
        exported = form.to_spec()
        VALIDATOR.validate(exported)
    assert exported["fields"][0]["rules"] == [
        {"rule": "required"}, {"rule": "min_length", "length": 3},
        {"rule": "async", "name": "username_available", "debounce_ms": 500},
    ]
    assert exported["fields"][1]["rules"] == [
        {"rule": "async", "name": "policy", "debounce_ms": 0, "message": "Too weak", "hint": "Add a symbol"},
        {"rule": "async", "name": "not_previous", "debounce_ms": 2147483647},
    ]


def test_an_async_rule_made_in_python_exports_as_the_schema_says():
    from formwell import AsyncRule, Required

    with Form() as form:
        form.add_field("u", [AsyncRule("free", debounce=0.25, message="Taken", hint="Try another"), Required()])
        exported = form.to_spec()
    VALIDATOR.validate(exported)
    assert exported["fields"][0]["rules"] == [
        {"rule": "required"},
        {"rule": "async", "name": "free", "debounce_ms": 250, "message": "Taken", "hint": "Try another"},
    ]
