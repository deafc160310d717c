"""Form behaviour through the Python binding: validation modes, error mode "all", groups, external
errors, remove_field / reset(values), field and form flags, change tracking, presentation and
accessibility data. Every expected value is written out (the semantics are the engine's; the
binding only reads them from fw_field_snapshot / fw_form_snapshots / fw_form_get_info)."""

import copy
import dataclasses
import pickle

import pytest

import formwell
from formwell import (
    Custom,
    Display,
    Email,
    FieldState,
    Form,
    InvalidArgumentError,
    Matches,
    MaxLength,
    MinLength,
    Mode,
    Phase,
    Phone,
    Regex,
    Required,
    Tint,
    UnknownFieldError,
    Validity,
)


def shown(form, field_id):
    """What a view draws for the field, compactly: (phase, validity, message, display, display
    message, errors, tint) with enum members by lower-case name."""
    s = form.state(field_id)
    return (s.phase.name.lower(), s.validity.name.lower(), s.message, s.display.name.lower(), s.display_message,
            s.errors, s.tint.name.lower())


def signup(form):
    form.add_field("email", [Required(), Email()], label="Email")
    form.add_field("password", [Required(), MinLength(8)], label="Password")
    return form


# ---- construction, modes as names or enum members ----


def test_a_new_form_is_two_stage_first():
    with Form() as form:
        assert form.mode is Mode.TWO_STAGE and form.mode == "two_stage"
        assert form.errors == "first"
        assert (form.revision, form.submit_count, form.submit_failed, form.dirty, form.dirty_fields,
                form.announcement) == (0, 0, False, False, [], "")


def test_mode_and_errors_are_keyword_only_and_settable():
    with Form(mode="on_blur", errors="all") as form:
        assert (form.mode, form.errors) == (Mode.ON_BLUR, "all")
        form.mode = Mode.ON_SUBMIT
        assert form.mode is Mode.ON_SUBMIT
        form.mode = "on_touched"
        form.errors = "first"
        assert (form.mode, form.errors) == (Mode.ON_TOUCHED, "first")
    with Form(mode=Mode.ON_CHANGE) as form:
        assert form.mode is Mode.ON_CHANGE and form.errors == "first"
    with pytest.raises(TypeError):
        Form("on_blur")  # keyword-only


def test_mode_enum_members_are_their_names():
    assert [m.value for m in Mode] == ["two_stage", "on_change", "on_blur", "on_touched", "on_submit"]
    assert Mode.ON_BLUR == "on_blur" and str(Mode.ON_BLUR) == "on_blur" and Mode("on_submit") is Mode.ON_SUBMIT
    assert [t.name for t in Tint] == ["NEUTRAL", "ACCENT", "ERROR"]
    assert "Mode" in formwell.__all__ and "Tint" in formwell.__all__


@pytest.mark.parametrize("bad, error", [("onBlur", InvalidArgumentError), ("", InvalidArgumentError),
                                        (2, TypeError), (1.5, TypeError)])
def test_a_bad_mode_is_refused_everywhere(bad, error):
    live = formwell.live_forms()
    with pytest.raises(error):
        Form(mode=bad)
    assert formwell.live_forms() == live  # the half-made form was freed
    with Form() as form:
        form.add_field("a")
        with pytest.raises(error):
            form.mode = bad
        with pytest.raises(error):
            form.add_field("b", mode=bad)
        with pytest.raises(error):
            form.set_mode("a", bad)
        assert form.field_ids == ["a"] and form.mode is Mode.TWO_STAGE


def test_a_bad_error_mode_is_refused():
    with pytest.raises(InvalidArgumentError, match="first or all"):
        Form(errors="every")
    with pytest.raises(TypeError):
        Form(errors=1)
    with Form() as form:
        with pytest.raises(ValueError):  # InvalidArgumentError is a ValueError
            form.errors = "First"
        assert form.errors == "first"


def test_field_modes_follow_the_form_unless_set():
    with Form(mode="on_submit") as form:
        form.add_field("own", [Required()], mode="two_stage")
        form.add_field("follows", [Required()])
        assert (form.state("own").mode, form.state("follows").mode) == (Mode.TWO_STAGE, Mode.ON_SUBMIT)
        form.mode = "on_change"
        assert (form.state("own").mode, form.state("follows").mode) == (Mode.TWO_STAGE, Mode.ON_CHANGE)
        form.set_mode("follows", Mode.ON_BLUR)
        form.set_mode("own", None)  # follow the form again
        assert (form.state("own").mode, form.state("follows").mode) == (Mode.ON_CHANGE, Mode.ON_BLUR)
        with pytest.raises(UnknownFieldError):
            form.set_mode("nope", "on_blur")


