"""Form.state / states / set read whole snapshots in one library call; they must say exactly what
the per-property functions say (read here straight from the library, one property per call)."""

import ctypes
import dataclasses
import gc
import json
import os
import pickle
import random
import re
import sys
import threading
import weakref

import pytest

import formwell
from formwell import (
    BusyError,
    Custom,
    Display,
    Email,
    FieldState,
    Form,
    Matches,
    MaxLength,
    MinLength,
    Mode,
    Phase,
    Regex,
    Required,
    UnknownFieldError,
    Validity,
    _native,
)
from formwell._native import lib

_MEMBER_NAMES = [member.name for member in dataclasses.fields(FieldState)]

from test_conformance import VECTORS, apply, error_class, vector_form
from test_seed_forms import login_form, profile_form, registration_form


def read_string(call):
    size = 16
    while True:
        buf = ctypes.create_string_buffer(size)
        length = ctypes.c_size_t(0)
        status = call(buf, size, ctypes.byref(length))
        if status == _native.FW_ERR_BUFFER_TOO_SMALL:
            size = length.value + 1
            continue
        _native.check(status)
        return buf.raw[: length.value].decode("utf-8")


def old_state(form, field_id):
    """The state as eight per-property calls by id (what Form.state did before snapshots)."""
    handle, fid = form._h, field_id.encode("utf-8")
    phase, validity, display = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    touched, exceeded = ctypes.c_bool(), ctypes.c_bool()
    _native.check(lib.fw_field_phase(handle, fid, ctypes.byref(phase)))
    _native.check(lib.fw_field_validity(handle, fid, ctypes.byref(validity)))
    _native.check(lib.fw_field_display(handle, fid, ctypes.byref(display)))
    _native.check(lib.fw_field_touched(handle, fid, ctypes.byref(touched)))
    _native.check(lib.fw_field_limit_exceeded(handle, fid, ctypes.byref(exceeded)))
    return {
        "id": field_id,
        "value": read_string(lambda b, s, n: lib.fw_field_value(handle, fid, b, s, n)),
        "phase": Phase(phase.value),
        "validity": Validity(validity.value),
        "message": read_string(lambda b, s, n: lib.fw_field_message(handle, fid, b, s, n)),
        "display": Display(display.value),
        "display_message": read_string(lambda b, s, n: lib.fw_field_display_message(handle, fid, b, s, n)),
        "touched": touched.value,
        "limit_exceeded": exceeded.value,
    }


def check_form(form, where=""):
    """state(id) of every field equals the per-property reads; states() equals the state() list."""
    ids = form.field_ids
    states = form.states()
    assert [s.id for s in states] == ids, where
    for index, field_id in enumerate(ids):
        state = form.state(field_id)
        got = {name: getattr(state, name) for name in old_state(form, field_id)}
        assert got == old_state(form, field_id), f"{where}: {field_id}"
        assert state.index == index, where
        # An external error (set_error) is an invalid verdict that comes from no rule.
        assert (state.failing_rule is None) == (state.validity is not Validity.INVALID or state.external_error), \
            f"{where}: {state}"
        if state.validity is Validity.INVALID:  # errors: the validity's messages, message first
            assert state.errors[0] == state.message, f"{where}: {state}"
        else:
            assert state.errors == [], f"{where}: {state}"
        assert state.error == (state.display_message if state.display is Display.ERROR else None)
        assert states[index] == state, f"{where}: states()[{index}]"


# ---- state() and states() against the per-property reads ----


@pytest.mark.parametrize("path", VECTORS, ids=os.path.basename)
def test_state_equals_per_property_reads_over_the_conformance_vectors(path):
    with open(path, encoding="utf-8") as file:
        vector = json.load(file)
    with vector_form(vector["spec"]) as form:
        check_form(form, "initial")
        for number, step in enumerate(vector["steps"]):
            if "error" in step:  # a step that must fail (and change nothing)
                with pytest.raises(error_class(step["error"])):
                    apply(form, step, f"step {number}")
            else:
                apply(form, step, f"step {number}")
            check_form(form, f"step {number} {step}")


VALUES = ["", "a", "ada", "ada@", "ada@example", "ada@example.com", "Passw0rd!", "password", "Passw0rd",
          "x" * 60, "https://example.com", "example.com", "日本語", "e\u0301", "user_1", "UPPER", "😀" * 30,
          "a" * 300]


