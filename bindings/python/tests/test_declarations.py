"""The whole C surface of include/formwell.h is declared, with matching types."""

import ctypes
import os
import re

import pytest

from formwell import _native

from conftest import REPO_ROOT

HEADER = os.environ.get("FORMWELL_HEADER", os.path.join(REPO_ROOT, "include", "formwell.h"))

# C type spelling in the header -> ctypes type the binding must use.
C_TYPES = {
    "void": None,
    "const char *": ctypes.c_char_p,
    "char *": ctypes.POINTER(ctypes.c_char),
    "int32_t": ctypes.c_int32,
    "uint32_t": ctypes.c_uint32,
    "int64_t": ctypes.c_int64,
    "size_t": ctypes.c_size_t,
    "size_t *": ctypes.POINTER(ctypes.c_size_t),
    "bool *": ctypes.POINTER(ctypes.c_bool),
    "bool": ctypes.c_bool,
    "const int32_t *": ctypes.POINTER(ctypes.c_int32),
    "void *": ctypes.c_void_p,
    "fw_status": ctypes.c_int,
    "fw_phase *": ctypes.POINTER(ctypes.c_int),
    "fw_validity *": ctypes.POINTER(ctypes.c_int),
    "fw_display *": ctypes.POINTER(ctypes.c_int),
    "fw_form *": _native.FormHandle,
    "fw_form **": ctypes.POINTER(_native.FormHandle),
    "fw_validate_fn": _native.fw_validate_fn,
    "fw_destroy_fn": _native.fw_destroy_fn,
    "uint32_t *": ctypes.POINTER(ctypes.c_uint32),
    "fw_snapshot *": ctypes.POINTER(_native.fw_snapshot),
    "const fw_rule *": ctypes.POINTER(_native.fw_rule),
    "const fw_column *": ctypes.POINTER(_native.fw_column),
    "uint8_t *": ctypes.POINTER(ctypes.c_uint8),
    "int32_t *": ctypes.POINTER(ctypes.c_int32),
    "const struct ArrowSchema *": ctypes.POINTER(_native.ArrowSchema),
    "const struct ArrowArray *": ctypes.POINTER(_native.ArrowArray),
    "uint64_t": ctypes.c_uint64,
    "fw_form_info *": ctypes.POINTER(_native.fw_form_info),
    "const char * const *": ctypes.POINTER(ctypes.c_char_p),
    "uint64_t *": ctypes.POINTER(ctypes.c_uint64),
    "fw_request *": ctypes.POINTER(_native.fw_request),
    "fw_check_result *": ctypes.POINTER(_native.fw_check_result),
}