# ---- the five modes ----


def test_two_stage_is_todays_behaviour():
    with signup(Form()) as form:
        form.focus("email")
        assert shown(form, "email") == ("focused", "empty", "", "none", "", [], "accent")
        form["email"] = "ada@"
        assert shown(form, "email") == ("focused", "invalid", "Invalid email format", "none", "",
                                        ["Invalid email format"], "error")
        form.blur("email")
        assert shown(form, "email") == ("inactive", "invalid", "Invalid email format", "error",
                                        "Invalid email format", ["Invalid email format"], "error")


def test_on_change_is_strict_while_focused():
    with Form(mode="on_change") as form:
        signup(form)
        form.focus("email")
        # Two-stage would read empty here: on_change applies required while the field is focused.
        assert shown(form, "email") == ("focused", "invalid", "This field is required", "none", "",
                                        ["This field is required"], "error")
        form["email"] = "ada@example.com"
        assert shown(form, "email") == ("focused", "valid", "", "none", "", [], "accent")
        form["email"] = ""
        assert shown(form, "email")[1:3] == ("invalid", "This field is required")
        form.blur("email")
        assert shown(form, "email") == ("inactive", "invalid", "This field is required", "error",
                                        "This field is required", ["This field is required"], "error")


def test_on_blur_shows_a_copy_frozen_at_the_last_blur():
    """Seed 03: don't show password strength errors until the user has left the field."""
    with Form() as form:
        form.add_field("password", [Required(), MinLength(8)], label="Password", mode="on_blur")
        form.focus("password")
        form["password"] = "abc"
        # Nothing is shown before the first blur, although the live verdict is invalid.
        assert shown(form, "password") == ("focused", "empty", "", "none", "", [], "accent")
        assert (form.is_valid, form.first_invalid) == (False, "password")
        form.blur("password")
        assert shown(form, "password") == ("inactive", "invalid", "Must be at least 8 characters", "error",
                                           "Must be at least 8 characters", ["Must be at least 8 characters"],
                                           "error")
        form.focus("password")
        form["password"] = "abcdefgh"  # valid now, but the shown state waits for the next blur
        assert shown(form, "password") == ("focused", "invalid", "Must be at least 8 characters", "error",
                                           "Must be at least 8 characters", ["Must be at least 8 characters"],
                                           "error")
        assert (form.is_valid, form.first_invalid) == (True, None)
        form.blur("password")
        assert shown(form, "password") == ("inactive", "valid", "", "valid", "", [], "accent")
        form["password"] = "x"  # a set-value while blurred: still frozen
        assert shown(form, "password") == ("inactive", "valid", "", "valid", "", [], "accent")
        form.touch("password")  # touch refreshes the copy
        assert shown(form, "password")[1:4] == ("invalid", "Must be at least 8 characters", "error")
        form.reset()
        assert shown(form, "password") == ("idle", "empty", "", "none", "", [], "neutral")


def test_on_touched_is_frozen_until_touched_then_live():
    with Form(mode="on_touched") as form:
        form.add_field("email", [Required(), Email()], label="Email")
        form.focus("email")
        form["email"] = "ada@"
        assert shown(form, "email") == ("focused", "empty", "", "none", "", [], "accent")
        form.blur("email")
        assert shown(form, "email") == ("inactive", "invalid", "Invalid email format", "error",
                                        "Invalid email format", ["Invalid email format"], "error")
        form.focus("email")
        form["email"] = "ada@example.com"  # touched: live, and strict
        assert shown(form, "email") == ("focused", "valid", "", "valid", "", [], "accent")
        form["email"] = ""
        assert shown(form, "email") == ("focused", "invalid", "This field is required", "error",
                                        "This field is required", ["This field is required"], "error")
        form.reset()  # untouched again: frozen, nothing shown
        form.focus("email")
        form["email"] = "x"
        assert shown(form, "email") == ("focused", "empty", "", "none", "", [], "accent")


