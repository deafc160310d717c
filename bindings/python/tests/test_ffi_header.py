"""include/formwell_ffi.h, the declarations-only header, as an FFI that parses C reads it: cffi's
ABI mode takes it as it is and drives the library through it (the Python package itself uses ctypes)."""
import pathlib
import re

import pytest

cffi = pytest.importorskip("cffi")

ROOT = pathlib.Path(__file__).resolve().parents[3]
FFI_HEADER = ROOT / "include" / "formwell_ffi.h"



@pytest.fixture(scope="module")
def lib():
    import os
    ffi = cffi.FFI()
    ffi.cdef(FFI_HEADER.read_text())
    path = os.environ.get("FORMWELL_LIBRARY") or str(ROOT / ".build" / "release" / "libformwell.so")
    return ffi, ffi.dlopen(path)


def test_declares_every_function_of_formwell_h(lib):
    ffi, library = lib
    declared = set(re.findall(r"\b(fw_[a-z_]+)\(", (ROOT / "include" / "formwell.h").read_text()))
    assert len(declared) > 50
    for name in sorted(declared):
        assert hasattr(library, name), name


def test_versions_are_enum_constants_matching_the_library(lib):
    ffi, library = lib
    assert library.FW_ABI_VERSION == library.fw_abi_version()
    major, minor, patch = (int(p) for p in ffi.string(library.fw_version()).decode().split("."))
    assert (library.FW_VERSION_MAJOR, library.FW_VERSION_MINOR, library.FW_VERSION_PATCH) == (major, minor, patch)


def test_a_field_through_cffi(lib):
    ffi, library = lib
    handle = ffi.new("fw_form **")
    assert library.fw_form_create(handle) == library.FW_OK
    form = handle[0]
    try:
        assert library.fw_form_add_field(form, b"email", ffi.NULL, ffi.NULL) == library.FW_OK
        assert library.fw_field_add_required(form, b"email", ffi.NULL) == library.FW_OK
        assert library.fw_field_add_email(form, b"email", ffi.NULL) == library.FW_OK
        assert library.fw_field_focus(form, b"email") == library.FW_OK
        snap = ffi.new("fw_snapshot *")
        snap.size = ffi.sizeof("fw_snapshot")
        text = ffi.new("char[256]")
        assert library.fw_field_update(form, b"email", b"ada@", snap, text, 256) == library.FW_OK
        assert snap.validity == library.FW_VALIDITY_INVALID
        assert snap.failing_rule == 1
        assert ffi.string(snap.message) == b"Invalid email format"
        assert library.fw_field_set_value(form, b"nope", b"x") == library.FW_ERR_UNKNOWN_FIELD
    finally:
        assert library.fw_form_free(form) == library.FW_OK
