"""Asynchronous rules through the Python binding: AsyncRule, the plain request/resolve
protocol on a fake clock (debounce, stale results, the errors of unknown and closed ids, submit),
checks by name from specs, and asyncio (settle, validate_async) on a real event loop."""

import asyncio
import logging
import pickle
import time

import pytest

import formwell
from formwell import (
    AsyncRule,
    CheckError,
    Display,
    Form,
    InvalidArgumentError,
    InvalidHandleError,
    MinLength,
    Outcome,
    Phase,
    Request,
    RequestClosedError,
    Required,
    Resolution,
    SubmitResult,
    Tint,
    UnknownRequestError,
    Validity,
    Verdict,
)


class FakeClock:
    """A host clock the test moves by hand (milliseconds); counts how often the binding reads it."""

    def __init__(self, now=0):
        self.now = now
        self.reads = 0

    def __call__(self):
        self.reads += 1
        return self.now


def username_form(clock, debounce=0.5, check=None, **rule):
    form = Form(clock=clock)
    form.add_field("username", [Required(), MinLength(3), AsyncRule("username_available", check, debounce, **rule)],
                   label="Username")
    form.add_field("email", [Required()], label="Email", initial="ada@example.com")
    return form


def whole(form):
    return (form.states(), form.is_valid, form.first_invalid, form.pending_fields, form.stale_results,
            form.next_due, form.revision, form.clock_ms)


# ---- the rule object ----


def test_async_rule_defaults_and_struct():
    rule = AsyncRule("username_available")
    assert (rule.name, rule.check, rule.debounce, rule.debounce_ms, rule.message, rule.hint) == (
        "username_available", None, 0.5, 500, None, None)
    assert AsyncRule("x", debounce=0.25).debounce_ms == 250
    assert AsyncRule("x", debounce=0).debounce_ms == 0
    assert AsyncRule("x", debounce=2).debounce_ms == 2000
    struct = AsyncRule("free", debounce=0.3, message="Taken", hint="Try another").c_rule()
    assert (struct.kind, struct.text, struct.length, struct.message, struct.hint) == (
        formwell._native.FW_RULE_ASYNC, b"free", 300, b"Taken", b"Try another")
    assert isinstance(rule, formwell.Rule)


@pytest.mark.parametrize("kwargs, error", [
    (dict(name=""), InvalidArgumentError),
    (dict(name=3), TypeError),
    (dict(name="a\0b"), ValueError),
    (dict(name="x", check="not callable"), TypeError),
    (dict(name="x", debounce=-0.001), InvalidArgumentError),
    (dict(name="x", debounce=float("nan")), InvalidArgumentError),
    (dict(name="x", debounce=2**31), InvalidArgumentError),
    (dict(name="x", debounce=True), TypeError),
    (dict(name="x", debounce="0.5"), TypeError),
])
def test_async_rule_refuses_bad_arguments(kwargs, error):
    with pytest.raises(error):
        AsyncRule(**kwargs)


# ---- the plain protocol on a fake clock ----


def test_debounce_on_the_fake_clock():
    clock = FakeClock(1000)
    with username_form(clock) as form:
        form.focus("username")
        form["username"] = "ad"  # fails min_length: nothing is sent
        assert form.state("username").validity is Validity.INVALID
        assert (form.next_due, form.pending_fields, form.clock_ms) == (None, [], 1000)
        clock.now = 1100
        state = form.set("username", "ada")  # due 1100 + 500 (id 1)
        assert (state.validity, state.message, state.display, state.tint, state.failing_rule) == (
            Validity.PENDING, "", Display.NONE, Tint.ACCENT, None)
        assert (form.next_due, form.pending_fields, form.is_valid, form.first_invalid) == (1600, ["username"], False, None)
        clock.now = 1300
        form["username"] = "adam"  # replaces request 1 before it is due (id 2, due 1800)
        assert form.next_due == 1800
        assert form.next_request(1799) is None
        assert form.clock_ms == 1799
        request = form.next_request(1800)
        assert request == Request(id=2, field="username", index=0, value="adam", rule="username_available", due=1800)
        assert form.next_request(1800) is None  # handed out once
        assert form.next_due is None and form.pending_fields == ["username"]
        assert form.resolve(request, True) is Resolution.APPLIED == "applied"
        state = form.state("username")
        assert (state.validity, state.phase, form.is_valid, form.pending_fields) == (
            Validity.VALID, Phase.FOCUSED, True, [])
        # The same value again sends nothing and keeps the result.
        form["username"] = "adam"
        assert (form.next_due, form.state("username").validity) == (None, Validity.VALID)


