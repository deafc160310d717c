"""Tests of scripts/gen_man.py: formwell(1) from the CLI's help, formwell(3) from include/formwell.h.

Runs the built CLI (env FORMWELL_CLI, default .build/bin/formwell) through the generator into a
temporary directory and checks the pages: every option the help prints and every FW_API function
of the header is on them, groff finds nothing to warn about, the output is reproducible, a changed
help text changes the page, and parsing surprises stop the generator without writing a page.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GEN = ROOT / "scripts" / "gen_man.py"
HEADER = ROOT / "include" / "formwell.h"
CLI = os.environ.get("FORMWELL_CLI", str(ROOT / ".build" / "bin" / "formwell"))

LONG_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
FW_API_FUNCTION = re.compile(r"^FW_API\b[^;]*?\b(fw_\w+)\s*\(", re.M)


def generate(out, cli=CLI, header=HEADER, env=None, version="0.6.0"):
    cmd = [sys.executable, str(GEN), "--cli", str(cli), "--header", str(header), "--out", str(out)]
    if version is not None:
        cmd += ["--version", version]
    full_env = dict(os.environ)
    full_env.pop("SOURCE_DATE_EPOCH", None)
    full_env.update(env or {})
    return subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=120)


def help_text(*args):
    if not os.path.exists(CLI):
        pytest.fail(f"formwell binary not found at {CLI}; build it or set FORMWELL_CLI")
    r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def fake_cli(tmp_path, texts, name="fake-formwell"):
    """A stand-in for the CLI printing texts[argv] (e.g. texts[("check", "--help")])."""
    script = tmp_path / name
    table = {" ".join(k): v for k, v in texts.items()}
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"TEXTS = {table!r}\n"
        "key = ' '.join(sys.argv[1:])\n"
        "if key not in TEXTS:\n"
        "    sys.stderr.write('fake formwell: unexpected arguments ' + key + '\\n')\n"
        "    sys.exit(2)\n"
        "sys.stdout.write(TEXTS[key])\n")
    script.chmod(0o755)
    return script


def roff_option(option):
    return option.replace("-", "\\-")


def assert_groff_clean(page):
    if shutil.which("groff") is None:
        pytest.skip("groff is not installed")
    r = subprocess.run(["groff", "-man", "-ww", "-z", "-t", str(page)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", f"groff on {page.name}:\n{r.stderr}"


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    help_text("--help")           # fails clearly when the CLI is missing
    out = tmp_path_factory.mktemp("man")
    r = generate(out)
    assert r.returncode == 0, r.stderr
    return out


def read(out, name):
    return (out / name).read_text(encoding="ascii")


def test_pages_are_written(pages):
    page1, page3 = read(pages, "formwell.1"), read(pages, "formwell.3")
    assert re.search(r'^\.TH FORMWELL 1 "" "formwell 0\.6\.0"', page1, re.M)
    assert re.search(r'^\.TH FORMWELL 3 "" "formwell 0\.6\.0"', page3, re.M)
    assert "formwell \\- validate form data against a Formwell form spec\n" in page1
    assert "formwell \\- headless form-validation engine, C API\n" in page3
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ARGUMENTS",
                    '"INPUT FORMATS"', '"EXIT STATUS"', "EXAMPLES", '"SEE ALSO"'):
        assert re.search(rf"^\.SH {re.escape(section)}$", page1, re.M), section
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "CONVENTIONS", '"TYPES AND CONSTANTS"',
                    "FILES", '"SEE ALSO"'):
        assert re.search(rf"^\.SH {re.escape(section)}$", page3, re.M), section
    assert ".BR formwell (3)" in page1
    assert ".BR formwell (1)," in page3 and ".BR pcre2 (3)" in page3


def test_every_long_option_of_check_help_is_on_formwell_1(pages):
    page1 = read(pages, "formwell.1")
    options = set(LONG_OPTION.findall(help_text("check", "--help")))
    assert {"--format", "--input", "--locale", "--help"} <= options
    for option in sorted(options | set(LONG_OPTION.findall(help_text("--help")))):
        assert roff_option(option) in page1, option


def test_every_fw_api_function_is_on_formwell_3(pages):
    page3 = read(pages, "formwell.3")
    functions = FW_API_FUNCTION.findall(HEADER.read_text(encoding="utf-8"))
    assert len(functions) > 50
    for name in functions:
        assert re.search(rf"\b{name}\(", page3), name


def test_every_header_section_is_on_formwell_3(pages):
    page3 = read(pages, "formwell.3")
    parts = re.split(r"^/\* ---- (.+?) ---- \*/$", HEADER.read_text(encoding="utf-8"), flags=re.M)
    sections_with_functions = [title for title, body in zip(parts[1::2], parts[2::2])
                               if FW_API_FUNCTION.search(body)]
    assert sections_with_functions
    headings = re.findall(r"^\.SH (.+)$", page3, re.M)
    for title in sections_with_functions:
        assert any(title.upper().replace("'", "\\(aq") in h for h in headings), title
    for topic in ("Handles", "Status codes", "Errors", "Strings", "Structs", "Threads",
                  "Callbacks", "Rules"):
        heading = f'"{topic}"' if " " in topic else topic
        assert re.search(rf"^\.SS {re.escape(heading)}$", page3, re.M), topic


@pytest.mark.parametrize("name", ["formwell.1", "formwell.3"])
def test_groff_reports_no_warnings(pages, name):
    assert_groff_clean(pages / name)


@pytest.mark.parametrize("name", ["formwell.1", "formwell.3"])
def test_man_reports_no_warnings(pages, name):
    """What lintian runs on a package's man pages."""
    if shutil.which("man") is None or shutil.which("groff") is None:
        pytest.skip("man or groff is not installed")
    env = dict(os.environ, LC_ALL="C.UTF-8", MANROFFSEQ="", MANWIDTH="80")
    r = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", str(pages / name)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_output_is_reproducible(pages, tmp_path):
    r = generate(tmp_path)
    assert r.returncode == 0, r.stderr
    for name in ("formwell.1", "formwell.3"):
        assert (tmp_path / name).read_bytes() == (pages / name).read_bytes(), name


