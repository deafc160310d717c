"""End-to-end tests of the `formwell` command-line tool (`formwell check SPEC DATA`).

Runs the built binary (env FORMWELL_CLI, default .build/release/formwell-tool) on the fixtures in
Tests/CLI/fixtures/. Expected messages are the engine's seed texts ("This field is required",
"Invalid email format", "Must be at least 8 characters", ...), worked out from the fixture specs.
"""
import os
import pathlib
import pty
import select
import subprocess
import threading
import time

import pytest

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
ROOT = HERE.parent.parent
CLI = os.environ.get("FORMWELL_CLI", str(ROOT / ".build" / "release" / "formwell-tool"))


def run(*args, stdin=None, cwd=FIXTURES):
    if not os.path.exists(CLI):
        pytest.fail(f"formwell binary not found at {CLI}; build it or set FORMWELL_CLI")
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, cwd=cwd, timeout=60)


def lines(output: bytes):
    return output.decode("utf-8").split("\n")


def note(key):
    return f"formwell: note: key '{key}' is not a field of the spec; ignored"


# The failures of the fixtures as (message, code, params JSON): a --format json line carries each
# failing field under the same key in "codes", "errors" and "params".
REQUIRED = ("This field is required", "required", "{}")
EMAIL = ("Invalid email format", "email", "{}")
PHONE = ("Invalid phone number", "phone", "{}")
MIN8 = ("Must be at least 8 characters", "min_length", '{"length":8,"unit":"graphemes"}')
NAME_REQUIRED = ("Name is required", "required", "{}")


def json_line(line, **failures):
    """The exact --format json line of a record: failures maps field id -> (message, code, params)."""
    ids = sorted(failures, key=lambda i: i.encode())
    codes = ",".join(f'"{i}":"{failures[i][1]}"' for i in ids)
    errors = ",".join(f'"{i}":"{failures[i][0]}"' for i in ids)
    params = ",".join(f'"{i}":{failures[i][2]}' for i in ids)
    valid = "false" if failures else "true"
    return f'{{"codes":{{{codes}}},"errors":{{{errors}}},"line":{line},"params":{{{params}}},"valid":{valid}}}'


# MARK: JSONL, human output

LOGIN_MIXED_DETAILS = [
    "line 2: email: Invalid email format",
    "line 4: email: This field is required",
    "line 4: password: Must be at least 8 characters",
    "line 5: malformed: bad JSON at column 42: expected a value",
    "line 6: malformed: key 'password': expected a string",
    "line 7: malformed: invalid UTF-8 at byte 12",
    "line 8: email: This field is required",
    "line 10: password: Must be at least 8 characters",
]
LOGIN_MIXED_SUMMARY = [
    "9 records: 2 valid, 4 invalid, 3 malformed",
    "  email: 3 invalid — This field is required (2), Invalid email format (1)",
    "  password: 2 invalid — Must be at least 8 characters (2)",
]


def test_jsonl_human_report_exact():
    result = run("check", "login.json", "login_mixed.jsonl")
    assert result.returncode == 1
    assert lines(result.stdout) == LOGIN_MIXED_DETAILS + [""] + LOGIN_MIXED_SUMMARY + [""]


def test_unknown_key_noted_once_on_stderr():
    result = run("check", "login.json", "login_mixed.jsonl")
    # "age" appears on lines 9 and 10: one note only.
    assert result.stderr.decode() == note("age") + "\n"


def test_all_valid_exits_zero():
    result = run("check", "login.json", "login_valid.jsonl")
    assert result.returncode == 0
    assert result.stdout.decode() == "3 records: 3 valid, 0 invalid\n"
    assert result.stderr == b""


