"""Custom(callable): verdicts, exceptions re-raised from the triggering call, callback lifetime."""

import gc
import weakref

import pytest

import formwell
from formwell import BusyError, Custom, Form, Required, live_forms
from formwell.rules import live_custom_contexts

from conftest import expect


class Boom(Exception):
    pass


def test_return_values(form):
    answers = {"none": None, "true": True, "msg": "nope", "false": False}
    form.add_field("f", [Custom(lambda v: answers[v])])
    form.add_field("g", [Custom(lambda v: answers[v], message="rule says no")])
    for value, validity, message in [("none", "VALID", ""), ("true", "VALID", ""),
                                     ("msg", "INVALID", "nope"), ("false", "INVALID", "Invalid value")]:
        form["f"] = value
        expect(form, "f", "INACTIVE", validity, message)
    form["g"] = "false"
    expect(form, "g", "INACTIVE", "INVALID", "rule says no")


def test_custom_is_not_run_on_empty_values(form):
    calls = []
    form.add_field("f", [Required(), Custom(lambda v: calls.append(v))])
    form.focus("f")
    form.blur("f")
    form.validate()
    assert calls == []
    expect(form, "f", "INACTIVE", "INVALID", "This field is required", "ERROR", "This field is required")


@pytest.mark.parametrize("trigger", ["set_value", "blur", "touch", "touch_all", "validate", "focus", "reset"])
def test_exception_re_raises_from_the_triggering_call_and_leaves_the_form_unchanged(trigger):
    armed = {"on": False}

    def validator(value):
        if armed["on"]:
            raise Boom(f"cannot judge {value!r}")
        return None if value == "good" else "bad"

    with Form() as form:
        form.add_field("f", [Custom(validator)], initial="good")
        form.focus("f")
        form["f"] = "worse"
        before = form.state("f")
        armed["on"] = True
        action = {
            "set_value": lambda: form.set_value("f", "other"),
            "blur": lambda: form.blur("f"),
            "touch": lambda: form.touch("f"),
            "touch_all": form.touch_all,
            "validate": form.validate,
            "focus": lambda: form.focus("f"),
            "reset": form.reset,
        }[trigger]
        with pytest.raises(Boom, match="cannot judge") as caught:
            action()
        error = caught.value
        # Chained to the library's report, and the traceback reaches into the validator.
        assert isinstance(error.__context__, formwell.CallbackError)
        assert error.__context__.code == 8
        assert "validator" in [frame.name for frame in caught.traceback]
        assert form.state("f") == before  # the form is unchanged
        armed["on"] = False
        form["f"] = "good"  # and usable afterwards
        expect(form, "f", "FOCUSED", "VALID")


def test_validate_returns_a_result_after_a_failed_validate(form):
    fail = [True]

    def validator(value):
        if fail[0]:
            raise KeyError("lookup failed")

    form.add_field("f", [Custom(validator)])
    fail[0] = False
    form["f"] = "x"
    fail[0] = True
    with pytest.raises(KeyError, match="lookup failed"):
        form.validate()
    assert form.state("f").touched is False
    fail[0] = False
    assert form.validate() is True


def test_exception_keeps_its_own_cause(form):
    def validator(value):
        try:
            {}["missing"]
        except KeyError as inner:
            raise ValueError("wrapped") from inner

    form.add_field("f", [Custom(validator)])
    with pytest.raises(ValueError, match="wrapped") as caught:
        form["f"] = "x"
    assert isinstance(caught.value.__cause__, KeyError)


def test_base_exceptions_propagate_too(form):
    def validator(value):
        raise KeyboardInterrupt

    form.add_field("f", [Custom(validator)])
    with pytest.raises(KeyboardInterrupt):
        form["f"] = "x"


def test_bad_return_type_raises_type_error(form):
    form.add_field("f", [Custom(lambda v: 42)])
    with pytest.raises(TypeError, match="not int"):
        form["f"] = "x"
    assert form["f"] == ""


def test_bad_message_raises(form):
    form.add_field("nul", [Custom(lambda v: "a\0b")])
    form.add_field("surrogate", [Custom(lambda v: "bad \ud800")])
    with pytest.raises(ValueError, match="NUL"):
        form["nul"] = "x"
    with pytest.raises(UnicodeEncodeError):
        form["surrogate"] = "x"


def test_exception_on_initial_value_while_adding(form):
    before = live_custom_contexts()
    with pytest.raises(Boom):
        form.add_field("f", [Custom(lambda v: (_ for _ in ()).throw(Boom("initial")))], initial="x")
    # add_field is all or nothing: neither the field nor the rule was kept.
    assert "f" not in form and len(form) == 0
    assert live_custom_contexts() == before


def test_gc_between_registering_and_triggering():
    with Form() as form:
        def make_rule():
            local_state = {"bad": "forbidden"}
            return Custom(lambda v: "no" if v == local_state["bad"] else None)

        form.add_field("f", [make_rule()])  # no reference to the rule or the lambda is kept here
        gc.collect()
        gc.collect()
        form["f"] = "forbidden"
        expect(form, "f", "INACTIVE", "INVALID", "no")
        gc.collect()
        form["f"] = "fine"
        expect(form, "f", "INACTIVE", "VALID")


def test_callable_is_released_when_the_form_closes():
    class Validator:
        def __call__(self, value):
            return None

    validator = Validator()
    ref = weakref.ref(validator)
    before = live_custom_contexts()
    form = Form()
    form.add_field("f", [Custom(validator)])
    del validator
    gc.collect()
    assert ref() is not None  # kept alive by the rule
    assert live_custom_contexts() == before + 1
    form.close()
    gc.collect()
    assert ref() is None
    assert live_custom_contexts() == before


def test_same_rule_on_two_forms():
    rule = Custom(lambda v: None if v.isdigit() else "digits only")
    with Form() as a, Form() as b:
        a.add_field("x", [rule])
        b.add_field("y", [rule])
        a["x"] = "12"
        b["y"] = "ab"
        assert a.state("x").validity is formwell.Validity.VALID
        assert b.state("y").message == "digits only"


def test_busy_inside_validator_can_be_caught_there(form):
    outcomes = []

    def validator(value):
        try:
            form.focus("other")
        except BusyError as error:
            outcomes.append(error.code)
        return None

    form.add_field("other")
    form.add_field("f", [Custom(validator)])
    form["f"] = "x"
    assert outcomes == [11]
    expect(form, "f", "INACTIVE", "VALID")


def test_close_inside_own_validator_is_busy_and_keeps_the_form_open():
    outcomes = []
    before = live_forms()
    form = Form()

    def validator(value):
        try:
            form.close()
        except BusyError as error:
            outcomes.append(error.code)
        return None

    form.add_field("f", [Custom(validator)])
    form["f"] = "x"
    assert outcomes == [11]
    assert not form.closed
    expect(form, "f", "INACTIVE", "VALID")
    assert live_forms() == before + 1
    form.close()
    assert form.closed
    assert live_forms() == before


def test_validator_may_use_another_form(form):
    with Form() as directory:
        directory.add_field("taken", initial="ada")

        def unique(value):
            return "That username is already taken" if value == directory["taken"] else None

        form.add_field("username", [Custom(unique)])
        form["username"] = "ada"
        assert form.state("username").message == "That username is already taken"
