"""Bulk validation: :meth:`formwell.Form.check_many` and the :class:`CheckResult` it returns.

Records go to the library as columns in the Apache Arrow layout of a string column (one buffer of
UTF-8 bytes per field and the offsets into it, ``fw_column``), checked as submits in one
``fw_form_check_batch`` call, on every processor by default. The columns are built with C-speed
operations per field (``str.join``, ``str.encode``, ``map``, ``itertools.accumulate``), never a
Python statement per value unless a value is not a ``str`` (then ``None`` is read as ``""`` and any
other type raises :class:`TypeError`). The rules themselves only ever run in the library.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Mapping
from ctypes import byref, c_int32, c_size_t, c_uint8, sizeof
from itertools import accumulate, repeat
from struct import pack as _pack
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _native
from ._native import FW_CELL_LIMIT_EXCEEDED, FW_CELL_OWN_MESSAGE, check, lib, read_string
from ._rule_texts import RuleTexts
from .errors import UnknownFieldError
from .states import parse_params

#: The failure code of a cell whose pattern was cut short by its match limits or work bound
#: (fw_form_rule_code's documentation: a cell flagged FW_CELL_LIMIT_EXCEEDED has this code, and
#: no parameters). Its message is the form's catalogue's for this code (RuleTexts.limit_message).
PATTERN_LIMIT = "pattern_limit"

__all__ = ["CheckResult", "Summary"]

#: What :meth:`Form.check_many` accepts: records (mappings of field id to value) or columns
#: (a mapping of field id to a sequence of values, all of the same length).
Records = Union[Iterable[Mapping[str, Optional[str]]], Mapping[str, Sequence[Optional[str]]]]

_COLUMN_SIZE = sizeof(_native.fw_column)
_INT32_MAX = 2**31 - 1
_dict_get = dict.get
_encode = str.encode


def _describe(value: Any) -> str:
    return type(value).__name__


def _clean(values: List[Any], where: str) -> List[str]:
    """The slow path of a column whose values are not all ``str``: ``None`` becomes ``""``, any
    other type raises TypeError naming the record (``where`` says how to name the rest)."""
    cleaned = []
    append = cleaned.append
    for index, value in enumerate(values):
        if isinstance(value, str):
            append(value)
        elif value is None:
            append("")
        else:
            raise TypeError(f"record {index}{where} is {_describe(value)}, not str or None")
    return cleaned


def _column(values: List[Any], where: str) -> Tuple[bytes, array]:
    """One field's values as (UTF-8 data, offsets): Arrow's string column (int32 offsets, or int64
    beyond 2 GiB)."""
    try:
        joined = "".join(values)
    except TypeError:
        values = _clean(values, where)
        joined = "".join(values)
    if joined.isascii():  # one byte per character: the offsets are the characters'
        data = joined.encode("ascii")
        lengths: Iterable[int] = map(len, values)
    else:  # encoding each value (then one bytes.join) beat encoding the joined text and then
        # fixing up the byte lengths of the non-ASCII values, even with a third of them non-ASCII
        try:
            encoded = list(map(_encode, values))
        except UnicodeEncodeError:
            for index, value in enumerate(values):
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError as error:
                    error.reason += f" (record {index}{where})"
                    raise
            raise  # pragma: no cover - one of them failed above
        data = b"".join(encoded)
        lengths = map(len, encoded)
    # struct.pack of the running sums is about twice as fast as array(code, iterator); frombytes
    # is one copy into an array (aligned, with an address for the column).
    code = "i" if len(data) <= _INT32_MAX else "q"
    offsets = array(code)
    offsets.frombytes(_pack(f"={len(values) + 1}{code}", *accumulate(lengths, initial=0)))
    return data, offsets


def _record_values(records: List[Any], field_id: str, initial: str) -> List[Any]:
    """``record.get(field_id, initial)`` of every record, at C speed when they are all dicts."""
    try:
        return list(map(_dict_get, records, repeat(field_id), repeat(initial)))
    except TypeError:
        pass
    values = []
    for index, record in enumerate(records):
        if not isinstance(record, Mapping):
            raise TypeError(f"record {index} is {_describe(record)}, not a mapping of field id to str")
        values.append(record.get(field_id, initial))
    return values


class FormView:
    """What a check of many records needs of a form, and what its result reads afterwards:

    - ``handle()``: the form's library handle (:class:`formwell.InvalidHandleError` once the form
      is closed);
    - ``field_ids``: its field ids in registration order, when the check began;
    - ``index(field_id)``: a field's index (:class:`formwell.UnknownFieldError` for an unknown id);
    - ``initials``: field id -> the initial value a record that lacks the key stands for;
    - ``texts``: its rules' texts (:class:`formwell._rule_texts.RuleTexts`).

    :meth:`formwell.Form.check_many` and :meth:`formwell.Form.check_table` make one per check; the
    result keeps it (and through its callables, the form).
    """

    __slots__ = ("handle", "field_ids", "index", "initials", "texts")

    def __init__(self, handle: Callable[[], Any], field_ids: List[str], index: Callable[[str], int],
                 initials: Mapping[str, str], texts: RuleTexts) -> None:
        self.handle = handle
        self.field_ids = field_ids
        self.index = index
        self.initials = initials
        self.texts = texts


def check_many(form: Any, data: Records, threads: int = 0) -> "CheckResult":
    """See :meth:`formwell.Form.check_many`; ``form`` is a :class:`FormView` (or a Form, which
    hands its view back here)."""
    if not isinstance(form, FormView):
        return form.check_many(data, threads=threads)  # type: ignore[no-any-return]
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {_describe(threads)}")
    if threads < 0:
        raise ValueError(f"threads is {threads}; use 0 for every processor")
    view = form
    handle = view.handle()
    ids = view.field_ids
    field_count = len(ids)
    built: List[Tuple[Optional[bytes], bytes, array]] = []  # (field id or None = by position, data, offsets)
    records: Optional[List[Any]] = None
    if isinstance(data, Mapping):
        count: Optional[int] = None
        first = None
        for key, values in data.items():
            view.index(key)  # an unknown column raises UnknownFieldError (a KeyError), as form[key]
            if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
                raise TypeError(f"column {key!r} is {_describe(values)}, not a sequence of str")
            values = values if isinstance(values, list) else list(values)
            if count is None:
                count, first = len(values), key
            elif len(values) != count:
                raise ValueError(f"column {key!r} has {len(values)} values but column {first!r} has {count}")
            built.append((key.encode("utf-8"), *_column(values, f", column {key!r}")))
        count = count or 0
    elif isinstance(data, (str, bytes)):
        raise TypeError(f"check_many takes records or columns, not {_describe(data)}")
    else:
        records = data if isinstance(data, list) else list(data)
        count = len(records)
    if count > _INT32_MAX - 1:
        raise ValueError(f"{count} records are too many for one call (at most {_INT32_MAX - 1})")
    valid = bytearray(count)
    cells = count * field_count
    failing = array("i", bytes(4 * cells))
    flags = bytearray(cells)
    outputs = (valid, failing, flags, field_count, threads)
    if built or records is None or count < 2 * _CHUNK:
        if not built and records is not None:
            built = _record_columns(view, ids, records)
        chunks = [_Chunk(0, count, built)]
        invalid = chunks[0].check(handle, outputs)
    else:
        chunks, invalid = _pipelined(view, handle, ids, records, outputs)
    return CheckResult(view, ids, chunks, count, valid, failing, bytes(flags), invalid)


#: Records per library call when many records are given as dicts (at least; see _pipelined).
_CHUNK = 16384


def _record_columns(view: FormView, ids: List[str], records: List[Any]) -> List[Tuple[Optional[bytes], bytes, array]]:
    initials = view.initials
    return [(None, *_column(_record_values(records, key, initials.get(key, "")), f", key {key!r}"))
            for key in ids]


class _Chunk:
    """Records start ... start + count of a check, as the columns handed to the library (kept: a
    flagged cell's message is read later by judging its record again over the same columns)."""

    __slots__ = ("start", "count", "columns", "column_count", "keep")

    def __init__(self, start: int, count: int, built: List[Tuple[Optional[bytes], bytes, array]]) -> None:
        self.start, self.count, self.keep, self.column_count = start, count, built, len(built)
        columns = self.columns = (_native.fw_column * max(len(built), 1))()
        for column, (field_id, values, offsets) in zip(columns, built):
            column.size = _COLUMN_SIZE
            column.field_id = field_id
            column.offsets = offsets.buffer_info()[0]
            column.data = values
            column.data_size = len(values)
            column.offset_size = offsets.itemsize

    def check(self, handle: Any, outputs: Tuple[bytearray, array, bytearray, int, int]) -> int:
        """fw_form_check_batch of these records, writing into their part of the outputs."""
        valid, failing, flags, fields, threads = outputs
        start, count = self.start, self.count
        if not count:
            return 0
        cells = count * fields
        invalid = c_size_t(0)
        valid_out = (c_uint8 * count).from_buffer(valid, start)
        failing_out = (c_int32 * cells).from_buffer(failing, 4 * start * fields) if cells else None
        flags_out = (c_uint8 * cells).from_buffer(flags, start * fields) if cells else None
        check(lib.fw_form_check_batch(handle, self.columns, self.column_count, count, threads, valid_out,
                                      failing_out, flags_out, byref(invalid)))
        del valid_out, failing_out, flags_out  # (they hold exports of the buffers)
        return invalid.value


def _pipelined(view: FormView, handle: Any, ids: List[str], records: List[Any],
               outputs: Tuple[bytearray, array, bytearray, int, int]) -> Tuple[List[_Chunk], int]:
    """Many records in a few chunks: while the library checks one (ctypes releases the GIL for the
    call, and the library runs on its own threads), this thread builds the next one's columns."""
    import threading

    count = len(records)
    size = max(_CHUNK, -(-count // 4))
    chunks: List[_Chunk] = []
    done: List[int] = []
    failed: List[BaseException] = []

    def run(chunk: _Chunk) -> None:
        try:
            done.append(chunk.check(handle, outputs))
        except BaseException as error:  # re-raised by the calling thread
            failed.append(error)

    worker: Optional[threading.Thread] = None
    try:
        for start in range(0, count, size):
            chunk = _Chunk(start, min(size, count - start), _record_columns(view, ids, records[start : start + size]))
            chunks.append(chunk)
            if worker is not None:
                worker.join()
                if failed:
                    break
            worker = threading.Thread(target=run, args=(chunk,), name="formwell-check-many", daemon=True)
            worker.start()
    finally:
        if worker is not None:
            worker.join()
    if failed:
        raise failed[0]
    return chunks, sum(done)


class CheckResult:
    """The verdicts of :meth:`formwell.Form.check_many`: one per record, each exactly what a submit
    (:meth:`formwell.Form.validate`) of that record into a fresh form would say.

    - ``len(result)``: the number of records; ``result.valid``: a list of bool, one per record;
      ``result.invalid_count`` / ``result.valid_count``.
    - ``result.is_valid(i)``; ``result.errors(i)``: ``{field_id: message}`` of the fields a submit
      of record ``i`` shows an error under (the display messages), in registration order; ``{}``
      for a valid record. ``result.failing_rule(i, field_id)``: the position of the rule that
      failed (from 0, in the order the rules were added), or ``None``.
    - ``result.codes(i)``: ``{field_id: code}`` of the same fields as ``errors(i)``: each error's
      stable failure code (``"required"``, ``"min_length"``, ``"pattern_limit"`` for a pattern cut
      short by its match limits), the same in every locale. ``result.code(i, field_id)`` and
      ``result.params(i, field_id)`` (a new dict) describe one field's failure, ``None`` when it
      passes.
    - ``result.invalid()``: iterates ``(index, errors)`` over the invalid records, in order.
    - A record index may be negative (from the end); out of range raises :class:`IndexError`.

    The result keeps the columns it was checked on (and the form): a custom validator's own message
    or a pattern's match-limit message is read on demand by judging that record again
    (``fw_form_batch_message``), so ``errors`` needs the form open.
    """

    __slots__ = ("_view", "_ids", "_positions", "_chunks", "_starts", "_count", "_valid",
                 "_failing", "_flags", "_invalid_count", "_valid_list", "_failing_bytes", "_any_flags", "_templates")

    def __init__(self, view: FormView, ids: List[str], chunks: List[_Chunk], count: int,
                 valid: bytearray, failing: array, flags: bytes, invalid_count: int) -> None:
        self._view = view
        self._ids = ids
        self._positions: Optional[Dict[str, int]] = None
        self._chunks = chunks  # the columns each library call was given (and the buffers behind them)
        self._starts = [chunk.start for chunk in chunks]
        self._count = count
        self._valid = valid
        self._failing = failing
        self._flags = flags
        self._invalid_count = invalid_count
        self._valid_list: Optional[List[bool]] = None
        self._failing_bytes: Optional[bytes] = None
        self._any_flags = flags.count(0) != len(flags)
        #: the failing rules of a record (as bytes) -> its errors, for records without flagged
        #: cells: many records fail the same way, so most records' errors are one dict copy.
        self._templates: Dict[bytes, Dict[str, str]] = {}

    def __len__(self) -> int:
        return self._count

    def __repr__(self) -> str:
        return (f"<formwell.CheckResult {self._count} records: {self._count - self._invalid_count} valid, "
                f"{self._invalid_count} invalid>")

    @property
    def field_ids(self) -> List[str]:
        """The form's field ids when the records were checked, in registration order."""
        return list(self._ids)

    @property
    def valid(self) -> List[bool]:
        """Whether each record is valid, in record order (a new list each time)."""
        if self._valid_list is None:
            self._valid_list = memoryview(self._valid).cast("?").tolist()
        return list(self._valid_list)

    @property
    def invalid_count(self) -> int:
        """How many records are invalid."""
        return self._invalid_count

    @property
    def valid_count(self) -> int:
        """How many records are valid."""
        return self._count - self._invalid_count

    def _record(self, index: int) -> int:
        if isinstance(index, bool) or not isinstance(index, int):
            try:
                index = index.__index__()  # type: ignore[attr-defined]
            except AttributeError:
                raise TypeError(f"record indices are int, not {_describe(index)}") from None
        count = self._count
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError(f"record index out of range (the result has {count} records)")
        return index

    def is_valid(self, index: int) -> bool:
        """Whether record ``index`` is valid."""
        return self._valid[self._record(index)] == 1

    def errors(self, index: int) -> Dict[str, str]:
        """``{field_id: message}``: the errors a submit of record ``index`` shows, in registration
        order (``{}`` when the record is valid)."""
        index = self._record(index)
        if self._valid[index]:
            return {}
        return self._errors(index)

    def _errors(self, index: int) -> Dict[str, str]:
        fields = len(self._ids)
        start = index * fields
        if not self._any_flags or not any(self._flags[start : start + fields]):
            failing = self._failing_bytes
            if failing is None:
                failing = self._failing_bytes = self._failing.tobytes()
            key = failing[4 * start : 4 * (start + fields)]
            try:
                return self._templates[key].copy()
            except KeyError:
                errors = self._templates[key] = self._judge(index, start, self._failing[start : start + fields])
                return errors.copy()
        return self._judge(index, start, self._failing[start : start + fields])

    def _judge(self, index: int, start: int, rules: Any) -> Dict[str, str]:
        ids, flags, texts = self._ids, self._flags, self._view.texts
        messages = texts.messages
        errors = {}
        for field, rule in enumerate(rules):
            if rule < 0:
                continue
            flag = flags[start + field]
            if flag & FW_CELL_OWN_MESSAGE:  # a custom validator's own words: judged again for them
                errors[ids[field]] = self._cell_message(index, field)
                continue
            if flag & FW_CELL_LIMIT_EXCEEDED:  # the catalogue's fixed text: never judged again (the
                limit = texts.limit_message(self._view.handle())  # message is the same on every run)
                errors[ids[field]] = limit if limit is not None else self._cell_message(index, field)
                continue
            try:
                errors[ids[field]] = messages[field, rule]
            except KeyError:
                errors[ids[field]] = texts.message(self._view.handle(), field, rule)
        return errors

    def _cell_message(self, index: int, field: int) -> str:
        handle = self._view.handle()
        chunk = self._chunks[bisect_right(self._starts, index) - 1]
        columns, column_count, count, record = chunk.columns, chunk.column_count, chunk.count, index - chunk.start
        return read_string(lambda buf, size, length: lib.fw_form_batch_message(
            handle, columns, column_count, count, record, field, buf, size, length))

    def failing_rule(self, index: int, field_id: str) -> Optional[int]:
        """The position (from 0, in the order the rules were added) of the rule of ``field_id``
        that record ``index`` fails, or ``None`` when that field passes. An unknown field raises
        :class:`formwell.UnknownFieldError` (a ``KeyError``)."""
        index = self._record(index)
        positions = self._positions
        if positions is None:
            positions = self._positions = {key: position for position, key in enumerate(self._ids)}
        try:
            field = positions[field_id]
        except (KeyError, TypeError):
            raise UnknownFieldError(f"no field {field_id!r} in the checked form", _native.FW_ERR_UNKNOWN_FIELD) from None
        rule = self._failing[index * len(self._ids) + field]
        return None if rule < 0 else rule

    def codes(self, index: int) -> Dict[str, str]:
        """``{field_id: code}``: the failure code of each error a submit of record ``index`` shows
        (the fields of :meth:`errors`, in registration order; ``{}`` when the record is valid)."""
        index = self._record(index)
        if self._valid[index]:
            return {}
        fields, texts = len(self._ids), self._view.texts
        start = index * fields
        failures, flags = texts.failures, self._flags
        codes = {}
        for field, rule in enumerate(self._failing[start : start + fields]):
            if rule < 0:
                continue
            if flags[start + field] & FW_CELL_LIMIT_EXCEEDED:
                codes[self._ids[field]] = PATTERN_LIMIT
                continue
            failure = failures.get((field, rule))
            codes[self._ids[field]] = (failure if failure is not None else texts.failure(self._view.handle(), field, rule))[0]
        return codes

    def code(self, index: int, field_id: str) -> Optional[str]:
        """The failure code of ``field_id`` in record ``index`` (``"min_length"``;
        ``"pattern_limit"`` for a pattern cut short by its match limits), or ``None`` when that
        field passes. An unknown field raises :class:`formwell.UnknownFieldError`."""
        failure = self._failure(index, field_id)
        return None if failure is None else failure[0]

    def params(self, index: int, field_id: str) -> Optional[Dict[str, Any]]:
        """The parameters of ``field_id``'s failure in record ``index`` as a new dict
        (``{"length": 8, "unit": "graphemes"}``; ``{}`` for none), or ``None`` when that field
        passes."""
        failure = self._failure(index, field_id)
        if failure is None:
            return None
        return parse_params(failure[1])

    def _failure(self, index: int, field_id: str) -> Optional[Tuple[str, str]]:
        rule = self.failing_rule(index, field_id)
        if rule is None:
            return None
        field = self._positions[field_id]  # type: ignore[index]
        if self._flags[self._record(index) * len(self._ids) + field] & FW_CELL_LIMIT_EXCEEDED:
            return PATTERN_LIMIT, "{}"
        return self._view.texts.failure(self._view.handle(), field, rule)

    def own_message(self, index: int, field_id: str) -> bool:
        """Whether the message of ``field_id`` in record ``index`` is a custom validator's own words
        (not its rule's fixed message)."""
        rule = self.failing_rule(index, field_id)
        if rule is None:
            return False
        field = self._positions[field_id]  # type: ignore[index]
        return bool(self._flags[self._record(index) * len(self._ids) + field] & FW_CELL_OWN_MESSAGE)

    def invalid(self) -> Iterator[Tuple[int, Dict[str, str]]]:
        """``(index, errors)`` of every invalid record, in record order."""
        indices = self.invalid_indices()
        fields = len(self._ids)
        if self._any_flags or not fields:
            errors = self._errors
            for index in indices:
                yield index, errors(index)
            return
        # No flagged cell: every record's errors follow from its failing rules alone (inlined
        # _errors, as this loop is what reading a whole result costs).
        failing = self._failing_bytes
        if failing is None:
            failing = self._failing_bytes = self._failing.tobytes()
        templates, judge, rules, width = self._templates, self._judge, self._failing, 4 * fields
        for index in indices:
            start = index * width
            template = templates.get(failing[start : start + width])
            if template is None:
                first = index * fields
                template = templates[failing[start : start + width]] = judge(index, first, rules[first : first + fields])
            yield index, template.copy()

    def summary(self) -> "Summary":
        """Counts like the summary of ``formwell check``: records, valid, invalid, and per field its
        invalid count and messages, most common first (``str(result.summary())`` prints it as the
        CLI does, with each field's three most common messages)."""
        from collections import Counter

        fields = len(self._ids)
        rule_counts = [Counter(self._failing[field::fields]) for field in range(fields)]
        text_counts: List[Counter] = [Counter() for _ in range(fields)]
        if self._any_flags:
            import re

            for found in re.finditer(b"[^\x00]", self._flags):
                record, field = divmod(found.start(), fields)
                rule = self._failing[found.start()]
                if rule >= 0:
                    rule_counts[field][rule] -= 1
                    text_counts[field][self._cell_message(record, field)] += 1
        invalid_by_field: Dict[str, int] = {}
        messages: Dict[str, List[Tuple[str, int]]] = {}
        for field, field_id in enumerate(self._ids):
            texts = text_counts[field]
            for rule, count in rule_counts[field].items():
                if rule >= 0 and count > 0:
                    texts[self._rule_message(field, rule)] += count
            invalid_by_field[field_id] = sum(texts.values())
            messages[field_id] = sorted(texts.items(), key=lambda item: (-item[1], item[0]))
        return Summary(self._count, self._count - self._invalid_count, self._invalid_count, invalid_by_field, messages)

    def to_arrow(self, dictionary: bool = True) -> Any:
        """The verdicts as a ``pyarrow.Table`` (imports pyarrow): a boolean column ``valid``, then one
        column per field (registration order) holding the message ``errors(i)`` shows for that
        field, null where the field passes: dictionary-encoded strings (``dictionary<int32,
        string>``: each distinct message stored once; pandas reads it as a Categorical,
        ``dictionary=False`` gives plain ``string`` columns)."""
        from .arrow import verdict_table

        return verdict_table(self._count, self._ids, bytes(self._valid), self._failing, self._flags,
                             self._any_flags, self._rule_message, self._cell_message, dictionary)

    def _rule_message(self, field: int, rule: int) -> str:
        """The fixed message of rule ``rule`` of the field at ``field``, from the form's cache."""
        texts = self._view.texts
        text = texts.messages.get((field, rule))
        return text if text is not None else texts.message(self._view.handle(), field, rule)

    def invalid_indices(self) -> List[int]:
        """The indices of the invalid records, in order."""
        found, find, index = [], self._valid.find, self._valid.find(0)
        while index >= 0:
            found.append(index)
            index = find(0, index + 1)
        return found


class Summary:
    """:meth:`CheckResult.summary`: ``records``, ``valid``, ``invalid``; ``invalid_by_field``
    (``{field_id: how many records fail it}``, registration order) and ``messages``
    (``{field_id: [(message, count), ...]}``, most common first, ties in code-point order, as the
    CLI sorts them). ``str(summary)`` is the CLI's summary text; ``top(field_id, limit=3)``."""

    __slots__ = ("records", "valid", "invalid", "invalid_by_field", "messages")

    def __init__(self, records: int, valid: int, invalid: int, invalid_by_field: Dict[str, int],
                 messages: Dict[str, List[Tuple[str, int]]]) -> None:
        self.records, self.valid, self.invalid = records, valid, invalid
        self.invalid_by_field, self.messages = invalid_by_field, messages

    def top(self, field_id: str, limit: int = 3) -> List[Tuple[str, int]]:
        """The ``limit`` most common messages of ``field_id`` with their counts."""
        return self.messages[field_id][:limit]

    def as_dict(self) -> Dict[str, Any]:
        return {"records": self.records, "valid": self.valid, "invalid": self.invalid,
                "fields": {key: {"invalid": count, "messages": dict(self.messages[key])}
                           for key, count in self.invalid_by_field.items()}}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Summary) and self.as_dict() == other.as_dict()

    def __repr__(self) -> str:
        return f"<formwell.Summary {self.records} records: {self.valid} valid, {self.invalid} invalid>"

    def __str__(self) -> str:
        noun = "record" if self.records == 1 else "records"
        lines = [f"{self.records} {noun}: {self.valid} valid, {self.invalid} invalid"]
        for field_id, count in self.invalid_by_field.items():
            if count > 0:
                top = ", ".join(f"{message} ({times})" for message, times in self.top(field_id))
                lines.append(f"  {field_id}: {count} invalid \u2014 {top}")
        return "\n".join(lines)
