"""The C surface of libformwell, declared for ctypes, and the loader that finds the library.

Every ``fw_`` function of ``include/formwell.h`` is declared here, in :data:`SIGNATURES`, with its
``argtypes`` and ``restype``; nothing else in the package calls the library without going through
this module. The one handle kind of the ABI, ``fw_form *``, has its own opaque pointer type,
:class:`FormHandle`, so a stray ``c_void_p`` or integer cannot be passed where a form is expected.

Where the library is looked for, in order (the first that loads wins):

1. the file named by the environment variable ``FORMWELL_LIBRARY``;
2. ``formwell/_lib/libformwell.so`` bundled inside this installed package;
3. the system loader, by soname: ``libformwell.so.0``, then ``libformwell.so``, then whatever
   ``ctypes.util.find_library("formwell")`` answers (asked only when everything before it failed:
   it runs ``ldconfig``/``gcc`` in subprocesses, so a successful load never calls it).

When none loads, importing :mod:`formwell` raises :class:`ImportError` listing every place tried and
why it failed. A library whose ``fw_abi_version()`` differs from :data:`ABI_VERSION` is refused
with :class:`ImportError` too.
"""

from __future__ import annotations

import ctypes
import os
import struct
import threading
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_bool,
    c_char,
    c_char_p,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .errors import error_for_status

#: The ABI number this binding was written for (``FW_ABI_VERSION`` of the header).
ABI_VERSION = 1

#: Environment variable naming the library file to load (tried first).
LIBRARY_ENV = "FORMWELL_LIBRARY"

#: Sonames tried with the system loader, in order.
SONAMES = ("libformwell.so.0", "libformwell.so")

# ---- status codes and enums: generated from formwell.h (scripts/gen_header.py) ----
from ._constants import *  # noqa: E402,F401,F403

# FW_RULE_*: generated from the library's rule catalogue (scripts/gen_rules.py).
from ._rule_kinds import *  # noqa: E402,F401,F403

# ---- types ----


class fw_form(Structure):
    """The opaque ``struct fw_form`` (never dereferenced: handles are ids checked by the library)."""

    _fields_: List[Tuple[str, Any]] = []


#: ``fw_form *``: the form handle type (distinct from ``c_void_p``).
FormHandle = POINTER(fw_form)

#: C enums (``fw_status``, ``fw_phase``, ``fw_validity``, ``fw_display``) are ``int``-sized.
fw_status = c_int
fw_phase = c_int
fw_validity = c_int
fw_display = c_int

#: ``int32_t (*)(void *context, const char *value, size_t value_length, const char **out_message)``
fw_validate_fn = CFUNCTYPE(c_int32, c_void_p, c_void_p, c_size_t, POINTER(c_char_p))
#: ``void (*)(void *context)``
fw_destroy_fn = CFUNCTYPE(None, c_void_p)
#: ``fw_rule_kind`` is ``int``-sized.
fw_rule_kind = c_int


