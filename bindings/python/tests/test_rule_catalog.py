"""The catalogue's rule classes (generated from the library's table by scripts/gen_rules.py) and
rule sets: native constructors, values checked in Python, behaviour through the library."""
import decimal
import json
import subprocess
import sys

import pytest

import formwell
from formwell import (Decimal, E164, Form, HtmlEmail, Integer, InvalidArgumentError, InvalidSpecError, MaxLength,
                      MinLength, NoneOf, NotEqual, OneOf, PasswordStrength, Required, RequiredIf, RequiredWith,
                      RequiredWithout, RuleSet, Url)

from conftest import REPO_ROOT

WEAK = "Password too weak \u2014 add uppercase, numbers, or symbols"


def verdict(rules, value):
    with Form() as form:
        form.add_field("f", rules)
        form["f"] = value
        return form.state("f").message or "valid"


def test_the_generated_module_matches_the_loaded_library():
    import ctypes

    needed = ctypes.c_size_t()
    formwell._native.lib.fw_rule_catalog(None, 0, ctypes.byref(needed))
    buf = ctypes.create_string_buffer(needed.value + 1)
    assert formwell._native.lib.fw_rule_catalog(buf, len(buf), None) == 0
    assert json.loads(buf.value.decode()) == formwell.RULE_CATALOG
    names = {kind["name"] for kind in formwell.RULE_CATALOG["kinds"]}
    assert {"url", "password_strength", "required_if", "one_of"} <= names
    assert formwell._native.FW_RULE_URL == 9 and Url.C_VALUE == 9


def test_constructors_feel_native():
    assert verdict([Url(schemes=["https"])], "http://example.com") == "Enter a valid URL including https://"
    assert verdict([Url()], "https://example.com") == "valid"
    assert verdict([PasswordStrength(min_score=3)], "abcdef1!") == "valid"
    assert verdict([PasswordStrength()], "abcdefgh") == WEAK
    assert verdict([PasswordStrength(min_score=4)], "abcdef1!") == WEAK
    assert verdict([Integer(min=1, max=10)], "11") == "Enter a whole number from 1 to 10"
    assert verdict([Decimal(min=decimal.Decimal("0.1"), max="0.3")], "0.30000000000000000001") == "Enter a number from 0.1 to 0.3"
    assert verdict([Decimal(min=0.1)], "0.1") == "valid"
    assert verdict([OneOf(["S", "M"])], "L") == "Must be one of: S, M"
    assert verdict([NoneOf(("admin",))], "admin") == "This value is not allowed"
    assert verdict([HtmlEmail()], "a@b") == "valid"
    assert verdict([E164()], "+14155552671") == "valid"
    assert verdict([MinLength(8, unit="utf16")], "\U0001F44D" * 4) == "valid"
    assert verdict([MaxLength(4, unit="bytes")], "K\u00f6ln") == "Must be 4 bytes or fewer"
    assert verdict([MinLength(3, "Too short")], "ab") == "Too short"  # message stays the second positional


def test_values_are_checked_in_python_and_rules_are_immutable_values():
    with pytest.raises(TypeError):
        MinLength("8")
    with pytest.raises(InvalidArgumentError):
        MinLength(-1)
    with pytest.raises(ValueError):
        MinLength(8, unit="words")
    with pytest.raises(TypeError):
        OneOf("abc")
    with pytest.raises(TypeError):
        Integer(min=True)
    rule = Url(schemes=["https"])
    with pytest.raises(AttributeError):
        rule.schemes = ["http"]
    assert rule == Url(schemes=("https",)) and hash(rule) == hash(Url(schemes=["https"]))
    assert rule != Url()
    assert repr(RequiredIf("country", "US", message="State?")) == "RequiredIf(field='country', value='US', message='State?')"
    assert MinLength(8, unit="utf16").to_spec() == {"rule": "min_length", "length": 8, "unit": "utf16"}
    assert Integer(min=decimal.Decimal("1E+2")).to_spec() == {"rule": "integer", "min": "100"}


def test_the_library_refuses_what_python_cannot_know():
    with Form() as form:
        with pytest.raises(InvalidArgumentError, match="min 5 is greater than max 1"):
            form.add_field("n", [Integer(min=5, max=1)])
        with pytest.raises(formwell.UnknownFieldError):
            form.add_field("n", [NotEqual("ghost")])
        with pytest.raises(InvalidSpecError, match="not a decimal number"):
            form.add_field("n", [Decimal(min="1e3")])
        assert form.field_ids == []


def test_conditional_rules_follow_the_named_field():
    with Form() as form:
        form.add_field("country")
        form.add_field("state", [RequiredIf("country", "US")])
        form.add_field("street")
        form.add_field("city", [RequiredWith("street")])
        form.add_field("email")
        form.add_field("phone", [RequiredWithout("email", message="Email or phone")])
        assert form.validate() is False
        assert form.first_invalid == "phone"
        form["email"] = "a@b.co"
        assert form.validate() is True
        form["country"] = "US"
        state = form.state("state")
        assert (state.validity, state.message, state.failing_rule) == (formwell.Validity.INVALID, "This field is required", 0)
        form["country"] = "FR"
        assert form.state("state").phase == formwell.Phase.IDLE
        result = form.check_many([{"country": "US"}, {"street": "x", "email": "e"}, {"email": "", "phone": ""}])
        assert [result.errors(i) for i in range(3)] == [
            # A record's missing fields hold their initial values: no email in the first one either.
            {"state": "This field is required", "phone": "Email or phone"}, {"city": "This field is required"},
            {"phone": "Email or phone"}]


def test_rule_sets_are_defined_on_the_form_and_exported_as_references():
    password = RuleSet("password", [Required(), MinLength(8), PasswordStrength()])
    with Form() as form:
        form.add_field("password", [password])
        form.add_field("old", [password, NotEqual("password", message="Choose a new one")])
        form["password"] = "abcdefgh"
        assert form.state("password").message == WEAK
        assert form.state("password").failing_rule == 2
        spec = form.to_spec()
        assert spec["rule_sets"] == {"password": [{"rule": "required"}, {"rule": "min_length", "length": 8},
                                                  {"rule": "password_strength"}]}
        assert spec["fields"][1]["rules"] == [{"rule": "set", "name": "password"},
                                              {"rule": "not_equal", "field": "password", "message": "Choose a new one"}]
        with Form.from_spec(spec) as again:
            assert again.to_spec() == spec
    with pytest.raises(TypeError):
        RuleSet("x", [formwell.Custom(lambda v: None)])


def test_the_registration_example_accepts_seed_03_strength():
    with Form.from_spec(f"{REPO_ROOT}/examples/registration.json") as form:
        values = {"name": "Ada", "email": "ada@example.com", "username": "ada_l", "password": "abcdef1!",
                  "confirm": "abcdef1!"}
        assert form.check_many([values]).errors(0) == {}
        weak = dict(values, password="abcdefgh", confirm="abcdefgh")
        assert form.check_many([weak]).errors(0) == {"password": WEAK}


def test_import_stays_fast():
    """The catalogue is a generated module: importing formwell reads no JSON from the library."""
    code = "import time; t = time.perf_counter(); import formwell; print(time.perf_counter() - t)"
    seconds = min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
                  for _ in range(3))
    assert seconds < 0.5