def test_the_clock_is_read_only_by_forms_with_async_rules():
    clock = FakeClock(5000)
    with Form(clock=clock) as plain:
        plain.add_field("name", [Required()])
        plain["name"] = "Ada"
        plain.set("name", "Ada L")
        plain.validate()
        assert clock.reads == 0 and plain.clock_ms == 0
    with username_form(clock) as form:
        form["username"] = "ada"
        assert clock.reads == 1 and form.clock_ms == 5000 and form.next_due == 5500
        form.set("username", "adam")
        form.validate()
        assert clock.reads == 3


def test_tick_and_a_clock_that_never_goes_back():
    clock = FakeClock(0)
    with username_form(clock, debounce=0.3) as form:
        form.tick(5000)
        assert form.clock_ms == 5000
        form.tick(100)  # ignored
        assert form.clock_ms == 5000
        form["username"] = "bob"  # the clock says 0: ignored, dated 5000
        assert form.next_due == 5300
        clock.now = 6000
        form.tick()  # None: the form's clock
        assert form.clock_ms == 6000
        with pytest.raises(TypeError):
            form.tick(1.5)
        with pytest.raises(InvalidArgumentError):
            form.tick(-1)
        with pytest.raises(TypeError):
            form.next_request("now")


def test_out_of_order_results_leave_the_newer_verdict():
    clock = FakeClock(100)
    with username_form(clock, debounce=0) as form:
        form.focus("username")
        form["username"] = "ada"
        slow = form.next_request(100)
        clock.now = 150
        form["username"] = "adam"
        fast = form.next_request(150)
        assert (slow.id, slow.value, fast.id, fast.value) == (1, "ada", 2, "adam")
        assert form.resolve(fast.id, False, "That username is taken") == "applied"
        assert form.resolve(slow, True) is Resolution.STALE
        state = form.state("username")
        assert (state.validity, state.message, state.failing_rule, form.stale_results) == (
            Validity.INVALID, "That username is taken", 2, 1)
        form.blur("username")
        state = form.state("username")
        assert (state.display, state.display_message, state.accessibility_hint) == (
            Display.ERROR, "That username is taken", "Correct this field")


def test_errors_for_unknown_closed_and_not_handed_out_ids_change_nothing():
    clock = FakeClock(1000)
    with username_form(clock, debounce=0.3) as form:
        form["username"] = "ada"
        request = form.next_request(1300)
        assert form.resolve(request, Verdict.VALID) is Resolution.APPLIED
        clock.now = 2000
        form["username"] = "adam"  # id 2, due 2300, not handed out
        before = whole(form)
        for rid, error in [(999, UnknownRequestError), (0, UnknownRequestError), (request.id, RequestClosedError),
                           (request, RequestClosedError), (2, InvalidArgumentError)]:
            with pytest.raises(error) as raised:
                form.resolve(rid, True)
            assert whole(form) == before
        assert raised.value.code == formwell._native.FW_ERR_INVALID_ARGUMENT
        with pytest.raises(UnknownRequestError) as unknown:
            form.resolve(999, True)
        assert isinstance(unknown.value, LookupError) and unknown.value.code == 13
        with pytest.raises(RequestClosedError) as closed:
            form.resolve(1, False)
        assert isinstance(closed.value, LookupError) and closed.value.code == 14
        with pytest.raises(UnknownRequestError):
            form.resolve(-1, True)
        with pytest.raises(UnknownRequestError):
            form.resolve(2**64, True)
        with pytest.raises(InvalidArgumentError):
            form.resolve(1, "maybe")
        with pytest.raises(TypeError):
            form.resolve(1, 1)
        with pytest.raises(TypeError):
            form.resolve("1", True)
        assert whole(form) == before


