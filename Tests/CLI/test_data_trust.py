"""`formwell check` on output it cannot write, input that does not fit the spec, and hostile input.

Every failed write is exit status 2 with the system's message; data that does not fit the spec is a
warning (an error under --strict); record keys cannot forge report lines or send terminal escapes;
endless input stops at a limit with exit status 2. Runs the built binary (env FORMWELL_CLI).
"""
import json
import os
import signal
import subprocess

import pytest

from test_cli import CLI, FIXTURES, run

LOGIN = str(FIXTURES / "login.json")
VALID_JSONL = b'{"email": "ada@example.com", "password": "analytical1"}\n' * 3


def write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def stderr_lines(result):
    return result.stderr.decode().splitlines()


# MARK: Output that cannot be written

@pytest.mark.parametrize("args", [[], ["--format", "json"]])
def test_full_disk_is_exit_2_with_the_reason(tmp_path, args):
    data = write(tmp_path, "ok.jsonl", VALID_JSONL)
    with open("/dev/full", "wb") as full:
        result = subprocess.run([CLI, "check", *args, LOGIN, data], stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert result.returncode == 2
    assert result.stderr.decode() == "formwell: write error: No space left on device\n"


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["check", "--help"]])
def test_help_and_version_on_a_full_disk_fail_too(args):
    with open("/dev/full", "wb") as full:
        result = subprocess.run([CLI, *args], stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert result.returncode == 2
    assert "write error: No space left on device" in result.stderr.decode()


def test_closed_stdout_is_exit_2(tmp_path):
    data = write(tmp_path, "ok.jsonl", VALID_JSONL)
    result = subprocess.run([CLI, "check", LOGIN, data], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            timeout=60, preexec_fn=lambda: os.close(1))
    assert result.returncode == 2
    assert result.stderr.decode() == "formwell: write error: Bad file descriptor\n"


def run_into_closed_pipe(tmp_path, sigpipe):
    """The tool writing a valid report into a pipe whose reader has gone, SIGPIPE set to `sigpipe`."""
    data = write(tmp_path, "ok.jsonl", VALID_JSONL)
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([CLI, "check", LOGIN, data], stdout=write_end, stderr=subprocess.PIPE, timeout=60,
                              preexec_fn=lambda: signal.signal(signal.SIGPIPE, sigpipe))
    finally:
        os.close(write_end)


def test_closed_pipe_with_sigpipe_ignored_is_exit_2(tmp_path):
    result = run_into_closed_pipe(tmp_path, signal.SIG_IGN)
    assert result.returncode == 2
    assert result.stderr.decode() == "formwell: write error: Broken pipe\n"


def test_closed_pipe_with_sigpipe_at_its_default_ends_by_the_signal(tmp_path):
    assert run_into_closed_pipe(tmp_path, signal.SIG_DFL).returncode == -signal.SIGPIPE


def test_a_failed_write_midway_stops_the_run(tmp_path):
    # Many invalid records: the report is far larger than one buffer, so the first write fails early.
    data = write(tmp_path, "bad.jsonl", b'{"email": "bad", "password": "x"}\n' * 200_000)
    with open("/dev/full", "wb") as full:
        result = subprocess.run([CLI, "check", LOGIN, data], stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert result.returncode == 2
    assert result.stderr.decode() == "formwell: write error: No space left on device\n"


# MARK: Report forgery and terminal escapes

def test_a_key_cannot_forge_a_summary_line(tmp_path):
    forged = "\n\n1000000 records: 1000000 valid, 0 invalid\n"
    data = write(tmp_path, "forge.jsonl", (json.dumps({"email": "bad", forged: [1]}) + "\n").encode())
    result = run("check", LOGIN, data)
    assert result.returncode == 1
    out = result.stdout.decode().splitlines()
    assert out[0] == r"line 1: malformed: key '\n\n1000000 records: 1000000 valid, 0 invalid\n': expected a string"
    assert not any(line.startswith("1000000 records") for line in out)
    assert out[-1] == "1 record: 0 valid, 0 invalid, 1 malformed"


def test_a_key_cannot_send_terminal_escapes(tmp_path):
    key = "\x1b]0;pwned\x07\u202e"
    data = write(tmp_path, "esc.jsonl", (json.dumps({"email": "ada@example.com", "password": "analytical1", key: "1"})
                                         + "\n").encode())
    result = run("check", LOGIN, data)
    assert result.returncode == 0
    assert stderr_lines(result) == [r"formwell: note: key '\x1b]0;pwned\x07\u202e' is not a field of the spec; ignored"]
    assert b"\x1b" not in result.stdout + result.stderr


def test_quotes_and_backslashes_in_a_noted_key_are_escaped(tmp_path):
    data = write(tmp_path, "q.jsonl", (json.dumps({"email": "ada@example.com", "password": "analytical1",
                                                   "it's\\": "1"}) + "\n").encode())
    result = run("check", LOGIN, data)
    assert stderr_lines(result) == [r"formwell: note: key 'it\'s\\' is not a field of the spec; ignored"]


def test_json_output_stays_json_with_hostile_keys(tmp_path):
    data = write(tmp_path, "forge.jsonl", (json.dumps({"email": "bad", "\n\x1b": [1]}) + "\n").encode())
    result = run("check", "--format", "json", LOGIN, data)
    record = json.loads(result.stdout.decode().splitlines()[0])
    assert record == {"line": 1, "malformed": "key '\n\x1b': expected a string"}


# MARK: Files that do not fit the spec

WARN_EMAIL = "formwell: warning: no column for field 'email'; every record gets the field's initial value"
WARN_PASSWORD = "formwell: warning: no column for field 'password'; every record gets the field's initial value"


def test_a_missing_column_is_warned_before_the_records(tmp_path):
    data = write(tmp_path, "m.csv", b"email\nada@example.com\n")
    result = run("check", LOGIN, data)
    assert result.returncode == 1
    assert stderr_lines(result) == [WARN_PASSWORD]


def test_a_column_matching_only_after_trimming_and_case_folding_is_named(tmp_path):
    data = write(tmp_path, "h.csv", b"Email, password\nada@example.com,analytical1\n")
    result = run("check", LOGIN, data)
    assert result.returncode == 1
    assert stderr_lines(result) == [
        "formwell: warning: no column for field 'email'; column 'Email' matches it only after trimming and "
        "case-folding (rename it to 'email'); every record gets the field's initial value",
        "formwell: warning: no column for field 'password'; column ' password' matches it only after trimming and "
        "case-folding (rename it to 'password'); every record gets the field's initial value",
    ]


@pytest.mark.parametrize("separator,option", [(b";", "';'"), (b"\t", "tab"), (b"|", "'|'")])
def test_a_one_column_header_suggests_the_delimiter(tmp_path, separator, option):
    data = write(tmp_path, "s.csv", b"email" + separator + b"password\nada@example.com" + separator + b"analytical1\n")
    result = run("check", LOGIN, data)
    assert result.returncode == 1
    shown = separator.decode().replace("\t", "\\t")
    assert stderr_lines(result)[:3] == [
        WARN_EMAIL, WARN_PASSWORD,
        f"formwell: warning: the header row is one column holding '{shown}': is {data} separated by it? "
        f"(--delimiter {option})",
    ]
    fixed = run("check", "--delimiter", option.strip("'"), LOGIN, data)
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.stderr == b""
    assert fixed.stdout.decode() == "1 record: 1 valid, 0 invalid\n"


def test_jsonl_named_csv_with_a_quote_after_a_brace_gets_a_hint(tmp_path):
    data = write(tmp_path, "j.csv", b'{"email":"ada@example.com","password":"analytical1"}\n')
    result = run("check", LOGIN, data)
    assert result.returncode == 2
    assert "(it looks like JSON: is the file JSONL? --input jsonl)" in result.stderr.decode()


def test_jsonl_named_csv_gets_a_hint(tmp_path):
    data = write(tmp_path, "j.csv", VALID_JSONL)
    result = run("check", LOGIN, data)
    assert result.returncode == 1
    assert stderr_lines(result)[2] == f"formwell: warning: the header row looks like JSON: is {data} JSONL? (--input jsonl)"
    assert run("check", "--input", "jsonl", LOGIN, data).returncode == 0


def test_a_jsonl_field_no_record_names_is_warned(tmp_path):
    data = write(tmp_path, "n.jsonl", b'{"email": "ada@example.com"}\n')
    result = run("check", LOGIN, data)
    assert result.returncode == 1
    assert stderr_lines(result) == [
        "formwell: warning: no record read names field 'password'; every record gets the field's initial value"]


@pytest.mark.parametrize("name,content,problem", [
    ("empty.jsonl", b"", "holds no records"),
    ("blank.jsonl", b"\n\n  \n", "holds no records"),
    ("empty.csv", b"", "holds no records"),
    ("header.csv", b"email,password\n", "holds a header row and no records"),
])
def test_empty_input_warns_and_is_an_error_under_strict(tmp_path, name, content, problem):
    data = write(tmp_path, name, content)
    result = run("check", LOGIN, data)
    assert result.returncode == 0
    assert stderr_lines(result) == [f"formwell: warning: {data} {problem}"]
    assert result.stdout.decode() == "0 records: 0 valid, 0 invalid\n"
    strict = run("check", "--strict", LOGIN, data)
    assert strict.returncode == 2
    assert stderr_lines(strict) == [f"formwell: error: {data} {problem}",
                                    "formwell: the data does not fit the spec (--strict); nothing was checked"]
    assert strict.stdout == b""


def test_strict_stops_before_any_record_on_a_missing_column(tmp_path):
    data = write(tmp_path, "m.csv", b"email\nbad\n")
    result = run("check", "--strict", LOGIN, data)
    assert result.returncode == 2
    assert result.stdout == b""
    assert stderr_lines(result) == [WARN_PASSWORD.replace("warning", "error"),
                                    "formwell: the data does not fit the spec (--strict); nothing was checked"]


def test_strict_passes_data_that_fits(tmp_path):
    data = write(tmp_path, "ok.jsonl", VALID_JSONL)
    result = run("check", "--strict", LOGIN, data)
    assert result.returncode == 0 and result.stderr == b""


def test_cr_only_line_ends_are_read(tmp_path):
    data = write(tmp_path, "mac.csv", b"email,password\rada@example.com,analytical1\rbad,x\r")
    result = run("check", LOGIN, data)
    assert result.returncode == 1
    assert result.stdout.decode().splitlines() == [
        "line 3: email: Invalid email format", "line 3: password: Must be at least 8 characters", "",
        "2 records: 1 valid, 1 invalid",
        "  email: 1 invalid — Invalid email format (1)",
        "  password: 1 invalid — Must be at least 8 characters (1)"]


def test_line_ends_inside_quoted_fields_are_kept_as_written(tmp_path):
    # A quoted value spanning a CR-only and a CRLF line end: the value holds both, so it is too long.
    spec = write(tmp_path, "s.json", json.dumps({"formwell": 1, "fields": [
        {"id": "note", "rules": [{"rule": "max_length", "length": 4}]}]}).encode())
    data = write(tmp_path, "q.csv", b'note\r\n"a\rb"\r\n"a\r\nb"\r\n"ab\r\ncd"\r\n')
    result = run("check", "--format", "json", spec, data)
    verdicts = [json.loads(line)["valid"] for line in result.stdout.decode().splitlines()]
    assert verdicts == [True, True, False]  # 3, 3 and 5 graphemes (CRLF is one)


def test_a_short_row_is_malformed_not_padded(tmp_path):
    data = write(tmp_path, "short.csv", b"email,password\nada@example.com\n")
    result = run("check", LOGIN, data)
    assert result.returncode == 1
    assert result.stdout.decode().splitlines()[0] == "line 2: malformed: expected 2 columns, found 1"


@pytest.mark.parametrize("value", ["x", "tabs", ",,", '"', "\n", ""])
def test_a_bad_delimiter_is_a_usage_error(value):
    result = run("check", "--delimiter", value, LOGIN, "x.csv")
    assert result.returncode == 2
    assert "the delimiter must be one ASCII character" in result.stderr.decode() or value == "x"


# MARK: Bounded input

def test_dev_zero_as_data_stops_at_the_line_limit():
    result = run("check", LOGIN, "/dev/zero")
    assert result.returncode == 2
    assert result.stderr.decode() == "formwell: /dev/zero: line 1 is longer than 64 MiB (--max-line-bytes raises the limit)\n"


def test_dev_zero_as_csv_data_stops_at_the_line_limit():
    result = run("check", "--input", "csv", LOGIN, "/dev/zero")
    assert result.returncode == 2
    assert "line 1 is longer than 64 MiB" in result.stderr.decode()


def test_dev_zero_as_spec_stops_at_the_spec_limit(tmp_path):
    result = run("check", "/dev/zero", write(tmp_path, "ok.jsonl", VALID_JSONL))
    assert result.returncode == 2
    assert result.stderr.decode() == "formwell: /dev/zero: larger than 16 MiB (--max-spec-bytes raises the limit)\n"


def test_the_limits_can_be_set(tmp_path):
    data = write(tmp_path, "ok.jsonl", VALID_JSONL)
    line = len(VALID_JSONL) // 3 - 1
    assert run("check", f"--max-line-bytes={line}", LOGIN, data).returncode == 0
    over = run("check", f"--max-line-bytes={line - 1}", LOGIN, data)
    assert over.returncode == 2
    assert f"line 1 is longer than {line - 1} bytes" in over.stderr.decode()
    size = os.path.getsize(LOGIN)
    assert run("check", "--max-spec-bytes", str(size), LOGIN, data).returncode == 0
    assert run("check", "--max-spec-bytes", "1K", LOGIN, data).returncode == (0 if size <= 1024 else 2)
    small = run("check", "--max-spec-bytes", str(size - 1), LOGIN, data)
    assert small.returncode == 2 and "--max-spec-bytes raises the limit" in small.stderr.decode()


def test_a_quoted_record_spanning_lines_is_bounded_too(tmp_path):
    data = write(tmp_path, "open.csv", b'email,password\n"' + b"a\n" * 100)
    result = run("check", "--max-line-bytes", "64", LOGIN, data)
    assert result.returncode == 2
    assert "the record that starts on line 2 is longer than 64 bytes" in result.stderr.decode()


@pytest.mark.parametrize("value", ["0", "-1", "12X", "", "99999999999999G"])
def test_bad_sizes_are_usage_errors(value):
    result = run("check", "--max-line-bytes", value, LOGIN, "x.jsonl")
    assert result.returncode == 2
    assert "needs a size in bytes" in result.stderr.decode()
