"""The three example forms of seed 03, driven through realistic event sequences, with seed 01/02's
state model: every field's full state is checked after every step."""

import re

import pytest
from urllib.parse import urlparse

import formwell
from formwell import Custom, Email, Form, Matches, MaxLength, MinLength, Regex, Required

from conftest import expect


def password_strength(value):
    """Seed 03's PasswordStrengthValidator."""
    score = 0
    if len(value) >= 8:
        score += 1
    if re.search("[A-Z]", value):
        score += 1
    if re.search("[0-9]", value):
        score += 1
    if re.search("[^A-Za-z0-9]", value):
        score += 1
    return "Password too weak — add uppercase, numbers, or symbols" if score < 3 else None


def url_validator(value):
    """Seed 03's URLValidator."""
    parsed = urlparse(value)
    if not parsed.scheme or not parsed.netloc:
        return "Enter a valid URL including https://"
    return True


# ---- 1. login ----


def login_form():
    form = Form()
    form.add_field("email", [Required(), Email()], label="Email")
    form.add_field("password", [Required(), MinLength(8)], label="Password")
    return form


def test_login_typing_blur_and_submit():
    with login_form() as form:
        expect(form, "email", "IDLE", "EMPTY", touched=False)
        expect(form, "password", "IDLE", "EMPTY", touched=False)
        assert form.is_valid is False and form.first_invalid == "email"

        form.focus("email")
        expect(form, "email", "FOCUSED", "EMPTY")  # stage 1: empty is not an error
        form["email"] = "ada"
        expect(form, "email", "FOCUSED", "INVALID", "Invalid email format", touched=False)
        form["email"] = "ada@example"
        expect(form, "email", "FOCUSED", "INVALID", "Invalid email format")
        form["email"] = "ada@example.com"
        expect(form, "email", "FOCUSED", "VALID")
        expect(form, "password", "IDLE", "EMPTY")

        form.focus("password")  # moving focus blurs the email field
        expect(form, "email", "INACTIVE", "VALID", display="VALID", touched=True)
        expect(form, "password", "FOCUSED", "EMPTY", touched=False)
        form["password"] = "short"
        expect(form, "password", "FOCUSED", "INVALID", "Must be at least 8 characters")
        form.blur("password")
        expect(form, "password", "INACTIVE", "INVALID", "Must be at least 8 characters",
               "ERROR", "Must be at least 8 characters", touched=True)

        assert form.validate() is False
        assert form.first_invalid == "password"
        assert form.is_valid is False

        form.focus("password")
        form["password"] = "correct horse"
        expect(form, "password", "FOCUSED", "VALID", display="VALID")
        expect(form, "email", "INACTIVE", "VALID", display="VALID")
        assert form.validate() is True  # submit while focused: focus is kept
        expect(form, "password", "FOCUSED", "VALID", display="VALID")
        assert form.is_valid and form.first_invalid is None
        assert form.values == {"email": "ada@example.com", "password": "correct horse"}

        form.reset()
        for field in ("email", "password"):
            expect(form, field, "IDLE", "EMPTY", touched=False)
        assert form.values == {"email": "", "password": ""}


def test_login_submit_untouched():
    with login_form() as form:
        assert form.validate() is False
        for field in ("email", "password"):
            expect(form, field, "INACTIVE", "INVALID", "This field is required",
                   "ERROR", "This field is required", touched=True)
        assert form.first_invalid == "email"
        form.focus("email")  # focused and empty: lenient, but the display keeps the strict verdict
        expect(form, "email", "FOCUSED", "EMPTY", display="ERROR", error="This field is required")
        form["email"] = "ada@example.com"
        expect(form, "email", "FOCUSED", "VALID", display="VALID")
        assert form.first_invalid == "password"


def test_login_focus_then_leave_empty():
    with login_form() as form:
        form.focus("email")
        form.blur("email")
        expect(form, "email", "INACTIVE", "INVALID", "This field is required",
               "ERROR", "This field is required", touched=True)
        expect(form, "password", "IDLE", "EMPTY", touched=False)


# ---- 2. registration ----

REGISTRATION_VALUES = {
    "name": "Ada",
    "email": "ada@example.com",
    "username": "ada_l",
    "password": "Passw0rd!",
    "confirm": "Passw0rd!",
}


def registration_form():
    form = Form()
    form.add_field("name", [Required(message="Name is required")], label="Display name")
    form.add_field("email", [Required(), Email()], label="Email address")
    form.add_field("username", [
        Required(),
        MinLength(3, message="At least 3 characters"),
        MaxLength(20, message="20 characters maximum"),
        Regex("^[a-z0-9_]+$", message="Lowercase letters, numbers, and underscores only"),
    ], label="Username")
    form.add_field("password", [Required(), MinLength(8), Custom(password_strength)], label="Password")
    form.add_field("confirm", [
        Required(message="Please confirm your password"),
        Matches("password", message="Passwords don't match"),
    ], label="Confirm password")
    return form


