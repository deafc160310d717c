"""What formwell.dask and formwell.spark share: a form travels to workers as its spec (JSON text),
and each worker process builds it once and keeps it (the library itself is loaded once per process,
by ``import formwell``)."""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Dict, Mapping, Optional, Tuple

from .form import Form
from .rules import Validator
from .states import spec_text

#: (spec JSON, validator names) -> the form this process built for it.
_forms: Dict[Tuple[str, Tuple[str, ...]], Form] = {}
_lock = threading.Lock()


def _after_fork_in_child() -> None:
    """A child made by fork() starts with a new lock (another thread may have held the old one at
    the fork) and builds its own forms: one that another thread was using at the fork is refused in
    the child."""
    global _lock
    _lock = threading.Lock()
    _forms.clear()


os.register_at_fork(after_in_child=_after_fork_in_child)


def spec_json(spec_or_form: Any, validators: Optional[Mapping[str, Validator]] = None) -> str:
    """The spec text to ship: a :class:`Form`'s spec, or a spec (dict, JSON text, path), loaded
    here once so a bad spec (or an unresolvable custom rule) fails on the client, not on every
    worker. Secret fields keep their initial values: :meth:`Form.to_spec_json` leaves them out of
    what a user exports, but a worker needs them to judge a record as the client's form does."""
    if isinstance(spec_or_form, Form):
        return _with_secret_initials(spec_or_form)
    text = spec_text(spec_or_form)
    with Form.from_spec(text, validators) as form:
        return _with_secret_initials(form)


def _with_secret_initials(form: Form) -> str:
    text = form.to_spec_json()
    states = {state.id: state for state in form.states()}
    secrets = {field_id: state.initial for field_id, state in states.items() if state.secret and state.initial}
    if not secrets:
        return text
    spec = json.loads(text)
    for field in spec["fields"]:
        if field["id"] in secrets:
            field["initial"] = secrets[field["id"]]
    return json.dumps(spec, ensure_ascii=False, sort_keys=True)


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
