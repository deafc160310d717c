"""The terminal sign-up form (bindings/c/examples/signup_tui.c) used as a person would use it.

Each test starts the program inside its own tmux server (a private socket, `tmux -L`, no user
config), types with `send-keys` and reads the screen with `capture-pane -p -e`: the escape sequences
are kept and parsed into cells, so the assertions see colours and bold, not just text. Every wait
polls the pane until the expected screen appears (or a timeout of several seconds passes), so the
test holds on a loaded machine. The screens of a few steps are written to $SIGNUP_TUI_CAPTURES (the
pictures in docs/terminal-form.md).

Run with `make test-tui` (or SIGNUP_TUI=path/to/signup_tui python3 -m pytest Tests/TUI).
"""
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import time
import uuid

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROGRAM = os.environ.get("SIGNUP_TUI") or str(ROOT / ".build/c/signup_tui")
CAPTURES = os.environ.get("SIGNUP_TUI_CAPTURES")
TIMEOUT = float(os.environ.get("SIGNUP_TUI_TIMEOUT", "15"))
SERVER_MS = 2000  # the pretend server's answer time: a wide window to see "checking" and take a step in it

LABELS = ["Display name", "Email address", "Username", "Password", "Confirm password"]
FIELD_TOP, FIELD_ROWS, BOX_COL, BOX_WIDTH, PANEL_COL, PANEL_LINES, STATUS_ROW = 1, 4, 2, 50, 56, 9, 21
COLOURS = {31: "red", 32: "green", 34: "blue", 90: "grey"}
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
PENDING = re.compile(f"^[{SPINNER}] checking availability…$")
WAITING = re.compile(f"^[{SPINNER}] Signing up once the username check answers…$")
UP, IN = "raised", "inside"

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


# ---- Reading the screen ----

class Cell:
    __slots__ = ("char", "fg", "bold")

    def __init__(self, char, fg, bold):
        self.char, self.fg, self.bold = char, fg, bold


def parse(capture, width, height):
    """capture-pane -p -e output -> height rows of width cells (char, colour name or None, bold).
    tmux carries attributes across line ends, so the state does too."""
    rows, fg, bold = [], None, False
    for line in capture.split("\n")[:height]:
        cells, at = [], 0
        while at < len(line):
            match = re.match(r"\x1b\[([0-9;:]*)m", line[at:])
            if match:
                params = [int(p) if p else 0 for p in re.split("[;:]", match.group(1))]
                k = 0
                while k < len(params):
                    p = params[k]
                    if p == 0:
                        fg, bold = None, False
                    elif p == 1:
                        bold = True
                    elif p == 22:
                        bold = False
                    elif 30 <= p <= 37 or 90 <= p <= 97:
                        fg = COLOURS.get(p, f"colour{p}")
                    elif p == 39:
                        fg = None
                    elif p in (38, 48):  # 38;5;n or 38;2;r;g;b (and background alike)
                        if p == 38:
                            fg = f"extended{params[k + 1:k + 3]}"
                        k += 2 if k + 1 < len(params) and params[k + 1] == 5 else 4
                    k += 1
                at += match.end()
                continue
            if line[at] == "\x1b":  # another sequence: skip it
                other = re.match(r"\x1b[\[\]][0-9;?]*[ -/]*[@-~]", line[at:])
                at += other.end() if other else 1
                continue
            cells.append(Cell(line[at], fg, bold))
            at += 1
        cells += [Cell(" ", None, False) for _ in range(width - len(cells))]
        rows.append(cells[:width])
    while len(rows) < height:
        rows.append([Cell(" ", None, False) for _ in range(width)])
    return rows


