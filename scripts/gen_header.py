#!/usr/bin/env python3
"""Generates include/formwell.h from the Swift sources of the C ABI.

The Swift compiler writes the C declarations of every `@c` function and enum to
.build/formwell-raw.h on each build (see Package.swift). This script turns that raw output into a
clean C header: Swift/Clang macros and nullability qualifiers removed, enum constants without the
enum-name prefix the compiler adds, the opaque `fw_form` handle and the callback typedefs named,
functions grouped and ordered as in the Swift files, with their doc comments.

Naming conventions it relies on (parameter names in the Swift sources):
  form -> fw_form *          out_form -> fw_form **
  validate -> fw_validate_fn destroy  -> fw_destroy_fn

It also writes include/formwell_ffi.h beside it: the same declarations without preprocessor lines or
comments, for FFIs that parse C declarations (LuaJIT's ffi.cdef, cffi's ABI mode).

Usage: gen_header.py [--raw FILE] [--out FILE] [--check]
  --check  exit 1 (with a diff) when --out differs from what would be generated.
"""
import argparse
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ABI_DIR = ROOT / "Sources" / "FormwellC" / "ABI"
# Sections of the header, in order: (Swift file, title).
SECTIONS = [
    ("LibraryFunctions.swift", "Library: version, status codes, errors"),
    ("FormFunctions.swift", "Forms"),
    ("RuleFunctions.swift", "Rules"),
    ("SpecFunctions.swift", "Form specs (JSON)"),
    ("FieldFunctions.swift", "Field events and queries"),
    ("IndexedFieldFunctions.swift", "Fields by index (the hot path)"),
    ("SnapshotFunctions.swift", "Snapshots: a field's whole state in one call"),
    ("ModeFunctions.swift", "Validation modes and the error mode"),
    ("GroupFunctions.swift", "Groups: validating part of a form"),
    ("ExternalErrorFunctions.swift", "External errors: errors set from outside the rules"),
    ("NormalizerFunctions.swift", "Normalisers and secret fields"),
    ("MessageFunctions.swift", "Messages: failure codes, parameters, locales, single-value checks"),
    ("ChangeFunctions.swift", "Live changes, the form's state and change tracking"),
    ("BatchFunctions.swift", "Batches: many records checked as submits in one call"),
    ("ArrowFunctions.swift", "Arrow: record batches through the Arrow C Data Interface"),
    ("AsyncFunctions.swift", "Asynchronous rules: checks the host makes, on the host's clock"),
]
ENUM_FILES = ["Status.swift", "StateEnums.swift", "RuleKind.swift", "CellFlag.swift", "AsyncEnums.swift",
              "NormalizerEnum.swift", "Limits.swift"]
# Structs and callback typedefs: written in C (Swift imports them, so both share one layout) and
# copied from between these markers.
TYPES_HEADER = ROOT / "Sources" / "CFormwellTypes" / "formwell_types.h"
TYPES_MARKERS = ("/* FW_TYPES BEGIN */", "/* FW_TYPES END */")
HANDLE_PARAMS = {"form": "fw_form *", "out_form": "fw_form **"}
CALLBACK_PARAMS = {"validate": "fw_validate_fn", "destroy": "fw_destroy_fn"}


def fail(message):
    sys.exit(f"gen_header.py: {message}")


def clean_doc(lines):
    """Compiler doc lines (`/// text`) -> plain text lines, ASCII punctuation, no HTML markup."""
    out = []
    for line in lines:
        text = line.strip()
        text = text[3:] if text.startswith("///") else text
        text = text[1:] if text.startswith(" ") else text
        text = re.sub(r"</?code>", "", text)
        for fancy, plain in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"'),
                             ("\u2026", "..."), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")):
            text = text.replace(fancy, plain)
        out.append(text)
    while out and not out[-1]:
        out.pop()
    return out