def test_missing_fields_keep_initial_values():
    result = run("check", "contact.json", "contact.jsonl")
    assert result.returncode == 1
    assert lines(result.stdout) == [
        # {}: name and email have no initial value; country keeps "UK"
        "line 1: name: Name is required",
        "line 1: email: This field is required",
        "line 2: country: This field is required",
        "line 3: phone: Invalid phone number",
        "",
        "4 records: 1 valid, 3 invalid",
        "  name: 1 invalid — Name is required (1)",
        "  email: 1 invalid — This field is required (1)",
        "  phone: 1 invalid — Invalid phone number (1)",
        "  country: 1 invalid — This field is required (1)",
        "",
    ]


# MARK: JSON output

def test_jsonl_json_report_exact():
    result = run("check", "--format", "json", "login.json", "login_mixed.jsonl")
    assert result.returncode == 1
    assert lines(result.stdout) == [
        '{"codes":{},"errors":{},"line":1,"params":{},"valid":true}',
        '{"codes":{"email":"email"},"errors":{"email":"Invalid email format"},"line":2,"params":{"email":{}},"valid":false}',
        '{"codes":{"email":"required","password":"min_length"},'
        '"errors":{"email":"This field is required","password":"Must be at least 8 characters"},"line":4,'
        '"params":{"email":{},"password":{"length":8,"unit":"graphemes"}},"valid":false}',
        '{"line":5,"malformed":"bad JSON at column 42: expected a value"}',
        '{"line":6,"malformed":"key \'password\': expected a string"}',
        '{"line":7,"malformed":"invalid UTF-8 at byte 12"}',
        '{"codes":{"email":"required"},"errors":{"email":"This field is required"},"line":8,"params":{"email":{}},"valid":false}',
        '{"codes":{},"errors":{},"line":9,"params":{},"valid":true}',
        '{"codes":{"password":"min_length"},"errors":{"password":"Must be at least 8 characters"},"line":10,'
        '"params":{"password":{"length":8,"unit":"graphemes"}},"valid":false}',
        "",
    ]


def test_jsonl_scalars_are_their_json_text_and_syntax_is_strict(tmp_path):
    """Numbers and booleans are taken as their JSON text; null reads as ""; arrays, objects,
    trailing commas, comments and leading zeros make the line malformed, with the column."""
    data = tmp_path / "scalars.jsonl"
    data.write_bytes(
        b'{"email": "a@b.co", "password": 123456789}\n'
        b'{"email": "a@b.co", "password": true}\n'
        b'{"email": "a@b.co", "password": -1.5e3}\n'
        b'{"email": null, "password": "longenough"}\n'
        b'{"email": "a@b.co", "password": "longenough",}\n'
        b'{"email": "a@b.co", "password": 0123456789}\n'
        b'{"email": "a@b.co", "password": {"x": 1}}\n'
        b'{"email": "a@b.co"} // comment\n'
        b'[1, 2]\n'
        b'{"email": "a\\u00e9@b.co", "password": "longenough", "password": "short"}\n'
    )
    result = run("check", "--format", "json", "login.json", str(data))
    assert result.returncode == 1
    assert lines(result.stdout) == [
        json_line(1),
        json_line(2, password=MIN8),
        json_line(3, password=MIN8),
        json_line(4, email=REQUIRED),
        '{"line":5,"malformed":"bad JSON at column 46: expected a string key"}',
        '{"line":6,"malformed":"bad JSON at column 33: a number must not have leading zeros"}',
        '{"line":7,"malformed":"key \'password\': expected a string"}',
        '{"line":8,"malformed":"bad JSON at column 21: unexpected data after the JSON object"}',
        '{"line":9,"malformed":"bad JSON at column 1: expected a JSON object"}',
        json_line(10, email=EMAIL, password=MIN8),
        "",
    ]


def test_json_report_keys_sorted_and_parseable():
    import json
    result = run("check", "--format=json", "contact.json", "contact.jsonl")
    records = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [r["line"] for r in records] == [1, 2, 3, 4]
    assert records[0] == {"codes": {"email": "required", "name": "required"},
                          "errors": {"email": "This field is required", "name": "Name is required"},
                          "line": 1, "params": {"email": {}, "name": {}}, "valid": False}
    assert records[3] == {"codes": {}, "errors": {}, "line": 4, "params": {}, "valid": True}
    # keys sorted, compact
    assert result.stdout.decode().splitlines()[0] == \
        '{"codes":{"email":"required","name":"required"},' \
        '"errors":{"email":"This field is required","name":"Name is required"},"line":1,' \
        '"params":{"email":{},"name":{}},"valid":false}'
    assert result.stdout.decode().splitlines()[0] == json_line(1, email=REQUIRED, name=NAME_REQUIRED)