@pytest.mark.parametrize("make", [login_form, registration_form, profile_form])
def test_state_equals_per_property_reads_over_random_events(make):
    rnd = random.Random(make.__name__)
    with make() as form:
        ids = form.field_ids
        check_form(form, "initial")
        for number in range(300):
            event = rnd.choice(["focus", "type", "type", "type", "blur", "touch", "set", "touch_all",
                                "validate", "reset"])
            field_id = rnd.choice(ids)
            value = rnd.choice(VALUES)
            if event == "focus":
                form.focus(field_id)
            elif event == "type":
                form[field_id] = value
            elif event == "set":
                state = form.set(field_id, value)
                assert state == form.state(field_id) and state.value == value
            elif event == "blur":
                form.blur(field_id)
            elif event == "touch":
                form.touch(field_id)
            elif event == "touch_all":
                form.touch_all()
            elif event == "validate":
                form.validate()
            else:
                form.reset()
            check_form(form, f"event {number}: {event} {field_id} {value!r}")


def test_failing_rule_is_the_position_of_the_failing_rule(form):
    form.add_field("u", [Required(), MinLength(3), Regex("[a-z]+"), Custom(lambda v: "taken" if v == "ada" else None)])
    form.focus("u")
    assert form.state("u").failing_rule is None  # focused, empty: nothing failing
    for value, rule, message in [("ab", 1, "Must be at least 3 characters"), ("ABC", 2, "Invalid format"),
                                 ("ada", 3, "taken"), ("bob", None, "")]:
        state = form.set("u", value)
        assert (state.failing_rule, state.message) == (rule, message)
    form["u"] = ""
    form.blur("u")
    assert form.state("u").failing_rule == 0 and form.state("u").message == "This field is required"


def test_index_and_ids(form):
    form.add_field("a")
    form.add_field("\u00e9")  # precomposed
    assert form.state("a").index == 0
    assert form.state("\u00e9").index == 1
    assert form.state("e\u0301").index == 1  # the same field, spelled decomposed
    assert form.state("e\u0301").id == "e\u0301"  # state() keeps the caller's spelling
    assert [s.id for s in form.states()] == ["a", "\u00e9"]  # states() gives the registered ids
    with pytest.raises(UnknownFieldError) as caught:
        form.state("b")
    assert caught.value.detail == "no field with id 'b'"
    form.add_field("b")  # an id unknown before is found once added
    assert form.state("b").index == 2
    assert "b" in form and "c" not in form


def test_states_of_an_empty_form_and_many_fields(form):
    assert form.states() == [] and form.values == {}
    for i in range(40):  # more fields than the first capacity, long texts past the first buffer
        form.add_field(f"f{i}", [MaxLength(1, message="m" * 50)], initial="v" * i)
    states = form.states()
    assert [s.id for s in states] == [f"f{i}" for i in range(40)]
    assert [s.value for s in states] == ["v" * i for i in range(40)]
    form.touch_all()
    states = form.states()
    assert all(s.display_message == "m" * 50 for s in states[2:]) and states[1].error is None
    assert states == [form.state(f"f{i}") for i in range(40)]
    assert form.values == {f"f{i}": "v" * i for i in range(40)}


def test_states_with_a_huge_value(form):
    form.add_field("small", initial="s")
    form.add_field("huge", [MinLength(3_000_000)])
    form.focus("huge")
    for size in (2_000_000, 10, 2_000_001):
        form["huge"] = "h" * size
        for _ in range(2):
            states = form.states()
            assert [s.value for s in states] == ["s", "h" * size]
            assert states[1].message == "Must be at least 3000000 characters"
        assert form._states_sizes[1] <= 1024 * 1024  # the size hint kept for later calls is capped


def test_long_texts_grow_the_buffers(form):
    form.add_field("long", [MaxLength(3, message="é" * 700), Custom(lambda v: "c" * 5000)])
    form.focus("long")
    for size in (2, 10, 255, 256, 257, 1000, 70_000, 10, 2):
        value = "🙂" * size
        state = form.set("long", value)  # the update's texts may not fit: read again, bigger
        assert state.value == value
        assert state.message == ("é" * 700 if size > 3 else "c" * 5000)
        assert form.state("long") == state
        assert form[("long")] == value
    assert all(len(scratch[2]) <= 64 * 1024 for scratch in form._pool)  # huge buffers are not kept
    form.add_field("plain")
    for size in (100_000, 300, 20_000, 100_000):  # the texts fit the buffer made for the value
        value = "v" * size
        assert form.set("plain", value).value == value and form["plain"] == value
        assert all(len(scratch[2]) <= 64 * 1024 for scratch in form._pool)