def test_error_verdicts_and_the_rules_own_message():
    clock = FakeClock(0)
    with username_form(clock, debounce=0, message="That username is taken", hint="Pick another") as form:
        form["username"] = "ada"
        assert form.resolve(form.next_request(0), "error") == "applied"
        state = form.state("username")
        assert (state.validity, state.message, state.failing_rule) == (Validity.INVALID, "Could not check this value", 2)
        form["username"] = "adam"
        form.resolve(form.next_request(0), Verdict.ERROR, "The server is unreachable")
        assert form.state("username").message == "The server is unreachable"
        form["username"] = "adam_"
        form.resolve(form.next_request(0), False, "the host's message")  # the rule's own wins
        form.touch("username")
        state = form.state("username")
        assert (state.message, state.display_message, state.accessibility_hint) == (
            "That username is taken", "That username is taken", "Pick another")


def test_submit_flushes_and_answers_pending_then_invalid():
    clock = FakeClock(100)
    with username_form(clock, debounce=0.5) as form:
        form["username"] = "ada"
        assert form.next_request() is None  # due at 600
        result = form.submit()
        assert result == SubmitResult(Outcome.PENDING, ["username"])
        assert (bool(result), result.pending, result.valid, result.invalid) == (False, True, False, False)
        assert (form.next_due, form.submit_count, form.submit_failed, form.first_invalid) == (100, 1, False, None)
        request = form.next_request()  # due now
        assert (request.value, request.due) == ("ada", 100)
        assert form.submit().outcome == "pending"  # handed out, not answered
        form.resolve(request, False)
        result = form.submit()
        assert (result.outcome, result.pending_fields, bool(result)) == (Outcome.INVALID, [], False)
        assert (form.submit_failed, form.announcement) == (True, "1 field needs attention: Username")
        assert form.state("username").message == "Invalid value"
        clock.now = 200
        form["username"] = "ada_l"
        assert form.validate() is False  # pending is not valid, and not a failure
        assert form.submit_failed is False
        form.resolve(form.next_request(), True)
        result = form.submit()
        assert (result, bool(result)) == (SubmitResult(Outcome.VALID, []), True)


def test_submit_of_a_group_lists_its_own_pending_fields():
    clock = FakeClock(0)
    with Form(clock=clock) as form:
        form.add_field("username", [Required(), AsyncRule("free")], groups=["account"])
        form.add_field("nickname", [AsyncRule("polite")], groups=["profile"])
        form["username"] = "ada"
        form["nickname"] = "ace"
        assert form.pending_fields == ["username", "nickname"]
        assert form.submit("account") == SubmitResult(Outcome.PENDING, ["username"])
        assert form.next_due == 0 and form.submit_count == 0  # a group submit does not count
        assert [r.field for r in form.due_requests()] == ["username"]
        form.add_to_group("nickname", "account")
        assert form.submit(group="account").pending_fields == ["username", "nickname"]
        with pytest.raises(InvalidArgumentError):
            form.submit("nobody")


def test_an_on_blur_field_typed_into_before_its_first_blur_is_pending():
    clock = FakeClock(1000)
    with Form(clock=clock) as form:
        form.add_field("username", [Required(), AsyncRule("free", debounce=0.5)], mode="on_blur", groups=["account"])
        form.add_field("email", [Required()], initial="ada@example.com", groups=["contact"])
        assert (form.focused, form.pending_fields) == (None, [])
        form.focus("username")
        form["username"] = "ada"
        # on_blur shows nothing until the blur, but the field waits for its check all the same
        assert form.state("username").validity is Validity.EMPTY
        assert (form.focused, form.pending_fields, form._pending_count()) == ("username", ["username"], 1)
        assert form.submit("contact") == SubmitResult(Outcome.VALID, [])
        assert form.focused == "username" and form.state("username").validity is Validity.EMPTY
        form.focus("email")  # blurs username: its shown state catches up
        assert (form.focused, form.state("username").validity) == ("email", Validity.PENDING)
        form.blur("email")
        assert (form.focused, form.pending_fields) == (None, ["username"])
        assert form.submit("account") == SubmitResult(Outcome.PENDING, ["username"])
        form.resolve(form.next_request(), True)
        assert (form.pending_fields, form.submit("account")) == ([], SubmitResult(Outcome.VALID, []))


def test_a_group_submit_of_a_spec_loaded_or_unpickled_form_lists_its_members():
    with Form.from_spec(SPEC, checks={"username_available": lambda value: True}) as form:
        form["username"] = "ada"
        assert form.submit("account").pending_fields == ["username"]
        copy = pickle.loads(pickle.dumps(form))
    with copy:
        copy["username"] = "bob"
        assert copy.submit("account").pending_fields == ["username"]
        copy.remove_field("username")
        assert copy.pending_fields == []