def block_comment(lines, indent=""):
    if not lines:
        fail("a declaration has no doc comment")
    if len(lines) == 1:
        return f"{indent}/** {lines[0]} */"
    body = "\n".join(f"{indent} * {l}".rstrip() for l in lines)
    return f"{indent}/**\n{body}\n{indent} */"


def c_type(text):
    text = text.replace("SWIFT_ENUM_TAG ", "")
    text = re.sub(r"\s*_Null(able|_unspecified)|\s*_Nonnull", "", text)
    text = re.sub(r"\b((?:struct |enum |union )?\w+) const \*", r"const \1 *", text)
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\*\s+\*", "**", text)


def split_params(params):
    """Splits a C parameter list at top-level commas."""
    parts, depth, current = [], 0, ""
    for ch in params:
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def parse_raw(raw):
    lines = raw.splitlines()
    enums, functions, pending = {}, {}, []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("///"):
            pending.append(line)
        elif m := re.match(r"typedef SWIFT_ENUM\(int32_t, (fw_\w+), closed\) \{", line):
            name, cases, case_doc = m.group(1), [], []
            i += 1
            while not lines[i].startswith("};"):
                case_line = lines[i].strip()
                if case_line.startswith("///"):
                    case_doc.append(case_line)
                elif cm := re.match(rf"{name}(\w+) = (-?\d+),", case_line):
                    cases.append((cm.group(1), cm.group(2), clean_doc(case_doc)))
                    case_doc = []
                i += 1
            enums[name] = (clean_doc(pending), cases)
            pending = []
        elif m := re.match(r"SWIFT_EXTERN (.+?) (fw_\w+)\((.*)\) SWIFT_NOEXCEPT", line):
            functions[m.group(2)] = (clean_doc(pending), m.group(1), split_params(m.group(3)))
            pending = []
        elif line.strip() and not line.startswith("#"):
            pending = []
        i += 1
    return enums, functions


def swift_order(filename):
    """Names of the @c functions / enums / typealiases of a Swift file, in order, and its intro."""
    text = (ABI_DIR / filename).read_text()
    names = re.findall(r"@c public (?:func|enum) (fw_\w+)", text)
    intro = []
    for line in text.splitlines():
        if line.startswith("// "):
            intro.append(line[3:])
        elif intro and line == "//":
            intro.append("")
        elif intro and not line.startswith("//"):
            break
    return names, intro


def c_types():
    """The structs and typedefs between the markers of the C types header, as written there."""
    text = TYPES_HEADER.read_text()
    begin, end = TYPES_MARKERS
    if begin not in text or end not in text:
        fail(f"{TYPES_HEADER} lacks the markers {begin} ... {end}")
    body = text.split(begin, 1)[1].split(end, 1)[0].strip("\n")
    return f"/* ---- Types (from Sources/CFormwellTypes/{TYPES_HEADER.name}) ---- */\n\n{body}\n"


def version():
    text = (ABI_DIR / "LibraryFunctions.swift").read_text()
    v = re.search(r'formwellVersion: StaticString = "(\d+)\.(\d+)\.(\d+)"',
                  (ROOT / "Sources" / "Formwell" / "Version.swift").read_text())
    abi = re.search(r"formwellABIVersion: Int32 = (\d+)", text)
    if not v or not abi:
        fail("version constants not found in Sources/Formwell/Version.swift / LibraryFunctions.swift")
    return v.groups(), abi.group(1)


