"""Checking a Spark DataFrame: :func:`check` (``pip install ./bindings/python[spark]``).

Built on ``DataFrame.mapInArrow``: Spark hands each Python worker its rows as pyarrow RecordBatches,
:func:`formwell.check_table` reads their string columns in place, and the verdicts go back to the
JVM as Arrow batches. The form travels as its spec (JSON text in the function's closure); each
Python worker process loads ``libformwell.so`` once and builds the form once per spec (Spark reuses
its Python workers, ``spark.python.worker.reuse``, on by default). Custom rules resolve by name on
the workers: ``validators={"name": function}`` (pickled with the function) or
:func:`formwell.register_validator` in a module the workers import.

``bindings/python/examples/spark_check.py`` spells the same out with ``mapInArrow`` directly.
This module imports pyspark and pyarrow only when :func:`check` runs.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence

from . import _cluster
from .form import Form
from .rules import Validator

__all__ = ["check", "verdict_batches"]


def check(df: Any, spec_or_form: Any, *, keep: Sequence[str] = (),
          validators: Optional[Mapping[str, Validator]] = None, threads: int = 1) -> Any:
    """The verdicts of every row of the Spark DataFrame ``df``, lazily, as a Spark DataFrame:
    the columns named in ``keep`` (copied as they are, e.g. a key to join on), a boolean ``valid``,
    then one string column per field with its message (null where the field passes).

    ``spec_or_form``: a :class:`formwell.Form` or a spec (dict, JSON text, path), checked here
    first. Columns are matched to fields by name as :func:`formwell.check_table` does. ``threads``
    is per Spark task (default 1: Spark already runs a task per core).
    """
    from pyspark.sql.types import BooleanType, StringType, StructField, StructType

    text = _cluster.spec_json(spec_or_form, validators)
    with Form.from_spec(text, validators) as form:  # (on the driver: not kept)
        ids = form.field_ids
    keep = list(keep)
    clash = [name for name in keep if name == "valid" or name in ids]
    if clash:
        raise ValueError(f"keep names {clash}, which the verdicts use already (valid and the field ids)")
    schema = StructType([df.schema[name] for name in keep]
                        + [StructField("valid", BooleanType(), False)]
                        + [StructField(field_id, StringType(), True) for field_id in ids])
    names = dict(validators) if validators else None

    def verdicts(batches: Iterable[Any]) -> Iterator[Any]:
        return verdict_batches(batches, text, keep, names, threads)

    return df.mapInArrow(verdicts, schema)


def verdict_batches(batches: Iterable[Any], spec_json: str, keep: Sequence[str] = (),
                    validators: Optional[Mapping[str, Validator]] = None, threads: int = 1) -> Iterator[Any]:
    """pyarrow RecordBatches of rows -> RecordBatches of verdicts (``keep`` columns, ``valid``, one
    message column per field): the function :func:`check` gives ``mapInArrow``."""
    import pyarrow as pa

    form = _cluster.cached_form(spec_json, validators)
    for batch in batches:
        verdicts = form.check_table(batch, threads=threads).to_arrow(dictionary=False).combine_chunks()
        columns = [batch.column(name) for name in keep] + [column.chunk(0) if column.num_chunks else
                                                           pa.array([], column.type) for column in verdicts.columns]
        yield pa.RecordBatch.from_arrays(columns, names=list(keep) + verdicts.column_names)