def test_due_requests_hand_out_everything_due_in_order():
    clock = FakeClock(0)
    with Form(clock=clock) as form:
        form.add_field("a", [AsyncRule("slow", debounce=0.3), AsyncRule("fast", debounce=0)])
        form.add_field("b", [AsyncRule("fast", debounce=0)])
        form["a"] = "x"  # ids 1 (due 300) and 2 (due 0)
        form["b"] = "y"  # id 3 (due 0)
        assert [(r.id, r.field, r.rule, r.due) for r in form.due_requests(0)] == [(2, "a", "fast", 0), (3, "b", "fast", 0)]
        assert form.due_requests(0) == []
        assert [(r.id, r.index) for r in form.due_requests(1000)] == [(1, 0)]
        assert form.pending_fields == ["a", "b"]


def test_reset_and_remove_field_cancel_requests():
    clock = FakeClock(0)
    with username_form(clock, debounce=0) as form:
        form["username"] = "ada"
        request = form.next_request()
        form.reset()
        assert (form.pending_fields, form.state("username").validity) == ([], Validity.EMPTY)
        assert form.resolve(request, True) is Resolution.STALE
        assert form.stale_results == 1
        form["username"] = "adam"
        request = form.next_request()
        form.remove_field("username")
        assert form.resolve(request.id, True) == "stale"
        assert (form.stale_results, form.pending_fields, form.is_valid) == (2, [], True)


def test_long_texts_in_a_request():
    """A request whose texts do not fit the first buffer is handed out whole (the retry with the
    size the library asks for hands it out once)."""
    clock = FakeClock(0)
    name = "check_" + "n" * 300
    with Form(clock=clock) as form:
        form.add_field("f" * 200, [AsyncRule(name, debounce=0)])
        form["f" * 200] = "v" * 5000 + "é"
        request = form.next_request()
        assert (request.field, request.value, request.rule) == ("f" * 200, "v" * 5000 + "é", name)
        assert form.next_request() is None


def test_the_clock_argument():
    with pytest.raises(TypeError):
        Form(clock=5)
    with Form() as form:
        assert form.clock is formwell._async.monotonic_ms
        before = int(time.monotonic() * 1000)
        form.add_field("u", [AsyncRule("x", debounce=0)])
        form["u"] = "ada"
        assert before <= form.clock_ms <= int(time.monotonic() * 1000)
        fake = FakeClock(7)
        form.clock = fake
        assert form.clock is fake
        form.clock = None
        assert form.clock is formwell._async.monotonic_ms
        with pytest.raises(TypeError):
            form.clock = "soon"


# ---- checks by name ----


async def always_free(value):
    return True


async def never_free(value):
    return "Taken"


def test_one_check_per_name_in_a_form():
    with Form() as form:
        form.add_field("a", [AsyncRule("free", always_free)])
        form.add_field("b", [AsyncRule("free", always_free), AsyncRule("free")])  # the same, or none: fine
        before = form.field_ids
        with pytest.raises(InvalidArgumentError):
            form.add_field("c", [AsyncRule("free", never_free)])
        with pytest.raises(InvalidArgumentError):
            form.add_field("d", [AsyncRule("other", always_free), AsyncRule("other", never_free)])
        assert form.field_ids == before  # nothing added
        assert form._check_for("free") is always_free
        form.define_check("free", never_free)  # replaces
        assert form._check_for("free") is never_free
        with pytest.raises(TypeError):
            form.define_check("free", 3)


SPEC = {
    "formwell": 1,
    "fields": [
        {"id": "username", "label": "Username", "groups": ["account"],
         "rules": [{"rule": "required"}, {"rule": "async", "name": "username_available", "debounce_ms": 0}]},
    ],
}