class fw_snapshot(Structure):
    """``struct fw_snapshot``: one field's whole state (``fw_field_snapshot`` and friends), version 4
    (version 2 appends the members from ``visited`` to ``errors``, version 3 ``secret`` to
    ``normalized``, version 4 ``code_length`` to ``error_codes``; the library writes them because
    ``size`` covers them).

    Set ``size`` to ``ctypes.sizeof(fw_snapshot)`` before a call. The text pointers point into the
    caller's text buffer (declared ``c_void_p``: they are read as addresses, and the texts are sliced
    out of the buffer by offset). The texts follow each other in this order, each NUL-terminated:
    message, display_message, value, label, initial, hint, then ``error_count`` messages
    (``errors_size`` bytes in all, NULs included) and one more NUL, then normalized, code, params,
    display_code, display_params, then ``error_count`` codes and one more NUL.
    """

    _fields_ = [
        ("size", c_size_t),
        ("index", c_size_t),
        ("phase", c_int32),
        ("validity", c_int32),
        ("display", c_int32),
        ("failing_rule", c_int32),
        ("touched", c_bool),
        ("limit_exceeded", c_bool),
        ("message_length", c_size_t),
        ("display_message_length", c_size_t),
        ("value_length", c_size_t),
        ("text_size", c_size_t),
        ("message", c_void_p),
        ("display_message", c_void_p),
        ("value", c_void_p),
        # version 2
        ("visited", c_bool),
        ("dirty", c_bool),
        ("modified_since_submit", c_bool),
        ("external_error", c_bool),
        ("label_raised", c_bool),
        ("emphasized", c_bool),
        ("mode", c_int32),
        ("tint", c_int32),
        ("revision", c_uint64),
        ("error_count", c_size_t),
        ("label_length", c_size_t),
        ("initial_length", c_size_t),
        ("hint_length", c_size_t),
        ("errors_size", c_size_t),
        ("label", c_void_p),
        ("initial", c_void_p),
        ("hint", c_void_p),
        ("errors", c_void_p),
        # version 3
        ("secret", c_bool),
        ("normalized_length", c_size_t),
        ("normalized", c_void_p),
        # version 4
        ("code_length", c_size_t),
        ("params_length", c_size_t),
        ("display_code_length", c_size_t),
        ("display_params_length", c_size_t),
        ("error_codes_size", c_size_t),
        ("code", c_void_p),
        ("params", c_void_p),
        ("display_code", c_void_p),
        ("display_params", c_void_p),
        ("error_codes", c_void_p),
    ]


class fw_check_result(Structure):
    """``struct fw_check_result``: what ``fw_check_value`` found for one value. Set ``size`` to
    ``ctypes.sizeof(fw_check_result)``. The texts (message, code, params, each NUL-terminated, in
    this order) are copied into the caller's buffer; the pointers (``c_void_p``) point into it."""

    _fields_ = [
        ("size", c_size_t),
        ("validity", c_int32),
        ("failing_rule", c_int32),
        ("limit_exceeded", c_bool),
        ("message_length", c_size_t),
        ("code_length", c_size_t),
        ("params_length", c_size_t),
        ("text_size", c_size_t),
        ("message", c_void_p),
        ("code", c_void_p),
        ("params", c_void_p),
    ]


class fw_form_info(Structure):
    """``struct fw_form_info``: the form-level state (``fw_form_get_info``); set ``size`` to
    ``ctypes.sizeof(fw_form_info)``. Version 2 appends ``pending_count``, ``stale_results`` and
    ``now_ms`` (the asynchronous rules' counts and clock)."""

    _fields_ = [
        ("size", c_size_t),
        ("field_count", c_size_t),
        ("dirty_count", c_size_t),
        ("revision", c_uint64),
        ("submit_count", c_int32),
        ("submit_failed", c_bool),
        ("dirty", c_bool),
        ("mode", c_int32),
        ("error_mode", c_int32),
        # version 2
        ("pending_count", c_size_t),
        ("stale_results", c_size_t),
        ("now_ms", c_uint64),
    ]


class fw_request(Structure):
    """``struct fw_request``: one asynchronous check handed out by ``fw_form_next_request``. Set
    ``size`` to ``ctypes.sizeof(fw_request)``. The three texts (field id, value, rule name, each
    NUL-terminated) are copied into the caller's buffer; the pointers (``c_void_p``: read as
    addresses) point into it."""

    _fields_ = [
        ("size", c_size_t),
        ("id", c_uint64),
        ("due", c_uint64),
        ("field_index", c_size_t),
        ("field_id_length", c_size_t),
        ("value_length", c_size_t),
        ("rule_length", c_size_t),
        ("text_size", c_size_t),
        ("field_id", c_void_p),
        ("value", c_void_p),
        ("rule", c_void_p),
    ]


class fw_rule(Structure):
    """``struct fw_rule``: one rule for ``fw_form_add_field_with_rules`` (set ``size`` to
    ``ctypes.sizeof(fw_rule)``). ``text``, ``message`` and ``hint`` are ``c_char_p``: assigning bytes
    keeps them alive as long as the struct. ``hint`` (NULL: the rule kind's default accessibility
    hint) is the second version's member, appended after ``destroy``."""

    _fields_ = [
        ("size", c_size_t),
        ("kind", c_int32),
        ("length", c_int32),
        ("text", c_char_p),
        ("message", c_char_p),
        ("validate", fw_validate_fn),
        ("context", c_void_p),
        ("destroy", fw_destroy_fn),
        ("hint", c_char_p),
    ]


