"""The :class:`Form` class and the per-field state it reports."""

from __future__ import annotations

import enum
import sys
from ctypes import byref, c_bool, c_int, c_size_t
from dataclasses import dataclass
import json
import os
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Union

from . import _native
from ._native import FW_ERR_UNKNOWN_FIELD, FW_OK, check, lib, read_string
from .errors import InvalidArgumentError, InvalidHandleError
from .rules import (
    _DESTROY_FN,
    _VALIDATE_FN,
    Custom,
    Matches,
    Rule,
    Validator,
    _define_validator,
    _encode,
    _encode_optional,
)

#: What :meth:`Form.from_spec` accepts: a spec dict, JSON text, or the path of a JSON file.
SpecSource = Union[Mapping[str, Any], str, "os.PathLike[str]"]

__all__ = ["Form", "FieldState", "Phase", "Validity", "Display", "live_forms"]


class Phase(enum.Enum):
    """Where a field is in its interaction cycle (``fw_phase``)."""

    #: Waiting for interaction, or left empty and optional.
    IDLE = 0
    #: Being edited: the lenient stage applies (required is not checked, empty is not an error).
    FOCUSED = 1
    #: Not being edited: the strict stage applies.
    INACTIVE = 2


class Validity(enum.Enum):
    """How the value fares in the current phase (``fw_validity``); an idle field reads EMPTY."""

    EMPTY = 0
    VALID = 1
    INVALID = 2


class Display(enum.Enum):
    """What a view should surface under the field (``fw_display``): nothing until touched."""

    NONE = 0
    VALID = 1
    ERROR = 2


@dataclass(frozen=True)
class FieldState:
    """A snapshot of one field, as returned by :meth:`Form.state`.

    Attributes:
        id: the field id.
        value: the current value.
        phase: :class:`Phase` (idle, focused, inactive).
        validity: :class:`Validity` in the current phase.
        message: the message of an INVALID validity, else ``""``.
        display: :class:`Display`: what a view should show (NONE until the field is touched).
        display_message: the error to show when ``display`` is ERROR, else ``""``.
        touched: whether the field was blurred or touched since it was added or the form reset.
        limit_exceeded: whether the verdict comes from a pattern that hit its match limits (the
            field is invalid because it could not be checked; see :meth:`Form.set_match_limits`).
    """

    id: str
    value: str
    phase: Phase
    validity: Validity
    message: str
    display: Display
    display_message: str
    touched: bool
    limit_exceeded: bool = False

    @property
    def error(self) -> Optional[str]:
        """The message to show under the field, or ``None`` (seed 03's surfacing rule)."""
        return self.display_message if self.display is Display.ERROR else None


def live_forms() -> int:
    """The number of forms created and not yet closed in this process (``fw_form_live_count``)."""
    return int(lib.fw_form_live_count())