def test_set_returns_the_new_state_and_set_value_returns_nothing(form):
    form.add_field("password", [Required(), MinLength(8)])
    form.add_field("confirm", [Matches("password")])
    form.focus("confirm")
    assert form.set("confirm", "secret12").message == "Must match password"
    assert form.set_value("password", "secret12") is None
    assert form.state("confirm").validity is Validity.VALID  # re-checked when password changed
    state = form.set("password", "short")
    assert (state.phase, state.validity, state.message) == (Phase.INACTIVE, Validity.INVALID,
                                                          "Must be at least 8 characters")
    assert form.state("confirm").message == "Must match password"


def test_set_errors_leave_the_form_unchanged(form):
    armed = [False]

    def validator(value):
        if armed[0]:
            raise LookupError("no verdict")

    form.add_field("f", [Custom(validator)], initial="x")
    before = form.state("f")
    armed[0] = True
    with pytest.raises(LookupError):
        form.set("f", "y")
    assert form.state("f") == before
    with pytest.raises(UnknownFieldError):
        form.set("nope", "y")
    with pytest.raises(TypeError):
        form.set("f", 3)
    with pytest.raises(ValueError):
        form.set("f", "a\0b")
    assert form.state("f") == before


def test_a_validator_reading_its_own_form_gets_busy_not_a_deadlock(form):
    seen = []

    def validator(value):
        for call in (lambda: form.state("f"), lambda: form.set("g", "x"), lambda: form.states()):
            try:
                call()
            except BusyError:
                seen.append("busy")
        return None

    form.add_field("g")
    form.add_field("f", [Custom(validator)])
    assert form.set("f", "v").validity is Validity.VALID
    form["f"] = "w"
    assert seen == ["busy"] * 6
    assert form.state("f").value == "w"


def test_a_validator_may_read_another_form(form):
    with Form() as other:
        other.add_field("taken", initial="ada")
        form.add_field("user", [Custom(lambda v: "taken" if other.state("taken").value == v else None)])
        assert form.set("user", "ada").message == "taken"
        assert form.set("user", "bob").validity is Validity.VALID


def test_closed_form(form):
    form.add_field("a")
    form.state("a")
    form.close()
    for call in (lambda: form.state("a"), lambda: form.set("a", "x"), lambda: form.states(),
                 lambda: form.match_limits, lambda: form.set_value("a", "x"), lambda: "a" in form):
        with pytest.raises(formwell.InvalidHandleError):
            call()


# ---- FieldState ----


def test_field_state_is_a_frozen_value(form):
    form.add_field("a", [Required()])
    form.blur("a")
    state = form.state("a")
    assert isinstance(state, FieldState)
    with pytest.raises(AttributeError):
        state.value = "x"
    with pytest.raises(AttributeError):
        state.other = 1
    assert state == form.state("a") and hash(state) == hash(form.state("a"))
    plain = tuple(getattr(state, member.name) for member in dataclasses.fields(state))
    assert state != plain and plain != state and not state == plain
    assert {state, form.state("a")} == {state}
    assert repr(state) == (
        "FieldState(id='a', value='', phase=<Phase.INACTIVE: 2>, validity=<Validity.INVALID: 2>, "
        "message='This field is required', display=<Display.ERROR: 2>, "
        "display_message='This field is required', touched=True, limit_exceeded=False, "
        "failing_rule=0, index=0, visited=False, dirty=False, initial='', modified_since_submit=False, "
        "external_error=False, errors=['This field is required'], mode=<Mode.TWO_STAGE: 'two_stage'>, "
        f"tint=<Tint.ERROR: 2>, label_raised=True, emphasized=False, label='a', accessibility_hint='Enter a value', "
        f"revision={state.revision}, normalized_value='', secret=False, code='required')"
    )
    assert state.error == "This field is required"
    assert pickle.loads(pickle.dumps(state)) == state
    with pytest.raises(TypeError):
        state < state  # noqa: B015 - unordered, as the dataclass was
    assert form.set("a", "x") != state


