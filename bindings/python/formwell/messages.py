"""Messages as codes + parameters + locales, and single-value checks.

Every failure the library reports has a stable *code* (``"required"``, ``"min_length"``,
``"pattern_limit"``, ``"external"``, ...) and *parameters* (``{"length": 8, "unit": "graphemes"}``)
besides its text, which comes from a message catalogue: English by default, French shipped, more
added with :func:`add_message_catalog`. A form speaks the catalogue its :attr:`formwell.Form.locale`
names (``Form(locale="fr")``, or ``"locale"`` in its spec).

- :func:`locales`: the tags of the available catalogues (``["en", "fr"]``);
- :func:`message_catalog`: one catalogue as a dict (the format of a catalogue file);
- :func:`add_message_catalog`: adds or replaces a catalogue for the whole process;
- :func:`check_value`: one value against rules, no form needed, answered as a :class:`ValueVerdict`.

Every text, code and rule semantic comes from the library: this module only moves them across.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from ctypes import addressof, byref, create_string_buffer, sizeof
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from . import _native
from ._native import FW_ERR_BUFFER_TOO_SMALL, check, lib, read_string
from ._rule_base import Rule, TableRule, encode
from .errors import InvalidArgumentError
from .rules import AsyncRule, Custom, RuleSet
from .states import Validity

__all__ = ["ValueVerdict", "check_value", "locales", "message_catalog", "add_message_catalog"]

#: What :func:`add_message_catalog` accepts: a dict, JSON text, or the path of a JSON file.
CatalogSource = Union[Mapping[str, Any], str, "os.PathLike[str]"]

#: What :func:`check_value` accepts: a rule object, a rule as a spec dict, or a sequence of them.
RulesSource = Union[Rule, Mapping[str, Any], Sequence[Union[Rule, Mapping[str, Any]]]]


def locales() -> List[str]:
    """The tags of every available message catalogue, sorted (``["en", "fr"]`` plus any added
    with :func:`add_message_catalog`), as the library lists them (``fw_locales``)."""
    return json.loads(read_string(lambda buf, size, length: lib.fw_locales(buf, size, length)))


def message_catalog(locale: str) -> Dict[str, Any]:
    """The catalogue ``locale`` names (matched as :attr:`formwell.Form.locale` matches: ``"fr-CA"``
    gives ``"fr"``), as a new dict in the format of a catalogue file: ``locale``, ``language``,
    ``plurals``, ``units``, ``list_separator``, ``announcement`` and ``failures`` (each code's
    ``message`` and ``hint`` templates). A view that words its own messages from codes and
    parameters reads its templates here. :class:`formwell.InvalidArgumentError` when no catalogue
    matches."""
    tag = locale_bytes(locale)
    return json.loads(read_string(lambda buf, size, length: lib.fw_message_catalog(tag, buf, size, length)))


def add_message_catalog(catalog: CatalogSource) -> None:
    """Adds (or replaces) a message catalogue for the whole process (``fw_add_message_catalog``).

    ``catalog`` is a dict, JSON text (a ``str`` starting with ``{``), or the path of a JSON file
    (``str`` or ``os.PathLike``), in the format of the shipped files::

        {"locale": "de", "plurals": "one_is_1",
         "failures": {"required": {"message": "Pflichtfeld", "hint": "Geben Sie einen Wert ein"}}}

    What it leaves out, English gives. Forms already speaking a replaced catalogue keep it until
    their locale is set again. A malformed catalogue (bad JSON, an unknown key, failure code or
    plural rule) raises :class:`formwell.InvalidSpecError` naming the JSON path, and adds nothing.
    """
    if isinstance(catalog, Mapping):
        text = json.dumps(dict(catalog), ensure_ascii=False)
    elif isinstance(catalog, str) and catalog.lstrip().startswith("{"):
        text = catalog
    elif isinstance(catalog, (str, os.PathLike)):
        with open(catalog, encoding="utf-8") as file:
            text = file.read()
    else:
        raise TypeError(f"a message catalogue is a dict, JSON text or a path, not {type(catalog).__name__}")
    check(lib.fw_add_message_catalog(encode(text, "message catalogue")))


def locale_bytes(locale: Any) -> bytes:
    if not isinstance(locale, str):
        raise TypeError(f"a locale is a str such as 'fr' or 'fr-CA', not {type(locale).__name__}")
    return encode(locale, "locale")


# ---- single-value checks ----


@dataclass(frozen=True)
class ValueVerdict:
    """What :func:`check_value` found for one value.

    Attributes:
        validity: :class:`formwell.Validity`: ``EMPTY`` (an empty value no required rule
            refuses), ``VALID`` or ``INVALID``.
        message: the failure's message in the locale asked for, ``""`` unless invalid.
        code: the failure's stable code (``"min_length"``, ``"pattern_limit"``), ``""`` unless
            invalid.
        params: the failure's parameters (``{"length": 8, "unit": "graphemes"}``; ``{}`` for none).
        failing_rule: the position of the failing rule among the rules given (from 0), or ``None``.
        limit_exceeded: the verdict comes from a pattern that hit its match limits.

    True (``bool(verdict)``, :attr:`valid`) unless the validity is INVALID: an empty value under
    rules without a required one passes, as it does in a form.
    """

    validity: Validity
    message: str = ""
    code: str = ""
    params: Dict[str, Any] = field(default_factory=dict, hash=False)
    failing_rule: Optional[int] = None
    limit_exceeded: bool = False

    @property
    def valid(self) -> bool:
        """Not invalid (an empty optional value passes)."""
        return self.validity is not Validity.INVALID

    def __bool__(self) -> bool:
        return self.valid


_RESULT_SIZE = sizeof(_native.fw_check_result)


def _rule_specs(rules: Any) -> List[Any]:
    """The rules of :func:`check_value` as spec rule objects (a RuleSet gives its rules)."""
    if isinstance(rules, (Rule, Mapping)):
        items = [rules]
    elif isinstance(rules, (str, bytes)) or not isinstance(rules, (Sequence, list, tuple)):
        raise TypeError("rules are a formwell rule, a rule as a spec dict ({'rule': 'min_length', 'length': 8}), "
                        f"or a list of them, not {type(rules).__name__}")
    else:
        items = list(rules)
    specs: List[Any] = []
    for item in items:
        if isinstance(item, Mapping):
            specs.append(dict(item))
        elif isinstance(item, TableRule):
            specs.append(item.to_spec())
        elif isinstance(item, RuleSet):
            specs.extend(item.to_spec())
        elif isinstance(item, AsyncRule):  # the library refuses it (an async rule needs a form)
            spec: Dict[str, Any] = {"rule": "async", "name": item.name, "debounce_ms": item.debounce_ms}
            for key in ("message", "hint"):
                if getattr(item, key) is not None:
                    spec[key] = getattr(item, key)
            specs.append(spec)
        elif isinstance(item, Custom):
            raise InvalidArgumentError("a Custom rule runs a Python callable, which only a form can hold: "
                                       "add it to a field of a Form", _native.FW_ERR_INVALID_ARGUMENT)
        else:
            raise TypeError(f"a rule is a formwell rule or a spec dict, not {type(item).__name__}")
    return specs


def check_value(rules: RulesSource, value: Optional[str], *, locale: Optional[str] = None) -> ValueVerdict:
    """Checks one value against rules without a form (``fw_check_value``), as a field left by
    the user judges it (the strict stage): the rules run in order and the first failure decides;
    an empty value fails only under a required rule.

    ``rules``: a rule object (``formwell.MinLength(8)``; a :class:`formwell.RuleSet` gives its
    rules), a rule as a spec dict (``{"rule": "min_length", "length": 8}``), or a list of them.
    ``value``: a ``str`` (``None`` reads as ``""``). ``locale``: the catalogue the message is
    worded from (``None``: English).

    Rules that compare with another field (Matches, NotEqual, RequiredIf, RequiredWith,
    RequiredWithout), custom and async rules need a form: :class:`formwell.InvalidArgumentError`,
    as for an unknown locale; a malformed rule raises :class:`formwell.InvalidSpecError` naming
    its JSON path, a bad pattern :class:`formwell.PatternError`.

    >>> formwell.check_value(formwell.MinLength(8), "abc").code
    'min_length'
    """
    specs = _rule_specs(rules)
    text = encode(json.dumps(specs, ensure_ascii=False), "rules")
    if value is None:
        value = ""
    data = encode(value, "value")
    tag = None if locale is None else locale_bytes(locale)
    result = _native.fw_check_result(_RESULT_SIZE)
    size = 256
    for _ in range(4):
        buf = create_string_buffer(size)
        status = lib.fw_check_value(text, data, tag, byref(result), buf, size)
        if status != FW_ERR_BUFFER_TOO_SMALL or result.text_size <= size:
            break
        size = result.text_size
        result = _native.fw_check_result(_RESULT_SIZE)
    check(status)
    raw, base = buf.raw, addressof(buf)
    texts = []
    for pointer, length in ((result.message, result.message_length), (result.code, result.code_length),
                            (result.params, result.params_length)):
        start = pointer - base
        texts.append(raw[start : start + length].decode())
    failing = result.failing_rule
    return ValueVerdict(
        validity=Validity(result.validity),
        message=texts[0],
        code=texts[1],
        params={} if texts[2] == "{}" else json.loads(texts[2]),
        failing_rule=None if failing < 0 else failing,
        limit_exceeded=bool(result.limit_exceeded),
    )
