"""The :class:`Form` class and the per-field state it reports."""

from __future__ import annotations

import enum
import os
import sys
import time
from ctypes import addressof, byref, c_bool, c_char_p, c_int32, c_size_t, c_uint32, c_uint64, create_string_buffer, sizeof
from dataclasses import dataclass, field as _member
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Mapping, NamedTuple, Optional, Tuple, Union

from . import _async, _native, batch
from ._async import (
    CheckError,
    Outcome,
    Request,
    Resolution,
    SubmitResult,
    Verdict,
    register_check,
    registered_checks,
    unregister_check,
)

if TYPE_CHECKING:  # pragma: no cover
    from .arrow import TableCheckResult
from ._native import FW_ERR_UNKNOWN_FIELD, FW_OK, check, lib, read_string
from .messages import _locale_bytes
from .errors import InvalidArgumentError, InvalidHandleError
from .rules import (
    _DESTROY_FN,
    _VALIDATE_FN,
    AsyncCheck,
    AsyncRule,
    Rule,
    RuleSet,
    Validator,
    _define_validator,
    _encode,
    _encode_optional,
    _release_context,
)

#: What :meth:`Form.from_spec` accepts: a spec dict, JSON text, or the path of a JSON file.
SpecSource = Union[Mapping[str, Any], str, "os.PathLike[str]"]

__all__ = ["Form", "FieldState", "MatchLimits", "Phase", "Validity", "Display", "Mode", "Tint", "Normalizer", "live_forms",
           "register_validator", "unregister_validator", "registered_validators",
           "Request", "Verdict", "Resolution", "Outcome", "SubmitResult", "CheckError",
           "register_check", "unregister_check", "registered_checks"]

#: name -> validator: what a spec's ``{"rule": "custom", "name": ...}`` resolves against when the
#: spec is loaded without that name in ``validators=`` (see :func:`register_validator`).
_registry: Dict[str, Validator] = {}


def register_validator(name: str, validate: Optional[Validator] = None) -> Any:
    """Registers ``validate`` in this process under ``name``: every spec loaded afterwards
    (:meth:`Form.from_spec`, :meth:`Form.load_spec`, unpickling a :class:`Form`) whose ``custom``
    rules name it gets it, unless the load's own ``validators=`` names it too (that one wins).

    This is how custom rules travel to other processes: a form pickles as its spec (names only), so
    each worker registers the same names, e.g. in a module it imports, and the names resolve there.
    Registering a name again replaces the validator for loads that come later (forms already made
    keep theirs). Usable as a decorator: ``@register_validator("username_free")``.
    """
    if not isinstance(name, str) or not name:
        raise TypeError("a validator name is a non-empty str")
    if validate is None:
        def decorate(function: Validator) -> Validator:
            register_validator(name, function)
            return function

        return decorate
    if not callable(validate):
        raise TypeError(f"a validator must be callable, not {type(validate).__name__}")
    _registry[name] = validate
    return validate


def unregister_validator(name: str) -> None:
    """Forgets a name given to :func:`register_validator` (``KeyError`` if it was not)."""
    del _registry[name]


def registered_validators() -> Dict[str, Validator]:
    """A copy of the process-wide registry of :func:`register_validator`."""
    return dict(_registry)


def _custom_names(spec: Any) -> List[str]:
    """The validator names a spec's ``custom`` rules use (a spec the library will judge; anything
    malformed is left for it to report)."""
    names: List[str] = []
    fields = spec.get("fields") if isinstance(spec, Mapping) else None
    for field in fields if isinstance(fields, list) else []:
        rules = field.get("rules") if isinstance(field, Mapping) else None
        for rule in rules if isinstance(rules, list) else []:
            if isinstance(rule, Mapping) and rule.get("rule") == "custom" and isinstance(rule.get("name"), str):
                names.append(rule["name"])
    return names


def _form_from_spec(spec_json: str) -> "Form":
    """Unpickling a :class:`Form`: its spec, custom rules resolved through the registry."""
    return Form.from_spec(spec_json)


class Phase(enum.Enum):
    """Where a field is in its interaction cycle (``fw_phase``)."""

    #: Waiting for interaction, or left empty and optional.
    IDLE = _native.FW_PHASE_IDLE
    #: Being edited: the lenient stage applies (required is not checked, empty is not an error).
    FOCUSED = _native.FW_PHASE_FOCUSED
    #: Not being edited: the strict stage applies.
    INACTIVE = _native.FW_PHASE_INACTIVE


class Validity(enum.Enum):
    """How the value fares in the current phase (``fw_validity``); an idle field reads EMPTY.

    PENDING: every synchronous rule passes and an asynchronous check (:class:`formwell.AsyncRule`)
    has not answered yet. It is shown like VALID in the phase rules, with no message, display NONE
    and tint ACCENT; :attr:`Form.is_valid` is false while a field is pending, but a pending field
    is not invalid (:attr:`Form.first_invalid` skips it)."""

    EMPTY = _native.FW_VALIDITY_EMPTY
    VALID = _native.FW_VALIDITY_VALID
    INVALID = _native.FW_VALIDITY_INVALID
    PENDING = _native.FW_VALIDITY_PENDING


class Display(enum.Enum):
    """What a view should surface under the field (``fw_display``): nothing until touched."""

    NONE = _native.FW_DISPLAY_NONE
    VALID = _native.FW_DISPLAY_VALID
    ERROR = _native.FW_DISPLAY_ERROR


class Tint(enum.Enum):
    """Seed 01's tint of a field (``fw_tint``), from its phase and shown validity: idle, or inactive
    and empty -> NEUTRAL (the seed's ``.secondary``); focused and not invalid, or inactive and
    valid -> ACCENT (``.blue``); invalid -> ERROR (``.red``)."""

    NEUTRAL = _native.FW_TINT_NEUTRAL
    ACCENT = _native.FW_TINT_ACCENT
    ERROR = _native.FW_TINT_ERROR


class Normalizer(str, enum.Enum):
    """A normaliser (``fw_normalizer``) a field runs, in the order given, on every value before its
    rules (``add_field(..., normalize=[...])``). The rules, :attr:`Form.values` and batches use the
    normalised value (:attr:`FieldState.normalized_value`); :attr:`FieldState.value` stays what was
    set, so a view shows back what the user typed.

    A ``str`` enum: each member equals its spec name, and wherever one is taken the name works too.
    """

    #: White space (Unicode White_Space) removed at both ends; white space only becomes empty, so
    #: a required field fails on it.
    TRIM = "trim"
    #: Every run of white space becomes one space (at the ends too: put TRIM first to drop them).
    COLLAPSE_WHITESPACE = "collapse_whitespace"
    #: Unicode lowercase (full case mapping, locale-independent, Final_Sigma: ``ΟΔΟΣ`` → ``οδος``).
    LOWERCASE = "lowercase"
    #: Unicode Normalization Form C.
    NFC = "nfc"
    #: Only the ASCII digits 0-9 are kept: "(555) 123-4567" becomes "5551234567".
    DIGITS_ONLY = "digits_only"


#: fw_normalizer values: FW_NORMALIZE_ and the member's name.
_NORMALIZER_VALUES = {member: getattr(_native, "FW_NORMALIZE_" + member.name) for member in Normalizer}


def _normalizer_values(normalize: Any) -> List[int]:
    """The fw_normalizer values of a list of Normalizer members or names."""
    if isinstance(normalize, str):
        raise TypeError("normalize must be a list of normalisers, not a str")
    values = []
    for item in normalize:
        if not isinstance(item, str):
            raise TypeError(f"a normaliser must be a Normalizer or its name, not {type(item).__name__}")
        try:
            values.append(_NORMALIZER_VALUES[Normalizer(item)])
        except ValueError:
            names = ", ".join(member.value for member in Normalizer)
            raise InvalidArgumentError(f"unknown normaliser {item!r} (expected one of: {names})",
                                       _native.FW_ERR_INVALID_ARGUMENT) from None
    return values


class Mode(str, enum.Enum):
    """A validation mode (``fw_mode``): when a field's *shown* state (validity, messages, display,
    errors, tint, hint) follows its value. Whatever the mode, :attr:`Form.is_valid` and
    :attr:`Form.first_invalid` judge the current values.

    A ``str`` enum: each member equals its spec name (``Mode.ON_BLUR == "on_blur"``), and wherever a
    mode is taken the name works as well as the member.
    """

    #: Seeds 01-02 (the default): lenient while focused, strict otherwise, shown on every change.
    TWO_STAGE = "two_stage"
    #: Strict on every change, focused or not (errors still surface once touched).
    ON_CHANGE = "on_change"
    #: The shown state is refreshed only by blur, touch, touch_all, validate, set_error and
    #: clear_error (strict); nothing is shown before the first of them.
    ON_BLUR = "on_blur"
    #: As ON_BLUR until the field is touched, then as ON_CHANGE.
    ON_TOUCHED = "on_touched"
    #: Nothing shown until the field takes part in a validate (whole form or one of its groups),
    #: then as ON_CHANGE.
    ON_SUBMIT = "on_submit"

    def __str__(self) -> str:
        return str(self.value)


#: The error modes (``fw_error_mode``), by C value: "first" (the first failing rule's message) or
#: "all" (every failing rule's, in rule order).
ERROR_MODES = ("first", "all")

_FIELDS = ("id", "value", "phase", "validity", "message", "display", "display_message", "touched",
           "limit_exceeded", "failing_rule", "index",
           "visited", "dirty", "initial", "modified_since_submit", "external_error", "errors", "mode",
           "tint", "label_raised", "emphasized", "label", "accessibility_hint", "revision", "normalized_value",
           "secret", "code", "params", "display_code", "display_params", "error_codes")
#: Members a secret field's printed form masks.
_SECRET_MEMBERS = ("value", "normalized_value", "initial")
_tuple_new = tuple.__new__

#: Enum members by C value: indexing a tuple is much cheaper than calling ``Phase(value)``.
_PHASES = tuple(Phase)
_VALIDITIES = tuple(Validity)
_DISPLAYS = tuple(Display)
_TINTS = tuple(Tint)
#: fw_mode values by Mode (FW_MODE_ and the member's name), and Modes by fw_mode value (0 ... 4).
_MODE_VALUES = {mode: getattr(_native, "FW_MODE_" + mode.name) for mode in Mode}
_MODES = tuple(sorted(Mode, key=_MODE_VALUES.__getitem__))
#: Display.ERROR's C value (what error and accessibility_value compare with).
_ERROR_DISPLAY = _DISPLAYS.index(Display.ERROR)

# A FieldState is a tuple of three items: the id; its texts, as a list holding the library's UTF-8
# bytes (to which the decoded texts are appended when one is first read); and the fw_snapshot
# members as _native.SNAPSHOT unpacks them (index, phase, validity, display, failing_rule,
# touched, limit_exceeded, message_length, display_message_length, text_size, visited, dirty,
# modified_since_submit, external_error, label_raised, emphasized, mode, tint, revision,
# error_count, secret, code_length, params_length, display_code_length, display_params_length,
# error_codes_size). Building one is one small tuple; a member is worked out when it is read
# (enums from their C values, texts decoded once). The members' positions in the third item:
(_INDEX, _PHASE, _VALIDITY, _DISPLAY, _FAILING, _TOUCHED, _EXCEEDED, _MESSAGE_LENGTH, _SHOWN_LENGTH, _TEXT_BYTES,
 _VISITED, _DIRTY, _MODIFIED, _EXTERNAL, _RAISED, _EMPHASIZED, _MODE, _TINT, _REVISION, _ERROR_COUNT,
 _SECRET) = range(21)