def test_on_submit_shows_nothing_until_a_validate():
    with Form(mode="on_submit") as form:
        form.add_field("name", [Required()], label="Name")
        form.add_field("email", [Required(), Email()], label="Email")
        form.focus("email")
        form["email"] = "ada@"
        form.blur("email")
        state = form.state("email")
        assert shown(form, "email") == ("inactive", "empty", "", "none", "", [], "neutral")
        assert state.touched is True
        assert form.validate() is False
        assert shown(form, "email") == ("inactive", "invalid", "Invalid email format", "error",
                                        "Invalid email format", ["Invalid email format"], "error")
        assert shown(form, "name") == ("inactive", "invalid", "This field is required", "error",
                                       "This field is required", ["This field is required"], "error")
        form["email"] = "ada@example.com"  # live from now on
        assert shown(form, "email") == ("inactive", "valid", "", "valid", "", [], "accent")


# ---- error mode "all" ----


def username_form(errors):
    form = Form(errors=errors)
    form.add_field("username", [Required(), MinLength(5), Regex("^[a-z_]+$", message="Lowercase letters only"),
                                MaxLength(10)], label="Username")
    return form


def test_errors_all_lists_every_failing_rule_in_rule_order():
    with username_form("all") as form:
        state = form.set("username", "AB")
        assert state.errors == ["Must be at least 5 characters", "Lowercase letters only"]
        assert (state.message, state.failing_rule) == ("Must be at least 5 characters", 1)
        assert form.set("username", "ABCDEFGHIJKL").errors == ["Lowercase letters only",
                                                               "Must be 10 characters or fewer"]
        assert form.set("username", "").errors == ["This field is required"]  # required alone
        assert form.set("username", "ada_lovelace").errors == ["Must be 10 characters or fewer"]
        assert form.set("username", "ada_l").errors == []
        form.set("username", "AB")
        form.errors = "first"  # re-judged at once
        state = form.state("username")
        assert (state.errors, state.message) == (["Must be at least 5 characters"], "Must be at least 5 characters")


def test_errors_first_has_one_element():
    with username_form("first") as form:
        assert form.set("username", "AB").errors == ["Must be at least 5 characters"]
        assert form.set("username", "abcde").errors == []


# ---- groups ----


def wizard():
    form = Form()
    form.add_field("email", [Required(), Email()], label="Email", groups=["account"])
    form.add_field("password", [Required(), MinLength(8)], label="Password", groups=["account"])
    form.add_field("name", [Required()], label="Name", groups=["profile"], mode="on_submit")
    form.add_field("phone", [Phone()], label="Phone", groups=["profile", "contact"])
    return form


def test_group_validate_touches_only_its_fields_and_is_not_a_submit():
    with wizard() as form:
        assert form.validate(group="account") is False
        assert [form.state(i).touched for i in form.field_ids] == [True, True, False, False]
        assert shown(form, "email")[3:5] == ("error", "This field is required")
        assert (form.submit_count, form.submit_failed, form.announcement) == (0, False, "")
        assert (form.is_valid_in("account"), form.first_invalid_in("account")) == (False, "email")
        assert (form.is_valid_in("profile"), form.first_invalid_in("profile")) == (False, "name")
        assert (form.is_valid_in("contact"), form.first_invalid_in("contact")) == (True, None)
        form["email"] = "ada@example.com"
        form["password"] = "correct horse"
        assert form.validate(group="account") is True
        assert (form.is_valid_in("account"), form.first_invalid_in("account")) == (True, None)
        assert (form.is_valid, form.first_invalid) == (False, "name")


def test_group_validate_shows_on_submit_fields_of_the_group():
    with wizard() as form:
        form.touch_all(group="profile")
        assert [form.state(i).touched for i in form.field_ids] == [False, False, True, True]
        assert shown(form, "name")[1] == "empty"  # on_submit: touched is not enough
        assert form.validate(group="profile") is False
        assert shown(form, "name") == ("inactive", "invalid", "This field is required", "error",
                                       "This field is required", ["This field is required"], "error")
        assert form.submit_count == 0


