"""Field states and the values they are made of: the enums (:class:`Phase`, :class:`Validity`,
:class:`Display`, :class:`Tint`, :class:`Normalizer`, :class:`Mode`), :class:`FieldState`,
:class:`MatchLimits`, and the parsing of the parameters that name them (a mode's name, an error
mode, normalisers, a group name, a spec source, a failure's parameters).

A :class:`FieldState` is built from one ``fw_snapshot`` read (:func:`field_state`): it keeps the
members :data:`formwell._native.SNAPSHOT` unpacked and the texts' UTF-8 bytes, and works a member
out when it is read.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field as _member
from operator import attrgetter
from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Optional, Tuple, Union

from . import _native
from ._native import SNAPSHOT_MEMBERS
from ._rule_base import encode
from .errors import InvalidArgumentError

__all__ = ["FieldState", "MatchLimits", "Phase", "Validity", "Display", "Mode", "Tint", "Normalizer"]

#: What :meth:`Form.from_spec` accepts: a spec dict, JSON text, or the path of a JSON file.
SpecSource = Union[Mapping[str, Any], str, "os.PathLike[str]"]


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


def normalizer_values(normalize: Any) -> List[int]:
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

#: Enum members by C value: indexing a tuple is much cheaper than calling ``Phase(value)``.
PHASES = tuple(Phase)
VALIDITIES = tuple(Validity)
DISPLAYS = tuple(Display)
TINTS = tuple(Tint)
#: fw_mode values by Mode (FW_MODE_ and the member's name), and Modes by fw_mode value (0 ... 4).
MODE_VALUES = {mode: getattr(_native, "FW_MODE_" + mode.name) for mode in Mode}
MODES = tuple(sorted(Mode, key=MODE_VALUES.__getitem__))
assert [m.value for m in PHASES] == [0, 1, 2] == [m.value for m in VALIDITIES][:3] == [m.value for m in DISPLAYS]


# ---- parameters ----


def mode_value(mode: Any, what: str = "mode") -> int:
    """The fw_mode value of a :class:`Mode` or its name (``"on_blur"``)."""
    if isinstance(mode, str):
        try:
            return MODE_VALUES[Mode(mode)]
        except ValueError:
            pass
        names = ", ".join(m.value for m in MODES)
        raise InvalidArgumentError(f"unknown {what} {mode!r} (expected one of: {names})", _native.FW_ERR_INVALID_ARGUMENT)
    raise TypeError(f"{what} must be a formwell.Mode or its name (str), not {type(mode).__name__}")


def error_mode_value(errors: Any) -> int:
    """The fw_error_mode value of "first" or "all"."""
    if not isinstance(errors, str):
        raise TypeError(f"errors must be 'first' or 'all', not {type(errors).__name__}")
    try:
        return ERROR_MODES.index(errors)
    except ValueError:
        raise InvalidArgumentError(f"unknown error mode {errors!r} (expected first or all)",
                                   _native.FW_ERR_INVALID_ARGUMENT) from None


def group_name(group: Any) -> bytes:
    """A group name's bytes: a non-empty str."""
    if not isinstance(group, str):
        raise TypeError(f"a group name must be a str, not {type(group).__name__}")
    if not group:
        raise InvalidArgumentError("a group name must not be empty", _native.FW_ERR_INVALID_ARGUMENT)
    return encode(group, "group name")


def spec_text(spec: SpecSource) -> str:
    """The JSON text of a spec given as a dict, JSON text or the path of a JSON file."""
    if isinstance(spec, Mapping):
        import json

        return json.dumps(spec)
    if isinstance(spec, str) and spec.lstrip().startswith("{"):
        return spec
    if isinstance(spec, (str, os.PathLike)):
        with open(spec, encoding="utf-8") as file:
            return file.read()
    raise TypeError(f"a spec is a dict, JSON text or a path, not {type(spec).__name__}")


def params_text(params: Union[Mapping[str, Any], str, None]) -> str:
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