def header_functions():
    with open(HEADER, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    found = {}
    for match in re.finditer(r"FW_API\s+([^;(]*?)\b(fw_\w+)\s*\(([^)]*)\)\s*;", text):
        ret, name, params = match.group(1).strip(), match.group(2), match.group(3).strip()
        args = []
        if params and params != "void":
            for param in params.split(","):
                param = " ".join(param.split())
                kind = re.sub(r"\s*\b\w+$", "", param)  # drop the parameter name
                kind = re.sub(r"\s*\*", " *", kind).replace("* *", "**")
                args.append(kind.strip())
        found[name] = (" ".join(ret.replace("*", " *").split()).replace("* *", "**"), args)
    return found


def test_header_parses():
    functions = header_functions()
    assert len(functions) >= 30
    assert functions["fw_field_add_custom"][1] == [
        "fw_form *", "const char *", "fw_validate_fn", "void *", "fw_destroy_fn", "const char *",
    ]


def test_every_header_function_is_declared():
    missing = sorted(set(header_functions()) - set(_native.SIGNATURES))
    assert not missing, f"fw_ functions of formwell.h not declared in formwell._native: {missing}"


def test_no_stale_declarations():
    """Only functions the loader treats as optional may be declared without being in the header."""
    extra = sorted(set(_native.SIGNATURES) - set(header_functions()) - _native.OPTIONAL)
    assert not extra, f"declared but not in formwell.h: {extra}"


@pytest.mark.parametrize("name", sorted(header_functions()))
def test_declaration_matches_header(name):
    ret, args = header_functions()[name]
    if name in _native.missing_functions:
        pytest.skip(f"{name} is in the header but not in the loaded library")
    function = getattr(_native.lib, name)
    assert function.argtypes is not None, f"{name}: argtypes not set"
    assert function.restype is C_TYPES[ret], f"{name}: restype {function.restype} for C {ret}"
    assert list(function.argtypes) == [C_TYPES[a] for a in args], f"{name}: argtypes vs C {args}"


def test_handle_type_is_distinct():
    assert _native.FormHandle is not ctypes.c_void_p
    with pytest.raises(ctypes.ArgumentError):
        _native.lib.fw_form_free(ctypes.c_void_p(1234))


def test_enum_values_match_header():
    with open(HEADER, encoding="utf-8") as f:
        text = f.read()
    values = {m.group(1): int(m.group(2)) for m in re.finditer(r"\b(FW_\w+)\s*=\s*(\d+)", text)}
    for name, value in values.items():
        if hasattr(_native, name):
            assert getattr(_native, name) == value, name
    abi = int(re.search(r"#define FW_ABI_VERSION (\d+)", text).group(1))
    assert abi == _native.ABI_VERSION
    import formwell

    assert [p.value for p in formwell.Phase] == [values[f"FW_PHASE_{p.name}"] for p in formwell.Phase]
    assert [v.value for v in formwell.Validity] == [values[f"FW_VALIDITY_{v.name}"] for v in formwell.Validity]
    assert [d.value for d in formwell.Display] == [values[f"FW_DISPLAY_{d.name}"] for d in formwell.Display]
    for code, cls in formwell.errors.ERRORS.items():
        assert code in values.values()


# C member type in the header -> the ctypes types a Structure member may use for it.
MEMBER_TYPES = {
    "size_t": (ctypes.c_size_t,),
    "uint64_t": (ctypes.c_uint64,),
    "int32_t": (ctypes.c_int32,),
    "bool": (ctypes.c_bool,),
    "const char *": (ctypes.c_char_p, ctypes.c_void_p),
    "void *": (ctypes.c_void_p,),
    "const void *": (ctypes.c_void_p,),
    "const uint8_t *": (ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint8)),
    "fw_validate_fn": (_native.fw_validate_fn,),
    "fw_destroy_fn": (_native.fw_destroy_fn,),
}


