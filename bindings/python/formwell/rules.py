"""Validation rules: immutable descriptions passed to :meth:`formwell.Form.add_field`.

Rules run in the order given; the first failing rule's message is the field's message (in a form
with ``errors="all"``, :attr:`formwell.FieldState.errors` lists every failing rule's message). Every
rule takes ``message=`` to replace its default message, and ``hint=`` to replace its default
accessibility hint (:attr:`formwell.FieldState.accessibility_hint`, surfaced while the field shows
this rule's message as its error).

The rule classes of the library's catalogue (``Required``, ``Email``, ``MinLength(8, unit="utf16")``,
``Url(schemes=[...])``, ``PasswordStrength(min_score=3)``, ``Integer(min=..., max=...)``,
``OneOf([...])``, ``RequiredIf("country", "US")``, ...) are generated from it into
:mod:`formwell._rule_classes` (scripts/gen_rules.py); each class's docstring gives its parameters and
default message, and docs/rules-and-messages.md lists them all. Written here: :class:`Custom` and
:class:`AsyncRule` (they carry Python callables) and :class:`RuleSet` (named lists of rules).

An :class:`AsyncRule` is checked by the host, not the library, and always runs after the field's
synchronous rules, whatever its place in the list (its failures are numbered after them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Union

from . import _native
from ._callbacks import DESTROY_FN, VALIDATE_FN, new_context
from ._callbacks import Validator as Validator, ValidatorResult as ValidatorResult  # (explicit re-exports)
from ._callbacks import live_custom_contexts as live_custom_contexts
from ._rule_base import Rule as Rule  # (the "as" form: an explicit re-export, which type checkers read)
from ._rule_base import TableRule, encode, rule_struct
from ._rule_classes import *  # noqa: F401,F403  (the catalogue's rule classes)
from ._rule_classes import __all__ as _catalog_names
from .errors import InvalidArgumentError

#: What an asynchronous check returns (awaited when it is awaitable): None/True (valid), a message
#: (invalid), False (invalid with the rule's message or the default one).
AsyncCheck = Callable[[str], Union[ValidatorResult, Awaitable[ValidatorResult]]]

_INT32_MAX = 2**31 - 1


class RuleSet(Rule):
    """A named list of rules used as one (seed 03's ``CombinedValidator``; a spec's ``rule_sets``):
    ``password = RuleSet("password", [Required(), MinLength(8), PasswordStrength()])``, then
    ``form.add_field("password", [password])``. Adding it defines the set on the form (a set of the
    same name is replaced for later uses) and adds its rules; :meth:`formwell.Form.to_spec` writes
    them back as ``{"rule": "set", "name": "password"}`` with the set under ``rule_sets``. The rules
    are catalogue rules (a custom validator by name: ``{"rule": "custom", ...}`` in a spec)."""

    __slots__ = ("name", "rules")

    def __init__(self, name: str, rules: Sequence[Rule]) -> None:
        encode(name, "rule set name")
        items = tuple(rules)
        for rule in items:
            if not isinstance(rule, TableRule):
                raise TypeError(f"a RuleSet holds catalogue rules, not {type(rule).__name__}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "rules", items)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("RuleSet is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleSet) and (self.name, self.rules) == (other.name, other.rules)

    def __hash__(self) -> int:
        return hash((self.name, self.rules))

    def __repr__(self) -> str:
        return f"RuleSet({self.name!r}, {list(self.rules)!r})"

    def to_spec(self) -> List[Dict[str, Any]]:
        """The set's rules as spec rule objects."""
        return [rule.to_spec() for rule in self.rules]

    def define_on(self, handle: Any) -> int:
        """Defines the set on a form handle (fw_form_define_rule_set); returns the status. The
        binding's own, used by :meth:`formwell.Form.add_field`."""
        text = json.dumps(self.to_spec(), ensure_ascii=False, separators=(",", ":"))
        return int(_native.lib.fw_form_define_rule_set(handle, encode(self.name, "rule set name"),
                                                       encode(text, "rule set")))

    def c_rule(self) -> "_native.fw_rule":
        text = json.dumps({"rule": "set", "name": self.name}, ensure_ascii=False)
        return rule_struct(_native.FW_RULE_JSON, None, None, text=encode(text, "rule set"))


# ---- rules that carry Python callables ----