def parse_params(text: str) -> Dict[str, Any]:
    """The library's parameters text as a new dict (what FieldState.params and friends answer)."""
    if text == "{}":
        return {}
    import json

    return json.loads(text)


# ---- field states ----

#: FieldState's members, in declaration order (as the dataclasses module lists them).
MEMBER_NAMES = ("id", "value", "phase", "validity", "message", "display", "display_message", "touched",
                "limit_exceeded", "failing_rule", "index",
                "visited", "dirty", "initial", "modified_since_submit", "external_error", "errors", "mode",
                "tint", "label_raised", "emphasized", "label", "accessibility_hint", "revision", "normalized_value",
                "secret", "code", "params", "display_code", "display_params", "error_codes")
#: Members a secret field's printed form masks.
_SECRET_MEMBERS = ("value", "normalized_value", "initial")
_new = object.__new__


def _at(name: str) -> int:
    """Where the fw_snapshot member ``name`` is in what _native.SNAPSHOT unpacks."""
    return SNAPSHOT_MEMBERS.index(name)


_TEXT_SIZE = _at("text_size")
_ERROR_COUNT = _at("error_count")
_MESSAGE_LENGTH = _at("message_length")
_DISPLAY_MESSAGE_LENGTH = _at("display_message_length")
_DISPLAY = _at("display")
_FAILING_RULE = _at("failing_rule")
_DIRTY = _at("dirty")
#: Display.ERROR's C value (what error and accessibility_value compare with).
_ERROR_DISPLAY = DISPLAYS.index(Display.ERROR)


class TextLayout(NamedTuple):
    """Where each text of a state is in its buffer split at the NULs (:func:`text_layout`): a
    position, or a slice for the error messages and their codes."""

    message: int
    display_message: int
    value: int
    label: int
    initial: int
    accessibility_hint: int
    errors: slice
    normalized_value: int
    code: int
    #: The failure's parameters as the library's JSON object text.
    params: int
    display_code: int
    display_params: int
    error_codes: slice


#: Layouts by error count, made once each (a field has at most a few dozen rules).
_LAYOUTS: Dict[int, TextLayout] = {}


def text_layout(error_count: int) -> TextLayout:
    """The layout of a snapshot's texts with ``error_count`` errors. The buffer holds, each
    followed by a NUL: the message, the display message, the value, the label, the initial value
    and the accessibility hint; the error messages, then one more NUL; the normalised value, the
    code, the parameters, the display code and the display parameters; the error codes, then one
    more NUL. The library only ever copies valid UTF-8, and no text holds a NUL, so splitting the
    decoded buffer at its NULs gives the texts, and two empty ones at the end."""
    layout = _LAYOUTS.get(error_count)
    if layout is None:
        errors_end = 6 + error_count
        after = errors_end + 1  # (past the list's own NUL)
        layout = _LAYOUTS[error_count] = TextLayout(
            message=0, display_message=1, value=2, label=3, initial=4, accessibility_hint=5,
            errors=slice(6, errors_end), normalized_value=after, code=after + 1, params=after + 2,
            display_code=after + 3, display_params=after + 4, error_codes=slice(after + 5, -2))
    return layout


def _decode(state: "FieldState") -> List[str]:
    """The state's texts, decoded on their first read, then kept with their layout (two threads
    may both decode: the same texts)."""
    texts = state._raw.decode().split("\0")
    state._layout = text_layout(state._snapshot[_ERROR_COUNT])
    state._texts = texts  # (after the layout: a reader that finds the texts finds the layout)
    return texts


def _plain(name: str, doc: str) -> Any:
    """A property reading the fw_snapshot member ``name`` as the library gave it (a bool or an int)."""
    position = _at(name)

    def read(self: "FieldState") -> Any:
        return self._snapshot[position]

    return property(read, doc=doc)


