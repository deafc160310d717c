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
    ],
)
def test_shape_errors_are_refused_by_both(spec):
    assert not VALIDATOR.is_valid(spec)
    with pytest.raises(InvalidSpecError):
        Form.from_spec(spec)
