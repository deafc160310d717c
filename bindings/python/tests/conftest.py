"""Test setup: import the installed formwell if there is one, else the source tree's.

Run from the repository root:
    FORMWELL_LIBRARY=$PWD/.build/release/libformwell.so python3 -m pytest bindings/python/tests -q
or, after `pip install ./bindings/python` (which bundles the library), without FORMWELL_LIBRARY.
"""

import importlib.util
import os
import sys

import pytest

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(os.path.dirname(PACKAGE_ROOT))

_spec = importlib.util.find_spec("formwell")
if _spec is None:
    sys.path.insert(0, PACKAGE_ROOT)
    _spec = importlib.util.find_spec("formwell")
_from_source = os.path.dirname(os.path.dirname(_spec.origin)) == PACKAGE_ROOT
_repo_build = os.path.join(REPO_ROOT, ".build", "release", "libformwell.so")
if _from_source and "FORMWELL_LIBRARY" not in os.environ and os.path.exists(_repo_build):
    # The source tree has no bundled copy: use the repository's build (`make lib`).
    os.environ["FORMWELL_LIBRARY"] = _repo_build

import formwell  # noqa: E402


def pytest_report_header(config):
    return f"formwell from {os.path.dirname(formwell.__file__)}; library {formwell.library_path}"


def run_python_example(name):
    """Runs bindings/python/examples/<name> with this formwell importable; the finished process."""
    import subprocess

    example = os.path.join(PACKAGE_ROOT, "examples", name)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(formwell.__file__))
    return subprocess.run([sys.executable, example], env=env, capture_output=True, text=True, timeout=60)


@pytest.fixture
def form():
    with formwell.Form() as f:
        yield f


def expect(form, field_id, phase, validity, message="", display="NONE", error=None, touched=None):
    """Asserts one field's full state; phase/validity/display given by enum member name."""
    state = form.state(field_id)
    got = (state.phase.name, state.validity.name, state.message, state.display.name, state.display_message)
    want = (phase, validity, message, display, error or "")
    assert got == want, f"{field_id}: got {got}, want {want}"
    if touched is not None:
        assert state.touched is touched, f"{field_id}: touched {state.touched}, want {touched}"
