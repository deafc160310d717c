"""Shared by the cluster tests: generated sign-ups (examples/generate_signups.py) and the CLI's
verdicts on them (`formwell check --format json`), the reference the clusters must reproduce."""

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO_ROOT

REGISTRATION = os.path.join(REPO_ROOT, "examples", "registration.json")
GENERATOR = os.path.join(REPO_ROOT, "examples", "generate_signups.py")
IDS = ["name", "email", "username", "password", "confirm"]


def generate(count, out_dir):
    """Writes count sign-ups to out_dir/signups.jsonl (and .csv); returns the JSONL path."""
    subprocess.run([sys.executable, GENERATOR, "--count", str(count), "--out-dir", str(out_dir)], check=True,
                   capture_output=True)
    return os.path.join(str(out_dir), "signups.jsonl")


def read_records(path):
    with open(path, encoding="utf-8") as file:
        return [json.loads(line) for line in file]


def cli():
    """The formwell CLI: $FORMWELL_CLI, else the repository's .build/bin/formwell, brought up to date
    with `make .build/bin/formwell` (a no-op when it is; `make cli` without the setup step)."""
    named = os.environ.get("FORMWELL_CLI")
    if named:
        return named
    built = subprocess.run(["make", "--no-print-directory", "-C", REPO_ROOT, ".build/bin/formwell"],
                           capture_output=True, text=True)
    path = os.path.join(REPO_ROOT, ".build", "bin", "formwell")
    if built.returncode != 0 or not os.path.exists(path):
        pytest.skip(f"the formwell CLI could not be built (make cli): {built.stderr[-500:]}")
    return path


def cli_verdicts(path):
    """[(valid, {field: message})] of every line of the JSONL file, as `formwell check` says."""
    run = subprocess.run([cli(), "check", "--format", "json", REGISTRATION, path], capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    verdicts = []
    for number, line in enumerate(run.stdout.splitlines(), 1):
        verdict = json.loads(line)
        assert verdict["line"] == number and "malformed" not in verdict, verdict
        verdicts.append((verdict["valid"], verdict["errors"]))
    return verdicts


def assert_columns_match(valid, messages, verdicts):
    """valid: list of bool; messages: {field: list of message or None}; verdicts: cli_verdicts."""
    assert len(valid) == len(verdicts)
    assert valid == [ok for ok, _ in verdicts]
    for field in IDS:
        want = [errors.get(field) for _, errors in verdicts]
        got = messages[field]
        mismatches = [index for index, (a, b) in enumerate(zip(got, want)) if a != b]
        assert not mismatches, f"{field}: {len(mismatches)} differ, first record {mismatches[0]}: " \
                               f"{got[mismatches[0]]!r} != {want[mismatches[0]]!r}"