def test_groups_are_checked():
    with wizard() as form:
        for call in (lambda: form.validate(group="billing"), lambda: form.touch_all(group="billing"),
                     lambda: form.is_valid_in("billing"), lambda: form.first_invalid_in("billing")):
            with pytest.raises(InvalidArgumentError, match="no field belongs to group 'billing'"):
                call()
        with pytest.raises(InvalidArgumentError):
            form.validate(group="")
        with pytest.raises(TypeError):
            form.add_field("x", groups="account")  # a str is not a list of names
        with pytest.raises(InvalidArgumentError):
            form.add_field("x", groups=["ok", ""])
        assert "x" not in form  # refused before anything was added
        form.add_to_group("email", "billing")
        assert (form.is_valid_in("billing"), form.first_invalid_in("billing")) == (False, "email")
        form.add_to_group("email", "billing")  # already in it: nothing changes
        with pytest.raises(UnknownFieldError):
            form.add_to_group("nope", "billing")


# ---- errors set from outside ----


def test_set_error_overrides_the_rules_until_the_value_changes():
    with signup(Form()) as form:
        form["email"] = "ada@example.com"
        form.set_error("email", "Email already registered")
        state = form.state("email")
        assert shown(form, "email") == ("inactive", "invalid", "Email already registered", "none", "",
                                        ["Email already registered"], "error")
        assert (state.external_error, state.failing_rule, state.accessibility_hint) == (True, None, "")
        assert (form.is_valid, form.first_invalid) == (False, "email")
        form.touch("email")
        state = form.state("email")
        assert shown(form, "email")[3:5] == ("error", "Email already registered")
        assert (state.accessibility_value, state.accessibility_hint) == ("Email already registered",
                                                                         "Correct this field")
        form["email"] = "ada@example.com"  # the same value keeps it
        assert form.state("email").external_error is True
        form["email"] = "ada@example.org"  # a new value clears it
        state = form.state("email")
        assert (state.external_error, state.validity, state.display) == (False, Validity.VALID, Display.VALID)


def test_set_error_on_an_empty_optional_field_and_clearing():
    with Form() as form:
        form.add_field("referral", [MaxLength(10)], label="Referral code")
        form.add_field("email", [Required(), Email()], label="Email")
        form.touch("referral")
        assert form.state("referral").phase is Phase.IDLE  # empty and optional
        form.set_error("referral", "Unknown referral code")
        assert shown(form, "referral") == ("inactive", "invalid", "Unknown referral code", "error",
                                           "Unknown referral code", ["Unknown referral code"], "error")
        form.clear_error("referral")
        assert form.state("referral").external_error is False
        assert form.state("referral").validity is not Validity.INVALID
        form.set_error("referral", "Unknown referral code")
        form.set_error("email", "Server says no")
        form.clear_errors()
        assert [form.state(i).external_error for i in form.field_ids] == [False, False]
        with pytest.raises(InvalidArgumentError):
            form.set_error("email", "")
        with pytest.raises(UnknownFieldError):
            form.set_error("nope", "x")
        with pytest.raises(UnknownFieldError):
            form.clear_error("nope")


def test_set_error_on_an_idle_field_reads_empty_until_judged():
    with signup(Form()) as form:
        form.set_error("password", "Password was found in a breach")
        state = form.state("password")
        assert (state.phase, state.validity, state.display, state.external_error) == (
            Phase.IDLE, Validity.EMPTY, Display.NONE, True)
        assert (form.is_valid, form.first_invalid) == (False, "email")
        form["email"] = "ada@example.com"
        assert form.first_invalid == "password"
        assert form.validate() is False
        assert form.state("password").display_message == "Password was found in a breach"
        assert form.announcement == "1 field needs attention: Password"


# ---- changing a live form ----


def test_remove_field():
    with Form() as form:
        form.add_field("email", [Required(), Email()], label="Email")
        form.add_field("password", [Required(), MinLength(8)], label="Password")
        form.add_field("confirm", [Required(), Matches("password")], label="Confirm password")
        form.add_field("nickname", [MaxLength(12)], initial="ada")
        assert form.state("nickname").index == 3  # caches the index
        with pytest.raises(InvalidArgumentError, match="field 'confirm' has a matches rule naming 'password'"):
            form.remove_field("password")
        assert form.field_ids == ["email", "password", "confirm", "nickname"]
        form.focus("confirm")
        form.remove_field("confirm")
        assert form.field_ids == ["email", "password", "nickname"] and len(form) == 3
        assert "confirm" not in form
        state = form.state("nickname")
        assert (state.index, state.value) == (2, "ada")  # the cached index was dropped
        assert [s.phase for s in form.states()] == [Phase.IDLE] * 3  # nothing focused
        form.remove_field("password")  # nothing names it now
        form["nickname"] = "ada lovelace"
        assert form.values == {"email": "", "nickname": "ada lovelace"}
        with pytest.raises(UnknownFieldError):
            form.remove_field("confirm")
        with pytest.raises(UnknownFieldError):
            form.state("confirm")
        # check_many knows the remaining fields and their initial values
        result = form.check_many([{"email": "ada@example.com"}])
        assert result.valid == [True] and result.field_ids == ["email", "nickname"]


