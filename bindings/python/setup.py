"""Build hook: bundles the compiled library and command-line tool into the package, as
formwell/_lib/libformwell.so and formwell/_bin/formwell, and tags the wheel py3-none-PLATFORM (the
package is Python over ctypes, with no extension module: those two files tie it to a platform, not
to one Python). All metadata lives in pyproject.toml.

Each of the two files is the first of:
  1. the file named by FORMWELL_BUILD_LIB (the library) or FORMWELL_BUILD_CLI (the tool); an error
     if it does not exist;
  2. the repository's own build, ../../.build/release/libformwell.so (`make lib`) and
     ../../.build/bin/formwell (`make cli`);
  3. native/ beside this file (an sdist carries it: Package.swift, Sources/, include/,
     scripts/exports.map, the Makefile, LICENSE): built with `make -C native lib cli` when
     `swift` is on PATH, its .build/release/libformwell.so and .build/bin/formwell.
When one of them is still missing the build fails, saying which and how to provide it, unless
FORMWELL_ALLOW_NO_LIBRARY=1: then the package goes without it (a py3-none-any wheel when both are
missing), for systems whose own packages provide libformwell.so.0 (the binding's loader finds it)
and the tool.

The wheel carries the repository's LICENSE: when there is none beside this file, the one at the
repository root (or in native/) is copied here for the build and removed afterwards. The build's
scratch files (build/, formwell.egg-info) go to a temporary folder, not into this source tree.
"""

import atexit
import os
import shutil
import stat
import subprocess
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:  # setuptools 70.1 and later
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # older setuptools: the wheel package's command
    try:
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:  # no wheel can be built here; sdists and installs from source still can
        bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
#: Whether this is bindings/python of a Formwell repository (not an unpacked sdist or another copy).
IN_REPOSITORY = os.path.isfile(os.path.join(REPO, "Sources", "Formwell", "Version.swift"))
NATIVE = os.path.join(HERE, "native")

LIBRARY = os.path.join(".build", "release", "libformwell.so")
TOOL = os.path.join(".build", "bin", "formwell")

#: What is bundled: (key, environment variable, path in a build, place in the package, `make` target).
BUNDLED = (
    ("library", "FORMWELL_BUILD_LIB", LIBRARY, os.path.join("formwell", "_lib", "libformwell.so"), "lib"),
    ("tool", "FORMWELL_BUILD_CLI", TOOL, os.path.join("formwell", "_bin", "formwell"), "cli"),
)


def _allow_missing():
    return os.environ.get("FORMWELL_ALLOW_NO_LIBRARY", "") not in ("", "0")


def _fail(missing, why):
    """Exits the build: ``missing`` (keys of BUNDLED) cannot be bundled, because ``why``."""
    entries = [entry for entry in BUNDLED if entry[0] in missing]
    what = " and ".join(f"the {key} ({target})" for key, _, _, target, _ in entries)
    variables = " and ".join(variable for _, variable, _, _, _ in entries)
    raise SystemExit(
        f"formwell: cannot bundle {what}: {why}\n"
        f"  To build them from source: a Swift 6.3 toolchain (from swift.org, or installed with swiftly) "
        f"on PATH, GNU make and libpcre2-dev; then "
        + ("build this package again (it runs `make -C native lib cli`).\n" if os.path.isdir(NATIVE) else
           f"`make {' '.join(target for *_, target in entries)}` in the Formwell repository, or build this "
           f"package from its sdist (which carries native/, the Swift sources).\n") +
        f"  Or name prebuilt files with {variables}.\n"
        f"  Or set FORMWELL_ALLOW_NO_LIBRARY=1 to build a package without them, for systems whose own "
        f"packages provide libformwell.so.0 (the binding's loader finds it) and the formwell tool.")


def _build_native(missing):
    """Builds native/ (`make -C native lib cli`) for the files in ``missing``."""
    command = ["make", "-C", NATIVE, "lib", "cli"]
    absent = [program for program in ("swift", "make") if shutil.which(program) is None]
    if absent:
        _fail(missing, f"there are none prebuilt, and {' and '.join(absent)} "
                       f"{'is' if len(absent) == 1 else 'are'} not on PATH to build {NATIVE} "
                       f"(`{' '.join(command)}`).")
    print(f"formwell: building from source: {' '.join(command)}", flush=True)
    if subprocess.call(command) != 0:
        _fail(missing, f"`{' '.join(command)}` failed (its output is above).")
    for key, _, build_path, _, _ in BUNDLED:
        if key in missing and not os.path.isfile(os.path.join(NATIVE, build_path)):
            _fail(missing, f"`{' '.join(command)}` made no {os.path.join(NATIVE, build_path)}.")


