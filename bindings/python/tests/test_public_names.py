"""The package's public names and version: ``formwell.__all__`` is one literal list (what type
checkers read) holding exactly the submodules' public names, and ``__version__`` is the one in
Sources/Formwell/Version.swift."""

import ast
import os
import re
import subprocess
import sys

import pytest

import formwell
from formwell import _rule_classes, batch, errors, form, messages, rules

from conftest import REPO_ROOT

#: Names a submodule exports that the package does not (each one's reason is in __init__.py).
NOT_REEXPORTED = {"Validator", "ValidatorResult", "AsyncCheck", "error_for_status"}
#: The package's own names.
OWN = {"ABI_VERSION", "abi_version", "library_path", "library_version", "check_table", "RULE_CATALOG", "limits"}


def test_all_is_the_submodules_public_names():
    exported = set()
    for module in (form, batch, messages, rules, errors, _rule_classes):
        exported |= set(module.__all__)
    assert NOT_REEXPORTED <= exported  # (an exclusion that no longer exists is a stale list)
    assert set(formwell.__all__) == OWN | (exported - NOT_REEXPORTED)
    assert len(formwell.__all__) == len(set(formwell.__all__))
    for name in formwell.__all__:
        assert getattr(formwell, name) is not None, name


def test_all_is_a_literal_list_of_strings():
    path = os.path.join(os.path.dirname(formwell.__file__), "__init__.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    assignments = [node for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                   and any(isinstance(target, ast.Name) and target.id == "__all__"
                           for target in (node.targets if isinstance(node, ast.Assign) else [node.target]))]
    assert len(assignments) == 1 and isinstance(assignments[0], ast.Assign)
    value = assignments[0].value
    assert isinstance(value, ast.List)
    assert all(isinstance(item, ast.Constant) and isinstance(item.value, str) for item in value.elts)
    assert [item.value for item in value.elts] == formwell.__all__


def test_version_is_the_engines():
    assert re.fullmatch(r"\d+\.\d+\.\d+", formwell.__version__)
    source = os.path.join(REPO_ROOT, "Sources", "Formwell", "Version.swift")
    if not os.path.exists(source):
        pytest.skip("not run from the repository (no Sources/Formwell/Version.swift)")
    with open(source, encoding="utf-8") as f:
        found = re.findall(r'^public let formwellVersion: StaticString = "([0-9.]+)"$', f.read(), re.M)
    assert found == [formwell.__version__]
    done = subprocess.run([sys.executable, os.path.join(REPO_ROOT, "scripts", "gen_version.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