class Form:
    """A form: fields, their rules, and their two-stage validation state.

    Every method may raise a :class:`formwell.FormwellError` subclass mapped from the library's
    result code; an unknown field id raises :class:`formwell.UnknownFieldError` (a ``KeyError``).
    Strings must not contain NUL characters (``ValueError``) or lone surrogates
    (``UnicodeEncodeError``).

    A form owns a library handle: release it with :meth:`close` or a ``with`` block (``__del__``
    also releases it, except while the interpreter shuts down, when the process reclaims it).
    One form may be used from several threads (the library serializes calls on it); custom
    validators run on the thread that triggered them.

    Example::

        with Form() as form:
            form.add_field("email", [Required(), Email()])
            form.focus("email")
            form["email"] = "ada@example"
            form.blur("email")
            form.state("email").display_message   # 'Invalid email format'
    """

    # Bound once so __del__ needs no module globals (they may be gone at interpreter shutdown), and
    # so the C function pointers of custom rules outlive every form that may call them.
    _free_fn = staticmethod(lib.fw_form_free)
    _is_finalizing = staticmethod(sys.is_finalizing)
    _callback_keepalive = (_VALIDATE_FN, _DESTROY_FN)

    _handle: Optional[Any] = None

    def __init__(self) -> None:
        handle = _native.FormHandle()
        check(lib.fw_form_create(byref(handle)))
        self._handle = handle

    # ---- lifetime ----

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle is None

    def close(self) -> None:
        """Frees the form and its custom rules. Further calls raise InvalidHandleError.
        Closing twice is a no-op."""
        handle, self._handle = self._handle, None
        if handle is not None:
            check(self._free_fn(handle))

    def __enter__(self) -> "Form":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        handle = self._handle
        if handle is None:
            return
        self._handle = None
        try:
            if not self._is_finalizing():
                self._free_fn(handle)
        except BaseException:  # pragma: no cover - never raise from a finalizer
            pass

    @property
    def _h(self) -> Any:
        handle = self._handle
        if handle is None:
            raise InvalidHandleError("the form is closed", 2)
        return handle

    def __repr__(self) -> str:
        if self._handle is None:
            return "<formwell.Form closed>"
        return f"<formwell.Form fields={self.field_ids!r}>"

    # ---- registration ----

    def add_field(
        self,
        field_id: str,
        rules: Iterable[Rule] = (),
        label: Optional[str] = None,
        initial: Optional[str] = None,
    ) -> None:
        """Adds a field with its rules (run in order, the first failure wins).

        Args:
            field_id: non-empty, unique in the form.
            rules: rule objects (:class:`formwell.Required`, :class:`formwell.Email`, ...).
            label: how messages of other fields name this one (default: the id).
            initial: the value now and after :meth:`reset` (default: empty).

        The built-in rules are checked on a scratch form first, so a bad pattern, a bad length or
        an unknown :class:`formwell.Matches` target raises without adding anything. Only a
        :class:`formwell.Custom` validator raising on the initial value can leave the field added
        with the rules before it.
        """
        handle = self._h
        fid = _encode(field_id, "field id")
        label_b = _encode_optional(label, "label")
        initial_b = _encode_optional(initial, "initial")
        rule_list = list(rules)
        for rule in rule_list:
            if not isinstance(rule, Rule):
                raise TypeError(f"rules must be formwell rule objects, not {type(rule).__name__}")
        if any(not isinstance(rule, Custom) for rule in rule_list) and not self._has_field(fid):
            self._dry_run(fid, label_b, initial_b, rule_list)
        check(lib.fw_form_add_field(handle, fid, label_b, initial_b))
        for rule in rule_list:
            check(rule._add(handle, fid))

    def _has_field(self, fid: bytes) -> bool:
        phase = c_int(0)
        status = lib.fw_field_phase(self._h, fid, byref(phase))
        if status == FW_OK:
            return True
        if status == FW_ERR_UNKNOWN_FIELD:
            return False
        check(status)
        return False  # pragma: no cover

    def _dry_run(self, fid: bytes, label: Optional[bytes], initial: Optional[bytes], rules: List[Rule]) -> None:
        scratch = _native.FormHandle()
        check(lib.fw_form_create(byref(scratch)))
        try:
            for rule in rules:
                if isinstance(rule, Matches):
                    other = _encode(rule.field_id, "Matches field_id")
                    if other != fid and self._has_field(other):
                        lib.fw_form_add_field(scratch, other, None, None)  # twice is harmless
            check(lib.fw_form_add_field(scratch, fid, label, initial))
            for rule in rules:
                if not isinstance(rule, Custom):
                    check(rule._add(scratch, fid))
        finally:
            lib.fw_form_free(scratch)

    # ---- specs ----

    @classmethod
    def from_spec(cls, spec: SpecSource, validators: Optional[Mapping[str, Validator]] = None) -> "Form":
        """A form built from a JSON form spec (``{"formwell": 1, "fields": [...]}``).

        ``spec`` is a dict, JSON text (a ``str`` starting with ``{``), or the path of a JSON file
        (``str`` or ``os.PathLike``). ``validators`` maps the names that ``custom`` rules use to
        callables with :class:`Custom`'s contract. A bad spec raises
        :class:`formwell.InvalidSpecError`, whose detail names the JSON path and the problem (and
        ``.offset`` the position in a rejected pattern).
        """
        form = cls()
        try:
            form.load_spec(spec, validators)
        except BaseException:
            form.close()
            raise
        return form

    def define_validator(self, name: str, validate: Validator) -> None:
        """Makes ``validate`` available to specs loaded later as ``{"rule": "custom", "name": name}``."""
        check(_define_validator(self._h, _encode(name, "validator name"), validate))

    def load_spec(self, spec: SpecSource, validators: Optional[Mapping[str, Validator]] = None) -> None:
        """Adds a spec's fields and rules to this form, all or nothing (see :meth:`from_spec`)."""
        for name, validate in (validators or {}).items():
            self.define_validator(name, validate)
        check(lib.fw_form_load_spec(self._h, _encode(_spec_text(spec), "spec")))

    def to_spec(self) -> Dict[str, Any]:
        """This form's definition (fields, labels, initial values, rules) as a spec dict.
        Raises :class:`formwell.InvalidArgumentError` if a rule is an anonymous :class:`Custom`."""
        return json.loads(self.to_spec_json())

    def to_spec_json(self) -> str:
        """The spec as the library writes it: pretty-printed, keys sorted, stable across a reload."""
        handle = self._h
        return read_string(lambda buf, size, length: lib.fw_form_export_spec(handle, buf, size, length))

    # ---- events ----

    def set_value(self, field_id: str, value: str) -> None:
        """Sets the value (typing or programmatic): lenient stage if the field is focused, else
        strict. Fields with a :class:`formwell.Matches` rule naming this field are re-checked."""
        check(lib.fw_field_set_value(self._h, _encode(field_id, "field id"), _encode(value, "value")))

    def __setitem__(self, field_id: str, value: str) -> None:
        self.set_value(field_id, value)

    def focus(self, field_id: str) -> None:
        """The field gains focus (lenient stage); the field that had focus is blurred first."""
        check(lib.fw_field_focus(self._h, _encode(field_id, "field id")))

    def blur(self, field_id: str) -> None:
        """The field loses focus (strict stage) and counts as touched."""
        check(lib.fw_field_blur(self._h, _encode(field_id, "field id")))

    def touch(self, field_id: str) -> None:
        """Marks the field touched and runs its rules."""
        check(lib.fw_field_touch(self._h, _encode(field_id, "field id")))

    def touch_all(self) -> None:
        """Marks every field touched and runs every rule."""
        check(lib.fw_form_touch_all(self._h))

    def validate(self) -> bool:
        """Submit: touches every field, applies the strict stage, returns whether all are valid.
        A focused field keeps its focus."""
        valid = c_bool(False)
        check(lib.fw_form_validate(self._h, byref(valid)))
        return bool(valid.value)

    def set_match_limits(
        self, match_limit: int = 1_000_000, depth_limit: int = 100_000, heap_limit_kib: int = 16_384
    ) -> None:
        """Sets the PCRE2 limits of every pattern rule of the form (Email, Phone, Regex) and re-runs
        every field's rules under them (defaults shown). A value that hits a limit makes its field
        invalid with "This value is too complex to check" and :attr:`FieldState.limit_exceeded`
        true; never valid, never a hang. Each limit must be in 1 ... 2**32 - 1."""
        limits = []
        for name, limit in (("match_limit", match_limit), ("depth_limit", depth_limit),
                            ("heap_limit_kib", heap_limit_kib)):
            if isinstance(limit, bool) or not isinstance(limit, int):
                raise TypeError(f"{name} must be an int, not {type(limit).__name__}")
            if not 0 <= limit <= 0xFFFFFFFF:  # 0 is left to the library to refuse
                raise InvalidArgumentError(f"{name} {limit} is out of range (1 ... 4294967295)", 7)
            limits.append(limit)
        check(lib.fw_form_set_match_limits(self._h, *limits))

    def reset(self) -> None:
        """Every value back to its initial value; every field idle, untouched and unfocused."""
        check(lib.fw_form_reset(self._h))

    # ---- queries ----

    def value(self, field_id: str) -> str:
        """The field's current value."""
        handle, fid = self._h, _encode(field_id, "field id")
        return read_string(lambda buf, size, length: lib.fw_field_value(handle, fid, buf, size, length))

    def __getitem__(self, field_id: str) -> str:
        return self.value(field_id)

    def __contains__(self, field_id: object) -> bool:
        if not isinstance(field_id, str) or "\0" in field_id:
            return False
        try:
            fid = field_id.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return self._has_field(fid)

    def __bool__(self) -> bool:
        """A form is always true, even with no fields (``__len__`` counts fields)."""
        return True

    def __len__(self) -> int:
        """The number of fields."""
        count = c_size_t(0)
        check(lib.fw_form_field_count(self._h, byref(count)))
        return int(count.value)

    def __iter__(self) -> Iterator[str]:
        return iter(self.field_ids)

    @property
    def field_ids(self) -> List[str]:
        """Field ids in registration order."""
        handle = self._h
        ids = []
        for index in range(len(self)):
            ids.append(
                read_string(lambda buf, size, length: lib.fw_form_field_id(handle, index, buf, size, length))
            )
        return ids

    @property
    def values(self) -> Dict[str, str]:
        """Every field's current value, in registration order (a new dict each time)."""
        return {field_id: self.value(field_id) for field_id in self.field_ids}

    def state(self, field_id: str) -> FieldState:
        """A :class:`FieldState` snapshot of the field."""
        handle, fid = self._h, _encode(field_id, "field id")
        phase, validity, display = c_int(0), c_int(0), c_int(0)
        touched, exceeded = c_bool(False), c_bool(False)
        check(lib.fw_field_phase(handle, fid, byref(phase)))
        check(lib.fw_field_validity(handle, fid, byref(validity)))
        check(lib.fw_field_display(handle, fid, byref(display)))
        check(lib.fw_field_touched(handle, fid, byref(touched)))
        check(lib.fw_field_limit_exceeded(handle, fid, byref(exceeded)))
        message = read_string(lambda buf, size, length: lib.fw_field_message(handle, fid, buf, size, length))
        shown = read_string(lambda buf, size, length: lib.fw_field_display_message(handle, fid, buf, size, length))
        value = read_string(lambda buf, size, length: lib.fw_field_value(handle, fid, buf, size, length))
        return FieldState(
            id=field_id,
            value=value,
            phase=Phase(phase.value),
            validity=Validity(validity.value),
            message=message,
            display=Display(display.value),
            display_message=shown,
            touched=bool(touched.value),
            limit_exceeded=bool(exceeded.value),
        )

    @property
    def is_valid(self) -> bool:
        """Whether every field passes its strict rules on its current value, touched or not (a
        submit button's enabled state). Runs no validator."""
        valid = c_bool(False)
        check(lib.fw_form_is_valid(self._h, byref(valid)))
        return bool(valid.value)

    @property
    def first_invalid(self) -> Optional[str]:
        """The id of the first field (registration order) failing its strict rules, or ``None``."""
        handle = self._h
        found = read_string(lambda buf, size, length: lib.fw_form_first_invalid(handle, buf, size, length))
        return found or None


def _spec_text(spec: SpecSource) -> str:
    if isinstance(spec, Mapping):
        return json.dumps(spec)
    if isinstance(spec, str) and spec.lstrip().startswith("{"):
        return spec
    if isinstance(spec, (str, os.PathLike)):
        with open(spec, encoding="utf-8") as file:
            return file.read()
    raise TypeError(f"a spec is a dict, JSON text or a path, not {type(spec).__name__}")