def test_source_date_epoch_dates_the_pages(tmp_path):
    r = generate(tmp_path, env={"SOURCE_DATE_EPOCH": "1700000000"})
    assert r.returncode == 0, r.stderr
    assert '.TH FORMWELL 1 2023\\-11\\-14 "formwell 0.6.0"' in read(tmp_path, "formwell.1")


def test_version_defaults_to_version_swift(tmp_path):
    version = re.search(r'formwellVersion: StaticString = "([^"]+)"',
                        (ROOT / "Sources" / "Formwell" / "Version.swift").read_text()).group(1)
    r = generate(tmp_path, version=None)
    assert r.returncode == 0, r.stderr
    assert f'"formwell {version}"' in read(tmp_path, "formwell.3")


def with_option(check_help, line):
    """check_help with line added as the first entry of its Options: section."""
    out, done = [], False
    for l in check_help.split("\n"):
        out.append(l)
        if l == "Options:" and not done:
            out.append(line)
            done = True
    assert done, "check --help has no Options: section"
    return "\n".join(out)


def test_a_new_option_and_section_appear_on_formwell_1(tmp_path):
    main, check = help_text("--help"), help_text("check", "--help")
    check = with_option(check, "  --frobnicate N     frobnicate the records")
    check = check.rstrip("\n") + "\n\nEnvironment:\n  FORMWELL_FROB  how hard to frobnicate\n"
    cli = fake_cli(tmp_path, {("--help",): main, ("check", "--help"): check})
    out = tmp_path / "man"
    r = generate(out, cli=cli)
    assert r.returncode == 0, r.stderr
    page1 = read(out, "formwell.1")
    assert "\\fB\\-\\-frobnicate\\fR \\fIN\\fR" in page1
    assert "frobnicate the records" in page1
    assert re.search(r"^\.SH ENVIRONMENT$", page1, re.M)
    assert "how hard to frobnicate" in page1
    assert_groff_clean(out / "formwell.1")


def assert_refused(r, out, message):
    assert r.returncode != 0
    assert "gen_man.py: error:" in r.stderr and message in r.stderr, r.stderr
    assert not (out / "formwell.1").exists() and not (out / "formwell.3").exists()


def test_a_failing_cli_is_reported(tmp_path):
    cli = fake_cli(tmp_path, {("--help",): help_text("--help")})   # check --help exits 2
    out = tmp_path / "man"
    assert_refused(generate(out, cli=cli), out, "`formwell check --help`")


def test_help_without_usage_line_is_refused(tmp_path):
    main = help_text("--help")
    cli = fake_cli(tmp_path, {("--help",): main.split("\n", 1)[1],
                              ("check", "--help"): help_text("check", "--help")})
    out = tmp_path / "man"
    assert_refused(generate(out, cli=cli), out, "usage line")


def header_variant(tmp_path, old, new):
    text = HEADER.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "formwell.h"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_header_section_without_functions_is_refused(tmp_path):
    header = header_variant(tmp_path, "/* ---- Forms ---- */", "/* ---- Empty ---- */\n\n/* ---- Forms ---- */")
    out = tmp_path / "man"
    assert_refused(generate(out, header=header), out, "'Empty' declares no function")


def test_function_without_doc_comment_is_refused(tmp_path):
    header = header_variant(tmp_path, "/* ---- Forms ---- */",
                            "/* ---- Forms ---- */\n\nFW_API fw_status fw_undocumented(void);\n")
    out = tmp_path / "man"
    assert_refused(generate(out, header=header), out, "fw_undocumented has no /** ... */ doc comment")