def _enum(name: str, members: Tuple[Any, ...], doc: str) -> Any:
    """A property mapping the C value of the fw_snapshot member ``name`` to its member of
    ``members``; a constructed state may hold anything else (``phase=None``), returned as it is."""
    position = _at(name)

    def read(self: "FieldState") -> Any:
        value = self._snapshot[position]
        return members[value] if value.__class__ is int else value

    return property(read, doc=doc)


def _c_value(member: Any, members: Tuple[Any, ...]) -> Any:
    """What a constructed state holds for an enum member: its C value (as the library's states
    hold it), anything else as it is."""
    for value, candidate in enumerate(members):
        if member is candidate:
            return value
    return member


class FieldState:
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

    __slots__ = ("_id", "_raw", "_snapshot", "_texts", "_layout")
    #: The field id.
    _id: str
    #: The texts as the library copied them (UTF-8, NUL-separated; see :func:`text_layout`).
    _raw: bytes
    #: The fw_snapshot members, as _native.SNAPSHOT unpacks them (see _native.SNAPSHOT_MEMBERS).
    _snapshot: Tuple[Any, ...]
    #: The decoded texts, split at their NULs, once one was read (else None).
    _texts: Optional[List[str]]
    #: Where each text is in _texts (set with them).
    _layout: TextLayout

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
        # The members as the library's states hold them (see field_state), so that a state built
        # here equals the one a form reports.
        for name, texts in (("errors", errors), ("error_codes", error_codes)):
            if isinstance(texts, str):
                raise TypeError(f"{name} must be a sequence of texts, not a str")
        errors, error_codes = tuple(errors), tuple(error_codes)
        params_json, display_params_json = params_text(params), params_text(display_params)
        texts = [message, display_message, value, id if label is None else label, initial, accessibility_hint,
                 *errors, "", value if normalized_value is None else normalized_value,
                 code, params_json, display_code, display_params_json, *error_codes, "", ""]
        for text in texts:
            if not isinstance(text, str):
                raise TypeError(f"a FieldState text must be a str, not {type(text).__name__}")
            if "\0" in text:
                raise ValueError("a FieldState text must not contain NUL characters")
        raw = "\0".join(texts).encode()
        try:
            mode = MODE_VALUES.get(mode, mode)  # a mode's name too ("on_blur" is Mode.ON_BLUR)
        except TypeError:  # unhashable: kept as it is
            pass
        members = {
            "index": index, "phase": _c_value(phase, PHASES), "validity": _c_value(validity, VALIDITIES),
            "display": _c_value(display, DISPLAYS), "failing_rule": -1 if failing_rule is None else failing_rule,
            "touched": touched, "limit_exceeded": limit_exceeded, "message_length": len(message.encode()),
            "display_message_length": len(display_message.encode()), "text_size": len(raw), "visited": visited,
            "dirty": dirty, "modified_since_submit": modified_since_submit, "external_error": external_error,
            "label_raised": label_raised, "emphasized": emphasized, "mode": mode, "tint": _c_value(tint, TINTS),
            "revision": revision, "error_count": len(errors), "secret": secret, "code_length": len(code.encode()),
            "params_length": len(params_json.encode()), "display_code_length": len(display_code.encode()),
            "display_params_length": len(display_params_json.encode()),
            "error_codes_size": sum(len(text.encode()) + 1 for text in error_codes),
        }
        state = _new(cls)
        state._id = id
        state._raw = raw
        state._snapshot = tuple(members[name] for name in SNAPSHOT_MEMBERS)
        state._texts = None
        return state

    id: str = property(attrgetter("_id"), doc="The field id.")  # type: ignore[assignment]
    phase: Phase = _enum("phase", PHASES, "The :class:`Phase`.")  # type: ignore[assignment]
    validity: Validity = _enum("validity", VALIDITIES, "The :class:`Validity` the field shows.")  # type: ignore[assignment]
    display: Display = _enum("display", DISPLAYS, "The :class:`Display`: what a view shows.")  # type: ignore[assignment]
    touched: bool = _plain("touched", "Blurred or touched since added or reset.")  # type: ignore[assignment]
    limit_exceeded: bool = _plain("limit_exceeded", "The verdict comes from a pattern's match limits.")  # type: ignore[assignment]
    index: Optional[int] = _plain("index", "Position in registration order.")  # type: ignore[assignment]
    visited: bool = _plain("visited", "Has had focus since added or reset.")  # type: ignore[assignment]
    dirty: bool = _plain("dirty", "The value differs from the initial value (bytes).")  # type: ignore[assignment]
    modified_since_submit: bool = _plain("modified_since_submit", "Changed since it last took part in a validate.")  # type: ignore[assignment]
    external_error: bool = _plain("external_error", "An error set by Form.set_error is in force.")  # type: ignore[assignment]
    mode: "Mode" = _enum("mode", MODES, "The :class:`Mode` the field is judged in.")  # type: ignore[assignment]
    tint: "Tint" = _enum("tint", TINTS, "The :class:`Tint` (seed 01's tint color).")  # type: ignore[assignment]
    label_raised: bool = _plain("label_raised", "The floating label is raised (not idle and empty).")  # type: ignore[assignment]
    emphasized: bool = _plain("emphasized", "The field has focus (seed 01's thicker stroke).")  # type: ignore[assignment]
    revision: int = _plain("revision", "The form revision at which this state last changed.")  # type: ignore[assignment]
    secret: bool = _plain("secret", "The field is secret: repr() masks its values.")  # type: ignore[assignment]

    @property
    def value(self) -> str:
        """The current value."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.value]

    @property
    def message(self) -> str:
        """The message of an INVALID validity, else ``''`` (an empty one is answered without
        decoding anything)."""
        if not self._snapshot[_MESSAGE_LENGTH]:
            return ""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.message]

    @property
    def display_message(self) -> str:
        """The error to show (Display.ERROR), else ``''``."""
        if not self._snapshot[_DISPLAY_MESSAGE_LENGTH]:
            return ""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.display_message]

    @property
    def initial(self) -> str:
        """The initial value (what reset restores)."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.initial]

    @property
    def label(self) -> str:
        """The label, or the id when the field has none."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.label]

    @property
    def accessibility_hint(self) -> str:
        """A prompt to correct the field while its display is ERROR, else ``''``."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.accessibility_hint]

    @property
    def failing_rule(self) -> Optional[int]:
        """Position of the failing rule, or None."""
        rule = self._snapshot[_FAILING_RULE]
        return None if rule == -1 else rule

    @property
    def errors(self) -> List[str]:
        """The shown validity's messages (a new list): one in error mode "first", every failing
        rule's in mode "all"; ``[]`` unless the validity is INVALID."""
        if not self._snapshot[_ERROR_COUNT]:
            return []
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.errors]

    @property
    def normalized_value(self) -> str:
        """The value after the field's normalisers (what the rules judged)."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.normalized_value]

    @property
    def code(self) -> str:
        """The stable code of the failure ``message`` reports (``"min_length"``), else ``""``."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.code]

    @property
    def params(self) -> Dict[str, Any]:
        """The parameters of ``message``'s failure (a new dict; ``{}`` for none or unless invalid)."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return parse_params(texts[self._layout.params])

    @property
    def display_code(self) -> str:
        """The code of ``display_message`` (the displayed error), else ``""``."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return texts[self._layout.display_code]

    @property
    def display_params(self) -> Dict[str, Any]:
        """The parameters of ``display_message``'s failure (a new dict; ``{}`` for none)."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return parse_params(texts[self._layout.display_params])

    @property
    def error_codes(self) -> Tuple[str, ...]:
        """The code of each message of :attr:`errors`, in the same order (``()`` unless invalid)."""
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        return tuple(texts[self._layout.error_codes])

    @property
    def pristine(self) -> bool:
        """Not :attr:`dirty`: the value is the initial value."""
        return not self._snapshot[_DIRTY]

    @property
    def accessibility_value(self) -> str:
        """Seed 03's accessibility value: the error text while the display is ERROR, else ``""``."""
        return self.display_message if self._snapshot[_DISPLAY] == _ERROR_DISPLAY else ""

    @property
    def error(self) -> Optional[str]:
        """The message to show under the field, or ``None`` (seed 03's surfacing rule)."""
        return self.display_message if self._snapshot[_DISPLAY] == _ERROR_DISPLAY else None

    def __eq__(self, other: object) -> bool:
        # The id, the texts' bytes and the members (the decoded texts are the same bytes).
        if other.__class__ is self.__class__:
            return (self._id == other._id and self._raw == other._raw
                    and self._snapshot == other._snapshot)  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._id, self._raw, self._snapshot))

    def __repr__(self) -> str:
        members = {name: getattr(self, name) for name in MEMBER_NAMES[: MEMBER_NAMES.index("secret") + 1]}
        if members["secret"]:  # a secret field's values are never printed
            for name in _SECRET_MEMBERS:
                if members[name]:
                    members[name] = "***"
        members["code"] = self.code  # (params and the display's code: dataclass repr=False)
        return "FieldState(" + ", ".join(f"{name}={value!r}" for name, value in members.items()) + ")"

    def __reduce__(self) -> Any:
        return (restore_state, (self._id, self._raw, self._snapshot))

    def _members(self) -> Dict[str, Any]:
        """Every member by name, ``params`` and ``display_params`` as their JSON texts."""
        members = {name: getattr(self, name) for name in MEMBER_NAMES}
        texts = self._texts
        if texts is None:
            texts = _decode(self)
        layout = self._layout
        members["params"], members["display_params"] = texts[layout.params], texts[layout.display_params]
        return members

    def _asdict(self) -> Dict[str, Any]:
        """The members as a dict, in declaration order (``errors`` as a list, ``params`` and
        ``display_params`` as dicts)."""
        return {name: getattr(self, name) for name in MEMBER_NAMES}

    def _replace(self, **changes: Any) -> "FieldState":
        """A copy with some members replaced (as :func:`dataclasses.replace`)."""
        members = self._members()  # params as their texts: kept exactly
        unknown = set(changes) - set(members)
        if unknown:
            raise TypeError(f"FieldState has no member {sorted(unknown)[0]!r}")
        members.update(changes)
        return FieldState(**members)

    __replace__ = _replace  # copy.replace (Python 3.13)


