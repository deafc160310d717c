"""The fixed texts of a form's rules, read from the library once each, for results that name a
failure by its rule (:meth:`formwell.Form.check_many`, :func:`formwell.check_table`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Dict, Optional, Tuple

from ._native import lib, read_string
from .messages import message_catalog

__all__ = ["RuleTexts"]


class RuleTexts:
    """One form's cache of rule texts: each rule's fixed message in the form's locale
    (``fw_form_rule_message``), its failure code and parameters (``fw_form_rule_code`` /
    ``fw_form_rule_params``, the same in every locale), and the message of a pattern stopped at its
    match limits.

    ``messages`` and ``failures`` map (field index, rule index) to what was read; a reader may look
    them up without calling a method (a hit is one dict lookup) and call :meth:`message` or
    :meth:`failure` on a miss. Rules never change once added; the locale does
    (:meth:`locale_changed`), and removing a field moves the later ones (:meth:`clear`). Both
    replace the dicts rather than empty them, so a reader holding the old ones reads consistent,
    if outdated, texts. Every read takes the form's handle.
    """

    __slots__ = ("messages", "failures", "_limit")

    def __init__(self) -> None:
        self.messages: Dict[Tuple[int, int], str] = {}
        self.failures: Dict[Tuple[int, int], Tuple[str, str]] = {}
        #: the match-limit message in the form's locale ("" when the catalogue words it with
        #: placeholders), once read.
        self._limit: Optional[str] = None

    def message(self, handle: Any, field: int, rule: int) -> str:
        """The fixed message of rule ``rule`` of the field at ``field`` (read, then kept)."""
        message = read_string(lambda buf, size, length: lib.fw_form_rule_message(handle, field, rule, buf, size, length))
        self.messages[field, rule] = message
        return message

    def failure(self, handle: Any, field: int, rule: int) -> Tuple[str, str]:
        """The failure code and parameters (JSON text) of rule ``rule`` of the field at ``field``
        (kept once read)."""
        try:
            return self.failures[field, rule]
        except KeyError:
            pass
        failure = (read_string(lambda buf, size, length: lib.fw_form_rule_code(handle, field, rule, buf, size, length)),
                   read_string(lambda buf, size, length: lib.fw_form_rule_params(handle, field, rule, buf, size, length)))
        self.failures[field, rule] = failure
        return failure

    def limit_message(self, handle: Any) -> Optional[str]:
        """The message of a cell whose pattern stopped at its match limits, in the form's locale:
        the text its catalogue gives code ``pattern_limit``, or ``None`` when that text is a
        template with placeholders (the cell is then judged again for its message)."""
        text = self._limit
        if text is None:
            locale = read_string(lambda buf, size, length: lib.fw_form_locale(handle, buf, size, length))
            entry = message_catalog(locale).get("failures", {}).get("pattern_limit", {})
            templates = entry.get("message") if isinstance(entry, Mapping) else None
            if isinstance(templates, str):
                templates = [templates]
            plain = [t for t in templates or () if isinstance(t, str) and "{" not in t]
            text = self._limit = plain[0] if plain else ""
        return text or None

    def locale_changed(self) -> None:
        """The form speaks another catalogue: the messages read in the old one are forgotten."""
        self.messages = {}
        self._limit = None

    def clear(self) -> None:
        """The fields moved (one was removed): every rule's texts are forgotten."""
        self.messages = {}
        self.failures = {}