def test_registration_full_walkthrough():
    with registration_form() as form:
        assert form.field_ids == ["name", "email", "username", "password", "confirm"]

        # The name field is entered and left empty.
        form.focus("name")
        expect(form, "name", "FOCUSED", "EMPTY")
        form.blur("name")
        expect(form, "name", "INACTIVE", "INVALID", "Name is required", "ERROR", "Name is required", touched=True)
        form.focus("name")
        form["name"] = "Ada"
        expect(form, "name", "FOCUSED", "VALID", display="VALID")

        # Username: each rule in turn, first failure wins.
        form.focus("username")
        expect(form, "name", "INACTIVE", "VALID", display="VALID")
        form["username"] = "Ad"
        expect(form, "username", "FOCUSED", "INVALID", "At least 3 characters", touched=False)
        form["username"] = "Ada Lovelace"
        expect(form, "username", "FOCUSED", "INVALID", "Lowercase letters, numbers, and underscores only")
        form["username"] = "ada_lovelace_the_countess"
        expect(form, "username", "FOCUSED", "INVALID", "20 characters maximum")
        form["username"] = "ada_l"
        expect(form, "username", "FOCUSED", "VALID")

        form.focus("email")
        expect(form, "username", "INACTIVE", "VALID", display="VALID", touched=True)
        form["email"] = "ada@example.com"
        form.blur("email")
        expect(form, "email", "INACTIVE", "VALID", display="VALID", touched=True)

        # Password: min length, then the custom strength rule.
        form.focus("password")
        form["password"] = "Pass"
        expect(form, "password", "FOCUSED", "INVALID", "Must be at least 8 characters")
        form["password"] = "password"
        expect(form, "password", "FOCUSED", "INVALID", "Password too weak — add uppercase, numbers, or symbols")
        form["password"] = "Passw0rd"
        expect(form, "password", "FOCUSED", "VALID")

        # Confirm password.
        form.focus("confirm")
        expect(form, "password", "INACTIVE", "VALID", display="VALID", touched=True)
        form["confirm"] = "Passw0r"
        expect(form, "confirm", "FOCUSED", "INVALID", "Passwords don't match")
        form["confirm"] = "Passw0rd"
        expect(form, "confirm", "FOCUSED", "VALID")
        form.blur("confirm")
        expect(form, "confirm", "INACTIVE", "VALID", display="VALID", touched=True)
        assert form.is_valid

        # Changing the password re-checks the confirmation.
        form.focus("password")
        form["password"] = "Passw0rd!"
        expect(form, "password", "FOCUSED", "VALID", display="VALID")
        expect(form, "confirm", "INACTIVE", "INVALID", "Passwords don't match", "ERROR", "Passwords don't match")
        assert form.validate() is False
        assert form.first_invalid == "confirm"

        form.focus("confirm")
        form["confirm"] = "Passw0rd!"
        expect(form, "confirm", "FOCUSED", "VALID", display="VALID")
        assert form.validate() is True
        assert form.values == REGISTRATION_VALUES


def test_registration_submit_empty_then_messages():
    with registration_form() as form:
        assert form.validate() is False
        messages = {f: form.state(f).error for f in form.field_ids}
        assert messages == {
            "name": "Name is required",
            "email": "This field is required",
            "username": "This field is required",
            "password": "This field is required",
            "confirm": "Please confirm your password",
        }
        assert form.first_invalid == "name"
        for field, value in REGISTRATION_VALUES.items():
            form[field] = value  # programmatic: strict stage
        for field in REGISTRATION_VALUES:
            expect(form, field, "INACTIVE", "VALID", display="VALID", touched=True)
        assert form.is_valid and form.first_invalid is None


def test_registration_confirm_before_password_and_default_matches_message():
    with Form() as form:
        form.add_field("password", [Required()], label="Password")
        form.add_field("confirm", [Matches("password")])
        form["confirm"] = "secret"
        expect(form, "confirm", "INACTIVE", "INVALID", "Must match Password", touched=False)
        form["password"] = "secret"
        expect(form, "confirm", "INACTIVE", "VALID")


# ---- 3. profile edit with initial values ----

PROFILE = {
    "displayName": "Ada Lovelace",
    "bio": "Analyst of the Analytical Engine",
    "website": "https://ada.example",
    "location": "London",
}


def profile_form():
    form = Form()
    form.add_field("displayName", [
        Required(message="Display name is required"),
        MaxLength(50, message="50 characters maximum"),
    ], label="Display name", initial=PROFILE["displayName"])
    form.add_field("bio", [MaxLength(280, message="Bio must be 280 characters or fewer")],
                   label="Bio", initial=PROFILE["bio"])
    form.add_field("website", [Custom(url_validator)], label="Website", initial=PROFILE["website"])
    form.add_field("location", [MaxLength(100, message="100 characters maximum")],
                   label="Location", initial=PROFILE["location"])
    return form


