#!/usr/bin/env python3
"""Generates the man pages formwell(1) and formwell(3); they are never kept by hand.

formwell(1) is made from the same source as the tool's help: the output of `formwell --help` and of
`formwell COMMAND --help` for every command its Commands: section lists. A help text is a usage line,
paragraphs, then sections: an unindented heading ending in ':' and indented lines. A section line
`TERM  DESCRIPTION` (two or more spaces between) starts a definition, lines indented to the
description's column continue it, and lines indented deeper are an example block inside it; other
lines are prose, or an example block in an Example(s) section. The page has NAME, SYNOPSIS (the
usage lines), DESCRIPTION (the paragraphs), COMMANDS, then the sections of the help texts (OPTIONS,
ARGUMENTS, ..., EXIT STATUS, EXAMPLES; with one command, its sections and the tool's own merge).

formwell(3) is made from include/formwell.h: the CONVENTIONS paragraphs of its top comment, the
types and constants, and one section per `/* ---- Title ---- */` marker listing each function
declared in it (`FW_API type fw_name(args);`) with its prototype and the first paragraph of its
`/** ... */` doc comment.

The output is deterministic: the .TH date is the UTC date of SOURCE_DATE_EPOCH when that is set,
else empty. Anything the parsers do not expect (a help text without a usage line, a header section
without functions, a function without a doc comment, ...) stops the script with a message and
exit status 1; no page is written then.

Usage: gen_man.py --cli PATH --header include/formwell.h [--version X.Y.Z] --out DIR
  --version  defaults to formwellVersion in Sources/Formwell/Version.swift.
"""
import argparse
import datetime
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
VERSION_SWIFT = ROOT / "Sources" / "Formwell" / "Version.swift"

NAME_1 = "validate form data against a Formwell form spec"
NAME_3 = "headless form-validation engine, C API"


class ManError(Exception):
    """A parsing surprise or a failed step: reported, and no page is written."""


# ---------------------------------------------------------------------------------------------
# roff output


def esc(text, code=False):
    """Escapes text for a roff text line. code: every '-' is a minus (\\-); otherwise a '-' between
    two letters stays a hyphen. Non-ASCII characters become \\[uXXXX]."""
    out = []
    n = len(text)
    for i, ch in enumerate(text):
        if ch == "\\":
            out.append("\\e")
        elif ch == "-":
            if not code and 0 < i < n - 1 and text[i - 1].isalpha() and text[i + 1].isalpha():
                out.append("-")
            else:
                out.append("\\-")
        elif ch == "'":
            out.append("\\(aq")
        elif ch == "`":
            out.append("\\(ga")
        elif ord(ch) < 32 or ord(ch) == 127:
            raise ManError(f"control character U+{ord(ch):04X} in {text!r}")
        elif ord(ch) > 126:
            out.append(f"\\[u{ord(ch):04X}]")
        else:
            out.append(ch)
    return "".join(out)


def bold(s):
    return f"\\fB{s}\\fR" if s else ""


def italic(s):
    return f"\\fI{s}\\fR" if s else ""


def tidy(s):
    """Rewrites the font switches of s (\\fB, \\fI, \\fR) as few as the text needs: adjacent runs
    of one font merged, no empty runs, back to roman at the end."""
    out, font = [], "R"
    parts = re.split(r"(\\f[BIR])", s)
    pending = "R"
    for k, part in enumerate(parts):
        if k % 2:
            pending = part[2]
        elif part:
            if pending != font:
                out.append("\\f" + pending)
                font = pending
            out.append(part)
    if font != "R":
        out.append("\\fR")
    return "".join(out)


def quote_arg(s):
    """A macro argument (already escaped)."""
    s = s.replace('"', "\\(dq")
    return f'"{s}"' if (" " in s or not s) else s


class Page:
    def __init__(self):
        self.lines = []

    def comment(self, text):
        self.lines.append(f'.\\" {text}'.rstrip())

    def macro(self, name, *args):
        self.lines.append(" ".join(["." + name] + [quote_arg(a) for a in args]))

    def text(self, s, width=78):
        """One filled paragraph's text (already escaped and marked up), wrapped at plain spaces.
        A line that ends a sentence only by the wrapping gets \\& so roff adds no sentence space."""
        words = [w for w in re.split(r"(?<!\\) ", s) if w]
        line = ""
        for w in words:
            if line and len(line) + 1 + len(w) > width:
                self._text_line(line + ("\\&" if SENTENCE_END.search(line) else ""))
                line = w
            else:
                line = f"{line} {w}" if line else w
        if line:
            self._text_line(line)

    def tag(self, lines):
        """The tag of a .TP entry, one input line per tag line (.TQ for the second and later)."""
        for k, line in enumerate(lines):
            self.macro("TP" if k == 0 else "TQ")
            self._text_line(line)

    def _text_line(self, line):
        if line.startswith((".", "'")):
            line = "\\&" + line
        self.lines.append(line)

    def pre(self, raw_lines):
        """An example block: no filling, every character literal."""
        self.macro("EX")
        for raw in raw_lines:
            line = esc(raw.rstrip(), code=True)
            self.lines.append("\\&" + line if (not line or line.startswith((".", "'"))) else line)
        self.macro("EE")

    def render(self):
        return "\n".join(self.lines) + "\n"


