"""Exceptions raised by formwell, one class per C result code (``fw_status``).

Every class derives from :class:`FormwellError`, which carries the numeric ``code`` and the
library's ``detail`` message (``fw_last_error_message``). Where a standard Python exception fits,
the class derives from it too, so ordinary ``except KeyError`` / ``except ValueError`` clauses work.
"""

from __future__ import annotations

from typing import Dict, Optional, Type

from . import _constants


class FormwellError(Exception):
    """Base class of every error the library reports.

    Attributes:
        code: the ``fw_status`` value returned by the C call.
        detail: the library's detail message for the failure.
        offset: the byte offset the failure refers to (pattern position or first bad UTF-8 byte),
            or ``None``.
    """

    code: int = -1

    def __init__(self, detail: str, code: Optional[int] = None, offset: Optional[int] = None) -> None:
        super().__init__(detail)
        if code is not None:
            self.code = code
        self.detail = detail
        self.offset = offset

    def __str__(self) -> str:  # KeyError would otherwise show repr(detail)
        return self.detail

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.detail, self.code, self.offset))


class NullArgumentError(FormwellError, ValueError):
    """FW_ERR_NULL_ARGUMENT: a required pointer argument was NULL."""

    code = _constants.FW_ERR_NULL_ARGUMENT


class InvalidHandleError(FormwellError):
    """FW_ERR_INVALID_HANDLE: the form was closed (freed) or the handle was never issued."""

    code = _constants.FW_ERR_INVALID_HANDLE


class UnknownFieldError(FormwellError, KeyError):
    """FW_ERR_UNKNOWN_FIELD: no field with that id exists in the form."""

    code = _constants.FW_ERR_UNKNOWN_FIELD


class DuplicateFieldError(FormwellError, ValueError):
    """FW_ERR_DUPLICATE_FIELD: a field with that id already exists in the form."""

    code = _constants.FW_ERR_DUPLICATE_FIELD


class InvalidUTF8Error(FormwellError, UnicodeError):
    """FW_ERR_INVALID_UTF8: a string argument was not valid UTF-8; ``offset`` is the bad byte."""

    code = _constants.FW_ERR_INVALID_UTF8


class PatternError(FormwellError, ValueError):
    """FW_ERR_INVALID_PATTERN: PCRE2 refused a pattern; ``detail`` is PCRE2's message and
    ``offset`` the position in the pattern."""

    code = _constants.FW_ERR_INVALID_PATTERN


class InvalidArgumentError(FormwellError, ValueError):
    """FW_ERR_INVALID_ARGUMENT: an argument is out of range or malformed (empty field id,
    negative length, minimum above maximum, a field matching itself, ...)."""

    code = _constants.FW_ERR_INVALID_ARGUMENT


class CallbackError(FormwellError):
    """FW_ERR_CALLBACK: a custom validator reported an error instead of a verdict; the form is
    unchanged. (When a Python validator raised, that exception itself is re-raised instead.)"""

    code = _constants.FW_ERR_CALLBACK


class InternalError(FormwellError):
    """FW_ERR_INTERNAL: a failure no input should cause; the form is unchanged."""

    code = _constants.FW_ERR_INTERNAL


class BufferTooSmallError(FormwellError):
    """FW_ERR_BUFFER_TOO_SMALL: a caller buffer was too small (the binding retries with the
    reported size, so this only surfaces from raw calls)."""

    code = _constants.FW_ERR_BUFFER_TOO_SMALL


class BusyError(FormwellError, RuntimeError):
    """FW_ERR_BUSY: a custom validator called back into the form it is validating."""

    code = _constants.FW_ERR_BUSY


class InvalidSpecError(FormwellError, ValueError):
    """FW_ERR_INVALID_SPEC: a JSON form spec was rejected; ``detail`` names the JSON path."""

    code = _constants.FW_ERR_INVALID_SPEC


class UnknownRequestError(FormwellError, LookupError):
    """FW_ERR_UNKNOWN_REQUEST: :meth:`formwell.Form.resolve` was given a request id the form never
    issued (0, or above the last id issued). Nothing changed."""

    code = _constants.FW_ERR_UNKNOWN_REQUEST


class RequestClosedError(FormwellError, LookupError):
    """FW_ERR_REQUEST_CLOSED: :meth:`formwell.Form.resolve` was given a request that was already
    resolved (or cancelled more than 1,024 stale requests ago). Nothing changed. (A request
    superseded since it was handed out is not an error: ``resolve`` answers ``Resolution.STALE``.)"""

    code = _constants.FW_ERR_REQUEST_CLOSED


ERRORS: Dict[int, Type[FormwellError]] = {
    cls.code: cls
    for cls in (
        NullArgumentError,
        InvalidHandleError,
        UnknownFieldError,
        DuplicateFieldError,
        InvalidUTF8Error,
        PatternError,
        InvalidArgumentError,
        CallbackError,
        InternalError,
        BufferTooSmallError,
        BusyError,
        InvalidSpecError,
        UnknownRequestError,
        RequestClosedError,
    )
}


def error_for_status(status: int, detail: str, offset: Optional[int] = None) -> FormwellError:
    """The exception for a C result code; unknown codes give a plain :class:`FormwellError`."""
    cls = ERRORS.get(status, FormwellError)
    return cls(detail, status, offset)


__all__ = [
    "FormwellError",
    "NullArgumentError",
    "InvalidHandleError",
    "UnknownFieldError",
    "DuplicateFieldError",
    "InvalidUTF8Error",
    "PatternError",
    "InvalidArgumentError",
    "CallbackError",
    "InternalError",
    "BufferTooSmallError",
    "BusyError",
    "InvalidSpecError",
    "UnknownRequestError",
    "RequestClosedError",
    "error_for_status",
]