def test_reset_with_values_makes_them_the_initial_values():
    with Form() as form:
        form.add_field("name", [Required()], label="Name", initial="Ada")
        form.add_field("bio", [MaxLength(20)], label="Bio")
        form.focus("name")
        form["name"] = "Ada L."
        form.set_error("bio", "Bio rejected")
        assert form.validate() is False
        assert (form.dirty, form.dirty_fields, form.submit_count, form.submit_failed) == (True, ["name"], 1, True)
        form.reset(values={"name": "Ada L."})  # seed 03's "save"
        state = form.state("name")
        assert (state.value, state.initial, state.dirty, state.pristine, state.phase, state.touched,
                state.visited) == ("Ada L.", "Ada L.", False, True, Phase.IDLE, False, False)
        assert form.state("bio").external_error is False
        assert (form.dirty, form.dirty_fields, form.submit_count, form.submit_failed, form.announcement) == (
            False, [], 0, False, "")
        form["name"] = "Ada"
        form.reset()
        assert form["name"] == "Ada L."  # the new initial value stays
        with pytest.raises(UnknownFieldError):
            form.reset(values={"name": "x", "nope": "y"})
        assert form.state("name").initial == "Ada L."  # nothing changed
        with pytest.raises(TypeError):
            form.reset(values=[("name", "x")])
        # check_many fills a missing key with the new initial value
        result = form.check_many([{}, {"name": ""}])
        assert result.valid == [True, False]


# ---- flags ----


def test_field_flags():
    with Form() as form:
        form.add_field("name", [Required()], label="Name", initial="Zo\u00e9")
        form.add_field("email", [Required(), Email()], label="Email")
        state = form.state("name")
        assert (state.visited, state.dirty, state.pristine, state.initial, state.modified_since_submit) == (
            False, False, True, "Zo\u00e9", False)
        form.focus("name")
        assert form.state("name").visited is True
        form["name"] = "Zoe\u0301"  # the same text decomposed: other bytes, so dirty
        state = form.state("name")
        assert (state.dirty, state.pristine, state.modified_since_submit) == (True, False, True)
        assert (form.dirty, form.dirty_fields) == (True, ["name"])
        form["name"] = "Zo\u00e9"
        assert (form.state("name").dirty, form.state("name").modified_since_submit) == (False, True)
        assert form.validate() is False
        assert (form.submit_count, form.submit_failed) == (1, True)
        assert form.state("name").modified_since_submit is False
        form["email"] = "ada@example.com"
        assert form.state("email").modified_since_submit is True
        assert form.validate() is True
        assert (form.submit_count, form.submit_failed) == (2, False)
        assert [form.state(i).modified_since_submit for i in form.field_ids] == [False, False]
        form.reset()
        assert [(s.visited, s.touched, s.dirty) for s in form.states()] == [(False, False, False)] * 2
        assert (form.submit_count, form.submit_failed) == (0, False)


def test_group_validate_clears_modified_since_submit_of_its_fields_only():
    with wizard() as form:
        form["email"] = "ada@example.com"
        form["phone"] = "5551234567"
        form.validate(group="account")
        assert (form.state("email").modified_since_submit, form.state("phone").modified_since_submit) == (
            False, True)


# ---- change tracking ----


def test_revision_and_changed_since():
    with Form() as form:
        form.add_field("a", [Required()])
        form.add_field("b", [Required()])
        start = form.revision
        assert start > 0 and form.changed_since(0) == ["a", "b"]  # adding a field is a change of it
        assert form.changed_since(start) == []
        form["a"] = "x"
        after_a = form.revision
        assert after_a > start and form.changed_since(start) == ["a"]
        assert form.state("a").revision == after_a and form.state("b").revision <= start
        form["a"] = "x"  # the same value: nothing changes
        assert form.revision == after_a and form.changed_since(after_a) == []
        form.focus("a")
        form.focus("b")  # blurs a
        assert form.changed_since(after_a) == ["a", "b"]
        rev = form.revision
        form.mode = "on_submit"  # both fields follow the form: what they show changes
        assert form.revision > rev and form.changed_since(rev) == ["a", "b"]
        with pytest.raises(TypeError):
            form.changed_since("1")
        with pytest.raises(InvalidArgumentError):
            form.changed_since(-1)