def test_json_all_valid_exits_zero_without_summary():
    result = run("check", "--format", "json", "login.json", "login_valid.jsonl")
    assert result.returncode == 0
    assert lines(result.stdout) == [
        json_line(1),
        json_line(2),
        json_line(3),
        "",
    ]


# MARK: CSV

# contact.csv: CRLF line ends; line 2 has quoted commas and doubled quotes; the record on line 4 has
# quoted line breaks (lines 4-6); line 8 is blank; line 9 has 3 columns of 4; line 11 has a lone
# 0xC3 byte at byte 4. Column "note" is not a field; "country" is absent (initial "UK").
CONTACT_CSV_HUMAN = [
    "line 3: email: Invalid email format",
    "line 3: phone: Invalid phone number",
    "line 7: name: Name is required",
    "line 9: malformed: expected 4 columns, found 3",
    "line 11: malformed: invalid UTF-8 at byte 4",
    "",
    "8 records: 4 valid, 2 invalid, 2 malformed",
    "  name: 1 invalid — Name is required (1)",
    "  email: 1 invalid — Invalid email format (1)",
    "  phone: 1 invalid — Invalid phone number (1)",
    "",
]


def test_csv_crlf_quotes_and_malformed_rows():
    result = run("check", "contact.json", "contact.csv")
    assert result.returncode == 1
    assert lines(result.stdout) == CONTACT_CSV_HUMAN
    # The fixture has no 'country' column: the field keeps its initial value, and the tool says so.
    assert result.stderr.decode() == (
        "formwell: warning: no column for field 'country'; every record gets the field's initial value\n"
        + note("note") + "\n")


def test_csv_json_report_line_numbers():
    result = run("check", "--format", "json", "contact.json", "contact.csv")
    assert lines(result.stdout) == [
        json_line(2),
        json_line(3, email=EMAIL, phone=PHONE),
        json_line(4),
        json_line(7, name=NAME_REQUIRED),
        '{"line":9,"malformed":"expected 4 columns, found 3"}',
        json_line(10),
        '{"line":11,"malformed":"invalid UTF-8 at byte 4"}',
        json_line(12),
        "",
    ]


def test_csv_quoted_values_reach_the_rules(tmp_path):
    # A quoted comma inside a value, and a quoted line break that makes an email invalid.
    (tmp_path / "d.csv").write_bytes(
        b'email,password\n'
        b'"ada@example.com","pass,word"\n'
        b'"ada@\nexample.com",password1\n'
        b'"a""b@example.com",short\n'
    )
    result = run("check", str(FIXTURES / "login.json"), str(tmp_path / "d.csv"))
    assert lines(result.stdout) == [
        "line 3: email: Invalid email format",
        'line 5: email: Invalid email format',
        "line 5: password: Must be at least 8 characters",
        "",
        "3 records: 1 valid, 2 invalid",
        "  email: 2 invalid — Invalid email format (2)",
        "  password: 1 invalid — Must be at least 8 characters (1)",
        "",
    ]
    assert result.returncode == 1


def test_summary_top_three_messages_ties_by_text():
    result = run("check", "username.json", "usernames.csv")
    assert result.returncode == 1
    assert lines(result.stdout) == [
        "line 3: username: Must be at least 3 characters",
        "line 4: username: Must be at least 3 characters",
        "line 5: username: Must be 20 characters or fewer",
        "line 6: username: Must be 20 characters or fewer",
        "line 7: username: Invalid format",
        "line 8: username: Invalid format",
        "line 10: username: This field is required",
        "",
        "8 records: 1 valid, 7 invalid",
        # 2/2/2 ordered by text; "This field is required (1)" is the fourth, left out
        "  username: 7 invalid — Invalid format (2), Must be 20 characters or fewer (2), Must be at least 3 characters (2)",
        "",
    ]


