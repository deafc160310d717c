"""The JSON Schema in schema/message-catalog.schema.json agrees with the library: the shipped
catalogues validate and are complete (every failure code has a message and a hint), its list of
failure codes is the library's, and catalogues the library refuses for their shape are refused by
the schema too."""

import glob
import json
import os

import ctypes

import jsonschema
import pytest

from formwell import _native

from conftest import REPO_ROOT

# A handle of its own on the loaded library, with the two calls declared here (the binding's own
# declarations are left alone).
LIB = ctypes.CDLL(_native.library_path)
LIB.fw_message_catalog.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
LIB.fw_message_catalog.restype = ctypes.c_int
LIB.fw_add_message_catalog.argtypes = [ctypes.c_char_p]
LIB.fw_add_message_catalog.restype = ctypes.c_int


def library_catalogue(locale):
    length = ctypes.c_size_t()
    assert LIB.fw_message_catalog(locale.encode(), None, 0, ctypes.byref(length)) == 0
    buffer = ctypes.create_string_buffer(length.value + 1)
    assert LIB.fw_message_catalog(locale.encode(), buffer, len(buffer), ctypes.byref(length)) == 0
    return json.loads(buffer.value.decode())

with open(os.path.join(REPO_ROOT, "schema", "message-catalog.schema.json"), encoding="utf-8") as _file:
    SCHEMA = json.load(_file)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
CATALOGUES = sorted(glob.glob(os.path.join(REPO_ROOT, "Sources", "Formwell", "Messages", "Catalogues", "*.json")))


def test_the_schema_is_a_valid_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", CATALOGUES, ids=os.path.basename)
def test_shipped_catalogues_validate_and_are_complete(path):
    catalogue = json.load(open(path, encoding="utf-8"))
    VALIDATOR.validate(catalogue)
    codes = set(SCHEMA["properties"]["failures"]["properties"])
    assert set(catalogue["failures"]) == codes
    for code, texts in catalogue["failures"].items():
        assert texts.get("message") and texts.get("hint"), code
    assert set(catalogue["units"]) == {"graphemes", "scalars", "utf16", "bytes"}


def test_the_schema_lists_the_librarys_failure_codes():
    # The library's English catalogue (fw_message_catalog) lists every code it knows.
    english = library_catalogue("en")
    assert set(english["failures"]) == set(SCHEMA["properties"]["failures"]["properties"])
    VALIDATOR.validate(english)


@pytest.mark.parametrize(
    "catalogue",
    [
        {"language": "no locale"},
        {"locale": "de", "plurals": "dual"},
        {"locale": "de", "failures": {"no_such_code": {"message": "x"}}},
        {"locale": "de", "failures": {"required": {"message": "x", "extra": "y"}}},
        {"locale": "de", "failures": {"required": {"message": []}}},
        {"locale": "de", "units": {"words": "x"}},
        {"locale": "de", "colour": "red"},
        {"locale": "not a tag"},
    ],
)
def test_refused_by_both(catalogue):
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(catalogue)
    assert LIB.fw_add_message_catalog(json.dumps(catalogue).encode()) == _native.FW_ERR_INVALID_SPEC