def test_changed_since_after_a_removal_names_the_remaining_fields():
    with Form() as form:
        for field_id in ("a", "b", "c"):
            form.add_field(field_id, [Required()])
        rev = form.revision
        form["c"] = "x"
        form.remove_field("a")
        assert form.changed_since(rev) == ["c"]


# ---- presentation and accessibility ----


def test_tint_label_raised_and_emphasized():
    with Form() as form:
        form.add_field("email", [Required(), Email()], label="Email")
        form.add_field("nick", [MaxLength(3)], initial="ada")

        def looks(field_id):
            s = form.state(field_id)
            return s.tint, s.label_raised, s.emphasized

        assert looks("email") == (Tint.NEUTRAL, False, False)  # idle and empty: the label rests
        assert looks("nick") == (Tint.NEUTRAL, True, False)  # idle with a value: raised
        form.focus("email")
        assert looks("email") == (Tint.ACCENT, True, True)  # focused, empty
        form["email"] = "ada@"
        assert looks("email") == (Tint.ERROR, True, True)  # focused, invalid
        form["email"] = "ada@example.com"
        assert looks("email") == (Tint.ACCENT, True, True)  # focused, valid
        form.blur("email")
        assert looks("email") == (Tint.ACCENT, True, False)  # inactive, valid
        form["email"] = "nope"
        assert looks("email") == (Tint.ERROR, True, False)  # inactive, invalid
        form.focus("nick")
        form["nick"] = ""
        form.blur("nick")
        assert form.state("nick").phase is Phase.IDLE and looks("nick") == (Tint.NEUTRAL, False, False)


def test_label_falls_back_to_the_id():
    with Form() as form:
        form.add_field("email", label="Email address")
        form.add_field("note")
        assert (form.state("email").label, form.state("note").label) == ("Email address", "note")
        assert [s.label for s in form.states()] == ["Email address", "note"]


@pytest.mark.parametrize("rule, value, hint", [
    (Required(), "", "Enter a value"),
    (Email(), "ada@", "Enter a valid email address"),
    (Phone(), "123", "Enter a 10-digit phone number"),
    (MinLength(3), "ab", "Enter at least 3 characters"),
    (MaxLength(2), "abc", "Enter at most 2 characters"),
    (Regex("[0-9]+"), "x", "Enter a value in the expected format"),
    (Matches("password"), "x", "Enter the same value as Password"),
    (Custom(lambda v: "no"), "x", "Correct this field"),
    (MinLength(3, message="Too short", hint="Use three letters or more"), "ab", "Use three letters or more"),
    (Custom(lambda v: "no", hint="Pick another"), "x", "Pick another"),
])
def test_accessibility_hints(rule, value, hint):
    with Form() as form:
        form.add_field("password", label="Password", initial="secret")
        form.add_field("a", [rule])
        form["a"] = value
        state = form.state("a")
        assert (state.display, state.accessibility_hint, state.accessibility_value) == (Display.NONE, "", "")
        form.touch("a")
        state = form.state("a")
        assert state.display is Display.ERROR
        assert state.accessibility_hint == hint
        assert state.accessibility_value == state.display_message != ""


def test_accessibility_value_and_hint_are_empty_unless_the_display_is_an_error():
    with Form() as form:
        form.add_field("email", [Required(), Email()], label="Email")
        form.touch("email")
        state = form.state("email")
        assert (state.accessibility_value, state.accessibility_hint) == ("This field is required", "Enter a value")
        form["email"] = "ada@example.com"
        state = form.state("email")
        assert (state.display, state.accessibility_value, state.accessibility_hint) == (Display.VALID, "", "")


def test_rules_take_a_hint():
    assert Required(hint="Type it").hint == "Type it"
    assert MinLength(3, "too short").message == "too short"  # message stays second
    assert MinLength(3, "too short", "longer").hint == "longer"
    assert Email().hint is None
    with Form() as form, pytest.raises(ValueError):
        form.add_field("a", [Required(hint="bad\0hint")])


# ---- announcement ----


