"""Normalisers and secret fields through the Python binding. Every expected value is
written out; the semantics are the engine's (Sources/Formwell/Form/Normalizer.swift)."""

import dataclasses
import pickle

import pytest

from formwell import (
    Email,
    FieldState,
    Form,
    InvalidArgumentError,
    Matches,
    MaxLength,
    Normalizer,
    Regex,
    Request,
    Required,
    UnknownFieldError,
    Validity,
)


def test_trim_makes_whitespace_only_fail_required_and_keeps_what_was_typed():
    form = Form()
    form.add_field("name", [Required()], normalize=[Normalizer.TRIM])
    form["name"] = "   "
    state = form.state("name")
    assert state.validity is Validity.INVALID
    assert state.message == "This field is required"
    assert state.value == "   "
    assert state.normalized_value == ""
    assert state.label_raised
    assert form["name"] == "   "
    assert form.values == {"name": ""}
    assert not form.is_valid


def test_rules_values_and_set_use_the_normalised_value():
    form = Form()
    form.add_field("email", [Email()], normalize=["trim", "lowercase"])
    form.add_field("phone", [Regex("^[0-9]{10}$")], normalize=[Normalizer.DIGITS_ONLY])
    state = form.set("email", "  Someone@Example.COM ")
    assert (state.value, state.normalized_value, state.validity) == ("  Someone@Example.COM ", "someone@example.com", Validity.VALID)
    form["phone"] = "(555) 123-4567"
    assert form.state("phone").validity is Validity.VALID
    assert form.values == {"email": "someone@example.com", "phone": "5551234567"}
    assert form.normalizers("email") == [Normalizer.TRIM, Normalizer.LOWERCASE]
    assert form.normalizers("phone") == ["digits_only"]  # a str enum: members equal their names
    assert [s.normalized_value for s in form.states()] == ["someone@example.com", "5551234567"]


def test_nfc_and_collapse_whitespace():
    form = Form()
    form.add_field("name", normalize=["collapse_whitespace", "trim", "nfc"])
    form["name"] = "  Jose\u0301   Garci\u0301a \n"
    assert form.state("name").normalized_value == "Jos\u00e9 Garc\u00eda"


def test_set_normalizers_rejudges_the_field_and_its_matches_dependents():
    form = Form()
    form.add_field("email", [Email()])
    form.add_field("confirm", [Matches("email")])
    form["email"] = "a@b.co"
    form["confirm"] = "  A@B.CO"
    form.touch("confirm")
    assert form.state("confirm").message == "Must match email"
    revision = form.revision
    form.set_normalizers("confirm", ["trim", "lowercase"])
    assert form.state("confirm").validity is Validity.VALID
    assert form.state("confirm").value == "  A@B.CO"
    assert form.changed_since(revision) == ["confirm"]
    form.set_normalizers("confirm", [])
    assert form.normalizers("confirm") == []
    assert form.state("confirm").normalized_value == "  A@B.CO"


def test_bad_normaliser_lists_are_refused_and_add_nothing():
    form = Form()
    with pytest.raises(InvalidArgumentError, match="unknown normaliser 'upper'"):
        form.add_field("a", normalize=["upper"])
    with pytest.raises(InvalidArgumentError, match="given twice"):
        form.add_field("a", normalize=["trim", "trim"])
    with pytest.raises(TypeError):
        form.add_field("a", normalize="trim")
    assert form.field_ids == []
    form.add_field("a")
    with pytest.raises(UnknownFieldError):
        form.set_normalizers("b", ["trim"])


def test_check_many_normalises_records():
    form = Form()
    form.add_field("email", [Required(), Email()], normalize=["trim", "lowercase"])
    form.add_field("code", [MaxLength(3)], normalize=["trim"])
    result = form.check_many([
        {"email": " A@B.CO ", "code": "  abc  "},
        {"email": "   ", "code": "abcd"},
    ])
    assert list(result.valid) == [True, False]
    assert result.errors(1) == {"email": "This field is required", "code": "Must be 3 characters or fewer"}


def test_secret_field_repr_masks_values_and_export_leaves_out_the_initial_value():
    form = Form()
    form.add_field("password", [Required()], initial="hunter22", secret=True)
    form.add_field("name", initial="Ann")
    state = form.state("password")
    assert state.secret and state.value == "hunter22" and state.initial == "hunter22"
    text = repr(state)
    assert "hunter22" not in text
    assert "value='***'" in text and "initial='***'" in text and "secret=True" in text
    assert "Ann" in repr(form.state("name"))
    spec = form.to_spec_json()
    assert "hunter22" not in spec
    assert form.to_spec()["fields"][0] == {"id": "password", "rules": [{"rule": "required"}], "secret": True}
    copy = pickle.loads(pickle.dumps(form))
    assert copy.state("password").secret
    assert copy.state("password").value == ""  # the initial value did not travel
    form.set_secret("password", False)
    assert "hunter22" in repr(form.state("password"))


def test_field_state_keeps_its_old_constructor_and_dataclass_view():
    built = FieldState(id="a", value=" x ", phase=None, validity=None, message="", display=None, display_message="",
                       touched=False)
    assert built.normalized_value == " x " and built.secret is False
    names = [field.name for field in dataclasses.fields(FieldState)]
    assert names[names.index("revision") + 1 :][:2] == ["normalized_value", "secret"]


def test_a_secret_fields_async_request_prints_masked():
    from formwell import AsyncRule

    form = Form(clock=lambda: 0)
    form.add_field("password", [AsyncRule("pwned", debounce=0)], secret=True)
    form.add_field("name", [AsyncRule("taken", debounce=0)])
    form["password"] = "hunter22"
    form["name"] = "ada"
    first, second = form.next_request(0), form.next_request(0)
    assert first.value == "hunter22" and first.field == "password"
    assert "hunter22" not in repr(first) and "value='***'" in repr(first)
    assert first == tuple(first) and isinstance(first, Request)
    assert "'ada'" in repr(second)