def _struct_members(structure: Any, first: str, last: str, skip: Tuple[str, ...] = ()) -> Tuple[str, ...]:
    """The names of ``structure``'s members ``first`` ... ``last``, without those named in ``skip``:
    what :func:`_struct_format` reads, in its order."""
    names = [name for name, _ in structure._fields_]
    return tuple(name for name in names[names.index(first) : names.index(last) + 1] if name not in skip)


def _struct_format(structure: Any, first: str, last: str, skip: Tuple[str, ...] = ()) -> str:
    """A :mod:`struct` format reading ``structure``'s members ``first`` ... ``last`` (skipping the
    members before ``first``, the members named in ``skip`` and the padding ctypes computed), so one
    ``unpack_from`` reads them."""
    codes = {c_size_t: "N", c_int32: "i", c_bool: "?", c_void_p: "P", c_uint64: "Q"}
    fmt, position, reading = "@", 0, False
    for name, kind in structure._fields_:
        reading = reading or name == first
        if not reading:
            continue
        offset = getattr(structure, name).offset
        fmt += "x" * (offset - position) + ("x" * ctypes.sizeof(kind) if name in skip else codes[kind])
        position = offset + ctypes.sizeof(kind)
        if name == last:
            break
    if struct.calcsize(fmt) != position:  # pragma: no cover - a platform whose padding differs
        raise ImportError(f"formwell: cannot describe {structure.__name__} for the struct module")
    return fmt


#: The members of a :class:`fw_snapshot` that :data:`SNAPSHOT` reads. The pointers and the other
#: texts' lengths are skipped (fewer Python ints to make): the texts follow each other in the
#: caller's buffer, each NUL-terminated, in the order fw_snapshot documents, and contain no NUL, so
#: the binding splits them at their NULs; the two message lengths let an empty message (most
#: reads) be answered without decoding anything.
_SNAPSHOT_SKIPPED = ("message", "display_message", "value", "value_length", "label_length", "initial_length",
                     "hint_length", "errors_size", "label", "initial", "hint", "errors", "normalized_length",
                     "normalized")
SNAPSHOT_MEMBERS = _struct_members(fw_snapshot, "index", "error_codes_size", _SNAPSHOT_SKIPPED)
#: Reads the members :data:`SNAPSHOT_MEMBERS` names, in that order, in one call:
#: ``SNAPSHOT.unpack_from(buffer, offset)`` gives a plain tuple of them.
SNAPSHOT = struct.Struct(_struct_format(fw_snapshot, "index", "error_codes_size", _SNAPSHOT_SKIPPED))

class fw_column(Structure):
    """``struct fw_column``: one field's values for every record of a batch, in the Apache Arrow
    layout of a string column (``fw_form_check_batch``). Set ``size`` to ``ctypes.sizeof(fw_column)``.
    ``offsets`` and ``validity`` are addresses (``c_void_p``); ``data`` takes a ``bytes`` object as
    is (no copy). The caller keeps the buffers they point into alive while the columns are used."""

    _fields_ = [
        ("size", c_size_t),
        ("field_id", c_char_p),
        ("offsets", c_void_p),
        ("data", c_char_p),
        ("validity", c_void_p),
        ("data_size", c_size_t),
        ("offset_size", c_int32),
        ("reserved", c_int32),
    ]


class ArrowSchema(Structure):
    """``struct ArrowSchema`` of the Arrow C Data Interface (the standard ABI; no Arrow library
    involved). ``fw_form_check_arrow`` borrows it: whoever made it releases it."""


class ArrowArray(Structure):
    """``struct ArrowArray`` of the Arrow C Data Interface (borrowed by ``fw_form_check_arrow``)."""


class ArrowArrayStream(Structure):
    """``struct ArrowArrayStream`` of the Arrow C stream interface (read by formwell.arrow only)."""


