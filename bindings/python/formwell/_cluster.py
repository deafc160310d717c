"""What formwell.dask and formwell.spark share: a form travels to workers as its spec (JSON text),
and each worker process builds it once and keeps it (the library itself is loaded once per process,
by ``import formwell``)."""

from __future__ import annotations

import threading
from typing import Any, Dict, Mapping, Optional, Tuple

from .form import Form, _spec_text
from .rules import Validator

#: (spec JSON, validator names) -> the form this process built for it.
_forms: Dict[Tuple[str, Tuple[str, ...]], Form] = {}
_lock = threading.Lock()


def spec_json(spec_or_form: Any, validators: Optional[Mapping[str, Validator]] = None) -> str:
    """The spec text to ship: a :class:`Form`'s :meth:`~Form.to_spec_json`, or a spec (dict, JSON
    text, path), loaded here once so a bad spec (or an unresolvable custom rule) fails on the client,
    not on every worker."""
    if isinstance(spec_or_form, Form):
        return spec_or_form.to_spec_json()
    text = _spec_text(spec_or_form)
    with Form.from_spec(text, validators) as form:
        return form.to_spec_json()


def cached_form(text: str, validators: Optional[Mapping[str, Validator]] = None) -> Form:
    """This process's form for the spec ``text`` (built on first use, then reused by every task;
    ``custom`` rules resolve against ``validators``, then :func:`formwell.register_validator`).
    The first ``validators`` given for a spec and set of names are the ones kept."""
    key = (text, tuple(sorted(validators or ())))
    form = _forms.get(key)
    if form is None:
        with _lock:
            form = _forms.get(key)
            if form is None:
                form = _forms[key] = Form.from_spec(text, validators)
    return form


def cached_forms() -> int:
    """How many forms this process keeps for cluster tasks."""
    return len(_forms)