def render_function(name, doc, result, params, typedefs):
    rendered = []
    for param in params:
        if param == "void":
            rendered.append("void")
            continue
        fn = re.match(r"(.*)\(\* _Nullable (\w+)\)\((.*)\)$", param)
        if fn:
            ret, pname, args = fn.groups()
            if pname not in CALLBACK_PARAMS:
                fail(f"{name}: function-pointer parameter '{pname}' has no typedef name")
            tname = CALLBACK_PARAMS[pname]
            typedefs.setdefault(tname, f"typedef {c_type(ret)} (*{tname})({c_type(args)});")
            rendered.append(f"{tname} {pname}")
            continue
        pm = re.match(r"(.*?)(\w+)$", param)
        ptype, pname = c_type(pm.group(1)), pm.group(2)
        if pname in HANDLE_PARAMS:
            expected = "void *" if pname == "form" else "void **"
            if ptype != expected:
                fail(f"{name}: parameter '{pname}' is '{ptype}', expected an OpaquePointer handle")
            ptype = HANDLE_PARAMS[pname]
        sep = "" if ptype.endswith("*") else " "
        rendered.append(f"{ptype}{sep}{pname}")
    result = c_type(result)
    sep = "" if result.endswith("*") else " "
    return f"{block_comment(doc)}\nFW_API {result}{sep}{name}({', '.join(rendered)});"


