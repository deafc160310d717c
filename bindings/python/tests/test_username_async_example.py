"""bindings/python/examples/username_async.py runs as a user would run it (a subprocess) and prints
exactly this walk through an asynchronous rule with asyncio: a debounced availability check, a slow
answer for an old value dropped as stale, and a submit that does not wait out the debounce."""

from conftest import run_python_example

EXPECTED = (
    "-- typing (a check waits for 0.2 s without typing)\n"
    "typed 'ada'      username 'ada': pending\n"
    "   server: checking 'ada' (slow)\n"
    "typed 'adam'     username 'adam': pending\n"
    "typed 'adam_'    username 'adam_': pending\n"
    "   server: checking 'adam_'\n"
    "   server: 'adam_' is free\n"
    "   server: 'ada' is taken (answer arrives late)\n"
    "settled          username 'adam_': valid\n"
    "   stale results dropped: 1; server calls: ['ada', 'adam_']\n"
    "-- submit right after typing (no debounce wait)\n"
    "typed 'adam'     username 'adam': pending\n"
    "   server: checking 'adam'\n"
    "   server: 'adam' is taken\n"
    "submitted        username 'adam': invalid: That username is taken\n"
    "   valid=False; announce: '1 field needs attention: Username'; server calls: ['ada', 'adam_', 'adam']\n"
)


def run_example():
    return run_python_example("username_async.py")


def test_the_example_prints_every_state():
    done = run_example()
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == EXPECTED


def test_the_example_shows_what_issue_12_asks_for():
    """The same transcript, read for the points the example is there to make."""
    lines = EXPECTED.splitlines()
    # typing: pending while a check is due or running, never an error shown meanwhile
    assert all(line.endswith(": pending") for line in lines if line.startswith("typed"))
    # "adam" was typed over before its debounce ended: never sent
    assert "   stale results dropped: 1; server calls: ['ada', 'adam_']" in lines
    # the slow answer for "ada" arrives after the one for "adam_" and does not overwrite it
    assert lines.index("   server: 'ada' is taken (answer arrives late)") > lines.index("   server: 'adam_' is free")
    assert lines.index("settled          username 'adam_': valid") > lines.index(
        "   server: 'ada' is taken (answer arrives late)")
    # validate_async: the check runs at once and the verdict is final
    assert "submitted        username 'adam': invalid: That username is taken" in lines