ArrowSchema._fields_ = [
    ("format", c_char_p),
    ("name", c_char_p),
    ("metadata", c_void_p),
    ("flags", c_int64),
    ("n_children", c_int64),
    ("children", POINTER(POINTER(ArrowSchema))),
    ("dictionary", POINTER(ArrowSchema)),
    ("release", CFUNCTYPE(None, POINTER(ArrowSchema))),
    ("private_data", c_void_p),
]
ArrowArray._fields_ = [
    ("length", c_int64),
    ("null_count", c_int64),
    ("offset", c_int64),
    ("n_buffers", c_int64),
    ("n_children", c_int64),
    ("buffers", POINTER(c_void_p)),
    ("children", POINTER(POINTER(ArrowArray))),
    ("dictionary", POINTER(ArrowArray)),
    ("release", CFUNCTYPE(None, POINTER(ArrowArray))),
    ("private_data", c_void_p),
]
ArrowArrayStream._fields_ = [
    ("get_schema", CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowSchema))),
    ("get_next", CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowArray))),
    ("get_last_error", CFUNCTYPE(c_void_p, POINTER(ArrowArrayStream))),
    ("release", CFUNCTYPE(None, POINTER(ArrowArrayStream))),
    ("private_data", c_void_p),
]


_buf = POINTER(c_char)  # char *buf: a ctypes string buffer (c_char array) or None
_out_len = POINTER(c_size_t)

