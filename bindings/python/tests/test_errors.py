"""Every C result code maps to its exception class, carrying the code and the library's detail."""

import ctypes
import pickle

import pytest

import formwell
from formwell import _native, errors
from formwell import (
    BufferTooSmallError, BusyError, CallbackError, Custom, DuplicateFieldError, Form, FormwellError,
    InternalError, InvalidArgumentError, InvalidHandleError, InvalidUTF8Error, Matches, MaxLength,
    MinLength, NullArgumentError, PatternError, Regex, Required, UnknownFieldError,
)


def raw_form():
    handle = _native.FormHandle()
    _native.check(_native.lib.fw_form_create(ctypes.byref(handle)))
    return handle


def test_mapping_table_is_complete():
    assert {code: cls.__name__ for code, cls in errors.ERRORS.items()} == {
        1: "NullArgumentError", 2: "InvalidHandleError", 3: "UnknownFieldError",
        4: "DuplicateFieldError", 5: "InvalidUTF8Error", 6: "PatternError",
        7: "InvalidArgumentError", 8: "CallbackError", 9: "InternalError",
        10: "BufferTooSmallError", 11: "BusyError", 12: "InvalidSpecError",
        13: "UnknownRequestError", 14: "RequestClosedError",
    }
    for code, cls in errors.ERRORS.items():
        error = errors.error_for_status(code, "detail")
        assert type(error) is cls and error.code == code and error.detail == "detail"
        assert isinstance(error, FormwellError)
        # The library names every code.
        assert _native.lib.fw_status_string(code).decode() not in ("", "unknown status code")
    unknown = errors.error_for_status(99, "odd")
    assert type(unknown) is FormwellError and unknown.code == 99


def test_python_base_classes():
    assert issubclass(UnknownFieldError, KeyError)
    assert issubclass(InvalidArgumentError, ValueError)
    assert issubclass(PatternError, ValueError)
    assert issubclass(InvalidUTF8Error, UnicodeError)
    assert issubclass(BusyError, RuntimeError)


def test_null_argument_from_the_library():
    with pytest.raises(NullArgumentError) as caught:
        _native.check(_native.lib.fw_form_create(None))
    assert caught.value.code == 1 and "out_form" in caught.value.detail


def test_invalid_handle_closed_form_and_double_free():
    form = Form()
    form.add_field("a")
    form.close()
    form.close()  # closing twice is a no-op
    with pytest.raises(InvalidHandleError) as caught:
        form["a"] = "x"
    assert caught.value.code == 2
    # Straight from the library: a freed handle.
    handle = raw_form()
    _native.check(_native.lib.fw_form_free(handle))
    with pytest.raises(InvalidHandleError) as caught:
        _native.check(_native.lib.fw_form_free(handle))
    assert "freed" in caught.value.detail


def test_unknown_field_is_a_key_error(form):
    form.add_field("a")
    for action in (lambda: form["nope"], lambda: form.set_value("nope", "x"), lambda: form.focus("nope"),
                   lambda: form.blur("nope"), lambda: form.touch("nope"), lambda: form.state("nope")):
        with pytest.raises(KeyError) as caught:
            action()
        assert isinstance(caught.value, UnknownFieldError)
        assert caught.value.code == 3
        assert caught.value.detail == "no field with id 'nope'"
        assert str(caught.value) == "no field with id 'nope'"
    assert "nope" not in form and "a" in form


def test_duplicate_field(form):
    form.add_field("a")
    with pytest.raises(DuplicateFieldError) as caught:
        form.add_field("a", [Required()])
    assert caught.value.code == 4 and "a" in caught.value.detail
    assert len(form) == 1


def test_invalid_utf8_from_the_library():
    handle = raw_form()
    try:
        with pytest.raises(InvalidUTF8Error) as caught:
            _native.check(_native.lib.fw_form_add_field(handle, b"ok\xffbad", None, None))
        assert caught.value.code == 5 and caught.value.offset == 2
        assert "offset 2" in caught.value.detail
    finally:
        _native.lib.fw_form_free(handle)


def test_bad_regex_has_pcre2_message_and_offset(form):
    with pytest.raises(PatternError) as caught:
        form.add_field("code", [Required(), Regex("[a-z]+(")])
    error = caught.value
    assert error.code == 6
    assert error.detail == "missing closing parenthesis at offset 7"
    assert error.offset == 7
    assert "code" not in form  # checked before anything was added
    with pytest.raises(PatternError) as caught:
        form.add_field("other", [Regex("a{2,1}")])
    assert caught.value.offset == 5 and "out of order" in caught.value.detail