@dataclass(frozen=True)
class Custom(Rule):
    """A Python validator. ``validate(value)`` receives the field's non-empty value and returns:

    * ``None`` or ``True``: valid;
    * a ``str``: invalid, with that message (the rule's ``message=``, when given, takes precedence);
    * ``False``: invalid, with ``message=`` or the default "Invalid value".

    If it raises, the form is left unchanged and the same exception propagates from the call that
    triggered validation (``set_value``, ``blur``, ``validate``, ...). It runs while the form is
    locked: calling back into the same form raises :class:`formwell.BusyError` inside it.
    The binding keeps the callable alive for as long as the rule exists in a form.
    """

    validate: Validator
    message: Optional[str] = None
    hint: Optional[str] = None

    def __post_init__(self) -> None:
        if not callable(self.validate):
            raise TypeError(f"Custom needs a callable, not {type(self.validate).__name__}")

    def c_rule(self) -> "_native.fw_rule":
        """The ``fw_rule`` of this validator, with a new context that stands for it.

        The context is registered here (the callable is kept alive from now on): the caller must
        hand it to the library, which owns it once the call succeeds (and releases it with the
        destroy function when the form is freed), or call :func:`release_context` with
        ``struct.context`` when the call fails or is never made.
        """
        rule = rule_struct(_native.FW_RULE_CUSTOM, self.message, self.hint)
        rule.validate = VALIDATE_FN
        rule.destroy = DESTROY_FN
        rule.context = new_context(self.validate)
        return rule


@dataclass(frozen=True)
class AsyncRule(Rule):
    """An asynchronous rule: a check the host makes (a server call: "is this username
    free?"), with a debounce, that never blocks the form.

    Args:
        name: what the check is known by (non-empty): each :class:`formwell.Request` carries it, and
            specs name it (``{"rule": "async", "name": ...}``).
        check: ``async def check(value)`` (or a plain function; an awaitable result is awaited),
            called by :meth:`formwell.Form.settle` / :meth:`formwell.Form.validate_async` with the
            field's exact value. It returns:

            * ``None`` or ``True``: valid;
            * a ``str``: invalid, with that message (``message=``, when given, takes precedence);
            * ``False``: invalid, with ``message=`` or "Invalid value".

            If it raises, the verdict is an *error*: the field reads invalid with "Could not check
            this value" (or the message of a :class:`formwell.CheckError` it raised) until its
            value changes; other exceptions are logged on the ``formwell`` logger.
            ``None``: no check here; one given to the form (``checks=``,
            :meth:`formwell.Form.define_check`, :func:`formwell.register_check`) is used, or the
            host answers requests itself (:meth:`formwell.Form.next_request`,
            :meth:`formwell.Form.resolve`).
        debounce: seconds (default 0.5, seed 03's "at least 500 ms") from a value change to the
            request falling due; typing again before then replaces the request. Whole
            milliseconds, 0 ... 2**31 - 1 ms.
        message: replaces the message of an invalid verdict (not of an error verdict).
        hint: the accessibility hint while this rule's failure is shown (default "Correct this
            field").

    It runs only when the value is non-empty and every synchronous rule of the field passes, and
    only for values set after the field was added (the initial value counts as checked). While a
    check is due or running the field reads :attr:`formwell.Validity.PENDING`.
    """

    name: str
    check: Optional[AsyncCheck] = None
    debounce: float = 0.5
    message: Optional[str] = None
    hint: Optional[str] = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise TypeError(f"an async rule's name must be a str, not {type(self.name).__name__}")
        if not self.name:
            raise InvalidArgumentError("an async rule needs a non-empty name", _native.FW_ERR_INVALID_ARGUMENT)
        encode(self.name, "async rule name")
        if self.check is not None and not callable(self.check):
            raise TypeError(f"an async rule's check must be callable, not {type(self.check).__name__}")
        _debounce_ms(self.debounce)

    @property
    def debounce_ms(self) -> int:
        """The debounce in whole milliseconds (what the library and specs take)."""
        return _debounce_ms(self.debounce)

    def c_rule(self) -> "_native.fw_rule":
        return rule_struct(_native.FW_RULE_ASYNC, self.message, self.hint, text=encode(self.name, "async rule name"),
                            length=self.debounce_ms)


def _debounce_ms(seconds: Any) -> int:
    """A debounce in seconds as whole milliseconds (rounded), checked against the C range."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"debounce must be a number of seconds, not {type(seconds).__name__}")
    if not seconds == seconds or not 0 <= seconds <= _INT32_MAX / 1000:  # NaN, negative, too long
        raise InvalidArgumentError(f"debounce {seconds!r} s is out of range (0 ... {_INT32_MAX / 1000} s)",
                                   _native.FW_ERR_INVALID_ARGUMENT)
    return min(round(seconds * 1000), _INT32_MAX)


__all__ = ["Rule", "RuleSet"] + list(_catalog_names) + [
    "Custom",
    "AsyncRule",
    "AsyncCheck",
    "Validator",
    "ValidatorResult",
]