#: name -> (restype, argtypes): the whole C surface of formwell.h.
SIGNATURES: Dict[str, Tuple[Any, List[Any]]] = {
    # library
    "fw_version": (c_char_p, []),
    "fw_abi_version": (c_int32, []),
    "fw_status_string": (c_char_p, [c_int32]),
    "fw_last_error_code": (fw_status, []),
    "fw_last_error_message": (fw_status, [_buf, c_size_t, _out_len]),
    "fw_last_error_offset": (c_int64, []),
    # forms
    "fw_form_create": (fw_status, [POINTER(FormHandle)]),
    "fw_form_free": (fw_status, [FormHandle]),
    "fw_form_add_field": (fw_status, [FormHandle, c_char_p, c_char_p, c_char_p]),
    "fw_form_touch_all": (fw_status, [FormHandle]),
    "fw_form_validate": (fw_status, [FormHandle, POINTER(c_bool)]),
    "fw_form_reset": (fw_status, [FormHandle]),
    "fw_form_set_match_limits": (fw_status, [FormHandle, c_uint32, c_uint32, c_uint32]),
    "fw_form_is_valid": (fw_status, [FormHandle, POINTER(c_bool)]),
    "fw_form_first_invalid": (fw_status, [FormHandle, _buf, c_size_t, _out_len]),
    "fw_form_field_count": (fw_status, [FormHandle, POINTER(c_size_t)]),
    "fw_form_field_id": (fw_status, [FormHandle, c_size_t, _buf, c_size_t, _out_len]),
    "fw_form_focused_field": (fw_status, [FormHandle, POINTER(c_size_t), POINTER(c_bool)]),
    "fw_form_live_count": (c_size_t, []),
    "fw_form_match_limits": (
        fw_status,
        [FormHandle, POINTER(c_uint32), POINTER(c_uint32), POINTER(c_uint32)],
    ),
    "fw_form_set_time_limit": (fw_status, [FormHandle, c_uint32]),
    "fw_form_time_limit": (fw_status, [FormHandle, POINTER(c_uint32)]),
    # form-level state, modes, groups, external errors, live changes, change tracking
    "fw_form_get_info": (fw_status, [FormHandle, POINTER(fw_form_info)]),
    "fw_form_set_mode": (fw_status, [FormHandle, c_int32]),
    "fw_field_set_mode": (fw_status, [FormHandle, c_char_p, c_int32]),
    "fw_form_set_error_mode": (fw_status, [FormHandle, c_int32]),
    "fw_field_add_group": (fw_status, [FormHandle, c_char_p, c_char_p]),
    "fw_form_validate_group": (fw_status, [FormHandle, c_char_p, POINTER(c_bool)]),
    "fw_form_touch_all_group": (fw_status, [FormHandle, c_char_p]),
    "fw_form_is_valid_group": (fw_status, [FormHandle, c_char_p, POINTER(c_bool)]),
    "fw_form_first_invalid_group": (fw_status, [FormHandle, c_char_p, _buf, c_size_t, _out_len]),
    "fw_field_in_group": (fw_status, [FormHandle, c_char_p, c_char_p, POINTER(c_bool)]),
    "fw_field_set_error": (fw_status, [FormHandle, c_char_p, c_char_p]),
    "fw_field_clear_error": (fw_status, [FormHandle, c_char_p]),
    "fw_form_clear_errors": (fw_status, [FormHandle]),
    "fw_form_remove_field": (fw_status, [FormHandle, c_char_p]),
    # normalisers and secret fields
    "fw_field_set_normalizers": (fw_status, [FormHandle, c_char_p, POINTER(c_int32), c_size_t]),
    "fw_field_normalizers": (fw_status, [FormHandle, c_char_p, POINTER(c_int32), c_size_t, POINTER(c_size_t)]),
    "fw_field_normalized_value": (fw_status, [FormHandle, c_char_p, _buf, c_size_t, _out_len]),
    "fw_field_set_secret": (fw_status, [FormHandle, c_char_p, c_bool]),
    "fw_form_reset_values": (fw_status, [FormHandle, POINTER(c_char_p), POINTER(c_char_p), c_size_t]),
    "fw_form_changed_since": (fw_status, [FormHandle, c_uint64, POINTER(c_size_t), c_size_t, _out_len]),
    "fw_form_announcement": (fw_status, [FormHandle, _buf, c_size_t, _out_len]),
    # rules
    "fw_field_add_required": (fw_status, [FormHandle, c_char_p, c_char_p]),
    "fw_field_add_email": (fw_status, [FormHandle, c_char_p, c_char_p]),
    "fw_field_add_phone": (fw_status, [FormHandle, c_char_p, c_char_p]),
    "fw_field_add_min_length": (fw_status, [FormHandle, c_char_p, c_int32, c_char_p]),
    "fw_field_add_max_length": (fw_status, [FormHandle, c_char_p, c_int32, c_char_p]),
    "fw_field_add_regex": (fw_status, [FormHandle, c_char_p, c_char_p, c_char_p]),
    "fw_field_add_matches": (fw_status, [FormHandle, c_char_p, c_char_p, c_char_p]),
    "fw_field_add_rule_json": (fw_status, [FormHandle, c_char_p, c_char_p]),
    "fw_form_define_rule_set": (fw_status, [FormHandle, c_char_p, c_char_p]),
    "fw_rule_catalog": (fw_status, [_buf, c_size_t, _out_len]),
    "fw_field_add_custom": (
        fw_status,
        [FormHandle, c_char_p, fw_validate_fn, c_void_p, fw_destroy_fn, c_char_p],
    ),
    "fw_form_add_field_with_rules": (
        fw_status,
        [FormHandle, c_char_p, c_char_p, c_char_p, POINTER(fw_rule), c_size_t],
    ),
    # form specs (JSON); declared for completeness, not yet wrapped by the Python API
    "fw_form_load_spec": (fw_status, [FormHandle, c_char_p]),
    "fw_form_export_spec": (fw_status, [FormHandle, _buf, c_size_t, _out_len]),
    "fw_form_define_validator": (fw_status, [FormHandle, c_char_p, fw_validate_fn, c_void_p, fw_destroy_fn]),
    # field events and queries
    "fw_field_focus": (fw_status, [FormHandle, c_char_p]),
    "fw_field_blur": (fw_status, [FormHandle, c_char_p]),
    "fw_field_set_value": (fw_status, [FormHandle, c_char_p, c_char_p]),
    "fw_field_touch": (fw_status, [FormHandle, c_char_p]),
    "fw_field_phase": (fw_status, [FormHandle, c_char_p, POINTER(fw_phase)]),
    "fw_field_validity": (fw_status, [FormHandle, c_char_p, POINTER(fw_validity)]),
    "fw_field_display": (fw_status, [FormHandle, c_char_p, POINTER(fw_display)]),
    "fw_field_touched": (fw_status, [FormHandle, c_char_p, POINTER(c_bool)]),
    "fw_field_limit_exceeded": (fw_status, [FormHandle, c_char_p, POINTER(c_bool)]),
    "fw_field_message": (fw_status, [FormHandle, c_char_p, _buf, c_size_t, _out_len]),
    "fw_field_display_message": (fw_status, [FormHandle, c_char_p, _buf, c_size_t, _out_len]),
    "fw_field_value": (fw_status, [FormHandle, c_char_p, _buf, c_size_t, _out_len]),
    # fields by index (the hot path)
    "fw_form_field_index": (fw_status, [FormHandle, c_char_p, POINTER(c_size_t)]),
    "fw_field_set_value_at": (fw_status, [FormHandle, c_size_t, c_char_p]),
    "fw_field_focus_at": (fw_status, [FormHandle, c_size_t]),
    "fw_field_blur_at": (fw_status, [FormHandle, c_size_t]),
    "fw_field_touch_at": (fw_status, [FormHandle, c_size_t]),
    # snapshots: a field's whole state in one call
    "fw_field_snapshot": (fw_status, [FormHandle, c_char_p, POINTER(fw_snapshot), _buf, c_size_t]),
    "fw_field_snapshot_at": (fw_status, [FormHandle, c_size_t, POINTER(fw_snapshot), _buf, c_size_t]),
    "fw_field_update": (
        fw_status,
        [FormHandle, c_char_p, c_char_p, POINTER(fw_snapshot), _buf, c_size_t],
    ),
    "fw_field_update_at": (
        fw_status,
        [FormHandle, c_size_t, c_char_p, POINTER(fw_snapshot), _buf, c_size_t],
    ),
    "fw_form_snapshots": (
        fw_status,
        [FormHandle, POINTER(fw_snapshot), c_size_t, _out_len, _buf, c_size_t, _out_len],
    ),
    # batches: many records checked as submits in one call (Form.check_many)
    "fw_form_check_batch": (
        fw_status,
        [FormHandle, POINTER(fw_column), c_size_t, c_size_t, c_int32, POINTER(c_uint8), POINTER(c_int32),
         POINTER(c_uint8), _out_len],
    ),
    "fw_form_batch_message": (
        fw_status,
        [FormHandle, POINTER(fw_column), c_size_t, c_size_t, c_size_t, c_size_t, _buf, c_size_t, _out_len],
    ),
    "fw_form_rule_message": (fw_status, [FormHandle, c_size_t, c_size_t, _buf, c_size_t, _out_len]),
    # Arrow C Data Interface: a record batch (struct array) checked in place (formwell.arrow)
    "fw_form_check_arrow": (
        fw_status,
        [FormHandle, POINTER(ArrowSchema), POINTER(ArrowArray), c_int32, POINTER(c_uint8), POINTER(c_int32),
         POINTER(c_uint8), _out_len],
    ),
    "fw_form_arrow_message": (
        fw_status,
        [FormHandle, POINTER(ArrowSchema), POINTER(ArrowArray), c_size_t, c_size_t, _buf, c_size_t, _out_len],
    ),
    # asynchronous rules (the host checks; requests and results on the host's clock)
    "fw_field_add_async_rule": (fw_status, [FormHandle, c_char_p, c_char_p, c_uint32, c_char_p]),
    "fw_form_tick": (fw_status, [FormHandle, c_uint64]),
    "fw_form_next_request": (fw_status, [FormHandle, c_uint64, POINTER(fw_request), _buf, c_size_t, POINTER(c_bool)]),
    "fw_form_resolve": (fw_status, [FormHandle, c_uint64, c_int32, c_char_p, POINTER(c_bool)]),
    "fw_form_submit": (fw_status, [FormHandle, c_char_p, POINTER(c_int32)]),
    "fw_form_next_due_time": (fw_status, [FormHandle, POINTER(c_uint64), POINTER(c_bool)]),
    # which fields wait for a check, whatever their modes show; the focused field; group membership
    "fw_form_pending_fields": (fw_status, [FormHandle, POINTER(c_size_t), c_size_t, POINTER(c_size_t)]),
    # messages as codes + parameters + locales; single-value checks
    "fw_form_set_locale": (fw_status, [FormHandle, c_char_p]),
    "fw_form_locale": (fw_status, [FormHandle, _buf, c_size_t, _out_len]),
    "fw_locales": (fw_status, [_buf, c_size_t, _out_len]),
    "fw_message_catalog": (fw_status, [c_char_p, _buf, c_size_t, _out_len]),
    "fw_add_message_catalog": (fw_status, [c_char_p]),
    "fw_form_rule_code": (fw_status, [FormHandle, c_size_t, c_size_t, _buf, c_size_t, _out_len]),
    "fw_form_rule_params": (fw_status, [FormHandle, c_size_t, c_size_t, _buf, c_size_t, _out_len]),
    "fw_check_value": (fw_status, [c_char_p, c_char_p, c_char_p, POINTER(fw_check_result), _buf, c_size_t]),
}


