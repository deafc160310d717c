"""The process-wide registries of callables by name: the custom validators that specs' ``custom``
rules name (:func:`register_validator`) and the checks that their ``async`` rules name
(:func:`register_check`). A form pickles as its spec, names only: each process registers the same
names, and a spec loaded there resolves them here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Dict, Generic, List, Optional, TypeVar

from .rules import AsyncCheck, Validator

__all__ = ["register_validator", "unregister_validator", "registered_validators",
           "register_check", "unregister_check", "registered_checks"]

F = TypeVar("F", bound=Callable[..., Any])


class Registry(Generic[F]):
    """Callables by name, for the spec rules of one kind (``{"rule": rule, "name": ...}``).

    ``kind`` is what the callables are called in messages ("validator", "check"). Registering a
    name again replaces its callable for what comes later.
    """

    __slots__ = ("kind", "rule", "_entries")

    def __init__(self, kind: str, rule: str) -> None:
        self.kind = kind
        self.rule = rule
        self._entries: Dict[str, F] = {}

    def register(self, name: str, function: Optional[F] = None) -> Any:
        """Registers ``function`` under ``name`` and returns it; without ``function``, a decorator
        that does so."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"a {self.kind} name is a non-empty str")
        if function is None:
            def decorate(decorated: F) -> F:
                return self.register(name, decorated)  # type: ignore[no-any-return]

            return decorate
        if not callable(function):
            raise TypeError(f"a {self.kind} must be callable, not {type(function).__name__}")
        self._entries[name] = function
        return function

    def unregister(self, name: str) -> None:
        """Forgets ``name`` (``KeyError`` if it was not registered)."""
        del self._entries[name]

    def get(self, name: str) -> Optional[F]:
        """The callable registered under ``name``, or ``None``."""
        return self._entries.get(name)

    def copy(self) -> Dict[str, F]:
        """A copy of the registry as a dict."""
        return dict(self._entries)

    def names_in(self, spec: Any) -> List[str]:
        """The names that a spec's rules of this registry's kind use (a spec the library will judge:
        anything malformed is left for it to report)."""
        names: List[str] = []
        fields = spec.get("fields") if isinstance(spec, Mapping) else None
        for field in fields if isinstance(fields, list) else []:
            rules = field.get("rules") if isinstance(field, Mapping) else None
            for rule in rules if isinstance(rules, list) else []:
                if isinstance(rule, Mapping) and rule.get("rule") == self.rule and isinstance(rule.get("name"), str):
                    names.append(rule["name"])
        return names


#: name -> validator: what a spec's ``{"rule": "custom", "name": ...}`` resolves against when the
#: spec is loaded without that name in ``validators=``.
validators: Registry[Validator] = Registry("validator", "custom")
#: name -> check: what a spec's ``{"rule": "async", "name": ...}`` resolves against when the load
#: does not give that name in ``checks=``, and what a form's async rule without a check of its own
#: uses.
checks: Registry[AsyncCheck] = Registry("check", "async")


def register_validator(name: str, validate: Optional[Validator] = None) -> Any:
    """Registers ``validate`` in this process under ``name``: every spec loaded afterwards
    (:meth:`Form.from_spec`, :meth:`Form.load_spec`, unpickling a :class:`Form`) whose ``custom``
    rules name it gets it, unless the load's own ``validators=`` names it too (that one wins).

    This is how custom rules travel to other processes: a form pickles as its spec (names only), so
    each worker registers the same names, e.g. in a module it imports, and the names resolve there.
    Registering a name again replaces the validator for loads that come later (forms already made
    keep theirs). Usable as a decorator: ``@register_validator("username_free")``.
    """
    return validators.register(name, validate)


def unregister_validator(name: str) -> None:
    """Forgets a name given to :func:`register_validator` (``KeyError`` if it was not)."""
    validators.unregister(name)


def registered_validators() -> Dict[str, Validator]:
    """A copy of the process-wide registry of :func:`register_validator`."""
    return validators.copy()


def register_check(name: str, check: Optional[AsyncCheck] = None) -> Any:
    """Registers the asynchronous check ``check`` in this process under ``name``: a form whose async
    rule of that name has no check of its own (an :class:`formwell.AsyncRule` without ``check=``,
    a spec loaded without that name in ``checks=``, an unpickled form) uses it. Specs loaded
    afterwards take it at load time; forms that have no check for the name look it up here when a
    request of that name comes up. Registering a name again replaces the check for what comes
    later. Usable as a decorator: ``@register_check("username_available")``."""
    return checks.register(name, check)


def unregister_check(name: str) -> None:
    """Forgets a name given to :func:`register_check` (``KeyError`` if it was not)."""
    checks.unregister(name)


def registered_checks() -> Dict[str, AsyncCheck]:
    """A copy of the process-wide registry of :func:`register_check`."""
    return checks.copy()