def test_a_state_built_from_its_members_equals_the_library_one():
    """A state holds the library's members and bytes and works members out when read: one built
    from the same members by the constructor is equal (and hashes alike), whether or not either has
    decoded its texts yet, for valid, invalid, shown and error-mode-all states."""
    form = Form(errors="all")
    form.add_field("a", [Required(), MinLength(3), Regex("[a-z]+", message="lowercase only")], label="Ay")
    form.add_field("b", [Matches("a")], initial="é́")
    form.set_error("b", "taken")
    for value in ("", "É1", "ok", "fine"):
        form["a"] = value
        form.blur("a")
        for field in ("a", "b"):
            state, fresh = form.state(field), form.state(field)
            rebuilt = FieldState(**state._members())
            assert rebuilt == state and hash(rebuilt) == hash(state), (field, value)
            assert state.value == form.value(field)  # state's texts decoded, fresh's not
            assert fresh == state and hash(fresh) == hash(state)
            assert [getattr(rebuilt, name) for name in _MEMBER_NAMES] == [getattr(fresh, name) for name in _MEMBER_NAMES]
            assert pickle.loads(pickle.dumps(fresh)) == state
    invalid = form.state("a")._replace(value="x")
    assert invalid.value == "x" and invalid != form.state("a")


def test_field_state_texts_are_checked():
    """The constructor keeps its texts as the library copies them (NUL-separated UTF-8): a text
    must be a str without NUL characters."""
    base = dict(id="a", value="v", phase=None, validity=None, message="", display=None, display_message="",
                touched=False)
    with pytest.raises(ValueError):
        FieldState(**{**base, "value": "a\0b"})
    with pytest.raises(TypeError):
        FieldState(**{**base, "message": None})
    with pytest.raises(TypeError):
        FieldState(**base, errors="not a list")
    built = FieldState(**base, errors=["e1", "e2"], error_codes=("c1", "c2"), mode="on_blur")
    assert built.errors == ["e1", "e2"] and built.error_codes == ("c1", "c2") and built.mode is Mode.ON_BLUR
    assert built.phase is None and built.validity is None and built.failing_rule is None


def test_field_state_works_with_the_dataclasses_module(form):
    form.add_field("a", initial="v")
    state = form.state("a")
    assert dataclasses.is_dataclass(state)
    assert [f.name for f in dataclasses.fields(state)] == [
        "id", "value", "phase", "validity", "message", "display", "display_message", "touched",
        "limit_exceeded", "failing_rule", "index",
        "visited", "dirty", "initial", "modified_since_submit", "external_error", "errors", "mode", "tint",
        "label_raised", "emphasized", "label", "accessibility_hint", "revision", "normalized_value", "secret",
        "code", "params", "display_code", "display_params", "error_codes"]
    assert [f.name for f in dataclasses.fields(state) if not f.repr] == [
        "params", "display_code", "display_params", "error_codes"]  # repr() shows the code only
    assert dataclasses.asdict(state)["value"] == "v"
    changed = dataclasses.replace(state, value="w")
    assert isinstance(changed, FieldState) and changed.value == "w" and changed.id == "a"
    assert state._replace(touched=True).touched is True
    # A keyword constructor with only the first members works; the others default.
    built = FieldState(id="a", value="v", phase=Phase.IDLE, validity=Validity.EMPTY, message="",
                       display=Display.NONE, display_message="", touched=False)
    assert (built.limit_exceeded, built.failing_rule, built.index) == (False, None, None)
    # ... and so do the members from visited on (the label falls back to the id).
    assert (built.visited, built.dirty, built.initial, built.errors, built.mode, built.tint, built.label,
            built.revision) == (False, False, "", [], formwell.Mode.TWO_STAGE, formwell.Tint.NEUTRAL, "a", 0)
    # A state read from a form: idle with a value, so its label is raised; "v" is its initial value.
    assert (state.label_raised, state.initial, state.label) == (True, "v", "a")
    assert built == dataclasses.replace(state, index=None, initial="", label_raised=False, revision=0)


# ---- match limits ----