#: Functions a library may lack and still be loaded (added to ABI 1 after its first release, or not
#: used by the Python API); calling one the library lacks raises AttributeError. The snapshot,
#: index and add_field_with_rules functions are not optional: Form.state, set, states, add_field
#: and match_limits are built on them, so an ABI 1 library from before them is skipped ("an older
#: libformwell") and the search goes on. Neither are the form-behaviour functions (fw_form_get_info,
#: modes, groups, external errors, change tracking): a library that has them also writes version 2
#: snapshots, which every FieldState reads. Nor the asynchronous ones (fw_form_submit and the rest):
#: the form reads fw_form_info's version 2 members (pending_count, stale_results) and may meet
#: FW_VALIDITY_PENDING in any snapshot. Nor fw_form_pending_fields, fw_form_focused_field and
#: fw_field_in_group: Form.pending_fields, Form.focused and a group's submit are built on them. Nor
#: the message functions (fw_form_set_locale and the rest): a library that has them writes version 4
#: snapshots, whose codes every FieldState reads.
OPTIONAL = frozenset({
    "fw_form_set_match_limits",
    "fw_field_limit_exceeded",
    "fw_form_load_spec",
    "fw_form_export_spec",
    "fw_form_define_validator",
    "fw_form_check_batch",
    "fw_form_batch_message",
    "fw_form_rule_message",
    "fw_form_set_time_limit",
    "fw_form_time_limit",
    "fw_form_check_arrow",
    "fw_form_arrow_message",
})