def test_input_option_overrides_extension(tmp_path):
    data = tmp_path / "records.txt"
    data.write_bytes(b"email,password\nada@example.com,password1\n")
    result = run("check", "--input", "csv", str(FIXTURES / "login.json"), str(data))
    assert result.returncode == 0
    assert result.stdout.decode() == "1 record: 1 valid, 0 invalid\n"


# MARK: Standard input

def test_stdin_jsonl_is_sniffed():
    data = (FIXTURES / "login_mixed.jsonl").read_bytes()
    result = run("check", "login.json", "-", stdin=data)
    assert result.returncode == 1
    assert lines(result.stdout) == LOGIN_MIXED_DETAILS + [""] + LOGIN_MIXED_SUMMARY + [""]


def test_stdin_csv_is_sniffed():
    data = (FIXTURES / "contact.csv").read_bytes()
    result = run("check", "contact.json", "-", stdin=data)
    assert result.returncode == 1
    assert lines(result.stdout) == CONTACT_CSV_HUMAN


def test_stdin_with_input_option_and_blank_start():
    result = run("check", "--input", "jsonl", "login.json", "-",
                 stdin=b'\n\n{"email": "ada@example.com", "password": "analytical1"}\n')
    assert result.returncode == 0
    assert result.stdout.decode() == "1 record: 1 valid, 0 invalid\n"


def test_empty_input():
    result = run("check", "login.json", "-", stdin=b"")
    assert result.returncode == 0
    assert result.stdout.decode() == "0 records: 0 valid, 0 invalid\n"


# MARK: Spec and usage errors (exit 2)

@pytest.mark.parametrize("spec, message", [
    ("bad_json_spec.json", "formwell: bad_json_spec.json: fields[0].rules: line 3, column 1: unexpected end of input"),
    ("bad_regex_spec.json", "formwell: bad_regex_spec.json: fields[1].rules[1].pattern: missing closing parenthesis"),
    ("custom_rule_spec.json", "formwell: custom_rule_spec.json: fields[0].rules[1].name: no validator named 'strong_password' is defined"),
    ("no_such_spec.json", "formwell: no_such_spec.json: No such file or directory"),
])
def test_spec_errors(spec, message):
    result = run("check", spec, "login_valid.jsonl")
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().startswith(message)


def test_custom_rule_message_explains_the_tool_cannot_check_it():
    result = run("check", "custom_rule_spec.json", "login_valid.jsonl")
    assert "custom rules" in result.stderr.decode()


def test_unreadable_data_exits_two():
    result = run("check", "login.json", "no_such_data.jsonl")
    assert result.returncode == 2
    assert result.stderr.decode() == "formwell: no_such_data.jsonl: No such file or directory\n"


