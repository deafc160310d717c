"""The base of the generated rule classes (:mod:`formwell._rule_classes`): a rule is its kind's name
and its parameter values, passed to the library as the rule's spec JSON (``FW_RULE_JSON``), so the
library alone checks parameters against its catalogue."""

from __future__ import annotations

import ctypes
import json
from typing import Any, Dict, Optional, Tuple

from . import _native
from ._rule_kinds import CATALOG
from .errors import InvalidArgumentError

_INT32_MAX = 2**31 - 1


class Rule:
    """Base class of rules. Not instantiated directly."""

    __slots__ = ()
    message: Optional[str]

    def c_rule(self) -> "_native.fw_rule":  # pragma: no cover
        """This rule as the ``fw_rule`` that :meth:`formwell.Form.add_field` passes to
        ``fw_form_add_field_with_rules`` (the struct keeps its strings alive). The binding's own
        surface between the rule classes and the form layer, not meant for users' code."""
        raise NotImplementedError


def encode(text: str, what: str) -> bytes:
    """UTF-8 bytes of a string argument; refuses non-strings, NULs and lone surrogates."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    if "\0" in text:
        raise ValueError(f"{what} must not contain NUL characters (the C ABI would truncate it)")
    return text.encode("utf-8")  # UnicodeEncodeError (a ValueError) for lone surrogates


def encode_optional(text: Optional[str], what: str) -> Optional[bytes]:
    return None if text is None else encode(text, what)


def rule_struct(kind: int, message: Optional[str], hint: Optional[str], text: Optional[bytes] = None,
                 length: int = 0) -> "_native.fw_rule":
    rule = _native.fw_rule()
    rule.size = _STRUCT_SIZE
    rule.kind = kind
    rule.length = length
    rule.text = text
    rule.message = encode_optional(message, "message")
    rule.hint = encode_optional(hint, "hint")
    return rule


_STRUCT_SIZE = ctypes.sizeof(_native.fw_rule)


def check_length(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not 0 <= value <= _INT32_MAX:
        raise InvalidArgumentError(f"{what} {value} is out of range (0 ... {_INT32_MAX})", 7)
    return value


def _decimal_json(value: Any, what: str) -> Any:
    """A decimal parameter as JSON: an int as a number, text (str, Decimal, float) as its exact
    decimal string (never an exponent)."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be a number or a decimal string, not bool")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return value
    import decimal  # only here: importing formwell does not pay for it

    if isinstance(value, float):
        value = decimal.Decimal(repr(value))
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise ValueError(f"{what} must be finite")
        return format(value, "f")
    raise TypeError(f"{what} must be an int, str or decimal.Decimal, not {type(value).__name__}")


class TableRule(Rule):
    """A rule of the library's catalogue: immutable, compared and hashed by kind and values."""

    __slots__ = ("_values", "message", "hint")
    KIND = ""
    C_VALUE = -1
    #: (catalogue parameter name, Python attribute name), in order.
    PARAMETERS: Tuple[Tuple[str, str], ...] = ()

    def _init(self, values: Tuple[Any, ...], message: Optional[str], hint: Optional[str]) -> None:
        catalog = _kind(self.KIND)
        checked = []
        for (name, attr), value in zip(self.PARAMETERS, values):
            if value is not None:
                value = _check(catalog[name], value, f"{type(self).__name__} {attr}")
            object.__setattr__(self, attr, value)
            checked.append(value)
        object.__setattr__(self, "_values", tuple(checked))
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "hint", hint)
        encode_optional(message, "message")
        encode_optional(hint, "hint")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + tuple(_hashable(v) for v in self._key()))

    def _key(self) -> Tuple[Any, ...]:
        return self._values + (self.message, self.hint)

    def __repr__(self) -> str:
        parts = [f"{attr}={value!r}" for (_, attr), value in zip(self.PARAMETERS, self._values) if value is not None]
        parts += [f"{name}={getattr(self, name)!r}" for name in ("message", "hint") if getattr(self, name) is not None]
        return f"{type(self).__name__}({', '.join(parts)})"

    def to_spec(self) -> Dict[str, Any]:
        """The rule object as in a spec (``{"rule": "min_length", "length": 8}``)."""
        spec: Dict[str, Any] = {"rule": self.KIND}
        for (name, attr), value in zip(self.PARAMETERS, self._values):
            if value is None:
                continue
            spec[name] = list(value) if isinstance(value, tuple) else value
        if self.message is not None:
            spec["message"] = self.message
        if self.hint is not None:
            spec["hint"] = self.hint
        return spec

    def c_rule(self) -> "_native.fw_rule":
        text = json.dumps(self.to_spec(), ensure_ascii=False, separators=(",", ":"))
        # message and hint travel inside the JSON; the struct's members stay NULL.
        return rule_struct(_native.FW_RULE_JSON, None, None, text=encode(text, "rule"))


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _kind(name: str) -> Dict[str, Dict[str, Any]]:
    for kind in CATALOG["kinds"]:
        if kind["name"] == name:
            return {p["name"]: p for p in kind["parameters"]}
    raise KeyError(name)  # pragma: no cover - generated classes name catalogue kinds


def _check(parameter: Dict[str, Any], value: Any, what: str) -> Any:
    """A Python value of a parameter, checked for its type (the library checks the rest)."""
    kind = parameter["type"]
    if kind == "integer":
        return check_length(value, what)
    if kind in ("string", "field_id", "choice", "pattern"):
        encode(value, what)
        if kind == "choice" and value not in parameter["choices"]:
            raise ValueError(f"{what} must be one of {', '.join(parameter['choices'])}, not {value!r}")
        return value
    if kind == "string_list":
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise TypeError(f"{what} must be a list of str, not {type(value).__name__}")
        items = tuple(value)
        for item in items:
            encode(item, what)
        return items
    if kind == "decimal":
        return _decimal_json(value, what)
    return value  # pragma: no cover - a new type: the library checks it