@pytest.mark.parametrize("make", [
    lambda f: f.add_field(""),
    lambda f: f.add_field("x", [MinLength(5), MaxLength(3)]),
    lambda f: f.add_field("x", [Matches("x")]),
    lambda f: f.set_match_limits(match_limit=0),
])
def test_invalid_argument(form, make):
    with pytest.raises(InvalidArgumentError) as caught:
        make(form)
    assert caught.value.code == 7 and caught.value.detail
    assert isinstance(caught.value, ValueError)
    assert len(form) == 0


def test_invalid_argument_in_python():
    with pytest.raises(InvalidArgumentError):
        MinLength(-1)
    with pytest.raises(InvalidArgumentError):
        MaxLength(2**31)
    with pytest.raises(TypeError):
        MinLength("3")


def test_unknown_matches_target_adds_nothing(form):
    with pytest.raises(UnknownFieldError):
        form.add_field("confirm", [Required(), Matches("password")])
    assert len(form) == 0


def test_callback_error_for_a_non_verdict_from_a_c_validator():
    """FW_ERR_CALLBACK straight from the library: a C validator returning 7 (not an fw_verdict)."""
    handle = raw_form()
    bad = _native.fw_validate_fn(lambda ctx, value, length, out: 7)
    try:
        _native.check(_native.lib.fw_form_add_field(handle, b"f", None, None))
        _native.check(_native.lib.fw_field_add_custom(handle, b"f", bad, None, _native.fw_destroy_fn(0), None))
        with pytest.raises(CallbackError) as caught:
            _native.check(_native.lib.fw_field_set_value(handle, b"f", b"x"))
        assert caught.value.code == 8 and "returned 7" in caught.value.detail
    finally:
        _native.lib.fw_form_free(handle)


def test_buffer_too_small_from_the_library(form):
    form.add_field("a", initial="héllo")
    buf = ctypes.create_string_buffer(3)
    length = ctypes.c_size_t(0)
    with pytest.raises(BufferTooSmallError) as caught:
        _native.check(_native.lib.fw_field_value(form._h, b"a", buf, 3, ctypes.byref(length)))
    assert caught.value.code == 10
    assert length.value == 6 and buf.value == b"h"  # cut at a character boundary


def test_long_strings_round_trip_through_the_retry(form):
    long_id = "field_" + "é" * 300
    value = "🙂" * 1000
    form.add_field(long_id, [Required(), MaxLength(10, message="m" * 700)])
    form[long_id] = value
    assert form[long_id] == value
    state = form.state(long_id)
    assert state.message == "m" * 700
    assert form.first_invalid == long_id
    assert form.field_ids == [long_id]


def test_busy_when_a_validator_calls_back_into_its_form(form):
    def peek(value):
        form.values  # reading the same form while it validates
    form.add_field("a", [Custom(peek)])
    with pytest.raises(BusyError) as caught:
        form["a"] = "x"
    assert caught.value.code == 11
    assert form["a"] == ""  # unchanged


def test_internal_error_mapping():
    error = errors.error_for_status(9, "out of memory inside PCRE2")
    assert isinstance(error, InternalError) and error.code == 9


def test_errors_pickle():
    error = errors.error_for_status(6, "bad", 3)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.code, copy.detail, copy.offset) == (PatternError, 6, "bad", 3)


def test_errors_are_per_thread_and_cleared_by_success(form):
    import threading

    with pytest.raises(UnknownFieldError):
        form["missing"]
    seen = []
    thread = threading.Thread(target=lambda: seen.append(_native.lib.fw_last_error_code()))
    thread.start()
    thread.join()
    assert seen == [0]
    assert _native.lib.fw_last_error_code() == 3
    assert _native.last_error_message() == "no field with id 'missing'"
    form.add_field("ok")
    assert _native.lib.fw_last_error_code() == 0 and _native.last_error_message() == ""


def test_invalid_spec_from_the_library():
    if "fw_form_load_spec" in _native.missing_functions:
        pytest.skip("the loaded library has no fw_form_load_spec")
    handle = raw_form()
    try:
        with pytest.raises(formwell.InvalidSpecError) as caught:
            _native.check(_native.lib.fw_form_load_spec(handle, b"{"))
        assert caught.value.code == 12 and caught.value.detail
    finally:
        _native.lib.fw_form_free(handle)