#: Which declared functions the loaded library lacks (filled in by :func:`load_library`).
missing_functions: List[str] = []

# ---- loading ----


def _candidates() -> Iterator[Tuple[str, str]]:
    """(description, name or path) pairs in the documented search order, produced lazily.

    The last candidate, ``ctypes.util.find_library("formwell")``, is only worked out when every
    earlier one was refused: ``find_library`` runs ``ldconfig`` (and may run ``gcc`` or ``ld``) in
    subprocesses, which would cost far more than loading the library itself. ``ctypes.util`` is
    imported there and then, not at import time.
    """
    yield (f"${LIBRARY_ENV}", os.environ.get(LIBRARY_ENV) or "")
    yield ("bundled copy", os.path.join(os.path.dirname(os.path.abspath(__file__)), "_lib", "libformwell.so"))
    for soname in SONAMES:
        yield ("system loader", soname)
    try:
        from ctypes.util import find_library

        located = find_library("formwell")
    except Exception:  # pragma: no cover - find_library shells out; never fatal
        located = None
    if located and located not in SONAMES:
        yield ("ctypes.util.find_library('formwell')", located)


def _declare(lib: ctypes.CDLL) -> None:
    for name, (restype, argtypes) in SIGNATURES.items():
        if not hasattr(lib, name):
            missing_functions.append(name)
            continue
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


def load_library() -> Tuple[ctypes.CDLL, str]:
    """Finds, loads and checks libformwell; returns the library and the path or name it came from.

    Raises ImportError naming every place tried when none loads, or when the library's ABI number
    is not :data:`ABI_VERSION`.
    """
    tried: List[str] = []
    for description, target in _candidates():
        if not target:
            tried.append(f"  {description}: not set")
            continue
        if os.sep in target and not os.path.exists(target):
            tried.append(f"  {description}: {target}: no such file")
            continue
        try:
            lib = ctypes.CDLL(target)
        except OSError as error:
            tried.append(f"  {description}: {target}: {error}")
            continue
        missing = [name for name in SIGNATURES if name not in OPTIONAL and not hasattr(lib, name)]
        if missing:
            what = "an older libformwell" if hasattr(lib, "fw_abi_version") else "not libformwell"
            tried.append(f"  {description}: {target}: {what} (missing {', '.join(missing[:3])})")
            continue
        _declare(lib)
        abi = lib.fw_abi_version()
        if abi != ABI_VERSION:
            raise ImportError(
                f"formwell: {target} has ABI {abi}, but this binding was written for ABI {ABI_VERSION}; "
                f"install the matching libformwell or binding"
            )
        return lib, target
    raise ImportError(
        "formwell: cannot load libformwell.so; tried, in order:\n"
        + "\n".join(tried)
        + f"\nSet {LIBRARY_ENV} to the path of libformwell.so (e.g. .build/release/libformwell.so "
        "after `make lib`)."
    )