SENTENCE_END = re.compile(r'[.!?](?:\\f[BIR]|\\\(aq|[)\]"])*$')


def th_date():
    sde = os.environ.get("SOURCE_DATE_EPOCH")
    if sde is None or sde == "":
        return ""
    if not re.fullmatch(r"[0-9]+", sde):
        raise ManError(f"SOURCE_DATE_EPOCH is not a number of seconds: {sde!r}")
    return datetime.datetime.fromtimestamp(int(sde), datetime.timezone.utc).strftime("%Y-%m-%d")


def page_head(page, section, version, manual):
    page.macro("TH", "FORMWELL", str(section), esc(th_date()), esc(f"formwell {version}"), manual)
    # No hyphenation, left-aligned: option names and identifiers stay whole and no line needs
    # stretching. (HY: .YS and .EE turn hyphenation back on with it.)
    page.macro("nr", "HY", "0")
    page.macro("nh")
    page.macro("ad", "l")


ISSUE_REF = re.compile(r"\s*\((?:see )?issue #?[0-9]+\)", re.IGNORECASE)


def scrub(text, where):
    """Drops parenthesised issue references: the pages state what is true now."""
    def drop(m):
        print(f"gen_man.py: warning: {where}: dropped {m.group(0).strip()!r} "
              "(man pages state what is true now; remove it from the source)", file=sys.stderr)
        return ""
    return ISSUE_REF.sub(drop, text)


# ---------------------------------------------------------------------------------------------
# Help texts -> formwell(1)


class Def:
    """A definition: term, description column, parts [(kind, lines, new_paragraph)] with kind
    "text" (description lines) or "pre" (example lines, indentation beyond the column kept)."""

    def __init__(self, term, col):
        self.term, self.col, self.parts = term, col, []

    def add(self, kind, line, new_paragraph):
        if self.parts and self.parts[-1][0] == kind and not new_paragraph:
            self.parts[-1][1].append(line)
        else:
            self.parts.append((kind, [line], new_paragraph and bool(self.parts)))

    def text_size(self):
        return sum(len(l.strip()) for _, lines, _ in self.parts for l in lines)


class Block:
    """Prose ("text") or an example block ("pre", raw lines) at a section's base indentation."""

    def __init__(self, kind, line):
        self.kind, self.lines = kind, [line]


class HelpSection:
    def __init__(self, title):
        self.title, self.items = title, []


class Help:
    def __init__(self, source):
        self.source, self.usage, self.paragraphs, self.sections = source, [], [], []

    def section(self, key):
        for s in self.sections:
            if section_key(s.title) == key:
                return s
        return None


USAGE_RE = re.compile(r"usage:\s+(\S.*)$", re.IGNORECASE)
DEF_RE = re.compile(r"(\S(?:\S| (?! ))*)( {2,})(\S.*)$")


def indent_of(line):
    return len(line) - len(line.lstrip(" "))


def section_key(title):
    """Compares headings: case, a trailing parenthesis and a plural s do not count."""
    k = re.sub(r"\s*\([^)]*\)\s*$", "", title).strip().lower()
    return k[:-1] if k.endswith("s") else k


def is_example_section(title):
    return section_key(title) == "example"


