"""The C callbacks of custom validators: the one validator function the library calls for every
:class:`formwell.Custom` rule and every validator a spec names, and the contexts it finds them by.

A context id is what the library's ``void *context`` holds; it stands for one attached callable
from the call that handed it to the library until the library's destroy callback (when the form is
freed), so the callable stays alive exactly as long as the rule exists in the C form.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import threading
from typing import Any, Callable, Dict, Optional, Union

from . import _native
from ._native import FW_VERDICT_ERROR, FW_VERDICT_INVALID, FW_VERDICT_VALID
from ._rule_base import encode

#: What a custom validator may return: None/True (valid), a message (invalid), False (invalid with
#: the rule's message or the default one).
ValidatorResult = Union[None, bool, str]
Validator = Callable[[str], ValidatorResult]


class _CustomContext:
    """What the C library's ``void *context`` stands for: one attached Custom rule.

    It lives in :data:`_contexts` from the ``fw_form_add_field_with_rules`` (or
    ``fw_form_define_validator``) call that handed it to the library until the library calls the destroy
    function (when the form is freed), so the callable and the last message bytes stay alive for
    exactly as long as the rule exists in the C form.
    """

    __slots__ = ("validate", "message_bytes")

    def __init__(self, validate: Validator) -> None:
        self.validate = validate
        self.message_bytes: Optional[bytes] = None


#: context id -> attached custom rule. Ids start at 1 (0 would be NULL) and are never reused.
_contexts: Dict[int, _CustomContext] = {}
_ids = itertools.count(1)
_ids_lock = threading.Lock()


def _fresh_lock_in_child() -> None:
    """A child made by fork() gets a new lock: another thread may have held the old one at the fork."""
    global _ids_lock
    _ids_lock = threading.Lock()


os.register_at_fork(after_in_child=_fresh_lock_in_child)


def live_custom_contexts() -> int:
    """Number of Custom rules the library still holds (for leak checks)."""
    return len(_contexts)


def _trampoline(context: Optional[int], value: Optional[int], length: int, out_message: Any) -> int:
    """The one C validator function: finds the rule by context id and calls its callable.

    Never lets an exception escape (ctypes would print it and return 0, i.e. "valid"): any error is
    stashed for the triggering call and reported as FW_VERDICT_ERROR.
    """
    try:
        entry = _contexts[context or 0]
        text = ctypes.string_at(value, length).decode("utf-8") if value else ""
        result = entry.validate(text)
        if result is None or result is True:
            return FW_VERDICT_VALID
        if result is False:
            return FW_VERDICT_INVALID
        if isinstance(result, str):
            data = encode(result, "a custom validator's message")
            entry.message_bytes = data  # alive until the library has copied it
            out_message[0] = data
            return FW_VERDICT_INVALID
        raise TypeError(
            "a custom validator must return None or True (valid), or a message str or False "
            f"(invalid), not {type(result).__name__}"
        )
    except BaseException as error:  # noqa: BLE001 - re-raised by the triggering call
        try:
            _native.stash_exception(error)
        except BaseException:  # pragma: no cover - interpreter shutting down
            pass
        return FW_VERDICT_ERROR


def _destroy(context: Optional[int], _contexts: Dict[int, _CustomContext] = _contexts) -> None:
    """The C destroy function: the form owning the rule was freed. Must work at shutdown too,
    hence the bound default argument instead of a global lookup."""
    try:
        _contexts.pop(context or 0, None)
    except BaseException:  # pragma: no cover
        pass


# Module-lifetime C function pointers shared by every Custom rule.
VALIDATE_FN = _native.fw_validate_fn(_trampoline)
DESTROY_FN = _native.fw_destroy_fn(_destroy)


def new_context(validate: Validator) -> int:
    """Registers ``validate`` under a new context id (what the C library's ``void *context`` holds)."""
    with _ids_lock:
        key = next(_ids)
    _contexts[key] = _CustomContext(validate)
    return key


def release_context(key: Optional[int]) -> None:
    """Forgets a context the library did not take (its call failed): releases the callable."""
    _contexts.pop(key or 0, None)


def define_validator(form: Any, name: bytes, validate: Validator) -> int:
    """Registers `validate` under `name` for specs (fw_form_define_validator), with the same
    context bookkeeping as :class:`Custom`."""
    if not callable(validate):
        raise TypeError(f"a validator must be callable, not {type(validate).__name__}")
    key = new_context(validate)
    status = -1
    try:
        status = _native.lib.fw_form_define_validator(form, name, VALIDATE_FN, key, DESTROY_FN)
    finally:
        if status != _native.FW_OK:  # the library kept nothing: we still own the context
            release_context(key)
    return status