def test_specs_take_checks_by_name_from_checks_and_the_registry():
    calls = []

    async def given(value):
        calls.append(("given", value))
        return True

    async def registered(value):
        calls.append(("registered", value))
        return "Taken"

    formwell.register_check("username_available", registered)
    try:
        assert formwell.registered_checks()["username_available"] is registered
        with Form.from_spec(SPEC, checks={"username_available": given}) as form:
            form["username"] = "ada"
            assert asyncio.run(form.validate_async()) is True
        with Form.from_spec(SPEC) as form:  # from the registry
            form["username"] = "bob"
            assert asyncio.run(form.validate_async()) is False
            assert form.state("username").message == "Taken"
        # A form travels as its spec; the check is found by name in the receiving process.
        with Form.from_spec(SPEC, checks={"username_available": given}) as form:
            copy = pickle.loads(pickle.dumps(form))
        with copy:
            assert copy.to_spec() == Form.from_spec(SPEC).to_spec()
            copy["username"] = "cy"
            assert asyncio.run(copy.validate_async("account")) is False
    finally:
        formwell.unregister_check("username_available")
    assert calls == [("given", "ada"), ("registered", "bob"), ("registered", "cy")]
    with pytest.raises(KeyError):
        formwell.unregister_check("username_available")


def test_register_check_as_a_decorator():
    @formwell.register_check("polite")
    def polite(value):
        return "rude" not in value

    try:
        assert formwell.registered_checks()["polite"] is polite
        with pytest.raises(TypeError):
            formwell.register_check("", polite)
        with pytest.raises(TypeError):
            formwell.register_check("x", 42)
    finally:
        formwell.unregister_check("polite")


def test_settle_without_a_check_refuses_before_taking_anything():
    clock = FakeClock(0)
    with username_form(clock, debounce=0) as form:
        form["username"] = "ada"
        with pytest.raises(LookupError, match="username_available"):
            asyncio.run(form.settle())
        # Nothing was handed out: the plain protocol still works.
        request = form.next_request()
        assert request.value == "ada"
        assert form.resolve(request, True) is Resolution.APPLIED


# ---- asyncio on a real event loop ----


def test_a_slow_first_check_after_a_fast_second_one_is_dropped():
    """The out-of-order race: "ada" is checked slowly (0.2 s), "adam", typed meanwhile, quickly
    (0.01 s); "ada"'s answer arrives last and is dropped as stale, "adam"'s verdict stays."""
    events = []

    async def username_available(value):
        events.append(f"check {value}")
        await asyncio.sleep(0.2 if value == "ada" else 0.01)
        events.append(f"answer {value}")
        return "That username is taken" if value == "ada" else True

    async def scenario():
        with Form() as form:
            form.add_field("username", [Required(), MinLength(3),
                                        AsyncRule("username_available", username_available, debounce=0)])
            form.focus("username")
            form["username"] = "ada"
            settling = asyncio.create_task(form.settle())
            await asyncio.sleep(0.05)  # "ada" is being checked
            assert events == ["check ada"]
            form["username"] = "adam"
            await asyncio.wait_for(settling, 5)
            state = form.state("username")
            return events, state.validity, state.message, form.stale_results, form.pending_fields, form.is_valid

    events_seen, validity, message, stale, pending, valid = asyncio.run(scenario())
    assert events_seen == ["check ada", "check adam", "answer adam", "answer ada"]
    assert (validity, message, stale, pending, valid) == (Validity.VALID, "", 1, [], True)


def test_settle_waits_out_the_debounce_and_checks_the_last_value_only():
    seen = []

    async def check(value):
        seen.append(value)
        return value != "taken"

    async def scenario():
        with Form() as form:
            form.add_field("username", [AsyncRule("free", check, debounce=0.15)])
            started = time.monotonic()
            form["username"] = "ada"
            form["username"] = "adam"
            assert form.state("username").validity is Validity.PENDING
            await asyncio.wait_for(form.settle(), 5)
            return time.monotonic() - started, form.state("username").validity

    elapsed, validity = asyncio.run(scenario())
    assert seen == ["adam"]
    assert validity is Validity.VALID
    assert elapsed >= 0.14


def test_validate_async_flushes_the_debounce():
    seen = []

    async def check(value):
        seen.append(value)
        await asyncio.sleep(0.01)
        return value != "taken"

    async def scenario(value):
        with Form() as form:
            form.add_field("username", [Required(), AsyncRule("free", check, debounce=10)], label="Username")
            form["username"] = value
            started = time.monotonic()
            verdict = await asyncio.wait_for(form.validate_async(), 5)
            return (verdict, time.monotonic() - started, form.state("username").display_message, form.submit_count,
                    form.submit_failed, form.announcement, form.pending_fields)

    verdict, elapsed, shown, count, failed, announcement, pending = asyncio.run(scenario("ada"))
    assert (verdict, shown, count, failed, announcement, pending) == (True, "", 2, False, "", [])
    assert elapsed < 2  # not the 10 s debounce
    verdict, elapsed, shown, count, failed, announcement, pending = asyncio.run(scenario("taken"))
    assert (verdict, shown, count, failed, announcement, pending) == (
        False, "Invalid value", 2, True, "1 field needs attention: Username", [])
    assert seen == ["ada", "taken"]