def test_match_limits_round_trip(form):
    defaults = form.match_limits
    assert defaults == (1_000_000, 100_000, 16_384)
    assert isinstance(defaults, formwell.MatchLimits) and defaults.heap_limit_kib == 16_384
    form.set_match_limits(5000, 600, 700)
    assert form.match_limits == formwell.MatchLimits(5000, 600, 700)
    form.set_match_limits(depth_limit=900)  # the others keep their values
    assert form.match_limits == (5000, 900, 700)
    form.set_match_limits(heap_limit_kib=2**32 - 1)
    assert form.match_limits == (5000, 900, 2**32 - 1)
    form.set_match_limits()
    assert form.match_limits == (5000, 900, 2**32 - 1)
    form.set_match_limits(*defaults)
    assert form.match_limits == defaults
    with pytest.raises(formwell.InvalidArgumentError):
        form.set_match_limits(depth_limit=0)
    with pytest.raises(formwell.InvalidArgumentError):
        form.set_match_limits(match_limit=2**32)
    with pytest.raises(TypeError):
        form.set_match_limits(match_limit=1.5)
    assert form.match_limits == defaults  # refused: nothing changed


def test_match_limits_are_per_form():
    with Form() as a, Form() as b:
        a.set_match_limits(match_limit=10)
        assert b.match_limits.match_limit == 1_000_000


# ---- add_field is one atomic call ----


class Boom(Exception):
    pass


def snapshot_of(form):
    return (form.field_ids, form.states(), form.is_valid, form.first_invalid)


def raising_on_initial(value):
    raise Boom(f"cannot judge {value!r}")


@pytest.mark.parametrize("rules, error", [
    ([Required(), Custom(raising_on_initial)], Boom),
    ([Custom(lambda v: None), Regex("[a-z")], formwell.PatternError),
    ([Custom(lambda v: None), Matches("nowhere")], UnknownFieldError),
    ([Custom(lambda v: None), MinLength(5), MaxLength(2)], formwell.InvalidArgumentError),
    ([Custom(lambda v: None), Matches("new")], formwell.InvalidArgumentError),  # matches itself
    ([Custom(lambda v: None), Custom(lambda v: 42)], TypeError),  # a bad verdict on the initial value
])
def test_a_refused_add_field_leaves_the_form_unchanged_and_releases_custom_rules(rules, error):
    with Form() as form:
        form.add_field("old", [Required(), Custom(lambda v: None)], initial="kept")
        form.focus("old")
        before = snapshot_of(form)
        forms, contexts = formwell.live_forms(), formwell.rules.live_custom_contexts()
        with pytest.raises(error):
            form.add_field("new", rules, label="New", initial="initial")
        assert snapshot_of(form) == before
        assert "new" not in form and len(form) == 1
        assert formwell.live_forms() == forms
        assert formwell.rules.live_custom_contexts() == contexts
        form.add_field("new", [Required()], initial="x")  # the id is still free
        assert form.field_ids == ["old", "new"]


def test_a_refused_custom_rule_releases_its_callable():
    class Validator:
        def __init__(self, fail):
            self.fail = fail

        def __call__(self, value):
            if self.fail:
                raise Boom("no")

    with Form() as form:
        form.add_field("other")
        raising, accepted = Validator(True), Validator(False)
        refs = weakref.ref(raising), weakref.ref(accepted)
        count = sys.getrefcount(accepted)
        with pytest.raises(Boom):
            form.add_field("f", [Custom(raising)], initial="x")
        with pytest.raises(formwell.PatternError):
            form.add_field("g", [Custom(accepted), Regex("(")])
        gc.collect()  # the exceptions' tracebacks hold the add_field frames (and so the rules) in cycles
        assert sys.getrefcount(accepted) == count  # no reference kept
        del raising, accepted
        gc.collect()
        assert refs[0]() is None and refs[1]() is None
        assert form.field_ids == ["other"]


def test_a_custom_rule_is_kept_alive_exactly_while_its_form_lives():
    def validator(value):
        return None if value.isdigit() else "digits only"

    ref = weakref.ref(validator)
    contexts = formwell.rules.live_custom_contexts()
    form = Form()
    form.add_field("n", [Required(), Custom(validator), MaxLength(5)], initial="12")
    del validator
    gc.collect()
    assert ref() is not None and formwell.rules.live_custom_contexts() == contexts + 1
    assert form.set("n", "ab").message == "digits only"
    form.close()
    gc.collect()
    assert ref() is None and formwell.rules.live_custom_contexts() == contexts