class Screen:
    """One capture of the form: what a person sees, cell by cell."""

    def __init__(self, capture, cursor, width, height):
        self.rows = parse(capture, width, height)
        self.text = ["".join(c.char for c in row) for row in self.rows]
        self.cursor = cursor

    def plain(self):
        lines = [line.rstrip() for line in self.text]
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines)

    def top(self, i):
        return FIELD_TOP + i * FIELD_ROWS

    def border(self, i):
        """The border's colour, with ' bold' when bold and drawn in heavy lines; 'mixed: ...' when
        its cells disagree."""
        top, right = self.top(i), BOX_COL + BOX_WIDTH - 1
        cells = [self.rows[top][BOX_COL], self.rows[top][right], self.rows[top + 1][BOX_COL],
                 self.rows[top + 1][right], self.rows[top + 2][BOX_COL], self.rows[top + 2][right]]
        cells += [c for c in self.rows[top + 2][BOX_COL + 1:right]]
        cells += [c for c in self.rows[top][BOX_COL + 1:right] if c.char in "─━"]
        kinds = {(c.fg, c.bold, c.char in "┏┓┗┛━┃") for c in cells}
        if len(kinds) != 1:
            return f"mixed: {sorted(kinds, key=str)}"
        fg, bold, heavy = kinds.pop()
        if bold != heavy:
            return f"{fg} (bold {bold}, heavy lines {heavy})"
        return f"{fg} bold" if bold else str(fg)

    def label(self, i):
        top = self.top(i)
        on_border = f"─ {LABELS[i]} ─" in self.text[top] or f"━ {LABELS[i]} ━" in self.text[top]
        inside = self.text[top + 1][BOX_COL + 1:BOX_COL + BOX_WIDTH - 1].strip() == LABELS[i]
        if on_border == inside:
            return f"both or neither: {self.text[top]!r} / {self.text[top + 1]!r}"
        return UP if on_border else IN

    def label_colour(self, i):
        top = self.top(i)
        row = top if self.label(i) == UP else top + 1
        col = self.text[row].index(LABELS[i])
        return self.rows[row][col].fg

    def value(self, i):
        """The text inside the box (the value, or the resting label), without the check mark."""
        return self.text[self.top(i) + 1][BOX_COL + 2:BOX_COL + BOX_WIDTH - 3].strip()

    def checked(self, i):
        cell = self.rows[self.top(i) + 1][BOX_COL + BOX_WIDTH - 3]
        return cell.char == "✓" and cell.fg == "blue"

    def message_end(self, i):
        """Where the line under a box ends: before the panel on the panel's rows."""
        return PANEL_COL - 1 if self.top(i) + 3 < FIELD_TOP + PANEL_LINES else len(self.text[0])

    def message(self, i):
        return self.text[self.top(i) + 3][BOX_COL:self.message_end(i)].strip()

    def message_colour(self, i):
        row = self.rows[self.top(i) + 3]
        colours = {c.fg for c in row[BOX_COL:self.message_end(i)] if c.char != " "}
        return colours.pop() if len(colours) == 1 else (None if not colours else f"mixed {colours}")

    def status(self):
        return self.text[STATUS_ROW].strip()

    def status_colour(self):
        colours = {c.fg for c in self.rows[STATUS_ROW] if c.char != " "}
        return colours.pop() if len(colours) == 1 else (None if not colours else f"mixed {colours}")

    def panel(self, name):
        for line in self.text:
            right = line[PANEL_COL:]
            if right.startswith(name):
                return right[len(name):].strip()
        raise AssertionError(f"no panel line {name!r}")

    def describe(self):
        """What the plain text loses, read from the escape sequences (the legend in docs/terminal-form.md)."""
        borders, lines = [], []
        for i, label in enumerate(LABELS):
            note = f"{label} {self.border(i).replace(' bold', ' and bold (focused)')}"
            if self.label(i) == IN:
                note += " with the label inside"
            borders.append(note)
            if self.message(i):
                lines.append(f"{label}'s {self.message_colour(i)}")
        text = f"Borders: {'; '.join(borders)}."
        if lines:
            text += f" Lines under the boxes: {', '.join(lines)}."
        if self.status():
            text += f" Status line: {self.status_colour()}."
        if self.cursor:
            text += f" Cursor: column {self.cursor[0]}, row {self.cursor[1]}."
        return text


