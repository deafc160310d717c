"""Checking a Dask DataFrame: :func:`check` (``pip install ./bindings/python[dask]``).

Each partition is checked on the worker that holds it: its field columns become a ``pyarrow.Table``
(pandas' Arrow-backed strings are not copied), :func:`formwell.check_table` checks it, and the
verdicts come back as a pandas DataFrame with the partition's index, so ``ddf.join(verdicts)``
lines them up. The form travels as its spec (JSON text, a few KiB, in the task graph); every worker
process loads ``libformwell.so`` once (at ``import formwell``) and builds the form once per spec,
then reuses it for every partition. Custom rules resolve by name on the worker: pass
``validators={"name": function}`` (pickled with the task, cloudpickle handles lambdas and
closures), or have every worker call :func:`formwell.register_validator` (e.g. in a module the
workers import, or ``client.run``).

This module imports dask, pandas and pyarrow; ``import formwell`` does not import it.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from . import _cluster
from .form import Form
from .rules import Validator

__all__ = ["check", "check_partition"]


def check(ddf: Any, spec_or_form: Any, *, validators: Optional[Mapping[str, Validator]] = None,
          threads: int = 0) -> Any:
    """The verdicts of every row of the Dask DataFrame ``ddf`` as a lazy Dask DataFrame (one
    partition per partition of ``ddf``, same index): a bool column ``valid``, then one string
    column per field of the form with the message a submit of that row shows under the field
    (missing where the field passes).

    ``spec_or_form`` is a :class:`formwell.Form` or a spec (dict, JSON text, path); the spec is
    checked here first, so a bad one fails before anything is scheduled. Columns are matched to
    fields by name (see :func:`formwell.check_table`: nulls read ``""``, other columns ignored, a
    field without a column holds its initial value, a column of another type is a ``TypeError``).
    ``threads`` is per partition (0: every processor of the worker).
    """
    text = _cluster.spec_json(spec_or_form, validators)
    names = dict(validators) if validators else None
    with Form.from_spec(text, names) as form:  # (on the client: not kept, unlike the workers' forms)
        meta = _verdicts(form, ddf._meta, threads)
    return ddf.map_partitions(check_partition, text, names, threads, meta=meta)


def check_partition(frame: Any, spec_json: str, validators: Optional[Mapping[str, Validator]] = None,
                    threads: int = 0) -> Any:
    """One pandas partition -> its verdicts (a pandas DataFrame with ``frame``'s index); what
    :func:`check` maps over the partitions."""
    return _verdicts(_cluster.cached_form(spec_json, validators), frame, threads)


def _verdicts(form: Form, frame: Any, threads: int) -> Any:
    import pyarrow as pa

    wanted = set(form.field_ids)
    columns = [name for name in frame.columns if name in wanted]
    table = pa.Table.from_pandas(frame[columns], preserve_index=False)
    verdicts = form.check_table(table, threads=threads).to_arrow(dictionary=False).to_pandas()
    verdicts.index = frame.index
    return verdicts