def test_every_rule_kind_through_one_call(form):
    form.add_field("p", [Required()])
    form.add_field("f", [Required(message="r"), Email(message="e"), formwell.Phone(message="p"),
                         MinLength(1, message="min"), MaxLength(100, message="max"),
                         Regex(".*", message="re"), Matches("p", message="m"),
                         Custom(lambda v: "c")])
    form.focus("f")
    for value, message in [("x", "e"), ("a@b.cd", "p")]:
        assert form.set("f", value).message == message
    with pytest.raises(TypeError):
        form.add_field("g", [Required(), "not a rule"])
    assert "g" not in form


# ---- threads ----


EMAIL = re.compile(r"[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,64}")


def test_a_read_outgrows_a_value_that_keeps_growing(monkeypatch):
    """A writer that makes the texts a little longer before every read (as a thread typing into
    the field would) cannot make state() or states() give up: the buffer grows faster than the
    texts. Growing it only to the size the library last gave failed all eight tries."""
    import formwell.form as form_module

    form = Form()
    form.add_field("long")
    grown = {"chars": 200}

    def grow():
        grown["chars"] += 1
        form["long"] = "é" * grown["chars"]

    real_snapshot_at, real_lib = form_module._snapshot_at, form_module.lib

    def snapshot_at(*args):
        grow()
        return real_snapshot_at(*args)

    class Lib:
        def __getattr__(self, name):
            return getattr(real_lib, name)

        def fw_form_snapshots(self, *args):
            grow()
            return real_lib.fw_form_snapshots(*args)

    monkeypatch.setattr(form_module, "_snapshot_at", snapshot_at)
    state = form.state("long")
    assert state.value == "é" * grown["chars"]
    before = grown["chars"]
    monkeypatch.setattr(form_module, "lib", Lib())
    (state,) = form.states()
    assert grown["chars"] > before
    assert state.value == "é" * grown["chars"]


def test_state_from_four_threads_is_always_consistent():
    """Four threads set and read one form (two share a field); every state read is one moment:
    its validity agrees with its own value, never with another thread's."""
    with Form() as form:
        form.add_field("shared", [Email()])
        form.add_field("own0", [Email()])
        form.add_field("own1", [Email()])
        form.add_field("long", [MinLength(600)])
        errors, barrier = [], threading.Barrier(4)
        values = ["ada@example.com", "ada@", "bob@example.org", "not an email", "x" * 500 + "@example.com"]

        def check(state):
            valid = EMAIL.fullmatch(state.value) is not None if state.value else None
            want = Validity.EMPTY if valid is None else Validity.VALID if valid else Validity.INVALID
            assert state.validity is want, state
            assert state.message == ("" if want is not Validity.INVALID else "Invalid email format"), state

        def worker(number):
            try:
                rnd = random.Random(number)
                barrier.wait()
                for i in range(1500):
                    field_id = "shared" if number < 2 else f"own{number - 2}"
                    value = rnd.choice(values)
                    if i % 3 == 0:
                        state = form.set(field_id, value)
                        check(state)
                        if field_id != "shared":
                            assert state.value == value
                    else:
                        form[field_id] = value
                    check(form.state("shared"))
                    own = form.state(field_id)
                    check(own)
                    if field_id != "shared":
                        assert own.value == value
                    if i % 50 == 0:
                        states = form.states()
                        for state in states[:3]:
                            check(state)
                    long_value = "é" * (300 + i % 400)  # past the first buffer: the growth path
                    form["long"] = long_value
                    assert form.state("long").value.startswith("é" * 300)
            except BaseException as error:  # noqa: BLE001
                errors.append(error)

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors, errors[:3]
        check_form(form, "after the threads")


# ---- the C functions underneath, called raw ----


def raw_form():
    handle = _native.FormHandle()
    _native.check(lib.fw_form_create(ctypes.byref(handle)))
    return handle