def check(screen, borders=None, labels=None, values=None, messages=None, status=None, cursor=None,
          panel=None, checked=None):
    """Asserts the parts of the screen given (None: not checked). A message or status may be a string
    (exact) or a compiled pattern; message colours follow from their kind (errors red, pending blue)."""
    problems = []
    for i in range(len(LABELS)):
        if borders is not None and screen.border(i) != borders[i]:
            problems.append(f"{LABELS[i]} border {screen.border(i)!r}, expected {borders[i]!r}")
        if labels is not None and screen.label(i) != labels[i]:
            problems.append(f"{LABELS[i]} label {screen.label(i)!r}, expected {labels[i]!r}")
        if labels is not None and screen.label(i) in (UP, IN):
            tint = screen.border(i).split(" ")[0]
            if screen.label_colour(i) != tint:
                problems.append(f"{LABELS[i]} label colour {screen.label_colour(i)}, border {tint}")
        if values is not None and values[i] is not None and screen.value(i) != values[i]:
            problems.append(f"{LABELS[i]} value {screen.value(i)!r}, expected {values[i]!r}")
        if checked is not None and screen.checked(i) != checked[i]:
            problems.append(f"{LABELS[i]} check mark {screen.checked(i)}, expected {checked[i]}")
        if messages is not None:
            want, got = messages[i], screen.message(i)
            if isinstance(want, re.Pattern):
                if not want.match(got):
                    problems.append(f"{LABELS[i]} message {got!r}, expected /{want.pattern}/")
                elif screen.message_colour(i) != "blue":
                    problems.append(f"{LABELS[i]} pending line colour {screen.message_colour(i)}, expected blue")
            elif got != want:
                problems.append(f"{LABELS[i]} message {got!r}, expected {want!r}")
            elif want and screen.message_colour(i) != "red":
                problems.append(f"{LABELS[i]} message colour {screen.message_colour(i)}, expected red")
    if status is not None:
        want, got = status, screen.status()
        text, colour = want if isinstance(want, tuple) else (want, None)
        ok = text.match(got) if isinstance(text, re.Pattern) else got == text
        if not ok:
            problems.append(f"status {got!r}, expected {text!r}")
        elif colour and screen.status_colour() != colour:
            problems.append(f"status colour {screen.status_colour()}, expected {colour}")
    if cursor is not None and screen.cursor != cursor:
        problems.append(f"cursor at {screen.cursor}, expected {cursor}")
    for name, want in (panel or {}).items():
        if screen.panel(name) != want:
            problems.append(f"panel {name} {screen.panel(name)!r}, expected {want!r}")
    assert not problems, "; ".join(problems)


# ---- Driving the program inside tmux ----