def generate(raw):
    enums, functions = parse_raw(raw)
    (major, minor, patch), abi = version()
    out = [f"""/*
 * formwell.h: the C API of Formwell, a headless form-validation engine.
 *
 * GENERATED by scripts/gen_header.py from the Swift sources in Sources/FormwellC/ABI
 * (the compiler's -emit-clang-header-path output, cleaned). Do not edit: change the Swift
 * sources and run `make header`. A test fails when this file differs from what the build makes. *
 * include/formwell_ffi.h holds the same declarations without preprocessor lines or comments, for
 * FFIs that parse C (LuaJIT ffi.cdef, Python cffi).
 *
 * CONVENTIONS
 *
 * Handles. A form is an opaque fw_form handle from fw_form_create, released with fw_form_free.
 * Handles are checked ids, not pointers: a freed or forged handle gives FW_ERR_INVALID_HANDLE.
 *
 * Status codes. Every function that can fail returns an fw_status: FW_OK (0) or an error code.
 * Later versions may add codes: treat an unknown code as a failure (fw_status_string names it).
 * Each function's "Returns:" line lists its own codes; these general ones apply to every call
 * taking a form, a pointer or a string and are not repeated there: FW_ERR_NULL_ARGUMENT (a
 * required pointer is NULL), FW_ERR_INVALID_HANDLE, FW_ERR_INVALID_UTF8 (a string argument is
 * not UTF-8; fw_last_error_offset gives the bad byte), FW_ERR_BUSY (a call made from inside a
 * custom validator on a form that is in use) and FW_ERR_INTERNAL (e.g. out of memory).
 *
 * Errors. A call that fails changes nothing stored in the form. Every call returning an
 * fw_status records its outcome as the calling thread's last error (FW_OK and "" after a
 * success), which fw_last_error_code, fw_last_error_message and fw_last_error_offset read
 * without changing it. On failure, out-parameters hold unspecified values unless the function
 * says otherwise (text buffers are left holding "" or, for FW_ERR_BUFFER_TOO_SMALL, a prefix).
 *
 * Strings in are NUL-terminated UTF-8 (an embedded NUL ends the string), read during the call
 * only: the library copies what it keeps. Strings out are copied into a buffer the caller owns
 * (buf, buf_size), always NUL-terminated; *out_length, when not NULL, receives the full length in
 * bytes without the NUL; a NULL buffer with size 0 asks for that length. A text that does not fit
 * leaves the longest prefix of whole UTF-8 characters and returns FW_ERR_BUFFER_TOO_SMALL. The
 * library hands out no memory to free; fw_version and fw_status_string return static strings.
 *
 * Structs passed in (fw_snapshot, fw_rule, fw_column, fw_form_info, fw_request, fw_check_result) start with a
 * `size` member: set it to sizeof(the struct) as compiled. Later versions only append members, so
 * old callers keep working.
 *
 * Threads. Any handle may be used from any thread. Calls on one form are serialized by that
 * form's lock; calls on different forms never wait for each other. fw_form_check_batch may run
 * worker threads of its own and joins them before it returns.
 *
 * Callbacks (fw_validate_fn, fw_destroy_fn) run on the thread of the call that triggers them,
 * under the form's lock, and MUST RETURN: never longjmp, throw, raise a Lua or Ruby error, or
 * unwind a panic through the library (the form would stay locked and leak). Catch everything in
 * the callback and return FW_VERDICT_ERROR instead; the call that ran it then fails with
 * FW_ERR_CALLBACK and changes nothing. Library calls made from a callback never wait for a lock:
 * the same form, or a form another thread is using, gives FW_ERR_BUSY.
 *
 * Fork. A child made by fork() may go on using the library, even when other threads were
 * inside it at that moment: pthread_atfork handlers keep its locks and caches whole, and never
 * wait for a custom validator running on another thread. Forms made before the fork stay usable
 * in the child, except one that another thread was using at the instant of the fork: it may be
 * half changed, so the child refuses its handle with FW_ERR_INVALID_HANDLE (the message names
 * fork), counts it as freed (fw_form_live_count leaves it out; fw_form_free of it returns FW_OK)
 * and leaves its memory alone. A validator that forks keeps its own form in the child. The parent
 * is not affected.
 *
 * Rules. Values are judged as Unicode text. The e-mail rule matches the whole value against
 * [A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{{2,64}}; the phone rule wants exactly 10 ASCII digits;
 * lengths count grapheme clusters; a regex rule is a PCRE2 pattern (UTF mode) matched against the
 * whole value, under match limits (fw_form_set_match_limits).
 */
#ifndef FORMWELL_H
#define FORMWELL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {{
#endif

#if defined(__GNUC__) || defined(__clang__)
#define FW_API __attribute__((visibility("default")))
#else
#define FW_API
#endif

/** Version of this header; fw_version() tells the version of the loaded library. */
#define FW_VERSION_MAJOR {major}
#define FW_VERSION_MINOR {minor}
#define FW_VERSION_PATCH {patch}
#define FW_VERSION_STRING "{major}.{minor}.{patch}"
/** ABI number of this header; fw_abi_version() tells the loaded library's. */
#define FW_ABI_VERSION {abi}

/**
 * A form: an opaque handle from fw_form_create, released with fw_form_free. Handles are checked
 * ids, not pointers: a freed or forged handle gives FW_ERR_INVALID_HANDLE.
 */
typedef struct fw_form fw_form;
"""]
    seen_enums, ffi_enums, ffi_functions = [], [], []
    for filename in ENUM_FILES:
        names, _ = swift_order(filename)
        for name in names:
            if name not in enums:
                fail(f"enum {name} is in {filename} but not in the compiler output")
            doc, cases = enums[name]
            seen_enums.append(name)
            body = []
            for case, value, case_doc in cases:
                body.append(block_comment(case_doc, "    "))
                body.append(f"    {case} = {value},")
            out.append(f"{block_comment(doc)}\ntypedef enum {name} {{\n" + "\n".join(body) + f"\n}} {name};\n")
            ffi_enums.append(f"typedef enum {name} {{ " + ", ".join(f"{case} = {value}" for case, value, _ in cases)
                             + f" }} {name};")
    missing = set(enums) - set(seen_enums)
    if missing:
        fail(f"enums not placed in a section: {sorted(missing)}")

    typedefs, sections, placed = {}, [], set()
    for filename, title in SECTIONS:
        names, intro = swift_order(filename)
        decls = []
        for name in names:
            if name not in functions:
                fail(f"{name} is in {filename} but not in the compiler output")
            decls.append(render_function(name, *functions[name], typedefs))
            ffi_functions.append(strip_comments(decls[-1]).replace("FW_API ", "").strip())
            placed.add(name)
        header = f"/* ---- {title} ---- */\n"
        if intro:
            header += "\n" + block_comment(intro) + "\n"
        sections.append(header + "\n" + "\n\n".join(decls) + "\n")
        for name in names:
            if not any(line.startswith("Returns:") for line in functions[name][0]):
                fail(f"{name}: its doc comment has no 'Returns:' line")
    missing = set(functions) - placed
    if missing:
        fail(f"functions not placed in a section: {sorted(missing)}")

    if typedefs:
        fail(f"function-pointer parameters without a typedef in {TYPES_HEADER.name}: {sorted(typedefs)}")
    out.append(c_types())
    out.extend(sections)
    out.append("""#ifdef __cplusplus
}
#endif

#endif /* FORMWELL_H */
""")
    ffi = [f"""/* formwell_ffi.h: the declarations of formwell.h alone, for FFIs that read C declarations
   (LuaJIT ffi.cdef, Python cffi's ABI mode): no preprocessor lines, enum values spelled out, the
   version and ABI numbers as enum constants. GENERATED by scripts/gen_header.py with formwell.h;
   formwell.h has the documentation. */
enum {{ FW_VERSION_MAJOR = {major}, FW_VERSION_MINOR = {minor}, FW_VERSION_PATCH = {patch}, FW_ABI_VERSION = {abi} }};
typedef struct fw_form fw_form;"""]
    ffi.extend(ffi_enums)
    # The types without their comments and preprocessor lines (the Arrow structs' include guard
    # and flag macros: cffi and LuaJIT read no preprocessor lines).
    ffi.extend(line for line in strip_comments(c_types()).splitlines()
               if line.strip() and not line.lstrip().startswith("#"))
    ffi.extend(ffi_functions)
    header = "\n".join(out)
    if re.search(r"\bseeds?\b", header, re.I):
        fail("the header mentions 'seed': it must stand alone, without references to outside documents")
    history = re.search(r"\b[Ii]ssue #?[0-9]+", header)
    if history:
        fail(f"the header mentions '{history.group(0)}': it states what is true now; history goes in CHANGELOG.md")
    return header, "\n".join(ffi) + "\n"