def parse_help(text, source):
    h = Help(source)
    lines = [l.rstrip() for l in text.expandtabs(8).split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise ManError(f"{source} printed nothing")
    i = 0
    while i < len(lines):
        m = USAGE_RE.match(lines[i]) if i == 0 or not lines[i].startswith(" ") else None
        if m:
            h.usage.append(m.group(1).strip())
        elif h.usage and lines[i].startswith(" ") and lines[i].strip():
            h.usage.append(lines[i].strip())       # "       formwell --help" under a usage line
        else:
            break
        i += 1
    if not h.usage:
        raise ManError(f"{source}: the first line is not a usage line (\"usage: ...\"): {lines[0]!r}")

    body = None
    para = []
    for n in range(i, len(lines)):
        line = lines[n]
        where = f"{source}, line {n + 1}"
        if not line:
            if para:
                h.paragraphs.append(para)
                para = []
            if body is not None:
                body.append(line)
            continue
        if not line.startswith(" "):
            nxt = next((l for l in lines[n + 1:] if l), "")
            if line.endswith(":") and len(line) <= 60 and nxt.startswith(" "):
                if para:
                    h.paragraphs.append(para)
                    para = []
                title = line[:-1].strip()
                if any(section_key(s.title) == section_key(title) for s in h.sections):
                    raise ManError(f"{where}: a second section {title!r}")
                h.sections.append(HelpSection(title))
                body = []
                h.sections[-1].raw = body
                continue
            if h.sections:
                raise ManError(f"{where}: unindented text after the {h.sections[-1].title!r} "
                               f"section: {line!r}")
            para.append(line)
            continue
        if body is None:
            raise ManError(f"{where}: indented text before any section: {line!r}")
        body.append(line)
    if para:
        h.paragraphs.append(para)
    for s in h.sections:
        parse_section(s, s.raw, source)
    return h


def parse_section(sec, body, source):
    while body and not body[-1]:
        body.pop()
    nonblank = [l for l in body if l]
    if not nonblank:
        raise ManError(f"{source}: section {sec.title!r} is empty")
    base = indent_of(nonblank[0])
    examples = is_example_section(sec.title)
    cur = None
    blank = False
    for k, line in enumerate(body):
        if not line:
            blank = True
            continue
        ind = indent_of(line)
        content = line[base:]
        if ind < base:
            raise ManError(f"{source}: section {sec.title!r}: {line.strip()!r} is indented less "
                           "than the section's first line")
        if ind == base:
            m = None if examples else DEF_RE.match(content)
            nxt = body[k + 1] if k + 1 < len(body) else ""
            if m:
                cur = Def(m.group(1), base + len(m.group(1)) + len(m.group(2)))
                cur.add("text", m.group(3), False)
                sec.items.append(cur)
            elif (not examples and nxt and indent_of(nxt) > base
                  and not (isinstance(cur, Block) and not blank)):
                cur = Def(content, indent_of(nxt))    # a term with its description below it
                sec.items.append(cur)
            else:
                kind = "pre" if examples else "text"
                if isinstance(cur, Block) and cur.kind == kind and not blank:
                    cur.lines.append(line if kind == "pre" else content)
                else:
                    cur = Block(kind, line if kind == "pre" else content)
                    sec.items.append(cur)
        elif isinstance(cur, Def):
            if ind > cur.col:
                cur.add("pre", line[cur.col:], blank)
            else:
                cur.add("text", line.strip(), blank)
        elif isinstance(cur, Block) and cur.kind == "pre" and not blank:
            cur.lines.append(line)
        elif isinstance(cur, Block) and not blank:
            cur = Block("pre", line)                   # an example under a prose line
            sec.items.append(cur)
        else:
            raise ManError(f"{source}: section {sec.title!r}: cannot place the indented line "
                           f"{line.strip()!r}")
        blank = False


# Rank of the page's sections, in man-pages(7) order; others keep their order between.
SECTION_RANK = {"option": 10, "argument": 20, "exit statu": 40, "environment": 42, "file": 44,
                "example": 50}


def metavariables(helps):
    names = set()
    for h in helps:
        for u in h.usage:
            names.update(re.findall(r"(?<![\w-])[A-Z][A-Z0-9_]*(?![\w-])", u))
    return names


class Markup1:
    """Inline markup of formwell(1): `code` and options bold, the usage's metavariables italic."""

    def __init__(self, metavars):
        alts = [r"(?P<code>`[^`]+`)", r"(?P<opt>(?<![\w-])--?[A-Za-z][A-Za-z0-9-]*)"]
        if metavars:
            words = "|".join(re.escape(v) for v in sorted(metavars, key=lambda v: (-len(v), v)))
            alts.append(rf"(?P<var>(?<![\w-])(?:{words})(?![\w-]))")
        self.metavars = metavars
        self.re = re.compile("|".join(alts))

    def prose(self, text):
        out, pos = [], 0
        for m in self.re.finditer(text):
            out.append(esc(text[pos:m.start()]))
            if m.group("code"):
                out.append(bold(esc(m.group("code")[1:-1], code=True)))
            elif m.group("opt"):
                out.append(bold(esc(m.group("opt"), code=True)))
            else:
                out.append(italic(esc(m.group(0), code=True)))
            pos = m.end()
        out.append(esc(text[pos:]))
        return tidy("".join(out))

    def term(self, term):
        """A definition's term: options bold, their arguments and metavariables italic, the
        first other word (a command, a format, an exit status) bold."""
        out = []
        after_option = False
        for idx, word in enumerate(term.split(" ")):
            trail = ""
            if word.endswith(",") and len(word) > 1:
                word, trail = word[:-1], ","
            if word.startswith("-") and len(word) > 1:
                if "=" in word:
                    opt, val = word.split("=", 1)
                    s = bold(esc(opt, code=True)) + "=" + self.alternatives(val, italic)
                else:
                    s = bold(esc(word, code=True))
                after_option = not trail
            elif after_option or word in self.metavars or (idx > 0 and re.fullmatch(r"[A-Z][A-Z0-9_]*", word)):
                s = self.alternatives(word, italic)
                after_option = False
            elif idx == 0:
                s = bold(esc(word, code=True))
            else:
                s = esc(word, code=True)
            out.append(s + trail)
        return tidy(" ".join(out))

    @staticmethod
    def alternatives(word, font):
        return "|".join(font(esc(a, code=True)) for a in word.split("|"))

    def usage(self, usage):
        """A synopsis line: literal words and options bold, placeholders italic; a bracketed group
        is kept on one output line."""
        out = []
        depth = 0
        after_option = False
        for word in usage.split(" "):
            if not word:
                continue
            m = re.fullmatch(r"([\[(]*)(.*?)([\])]*(?:\.\.\.)?)", word)
            lead, core, trail = m.group(1), m.group(2), m.group(3)
            inside = depth + lead.count("[") + lead.count("(") > 0
            pieces = []
            for alt in core.split("|"):
                if alt.startswith("-") and len(alt) > 1:
                    if "=" in alt:
                        opt, val = alt.split("=", 1)
                        pieces.append(bold(esc(opt, code=True)) + "=" + italic(esc(val, code=True)))
                    else:
                        pieces.append(bold(esc(alt, code=True)))
                elif alt.startswith("<") and alt.endswith(">"):
                    pieces.append(italic(esc(alt[1:-1], code=True)))
                elif after_option or re.fullmatch(r"[A-Z][A-Z0-9_]*", alt) or (inside and alt):
                    pieces.append(italic(esc(alt, code=True)))
                else:
                    pieces.append(bold(esc(alt, code=True)))
            after_option = core.startswith("-") and "=" not in core and not trail
            s = esc(lead, code=True) + "|".join(pieces) + esc(trail, code=True)
            depth += lead.count("[") + lead.count("(") - trail.count("]") - trail.count(")")
            if depth < 0:
                raise ManError(f"unbalanced brackets in the usage line {usage!r}")
            out.append(s)
            out.append("\\ " if depth > 0 else " ")
        if depth != 0:
            raise ManError(f"unbalanced brackets in the usage line {usage!r}")
        return tidy("".join(out[:-1]))


def render_items(page, items, mk):
    for n, item in enumerate(items):
        if isinstance(item, Def):
            page.tag([mk.term(item.term)])
            if not item.parts:
                raise ManError(f"the definition {item.term!r} has no description")
            for kind, lines, new_paragraph in item.parts:
                if new_paragraph:
                    page.macro("IP")
                if kind == "text":
                    page.text(mk.prose(" ".join(l.strip() for l in lines)))
                else:
                    page.pre(lines)
        elif item.kind == "text":
            if n:
                page.macro("PP")
            page.text(mk.prose(" ".join(item.lines)))
        else:
            if n:
                page.macro("PP")
            cut = min(indent_of(l) for l in item.lines if l.strip())
            page.macro("RS", "4")
            page.pre([l[cut:] for l in item.lines])
            page.macro("RE")


def merge_items(first, second):
    """The items of a command's section, then those of the tool's section of the same name that it
    lacks. Of two definitions with the same term the fuller description is kept, in the first's place."""
    result = list(first)
    for item in second:
        if isinstance(item, Def):
            same = [k for k, r in enumerate(result)
                    if isinstance(r, Def) and r.term.split() == item.term.split()]
            if not same:
                result.append(item)
            elif item.text_size() > result[same[0]].text_size():
                result[same[0]] = item
        elif item.kind == "text":
            text = " ".join(item.lines).split()
            if not any(isinstance(r, Block) and r.kind == "text" and " ".join(r.lines).split() == text
                       for r in result):
                result.append(item)
        else:
            have = {l.strip() for r in result if isinstance(r, Block) and r.kind == "pre"
                    for l in r.lines}
            new = [l for l in item.lines if l.strip() not in have]
            if any(l.strip() for l in new):
                b = Block("pre", new[0])
                b.lines = new
                result.append(b)
    return result


def run_help(cli, args):
    shown = " ".join(["formwell"] + args)
    try:
        r = subprocess.run([cli] + args, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    except OSError as e:
        raise ManError(f"cannot run {cli}: {e.strerror or e}")
    except subprocess.TimeoutExpired:
        raise ManError(f"`{shown}` ({cli}) did not finish within 60 s")
    if r.returncode != 0:
        err = r.stderr.decode("utf-8", "replace").strip()
        raise ManError(f"`{shown}` ({cli}) failed with exit status {r.returncode}"
                       + (f": {err}" if err else ""))
    try:
        return r.stdout.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ManError(f"`{shown}` printed invalid UTF-8 ({e})")


def page1(cli, version):
    main = parse_help(run_help(cli, ["--help"]), "formwell --help")
    prog = main.usage[0].split()[0]
    if prog != "formwell":
        raise ManError(f"formwell --help: the usage line names {prog!r}, not formwell")
    cmd_sec = main.section("command")
    if cmd_sec is None:
        raise ManError("formwell --help has no Commands: section")
    commands = []
    for item in cmd_sec.items:
        if isinstance(item, Def):
            name = item.term.split()[0]
            if not re.fullmatch(r"[a-z][a-z0-9-]*", name):
                raise ManError(f"formwell --help: {item.term!r} in Commands: does not start with a command name")
            source = f"formwell {name} --help"
            h = parse_help(run_help(cli, [name, "--help"]), source)
            if not h.usage[0].split()[:2] == [prog, name]:
                raise ManError(f"{source}: the usage line is not `{prog} {name} ...`: {h.usage[0]!r}")
            commands.append((name, item, h))
    if not commands:
        raise ManError("formwell --help: the Commands: section names no command")
    helps = [main] + [h for _, _, h in commands]
    mk = Markup1(metavariables(helps))

    page = Page()
    page.comment("Generated by scripts/gen_man.py from the output of `formwell --help` and "
                 "`formwell COMMAND --help`; do not edit.")
    page_head(page, 1, version, "User Commands")
    page.macro("SH", "NAME")
    page.lines.append(f"formwell \\- {esc(NAME_1)}")

    page.macro("SH", "SYNOPSIS")
    for h in helps:
        for u in h.usage:
            words = u.split(" ", 1)
            page.macro("SY", esc(words[0], code=True))
            if len(words) > 1 and words[1].strip():
                page.text(mk.usage(words[1]))
            page.macro("YS")

    page.macro("SH", "DESCRIPTION")
    if not main.paragraphs:
        raise ManError("formwell --help has no paragraph to describe the tool")
    for n, p in enumerate(main.paragraphs):
        if n:
            page.macro("PP")
        page.text(mk.prose(" ".join(p)))

    page.macro("SH", "COMMANDS")
    items = []
    for item in cmd_sec.items:
        for name, d, h in commands:
            if item is d:
                for p in h.paragraphs:
                    item.add("text", " ".join(p), True)
        items.append(item)
    render_items(page, items, mk)

    others = [s for s in main.sections if s is not cmd_sec]
    if len(commands) == 1:
        _, _, h = commands[0]
        merged = []
        for s in h.sections:
            twin = next((o for o in others if section_key(o.title) == section_key(s.title)), None)
            merged.append((s.title, merge_items(s.items, twin.items) if twin else s.items))
        for o in others:
            if not any(section_key(o.title) == section_key(s.title) for s in h.sections):
                merged.append((o.title, o.items))
        merged = [(re.sub(r"\s*\([^)]*\)\s*$", "", t), it) for t, it in merged]
    else:
        merged = [(o.title, o.items) for o in others]
        merged += [(f"{name} {s.title}", s.items) for name, _, h in commands for s in h.sections]
    merged.sort(key=lambda ti: SECTION_RANK.get(section_key(ti[0]), 30))
    for title, sec_items in merged:
        page.macro("SH", esc(title.upper()))
        render_items(page, sec_items, mk)

    page.macro("SH", "SEE ALSO")
    page.macro("BR", "formwell", "(3)")
    return page.render()


# ---------------------------------------------------------------------------------------------
# include/formwell.h -> formwell(3)


MARKER_RE = re.compile(r"/\* ---- (.+?) ---- \*/$")


class Doc:
    def __init__(self, lines, line_no):
        self.lines, self.line_no = lines, line_no

    def paragraphs(self):
        paras, cur = [], []
        for l in self.lines:
            if l.strip():
                cur.append(l)
            elif cur:
                paras.append(cur)
                cur = []
        if cur:
            paras.append(cur)
        return paras


class Decl:
    def __init__(self, kind, name, code, doc, line_no, **extra):
        self.kind, self.name, self.code, self.doc, self.line_no = kind, name, code, doc, line_no
        self.__dict__.update(extra)


class HeaderSection:
    def __init__(self, title, line_no):
        self.title, self.line_no, self.intro, self.decls = title, line_no, [], []


def comment_lines(raw):
    out = []
    for k, l in enumerate(raw):
        last = k == len(raw) - 1
        if k == 0:
            l = re.sub(r"^\s*/\*\*?", "", l)
        elif re.match(r"\s*\*(?!/)", l):
            l = re.sub(r"^\s*\*", "", l, count=1)
        elif not (last and l.strip() == "*/"):
            l = l.strip()
        if last:
            l = re.sub(r"\s*\*/\s*$", "", l)
        if l.startswith(" "):
            l = l[1:]
        out.append(l.rstrip())
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return out


def strip_comments(code):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", code, flags=re.S)


def split_args(args):
    parts, depth, cur = [], 0, ""
    for ch in args:
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_header(text, path):
    lines = text.expandtabs(8).split("\n")
    if not lines or not lines[0].startswith("/*"):
        raise ManError(f"{path}: does not start with its top comment")
    end = next((k for k, l in enumerate(lines) if "*/" in l), None)
    if end is None:
        raise ManError(f"{path}: the top comment is not closed")
    top = comment_lines(lines[:end + 1])
    sections = [HeaderSection(None, 0)]
    pending = None
    i = end + 1
    n = len(lines)

    def unexpected(what):
        raise ManError(f"{path}:{pending.line_no}: the doc comment is followed by {what}, "
                       "not by a declaration or a blank line")

    while i < n:
        s = lines[i].strip()
        if not s:
            if pending:
                sections[-1].intro.append(pending)
                pending = None
            i += 1
            continue
        m = MARKER_RE.match(s)
        if m:
            if pending:
                unexpected("a section marker")
            sections.append(HeaderSection(m.group(1).strip(), i + 1))
            i += 1
            continue
        if s.startswith("/*"):
            j = i
            while "*/" not in lines[j][(lines[j].index("/*") + 2) if j == i else 0:]:
                j += 1
                if j >= n:
                    raise ManError(f"{path}:{i + 1}: unterminated comment")
            if s.startswith("/**") and not s.startswith("/**/"):
                if pending:
                    unexpected("another doc comment")
                pending = Doc(comment_lines(lines[i:j + 1]), i + 1)
            elif pending:
                unexpected("a comment")
            i = j + 1
            continue
        if s.startswith("//"):
            i += 1
            continue
        if s.startswith("#"):
            m = re.match(r"#\s*define\s+(\w+)\s*(.*)$", s)
            if m and pending:
                defs = []
                while i < n and re.match(r"\s*#\s*define\s", lines[i]):
                    dm = re.match(r"\s*#\s*define\s+(\w+)\s*(.*)$", lines[i])
                    defs.append((dm.group(1), dm.group(2).strip()))
                    i += 1
                sections[-1].decls.append(Decl("macro", defs[0][0], "", pending, pending.line_no,
                                               defs=defs))
                pending = None
                continue
            if pending:
                unexpected(repr(s))
            i += 1
            continue
        if s in ('extern "C" {', "}"):
            if pending:
                unexpected(repr(s))
            i += 1
            continue
        # A declaration, up to the ';' that ends it outside braces.
        j, depth, in_comment, buf = i, 0, False, []
        while True:
            line = lines[j]
            buf.append(line)
            code = line
            if in_comment:
                if "*/" not in code:
                    code = ""
                else:
                    code = code[code.index("*/") + 2:]
                    in_comment = False
            code = re.sub(r"/\*.*?\*/", " ", code)
            if "/*" in code:
                code, in_comment = code[:code.index("/*")], True
            code = re.sub(r"//.*", "", code)
            depth += code.count("{") - code.count("}")
            if depth == 0 and not in_comment and code.rstrip().endswith(";"):
                break
            j += 1
            if j >= n:
                raise ManError(f"{path}:{i + 1}: declaration without its ';'")
        code = " ".join(strip_comments("\n".join(buf)).split())
        sections[-1].decls.append(classify(code, pending, i + 1, path))
        pending = None
        i = j + 1
    if pending:
        raise ManError(f"{path}:{pending.line_no}: a doc comment at the end of the header")
    return top, sections


def classify(code, doc, line_no, path):
    where = f"{path}:{line_no}"
    m = re.fullmatch(r"FW_API\s+(.+?)\b(fw_\w+)\s*\((.*)\)\s*;", code)
    if m:
        kind, name = "function", m.group(2)
        extra = dict(ret=m.group(1).strip(), args=split_args(m.group(3)))
    elif code.startswith("FW_API"):
        raise ManError(f"{where}: cannot read the FW_API declaration {code!r}")
    elif (m := re.fullmatch(r"typedef enum (\w+) \{(.*)\} (\w+) ?;", code)):
        kind, name = "enum", m.group(3)
        consts = []
        for part in m.group(2).split(","):
            part = part.strip()
            if not part:
                continue
            cm = re.fullmatch(r"([A-Za-z_]\w*)(?: ?= ?(.+))?", part)
            if not cm:
                raise ManError(f"{where}: cannot read the constant {part!r} of enum {name}")
            consts.append((cm.group(1), (cm.group(2) or "").strip()))
        if not consts:
            raise ManError(f"{where}: enum {name} has no constants")
        extra = dict(consts=consts)
    elif (m := re.fullmatch(r"typedef struct (\w+) \{.*\} (\w+) ?;", code)):
        kind, name, extra = "struct", m.group(2), {}
    elif (m := re.fullmatch(r"struct (\w+) \{.*\} ?;", code)):
        kind, name, extra = "struct", m.group(1), {}
    elif (m := re.fullmatch(r"typedef struct (\w+) (\w+) ?;", code)):
        kind, name, extra = "opaque", m.group(2), {}
    elif (m := re.fullmatch(r"typedef (.+?) ?\( ?\* ?(\w+) ?\) ?\((.*)\) ?;", code)):
        kind, name = "callback", m.group(2)
        extra = dict(ret=m.group(1).strip(), args=split_args(m.group(3)))
    else:
        raise ManError(f"{where}: unrecognised declaration {code[:80]!r}")
    if doc is None and (kind == "function" or name.startswith("fw_")):
        raise ManError(f"{where}: {name} has no /** ... */ doc comment")
    return Decl(kind, name, code, doc, line_no, **extra)


class Markup3:
    """Inline markup of formwell(3): the header's functions bold, `code` italic."""

    def __init__(self, functions):
        self.functions = functions
        self.re = re.compile(r"(?P<code>`[^`]+`)|(?P<name>\bfw_\w+)")

    def prose(self, text):
        out, pos = [], 0
        for m in self.re.finditer(text):
            out.append(esc(text[pos:m.start()]))
            if m.group("code"):
                out.append(italic(esc(m.group("code")[1:-1], code=True)))
            elif m.group("name") in self.functions:
                out.append(bold(esc(m.group("name"), code=True)))
            else:
                out.append(esc(m.group("name"), code=True))
            pos = m.end()
        out.append(esc(text[pos:]))
        return tidy("".join(out))


PROTO_WIDTH = 64   # a prototype's tag lines fit an 80-column terminal's text width


def prototype(head, args):
    """The tag lines of a prototype, head being what comes before the '(' of the parameters:
    parameter names italic, the rest bold; broken after a comma, continuation lines indented."""
    params = []
    for a in args:
        m = re.fullmatch(r"(.*?)([A-Za-z_]\w*)((?: ?\[[^\]]*\])*)", a)
        if a in ("void", "...") or not m or not m.group(1).strip() or "(" in a:
            params.append((a, bold(esc(a, code=True).replace(" ", "\\ "))))
        else:
            params.append((a, bold(esc(m.group(1), code=True).replace(" ", "\\ "))
                           + italic(esc(m.group(2), code=True))
                           + bold(esc(m.group(3), code=True).replace(" ", "\\ "))))
    lines, plain, roff = [], head + "(", bold(esc(head, code=True) + "(")
    for k, (a, r) in enumerate(params):
        end = ");" if k == len(params) - 1 else ","
        piece, rpiece = a + end, r + bold(end)
        if k and len(plain) + 1 + len(piece) > PROTO_WIDTH:
            lines.append(tidy(roff))
            plain, roff = "    " + piece, "\\ \\ \\ \\ " + rpiece
        else:
            sep = " " if k else ""
            plain, roff = plain + sep + piece, roff + sep + rpiece
    if not params:
        roff += bold(");")
    lines.append(tidy(roff))
    return lines


def render_doc(page, paragraphs, mk, where, first=True):
    """Paragraphs of a doc comment: lines indented in the comment are an example block."""
    for p in paragraphs:
        if not first:
            page.macro("PP")
        first = False
        run, kind = [], None
        for l in p + [None]:
            k = None if l is None else ("pre" if l.startswith(" ") else "text")
            if k != kind and run:
                if kind == "text":
                    page.text(mk.prose(scrub(" ".join(x.strip() for x in run), where)))
                else:
                    cut = min(indent_of(x) for x in run)
                    page.macro("RS", "4")
                    page.pre([x[cut:] for x in run])
                    page.macro("RE")
                run = []
            kind = k
            if l is not None:
                run.append(l)


def split_returns(paragraph):
    """The description lines and the "Returns:" lines of a doc comment's first paragraph."""
    for k, l in enumerate(paragraph):
        if l.startswith("Returns:"):
            return paragraph[:k], paragraph[k:]
    return paragraph, []


def render_decl(page, d, mk, path):
    where = f"{path}:{d.doc.line_no}"
    if d.kind == "function":
        head = d.ret + ("" if d.ret.endswith("*") else " ") + d.name
        tag = prototype(head, d.args)
    elif d.kind == "callback":
        tag = prototype(f"typedef {d.ret} (*{d.name})", d.args)
    elif d.kind == "macro":
        tag = [bold(esc(name, code=True)) for name, _ in d.defs]
    elif d.kind == "enum":
        tag = [bold("enum " + esc(d.name, code=True))]
    elif d.kind == "struct":
        tag = [bold("struct " + esc(d.name, code=True))]
    else:
        tag = [bold(esc(d.code, code=True))]
    paras = d.doc.paragraphs()
    if not paras:
        raise ManError(f"{where}: the doc comment of {d.name} is empty")
    desc, returns = split_returns(paras[0])
    if not desc:
        raise ManError(f"{where}: the doc comment of {d.name} has no description before Returns:")
    page.tag(tag)
    render_doc(page, [desc], mk, where)
    if returns:
        page.macro("IP")
        page.text(mk.prose(scrub(" ".join(l.strip() for l in returns), where)))
    if d.kind == "enum":
        page.macro("IP")
        consts = [bold(esc(c, code=True)) + (f"\\ ({esc(v, code=True)})" if v else "")
                  for c, v in d.consts]
        page.text("Constants: " + ", ".join(consts) + ".")
    if d.kind == "macro":
        page.macro("IP")
        page.text("Values: " + ", ".join(f"{bold(esc(nm, code=True))}\\ {esc(v, code=True)}"
                                         for nm, v in d.defs) + ".")


def page3(header_path, version):
    path = str(header_path)
    try:
        text = pathlib.Path(header_path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ManError(f"cannot read {path}: {e}")
    top, sections = parse_header(text, path)

    functions = {}
    for s in sections:
        for d in s.decls:
            if d.kind == "function":
                if s.title is None:
                    raise ManError(f"{path}:{d.line_no}: {d.name} is declared before the first "
                                   "/* ---- Title ---- */ section marker")
                if d.name in functions:
                    raise ManError(f"{path}:{d.line_no}: {d.name} is declared twice")
                functions[d.name] = d
    if not functions:
        raise ManError(f"{path}: declares no FW_API function")
    for s in sections[1:]:
        if not s.decls:
            raise ManError(f"{path}:{s.line_no}: section {s.title!r} declares no function")
    mk = Markup3(set(functions))

    top_paras = Doc(top, 1).paragraphs()
    m = re.fullmatch(r"(\S+): (.+)", " ".join(top_paras[0]) if top_paras else "")
    if not m:
        raise ManError(f"{path}: the top comment does not start with \"formwell.h: what it is\"")
    lead_name, lead_text = m.group(1), m.group(2)
    try:
        conv_at = next(k for k, p in enumerate(top_paras) if p == ["CONVENTIONS"])
    except StopIteration:
        raise ManError(f"{path}: the top comment has no CONVENTIONS heading") from None
    conventions = top_paras[conv_at + 1:]
    if not conventions:
        raise ManError(f"{path}: the CONVENTIONS of the top comment have no paragraph")
    intro_text = " ".join(" ".join(p) for p in top_paras[:conv_at])
    ffi = re.search(r"(?:\S*/)?formwell_ffi\.h holds (.+?\.)(?=\s|$)", intro_text)
    if not ffi:
        raise ManError(f"{path}: the top comment does not say what formwell_ffi.h holds")

    page = Page()
    page.comment("Generated by scripts/gen_man.py from include/formwell.h; do not edit.")
    page_head(page, 3, version, "Library Functions Manual")
    page.macro("SH", "NAME")
    page.lines.append(f"formwell \\- {esc(NAME_3)}")
    page.macro("SH", "SYNOPSIS")
    page.macro("B", "#include <formwell.h>")
    page.macro("PP")
    page.macro("B", "cc app.c $(pkg\\-config \\-\\-cflags \\-\\-libs formwell)")

    page.macro("SH", "DESCRIPTION")
    page.text(bold(esc(lead_name, code=True)) + " is " + mk.prose(scrub(lead_text, f"{path}:1")))
    page.macro("PP")
    page.text(esc("This page is an overview made from the header: the conventions every function "
                  "follows, the types and constants, then each group of functions in the "
                  "header's order, each with its prototype, its description and what it returns. "
                  "The header's comments document every function, type, member and constant in "
                  "full."))

    page.macro("SH", "CONVENTIONS")
    for p in conventions:
        joined = " ".join(l.strip() for l in p)
        tm = re.match(r"([A-Z][A-Za-z]*(?: [a-z][A-Za-z]*){0,2})\. (\S.*)", joined)
        if tm:
            tag, body = tm.group(1), [tm.group(2)]
        else:
            wm = re.match(r"([A-Z][a-z]+)\b", joined)
            if not wm:
                raise ManError(f"{path}: a CONVENTIONS paragraph does not start with its topic: "
                               f"{joined[:60]!r}")
            tag, body = wm.group(1), p
        page.macro("SS", esc(tag))
        render_doc(page, [body], mk, f"{path} (CONVENTIONS, {tag})")

    type_decls = [d for d in sections[0].decls]
    for s in sections[1:]:
        if not any(d.kind == "function" for d in s.decls):
            type_decls += s.decls
    type_decls = [d for d in type_decls if d.doc is not None]
    if type_decls:
        page.macro("SH", "TYPES AND CONSTANTS")
        for d in type_decls:
            render_decl(page, d, mk, path)

    for s in sections[1:]:
        if not any(d.kind == "function" for d in s.decls):
            continue
        page.macro("SH", esc(s.title.upper()))
        first = True
        for doc in s.intro:
            render_doc(page, doc.paragraphs(), mk, f"{path}:{doc.line_no}", first)
            first = False
        for d in s.decls:
            if d.doc is not None:
                render_decl(page, d, mk, path)

    major = version.split(".")[0]
    page.macro("SH", "FILES")
    page.tag([italic("formwell.h")])
    page.text(esc("The header, in the include directory: every declaration of this page, with its "
                  "full documentation."))
    page.tag([italic("formwell_ffi.h")])
    desc = scrub(ffi.group(1), path)
    page.text(mk.prose(desc[0].upper() + desc[1:]))
    page.tag([italic(esc(f"libformwell.so.{major}", code=True))])
    page.text(esc("The shared library (its soname), in the library directory."))
    page.tag([italic("formwell.pc")])
    page.text(esc("The pkg-config file, in the library directory's pkgconfig directory: the "
                  "compiler and linker flags for the header and the library."))
    page.macro("SH", "SEE ALSO")
    page.macro("BR", "formwell", "(1),")
    page.macro("BR", "pcre2", "(3)")
    return page.render()


# ---------------------------------------------------------------------------------------------


def default_version():
    try:
        text = VERSION_SWIFT.read_text(encoding="utf-8")
    except OSError as e:
        raise ManError(f"no --version given and cannot read {VERSION_SWIFT}: {e.strerror or e}")
    m = re.search(r'public let formwellVersion: StaticString = "([^"]+)"', text)
    if not m:
        raise ManError(f"no --version given and {VERSION_SWIFT} has no formwellVersion line")
    return m.group(1)


def write_atomically(path, content):
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="ascii", newline="\n") as f:
            f.write(content)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None):
    ap = argparse.ArgumentParser(description="Generate formwell(1) and formwell(3).")
    ap.add_argument("--cli", required=True, help="the formwell binary whose --help formwell(1) is made from")
    ap.add_argument("--header", default=str(ROOT / "include" / "formwell.h"),
                    help="the C header formwell(3) is made from (default: include/formwell.h)")
    ap.add_argument("--version", help="the version on the pages (default: Sources/Formwell/Version.swift)")
    ap.add_argument("--out", required=True, help="directory to write formwell.1 and formwell.3 into")
    args = ap.parse_args(argv)
    try:
        version = args.version if args.version is not None else default_version()
        if not re.fullmatch(r"[0-9]+(?:\.[0-9A-Za-z]+)*(?:[-+~][0-9A-Za-z.+~-]+)?", version):
            raise ManError(f"not a version: {version!r}")
        pages = {"formwell.1": page1(args.cli, version), "formwell.3": page3(args.header, version)}
        for name, content in pages.items():
            bad = re.search(r"[^\x0a\x20-\x7e]", content)
            if bad:
                raise ManError(f"{name}: generated a non-ASCII character {bad.group(0)!r}")
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for name, content in pages.items():
            write_atomically(out / name, content)
    except ManError as e:
        print(f"gen_man.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