class Tui:
    def __init__(self, workdir, width=80, height=24, server_ms=SERVER_MS):
        self.width, self.height, self.workdir = width, height, pathlib.Path(workdir)
        self.socket = f"formwell-tui-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
        self.env.update(LC_ALL="C.UTF-8", LANG="C.UTF-8", SHELL="/bin/sh", TERM="xterm-256color")
        self.before, self.after, self.status = (self.workdir / n for n in ("stty.before", "stty.after", "status"))
        # A shell around the program records the terminal settings before and after it and its exit
        # status, then keeps the pane open so the screen after exit can be read too.
        script = (f"stty -g > {shlex.quote(str(self.before))}; "
                  f"SIGNUP_TUI_SERVER_MS={server_ms} {shlex.quote(PROGRAM)}; rc=$?; "
                  f"stty -g > {shlex.quote(str(self.after))}; "
                  f"echo $rc > {shlex.quote(str(self.status))}.tmp; "
                  f"mv {shlex.quote(str(self.status))}.tmp {shlex.quote(str(self.status))}; exec sleep 600")
        self.tmux("new-session", "-d", "-s", "tui", "-x", str(width), "-y", str(height), script)
        self.tmux("set-option", "-t", "tui", "status", "off")

    def tmux(self, *args):
        result = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True,
                                text=True, env=self.env, timeout=30)
        if result.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {result.stderr.strip()}")
        return result.stdout

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, env=self.env, timeout=30)

    def keys(self, *keys):
        """Named keys (Tab, BTab, Enter, BSpace, Escape, C-c)."""
        self.tmux("send-keys", "-t", "tui", *keys)

    def type(self, text):
        """Literal text, sent in one go: fast typing."""
        self.tmux("send-keys", "-t", "tui", "-l", text)

    def screen(self):
        capture = self.tmux("capture-pane", "-p", "-e", "-t", "tui")
        x, y, width, height = map(int, self.pane("#{cursor_x},#{cursor_y},#{pane_width},#{pane_height}").split(","))
        return Screen(capture, (x, y), width, height)

    def pane(self, fmt):
        return self.tmux("display-message", "-p", "-t", "tui", fmt).strip()

    def expect(self, step, **wanted):
        """Polls the pane until the screen is as wanted; fails with the last screen after TIMEOUT."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            screen = self.screen()
            try:
                check(screen, **wanted)
                return screen
            except AssertionError as problem:
                if time.monotonic() > deadline:
                    raise AssertionError(f"step '{step}': {problem}\n{screen.plain()}") from None
            time.sleep(0.05)

    def wait_until(self, what, predicate):
        deadline = time.monotonic() + TIMEOUT
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}\n{self.screen().plain()}")
            time.sleep(0.05)

    def exit_status(self):
        self.wait_until("the program to exit", self.status.exists)  # written last, by a rename
        return int(self.status.read_text())

    def program_pid(self):
        shell = self.pane("#{pane_pid}")
        found = subprocess.run(["ps", "-o", "pid=", "--ppid", shell], capture_output=True, text=True).stdout.split()
        assert len(found) == 1, f"expected one child of the pane's shell, found {found}"
        return int(found[0])


@pytest.fixture
def tui(tmp_path):
    sessions = []

    def start(**options):
        session = Tui(tmp_path / f"run{len(sessions)}", **options)
        sessions.append(session)
        return session

    for k in range(4):
        (tmp_path / f"run{k}").mkdir()
    yield start
    for session in sessions:
        session.close()


CAPTURED = []


def capture(title, screen, legend=True):
    """Keeps a screen for docs/terminal-form.md (written out at the end of the module)."""
    CAPTURED.append((title, screen, legend))


@pytest.fixture(scope="module", autouse=True)
def write_captures():
    yield
    if not CAPTURES or not CAPTURED:
        return
    parts = []
    for title, screen, legend in CAPTURED:
        parts.append(f"**{title}**\n\n```\n{screen.plain()}\n```\n")
        if legend:
            parts.append(screen.describe() + "\n")
    pathlib.Path(CAPTURES).write_text("\n".join(parts))


# ---- The tests ----

NONE5 = ["", "", "", "", ""]


def test_sign_up_as_a_person_types(tui):
    t = tui()
    assert t.pane("#{window_width}x#{window_height}") == "80x24"

    s = t.expect("1. the form appears, Display name focused",
                 borders=["blue bold", "grey", "grey", "grey", "grey"], labels=[UP, IN, IN, IN, IN],
                 messages=NONE5, status="", cursor=(4, 2),
                 panel={"submits": "0", "pending checks": "0", "checks sent": "0", "ready to submit": "no"})
    capture("The form as it opens", s)

    t.type("Ada Lovelace")
    t.expect("2. typing a name", borders=["blue bold", "grey", "grey", "grey", "grey"],
             values=["Ada Lovelace", "Email address", None, None, None], cursor=(16, 2),
             panel={"dirty fields": "1"})

    t.keys("Tab")
    t.expect("3. Tab: the name is blurred valid, Email focused",
             borders=["blue", "blue bold", "grey", "grey", "grey"], labels=[UP, UP, IN, IN, IN],
             checked=[True, False, False, False, False], messages=NONE5, cursor=(4, 6))

    t.type("ada@")
    t.expect("4. an unfinished address: red while typing, no message before the field is left",
             borders=["blue", "red bold", "grey", "grey", "grey"], messages=NONE5, cursor=(8, 6))

    t.keys("Tab")
    t.expect("5. Tab: Email shows its error, Username focused",
             borders=["blue", "red", "blue bold", "grey", "grey"], labels=[UP, UP, UP, IN, IN],
             messages=["", "Enter a valid email address", "", "", ""], cursor=(4, 10))

    t.type("admin")  # fast: adm, admi, admin each pass the synchronous rules within the debounce
    s = t.expect("6. typing a username fast: the check is pending",
                 borders=["blue", "red", "blue bold", "grey", "grey"],
                 messages=["", "Enter a valid email address", PENDING, "", ""], cursor=(9, 10),
                 panel={"pending checks": "1"})

    s = t.expect("7. past the 500 ms debounce: one check sent, still waiting for the answer",
                 messages=["", "Enter a valid email address", PENDING, "", ""],
                 panel={"checks sent": "1", "pending checks": "1"})
    capture("Typing a username: the availability check is pending (debounced, then sent)", s)

    t.expect("8. the answer: taken (red while focused; the message waits for the field to be left)",
             borders=["blue", "red", "red bold", "grey", "grey"],
             messages=["", "Enter a valid email address", "", "", ""], cursor=(9, 10),
             panel={"checks sent": "1", "pending checks": "0", "stale answers": "0"})

    t.keys("Tab")
    s = t.expect("9. Tab: Username shows 'taken', Password focused",
                 borders=["blue", "red", "red", "blue bold", "grey"], labels=[UP, UP, UP, UP, IN],
                 messages=["", "Enter a valid email address", "That username is already taken", "", ""],
                 cursor=(4, 14))

    t.type("abc")
    t.expect("10. a weak password: on_blur shows nothing while typing",
             borders=["blue", "red", "red", "blue bold", "grey"], values=[None, None, None, "•••", None],
             messages=["", "Enter a valid email address", "That username is already taken", "", ""],
             cursor=(7, 14))

    t.keys("Tab")
    s = t.expect("11. Tab: every failing password rule under the field, Confirm focused",
                 borders=["blue", "red", "red", "red", "blue bold"], labels=[UP, UP, UP, UP, UP],
                 messages=["", "Enter a valid email address", "That username is already taken",
                           "At least 8 characters · Add a number · Add an uppercase letter", ""],
                 cursor=(4, 18))
    capture("Fields left with errors; the password lists every rule it fails", s)

    t.keys("BTab")
    t.expect("12. Shift-Tab: Confirm left empty is required; Password focused keeps its blur verdict",
             borders=["blue", "red", "red", "red bold", "red"], labels=[UP, UP, UP, UP, UP],
             messages=["", "Enter a valid email address", "That username is already taken",
                       "At least 8 characters · Add a number · Add an uppercase letter",
                       "Please confirm your password"],
             cursor=(7, 14))

    t.keys("BSpace", "BSpace", "BSpace")
    t.type("Secret12")
    t.expect("13. Backspace and a strong password: still the old verdict until the field is left (on_blur)",
             borders=["blue", "red", "red", "red bold", "red"], values=[None, None, None, "••••••••", None],
             messages=["", "Enter a valid email address", "That username is already taken",
                       "At least 8 characters · Add a number · Add an uppercase letter",
                       "Please confirm your password"],
             cursor=(12, 14))

    t.keys("Enter")
    s = t.expect("14. Enter: submit fails, focus moves to the first invalid field, the announcement",
                 borders=["blue", "red bold", "red", "blue", "red"],
                 checked=[True, False, False, True, False],
                 messages=["", "Enter a valid email address", "That username is already taken", "",
                           "Please confirm your password"],
                 status=("✗ 3 fields need attention: Email address, Username, Confirm password", "red"),
                 cursor=(8, 6), panel={"submits": "1", "submit failed": "yes"})
    capture("Enter with three fields wrong: focus on the first, the announcement below", s)

    t.type("example.com")
    t.expect("15. fixing Email: the announcement follows what fails now",
             borders=["blue", "blue bold", "red", "blue", "red"], checked=[True, True, False, True, False],
             messages=["", "", "That username is already taken", "", "Please confirm your password"],
             status=("✗ 2 fields need attention: Username, Confirm password", "red"), cursor=(19, 6))

    t.keys("Tab", "Tab", "Tab")
    t.type("Secret12")
    t.expect("16. Tab past Username and Password to Confirm, type the password again",
             borders=["blue", "blue", "red", "blue", "blue bold"], checked=[True, True, False, True, True],
             messages=["", "", "That username is already taken", "", ""],
             status=("✗ 1 field needs attention: Username", "red"), cursor=(12, 18))

    t.keys("BTab", "BTab")
    t.expect("17. Shift-Tab twice, back to Username", borders=["blue", "blue", "red bold", "blue", "blue"],
             messages=["", "", "That username is already taken", "", ""], cursor=(9, 10))

    t.type("_")
    t.expect("18. another name: pending again, so no field fails now (an empty announcement)",
             borders=["blue", "blue", "blue bold", "blue", "blue"], messages=["", "", PENDING, "", ""],
             status="", cursor=(10, 10), panel={"ready to submit": "no"})
    t.expect("19. its check is sent", messages=["", "", PENDING, "", ""],
             panel={"checks sent": "2", "pending checks": "1"})

    t.type("l")  # the answer for "admin_" is now stale
    t.keys("Enter")  # a submit does not wait out the debounce of "admin_l": its check goes at once
    s = t.expect("20. Enter while the check is pending: the submit waits for it",
                 messages=["", "", PENDING, "", ""], status=(WAITING, "blue"), cursor=(11, 10),
                 panel={"checks sent": "3", "pending checks": "1", "submits": "2", "submit failed": "no"})
    capture("Enter while the username is being checked: the submit waits for the answer", s)

    s = t.expect("21. the stale answer is dropped, the new one passes, the submit runs: signed up",
                 borders=["blue", "blue", "blue bold", "blue", "blue"], checked=[True, True, True, True, True],
                 messages=NONE5, status=("✓ Signed up! Welcome, Ada Lovelace.", "green"), cursor=(11, 10),
                 panel={"checks sent": "3", "stale answers": "1", "pending checks": "0", "submits": "3",
                        "ready to submit": "yes"})
    capture("The answer arrives (the one for the previous name is dropped as stale): signed up", s)

    t.keys("Tab", "Tab", "BSpace")
    t.expect("22. Backspace in Confirm after signing up: the mismatch shows at once, the success line goes",
             borders=["blue", "blue", "blue", "blue", "red bold"],
             messages=["", "", "", "", "Passwords don't match"], status="", cursor=(11, 18))

    t.keys("Escape")
    assert t.exit_status() == 0
    assert t.after.read_text() == t.before.read_text(), "terminal settings not restored"
    t.wait_until("the alternate screen to be left", lambda: t.pane("#{alternate_on}") == "0")
    assert t.pane("#{cursor_flag}") == "1", "cursor left hidden"
    assert "Create Account" not in t.screen().plain()


def test_small_terminal_then_resize(tui):
    t = tui(width=60, height=20)
    t.wait_until("the size message", lambda: "needs an 80x24 terminal; this one is 60x20" in t.screen().plain())
    s = t.screen()
    assert "Create Account" not in s.plain()
    capture("A 60x20 terminal", s, legend=False)
    t.keys("a", "Tab", "Enter")  # ignored while too small
    t.tmux("resize-window", "-t", "tui", "-x", "80", "-y", "24")
    t.expect("resized to 80x24: the form, untouched", borders=["blue bold", "grey", "grey", "grey", "grey"],
             labels=[UP, IN, IN, IN, IN], messages=NONE5, status="", cursor=(4, 2), panel={"submits": "0"})
    t.keys("C-c")
    assert t.exit_status() == 0
    assert t.after.read_text() == t.before.read_text(), "terminal settings not restored after Ctrl-C"
    assert t.pane("#{alternate_on}") == "0"


def test_terminal_restored_when_killed(tui):
    t = tui()
    t.expect("the form", borders=["blue bold", "grey", "grey", "grey", "grey"])
    t.type("Ada")
    t.expect("typed", values=["Ada", None, None, None, None])
    os.kill(t.program_pid(), signal.SIGTERM)
    assert t.exit_status() == 128 + signal.SIGTERM
    assert t.after.read_text() == t.before.read_text(), "terminal settings not restored after SIGTERM"
    t.wait_until("the alternate screen to be left", lambda: t.pane("#{alternate_on}") == "0")
    assert t.pane("#{cursor_flag}") == "1"


def test_without_a_terminal():
    result = subprocess.run([PROGRAM], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "needs a terminal" in result.stdout
    assert "\x1b" not in result.stdout
