"""Form specs from Python: dict / JSON text / path, errors with JSON paths, export round trips."""

import gc
import json

import pytest

import formwell
from formwell import Custom, Form, InvalidArgumentError, InvalidSpecError, MinLength, Required

from conftest import REPO_ROOT, expect

LOGIN = {
    "formwell": 1,
    "fields": [
        {"id": "email", "label": "Email", "rules": [{"rule": "required"}, {"rule": "email"}]},
        {"id": "password", "rules": [{"rule": "required"}, {"rule": "min_length", "length": 8}]},
    ],
}


def test_from_dict_text_and_path_give_the_same_form(tmp_path):
    path = tmp_path / "login.json"
    path.write_text(json.dumps(LOGIN))
    forms = [Form.from_spec(LOGIN), Form.from_spec(json.dumps(LOGIN)), Form.from_spec(path), Form.from_spec(str(path))]
    try:
        exported = {f.to_spec_json() for f in forms}
        assert len(exported) == 1
        for f in forms:
            assert f.field_ids == ["email", "password"]
            f.focus("email")
            f["email"] = "ada@"
            expect(f, "email", "FOCUSED", "INVALID", "Invalid email format")
    finally:
        for f in forms:
            f.close()


def test_the_repository_examples_load():
    for name in ("login", "registration", "profile"):
        with Form.from_spec(f"{REPO_ROOT}/examples/{name}.json") as f:
            assert len(f) >= 2


def test_profile_initial_values_come_from_the_spec():
    with Form.from_spec(f"{REPO_ROOT}/examples/profile.json") as f:
        assert f.values["displayName"] == "Ada Lovelace"
        assert f.is_valid
        f["website"] = "example.org"
        f.blur("website")
        assert f.state("website").error == "Enter a valid URL including https://"
        f.reset()
        assert f["website"] == "https://example.org/ada"


def test_a_bad_spec_names_the_path_and_loads_nothing():
    spec = {"formwell": 1, "fields": [{"id": "a"}, {"id": "b"}, {"id": "c", "rules": [{"rule": "regex", "pattern": "(ab"}]}]}
    with pytest.raises(InvalidSpecError) as raised:
        Form.from_spec(spec)
    assert raised.value.code == 12
    assert raised.value.detail == "fields[2].rules[0].pattern: missing closing parenthesis at offset 3"
    assert raised.value.offset == 3
    with Form() as f:
        f.add_field("kept", [Required()])
        with pytest.raises(InvalidSpecError):
            f.load_spec(spec)
        assert f.field_ids == ["kept"]


@pytest.mark.parametrize(
    "spec, detail",
    [
        ({"formwell": 2, "fields": []}, "formwell: unsupported spec version 2 (this library reads 1)"),
        ({"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "email", "mesage": "x"}]}]},
         "fields[0].rules[0].mesage: unknown key (expected one of: hint, message, rule)"),
        ({"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "custom", "name": "nope"}]}]},
         "fields[0].rules[0].name: no validator named 'nope' is defined"),
    ],
)
def test_spec_errors(spec, detail):
    with pytest.raises(InvalidSpecError) as raised:
        Form.from_spec(spec)
    assert raised.value.detail == detail


def test_named_validators_and_round_trip():
    spec = {"formwell": 1, "fields": [{"id": "phone", "rules": [{"rule": "custom", "name": "plus", "message": None}]}]}
    plus = {"plus": lambda v: None if v.startswith("+") else "Number must start with '+'"}
    with Form.from_spec(spec, validators=plus) as f:
        f["phone"] = "0123"
        expect(f, "phone", "INACTIVE", "INVALID", "Number must start with '+'")
        exported = f.to_spec()
        assert exported == {"formwell": 1, "fields": [{"id": "phone", "rules": [{"rule": "custom", "name": "plus"}]}]}
        with Form.from_spec(exported, validators=plus) as again:
            assert again.to_spec_json() == f.to_spec_json()


def test_an_exception_in_a_named_validator_propagates():
    def broken(value):
        raise LookupError("directory offline")

    with Form.from_spec({"formwell": 1, "fields": [{"id": "u", "rules": [{"rule": "custom", "name": "b"}]}]},
                        validators={"b": broken}) as f:
        with pytest.raises(LookupError, match="directory offline"):
            f["u"] = "ada"
        assert f["u"] == ""


def test_an_anonymous_custom_rule_cannot_be_exported():
    with Form() as f:
        f.add_field("a", [MinLength(2), Custom(lambda v: None)])
        with pytest.raises(InvalidArgumentError):
            f.to_spec()


def test_a_spec_of_the_wrong_type_is_a_type_error():
    gc.collect()  # (forms that earlier tests left in reference cycles: Python 3.13 frees them later)
    assert formwell.live_forms() == 0
    with pytest.raises(TypeError):
        Form.from_spec(42)
    assert formwell.live_forms() == 0