def test_validate_async_without_pending_checks_submits_once():
    async def scenario():
        with Form() as form:
            form.add_field("username", [Required(), AsyncRule("free", always_free)])
            empty = await form.validate_async()
            return empty, form.submit_count

    assert asyncio.run(scenario()) == (False, 1)


def test_a_check_that_raises_gives_an_error_verdict(caplog):
    async def broken(value):
        raise ConnectionError("connection refused")

    async def unavailable(value):
        raise CheckError("The server is unreachable, try again")

    def wrong_type(value):
        return 42

    async def run(check):
        with Form() as form:
            form.add_field("username", [AsyncRule("free", check, debounce=0)])
            form["username"] = "ada"
            verdict = await asyncio.wait_for(form.validate_async(), 5)
            state = form.state("username")
            return verdict, state.validity, state.message, state.display_message, state.failing_rule

    with caplog.at_level(logging.WARNING, logger="formwell"):
        assert asyncio.run(run(broken)) == (
            False, Validity.INVALID, "Could not check this value", "Could not check this value", 0)
    assert "ConnectionError: connection refused" in caplog.text
    assert asyncio.run(run(unavailable)) == (
        False, Validity.INVALID, "The server is unreachable, try again", "The server is unreachable, try again", 0)
    assert asyncio.run(run(wrong_type))[2] == "Could not check this value"


def test_plain_functions_and_false_work_as_checks():
    async def scenario():
        with Form() as form:
            form.add_field("a", [AsyncRule("sync_ok", lambda v: None, debounce=0)])
            form.add_field("b", [AsyncRule("sync_no", lambda v: False, debounce=0, message="No")])
            form.add_field("c", [AsyncRule("coroutine", lambda v: never_free(v), debounce=0)])
            form["a"], form["b"], form["c"] = "x", "y", "z"
            await form.settle()
            return [(s.validity, s.message) for s in form.states()]

    assert asyncio.run(scenario()) == [(Validity.VALID, ""), (Validity.INVALID, "No"), (Validity.INVALID, "Taken")]


def test_settle_with_nothing_to_do_returns_at_once():
    async def scenario():
        with Form() as form:
            await form.settle()
            form.add_field("a", [AsyncRule("x", always_free)])
            await form.settle()
            return await form.validate_async()

    assert asyncio.run(asyncio.wait_for(scenario(), 5)) is True


def test_settle_waits_for_a_request_the_host_resolves_by_hand():
    """A request handed out through the plain protocol is the host's: settle waits for its answer,
    which may come from another thread."""
    import threading

    async def scenario():
        with Form() as form:
            form.add_field("a", [AsyncRule("x", always_free, debounce=0)])
            form["a"] = "v"
            request = form.next_request()
            timer = threading.Timer(0.1, form.resolve, (request, False, "by hand"))
            timer.start()
            await asyncio.wait_for(form.settle(), 5)
            timer.join()
            return form.state("a").message

    assert asyncio.run(scenario()) == "by hand"


def test_close_cancels_running_checks():
    started = []

    async def forever(value):
        started.append(value)
        await asyncio.sleep(60)

    async def scenario():
        form = Form()
        form.add_field("a", [AsyncRule("x", forever, debounce=0)])
        form["a"] = "v"
        settling = asyncio.create_task(form.settle())
        await asyncio.sleep(0.05)
        tasks = list(form._driver.tasks)
        form.close()
        await asyncio.wait_for(settling, 5)  # returns: nothing left to wait for
        await asyncio.sleep(0)
        with pytest.raises(InvalidHandleError):
            await form.settle()
        with pytest.raises(InvalidHandleError):
            await form.validate_async()
        return started, [task.cancelled() for task in tasks]

    assert asyncio.run(scenario()) == (["v"], [True])
