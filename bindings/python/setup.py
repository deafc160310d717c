"""Build hook: bundles libformwell.so into the package (formwell/_lib/libformwell.so).

The library copied into the wheel is, in order:
  1. the file named by the environment variable FORMWELL_BUILD_LIB (an error if it does not exist);
  2. the repository's own build, ../../.build/release/libformwell.so (made by `make lib`).
If neither exists the package is built without a bundled copy, and at run time the binding falls back
to $FORMWELL_LIBRARY or the system loader. All metadata lives in pyproject.toml.
"""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_BUILD = os.path.join(HERE, "..", "..", ".build", "release", "libformwell.so")


def library_to_bundle():
    named = os.environ.get("FORMWELL_BUILD_LIB")
    if named:
        if not os.path.isfile(named):
            raise SystemExit(f"FORMWELL_BUILD_LIB={named}: no such file")
        return named
    if os.path.isfile(REPO_BUILD):
        return os.path.normpath(REPO_BUILD)
    return None


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        source = library_to_bundle()
        if source is None:
            print("formwell: no libformwell.so to bundle (set FORMWELL_BUILD_LIB or run `make lib`)")
            return
        target_dir = os.path.join(self.build_lib, "formwell", "_lib")
        os.makedirs(target_dir, exist_ok=True)
        shutil.copy2(source, os.path.join(target_dir, "libformwell.so"))
        print(f"formwell: bundled {source}")


class PlatformDistribution(Distribution):
    """A bundled native library makes the wheel platform-specific."""

    def has_ext_modules(self):
        return library_to_bundle() is not None


setup(cmdclass={"build_py": BuildPyWithLibrary}, distclass=PlatformDistribution)