def test_announcement_after_a_failed_submit():
    with Form() as form:
        signup(form)
        form.add_field("note", [MaxLength(3)])
        assert form.announcement == ""
        assert form.validate() is False
        assert form.announcement == "2 fields need attention: Email, Password"
        form["email"] = "ada@example.com"  # read live: the announcement follows the values
        assert form.announcement == "1 field needs attention: Password"
        form["note"] = "long note"
        assert form.announcement == "2 fields need attention: Password, note"  # the id when unlabelled
        form["password"] = "correct horse"
        form["note"] = ""
        assert form.announcement == ""
        assert form.validate() is True and form.submit_failed is False and form.announcement == ""


# ---- pickling and specs carry the modes, groups and hints ----


def test_a_form_pickles_with_its_modes_groups_and_hints():
    with Form(mode="on_blur", errors="all") as form:
        form.add_field("email", [Required(hint="Type your email"), Email()], label="Email",
                       groups=["account", "contact"], mode="on_change")
        form.add_field("name", [Required()], groups=["profile"])
        spec = form.to_spec()
        assert (spec["mode"], spec["errors"]) == ("on_blur", "all")
        assert spec["fields"][0] == {"id": "email", "label": "Email", "mode": "on_change",
                                     "groups": ["account", "contact"],
                                     "rules": [{"rule": "required", "hint": "Type your email"}, {"rule": "email"}]}
        assert "mode" not in spec["fields"][1]
        with pickle.loads(pickle.dumps(form)) as copy_:
            assert (copy_.mode, copy_.errors) == (Mode.ON_BLUR, "all")
            assert [s.mode for s in copy_.states()] == [Mode.ON_CHANGE, Mode.ON_BLUR]
            assert copy_.first_invalid_in("contact") == "email" and copy_.first_invalid_in("profile") == "name"
            copy_.touch("email")
            assert copy_.state("email").accessibility_hint == "Type your email"
            assert copy_.to_spec_json() == form.to_spec_json()


def test_a_default_form_spec_has_no_mode_keys():
    with Form() as form:
        form.add_field("a", [Required()])
        assert form.to_spec() == {"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "required"}]}]}


# ---- FieldState keeps its tuple-based value semantics ----


def test_field_state_new_members_are_values():
    with Form(errors="all") as form:
        form.add_field("u", [MinLength(5), Regex("[a-z]+")], label="User")
        form.focus("u")
        state = form.set("u", "AB")
        assert state.errors == ["Must be at least 5 characters", "Invalid format"]
        assert isinstance(state.errors, list)
        state.errors.append("mutating the copy")  # a new list each time: the state is unchanged
        assert len(state.errors) == 2
        assert state == form.state("u") and hash(state) == hash(form.state("u"))
        assert pickle.loads(pickle.dumps(state)) == state
        assert copy.copy(state) == state
        assert dataclasses.asdict(state)["errors"] == ["Must be at least 5 characters", "Invalid format"]
        assert state._asdict()["label"] == "User"
        changed = state._replace(errors=["x"])
        assert changed.errors == ["x"] and changed != state and hash(changed) is not None
        assert "errors=['Must be at least 5 characters', 'Invalid format']" in repr(state)
        assert "mode=<Mode.TWO_STAGE: 'two_stage'>" in repr(state) and "tint=<Tint.ERROR: 2>" in repr(state)
        assert (state.mode, state.tint, state.emphasized, state.label_raised, state.label) == (
            Mode.TWO_STAGE, Tint.ERROR, True, True, "User")
        assert isinstance(state, FieldState) and state.revision == form.revision


def test_states_reads_every_member_for_every_field():
    """states() slices each field's texts by the text_size of the fields before it."""
    with Form(errors="all") as form:
        form.add_field("a", [MinLength(3), Regex("[0-9]+", hint="Digits only")], label="Alpha", initial="x")
        form.add_field("b", [Required()])
        form.add_field("c", label="Gamma", initial="long initial value " * 20)
        form.touch_all()
        states = form.states()
        assert states == [form.state(i) for i in form.field_ids]
        assert [(s.label, s.initial, s.errors, s.accessibility_hint) for s in states] == [
            ("Alpha", "x", ["Must be at least 3 characters", "Invalid format"], "Enter at least 3 characters"),
            ("b", "", ["This field is required"], "Enter a value"),
            ("Gamma", "long initial value " * 20, [], ""),
        ]