def header_struct(name):
    with open(HEADER, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    body = re.search(r"typedef struct %s \{(.*?)\} %s;" % (name, name), text, flags=re.S).group(1)
    members = []
    for declaration in filter(None, (" ".join(d.split()) for d in body.split(";"))):
        match = re.fullmatch(r"(.*?)\s*(\w+)", declaration)
        members.append((match.group(2), match.group(1).replace(" *", " *").strip()))
    return members


@pytest.mark.parametrize("name", ["fw_snapshot", "fw_rule", "fw_column", "fw_form_info", "fw_request",
                                  "fw_check_result"])
def test_structs_match_header(name):
    members = header_struct(name)
    structure = getattr(_native, name)
    assert [m for m, _ in members] == [f for f, _ in structure._fields_], f"{name}: member names or order"
    for (member, c_type), (_, py_type) in zip(members, structure._fields_):
        assert py_type in MEMBER_TYPES[c_type], f"{name}.{member}: {py_type} for C {c_type}"


def test_snapshot_reader_matches_the_struct():
    """_native.SNAPSHOT (struct module) reads the same members ctypes does (pointers and lengths skipped)."""
    members = dict(index=7, phase=1, validity=2, display=1, failing_rule=-1, touched=True, limit_exceeded=False,
                   message_length=11, display_message_length=12, value_length=13, text_size=99,
                   visited=True, dirty=False, modified_since_submit=True, external_error=False, label_raised=True,
                   emphasized=False, mode=3, tint=2, revision=2**40 + 5, error_count=2, label_length=14,
                   initial_length=15, hint_length=16, errors_size=17, secret=True, normalized_length=18,
                   code_length=19, params_length=20, display_code_length=21, display_params_length=22,
                   error_codes_size=23)
    snapshot = _native.fw_snapshot(size=ctypes.sizeof(_native.fw_snapshot), message=1, display_message=2, value=3,
                                   label=4, initial=5, hint=6, errors=7, normalized=8, code=9, params=10,
                                   display_code=11, display_params=12, error_codes=13, **members)
    # The lengths of the texts from the value to the normalised value are skipped (they are split at
    # their NULs); the two messages' are read (an empty one needs no decoding), and so are version 4's.
    read = ("index", "phase", "validity", "display", "failing_rule", "touched", "limit_exceeded", "message_length",
            "display_message_length", "text_size", "visited", "dirty", "modified_since_submit", "external_error", "label_raised", "emphasized", "mode",
            "tint", "revision", "error_count", "secret", "code_length", "params_length", "display_code_length",
            "display_params_length", "error_codes_size")
    expected = tuple(members[name] for name in read)
    assert _native.SNAPSHOT.unpack_from(snapshot) == expected
    array = (_native.fw_snapshot * 2)()
    array[1] = snapshot
    assert _native.SNAPSHOT.unpack_from(array, ctypes.sizeof(_native.fw_snapshot)) == expected
    # FieldState reads the unpacked members by these names.
    assert _native.SNAPSHOT_MEMBERS == read


def test_snapshot_texts_follow_each_other():
    """The binding splits the texts at their NULs (message, display message, value, label, initial
    value, hint, each NUL-terminated, then the error messages, each NUL-terminated, and one more NUL,
    then the normalised value, code, params, display code and display params, each NUL-terminated,
    then the error codes, each NUL-terminated, and one more NUL, one after the other), finds the
    version 4 texts at the end of a field's texts by their lengths, and finds each field's texts in
    fw_form_snapshots' buffer by the text_size of the fields before it: the library's pointers must
    agree."""
    import formwell

    # The error list ends with one more NUL (an empty list reads as "").
    five = b'{"length":5,"unit":"graphemes"}'
    first_texts = (b"too short\0too short\0abc\0" + b"a\0" + b"abc\0" + b"Enter at least 5 characters\0"
                   + b"too short\0" + b"\0" + b"abc\0"
                   + b"min_length\0" + five + b"\0" + b"min_length\0" + five + b"\0" + b"min_length\0" + b"\0")
    second_texts = b"This field is required\0" * 2 + b"\0" + b"Bee\0" + b"\0" + b"Enter a value\0" + \
        b"This field is required\0" + b"\0" + b"\0" + b"required\0{}\0required\0{}\0required\0\0"
    with formwell.Form() as form:
        form.add_field("a", [formwell.Required(), formwell.MinLength(5, message="too short")], initial="abc")
        form.add_field("b", [formwell.Required()], label="Bee")
        form.add_field("c", initial="ok")
        form.touch_all()
        buf = ctypes.create_string_buffer(512)
        base = ctypes.addressof(buf)
        snapshot = _native.fw_snapshot(size=ctypes.sizeof(_native.fw_snapshot))
        _native.check(_native.lib.fw_field_snapshot_at(form._h, 0, snapshot, buf, 512))
        offsets = tuple(getattr(snapshot, name) - base for name in
                        ("message", "display_message", "value", "label", "initial", "hint", "errors", "normalized",
                         "code", "params", "display_code", "display_params", "error_codes"))
        assert offsets == (0, 10, 20, 24, 26, 30, 58, 69, 73, 84, 116, 127, 159)
        assert (snapshot.error_count, snapshot.errors_size, snapshot.text_size) == (1, 10, 171)
        assert (snapshot.secret, snapshot.normalized_length) == (False, 3)
        assert (snapshot.code_length, snapshot.params_length, snapshot.display_code_length,
                snapshot.display_params_length, snapshot.error_codes_size) == (10, 31, 10, 31, 11)
        assert buf.raw[:snapshot.text_size] == first_texts
        snapshots = (_native.fw_snapshot * 3)(*[_native.fw_snapshot(size=ctypes.sizeof(_native.fw_snapshot))] * 3)
        count, needed = ctypes.c_size_t(), ctypes.c_size_t()
        _native.check(_native.lib.fw_form_snapshots(form._h, snapshots, 3, ctypes.byref(count), buf, 512,
                                                    ctypes.byref(needed)))
        first_size, second_size = snapshots[0].text_size, snapshots[1].text_size
        assert (first_size, second_size) == (len(first_texts), len(second_texts))
        assert snapshots[1].message - base == first_size
        assert snapshots[2].message - base == first_size + second_size
        # A valid field: empty texts but its value, label (the id) and initial value; no errors, no codes.
        third_texts = b"\0\0ok\0c\0ok\0\0" + b"\0" + b"ok\0" + b"\0{}\0\0{}\0\0"
        assert (snapshots[2].error_count, snapshots[2].errors_size) == (0, 0)
        assert needed.value == first_size + second_size + snapshots[2].text_size == len(first_texts + second_texts
                                                                                        + third_texts)
        assert buf.raw[:needed.value] == first_texts + second_texts + third_texts
