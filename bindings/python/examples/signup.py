"""A sign-up form walked through the way a user fills it in, printing what a view would show.

Run from the repository root after `make lib`:
    FORMWELL_LIBRARY=.build/release/libformwell.so python3 bindings/python/examples/signup.py
or, after `pip install ./bindings/python`:
    python3 bindings/python/examples/signup.py
"""

import os
import sys

try:
    import formwell
except ImportError:  # not installed: use the source tree next to this example
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import formwell

from formwell import Custom, Email, Form, Matches, MaxLength, MinLength, Regex, Required

TAKEN = {"admin", "root", "ada"}


def unique_username(value: str):
    """A custom rule: None or True is valid, a string is the error message."""
    return "That username is already taken" if value.lower() in TAKEN else None


def show(form: Form, title: str) -> None:
    print(f"-- {title}")
    for state in form.states():  # every field's state in one call, registration order
        field_id = state.id
        shown = {"NONE": "", "VALID": "ok", "ERROR": f"error: {state.display_message}"}[state.display.name]
        print(f"   {field_id:<9} {state.phase.name.lower():<8} {state.validity.name.lower():<7} {shown}")


def main() -> int:
    with Form() as form:
        form.add_field("email", [Required(), Email()], label="Email")
        form.add_field("username", [
            Required(),
            MinLength(3, message="At least 3 characters"),
            MaxLength(20, message="20 characters maximum"),
            Regex("[a-z0-9_]+", message="Lowercase letters, numbers, and underscores only"),
            Custom(unique_username),
        ], label="Username")
        form.add_field("password", [Required(), MinLength(8)], label="Password")
        form.add_field("confirm", [Required(message="Please confirm your password"),
                                   Matches("password", message="Passwords don't match")])

        show(form, "empty form")
        form.focus("email")
        form["email"] = "ada@"
        show(form, "typing an e-mail (lenient while focused, nothing shown yet)")
        form["email"] = "ada@example.com"
        form.focus("username")
        form["username"] = "Ada"
        form.focus("password")
        show(form, "after leaving the username")
        form["password"] = "s3cret-pass"
        form.focus("confirm")
        form["confirm"] = "s3cret-pas"
        form.blur("confirm")
        show(form, "confirmation left with a typo")

        if not form.validate():
            print(f"submit refused; focus goes to {form.first_invalid!r}")
        form.focus("username")
        form["username"] = "ada_l"
        form.focus("confirm")
        form["confirm"] = "s3cret-pass"
        ok = form.validate()
        show(form, "fixed")
        print("submit:", "accepted" if ok else "refused", {k: v for k, v in form.values.items() if k == "email"})

        try:
            form.add_field("code", [Regex("[A-Z")])
        except formwell.PatternError as error:
            print(f"bad pattern: {error.detail} (offset {error.offset})")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