lib, library_path = load_library()


def _untyped(name: str) -> Any:
    """A second function object for ``name`` with no ``argtypes`` (restype ``fw_status``).

    ctypes converts every argument of a declared function through its type's ``from_param``, which
    costs more than the C call of the hot paths. These twins skip it, so they must only ever be
    called with ctypes instances of the exact C types (the ``FormHandle``, ``c_size_t`` objects,
    ``byref`` of the struct, a ``c_char`` array, ``bytes`` for ``const char *``): ctypes then
    passes each as is. Everything else uses the declared functions of :data:`lib`.
    """
    function = lib[name]  # lib[name] makes a new function object; lib.name is the declared one
    function.restype = fw_status
    return function


#: Untyped twins (see :func:`_untyped`) of the functions on the hot path of Form.state / set.
raw_snapshot_at = _untyped("fw_field_snapshot_at")
raw_update_at = _untyped("fw_field_update_at")
raw_set_value_at = _untyped("fw_field_set_value_at")

# ---- calling helpers ----

#: Per-thread slot for an exception raised inside a Python custom validator; the call that triggered
#: validation re-raises it.
_pending = threading.local()


def stash_exception(error: BaseException) -> None:
    """Called by the validator trampoline: keeps the exception for the triggering call."""
    _pending.error = error


def take_pending() -> Optional[BaseException]:
    error = getattr(_pending, "error", None)
    _pending.error = None
    return error


def last_error_message() -> str:
    """The calling thread's last detail message (fw_last_error_message)."""
    return read_string(lambda buf, size, length: lib.fw_last_error_message(buf, size, length), check=False)


def read_string(call: Any, check: bool = True) -> str:
    """Runs a buffer-style C call: a 256-byte buffer first, then exactly the reported length + 1."""
    size = 256
    for _ in range(4):
        buf = ctypes.create_string_buffer(size)
        length = c_size_t(0)
        status = call(buf, size, ctypes.byref(length))
        if status == FW_ERR_BUFFER_TOO_SMALL and length.value + 1 > size:
            size = length.value + 1
            continue
        if status != FW_OK:
            if check:
                raise_for_status(status)
            return ""
        return buf.raw[: length.value].decode("utf-8", errors="replace")
    raise_for_status(FW_ERR_BUFFER_TOO_SMALL)  # the text kept growing: give up honestly
    raise AssertionError("unreachable")  # pragma: no cover


def raise_for_status(status: int) -> None:
    """Raises the exception mapped from ``status`` (with the thread's detail and offset), or the
    exception a Python custom validator raised during the call. Does nothing for FW_OK."""
    pending = take_pending()
    if status == FW_OK and pending is None:
        return
    if status == FW_OK:  # pragma: no cover - the library reported success despite a failed callback
        raise pending  # type: ignore[misc]
    detail = last_error_message()
    offset = lib.fw_last_error_offset()
    error = error_for_status(status, detail, offset if offset >= 0 else None)
    if pending is None:
        raise error
    # Re-raise what the validator raised, unchanged in type, chained to the library's report.
    if hasattr(pending, "add_note"):
        pending.add_note(f"formwell: {detail} (status {status})")
    if pending.__context__ is None:
        pending.__context__ = error
    raise pending.with_traceback(pending.__traceback__)


def check(status: int) -> None:
    """Fast path for the common case; raises as :func:`raise_for_status` otherwise."""
    if status != FW_OK or getattr(_pending, "error", None) is not None:
        raise_for_status(status)