def test_add_field_with_rules_ownership_of_contexts():
    """On failure the library keeps no context (never calls destroy); on success it calls destroy
    exactly once, when the form is freed."""
    destroyed = []
    validate = _native.fw_validate_fn(lambda ctx, value, length, out: _native.FW_VERDICT_VALID)
    destroy = _native.fw_destroy_fn(lambda ctx: destroyed.append(ctx))

    def rules(*extra):
        custom = _native.fw_rule(size=ctypes.sizeof(_native.fw_rule), kind=_native.FW_RULE_CUSTOM,
                                 validate=validate, context=1234, destroy=destroy)
        return (_native.fw_rule * (1 + len(extra)))(custom, *extra)

    bad_regex = _native.fw_rule(size=ctypes.sizeof(_native.fw_rule), kind=_native.FW_RULE_REGEX, text=b"(")
    handle = raw_form()
    try:
        status = lib.fw_form_add_field_with_rules(handle, b"f", None, b"x", rules(bad_regex), 2)
        assert status == _native.FW_ERR_INVALID_PATTERN
        count = ctypes.c_size_t()
        _native.check(lib.fw_form_field_count(handle, ctypes.byref(count)))
        assert count.value == 0 and destroyed == []
        _native.check(lib.fw_form_add_field_with_rules(handle, b"f", None, b"x", rules(), 1))
        assert destroyed == []
    finally:
        _native.check(lib.fw_form_free(handle))
    assert destroyed == [1234]


def test_index_calls_refuse_an_index_past_the_fields():
    handle = raw_form()
    try:
        _native.check(lib.fw_form_add_field(handle, b"a", None, None))
        snapshot = _native.fw_snapshot(size=ctypes.sizeof(_native.fw_snapshot))
        for call in (lambda: lib.fw_field_snapshot_at(handle, 1, snapshot, None, 0),
                     lambda: lib.fw_field_set_value_at(handle, 1, b"x"),
                     lambda: lib.fw_field_focus_at(handle, 1),
                     lambda: lib.fw_field_blur_at(handle, 1),
                     lambda: lib.fw_field_touch_at(handle, 1),
                     lambda: lib.fw_field_update_at(handle, 2**63, b"x", snapshot, None, 0)):
            assert call() == _native.FW_ERR_INVALID_ARGUMENT
        # No texts asked for: the members only, and the call succeeds.
        _native.check(lib.fw_field_update_at(handle, 0, b"abc", snapshot, None, 0))
        # text_size: message, display message, value "abc", label "a", initial, hint, each with its NUL,
        # the empty error list's NUL and the normalised value "abc" (3 + 4 + 2 + 1 + 1 + 4 = 15), then
        # version 4's code "", params "{}", display code "", display params "{}" and the empty code
        # list's NUL (1 + 3 + 1 + 3 + 1 = 9).
        assert (snapshot.value_length, snapshot.value, snapshot.text_size) == (3, None, 24)
        assert (snapshot.code, snapshot.params, snapshot.error_codes) == (None, None, None)
        # A snapshot declaring a size smaller than the struct is refused.
        snapshot.size = 8
        assert lib.fw_field_snapshot_at(handle, 0, snapshot, None, 0) == _native.FW_ERR_INVALID_ARGUMENT
    finally:
        lib.fw_form_free(handle)


def test_match_limits_out_parameters_may_be_null(form):
    form.set_match_limits(11, 22, 33)
    depth = ctypes.c_uint32()
    _native.check(lib.fw_form_match_limits(form._h, None, ctypes.byref(depth), None))
    assert depth.value == 22


def test_failing_rule_of_a_limit_exceeded_verdict(form):
    form.add_field("r", [Required(), Regex("(a|aa)+$")])
    form.set_match_limits(match_limit=1000)
    state = form.set("r", "a" * 20 + "b")
    assert (state.limit_exceeded, state.failing_rule, state.message) == (
        True, 1, "This value is too complex to check")


def test_time_limit_round_trip_and_cut_short():
    """The per-match time limit: 5 ms by default, read back in seconds; a tiny one cuts a
    backtracking match short (the field is invalid, never valid); the step limits are apart."""
    with formwell.Form() as form:
        assert form.time_limit == 0.005
        form.add_field("p", [formwell.Regex("(a+)+$")])
        form.time_limit = 60
        assert form.time_limit == 60
        form["p"] = "a" * 16 + "!"
        assert form.state("p").message == "Invalid format" and not form.state("p").limit_exceeded
        form.time_limit = 1e-6
        form["p"] = "a" * 28 + "!"
        assert form.state("p").limit_exceeded
        assert form.state("p").message == "This value is too complex to check"
        assert form.match_limits == formwell.Form().match_limits
        with pytest.raises(formwell.InvalidArgumentError):
            form.time_limit = 0
        with pytest.raises(TypeError):
            form.time_limit = "1"
        assert form.time_limit == 1e-6
