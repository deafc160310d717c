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


# ---- ctypes.util.find_library only as the last resort ----

# A sitecustomize that makes ctypes.util.find_library record its calls (and answer what
# FIND_LIBRARY_ANSWER says), loaded before formwell by the subprocess.
SITECUSTOMIZE = textwrap.dedent("""
    import ctypes.util, os, sys
    calls = []
    def find_library(name):
        calls.append(name)
        return os.environ.get("FIND_LIBRARY_ANSWER")
    ctypes.util.find_library = find_library
    sys.find_library_calls = calls
""")

REPORT = ("import sys, formwell; "
          "print(formwell.library_path); print(sys.find_library_calls)")


def with_sitecustomize(tmp_path, bundled):
    site = package_copy(tmp_path, bundled=bundled)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return site


def test_import_with_the_bundled_copy_does_not_call_find_library(tmp_path):
    site = with_sitecustomize(tmp_path, LIBRARY)
    done = run(site, None, REPORT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == [str(site / "formwell" / "_lib" / "libformwell.so"), "[]"]


def test_import_with_the_env_var_does_not_call_find_library(tmp_path):
    site = with_sitecustomize(tmp_path, None)
    done = run(site, LIBRARY, REPORT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == [LIBRARY, "[]"]


def test_import_does_not_even_import_ctypes_util(tmp_path):
    """ctypes.util pulls in subprocess, shutil, ...: importing formwell must not load it."""
    site = package_copy(tmp_path, bundled=LIBRARY)
    done = run(site, None, "import sys, formwell; print('ctypes.util' in sys.modules, 'subprocess' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False False"


def system_loader_finds_formwell(tmp_path):
    """Whether a fresh process (no formwell loaded, as run() sets it up) finds one by soname; this
    process cannot tell, since the loaded library answers to its soname."""
    code = ("import ctypes\nfor name in %r:\n    try:\n        ctypes.CDLL(name); print('found')\n"
            "    except OSError:\n        pass\n" % (_native.SONAMES,))
    return "found" in run(tmp_path, None, code).stdout


def test_find_library_is_still_the_last_resort(tmp_path, monkeypatch):
    if system_loader_finds_formwell(tmp_path):
        pytest.skip("the system loader finds a libformwell: find_library is never reached")
    site = with_sitecustomize(tmp_path, None)
    env_missing = str(tmp_path / "nowhere" / "libformwell.so")
    done = run(site, env_missing, REPORT + "; print(formwell.abi_version())")
    assert done.returncode != 0 and "ImportError" in done.stderr  # find_library answered None
    assert "ctypes.util.find_library" not in done.stderr
    monkeypatch.setenv("FIND_LIBRARY_ANSWER", LIBRARY)
    done = run(site, env_missing, REPORT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == [LIBRARY, "['formwell']"]


def test_candidates_are_lazy(monkeypatch):
    """Taking the first candidates never asks find_library."""
    import ctypes.util

    def refuse(name):
        raise AssertionError("find_library called")

    monkeypatch.setattr(ctypes.util, "find_library", refuse)
    candidates = _native._candidates()
    assert [next(candidates)[0] for _ in range(4)] == ["$FORMWELL_LIBRARY", "bundled copy", "system loader",
                                                       "system loader"]


def test_an_older_libformwell_is_skipped_and_named(tmp_path):
    """An ABI 1 library from before the snapshot functions lacks them: skipped, and said so."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build a fake library")
    old = [name for name in _native.SIGNATURES if "snapshot" not in name and "_at" not in name]
    stubs = "\n".join(f"int {name}(void) {{ return {1 if name == 'fw_abi_version' else 0}; }}" for name in old)
    source = tmp_path / "old.c"
    source.write_text(stubs + "\n")
    fake = tmp_path / "libold.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(fake), str(source)], check=True)
    site = package_copy(tmp_path, bundled=LIBRARY)
    done = run(site, str(fake))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("_lib/libformwell.so")  # the next place was used
    site = package_copy(tmp_path / "nothing-else")
    done = run(site, str(fake))
    assert done.returncode != 0
    assert f"$FORMWELL_LIBRARY: {fake}: an older libformwell (missing fw_field_set_value_at" in done.stderr