def test_profile_edit_walkthrough():
    with profile_form() as form:
        assert form.values == PROFILE
        for field in PROFILE:
            expect(form, field, "IDLE", "EMPTY", touched=False)
        assert form.is_valid and form.first_invalid is None

        # Clearing the display name.
        form.focus("displayName")
        expect(form, "displayName", "FOCUSED", "VALID")
        form["displayName"] = ""
        expect(form, "displayName", "FOCUSED", "EMPTY")
        form.blur("displayName")
        expect(form, "displayName", "INACTIVE", "INVALID", "Display name is required",
               "ERROR", "Display name is required", touched=True)
        assert form.is_valid is False and form.first_invalid == "displayName"
        form.focus("displayName")
        form["displayName"] = "A" * 51
        expect(form, "displayName", "FOCUSED", "INVALID", "50 characters maximum", "ERROR", "50 characters maximum")
        form["displayName"] = "Ada King"
        expect(form, "displayName", "FOCUSED", "VALID", display="VALID")

        # The website's custom validator.
        form.focus("website")
        expect(form, "displayName", "INACTIVE", "VALID", display="VALID")
        form["website"] = "ada dot example"
        expect(form, "website", "FOCUSED", "INVALID", "Enter a valid URL including https://")
        form.blur("website")
        expect(form, "website", "INACTIVE", "INVALID", "Enter a valid URL including https://",
               "ERROR", "Enter a valid URL including https://", touched=True)
        form.focus("website")
        form["website"] = ""
        expect(form, "website", "FOCUSED", "EMPTY")
        form.blur("website")  # optional and empty: idle, nothing shown
        expect(form, "website", "IDLE", "EMPTY", touched=True)

        # A programmatic change on an untouched field: judged, not shown until submit.
        form["bio"] = "x" * 281
        expect(form, "bio", "INACTIVE", "INVALID", "Bio must be 280 characters or fewer", touched=False)
        assert form.validate() is False
        assert form.first_invalid == "bio"
        expect(form, "bio", "INACTIVE", "INVALID", "Bio must be 280 characters or fewer",
               "ERROR", "Bio must be 280 characters or fewer", touched=True)
        expect(form, "location", "INACTIVE", "VALID", display="VALID", touched=True)
        form["bio"] = "Countess of Lovelace"
        assert form.validate() is True
        assert form.values == {**PROFILE, "displayName": "Ada King", "bio": "Countess of Lovelace", "website": ""}

        # Cancel: back to the initial values.
        form.reset()
        assert form.values == PROFILE
        for field in PROFILE:
            expect(form, field, "IDLE", "EMPTY", touched=False)
        assert form.is_valid


def test_profile_initial_value_that_breaks_a_rule():
    with Form() as form:
        form.add_field("bio", [MaxLength(5)], initial="far too long")
        expect(form, "bio", "IDLE", "EMPTY", touched=False)
        assert form.is_valid is False and form.first_invalid == "bio"
        form.touch("bio")
        expect(form, "bio", "INACTIVE", "INVALID", "Must be 5 characters or fewer",
               "ERROR", "Must be 5 characters or fewer", touched=True)
        form.reset()
        assert form["bio"] == "far too long"
        expect(form, "bio", "IDLE", "EMPTY", touched=False)


def test_touch_and_touch_all():
    with login_form() as form:
        form.touch("email")
        expect(form, "email", "INACTIVE", "INVALID", "This field is required",
               "ERROR", "This field is required", touched=True)
        expect(form, "password", "IDLE", "EMPTY", touched=False)
        form.touch_all()
        expect(form, "password", "INACTIVE", "INVALID", "This field is required",
               "ERROR", "This field is required", touched=True)


def test_phone_rule_and_seed02_custom_prefix():
    with Form() as form:
        form.add_field("phone", [Required(), formwell.Phone()])
        form.add_field("intl", [Custom(lambda v: None if v.startswith("+") else "Number must start with '+'")])
        form.focus("phone")
        form["phone"] = "12345"
        expect(form, "phone", "FOCUSED", "INVALID", "Invalid phone number")
        form["phone"] = "0123456789"
        expect(form, "phone", "FOCUSED", "VALID")
        form["phone"] = "٠١٢٣٤٥٦٧٨٩"  # Arabic-Indic digits are not dialled
        expect(form, "phone", "FOCUSED", "INVALID", "Invalid phone number")
        form.focus("intl")
        form["intl"] = "44 20"
        expect(form, "intl", "FOCUSED", "INVALID", "Number must start with '+'")
        form["intl"] = "+44 20"
        expect(form, "intl", "FOCUSED", "VALID")


def test_match_limits_make_a_field_invalid_not_hung():
    with Form() as form:
        form.add_field("r", [Regex("(a|aa)+$")])
        form["r"] = "a" * 20 + "b"
        assert form.state("r").limit_exceeded is False  # default limits: judged normally
        form.set_match_limits(match_limit=1000)
        state = form.state("r")
        assert (state.validity.name, state.message, state.limit_exceeded) == (
            "INVALID", "This value is too complex to check", True)
        form.set_match_limits()  # None everywhere: every limit keeps its value
        assert form.match_limits.match_limit == 1000
        assert form.state("r").limit_exceeded is True
        form.set_match_limits(match_limit=1_000_000)
        assert form.state("r").limit_exceeded is False
    with pytest.raises(TypeError):
        Form().set_match_limits(match_limit="1")