_resolved = None


def bundled_files():
    """{key: source file or None} for the library and the tool, decided once per process (building
    native/ if that is where they come from); exits with a message when one is missing and
    FORMWELL_ALLOW_NO_LIBRARY is not set."""
    global _resolved
    if _resolved is not None:
        return _resolved
    found = {}
    for key, variable, build_path, _, _ in BUNDLED:
        named = os.environ.get(variable)
        if named:
            if not os.path.isfile(named):
                raise SystemExit(f"formwell: {variable}={named}: no such file")
            found[key] = os.path.abspath(named)
        elif IN_REPOSITORY and os.path.isfile(os.path.join(REPO, build_path)):
            found[key] = os.path.join(REPO, build_path)
        else:
            found[key] = None
    missing = [key for key, _, _, _, _ in BUNDLED if found[key] is None]
    if missing and os.path.isdir(NATIVE) and not (_allow_missing() and shutil.which("swift") is None):
        _build_native(missing)
        for key, _, build_path, _, _ in BUNDLED:
            if key in missing:
                found[key] = os.path.join(NATIVE, build_path)
        missing = []
    if missing and not _allow_missing():
        entries = [entry for entry in BUNDLED if entry[0] in missing]
        built = " and ".join(os.path.join("..", "..", build_path) for _, _, build_path, _, _ in entries)
        _fail(missing, " ".join([
            f"{' and '.join(variable for _, variable, _, _, _ in entries)} not set;",
            f"no repository build ({built})" + ("" if IN_REPOSITORY else ": this is not bindings/python of a Formwell repository") + ";",
            f"no native/ sources beside {os.path.join(HERE, 'setup.py')} to build."]))
    _resolved = found
    return found


class BuildPyBundling(build_py):
    """Copies the library and the tool into the built package, executable."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the source tree (FORMWELL_LIBRARY, PATH)
        files = bundled_files()
        for key, variable, _, target, _ in BUNDLED:
            source = files[key]
            if source is None:
                print(f"formwell: no {key} bundled (FORMWELL_ALLOW_NO_LIBRARY is set)")
                continue
            destination = os.path.join(self.build_lib, target)
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            shutil.copyfile(source, destination)
            mode = stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
            os.chmod(destination, mode)  # 755: the tool is run, the library mapped executable
            print(f"formwell: bundled {source} as {target}")


class NativeDistribution(Distribution):
    """Reports "extension modules" once a wheel bundles native files, so that they and the package
    install as platform-specific (platlib, the wheel's root) rather than pure Python."""

    bundles_native = False

    def has_ext_modules(self):
        return self.bundles_native or super().has_ext_modules()


commands = {"build_py": BuildPyBundling}

if bdist_wheel is not None:

    class BdistWheelPy3(bdist_wheel):
        """A wheel tagged py3-none-PLATFORM when it bundles the native files (they make it
        platform-specific, not the Python code), py3-none-any when it bundles neither."""

        def run(self):
            files = bundled_files()  # before the build: decides purelib or platlib
            self.root_is_pure = not any(files.values())
            self.distribution.bundles_native = not self.root_is_pure
            super().run()

        def get_tag(self):
            if self.root_is_pure:
                return "py3", "none", "any"
            return "py3", "none", super().get_tag()[2]

    commands["bdist_wheel"] = BdistWheelPy3


def _license_beside_pyproject():
    """Copies the repository's LICENSE beside pyproject.toml when none is there (removed at exit)."""
    target = os.path.join(HERE, "LICENSE")
    if os.path.exists(target):
        return
    sources = ([os.path.join(REPO, "LICENSE")] if IN_REPOSITORY else []) + [os.path.join(NATIVE, "LICENSE")]
    for source in sources:
        if os.path.isfile(source):
            shutil.copyfile(source, target)
            atexit.register(lambda: os.path.exists(target) and os.remove(target))
            return


def _scratch_options():
    """build/ and formwell.egg-info in a temporary folder (removed at exit), not the source tree."""
    scratch = tempfile.mkdtemp(prefix="formwell-build-")
    atexit.register(shutil.rmtree, scratch, True)
    return {"build": {"build_base": os.path.join(scratch, "build")},
            "egg_info": {"egg_base": scratch}}


_license_beside_pyproject()
setup(cmdclass=commands, distclass=NativeDistribution, options=_scratch_options())
