"""A two-step sign-up wizard: validation groups for the steps, a password judged only when the user
leaves it, a server-side "email already registered" error, and a view that redraws only the fields
whose state changed.

- Groups: "account" (email, password, confirm) is step 1, "profile" (name, phone) step 2.
  ``form.validate(group=...)`` touches and judges one step; ``form.validate()`` is the final submit.
- Seed 03's "don't show password strength errors until the user has left the field": the password
  field has its own mode, ``on_blur``. While the user types, nothing is shown (the live verdict
  still drives ``is_valid`` and ``first_invalid``); each blur shows the verdict of that moment.
- The server's answer comes back as ``form.set_error("email", ...)``: the field shows it (with the
  accessibility hint "Correct this field") until its value changes.
- The view remembers ``form.revision`` after each redraw and asks ``form.changed_since(...)`` which
  fields to redraw next time.

Run from the repository root after `make lib`:
    FORMWELL_LIBRARY=.build/release/libformwell.so python3 bindings/python/examples/signup_wizard.py
or, after `pip install ./bindings/python`:
    python3 bindings/python/examples/signup_wizard.py
"""

import os
import sys
from typing import List

try:
    import formwell
except ImportError:  # not installed: use the source tree next to this example
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import formwell

from formwell import Email, FieldState, Form, Matches, MinLength, Phone, Regex, Required

#: What the "server" already has.
REGISTERED = {"ada@example.com"}


def build_form() -> Form:
    form = Form()
    form.add_field("email", [Required(), Email()], label="Email", groups=["account"])
    form.add_field("password", [
        Required(),
        MinLength(8),
        Regex(".*[0-9].*", message="Include a digit", hint="Add a digit (0-9)"),
    ], label="Password", groups=["account"], mode="on_blur")
    form.add_field("confirm", [Required(), Matches("password", message="Passwords don't match")],
                   label="Confirm password", groups=["account"])
    form.add_field("name", [Required()], label="Name", groups=["profile"])
    form.add_field("phone", [Phone()], label="Phone", groups=["profile"])
    return form


class View:
    """Draws fields; redraws only what changed since the last draw (form.changed_since)."""

    def __init__(self, form: Form) -> None:
        self.form = form
        self.drawn_at = 0  # every field counts as changed since revision 0

    @staticmethod
    def line(state: FieldState) -> str:
        shows = {"NONE": "-", "VALID": "ok"}.get(state.display.name, f"error: {state.display_message}")
        flags = [name for name in ("emphasized", "dirty", "external_error") if getattr(state, name)]
        text = f"{state.label:<16} {state.phase.name.lower():<8} {state.tint.name.lower():<7} {shows}"
        if state.accessibility_hint:
            text += f" [hint: {state.accessibility_hint}]"
        return text + (f" ({', '.join(flags)})" if flags else "")

    def redraw(self, what: str) -> List[str]:
        changed = self.form.changed_since(self.drawn_at)
        self.drawn_at = self.form.revision
        print(f"-- {what}: redraw {', '.join(changed) if changed else 'nothing'}")
        for field_id in changed:
            print("   " + self.line(self.form.state(field_id)))
        return changed


def server_accepts(email: str) -> bool:
    return email not in REGISTERED


def type_into(form: Form, field_id: str, text: str) -> None:
    form.focus(field_id)
    form[field_id] = text


def account_step(form: Form, view: View) -> bool:
    """Step 1's "Next" button: the group's rules, then the server's check."""
    valid = form.validate(group="account")
    print(f"   next: account valid={valid}, first invalid={form.first_invalid_in('account')}")
    if not valid:
        return False
    email = form["email"]
    if not server_accepts(email):
        form.set_error("email", "Email already registered")
        print(f"   server: {email} is taken")
        return False
    return True


def main() -> int:
    with build_form() as form:
        view = View(form)
        view.redraw("step 1 of 2, account")

        type_into(form, "email", "ada@example.com")
        view.redraw("typed the email")

        type_into(form, "password", "abc")
        view.redraw("typing the password (on_blur: nothing shown yet)")
        print(f"   live: is_valid_in(account)={form.is_valid_in('account')}, "
              f"password shows {form.state('password').validity.name.lower()}")

        form.focus("confirm")  # leaves the password: its verdict is shown now
        view.redraw("left the password")

        type_into(form, "password", "correct horse")
        view.redraw("fixing the password (the shown error waits for the blur)")
        form.blur("password")
        view.redraw("left the password again")

        type_into(form, "password", "correct horse 1")
        type_into(form, "confirm", "correct horse 1")
        view.redraw("password and confirmation")

        print("-- next pressed")
        accepted = account_step(form, view)
        view.redraw("after the server's answer")
        state = form.state("email")
        print(f"   accessibility: value={state.accessibility_value!r} hint={state.accessibility_hint!r}")

        type_into(form, "email", "ada@example.com")  # the same value again: the error stays
        view.redraw("retyped the same email")

        type_into(form, "email", "ada.lovelace@example.com")
        view.redraw("changed the email")

        print("-- next pressed")
        accepted = account_step(form, view)
        view.redraw(f"account step accepted={accepted}")

        print("-- step 2 of 2, profile")
        type_into(form, "phone", "555123")
        view.redraw("typed part of the phone")

        print("-- finish pressed")
        submitted = form.validate()  # the whole form: a submit
        print(f"   submit: {'accepted' if submitted else 'refused'}; submit_count={form.submit_count}, "
              f"profile valid={form.is_valid_in('profile')}, focus {form.first_invalid}")
        print(f"   announce: {form.announcement!r}")
        view.redraw("profile errors")

        type_into(form, "name", "Ada Lovelace")
        type_into(form, "phone", "5551234567")
        form.blur("phone")
        view.redraw("filled the profile")

        print("-- finish pressed")
        submitted = form.validate()
        print(f"   submit: {'accepted' if submitted else 'refused'}; submit_count={form.submit_count}, "
              f"announcement={form.announcement!r}")
        print(f"   values: {form.values}")
        return 0 if submitted and accepted else 1


if __name__ == "__main__":
    sys.exit(main())