#: The texts' order in the library's buffer: message, display message, value, label, initial
#: value, accessibility hint (then the errors, the list's NUL, the normalised value, the code, the
#: parameters, the display code and parameters, the error codes, the list's NUL).
_MESSAGE, _SHOWN, _VALUE, _LABEL, _INITIAL, _HINT = range(6)


def _texts(state: "FieldState") -> List[str]:
    """The state's texts, split at their NULs (decoded on the first read, then kept)."""
    held = state[1]
    if len(held) > 1:
        return held[1]
    texts = held[0].decode().split("\0")
    held.append(texts)  # two threads may both decode: the same texts, and held[1] is read
    return texts


def _text(position: int, doc: str) -> Any:
    """A property reading one of the first six texts."""

    def read(self: "FieldState") -> str:
        held = self[1]
        return (held[1] if len(held) > 1 else _texts(self))[position]

    return property(read, doc=doc)


def _message(position: int, length: int, doc: str) -> Any:
    """A property reading the message or the display message: an empty one (a field that is not
    invalid, or whose error is not shown yet) without decoding anything."""

    def read(self: "FieldState") -> str:
        if not self[2][length]:
            return ""
        held = self[1]
        return (held[1] if len(held) > 1 else _texts(self))[position]

    return property(read, doc=doc)


def _plain(position: int, doc: str) -> Any:
    """A property reading a member as the library gave it (a bool or an int)."""

    def read(self: "FieldState") -> Any:
        return self[2][position]

    return property(read, doc=doc)


def _enum(position: int, members: Tuple[Any, ...], doc: str) -> Any:
    """A property mapping a C value to its member of ``members``; a constructed state may hold
    anything else (``phase=None``), returned as it is."""

    def read(self: "FieldState") -> Any:
        value = self[2][position]
        return members[value] if value.__class__ is int else value

    return property(read, doc=doc)


def _c_value(member: Any, members: Tuple[Any, ...]) -> Any:
    """What a constructed state holds for an enum member: its C value (as the library's states
    hold it), anything else as it is."""
    for value, candidate in enumerate(members):
        if member is candidate:
            return value
    return member


class FieldState(tuple):
    """A snapshot of one field, as returned by :meth:`Form.state`, :meth:`Form.states` and
    :meth:`Form.set`: every member describes the same moment (one library call read them all).

    Attributes:
        id: the field id (as passed to :meth:`Form.state`; :meth:`Form.states` gives the id the
            field was registered with).
        value: the current value.
        phase: :class:`Phase` (idle, focused, inactive).
        validity: :class:`Validity` the field shows (in its :attr:`mode`).
        message: the message of an INVALID validity, else ``""``.
        display: :class:`Display`: what a view should show (NONE until the field is touched).
        display_message: the error to show when ``display`` is ERROR, else ``""``.
        touched: whether the field was blurred or touched since it was added or the form reset.
        limit_exceeded: whether the verdict comes from a pattern that hit its match limits (the
            field is invalid because it could not be checked; see :meth:`Form.set_match_limits`).
        failing_rule: the position (from 0, in the order the rules were given) of the rule whose
            message ``message`` is, or ``None`` when the validity is not INVALID or the message is
            an external error (:meth:`Form.set_error`).
        index: the field's position in registration order (it moves down when an earlier field
            is removed, :meth:`Form.remove_field`).
        visited: the field has had focus since it was added or the form was reset.
        dirty: the value differs from :attr:`initial`, byte for byte (``pristine`` is the opposite).
        initial: the initial value (what :meth:`Form.reset` restores).
        modified_since_submit: a value change since the field last took part in a validate (whole
            form or one of its groups), or since it was added or the form reset.
        external_error: an error set by :meth:`Form.set_error` is in force.
        errors: a ``list`` of the shown validity's messages: ``[message]`` when invalid in error
            mode "first" (else ``[]``); every failing rule's message, in rule order, in mode "all".
        mode: the :class:`Mode` the field is judged in (its own, else the form's).
        tint: :class:`Tint` (seed 01's tint color role).
        label_raised: seed 01's floating label is raised: false only when idle and empty.
        emphasized: seed 01's thicker stroke: the field has focus.
        label: the field's label, or its id when it has none.
        accessibility_hint: while the display is ERROR, a prompt to correct the field (the failing
            rule's ``hint=``, else its kind's default; "Correct this field" for an external error);
            else ``""``.
        revision: the form revision at which this field's state last changed
            (:meth:`Form.changed_since`).
        normalized_value: the value after the field's normalisers (:class:`Normalizer`): what its
            rules judged and what :attr:`Form.values` holds; ``value`` is what was set.
        secret: the field is secret (``add_field(..., secret=True)``): ``repr()`` of this state
            masks ``value``, ``normalized_value`` and ``initial``.
        code: the stable code of the failure ``message`` reports (``"required"``,
            ``"min_length"``, ``"pattern_limit"``, ``"external"``, ...), ``""`` unless the validity
            is INVALID. Codes never change with the form's :attr:`Form.locale`: a view may word its
            own messages from ``code`` and ``params``.
        params: the failure's parameters as a new ``dict`` (``{"length": 8, "unit": "graphemes"}``;
            decimal bounds as strings; ``{}`` for none or unless invalid). Never holds a value.
        display_code: the code of ``display_message``, ``""`` unless the display is ERROR.
        display_params: the parameters of ``display_message`` (a new ``dict``).
        error_codes: the code of each message of ``errors``, in the same order (a ``tuple``).

    ``pristine`` (not dirty), ``accessibility_value`` (the error text while the display is ERROR,
    else ``""``) and ``error`` are derived from the members above.

    Immutable and hashable, equal to another ``FieldState`` with the same members (never to a
    plain tuple). It also answers to :func:`dataclasses.fields`, :func:`dataclasses.asdict` and
    :func:`dataclasses.replace` as a frozen dataclass does. Every member after ``touched`` has a
    default, so a keyword constructor naming only ``id`` to ``touched`` works (``label`` then
    defaults to the id). The constructor takes a dict or a JSON object text for
    ``params`` and ``display_params``; its texts must not hold NUL characters.

    Cheap to make, so a state read costs little more than its library call: it holds what the
    library copied (its members as numbers, its texts as UTF-8 bytes) and works a member out when
    it is read. The texts are decoded all at once on the first read of any of them, then kept;
    ``params`` and ``display_params`` are parsed into a new dict on each read.
    """

    __slots__ = ()

    def __new__(
        cls,
        id: str,
        value: str,
        phase: Phase,
        validity: Validity,
        message: str,
        display: Display,
        display_message: str,
        touched: bool,
        limit_exceeded: bool = False,
        failing_rule: Optional[int] = None,
        index: Optional[int] = None,
        visited: bool = False,
        dirty: bool = False,
        initial: str = "",
        modified_since_submit: bool = False,
        external_error: bool = False,
        errors: Iterable[str] = (),
        mode: "Mode" = Mode.TWO_STAGE,
        tint: "Tint" = Tint.NEUTRAL,
        label_raised: bool = False,
        emphasized: bool = False,
        label: Optional[str] = None,
        accessibility_hint: str = "",
        revision: int = 0,
        normalized_value: Optional[str] = None,
        secret: bool = False,
        code: str = "",
        params: Union[Mapping[str, Any], str, None] = None,
        display_code: str = "",
        display_params: Union[Mapping[str, Any], str, None] = None,
        error_codes: Iterable[str] = (),
    ) -> "FieldState":
        # The members as the library's states hold them (see _field_state), so that a state built
        # here equals the one a form reports.
        for name, texts in (("errors", errors), ("error_codes", error_codes)):
            if isinstance(texts, str):
                raise TypeError(f"{name} must be a sequence of texts, not a str")
        errors, error_codes = tuple(errors), tuple(error_codes)
        params_text, display_params_text = _params_text(params), _params_text(display_params)
        texts = [message, display_message, value, id if label is None else label, initial, accessibility_hint,
                 *errors, "", value if normalized_value is None else normalized_value,
                 code, params_text, display_code, display_params_text, *error_codes, "", ""]
        for text in texts:
            if not isinstance(text, str):
                raise TypeError(f"a FieldState text must be a str, not {type(text).__name__}")
            if "\0" in text:
                raise ValueError("a FieldState text must not contain NUL characters")
        raw = "\0".join(texts).encode()
        try:
            mode = _MODE_VALUES.get(mode, mode)  # a mode's name too ("on_blur" is Mode.ON_BLUR)
        except TypeError:  # unhashable: kept as it is
            pass
        return _tuple_new(cls, (id, [raw], (
            index, _c_value(phase, _PHASES), _c_value(validity, _VALIDITIES), _c_value(display, _DISPLAYS),
            -1 if failing_rule is None else failing_rule, touched, limit_exceeded, len(message.encode()),
            len(display_message.encode()), len(raw), visited, dirty,
            modified_since_submit, external_error, label_raised, emphasized, mode, _c_value(tint, _TINTS), revision,
            len(errors), secret, len(code.encode()), len(params_text.encode()), len(display_code.encode()),
            len(display_params_text.encode()), sum(len(text.encode()) + 1 for text in error_codes))))

    id: str = property(itemgetter(0), doc="The field id.")  # type: ignore[assignment]
    value: str = _text(_VALUE, "The current value.")  # type: ignore[assignment]
    phase: Phase = _enum(_PHASE, _PHASES, "The :class:`Phase`.")  # type: ignore[assignment]
    validity: Validity = _enum(_VALIDITY, _VALIDITIES, "The :class:`Validity` the field shows.")  # type: ignore[assignment]
    message: str = _message(_MESSAGE, _MESSAGE_LENGTH, "The message of an INVALID validity, else ``''``.")  # type: ignore[assignment]
    display: Display = _enum(_DISPLAY, _DISPLAYS, "The :class:`Display`: what a view shows.")  # type: ignore[assignment]
    display_message: str = _message(_SHOWN, _SHOWN_LENGTH, "The error to show (Display.ERROR), else ``''``.")  # type: ignore[assignment]
    touched: bool = _plain(_TOUCHED, "Blurred or touched since added or reset.")  # type: ignore[assignment]
    limit_exceeded: bool = _plain(_EXCEEDED, "The verdict comes from a pattern's match limits.")  # type: ignore[assignment]
    index: Optional[int] = _plain(_INDEX, "Position in registration order.")  # type: ignore[assignment]
    visited: bool = _plain(_VISITED, "Has had focus since added or reset.")  # type: ignore[assignment]
    dirty: bool = _plain(_DIRTY, "The value differs from the initial value (bytes).")  # type: ignore[assignment]
    initial: str = _text(_INITIAL, "The initial value (what reset restores).")  # type: ignore[assignment]
    modified_since_submit: bool = _plain(_MODIFIED, "Changed since it last took part in a validate.")  # type: ignore[assignment]
    external_error: bool = _plain(_EXTERNAL, "An error set by Form.set_error is in force.")  # type: ignore[assignment]
    mode: "Mode" = _enum(_MODE, _MODES, "The :class:`Mode` the field is judged in.")  # type: ignore[assignment]
    tint: "Tint" = _enum(_TINT, _TINTS, "The :class:`Tint` (seed 01's tint color).")  # type: ignore[assignment]
    label_raised: bool = _plain(_RAISED, "The floating label is raised (not idle and empty).")  # type: ignore[assignment]
    emphasized: bool = _plain(_EMPHASIZED, "The field has focus (seed 01's thicker stroke).")  # type: ignore[assignment]
    label: str = _text(_LABEL, "The label, or the id when the field has none.")  # type: ignore[assignment]
    accessibility_hint: str = _text(_HINT, "A prompt to correct the field while its display is ERROR, else ``''``.")  # type: ignore[assignment]
    revision: int = _plain(_REVISION, "The form revision at which this state last changed.")  # type: ignore[assignment]
    secret: bool = _plain(_SECRET, "The field is secret: repr() masks its values.")  # type: ignore[assignment]

    @property
    def failing_rule(self) -> Optional[int]:
        """Position of the failing rule, or None."""
        rule = self[2][_FAILING]
        return None if rule == -1 else rule

    @property
    def errors(self) -> List[str]:
        """The shown validity's messages (a new list): one in error mode "first", every failing
        rule's in mode "all"; ``[]`` unless the validity is INVALID."""
        count = self[2][_ERROR_COUNT]
        return _texts(self)[6 : 6 + count] if count else []

    @property
    def normalized_value(self) -> str:
        """The value after the field's normalisers (what the rules judged)."""
        return _texts(self)[7 + self[2][_ERROR_COUNT]]

    @property
    def code(self) -> str:
        """The stable code of the failure ``message`` reports (``"min_length"``), else ``""``."""
        return _texts(self)[8 + self[2][_ERROR_COUNT]]

    @property
    def params(self) -> Dict[str, Any]:
        """The parameters of ``message``'s failure (a new dict; ``{}`` for none or unless invalid)."""
        return _parse_params(_texts(self)[9 + self[2][_ERROR_COUNT]])

    @property
    def display_code(self) -> str:
        """The code of ``display_message`` (the displayed error), else ``""``."""
        return _texts(self)[10 + self[2][_ERROR_COUNT]]

    @property
    def display_params(self) -> Dict[str, Any]:
        """The parameters of ``display_message``'s failure (a new dict; ``{}`` for none)."""
        return _parse_params(_texts(self)[11 + self[2][_ERROR_COUNT]])

    @property
    def error_codes(self) -> Tuple[str, ...]:
        """The code of each message of :attr:`errors`, in the same order (``()`` unless invalid)."""
        return tuple(_texts(self)[12 + self[2][_ERROR_COUNT] : -2])

    @property
    def pristine(self) -> bool:
        """Not :attr:`dirty`: the value is the initial value."""
        return not self[2][_DIRTY]

    @property
    def accessibility_value(self) -> str:
        """Seed 03's accessibility value: the error text while the display is ERROR, else ``""``."""
        return self.display_message if self[2][_DISPLAY] == _ERROR_DISPLAY else ""

    @property
    def error(self) -> Optional[str]:
        """The message to show under the field, or ``None`` (seed 03's surfacing rule)."""
        return self.display_message if self[2][_DISPLAY] == _ERROR_DISPLAY else None

    def _key(self) -> Tuple[Any, ...]:
        """What equality and hashing compare: the id, the texts' bytes and the members (the
        decoded texts, once kept, are the same bytes)."""
        return (self[0], self[1][0], self[2])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() == other._key()  # type: ignore[attr-defined]
        # Not NotImplemented for tuples: tuple.__eq__ would then compare the items.
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self._key())

    def __lt__(self, other: object) -> bool:  # unordered, as the dataclass was
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __repr__(self) -> str:
        members = {name: getattr(self, name) for name in _FIELDS[: _FIELDS.index("secret") + 1]}
        if members["secret"]:  # a secret field's values are never printed
            for name in _SECRET_MEMBERS:
                if members[name]:
                    members[name] = "***"
        members["code"] = self.code  # (params and the display's code: dataclass repr=False)
        return "FieldState(" + ", ".join(f"{name}={value!r}" for name, value in members.items()) + ")"

    def __reduce__(self) -> Any:
        return (_restore_state, (self[0], self[1][0], self[2]))

    def _members(self) -> Dict[str, Any]:
        """Every member by name, ``params`` and ``display_params`` as their JSON texts."""
        members = {name: getattr(self, name) for name in _FIELDS}
        texts, count = _texts(self), self[2][_ERROR_COUNT]
        members["params"], members["display_params"] = texts[9 + count], texts[11 + count]
        return members

    def _asdict(self) -> Dict[str, Any]:
        """The members as a dict, in declaration order (``errors`` as a list, ``params`` and
        ``display_params`` as dicts)."""
        return {name: getattr(self, name) for name in _FIELDS}

    def _replace(self, **changes: Any) -> "FieldState":
        """A copy with some members replaced (as :func:`dataclasses.replace`)."""
        members = self._members()  # params as their texts: kept exactly
        unknown = set(changes) - set(members)
        if unknown:
            raise TypeError(f"FieldState has no member {sorted(unknown)[0]!r}")
        members.update(changes)
        return FieldState(**members)

    __replace__ = _replace  # copy.replace (Python 3.13)