def strip_comments(text):
    """C text without its /* */ and // comments (declarations only, for the FFI file)."""
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", text, flags=re.S))


def python_constants(ffi: str) -> str:
    """The Python binding's copy of every C enum but fw_rule_kind (which scripts/gen_rules.py writes
    with the rule catalogue), from the FFI declarations: one source for the values."""
    lines = ['"""Generated by scripts/gen_header.py from include/formwell.h\'s enums: do not edit. Change',
             'the Swift sources, then run `make header`."""', ""]
    for name, body in re.findall(r"typedef enum (\w+) \{([^}]*)\} \w+;", ffi):
        if name == "fw_rule_kind":
            continue
        lines += ["", f"# {name}"]
        for member in body.split(","):
            key, _, value = member.strip().partition(" = ")
            if not re.fullmatch(r"FW_[A-Z0-9_]+", key) or not re.fullmatch(r"-?[0-9]+", value):
                fail(f"enum {name}: cannot read member {member.strip()!r}")
            lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--raw", default=str(ROOT / ".build" / "formwell-raw.h"))
    parser.add_argument("--out", default=str(ROOT / "include" / "formwell.h"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    raw_path = pathlib.Path(args.raw)
    if not raw_path.exists():
        fail(f"{raw_path} not found: run `swift build` first")
    header, ffi = generate(raw_path.read_text())
    out = pathlib.Path(args.out)
    outputs = [(out, header), (out.with_name(out.stem + "_ffi.h"), ffi),
               (ROOT / "bindings" / "python" / "formwell" / "_constants.py", python_constants(ffi))]
    if args.check:
        for path, text in outputs:
            current = path.read_text() if path.exists() else ""
            if current != text:
                sys.stdout.writelines(difflib.unified_diff(
                    current.splitlines(True), text.splitlines(True), str(path), "generated"))
                fail(f"{path} differs from the header generated from the Swift sources; run `make header`")
            print(f"{path} matches the Swift sources")
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    for path, text in outputs:
        path.write_text(text)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
