"""bindings/python/examples/signup_wizard.py runs as a user would run it (a subprocess) and prints
exactly this walk through the form behaviour: groups as wizard steps, an on_blur password, a server
error set with set_error, redraws driven by changed_since, the announcement after a failed submit."""

from conftest import run_python_example

EXPECTED = (
    '-- step 1 of 2, account: redraw email, password, confirm, name, phone\n'
    '   Email            idle     neutral -\n'
    '   Password         idle     neutral -\n'
    '   Confirm password idle     neutral -\n'
    '   Name             idle     neutral -\n'
    '   Phone            idle     neutral -\n'
    '-- typed the email: redraw email\n'
    '   Email            focused  accent  - (emphasized, dirty)\n'
    '-- typing the password (on_blur: nothing shown yet): redraw email, password\n'
    '   Email            inactive accent  ok (dirty)\n'
    '   Password         focused  accent  - (emphasized, dirty)\n'
    '   live: is_valid_in(account)=False, password shows empty\n'
    '-- left the password: redraw password, confirm\n'
    '   Password         inactive error   error: Must be at least 8 characters [hint: Enter at least 8 characters] (dirty)\n'
    '   Confirm password focused  accent  - (emphasized)\n'
    '-- fixing the password (the shown error waits for the blur): redraw password, confirm\n'
    '   Password         focused  error   error: Must be at least 8 characters [hint: Enter at least 8 characters] (emphasized, dirty)\n'
    '   Confirm password inactive error   error: This field is required [hint: Enter a value]\n'
    '-- left the password again: redraw password\n'
    '   Password         inactive error   error: Include a digit [hint: Add a digit (0-9)] (dirty)\n'
    '-- password and confirmation: redraw password, confirm\n'
    '   Password         inactive accent  ok (dirty)\n'
    '   Confirm password focused  accent  ok (emphasized, dirty)\n'
    '-- next pressed\n'
    '   next: account valid=True, first invalid=None\n'
    '   server: ada@example.com is taken\n'
    "-- after the server's answer: redraw email, password, confirm\n"
    '   Email            inactive error   error: Email already registered [hint: Correct this field] (dirty, external_error)\n'
    '   Password         inactive accent  ok (dirty)\n'
    '   Confirm password focused  accent  ok (emphasized, dirty)\n'
    "   accessibility: value='Email already registered' hint='Correct this field'\n"
    '-- retyped the same email: redraw email, confirm\n'
    '   Email            focused  error   error: Email already registered [hint: Correct this field] (emphasized, dirty, external_error)\n'
    '   Confirm password inactive accent  ok (dirty)\n'
    '-- changed the email: redraw email\n'
    '   Email            focused  accent  ok (emphasized, dirty)\n'
    '-- next pressed\n'
    '   next: account valid=True, first invalid=None\n'
    '-- account step accepted=True: redraw email\n'
    '   Email            focused  accent  ok (emphasized, dirty)\n'
    '-- step 2 of 2, profile\n'
    '-- typed part of the phone: redraw email, phone\n'
    '   Email            inactive accent  ok (dirty)\n'
    '   Phone            focused  error   - (emphasized, dirty)\n'
    '-- finish pressed\n'
    '   submit: refused; submit_count=1, profile valid=False, focus name\n'
    "   announce: '2 fields need attention: Name, Phone'\n"
    '-- profile errors: redraw name, phone\n'
    '   Name             inactive error   error: This field is required [hint: Enter a value]\n'
    '   Phone            focused  error   error: Invalid phone number [hint: Enter a 10-digit phone number] (emphasized, dirty)\n'
    '-- filled the profile: redraw name, phone\n'
    '   Name             inactive accent  ok (dirty)\n'
    '   Phone            inactive accent  ok (dirty)\n'
    '-- finish pressed\n'
    "   submit: accepted; submit_count=2, announcement=''\n"
    "   values: {'email': 'ada.lovelace@example.com', 'password': 'correct horse 1', 'confirm': 'correct horse 1', 'name': 'Ada Lovelace', 'phone': '5551234567'}\n"
)


def run_example():
    return run_python_example("signup_wizard.py")


def test_the_wizard_prints_every_state():
    done = run_example()
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == EXPECTED


def test_the_wizard_shows_what_issue_11_asks_for():
    """The same transcript, read for the points the example is there to make."""
    lines = EXPECTED.splitlines()
    # on_blur: while typing "abc" the password shows nothing, though the live verdict is invalid
    typing = lines.index("-- typing the password (on_blur: nothing shown yet): redraw email, password")
    assert lines[typing + 2] == "   Password         focused  accent  - (emphasized, dirty)"
    assert lines[typing + 3] == "   live: is_valid_in(account)=False, password shows empty"
    # the server's error, with its accessibility value and hint, stays for the same value
    assert "   server: ada@example.com is taken" in lines
    assert "   accessibility: value='Email already registered' hint='Correct this field'" in lines
    retyped = lines.index("-- retyped the same email: redraw email, confirm")
    assert "external_error" in lines[retyped + 1]
    # changed_since: a keystroke in one field redraws that field only
    assert "-- typed the email: redraw email" in lines
    assert "-- changed the email: redraw email" in lines
    # a failed submit announces the fields by label; the second is accepted
    assert "   announce: '2 fields need attention: Name, Phone'" in lines
    assert "   submit: accepted; submit_count=2, announcement=''" in lines