def field_state(field_id: str, snapshot: Tuple[Any, ...], data: Any, start: int) -> FieldState:
    """A FieldState from an unpacked fw_snapshot (see _native.SNAPSHOT) whose texts were copied
    into ``data`` from offset ``start`` (its ``text_size`` bytes, laid out as
    :func:`text_layout` says). Nothing is computed or decoded here: the state keeps the members and the
    bytes."""
    state = _new(FieldState)
    state._id = field_id
    state._raw = data[start : start + snapshot[_TEXT_SIZE]]
    state._snapshot = snapshot
    state._texts = None
    return state


def restore_state(field_id: str, raw: bytes, snapshot: Tuple[Any, ...]) -> FieldState:
    """Unpickling a FieldState: its id, texts and members as they were."""
    return field_state(field_id, tuple(snapshot), raw, 0)


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


FieldState.__dataclass_fields__ = _FieldStateMembers.__dataclass_fields__  # type: ignore[attr-defined]
FieldState.__dataclass_params__ = _FieldStateMembers.__dataclass_params__  # type: ignore[attr-defined]
assert tuple(FieldState.__dataclass_fields__) == MEMBER_NAMES  # type: ignore[attr-defined]


class MatchLimits(NamedTuple):
    """A form's PCRE2 match limits (:attr:`Form.match_limits`, :meth:`Form.set_match_limits`)."""

    #: Match steps (PCRE2's match limit).
    match_limit: int
    #: Backtracking depth (PCRE2's depth limit).
    depth_limit: int
    #: Heap for backtracking, in KiB.
    heap_limit_kib: int