@pytest.mark.parametrize("args, message", [
    (["check", "--bogus", "login.json", "login_valid.jsonl"], "formwell: unknown option '--bogus'"),
    (["--bogus"], "formwell: unknown option '--bogus'"),
    (["check", "--format", "xml", "login.json", "login_valid.jsonl"], "formwell: unknown output format 'xml' (expected human or json)"),
    (["check", "--input", "tsv", "login.json", "login_valid.jsonl"], "formwell: unknown input format 'tsv' (expected jsonl or csv)"),
    (["check", "login.json"], "formwell: check needs DATA after SPEC"),
    (["check", "--locale", "xx", "login.json", "login_valid.jsonl"], "formwell: unknown locale 'xx' (available: en, fr)"),
    (["check", "--locale=", "login.json", "login_valid.jsonl"], "formwell: unknown locale '' (available: en, fr)"),
    (["check", "--locale", "fr-", "login.json", "login_valid.jsonl"], "formwell: unknown locale 'fr-' (available: en, fr)"),
    (["check", "login.json", "login_valid.jsonl", "--locale"], "formwell: option '--locale' needs a value"),
    (["check", "login.json", "a", "b"], "formwell: unexpected argument 'b'"),
    (["frobnicate"], "formwell: unknown command 'frobnicate'"),
    ([], "formwell: missing command"),
])
def test_usage_errors(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == b""
    err = result.stderr.decode()
    assert err.startswith(message + "\n")
    assert "usage: formwell check" in err


# MARK: Help

def test_help():
    for flag in ("--help", "-h"):
        result = run(flag)
        assert result.returncode == 0
        text = result.stdout.decode()
        assert text.startswith("usage: formwell")
        assert "check SPEC DATA" in text
        assert result.stderr == b""


def test_check_help():
    result = run("check", "--help")
    assert result.returncode == 0
    text = result.stdout.decode()
    assert text.startswith("usage: formwell check [--format human|json] [--input jsonl|csv] [--delimiter C] [--locale TAG] "
                           "[--strict] SPEC DATA")
    for expected in ("--format json", '"codes"', '"params"', "--locale TAG", "en, fr", "JSONL", "CSV", "Exit status",
                     "--strict", "--delimiter C", "--max-line-bytes N", "--max-spec-bytes N", "default 64M",
                     "default 16M", "booleans (taken as their JSON text", "or a failed",
                     "0  every record is valid",
                     "1  some record is invalid or malformed", "2  usage error", "Example"):
        assert expected in text


# MARK: Progress

def slow_feed(stream, first, rest, pause):
    stream.write(first)
    stream.flush()
    time.sleep(pause)
    stream.write(rest)
    stream.close()


def records(count):
    return b'{"email": "ada@example.com", "password": "analytical1"}\n' * count


def test_no_progress_when_stderr_is_a_pipe():
    # The run takes more than a second (input arrives in two parts 1.3 s apart), stderr is a pipe.
    process = subprocess.Popen([CLI, "check", "login.json", "-"], cwd=FIXTURES, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    feeder = threading.Thread(target=slow_feed, args=(process.stdin, records(3000), records(3000), 1.3))
    feeder.start()
    out = process.stdout.read()
    err = process.stderr.read()
    process.wait(timeout=60)
    feeder.join()
    assert process.returncode == 0
    assert out.decode() == "6000 records: 6000 valid, 0 invalid\n"
    assert err == b""
    assert b"\r" not in err and b"\x1b" not in err


def test_progress_on_a_terminal():
    master, slave = pty.openpty()
    process = subprocess.Popen([CLI, "check", "login.json", "-"], cwd=FIXTURES, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    feeder = threading.Thread(target=slow_feed, args=(process.stdin, records(3000), records(3000), 1.3))
    feeder.start()
    seen = b""
    out = process.stdout.read()
    process.wait(timeout=60)
    feeder.join()
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert out.decode() == "6000 records: 6000 valid, 0 invalid\n"
    assert b"\rchecked " in seen and b" records (" in seen
    assert seen.endswith(b"\r")  # cleared at the end


def test_version_matches_the_library_version():
    import re
    version = re.search(r'formwellVersion: StaticString = "([0-9.]+)"',
                        (pathlib.Path(__file__).resolve().parents[2] / "Sources/Formwell/Version.swift").read_text()).group(1)
    for flag in ("--version", "-V"):
        result = run(flag)
        assert result.returncode == 0
        assert result.stdout.decode() == f"formwell {version}\n"
        assert result.stderr == b""


def test_many_batches_keep_input_order_and_counts(tmp_path):
    """40,000 lines cross several internal batches (16,384 records each): every line is reported
    in order, malformed lines between records included, and the summary counts them all."""
    rows, expected = [], []
    for i in range(1, 40_001):
        if i % 7 == 0:
            rows.append('{"email": "x@y.co", "password": }')
            expected.append(f'{{"line":{i},"malformed":"bad JSON at column 33: expected a value"}}')
        elif i % 3 == 0:
            rows.append(f'{{"email": "user{i}@example", "password": "longenough{i}"}}')
            expected.append(json_line(i, email=EMAIL))
        else:
            rows.append(f'{{"email": "user{i}@example.com", "password": "longenough{i}"}}')
            expected.append(json_line(i))
    data = tmp_path / "many.jsonl"
    data.write_text("\n".join(rows) + "\n")
    result = run("check", "--format", "json", "login.json", str(data))
    assert result.returncode == 1
    assert result.stdout.decode().splitlines() == expected
    human = run("check", "login.json", str(data))
    malformed = 40_000 // 7
    invalid = sum(1 for i in range(1, 40_001) if i % 7 and i % 3 == 0)
    assert f"40000 records: {40_000 - malformed - invalid} valid, {invalid} invalid, {malformed} malformed" \
        in human.stdout.decode().splitlines()


NORMALIZED_SPEC = (
    b'{"formwell": 1, "fields": ['
    b'{"id": "email", "normalize": ["trim", "lowercase"], "rules": [{"rule": "required"}, {"rule": "email"}]},'
    b'{"id": "phone", "normalize": ["digits_only"], "rules": [{"rule": "regex", "pattern": "^[0-9]{10}$"}]},'
    b'{"id": "password", "secret": true, "rules": [{"rule": "required"}, {"rule": "min_length", "length": 12}]}]}'
)


def test_normalisers_apply_to_records_and_secret_values_are_never_echoed(tmp_path):
    # Issue 13: records are normalised before the rules; a secret field's value appears in no
    # report, not even when its line is malformed.
    (tmp_path / "spec.json").write_bytes(NORMALIZED_SPEC)
    (tmp_path / "d.jsonl").write_bytes(
        b'{"email": "  Ada@Example.COM ", "phone": "(555) 123-4567", "password": "correct horse battery"}\n'
        b'{"email": "   ", "phone": "555-1234", "password": "hunter2-secret"}\n'
        b'{"email": "a@b.co", "phone": "5551234567", "password": "hunter2-secret", "password": 3}\n'
        b'{"email": "a@b.co", "phone": "5551234567", "password": ["hunter2-secret"]}\n'
    )
    for format_args in ([], ["--format", "json"]):
        result = run("check", *format_args, str(tmp_path / "spec.json"), str(tmp_path / "d.jsonl"))
        output = result.stdout + result.stderr
        assert b"hunter2" not in output
        assert result.returncode == 1
    human = run("check", str(tmp_path / "spec.json"), str(tmp_path / "d.jsonl"))
    # Line 1 passes only once normalised; line 2's email is white space only (trim: required fails);
    # line 3's repeated key takes the last value (3, too short); line 4 is malformed.
    assert lines(human.stdout) == [
        "line 2: email: This field is required",
        "line 2: phone: Invalid format",
        "line 3: password: Must be at least 12 characters",
        "line 4: malformed: key 'password': expected a string",
        "",
        "4 records: 1 valid, 2 invalid, 1 malformed",
        "  email: 1 invalid — This field is required (1)",
        "  phone: 1 invalid — Invalid format (1)",
        "  password: 1 invalid — Must be at least 12 characters (1)",
        "",
    ]


# MARK: Failure codes, parameters and locales (issue 13 part 2)

CODES_SPEC = {
    "formwell": 1,
    "fields": [
        {"id": "user", "label": "User", "rules": [
            {"rule": "required"}, {"rule": "min_length", "length": 5, "unit": "utf16"},
            {"rule": "regex", "pattern": "^[a-z]+$"}]},
        {"id": "size", "rules": [{"rule": "one_of", "values": ["S", "M", "L"]}]},
        {"id": "age", "rules": [{"rule": "integer", "min": 18, "max": 130}]},
        {"id": "price", "rules": [{"rule": "decimal", "min": "0.01"}]},
        {"id": "site", "rules": [{"rule": "url", "schemes": ["https"]}]},
        {"id": "pw", "secret": True, "rules": [{"rule": "password_strength"}]},
        {"id": "pw2", "secret": True, "rules": [{"rule": "not_equal", "field": "pw"}]},
        {"id": "country", "rules": []},
        {"id": "state", "rules": [{"rule": "required_if", "field": "country", "value": "US"}]},
        {"id": "x", "rules": [{"rule": "regex", "pattern": "^(a+)+$"}]},
    ],
}


def check_json(tmp_path, spec, records, *options):
    import json
    (tmp_path / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    data = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    result = run("check", "--format", "json", *options, str(tmp_path / "spec.json"), "-", stdin=data.encode())
    return result, [json.loads(line) for line in result.stdout.decode().splitlines()]


def test_json_codes_and_params_beside_every_message(tmp_path):
    valid = {"user": "alpha", "size": "M", "age": "30", "price": "1", "site": "https://a.example",
             "pw": "Secret-pw-1!", "pw2": "Other-pw-2!", "country": "FR", "x": "aaa"}
    invalid = {"user": "AB", "size": "XL", "age": "12", "price": "0", "site": "http://a.example",
               "pw": "hunter2hunter2", "pw2": "hunter2hunter2", "country": "US", "x": "a" * 90 + "!"}
    result, (first, second) = check_json(tmp_path, CODES_SPEC, [valid, invalid])
    assert result.returncode == 1, result.stderr.decode()
    assert first == {"codes": {}, "errors": {}, "line": 1, "params": {}, "valid": True}
    assert second["codes"] == {
        "user": "min_length", "size": "one_of", "age": "integer", "price": "decimal", "site": "url",
        "pw": "password_strength", "pw2": "not_equal", "state": "required_if", "x": "pattern_limit"}
    assert second["params"] == {
        "user": {"length": 5, "unit": "utf16"}, "size": {"values": ["S", "M", "L"]},
        "age": {"max": "130", "min": "18"}, "price": {"min": "0.01"}, "site": {"schemes": ["https"]},
        "pw": {"min_score": 3}, "pw2": {"field": "pw"}, "state": {"field": "country", "value": "US"}, "x": {}}
    # params are JSON objects, not strings; every failing field has all three, nothing else has any
    assert all(isinstance(value, dict) for value in second["params"].values())
    assert set(second["codes"]) == set(second["errors"]) == set(second["params"])
    assert second["errors"]["x"] == "This value is too complex to check"
    assert second["errors"]["user"] == "Must be at least 5 characters"
    # the keys of every line sorted, the params as the engine writes them (keys sorted, compact)
    line = result.stdout.decode().splitlines()[1]
    assert line.startswith('{"codes":{"age":"integer",')
    assert '"params":{"age":{"max":"130","min":"18"},' in line
    assert b"hunter2" not in result.stdout + result.stderr, "a secret value is never printed"


def test_json_codes_are_the_first_failure_in_error_mode_all(tmp_path):
    spec = {"formwell": 1, "errors": "all", "fields": [CODES_SPEC["fields"][0]]}
    result, (record,) = check_json(tmp_path, spec, [{"user": "AB"}])
    assert record["codes"] == {"user": "min_length"}
    assert record["errors"] == {"user": "Must be at least 5 characters"}
    assert record["params"] == {"user": {"length": 5, "unit": "utf16"}}


def test_locale_fr_words_messages_and_keeps_codes():
    english = run("check", "--format", "json", "login.json", "login_mixed.jsonl")
    for tag in ("fr", "fr-CA", "FR_fr"):
        french = run("check", "--format", "json", "--locale", tag, "login.json", "login_mixed.jsonl")
        assert french.returncode == 1
        assert french.stderr == english.stderr
        import json
        en_lines = [json.loads(line) for line in english.stdout.decode().splitlines()]
        fr_lines = [json.loads(line) for line in french.stdout.decode().splitlines()]
        for en, fr in zip(en_lines, fr_lines, strict=True):
            assert {k: v for k, v in en.items() if k != "errors"} == {k: v for k, v in fr.items() if k != "errors"}
        assert fr_lines[1]["errors"] == {"email": "Adresse e-mail non valide"}
        assert fr_lines[2]["errors"] == {"email": "Ce champ est obligatoire", "password": "Au moins 8 caractères"}
    human = run("check", "--locale=fr", "login.json", "login_mixed.jsonl")
    assert lines(human.stdout) == [
        "line 2: email: Adresse e-mail non valide",
        "line 4: email: Ce champ est obligatoire",
        "line 4: password: Au moins 8 caractères",
        "line 5: malformed: bad JSON at column 42: expected a value",
        "line 6: malformed: key 'password': expected a string",
        "line 7: malformed: invalid UTF-8 at byte 12",
        "line 8: email: Ce champ est obligatoire",
        "line 10: password: Au moins 8 caractères",
        "",
        "9 records: 2 valid, 4 invalid, 3 malformed",
        "  email: 3 invalid — Ce champ est obligatoire (2), Adresse e-mail non valide (1)",
        "  password: 2 invalid — Au moins 8 caractères (2)",
        "",
    ]
    # --locale en is today's output, byte for byte
    assert run("check", "--locale", "en", "login.json", "login_mixed.jsonl").stdout == \
        run("check", "login.json", "login_mixed.jsonl").stdout


def test_locale_option_overrides_the_spec_locale(tmp_path):
    spec = {"formwell": 1, "locale": "fr", "fields": [
        {"id": "name", "rules": [{"rule": "required"}, {"rule": "max_length", "length": 1}]}]}
    (tmp_path / "spec.json").write_text(__import__("json").dumps(spec), encoding="utf-8")
    data = b'{"name": ""}\n{"name": "ab"}\n'
    spec_locale = run("check", str(tmp_path / "spec.json"), "-", stdin=data)
    assert lines(spec_locale.stdout)[:2] == ["line 1: name: Ce champ est obligatoire", "line 2: name: Au plus 1 caractère"]
    english = run("check", "--locale", "en-GB", str(tmp_path / "spec.json"), "-", stdin=data)
    assert lines(english.stdout)[:2] == ["line 1: name: This field is required", "line 2: name: Must be 1 character or fewer"]
    result, records = check_json(tmp_path, spec, [{"name": "ab"}], "--locale", "en")
    assert records == [{"codes": {"name": "max_length"}, "errors": {"name": "Must be 1 character or fewer"},
                        "line": 1, "params": {"name": {"length": 1, "unit": "graphemes"}}, "valid": False}]


def test_bad_locale_is_a_usage_error_before_anything_is_read():
    result = run("check", "--locale", "klingon", "no_such_spec.json", "-", stdin=b"not read")
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().startswith("formwell: unknown locale 'klingon' (available: en, fr)\n")
    assert "usage: formwell check" in result.stderr.decode()


def test_secret_values_stay_out_of_french_and_json_reports(tmp_path):
    (tmp_path / "spec.json").write_bytes(NORMALIZED_SPEC)
    (tmp_path / "d.jsonl").write_bytes(
        b'{"email": "   ", "phone": "555-1234", "password": "hunter2-secret"}\n'
        b'{"email": "a@b.co", "phone": "5551234567", "password": ["hunter2-secret"]}\n'
    )
    for options in (["--locale", "fr"], ["--locale", "fr", "--format", "json"], ["--format", "json"]):
        result = run("check", *options, str(tmp_path / "spec.json"), str(tmp_path / "d.jsonl"))
        assert result.returncode == 1
        assert b"hunter2" not in result.stdout + result.stderr
    result, (record, _) = check_json(tmp_path, __import__("json").loads(NORMALIZED_SPEC),
                                     [{"email": "   ", "phone": "555-1234", "password": "hunter2-secret"},
                                      {"email": "a@b.co", "phone": "5551234567", "password": "short"}])
    assert record["codes"] == {"email": "required", "phone": "regex"}
    assert record["params"] == {"email": {}, "phone": {"pattern": "^[0-9]{10}$"}}

