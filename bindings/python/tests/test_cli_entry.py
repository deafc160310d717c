"""``python -m formwell`` and the ``formwell`` console script (formwell/_cli.py) run the compiled
tool in place of the Python process: the bundled formwell/_bin/formwell, else a ``formwell`` on
PATH that is not a Python entry point; the tool's output and exit status pass through unchanged."""

import os
import shutil
import subprocess
import sys

import pytest

import formwell
from formwell import _cli

from conftest import REPO_ROOT

SOURCE_PACKAGE = os.path.dirname(formwell.__file__)
REGISTRATION = os.path.join(REPO_ROOT, "examples", "registration.json")
SIGNUPS = os.path.join(REPO_ROOT, "examples", "signups.jsonl")


@pytest.fixture(scope="module")
def tool():
    """The compiled tool: $FORMWELL_CLI, else the repository's .build/bin/formwell (`make cli`)."""
    path = os.environ.get("FORMWELL_CLI") or os.path.join(REPO_ROOT, ".build", "bin", "formwell")
    if not os.path.isfile(path):
        pytest.skip(f"no formwell tool at {path} (make cli, or set FORMWELL_CLI)")
    return path


def package_copy(tmp_path, tool=None):
    """A copy of the package in tmp_path/site without its bundled files, with ``tool`` as its
    _bin/formwell if given."""
    target = tmp_path / "site" / "formwell"
    shutil.copytree(SOURCE_PACKAGE, target, ignore=shutil.ignore_patterns("_lib", "_bin", "__pycache__"))
    if tool:
        (target / "_bin").mkdir()
        shutil.copy2(tool, target / "_bin" / "formwell")
    return tmp_path / "site"


def run_module(site, arguments, path):
    env = {k: v for k, v in os.environ.items() if k != "FORMWELL_LIBRARY"}
    env.update(PYTHONPATH=str(site), FORMWELL_LIBRARY=formwell.library_path, PATH=path)
    return subprocess.run([sys.executable, "-m", "formwell"] + arguments, env=env, capture_output=True,
                          timeout=120, cwd=str(site))


def fake_entry_point(folder, name="formwell"):
    """A script like the console script pip writes (it would run _cli again): must never be run."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text("#!/bin/sh\n# from formwell._cli import main\necho LOOP; exit 99\n")
    script.chmod(0o755)
    return folder


def test_the_bundled_tool_runs_with_the_same_output_and_status(tmp_path, tool):
    site = package_copy(tmp_path, tool)
    version = run_module(site, ["--version"], os.defpath)
    assert (version.returncode, version.stdout, version.stderr) == (0, f"formwell {formwell.__version__}\n".encode(), b"")
    direct = subprocess.run([tool, "check", REGISTRATION, SIGNUPS], capture_output=True, timeout=120)
    through = run_module(site, ["check", REGISTRATION, SIGNUPS], os.defpath)
    assert direct.returncode == 1 and direct.stdout  # some sign-ups are invalid
    assert (through.returncode, through.stdout, through.stderr) == (direct.returncode, direct.stdout, direct.stderr)
    usage = run_module(site, ["no-such-command"], os.defpath)
    assert usage.returncode == 2 and b"unknown command" in usage.stderr


def test_without_a_bundled_tool_path_is_searched_past_python_entry_points(tmp_path, tool):
    site = package_copy(tmp_path)
    scripts = fake_entry_point(tmp_path / "venv-bin")
    tools = tmp_path / "tools"
    tools.mkdir()
    os.symlink(tool, tools / "formwell")
    done = run_module(site, ["--version"], os.pathsep.join([str(scripts), str(tools)]))
    assert (done.returncode, done.stdout) == (0, f"formwell {formwell.__version__}\n".encode()), done.stderr


def test_without_any_tool_it_says_so_and_exits_2(tmp_path):
    site = package_copy(tmp_path)
    scripts = fake_entry_point(tmp_path / "venv-bin")
    done = run_module(site, ["--version"], str(scripts))
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"no command-line tool" in done.stderr and b"LOOP" not in done.stderr


def test_the_running_program_itself_is_skipped(tmp_path, monkeypatch):
    monkeypatch.setattr(_cli, "BUNDLED", str(tmp_path / "absent" / "formwell"))
    first, linked, second = tmp_path / "first", tmp_path / "linked", tmp_path / "second"
    for folder in (first, linked, second):
        folder.mkdir()
    for folder in (first, second):
        (folder / "formwell").write_text(f"#!/bin/sh\necho {folder.name}\n")
        (folder / "formwell").chmod(0o755)
    os.symlink(first / "formwell", linked / "formwell")
    search = os.pathsep.join([str(first), str(linked), str(second)])
    monkeypatch.setattr(sys, "argv", ["-m"])
    assert _cli.find_tool(search) == str(first / "formwell")
    monkeypatch.setattr(sys, "argv", [str(first / "formwell")])
    assert _cli.find_tool(search) == str(second / "formwell")  # not first, nor a link to it
    monkeypatch.setattr(sys, "argv", [str(second / "formwell")])
    assert _cli.find_tool(search) == str(first / "formwell")
    (first / "formwell").chmod(0o644)  # not executable: passed over
    monkeypatch.setattr(sys, "argv", ["-m"])
    assert _cli.find_tool(search) == str(second / "formwell")


def test_an_installed_package_bundles_this_version_of_the_tool():
    if not os.path.isfile(_cli.BUNDLED):
        pytest.skip("this formwell package has no bundled tool (a source tree, or built without one)")
    assert os.access(_cli.BUNDLED, os.X_OK)
    done = subprocess.run([_cli.BUNDLED, "--version"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, f"formwell {formwell.__version__}\n")
