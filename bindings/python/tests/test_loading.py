"""The library search order, the ImportError listing every place tried, and the ABI check."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import formwell
from formwell import _native

LIBRARY = formwell.library_path
SOURCE_PACKAGE = os.path.dirname(formwell.__file__)


def package_copy(tmp_path, bundled=None):
    """A copy of the formwell package in tmp_path (optionally with a bundled library)."""
    target = tmp_path / "site" / "formwell"
    shutil.copytree(SOURCE_PACKAGE, target, ignore=shutil.ignore_patterns("_lib", "__pycache__"))
    if bundled:
        (target / "_lib").mkdir()
        shutil.copy(bundled, target / "_lib" / "libformwell.so")
    return tmp_path / "site"


def run(site, env_library, code="import formwell; print(formwell.library_path)"):
    env = {k: v for k, v in os.environ.items() if k not in ("FORMWELL_LIBRARY", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(site)
    if env_library is not None:
        env["FORMWELL_LIBRARY"] = env_library
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60, cwd=str(site))


def test_loaded_library_is_checked():
    assert formwell.abi_version() == formwell.ABI_VERSION == 1
    assert formwell.library_version().count(".") == 2
    assert os.path.exists(LIBRARY) or LIBRARY in _native.SONAMES


def test_env_var_wins_over_bundled_copy(tmp_path):
    site = package_copy(tmp_path, bundled=LIBRARY)
    env_copy = tmp_path / "elsewhere" / "libformwell.so"
    env_copy.parent.mkdir()
    shutil.copy(LIBRARY, env_copy)
    done = run(site, str(env_copy))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(env_copy)


def test_bundled_copy_is_used_without_env_var(tmp_path):
    site = package_copy(tmp_path, bundled=LIBRARY)
    done = run(site, None)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(site / "formwell" / "_lib" / "libformwell.so")


def test_import_error_lists_every_place_tried(tmp_path):
    site = package_copy(tmp_path)
    missing = str(tmp_path / "nowhere" / "libformwell.so")
    done = run(site, missing)
    assert done.returncode != 0
    assert "ImportError" in done.stderr
    message = done.stderr[done.stderr.index("ImportError"):]
    for place in ("$FORMWELL_LIBRARY: " + missing, str(site / "formwell" / "_lib" / "libformwell.so"),
                  "libformwell.so.0", "system loader: libformwell.so:"):
        assert place in message, message
    # the order is the documented one
    assert message.index(missing) < message.index("bundled copy") < message.index("libformwell.so.0")


def test_a_library_that_is_not_formwell_is_skipped(tmp_path):
    site = package_copy(tmp_path, bundled=LIBRARY)
    done = run(site, "libc.so.6")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("_lib/libformwell.so")


def test_abi_mismatch_is_refused(tmp_path):
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build a fake library")
    stubs = "\n".join(
        f"int {name}(void) {{ return {2 if name == 'fw_abi_version' else 0}; }}" for name in _native.SIGNATURES
    )
    source = tmp_path / "fake.c"
    source.write_text(stubs + "\n")
    fake = tmp_path / "libfake.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(fake), str(source)], check=True)
    site = package_copy(tmp_path, bundled=LIBRARY)
    done = run(site, str(fake))
    assert done.returncode != 0
    assert "ImportError" in done.stderr and "has ABI 2" in done.stderr and "ABI 1" in done.stderr


def test_candidates_order(monkeypatch):
    monkeypatch.setenv("FORMWELL_LIBRARY", "/x/libformwell.so")
    places = [target for _, target in _native._candidates()]
    assert places[0] == "/x/libformwell.so"
    assert places[1].endswith(os.path.join("formwell", "_lib", "libformwell.so"))
    assert places[2:4] == ["libformwell.so.0", "libformwell.so"]