@dataclass(frozen=True)
class _FieldStateMembers:
    """FieldState's members as dataclass fields, lent to FieldState for the dataclasses module."""

    id: str
    value: str
    phase: Phase
    validity: Validity
    message: str
    display: Display
    display_message: str
    touched: bool
    limit_exceeded: bool = False
    failing_rule: Optional[int] = None
    index: Optional[int] = None
    visited: bool = False
    dirty: bool = False
    initial: str = ""
    modified_since_submit: bool = False
    external_error: bool = False
    errors: Tuple[str, ...] = ()
    mode: Mode = Mode.TWO_STAGE
    tint: Tint = Tint.NEUTRAL
    label_raised: bool = False
    emphasized: bool = False
    label: Optional[str] = None
    accessibility_hint: str = ""
    revision: int = 0
    normalized_value: Optional[str] = None
    secret: bool = False
    code: str = ""
    params: Dict[str, Any] = _member(default_factory=dict, repr=False)
    display_code: str = _member(default="", repr=False)
    display_params: Dict[str, Any] = _member(default_factory=dict, repr=False)
    error_codes: Tuple[str, ...] = _member(default=(), repr=False)


def _params_text(params: Union[Mapping[str, Any], str, None]) -> str:
    """A failure's parameters as FieldState keeps them: the library's JSON object text (a dict
    given to the constructor is written as the library writes one: keys sorted, compact)."""
    if params is None:
        return "{}"
    if isinstance(params, str):
        return params
    if isinstance(params, Mapping):
        import json

        return json.dumps(dict(params), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    raise TypeError(f"params must be a dict or a JSON object text, not {type(params).__name__}")


def _parse_params(text: str) -> Dict[str, Any]:
    """The library's parameters text as a new dict (what FieldState.params and friends answer)."""
    if text == "{}":
        return {}
    import json

    return json.loads(text)


def _restore_state(field_id: str, raw: bytes, members: Tuple[Any, ...]) -> "FieldState":
    """Unpickling a FieldState: its items as they were."""
    return _tuple_new(FieldState, (field_id, [raw], members))


FieldState.__dataclass_fields__ = _FieldStateMembers.__dataclass_fields__  # type: ignore[attr-defined]
FieldState.__dataclass_params__ = _FieldStateMembers.__dataclass_params__  # type: ignore[attr-defined]
assert tuple(FieldState.__dataclass_fields__) == _FIELDS  # type: ignore[attr-defined]


class MatchLimits(NamedTuple):
    """A form's PCRE2 match limits (:attr:`Form.match_limits`, :meth:`Form.set_match_limits`)."""

    #: Match steps (PCRE2's match limit).
    match_limit: int
    #: Backtracking depth (PCRE2's depth limit).
    depth_limit: int
    #: Heap for backtracking, in KiB.
    heap_limit_kib: int


# ---- snapshots: the hot path of state(), set() and states() ----

assert [m.value for m in _PHASES] == [0, 1, 2] == [m.value for m in _VALIDITIES][:3] == [m.value for m in _DISPLAYS]


def _mode_value(mode: Any, what: str = "mode") -> int:
    """The fw_mode value of a :class:`Mode` or its name (``"on_blur"``)."""
    if isinstance(mode, str):
        try:
            return _MODE_VALUES[Mode(mode)]
        except ValueError:
            pass
        names = ", ".join(m.value for m in _MODES)
        raise InvalidArgumentError(f"unknown {what} {mode!r} (expected one of: {names})", _native.FW_ERR_INVALID_ARGUMENT)
    raise TypeError(f"{what} must be a formwell.Mode or its name (str), not {type(mode).__name__}")


def _error_mode_value(errors: Any) -> int:
    """The fw_error_mode value of "first" or "all"."""
    if not isinstance(errors, str):
        raise TypeError(f"errors must be 'first' or 'all', not {type(errors).__name__}")
    try:
        return ERROR_MODES.index(errors)
    except ValueError:
        raise InvalidArgumentError(f"unknown error mode {errors!r} (expected first or all)",
                                   _native.FW_ERR_INVALID_ARGUMENT) from None

_SNAPSHOT_SIZE = sizeof(_native.fw_snapshot)
_SNAPSHOT_TEMPLATE = bytes(_native.fw_snapshot(_SNAPSHOT_SIZE))
_unpack = _native.SNAPSHOT.unpack_from
#: The text buffer a form starts with, and the largest one it keeps between calls (a bigger text
#: gets a buffer of its own for that one call).
_TEXT_SIZE = 256
_TEXT_KEEP = 64 * 1024

#: What one snapshot call needs: (snapshot struct, byref of it, the text buffer (a c_char array:
#: slicing it gives bytes, the cheapest way to a str), its size as a c_size_t, its size).
_Scratch = Tuple[Any, Any, Any, c_size_t, int]


def _scratch(text_size: int) -> _Scratch:
    snapshot = _native.fw_snapshot(_SNAPSHOT_SIZE)
    return snapshot, byref(snapshot), create_string_buffer(text_size), c_size_t(text_size), text_size


def _field_state(field_id: str, members: Tuple[Any, ...], data: Any, start: int) -> FieldState:
    """A FieldState from an unpacked fw_snapshot (see _native.SNAPSHOT) whose texts were copied
    into ``data`` from offset ``start`` (``text_size`` bytes: the texts in the order of
    _MESSAGE ... _HINT, then the errors, each followed by a NUL, and one more NUL, then the
    normalised value, the code, the parameters, the display code and the display parameters, each
    followed by a NUL, then the error codes, each followed by a NUL, and one more NUL; the library
    only ever copies valid UTF-8, and no text holds a NUL). Nothing is computed or decoded here:
    the state keeps the members and the bytes (see FieldState)."""
    return _tuple_new(FieldState, (field_id, [data[start : start + members[_TEXT_BYTES]]], members))


_snapshot_at = _native.raw_snapshot_at
_update_at = _native.raw_update_at
_set_value_at = _native.raw_set_value_at
_field_index = lib.fw_form_field_index
_INFO_SIZE = sizeof(_native.fw_form_info)
_REQUEST_SIZE = sizeof(_native.fw_request)
_tick = lib.fw_form_tick
_monotonic = time.monotonic
_OUTCOMES = (Outcome.VALID, Outcome.INVALID, Outcome.PENDING)
assert [_native.FW_SUBMIT_VALID, _native.FW_SUBMIT_INVALID, _native.FW_SUBMIT_PENDING] == [0, 1, 2]
_FW_ERR_BUFFER_TOO_SMALL = _native.FW_ERR_BUFFER_TOO_SMALL


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

    Fields are named by id, but the library is called by index: each form remembers the index of
    every id it was given (an index only changes when an earlier field is removed, and
    :meth:`remove_field` forgets them all), and reuses its snapshot structs and text buffers for
    :meth:`state` and :meth:`set` (one per concurrent caller: a thread never uses a buffer another
    thread, or a validator further up its own stack, is using). :meth:`remove_field` must not run
    while another thread uses the same form: a call that had already looked up an index could
    reach the field that moved into its place.

    ``Form(mode="on_blur", errors="all")``: the form's validation :class:`Mode` (default
    ``"two_stage"``; each field may have its own, ``add_field(..., mode=...)``) and error mode
    (``"first"``, the default, or ``"all"``). Both are keyword-only and can be changed later
    (:attr:`mode`, :attr:`errors`).

    ``Form(locale="fr")``: the message catalogue the form's messages and hints are worded from
    (default English; see :attr:`locale`).

    ``Form(clock=...)``: the host clock of asynchronous rules (:class:`formwell.AsyncRule`), a
    callable answering milliseconds (an int, monotonic); the default reads ``time.monotonic()``,
    the clock of asyncio's event loop. The library itself never reads a clock: a form with async
    rules tells it this clock's time before every value change and submit, so debounces run on it.
    Give a fake clock in tests (:attr:`clock` can also be set later).

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
    #: Whether the form has asynchronous rules: only then do value changes tell the library the time.
    _has_async = False
    _driver: Optional["_async.Driver"] = None

    def __init__(self, *, mode: Union["Mode", str, None] = None, errors: Optional[str] = None,
                 clock: Optional[Any] = None, locale: Optional[str] = None) -> None:
        if clock is not None and not callable(clock):
            raise TypeError(f"clock must be a callable answering milliseconds, not {type(clock).__name__}")
        mode_value = None if mode is None else _mode_value(mode)
        error_value = None if errors is None else _error_mode_value(errors)
        locale_b = None if locale is None else _locale_bytes(locale)
        handle = _native.FormHandle()
        check(lib.fw_form_create(byref(handle)))
        try:
            if mode_value is not None:
                check(lib.fw_form_set_mode(handle, mode_value))
            if error_value is not None:
                check(lib.fw_form_set_error_mode(handle, error_value))
            if locale_b is not None:
                check(lib.fw_form_set_locale(handle, locale_b))
        except BaseException:
            lib.fw_form_free(handle)
            raise
        #: field id (as the caller spelled it) -> its index as a c_size_t (passed to the untyped
        #: twins as is); only ids the library knows are cached. remove_field replaces the cache.
        self._indices: Dict[str, c_size_t] = {}
        #: ids in registration order, as far as they were read (see _ids_upto).
        self._ids: List[str] = []
        #: idle scratch buffers for state() and set(). A call pops one (list.pop and append are
        #: atomic), so threads, and validators calling back up the same thread's stack, never share
        #: one; a call that finds the pool empty makes a new one and leaves it in the pool.
        self._pool: List[_Scratch] = [_scratch(_TEXT_SIZE)]
        #: the text buffer size new scratch buffers get (grows with the texts seen, to _TEXT_KEEP).
        self._text_size = _TEXT_SIZE
        #: (capacity, text size) that the last states() call needed.
        self._states_sizes = (8, 1024)
        #: field id -> initial value, of the fields added through this object (add_field,
        #: load_spec): what check_many gives a record that lacks the key.
        self._initials: Dict[str, str] = {}
        #: Ids of secret fields (their requests print masked).
        self._secrets: set = set()
        #: (field index, rule index) -> the rule's fixed message (rules never change once added;
        #: the locale does: setting it empties this cache).
        self._rule_messages: Dict[Tuple[int, int], str] = {}
        #: (field index, rule index) -> the rule's failure code and parameters (JSON text), for
        #: batch results (the same in every locale).
        self._rule_failures: Dict[Tuple[int, int], Tuple[str, str]] = {}
        #: the message of a pattern stopped at its match limits in the form's locale ("" when the
        #: catalogue words it with placeholders: such cells are judged again), once read.
        self._limit_text: Optional[str] = None
        #: the host clock of async rules (milliseconds).
        self._clock: Any = _async.monotonic_ms if clock is None else clock
        #: async rule name -> its check, bound to this form (AsyncRule(check=), checks=, define_check).
        self._checks: Dict[str, AsyncCheck] = {}
        #: the names of the async rules added through this object.
        self._async_names: Dict[str, None] = {}
        self._handle = handle

    # ---- lifetime ----

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle is None

    def close(self) -> None:
        """Frees the form and its custom rules. Further calls raise InvalidHandleError.
        Closing twice is a no-op. Asynchronous checks still running (:meth:`settle`) are
        cancelled."""
        handle = self._handle
        if handle is None:
            return
        # Freed first: from inside one of this form's validators the library refuses (BusyError),
        # and the form then stays open and usable rather than closed in name only.
        check(self._free_fn(handle))
        self._handle = None
        driver = self._driver
        if driver is not None:
            driver.cancel()
            driver.wake()  # a settle loop waiting on this form fails (InvalidHandleError)

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

    # ---- field indices ----

    def _index(self, field_id: str) -> int:
        """The index of ``field_id`` (cached; fw_form_field_index the first time)."""
        try:
            return self._indices[field_id].value
        except (KeyError, TypeError):
            return self._index_of(field_id).value

    def _index_of(self, field_id: str) -> c_size_t:
        handle = self._h
        fid = _encode(field_id, "field id")
        index = c_size_t(0)
        check(_field_index(handle, fid, byref(index)))
        if field_id.__class__ is str:  # a str subclass may hash or compare differently
            self._indices[field_id] = index
        return index

    def _ids_upto(self, count: int) -> List[str]:
        """The registered ids of the first ``count`` fields (read once each, then cached)."""
        ids = self._ids
        if len(ids) < count:
            handle = self._h
            ids = list(ids)
            for index in range(len(ids), count):
                field_id = read_string(
                    lambda buf, size, length: lib.fw_form_field_id(handle, index, buf, size, length)
                )
                ids.append(field_id)
                self._indices.setdefault(field_id, c_size_t(index))
            self._ids = ids  # one assignment: a concurrent reader sees the old or the new list
        return ids

    # ---- registration ----

    def add_field(
        self,
        field_id: str,
        rules: Iterable[Rule] = (),
        label: Optional[str] = None,
        initial: Optional[str] = None,
        *,
        mode: Union["Mode", str, None] = None,
        groups: Iterable[str] = (),
        normalize: Iterable[Union[Normalizer, str]] = (),
        secret: bool = False,
    ) -> None:
        """Adds a field with its rules (run in order, the first failure wins, or every failure is
        listed in a form with ``errors="all"``).

        Args:
            field_id: non-empty, unique in the form.
            rules: rule objects (:class:`formwell.Required`, :class:`formwell.Email`, ...).
            label: how messages of other fields, the announcement and :attr:`FieldState.label`
                name this one (default: the id).
            initial: the value now and after :meth:`reset` (default: empty).
            mode: the field's own :class:`Mode` (or its name); ``None`` (the default) follows the
                form's mode, also when that changes later.
            groups: names of the validation groups the field belongs to (non-empty strings), for
                ``validate(group=...)``, ``touch_all(group=...)``, :meth:`is_valid_in` and
                :meth:`first_invalid_in`.
            normalize: :class:`Normalizer` members (or names) run in this order on every value
                before the rules, e.g. ``[Normalizer.TRIM, Normalizer.LOWERCASE]``.
            secret: a password or token field: ``repr()`` of its state masks its values and
                :meth:`export_spec` leaves out its initial value.

        :class:`formwell.AsyncRule` rules run after the synchronous ones, wherever they are in the
        list; the form keeps each one's ``check`` under its name (one check per name in a form:
        another check under a name already bound raises :class:`formwell.InvalidArgumentError`).

        All or nothing: when a rule is refused (a bad pattern, a bad length, an unknown
        :class:`formwell.Matches` target, a :class:`formwell.Custom` validator raising on the
        initial value), or the mode or a group name is not one, the exception propagates and the
        form is exactly as it was, the field not added.
        """
        handle = self._h
        fid = _encode(field_id, "field id")
        label_b = _encode_optional(label, "label")
        initial_b = _encode_optional(initial, "initial")
        mode_value = None if mode is None else _mode_value(mode)
        if isinstance(groups, str):
            raise TypeError("groups must be a list of group names, not a str")
        groups = list(groups)
        group_names = [_group_name(group) for group in groups]
        normalizer_values = _normalizer_values(normalize)
        if not isinstance(secret, bool):
            raise TypeError(f"secret must be a bool, not {type(secret).__name__}")
        rule_list = list(rules)
        for rule in rule_list:
            if not isinstance(rule, Rule):
                raise TypeError(f"rules must be formwell rule objects, not {type(rule).__name__}")
        async_rules = [rule for rule in rule_list if isinstance(rule, AsyncRule)]
        checks = self._new_checks((rule.name, rule.check) for rule in async_rules if rule.check is not None)
        # A RuleSet is defined on the form first (replacing a set of that name for later uses).
        for rule in rule_list:
            if isinstance(rule, RuleSet):
                check(rule._define(handle))
        structs: List[Any] = []
        status = -1
        try:
            for rule in rule_list:
                structs.append(rule._struct())  # a Custom registers its context here
            array = (_native.fw_rule * len(structs))(*structs) if structs else None
            status = lib.fw_form_add_field_with_rules(handle, fid, label_b, initial_b, array, len(structs))
        finally:
            if status != FW_OK:  # refused (or never made): the library kept no context
                for struct in structs:
                    if struct.kind == _native.FW_RULE_CUSTOM:
                        _release_context(struct.context)
        check(status)
        try:
            if mode_value is not None:
                check(lib.fw_field_set_mode(handle, fid, mode_value))
            for group in group_names:
                check(lib.fw_field_add_group(handle, fid, group))
            if normalizer_values:
                check(lib.fw_field_set_normalizers(handle, fid, (c_int32 * len(normalizer_values))(*normalizer_values),
                                                   len(normalizer_values)))
            if secret:
                check(lib.fw_field_set_secret(handle, fid, True))
        except BaseException:  # not expected (both were checked above): take the field back out
            lib.fw_form_remove_field(handle, fid)
            raise
        self._initials[field_id] = initial or ""
        if secret:
            self._secrets.add(field_id)
        if async_rules:
            self._enable_async([rule.name for rule in async_rules], checks)

    def _new_checks(self, pairs: Iterable[Tuple[str, AsyncCheck]]) -> Dict[str, AsyncCheck]:
        """Checks to bind by name, refused when a name is already bound to another one."""
        checks: Dict[str, AsyncCheck] = {}
        for name, function in pairs:
            bound = checks.get(name, self._checks.get(name))
            if bound is not None and bound != function:
                raise InvalidArgumentError(f"the async rule name {name!r} already has another check in this form",
                                           _native.FW_ERR_INVALID_ARGUMENT)
            checks[name] = function
        return checks

    def _enable_async(self, names: Iterable[str], checks: Mapping[str, AsyncCheck]) -> None:
        """After async rules were added: value changes tell the library the time from now on."""
        for name in names:
            self._async_names[name] = None
        self._checks.update(checks)
        if self._driver is None:
            self._driver = _async.Driver()
        self._has_async = True

    # ---- specs ----

    @classmethod
    def from_spec(cls, spec: SpecSource, validators: Optional[Mapping[str, Validator]] = None,
                  checks: Optional[Mapping[str, AsyncCheck]] = None, *, clock: Optional[Any] = None) -> "Form":
        """A form built from a JSON form spec (``{"formwell": 1, "fields": [...]}``).

        ``spec`` is a dict, JSON text (a ``str`` starting with ``{``), or the path of a JSON file
        (``str`` or ``os.PathLike``). ``validators`` maps the names that ``custom`` rules use to
        callables with :class:`Custom`'s contract; ``checks`` maps the names that ``async`` rules
        use (``{"rule": "async", "name": ..., "debounce_ms": 500}``) to checks with
        :class:`formwell.AsyncRule`'s contract. A name missing from either comes from the process
        registry (:func:`register_validator`, :func:`formwell.register_check`); an async rule may
        also have no check at all (the host answers its requests itself). ``clock``: as
        ``Form(clock=...)``. A bad spec raises :class:`formwell.InvalidSpecError`, whose detail
        names the JSON path and the problem (and ``.offset`` the position in a rejected pattern).
        """
        form = cls(clock=clock)
        try:
            form.load_spec(spec, validators, checks)
        except BaseException:
            form.close()
            raise
        return form

    def define_validator(self, name: str, validate: Validator) -> None:
        """Makes ``validate`` available to specs loaded later as ``{"rule": "custom", "name": name}``."""
        check(_define_validator(self._h, _encode(name, "validator name"), validate))

    def define_check(self, name: str, check: AsyncCheck) -> None:
        """Binds ``check`` (:class:`formwell.AsyncRule`'s contract) to the async rules named ``name``
        in this form, those added already and those added later (``{"rule": "async", "name": name}``
        in a spec, ``AsyncRule(name)`` without a check). Replaces the check bound to that name."""
        _encode(name, "check name")
        if not name:
            raise InvalidArgumentError("a check name must not be empty", _native.FW_ERR_INVALID_ARGUMENT)
        if not callable(check):
            raise TypeError(f"a check must be callable, not {type(check).__name__}")
        self._h
        self._checks[name] = check

    def load_spec(self, spec: SpecSource, validators: Optional[Mapping[str, Validator]] = None,
                  checks: Optional[Mapping[str, AsyncCheck]] = None) -> None:
        """Adds a spec's fields and rules to this form, all or nothing (see :meth:`from_spec`)."""
        import json

        text = _spec_text(spec)
        try:
            parsed = spec if isinstance(spec, Mapping) else json.loads(text)
        except ValueError:
            parsed = None  # not JSON: the library says where
        given = dict(validators or {})
        for name in _custom_names(parsed):
            if name not in given and name in _registry:
                given[name] = _registry[name]
        async_names = _async.async_rule_names(parsed)
        bound: Dict[str, AsyncCheck] = {}
        for name, function in dict(checks or {}).items():
            if not callable(function):
                raise TypeError(f"the check {name!r} must be callable, not {type(function).__name__}")
            bound[name] = function
        for name in async_names:
            if name not in bound and name not in self._checks and name in _async._registry:
                bound[name] = _async._registry[name]
        for name, validate in given.items():
            self.define_validator(name, validate)
        check(lib.fw_form_load_spec(self._h, _encode(text, "spec")))
        if "locale" in parsed:  # type: ignore[operator]
            self._locale_changed()
        fields = parsed.get("fields") or []  # type: ignore[union-attr]
        for field in fields:  # accepted by the library, so well-formed
            self._initials[field["id"]] = field.get("initial") or ""
            if field.get("secret"):
                self._secrets.add(field["id"])
        if async_names or bound:
            self._checks.update(bound)
            if async_names:
                self._enable_async(async_names, {})

    # ---- many records at once ----

    def check_many(self, data: "batch.Records", *, threads: int = 0) -> "batch.CheckResult":
        """Checks many records at once, each as a submit (:meth:`validate`) of a fresh form holding
        that record's values, in one library call (``fw_form_check_batch``): the rules run in the
        library, on ``threads`` threads (0: every processor; 1: the calling thread; a form with a
        :class:`formwell.Custom` rule always runs on the calling thread). The form's own values,
        phases and touched flags are not changed.

        ``data`` is either

        - records: an iterable of dicts ``{field_id: value}``. A missing key stands for the
          field's initial value (``""`` unless ``add_field(initial=...)`` or the spec set one);
          ``None`` stands for ``""``; keys that are not fields are ignored; or
        - columns: a dict ``{field_id: [value, ...]}``, every list as long (else ``ValueError``);
          a field without a column holds its initial value; a key that is not a field raises
          :class:`formwell.UnknownFieldError` (a ``KeyError``), as ``form[key]`` does.

        Values are ``str`` or ``None``; anything else raises ``TypeError`` naming the record and
        the field. Returns a :class:`formwell.CheckResult` (verdicts, and the messages a submit of
        each record would show).
        """
        return batch.check_many(self, data, threads)

    def check_table(self, table: Any, *, threads: int = 0) -> "TableCheckResult":
        """Checks every row of an Arrow table as :meth:`check_many` checks a record, reading the
        string columns in place through the Arrow C Data Interface (``fw_form_check_arrow``): a
        ``pyarrow.Table`` / ``RecordBatch`` / ``RecordBatchReader``, or anything with
        ``__arrow_c_stream__`` / ``__arrow_c_array__`` (polars, pandas, DuckDB). See
        :func:`formwell.check_table`."""
        from .arrow import check_table

        return check_table(self, table, threads=threads)

    # ---- pickling: a form travels as its spec ----

    def __reduce__(self) -> Any:
        """A form pickles as its spec (:meth:`to_spec_json`): unpickling loads it into a new form,
        resolving ``custom`` rules by name through :func:`register_validator` in the receiving
        process. Only the definition travels (values, phases and touched flags do not, nor does a
        secret field's initial value); a form with an anonymous :class:`formwell.Custom` rule
        cannot be pickled (``pickle.PicklingError``)."""
        try:
            spec = self.to_spec_json()
        except InvalidArgumentError as error:
            import pickle

            raise pickle.PicklingError(f"this form cannot travel as a spec: {error}") from error
        return (_form_from_spec, (spec,))

    def _initial_values(self) -> Dict[str, str]:
        return self._initials

    def _rule_message(self, field: int, rule: int) -> str:
        """The fixed message of rule ``rule`` of the field at ``field`` (cached)."""
        handle = self._h
        message = read_string(lambda buf, size, length: lib.fw_form_rule_message(handle, field, rule, buf, size, length))
        self._rule_messages[field, rule] = message
        return message

    def _rule_failure(self, field: int, rule: int) -> Tuple[str, str]:
        """The failure code and parameters (JSON text) of rule ``rule`` of the field at ``field``
        (``fw_form_rule_code`` / ``fw_form_rule_params``; cached)."""
        try:
            return self._rule_failures[field, rule]
        except KeyError:
            pass
        handle = self._h
        failure = (read_string(lambda buf, size, length: lib.fw_form_rule_code(handle, field, rule, buf, size, length)),
                   read_string(lambda buf, size, length: lib.fw_form_rule_params(handle, field, rule, buf, size, length)))
        self._rule_failures[field, rule] = failure
        return failure

    def _limit_message(self) -> Optional[str]:
        """The message of a batch cell whose pattern stopped at its match limits, in the form's
        locale: the text its catalogue gives code ``pattern_limit``, or ``None`` when that text is
        a template with placeholders (the cell is then judged again for its message)."""
        text = self._limit_text
        if text is None:
            from .messages import message_catalog

            entry = message_catalog(self.locale).get("failures", {}).get("pattern_limit", {})
            templates = entry.get("message") if isinstance(entry, Mapping) else None
            if isinstance(templates, str):
                templates = [templates]
            plain = [t for t in templates or () if isinstance(t, str) and "{" not in t]
            text = self._limit_text = plain[0] if plain else ""
        return text or None

    def _locale_changed(self) -> None:
        """The form speaks another catalogue: forget the messages read in the old one."""
        self._rule_messages = {}
        self._limit_text = None

    def to_spec(self) -> Dict[str, Any]:
        """This form's definition (fields, labels, initial values, rules) as a spec dict.
        Raises :class:`formwell.InvalidArgumentError` if a rule is an anonymous :class:`Custom`."""
        import json  # only specs need it: not imported with the package

        return json.loads(self.to_spec_json())

    def to_spec_json(self) -> str:
        """The spec as the library writes it: pretty-printed, keys sorted, stable across a reload."""
        handle = self._h
        return read_string(lambda buf, size, length: lib.fw_form_export_spec(handle, buf, size, length))

    # ---- events ----

    def set_value(self, field_id: str, value: str) -> None:
        """Sets the value (typing or programmatic): lenient stage if the field is focused, else
        strict. Fields with a :class:`formwell.Matches` rule naming this field are re-checked.
        ``form[field_id] = value`` is the same call; :meth:`set` also returns the new state."""
        if value.__class__ is str and "\0" not in value:
            data = value.encode()
        else:
            data = _encode(value, "value")
        try:
            index = self._indices[field_id]
        except (KeyError, TypeError):
            index = self._index_of(field_id)
        handle = self._handle
        if handle is None:
            handle = self._h  # raises InvalidHandleError
        if self._has_async:  # the library dates the change (a debounce starts) with the time told
            self._tick_now(handle)
        status = _set_value_at(handle, index, data)
        if status:
            # A validator that raised made the call fail (FW_ERR_CALLBACK); its exception is
            # re-raised from here.
            _native.raise_for_status(status)
        if self._has_async:
            self._driver.wake()  # type: ignore[union-attr]

    __setitem__ = set_value

    def set(self, field_id: str, value: str) -> FieldState:
        """Sets the value as :meth:`set_value` does and returns the field's new state, in one
        library call (``fw_field_update_at``): a keystroke and the redraw it needs.

        If setting the value fails (a validator raised, the field is unknown, ...) the form is
        unchanged and the exception propagates.
        """
        if value.__class__ is str and "\0" not in value:
            data = value.encode()
        else:
            data = _encode(value, "value")
        try:
            index = self._indices[field_id]
        except (KeyError, TypeError):
            index = self._index_of(field_id)
        handle = self._handle
        if handle is None:
            handle = self._h  # raises InvalidHandleError
        if self._has_async:
            self._tick_now(handle)
            self._driver.wake()  # type: ignore[union-attr]
        pool = self._pool
        try:
            scratch = pool.pop()
        except IndexError:
            scratch = _scratch(self._text_size)
        if scratch[4] <= len(data) + 2:  # cannot hold the value: no need to try
            pool.append(scratch)
            return self._set_long(field_id, index, data)
        snapshot, ref, buf, size, _ = scratch
        status = _update_at(handle, index, data, ref, buf, size)
        if status:
            if status == _FW_ERR_BUFFER_TOO_SMALL:
                # The value was set; only its texts did not fit: read them with a bigger buffer
                # (this one is dropped).
                return self._read_state(field_id, index, snapshot.text_size)
            snapshot.size = _SNAPSHOT_SIZE  # a failed call leaves the members unspecified
            pool.append(scratch)
            _native.raise_for_status(status)
        state = _field_state(field_id, _unpack(snapshot), buf, 0)
        pool.append(scratch)
        return state

    def _set_long(self, field_id: str, index: c_size_t, data: bytes) -> FieldState:
        """set() of a value too long for the form's buffers: a buffer of its own (kept for later
        calls only up to _TEXT_KEEP bytes)."""
        scratch = self._grow(len(data) + _TEXT_SIZE)
        snapshot, ref, buf, size, allocated = scratch
        status = _update_at(self._h, index, data, ref, buf, size)
        if status == _FW_ERR_BUFFER_TOO_SMALL:  # the value was set; its messages did not fit
            return self._read_state(field_id, index, snapshot.text_size)
        if status:
            _native.raise_for_status(status)
        if allocated <= _TEXT_KEEP:
            self._pool.append(scratch)
        return _field_state(field_id, _unpack(snapshot), buf, 0)

    def focus(self, field_id: str) -> None:
        """The field gains focus (lenient stage); the field that had focus is blurred first."""
        index = self._index(field_id)
        check(lib.fw_field_focus_at(self._h, index))

    def blur(self, field_id: str) -> None:
        """The field loses focus (strict stage) and counts as touched."""
        index = self._index(field_id)
        check(lib.fw_field_blur_at(self._h, index))

    def touch(self, field_id: str) -> None:
        """Marks the field touched and runs its rules."""
        index = self._index(field_id)
        check(lib.fw_field_touch_at(self._h, index))

    def touch_all(self, group: Optional[str] = None) -> None:
        """Marks every field touched and runs every rule; with ``group``, only that group's fields
        (:class:`formwell.InvalidArgumentError` when no field belongs to it)."""
        if group is None:
            check(lib.fw_form_touch_all(self._h))
        else:
            check(lib.fw_form_touch_all_group(self._h, _group_name(group)))

    def validate(self, group: Optional[str] = None) -> bool:
        """Submit: touches every field, applies the strict stage, returns whether all are valid.
        A focused field keeps its focus. Counts in :attr:`submit_count` and sets
        :attr:`submit_failed`.

        With ``group`` (a wizard step): only that group's fields are touched and judged, and the
        answer is theirs; :attr:`submit_count` and :attr:`submit_failed` are left alone (an
        ``on_submit`` field of the group shows its state from then on, as after a whole validate).
        :class:`formwell.InvalidArgumentError` when no field belongs to the group.

        With :class:`formwell.AsyncRule` rules, debounced checks of the fields taking part fall
        due at once, and the answer is false while a field is pending: :meth:`submit` tells
        pending from invalid, :meth:`validate_async` waits for the checks."""
        valid = c_bool(False)
        if self._has_async:
            self._tick_now(self._h)
        if group is None:
            check(lib.fw_form_validate(self._h, byref(valid)))
        else:
            check(lib.fw_form_validate_group(self._h, _group_name(group), byref(valid)))
        if self._has_async:
            self._driver.wake()  # type: ignore[union-attr]
        return bool(valid.value)

    # ---- asynchronous rules: the host's clock, requests and results ----

    @property
    def clock(self) -> Any:
        """The host clock of asynchronous rules: a callable answering milliseconds (see
        ``Form(clock=...)``). Settable; ``None`` puts the default (``time.monotonic()``) back."""
        return self._clock

    @clock.setter
    def clock(self, clock: Optional[Any]) -> None:
        if clock is not None and not callable(clock):
            raise TypeError(f"clock must be a callable answering milliseconds, not {type(clock).__name__}")
        self._clock = _async.monotonic_ms if clock is None else clock

    def _now(self) -> int:
        return _async.check_ms(int(self._clock()), "the clock's time")

    def _now_exact(self) -> float:
        """The clock's time, unrounded when it is the default clock (for sleeping until a due time)."""
        if self._clock is _async.monotonic_ms:
            return _monotonic() * 1000
        return float(self._clock())

    def _tick_now(self, handle: Any) -> None:
        check(_tick(handle, self._now()))

    def tick(self, now_ms: Optional[int] = None) -> None:
        """Tells the library the host's time (milliseconds, monotonic; ``None``: the form's
        :attr:`clock`). A time before the last one told is ignored; value changes are dated with
        the last time told. A form with async rules does this itself before every value change and
        submit."""
        check(lib.fw_form_tick(self._h, self._now() if now_ms is None else _async.check_ms(now_ms)))
        if self._driver is not None:
            self._driver.wake()

    def next_request(self, now_ms: Optional[int] = None) -> Optional[Request]:
        """Ticks to ``now_ms`` (``None``: the :attr:`clock`'s time) and hands out the request that
        fell due first (the lowest id among equal due times), as a :class:`formwell.Request`, or
        ``None`` when none is due. A request is handed out once: check ``request.value`` by the
        rule ``request.rule``, then :meth:`resolve` it, from any thread."""
        handle = self._h
        now = self._now() if now_ms is None else _async.check_ms(now_ms)
        request = _native.fw_request(_REQUEST_SIZE)
        found = c_bool(False)
        size = 256
        for _ in range(8):
            buf = create_string_buffer(size)
            status = lib.fw_form_next_request(handle, now, byref(request), buf, size, byref(found))
            if status != _FW_ERR_BUFFER_TOO_SMALL:
                break
            size = max(request.text_size, size + 1)  # nothing was handed out: again, bigger
        check(status)
        if not found.value:
            return None
        base = addressof(buf)
        raw = buf.raw
        texts = []
        for pointer, length in ((request.field_id, request.field_id_length), (request.value, request.value_length),
                                (request.rule, request.rule_length)):
            start = pointer - base
            texts.append(raw[start:start + length].decode("utf-8"))
        kind = _async.SecretRequest if texts[0] in self._secrets else Request
        return kind(int(request.id), texts[0], int(request.field_index), texts[1], texts[2], int(request.due))

    def due_requests(self, now_ms: Optional[int] = None) -> List[Request]:
        """Every request due at ``now_ms`` (``None``: the :attr:`clock`'s time), handed out at once,
        in the order :meth:`next_request` gives them."""
        now = self._now() if now_ms is None else _async.check_ms(now_ms)
        requests = []
        while True:
            request = self.next_request(now)
            if request is None:
                return requests
            requests.append(request)

    def resolve(self, request: Union[Request, int], verdict: Union[bool, Verdict, str],
                message: Optional[str] = None) -> Resolution:
        """Applies the host's answer to a request (a :class:`formwell.Request` or its id).

        ``verdict``: ``True`` or ``Verdict.VALID`` (``"valid"``); ``False`` or ``Verdict.INVALID``
        (``"invalid"``), with ``message`` (``None``: the rule's ``message=``, else "Invalid
        value"; the rule's own message wins); ``Verdict.ERROR`` (``"error"``): the check could not
        be made, the field reads invalid with ``message`` or "Could not check this value".

        Answers :attr:`Resolution.APPLIED` (``"applied"``) when it was the field's current
        request, :attr:`Resolution.STALE` (``"stale"``) when the field's value changed (or the form
        was reset, or the field removed) since it was handed out: the result is dropped and
        counted in :attr:`stale_results`. Raises :class:`formwell.UnknownRequestError` for an id
        never issued, :class:`formwell.RequestClosedError` for one already resolved,
        :class:`formwell.InvalidArgumentError` for one not handed out yet; nothing changes then.
        Any thread may call it."""
        rid = _async.request_id(request)
        code = _async.verdict_code(verdict)
        message_b = _encode_optional(message, "message")
        stale = c_bool(False)
        check(lib.fw_form_resolve(self._h, rid, code, message_b, byref(stale)))
        if self._driver is not None:
            self._driver.wake()
        return Resolution.STALE if stale.value else Resolution.APPLIED

    def submit(self, group: Optional[str] = None) -> SubmitResult:
        """Seed 03's submit with asynchronous rules: :meth:`validate` (whole form, or ``group``)
        whose debounced checks fall due at once (a submit does not wait out a debounce), answered
        as a :class:`formwell.SubmitResult`: ``Outcome.INVALID`` when a field taking part fails
        now, else ``Outcome.PENDING`` with the fields waiting for a check (take and resolve them,
        or ``await`` :meth:`validate_async`, then submit again), else ``Outcome.VALID``.
        :attr:`submit_failed` becomes true only for INVALID."""
        handle = self._h
        name = None if group is None else _group_name(group)
        if self._has_async:
            self._tick_now(handle)
        outcome = c_int32(0)
        check(lib.fw_form_submit(handle, name, byref(outcome)))
        if self._driver is not None:
            self._driver.wake()
        result = _OUTCOMES[outcome.value]
        if result is not Outcome.PENDING:
            return SubmitResult(result, [])
        pending = self.pending_fields
        if name is not None:
            member = c_bool(False)
            kept = []
            for field_id in pending:
                check(lib.fw_field_in_group(handle, _encode(field_id, "field id"), name, byref(member)))
                if member.value:
                    kept.append(field_id)
            pending = kept
        return SubmitResult(result, pending)

    @property
    def pending_fields(self) -> List[str]:
        """The ids (registration order) of the fields waiting for an async check (scheduled or
        running) for their value (``fw_form_pending_fields``), whatever their :class:`Mode` shows:
        typing into an ``on_blur`` field lists it here before its first blur, while its state
        still reads what it showed before."""
        indices = self._pending_indices()
        if not indices:
            return []
        ids = self._ids_upto(indices[-1] + 1)
        return [ids[index] for index in indices]

    def _pending_indices(self) -> List[int]:
        """The indices (registration order) of the pending fields, in one fw_form_pending_fields call
        (again, with more room, when another thread made more fields pending in between)."""
        handle = self._h
        count = c_size_t(0)
        capacity = 8
        for _ in range(8):
            indices = (c_size_t * capacity)()
            status = lib.fw_form_pending_fields(handle, indices, capacity, byref(count))
            if status != _FW_ERR_BUFFER_TOO_SMALL:
                break
            capacity = max(count.value, capacity * 2)
        check(status)
        return indices[:count.value]

    def _pending_count(self) -> int:
        """The number of fields whose live verdict is pending (fw_form_info's pending_count)."""
        return int(self._info().pending_count)

    @property
    def stale_results(self) -> int:
        """How many results :meth:`resolve` has dropped as stale since the form was created."""
        return int(self._info().stale_results)

    @property
    def clock_ms(self) -> int:
        """The host time (ms) the library was last told (:meth:`tick`, :meth:`next_request`, a
        value change of a form with async rules); 0 until then."""
        return int(self._info().now_ms)

    @property
    def next_due(self) -> Optional[int]:
        """The host time (ms) at which the next request not yet handed out falls due (it may have
        passed already: take it with :meth:`next_request`), or ``None`` when none is scheduled."""
        due, scheduled = c_uint64(0), c_bool(False)
        check(lib.fw_form_next_due_time(self._h, byref(due), byref(scheduled)))
        return int(due.value) if scheduled.value else None

    def _check_for(self, name: str) -> Optional[AsyncCheck]:
        """The check of the async rules named ``name``: the form's own, else the registry's."""
        found = self._checks.get(name)
        return found if found is not None else _async._registry.get(name)

    async def settle(self) -> None:
        """Runs the asynchronous checks on the running asyncio event loop until nothing is pending.

        Takes every due request and runs its rule's check as a task of the loop; while requests
        wait out their debounce it sleeps until the next falls due (on the form's :attr:`clock`,
        which must follow real time: the default does); applies each result as it completes, so
        results that come back out of order are sorted out by the library (a result for a value
        changed since is dropped as stale: :attr:`stale_results`). Returns when no field is
        pending and every check it started has answered (superseded ones included). Value
        changes while it runs are followed (a keystroke handler may also start one
        ``asyncio.create_task(form.settle())`` per burst). Checks keep running if it is cancelled;
        :meth:`close` cancels them, and a settle running then returns.

        Raises ``LookupError`` (before taking anything) when an async rule of the form has no
        check (see :class:`formwell.AsyncRule`'s ``check``); requests handed out by
        :meth:`next_request` are the caller's to resolve, and settle waits for them."""
        self._require_checks()
        await _async.settle(self)

    async def validate_async(self, group: Optional[str] = None) -> bool:
        """A submit that waits for the asynchronous checks: :meth:`submit` (debounced checks fall
        due at once); while it answers PENDING, runs the checks as :meth:`settle` does until none
        of the pending fields is pending any more, then submits again. Answers the final verdict
        (``True``: every field taking part is valid). Each submit counts as :meth:`validate` does
        (:attr:`submit_count`), so :attr:`submit_failed` and the :attr:`announcement` describe
        the final verdict."""
        self._require_checks()
        return await _async.validate_async(self, group)

    def _require_checks(self) -> None:
        self._h
        missing = [name for name in self._async_names if self._check_for(name) is None]
        if missing:
            raise LookupError(
                f"no check for the async rule(s) {', '.join(map(repr, missing))}: give AsyncRule(check=...), "
                "Form.from_spec(checks=...), form.define_check or formwell.register_check, or answer the "
                "requests with next_request / resolve")
        if self._driver is None:
            self._driver = _async.Driver()

    # ---- messages: the locale ----

    @property
    def locale(self) -> str:
        """The tag of the message catalogue the form's messages and hints are worded from
        (``"en"`` unless set). Settable with any tag a catalogue matches (``"fr"``, ``"fr-CA"``,
        ``"fr_FR"``: case-insensitive, ``_`` read as ``-``, subtags dropped until one matches; then
        this reads ``"fr"``): every field is judged again in the new language, its codes and
        parameters unchanged. An unknown locale raises :class:`formwell.InvalidArgumentError` and
        changes nothing. :func:`formwell.locales` lists the catalogues."""
        handle = self._h
        return read_string(lambda buf, size, length: lib.fw_form_locale(handle, buf, size, length))

    @locale.setter
    def locale(self, locale: str) -> None:
        check(lib.fw_form_set_locale(self._h, _locale_bytes(locale)))
        self._locale_changed()

    # ---- modes ----

    @property
    def mode(self) -> "Mode":
        """The form's validation :class:`Mode` (fields without their own follow it). Settable, with
        a :class:`Mode` or its name; every field following it is re-judged."""
        return _MODES[self._info().mode]

    @mode.setter
    def mode(self, mode: Union["Mode", str]) -> None:
        check(lib.fw_form_set_mode(self._h, _mode_value(mode)))

    @property
    def errors(self) -> str:
        """The error mode, ``"first"`` (each field reports its first failing rule's message) or
        ``"all"`` (every failing rule's, :attr:`FieldState.errors`). Settable."""
        return ERROR_MODES[self._info().error_mode]

    @errors.setter
    def errors(self, errors: str) -> None:
        check(lib.fw_form_set_error_mode(self._h, _error_mode_value(errors)))

    def set_normalizers(self, field_id: str, normalize: Iterable[Union[Normalizer, str]]) -> None:
        """Replaces the field's normalisers (``[]`` removes them). The value set last is normalised
        again and the field, and the fields whose :class:`formwell.Matches` rule names it, are
        re-judged; :attr:`FieldState.value` (what was set) stays."""
        values = _normalizer_values(normalize)
        array = (c_int32 * len(values))(*values) if values else None
        check(lib.fw_field_set_normalizers(self._h, _encode(field_id, "field id"), array, len(values)))

    def normalizers(self, field_id: str) -> List[Normalizer]:
        """The field's normalisers, in order."""
        handle, fid = self._h, _encode(field_id, "field id")
        count = c_size_t(0)
        array = (c_int32 * 8)()
        check(lib.fw_field_normalizers(handle, fid, array, 8, byref(count)))
        members = list(Normalizer)
        return [members[array[index]] for index in range(count.value)]

    def set_secret(self, field_id: str, secret: bool = True) -> None:
        """Marks the field secret (or not): ``repr()`` of its state masks its values and
        :meth:`export_spec` leaves out its initial value."""
        if not isinstance(secret, bool):
            raise TypeError(f"secret must be a bool, not {type(secret).__name__}")
        check(lib.fw_field_set_secret(self._h, _encode(field_id, "field id"), secret))
        if secret:
            self._secrets.add(field_id)
        else:
            self._secrets.discard(field_id)

    def set_mode(self, field_id: str, mode: Union["Mode", str, None]) -> None:
        """Gives the field its own validation :class:`Mode` (or its name); ``None`` makes it follow
        the form's mode again. :attr:`FieldState.mode` reads the mode in force."""
        value = _native.FW_MODE_FORM if mode is None else _mode_value(mode)
        check(lib.fw_field_set_mode(self._h, _encode(field_id, "field id"), value))

    # ---- groups ----

    def add_to_group(self, field_id: str, group: str) -> None:
        """Adds the field to a validation group (as ``add_field(..., groups=[...])`` does)."""
        check(lib.fw_field_add_group(self._h, _encode(field_id, "field id"), _group_name(group)))

    def is_valid_in(self, group: str) -> bool:
        """Whether every field of the group passes its strict rules on its current value (as
        :attr:`is_valid`, for one wizard step). :class:`formwell.InvalidArgumentError` when no field
        belongs to the group."""
        valid = c_bool(False)
        check(lib.fw_form_is_valid_group(self._h, _group_name(group), byref(valid)))
        return bool(valid.value)

    def first_invalid_in(self, group: str) -> Optional[str]:
        """The id of the group's first field (registration order) failing its strict rules, or
        ``None`` (as :attr:`first_invalid`, for one group)."""
        handle, name = self._h, _group_name(group)
        found = read_string(lambda buf, size, length: lib.fw_form_first_invalid_group(handle, name, buf, size, length))
        return found or None

    # ---- errors set from outside ----

    def set_error(self, field_id: str, message: str) -> None:
        """An error from outside (a server's "email already registered"): the field is invalid with
        ``message`` (non-empty), whatever its rules say and even when empty, until its value
        changes, :meth:`clear_error`, :meth:`clear_errors` or :meth:`reset`. It counts for
        :attr:`is_valid` and :attr:`first_invalid`, and shows as an error once the field is
        touched (:attr:`FieldState.external_error` is true, ``failing_rule`` ``None``)."""
        check(lib.fw_field_set_error(self._h, _encode(field_id, "field id"), _encode(message, "message")))

    def clear_error(self, field_id: str) -> None:
        """Removes the field's external error (:meth:`set_error`), if any."""
        check(lib.fw_field_clear_error(self._h, _encode(field_id, "field id")))

    def clear_errors(self) -> None:
        """Removes every field's external error."""
        check(lib.fw_form_clear_errors(self._h))

    # ---- changing a live form ----

    def remove_field(self, field_id: str) -> None:
        """Removes the field. Refused (:class:`formwell.InvalidArgumentError`, nothing changes)
        while another field's :class:`formwell.Matches` rule names it: remove that field first.
        Later fields move down one index; if the field had focus, no field has. Its asynchronous
        requests are cancelled (results of handed-out ones come back stale). Not to be called
        while another thread uses the form (see the class documentation)."""
        handle = self._h
        check(lib.fw_form_remove_field(handle, _encode(field_id, "field id")))
        # Every cached index from here on may be stale: start again (new objects, so a reader that
        # holds the old ones reads consistent, if outdated, data).
        self._indices = {}
        self._ids = []
        self._rule_messages = {}
        self._rule_failures = {}
        initials = dict(self._initials)
        initials.pop(field_id, None)
        self._initials = initials
        self._secrets.discard(field_id)
        if self._has_async:  # its requests were cancelled
            self._driver.wake()  # type: ignore[union-attr]

    def reset(self, values: Optional[Mapping[str, str]] = None) -> None:
        """Every value back to its initial value; every field idle, untouched, not visited and
        unfocused; external errors cleared; :attr:`submit_count` 0 and :attr:`submit_failed` false;
        every asynchronous request cancelled (results of handed-out ones come back stale).

        ``values`` (``{field_id: value}``, seed 03's "save" of a profile edit) first makes those
        the fields' initial values, then resets. An unknown id raises
        :class:`formwell.UnknownFieldError` and changes nothing."""
        if values is None:
            check(lib.fw_form_reset(self._h))
            if self._has_async:  # every request was cancelled
                self._driver.wake()  # type: ignore[union-attr]
            return
        if not isinstance(values, Mapping):
            raise TypeError(f"values must be a mapping of field ids to values, not {type(values).__name__}")
        ids = [_encode(field_id, "field id") for field_id in values]
        data = [_encode(value, "value") for value in values.values()]
        count = len(ids)
        check(lib.fw_form_reset_values(self._h, (c_char_p * count)(*ids), (c_char_p * count)(*data), count))
        if self._has_async:
            self._driver.wake()  # type: ignore[union-attr]
        initials = dict(self._initials)
        initials.update(values)
        self._initials = initials

    # ---- form-level state ----

    def _info(self) -> Any:
        info = _native.fw_form_info(_INFO_SIZE)
        check(lib.fw_form_get_info(self._h, byref(info)))
        return info

    @property
    def focused(self) -> Optional[str]:
        """The id of the field that has focus (:meth:`focus`), or ``None`` when none has
        (``fw_form_focused_field``)."""
        handle = self._h
        index, focused = c_size_t(0), c_bool(False)
        check(lib.fw_form_focused_field(handle, byref(index), byref(focused)))
        if not focused.value:
            return None
        return self._ids_upto(index.value + 1)[index.value]

    @property
    def dirty(self) -> bool:
        """Whether any field's value differs from its initial value."""
        return bool(self._info().dirty)

    @property
    def dirty_fields(self) -> List[str]:
        """The ids of the dirty fields, in registration order (one consistent read, as
        :meth:`states`)."""
        return [state.id for state in self.states() if state.dirty]

    @property
    def submit_count(self) -> int:
        """Whole-form :meth:`validate` calls since the form was made or last reset (a group's
        validate does not count)."""
        return int(self._info().submit_count)

    @property
    def submit_failed(self) -> bool:
        """The last whole-form :meth:`validate` answered false (cleared by :meth:`reset`)."""
        return bool(self._info().submit_failed)

    @property
    def revision(self) -> int:
        """A counter that goes up with every event that changes a field's observable state (or
        the form's submit counters or modes): remember it after a redraw, then
        :meth:`changed_since` names the fields to redraw next time."""
        return int(self._info().revision)

    def changed_since(self, revision: int) -> List[str]:
        """The ids, in registration order, of the fields whose state changed after ``revision``
        (a value of :attr:`revision`); adding a field counts as a change of it."""
        if isinstance(revision, bool) or not isinstance(revision, int):
            raise TypeError(f"revision must be an int, not {type(revision).__name__}")
        if not 0 <= revision <= 0xFFFFFFFFFFFFFFFF:
            raise InvalidArgumentError(f"revision {revision} is out of range (0 ... 2**64 - 1)",
                                       _native.FW_ERR_INVALID_ARGUMENT)
        handle = self._h
        capacity = max(len(self), 1)
        count = c_size_t(0)
        for _ in range(8):
            indices = (c_size_t * capacity)()
            status = lib.fw_form_changed_since(handle, revision, indices, capacity, byref(count))
            if status != _FW_ERR_BUFFER_TOO_SMALL:
                break
            capacity = max(count.value, capacity + 1)  # a field was added meanwhile
        check(status)
        total = count.value
        ids = self._ids_upto(max(indices[:total], default=-1) + 1)
        return [ids[index] for index in indices[:total]]

    @property
    def announcement(self) -> str:
        """After a failed submit (:attr:`submit_failed`), the screen-reader announcement naming the
        fields that fail now by label: ``"2 fields need attention: Email, Password"``; else ``""``."""
        handle = self._h
        return read_string(lambda buf, size, length: lib.fw_form_announcement(handle, buf, size, length))

    @property
    def match_limits(self) -> MatchLimits:
        """The form's PCRE2 limits, read from the library (a new form has the library's defaults:
        1,000,000 match steps, depth 100,000, 16,384 KiB of heap)."""
        match, depth, heap = c_uint32(0), c_uint32(0), c_uint32(0)
        check(lib.fw_form_match_limits(self._h, byref(match), byref(depth), byref(heap)))
        return MatchLimits(match.value, depth.value, heap.value)

    def set_match_limits(
        self,
        match_limit: Optional[int] = None,
        depth_limit: Optional[int] = None,
        heap_limit_kib: Optional[int] = None,
    ) -> None:
        """Sets the PCRE2 limits of every pattern rule of the form (Email, Phone, Regex) and re-runs
        every field's rules under them; a limit left ``None`` keeps its current value (see
        :attr:`match_limits`). A value that hits a limit makes its field invalid with "This value
        is too complex to check" and :attr:`FieldState.limit_exceeded` true; never valid, never a
        hang. Each limit must be in 1 ... 2**32 - 1.

        ``form.set_match_limits(*Form().match_limits)`` puts the library's defaults back."""
        given = (("match_limit", match_limit), ("depth_limit", depth_limit), ("heap_limit_kib", heap_limit_kib))
        for name, limit in given:
            if limit is None:
                continue
            if isinstance(limit, bool) or not isinstance(limit, int):
                raise TypeError(f"{name} must be an int or None, not {type(limit).__name__}")
            if not 0 <= limit <= 0xFFFFFFFF:  # 0 is left to the library to refuse
                raise InvalidArgumentError(f"{name} {limit} is out of range (1 ... 4294967295)", 7)
        handle = self._h
        if None in (match_limit, depth_limit, heap_limit_kib):
            current = self.match_limits
            limits = [current[i] if limit is None else limit for i, (_, limit) in enumerate(given)]
        else:
            limits = [match_limit, depth_limit, heap_limit_kib]
        check(lib.fw_form_set_match_limits(handle, *limits))

    @property
    def time_limit(self) -> float:
        """The work budget of one match of a pattern rule for a value up to 1 MiB, in seconds of a
        deterministic cost model (fw_form_set_time_limit; longer values get proportionally more);
        0.005 by default. No clock is read: a verdict does not depend on the machine's load. A
        match cut short makes its field invalid with "This value is too complex to check", as the
        step limits do. Setting it re-runs every field's rules; it must be in 1 µs ... about 71
        minutes."""
        micros = c_uint32(0)
        check(lib.fw_form_time_limit(self._h, byref(micros)))
        return micros.value / 1_000_000

    @time_limit.setter
    def time_limit(self, seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"time_limit must be a number of seconds, not {type(seconds).__name__}")
        micros = round(seconds * 1_000_000)
        if not 1 <= micros <= 0xFFFFFFFF:
            raise InvalidArgumentError(f"time_limit {seconds!r} s is out of range (1e-06 ... 4294.967295)", 7)
        check(lib.fw_form_set_time_limit(self._h, micros))

    # ---- queries ----

    def state(self, field_id: str) -> FieldState:
        """A :class:`FieldState` of the field, read in one library call (``fw_field_snapshot_at``)."""
        try:
            index = self._indices[field_id]
        except (KeyError, TypeError):
            index = self._index_of(field_id)
        handle = self._handle
        if handle is None:
            handle = self._h  # raises InvalidHandleError
        pool = self._pool
        try:
            scratch = pool.pop()
        except IndexError:
            scratch = _scratch(self._text_size)
        snapshot, ref, data, size, _ = scratch
        status = _snapshot_at(handle, index, ref, data, size)
        if status:
            if status == _FW_ERR_BUFFER_TOO_SMALL:  # this buffer is dropped for a bigger one
                return self._read_state(field_id, index, snapshot.text_size)
            snapshot.size = _SNAPSHOT_SIZE  # a failed call leaves the members unspecified
            pool.append(scratch)
            _native.raise_for_status(status)
        state = _field_state(field_id, _unpack(snapshot), data, 0)
        pool.append(scratch)
        return state

    def _grow(self, text_size: int) -> _Scratch:
        """A scratch buffer of at least ``text_size`` bytes; later ones get that size too (up to
        _TEXT_KEEP, so one huge value does not make every later buffer huge)."""
        if self._text_size < text_size <= _TEXT_KEEP:
            self._text_size = text_size
        return _scratch(max(text_size, self._text_size))

    def _read_state(self, field_id: str, index: c_size_t, text_size: int) -> FieldState:
        """state() once the library said the texts need ``text_size`` bytes: a bigger buffer,
        and again while the texts keep growing (another thread may be changing the value)."""
        handle = self._h
        for _ in range(8):
            scratch = self._grow(text_size)
            snapshot, ref, data, size, allocated = scratch
            status = _snapshot_at(handle, index, ref, data, size)
            if status == FW_OK:
                if allocated <= _TEXT_KEEP:
                    self._pool.append(scratch)
                return _field_state(field_id, _unpack(snapshot), data, 0)
            if status != _FW_ERR_BUFFER_TOO_SMALL:
                break
            # The texts grew since the library gave their size: another thread is changing the
            # value. Twice the buffer, so a value that keeps growing cannot outrun the retries.
            text_size = max(snapshot.text_size, 2 * allocated)
        _native.raise_for_status(status)
        raise AssertionError("unreachable")  # pragma: no cover

    def states(self) -> List[FieldState]:
        """Every field's :class:`FieldState`, in registration order, read in one library call
        (``fw_form_snapshots``): one consistent moment, even while other threads change the form."""
        handle = self._h
        capacity, text_size = self._states_sizes
        count, needed = c_size_t(0), c_size_t(0)
        for _ in range(8):
            snapshots = (_native.fw_snapshot * capacity).from_buffer_copy(_SNAPSHOT_TEMPLATE * capacity)
            data = create_string_buffer(text_size)
            status = lib.fw_form_snapshots(handle, snapshots, capacity, byref(count), data, text_size, byref(needed))
            if status == FW_OK:
                break
            if status != _native.FW_ERR_BUFFER_TOO_SMALL:
                check(status)
            if count.value > capacity:
                capacity = count.value + 4
            else:
                text_size = max(needed.value, 2 * text_size)  # as in _read_state: outgrow a writer
        else:
            check(status)
        # Sizes for next time: the field count only grows; the texts may shrink again (a huge
        # value once should not make every later call allocate as much).
        self._states_sizes = (capacity, min(max(text_size, needed.value), 16 * _TEXT_KEEP))
        total = count.value
        ids = self._ids_upto(total)
        states = []
        start = 0  # the texts of one field after another's (see fw_form_snapshots)
        for index in range(total):
            members = _unpack(snapshots, index * _SNAPSHOT_SIZE)
            states.append(_field_state(ids[index], members, data, start))
            start += members[_TEXT_BYTES]
        return states

    def value(self, field_id: str) -> str:
        """The field's current value."""
        return self.state(field_id).value

    def __getitem__(self, field_id: str) -> str:
        return self.state(field_id).value

    def __contains__(self, field_id: object) -> bool:
        if not isinstance(field_id, str) or "\0" in field_id:
            return False
        handle = self._h
        if field_id in self._indices:
            return True
        try:
            fid = field_id.encode("utf-8")
        except UnicodeEncodeError:
            return False
        index = c_size_t(0)
        status = _field_index(handle, fid, byref(index))
        if status == FW_ERR_UNKNOWN_FIELD:
            return False
        check(status)
        if field_id.__class__ is str:
            self._indices[field_id] = index
        return True

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
        count = len(self)
        return self._ids_upto(count)[:count]

    @property
    def values(self) -> Dict[str, str]:
        """Every field's current value for submission, in registration order: normalised
        (:attr:`FieldState.normalized_value`; what the rules judged). A new dict each time; one
        consistent read, as :meth:`states`."""
        return {state.id: state.normalized_value for state in self.states()}

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


def _group_name(group: Any) -> bytes:
    """A group name's bytes: a non-empty str."""
    if not isinstance(group, str):
        raise TypeError(f"a group name must be a str, not {type(group).__name__}")
    if not group:
        raise InvalidArgumentError("a group name must not be empty", _native.FW_ERR_INVALID_ARGUMENT)
    return _encode(group, "group name")


def _spec_text(spec: SpecSource) -> str:
    if isinstance(spec, Mapping):
        import json

        return json.dumps(spec)
    if isinstance(spec, str) and spec.lstrip().startswith("{"):
        return spec
    if isinstance(spec, (str, os.PathLike)):
        with open(spec, encoding="utf-8") as file:
            return file.read()
    raise TypeError(f"a spec is a dict, JSON text or a path, not {type(spec).__name__}")
