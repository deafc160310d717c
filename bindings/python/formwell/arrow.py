"""Arrow tables checked in place: :func:`check_table` and the :class:`TableCheckResult` it returns.

A table reaches the library through the Arrow C Data Interface, the standard C ABI of Arrow data
(``struct ArrowSchema`` / ``struct ArrowArray``): this module takes those structs out of the Arrow
PyCapsule interface (``__arrow_c_stream__`` / ``__arrow_c_array__``, which pyarrow, polars, pandas
and DuckDB all speak) with ``PyCapsule_GetPointer`` and hands them to ``fw_form_check_arrow`` one
record batch at a time. No value becomes a Python object and no column is copied: the rules read
the producer's own buffers. Nothing here imports pyarrow unless a cast is needed (below) or a
result is turned into a table (:meth:`CheckResult.to_arrow`); ``import formwell`` imports neither
this module nor pyarrow.

Ownership: each struct is *moved* out of its capsule (copied, and the capsule's copy marked
released, as the C Data Interface allows), so this module owns it and calls its ``release`` callback
exactly once, when done with it, even when the check raises; the library only borrows.

Messages: a cell whose message is a custom validator's own words (``FW_CELL_OWN_MESSAGE``) is
resolved with ``fw_form_arrow_message`` right after its batch is checked, while the batch is still
alive; a cell cut short by its match limits or work bound (``FW_CELL_LIMIT_EXCEEDED``) reads the
message the form's catalogue gives code ``pattern_limit`` ("This value is too complex to check" in
English) without being judged again. Then the batch is released. So a :class:`TableCheckResult` holds no Arrow data at all: its verdicts, the
failing rule of each cell, and the messages of the (rare) flagged cells.

Columns the library does not read natively: the library reads ``utf8`` and ``large_utf8`` columns
(and whatever else it accepts, e.g. ``string_view`` or dictionary-encoded strings); when it refuses
a string-like column (``string_view``, dictionary of strings, or an all-null ``null`` column, as
pandas gives for an empty object column), the rest of the input is read through pyarrow, those
columns cast to ``large_string`` (a copy of those columns only), and this module remembers the
refusal for later calls. A column of any other type naming a field (int64, a timestamp, ...)
raises :class:`TypeError` naming the column and its type. A batch refused because its buffers are
not aligned as their types need (pandas strings unpickled with pickle protocol 5, as on a Dask
worker) is read the same way with its field columns copied into new buffers; libraries from
fd3c3db on copy unaligned offsets themselves, so that is only a fallback.

pyarrow before 25 crashes the process when it exports a ``string_view`` or ``binary_view`` array
that a cast left with a null data buffer (every value inline, 12 bytes or less): its C Data
exporter reads that buffer. So a pyarrow table, batch or reader from such a pyarrow, with a view
type in its schema, reaches the library as a copy of its field columns (the others are ignored
anyway), those of ``string_view`` (plain or dictionary-encoded) cast to ``large_string``.
"""

from __future__ import annotations

import ctypes
import re
from array import array
from ctypes import POINTER, addressof, byref, c_char_p, c_int32, c_size_t, c_uint8, c_void_p, py_object, sizeof
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

from . import _native
from ._native import FW_CELL_OWN_MESSAGE, ArrowArray, ArrowArrayStream, ArrowSchema, check, lib, read_string
from .batch import CheckResult, FormView
from .errors import FormwellError, InvalidArgumentError

__all__ = ["check_table", "TableCheckResult"]

_get_pointer = ctypes.pythonapi["PyCapsule_GetPointer"]  # a function object of our own (argtypes)
_get_pointer.restype = c_void_p
_get_pointer.argtypes = [py_object, c_char_p]

_NONZERO = re.compile(b"[^\x00]")

#: Formats (of a field's column) the library is known to read, and string-like formats that it
#: may refuse (then read through pyarrow, cast to large_string). Anything else is a TypeError.
_STRING_FORMATS = {"u", "U"}
_CASTABLE_FORMATS = {"vu", "n"}
#: Of those, the ones the loaded library refused (learnt once per process).
_refused: Set[str] = set()

_FORMAT_NAMES = {
    "n": "null", "b": "bool", "c": "int8", "C": "uint8", "s": "int16", "S": "uint16", "i": "int32",
    "I": "uint32", "l": "int64", "L": "uint64", "e": "float16", "f": "float32", "g": "float64",
    "z": "binary", "Z": "large_binary", "vz": "binary_view", "u": "utf8 (string)", "U": "large_utf8",
    "vu": "string_view", "tdD": "date32", "tdm": "date64", "+l": "list", "+L": "large_list",
    "+s": "struct", "+m": "map",
}
_INTEGER_FORMATS = set("cCsSiIlL")


def _type_name(schema: ArrowSchema) -> str:
    fmt = (schema.format or b"").decode("utf-8", "replace")
    if schema.dictionary:
        return f"dictionary<{_type_name(schema.dictionary.contents)}>"
    if fmt.startswith("w:"):
        return f"fixed_size_binary[{fmt[2:]}]"
    if fmt.startswith("d:"):
        return f"decimal({fmt[2:]})"
    if fmt.startswith("ts"):
        return f"timestamp[{fmt[2:]}]"
    return _FORMAT_NAMES.get(fmt, f"Arrow format {fmt!r}")


def _column_kind(schema: ArrowSchema) -> str:
    """'string' (read natively), 'castable' (string-like; cast if the library refuses it) or
    'other' (not strings: an error)."""
    fmt = (schema.format or b"").decode("utf-8", "replace")
    if schema.dictionary:
        if fmt in _INTEGER_FORMATS and _column_kind(schema.dictionary.contents) != "other":
            return "castable"
        return "other"
    if fmt in _STRING_FORMATS:
        return "string"
    if fmt in _CASTABLE_FORMATS:
        return "castable"
    return "other"


def _column_key(schema: ArrowSchema) -> str:
    fmt = (schema.format or b"").decode("utf-8", "replace")
    if schema.dictionary:
        return "dict:" + _column_key(schema.dictionary.contents)
    return fmt


class _Owned:
    """One C Data Interface struct this module owns (moved out of a capsule, or filled in by a
    stream): :meth:`release` calls its release callback exactly once."""

    __slots__ = ("struct",)

    def __init__(self, struct: Any) -> None:
        self.struct = struct

    @property
    def alive(self) -> bool:
        return bool(self.struct.release)

    def release(self) -> None:
        struct = self.struct
        callback = struct.release
        if callback:
            try:
                callback(byref(struct))
            finally:  # the producer must mark it released; make sure it reads so either way
                ctypes.memset(addressof(struct) + type(struct).release.offset, 0, sizeof(c_void_p))


def _move(capsule: Any, name: bytes, kind: Any) -> _Owned:
    """Moves the struct out of a PyCapsule of the Arrow PyCapsule interface: copies it and marks
    the capsule's copy released, so the capsule's destructor does nothing and we release it."""
    if type(capsule).__name__ != "PyCapsule":
        raise TypeError(f"expected a PyCapsule named {name.decode()!r}, not {type(capsule).__name__}")
    address = _get_pointer(capsule, name)  # ValueError when the capsule has another name
    if not address:  # pragma: no cover - a capsule always holds a pointer
        raise ValueError(f"the {name.decode()} capsule is empty")
    moved = kind()
    ctypes.memmove(byref(moved), address, sizeof(kind))
    ctypes.memset(address + kind.release.offset, 0, sizeof(c_void_p))
    if not moved.release:
        raise ValueError(f"the {name.decode()} capsule holds a released struct")
    return _Owned(moved)


def _stream_error(stream: ArrowArrayStream, status: int, what: str) -> Exception:
    detail = ""
    if stream.get_last_error:
        message = stream.get_last_error(byref(stream))
        if message:
            detail = ": " + ctypes.string_at(message).decode("utf-8", "replace")
    import errno

    return OSError(status, f"the Arrow stream failed in {what} ({errno.errorcode.get(status, status)}){detail}")


# ---- the check ----


class _Accumulator:
    """The verdicts of the batches checked so far, concatenated."""

    def __init__(self, view: FormView, threads: int) -> None:
        self.view = view
        self.handle = view.handle()
        self.ids = view.field_ids
        self.fields = len(self.ids)
        self.threads = threads
        self.count = 0
        self.invalid = 0
        self.valid = bytearray()
        self.failing = array("i")
        self.flags = bytearray()
        self.messages: Dict[Tuple[int, int], str] = {}

    def check(self, schema: ArrowSchema, batch: ArrowArray) -> None:
        count, fields, handle = batch.length, self.fields, self.handle
        if count <= 0:
            return
        cells = count * fields
        valid = (c_uint8 * count)()
        failing = (c_int32 * max(cells, 1))()
        flags = (c_uint8 * max(cells, 1))()
        invalid = c_size_t(0)
        check(lib.fw_form_check_arrow(handle, byref(schema), byref(batch), self.threads, valid, failing, flags,
                                      byref(invalid)))
        base = self.count
        flag_bytes = bytes(flags)[:cells]
        if flag_bytes.count(0) != cells:  # flagged cells: their messages, while the batch is alive
            for found in _NONZERO.finditer(flag_bytes):
                record, field = divmod(found.start(), fields)
                if not flag_bytes[found.start()] & FW_CELL_OWN_MESSAGE:
                    limit = self.view.texts.limit_message(handle)  # limits: a fixed text, not re-judged
                    if limit is not None:
                        self.messages[base + record, field] = limit
                        continue
                self.messages[base + record, field] = read_string(
                    lambda buf, size, length: lib.fw_form_arrow_message(
                        handle, byref(schema), byref(batch), record, field, buf, size, length))
        self.valid += bytes(valid)
        self.failing.frombytes(bytes(failing)[: 4 * cells])
        self.flags += flag_bytes
        self.count += count
        self.invalid += invalid.value

    def result(self) -> "TableCheckResult":
        return TableCheckResult(self.view, self.ids, self.count, self.valid, self.failing, bytes(self.flags),
                                self.invalid, self.messages)


def _matched_columns(schema: ArrowSchema, ids: List[str]) -> List[Tuple[str, ArrowSchema]]:
    """(name, child schema) of the columns that name a field; TypeError for a column that is not
    strings, or for input that is not a record batch (struct)."""
    fmt = schema.format or b""
    if fmt != b"+s":
        raise TypeError(f"check_table needs a table or record batch (an Arrow struct, format '+s'), "
                        f"not {_type_name(schema)}")
    wanted = set(ids)
    matched = []
    for index in range(schema.n_children):
        child = schema.children[index].contents
        name = (child.name or b"").decode("utf-8", "replace")
        if name not in wanted:
            continue  # columns the form does not know are ignored
        if _column_kind(child) == "other":
            raise TypeError(f"column {name!r} is {_type_name(child)}, not strings (utf8, large_utf8, "
                            f"string_view or dictionary of strings): cast it first")
        matched.append((name, child))
    return matched


def _needs_cast(matched: List[Tuple[str, ArrowSchema]]) -> List[str]:
    return [name for name, child in matched if _column_key(child) in _refused]


def _castable(matched: List[Tuple[str, ArrowSchema]]) -> List[Tuple[str, str]]:
    return [(name, _column_key(child)) for name, child in matched if _column_kind(child) == "castable"]


class _Source:
    """The input as C structs: a stream (``__arrow_c_stream__``) or one array
    (``__arrow_c_array__``). Owns what it took and releases each struct exactly once."""

    def __init__(self, table: Any) -> None:
        self.stream: Optional[_Owned] = None
        self.schema: Optional[_Owned] = None
        self.single: Optional[_Owned] = None
        stream_method = getattr(table, "__arrow_c_stream__", None)
        array_method = getattr(table, "__arrow_c_array__", None)
        if array_method is not None and stream_method is not None and _is_pyarrow_batch(table):
            stream_method = None  # one batch: no stream wrapper needed
        if stream_method is not None:
            self.stream = _move(stream_method(), b"arrow_array_stream", ArrowArrayStream)
            stream = self.stream.struct
            schema = ArrowSchema()
            status = stream.get_schema(byref(stream), byref(schema))
            self.schema = _Owned(schema)
            if status != _native.FW_OK:
                raise _stream_error(stream, status, "get_schema")
        elif array_method is not None:
            schema_capsule, array_capsule = array_method()
            self.schema = _move(schema_capsule, b"arrow_schema", ArrowSchema)
            self.single = _move(array_capsule, b"arrow_array", ArrowArray)
        else:
            raise TypeError(f"check_table takes a pyarrow Table or RecordBatch, or an object with "
                            f"__arrow_c_stream__ or __arrow_c_array__ (polars, pandas, DuckDB), not "
                            f"{type(table).__name__}")

    def next(self) -> Optional[_Owned]:
        """The next batch (owned by the caller), or None at the end."""
        if self.single is not None:
            single, self.single = self.single, None
            return single
        if self.stream is None:
            return None
        stream = self.stream.struct
        batch = ArrowArray()
        status = stream.get_next(byref(stream), byref(batch))
        if status != _native.FW_OK:
            raise _stream_error(stream, status, "get_next")
        if not batch.release:
            return None
        return _Owned(batch)

    def to_pyarrow(self, pending: Optional[_Owned]) -> Iterator[Any]:
        """Hands what is left (the batch ``pending`` and the rest of the stream) to pyarrow, which
        takes the structs over (they read released here afterwards), as pyarrow RecordBatches."""
        import pyarrow as pa

        assert self.schema is not None
        schema = pa.Schema._import_from_c(addressof(self.schema.struct))
        if pending is not None and pending.alive:
            yield pa.RecordBatch._import_from_c(addressof(pending.struct), schema)
        if self.stream is not None and self.stream.alive:
            reader = pa.RecordBatchReader._import_from_c(addressof(self.stream.struct))
            yield from reader

    def close(self) -> None:
        for owned in (self.single, self.schema, self.stream):  # the stream last: it made the others
            if owned is not None:
                owned.release()


def _exportable(table: Any, ids: List[str]) -> Any:
    """``table``, or for a pyarrow Table, RecordBatch or RecordBatchReader of a pyarrow before 25
    with a view type in its schema, a copy that pyarrow can export (see the module's
    documentation): the columns that name no field left out, field columns of ``string_view`` (and
    the dictionaries of dictionary-encoded ones) cast to ``large_string``."""
    kind = type(table)
    if not kind.__module__.startswith("pyarrow") or kind.__name__ not in ("Table", "RecordBatch", "RecordBatchReader"):
        return table
    import pyarrow as pa

    major = pa.__version__.split(".", 1)[0]
    if not major.isdigit() or int(major) >= 25 or not hasattr(pa.types, "is_string_view"):
        return table  # fixed, or a pyarrow without view types

    def has_view(data_type: Any) -> bool:
        if pa.types.is_string_view(data_type) or pa.types.is_binary_view(data_type):
            return True
        if pa.types.is_dictionary(data_type):
            return has_view(data_type.value_type)
        return any(has_view(data_type.field(index).type) for index in range(data_type.num_fields))

    def to_large_string(data_type: Any) -> Any:
        if pa.types.is_string_view(data_type):
            return pa.large_string()
        if pa.types.is_dictionary(data_type) and pa.types.is_string_view(data_type.value_type):
            return pa.dictionary(data_type.index_type, pa.large_string(), data_type.ordered)
        return data_type

    def rebuilt(column: Any, data_type: Any) -> Any:
        if not pa.types.is_dictionary(data_type):
            return column.cast(data_type)
        # (pyarrow has no cast of a dictionary of string_view: its dictionary is cast instead)
        chunks = [pa.DictionaryArray.from_arrays(chunk.indices, chunk.dictionary.cast(pa.large_string()),
                                                 ordered=data_type.ordered)
                  for chunk in (column.chunks if isinstance(column, pa.ChunkedArray) else [column])]
        return pa.chunked_array(chunks, data_type) if isinstance(column, pa.ChunkedArray) else chunks[0]

    schema = table.schema
    if not any(has_view(field.type) for field in schema):
        return table
    wanted = set(ids)
    kept = [index for index, field in enumerate(schema) if field.name in wanted]
    target = pa.schema([schema.field(index).with_type(to_large_string(schema.field(index).type)) for index in kept],
                       metadata=schema.metadata)

    def copy(part: Any) -> Any:
        part = part.select(kept)
        for index, field in enumerate(target):
            if field.type != part.schema.field(index).type:
                part = part.set_column(index, field, rebuilt(part.column(index), field.type))
        return part

    if kind.__name__ == "RecordBatchReader":
        return pa.RecordBatchReader.from_batches(target, (copy(batch) for batch in table))
    return copy(table)


def _is_pyarrow_batch(table: Any) -> bool:
    kind = type(table)
    return kind.__name__ == "RecordBatch" and kind.__module__.startswith("pyarrow")


def _cast_batch(batch: Any, cast: List[str], realign: List[str]) -> Any:
    """A pyarrow RecordBatch with the columns ``cast`` as large_string and the columns ``realign``
    copied into new (aligned) buffers; the others as they are."""
    import pyarrow as pa

    columns = []
    for index, field in enumerate(batch.schema):
        column = batch.column(index)
        if field.name in cast and not pa.types.is_large_string(field.type):
            column = column.cast(pa.large_string())
        elif field.name in realign:
            column = pa.concat_arrays([column, column.slice(0, 0)])  # new buffers, offset 0
        columns.append(column)
    return pa.RecordBatch.from_arrays(columns, names=batch.schema.names)


def _check_pyarrow(accumulator: _Accumulator, batch: Any, cast: List[str], realign: Sequence[str] = ()) -> None:
    """Checks a pyarrow RecordBatch (its columns ``cast`` cast, ``realign`` copied); a batch
    refused for unaligned buffers is checked again with every other column copied too."""
    schema_capsule, array_capsule = _cast_batch(batch, cast, list(realign)).__arrow_c_array__()
    schema, owned = _move(schema_capsule, b"arrow_schema", ArrowSchema), _move(array_capsule, b"arrow_array", ArrowArray)
    try:
        accumulator.check(schema.struct, owned.struct)
    except InvalidArgumentError as error:
        others = [name for name in batch.schema.names if name not in cast and name not in realign]
        if "align" not in str(error) or not others:
            raise
        owned.release()
        schema.release()
        _check_pyarrow(accumulator, batch, cast, list(realign) + others)
    finally:
        owned.release()
        schema.release()


def check_table(form: Any, table: Any, *, threads: int = 0) -> "TableCheckResult":
    """Checks every row of an Arrow table as a submit of a fresh form holding that row's values
    (exactly what :meth:`formwell.Form.check_many` does with a record), reading the columns in
    place (``fw_form_check_arrow``, one call per record batch, on ``threads`` threads: 0 uses
    every processor).

    ``table`` is a ``pyarrow.Table``, ``RecordBatch`` or ``RecordBatchReader``, or any object with
    ``__arrow_c_stream__`` or ``__arrow_c_array__`` (the Arrow PyCapsule interface: a polars
    ``DataFrame``, a pandas ``DataFrame`` (pandas 2.2+), a DuckDB relation, ...). Columns are
    matched to fields by name: a null reads ``""``; columns that are not fields are ignored; a
    field without a column holds its initial value; a field's column must hold strings (utf8,
    large_utf8; string_view, dictionary-encoded strings and all-null columns too, cast through
    pyarrow if the library refuses them), else :class:`TypeError` names it. A stream is read to its
    end (each batch released once checked); a one-shot stream cannot be checked twice.

    Returns a :class:`TableCheckResult`: a :class:`formwell.CheckResult` (``len``, ``valid``,
    ``invalid_count``, ``errors(i)``, ``invalid()``, ``summary()``, ``to_arrow()``) over the rows
    in order, across all batches.
    """
    return form.check_table(table, threads=threads)  # type: ignore[no-any-return]


def check_view(view: FormView, table: Any, threads: int = 0) -> "TableCheckResult":
    """:func:`check_table` of the form ``view`` stands for (:meth:`formwell.Form.check_table`)."""
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if threads < 0:
        raise ValueError(f"threads is {threads}; use 0 for every processor")
    if not hasattr(lib, "fw_form_check_arrow"):
        raise NotImplementedError(f"{_native.library_path} has no fw_form_check_arrow (an older libformwell)")
    accumulator = _Accumulator(view, threads)
    source = _Source(_exportable(table, accumulator.ids))
    pending: Optional[_Owned] = None
    try:
        assert source.schema is not None
        matched = _matched_columns(source.schema.struct, accumulator.ids)
        cast = _needs_cast(matched)
        if cast:  # a type the library refused before: straight to pyarrow
            for batch in source.to_pyarrow(None):
                _check_pyarrow(accumulator, batch, cast)
            return accumulator.result()
        while True:
            pending = source.next()
            if pending is None:
                break
            try:
                accumulator.check(source.schema.struct, pending.struct)
            except InvalidArgumentError as error:
                # Refused: retry this batch and the rest through pyarrow, either with copies of the
                # field columns (buffers not aligned as the library needs: e.g. pandas strings
                # unpickled on a Dask worker) or with string-like columns cast to large_string.
                if "align" in str(error):
                    cast, realign, learn = [], [name for name, _ in matched], []
                else:
                    castable = _castable(matched)
                    if not castable:
                        raise
                    cast, realign, learn = [name for name, _ in castable], [], [key for _, key in castable]
                batches = source.to_pyarrow(pending)
                try:
                    first = next(batches, None)
                    if first is not None:
                        _check_pyarrow(accumulator, first, cast, realign)
                except FormwellError:
                    raise  # (the retry's own error: it says what is wrong with the data)
                except Exception:
                    raise error from None
                _refused.update(learn)
                for batch in batches:
                    _check_pyarrow(accumulator, batch, cast, realign)
                break
            finally:
                if pending is not None:
                    pending.release()
                    pending = None
        return accumulator.result()
    finally:
        if pending is not None:
            pending.release()
        source.close()


class TableCheckResult(CheckResult):
    """The verdicts of :func:`check_table`: a :class:`formwell.CheckResult` (``len``, ``valid``,
    ``invalid_count``, ``valid_count``, ``is_valid(i)``, ``errors(i)``, ``failing_rule(i, id)``,
    ``invalid()``, ``summary()``, ``to_arrow()``) whose flagged cells' messages were read while
    their batch was alive, so it keeps no Arrow data; rule messages are read from the form once
    each (keep the form open to read errors)."""

    __slots__ = ("_messages",)

    def __init__(self, view: FormView, ids: List[str], count: int, valid: bytearray, failing: array, flags: bytes,
                 invalid_count: int, messages: Dict[Tuple[int, int], str]) -> None:
        super().__init__(view, ids, [], count, valid, failing, flags, invalid_count)
        self._messages = messages

    def __repr__(self) -> str:
        return super().__repr__().replace("CheckResult", "TableCheckResult", 1)

    def _cell_message(self, index: int, field: int) -> str:
        return self._messages[index, field]


def result_table(result: CheckResult, dictionary: bool = True) -> Any:
    """``result.to_arrow(dictionary)`` (see :meth:`CheckResult.to_arrow`)."""
    return result.to_arrow(dictionary)


def verdict_table(count: int, ids: List[str], valid_bytes: bytes, failing: array, flags: bytes, any_flags: bool,
                  rule_message: Callable[[int, int], str], cell_message: Callable[[int, int], str],
                  dictionary: bool = True) -> Any:
    """:meth:`CheckResult.to_arrow` of a result's verdicts (``count`` records of the fields ``ids``:
    one byte per record in ``valid_bytes``; per cell, record by record, its failing rule in
    ``failing`` (-1: passes) and its flags in ``flags``, any of them set when ``any_flags``):
    ``valid`` (bool), then one column per field, the message of that field (null where it
    passes): dictionary-encoded strings, or plain strings with ``dictionary=False`` (what Spark's
    mapInArrow and Dask's meta want), built with Arrow compute kernels. ``rule_message(field,
    rule)`` words a rule's failure, ``cell_message(record, field)`` a flagged cell's."""
    import pyarrow as pa
    import pyarrow.compute as pc

    fields = len(ids)
    valid = pa.Array.from_buffers(pa.uint8(), count, [None, pa.py_buffer(valid_bytes)])
    columns = [pc.not_equal(valid, 0)]
    try:  # numpy (pandas' and usually pyarrow's companion) reads a field's column as a strided view
        import numpy as np
    except ImportError:
        np = None
    if np is not None:
        matrix = np.frombuffer(failing, dtype=np.int32, count=count * fields).reshape(count, fields)
    else:
        flat = pa.Array.from_buffers(pa.int32(), count * fields, [None, pa.py_buffer(failing.tobytes())])
        grouped = pa.FixedSizeListArray.from_arrays(flat, fields) if fields > 1 else None
    for field in range(fields):
        if np is not None:
            column = np.ascontiguousarray(matrix[:, field])
            present = range(int(column.max()) + 1 if count else 0)  # every rule up to the highest failing
            indices = pa.array(column, type=pa.int32(), mask=column < 0)
        else:
            rules = flat if grouped is None else pc.list_element(grouped, field)
            present = [rule for rule in pc.unique(rules).to_pylist() if rule >= 0]
            indices = pc.if_else(pc.less(rules, 0), pa.scalar(None, pa.int32()), rules)
        texts = [""] * (max(present) + 1 if present else 0)
        for rule in present:
            texts[rule] = rule_message(field, rule)
        if any_flags:  # cells with their own message: one dictionary entry each
            column_flags = flags[field::fields]
            positions = [found.start() for found in _NONZERO.finditer(column_flags)
                         if failing[found.start() * fields + field] >= 0]
            if positions:
                mask = bytearray(count)
                replacements = []
                for position in positions:
                    mask[position] = 1
                    replacements.append(len(texts))
                    texts.append(cell_message(position, field))
                mask_array = pc.not_equal(pa.Array.from_buffers(pa.uint8(), count, [None, pa.py_buffer(bytes(mask))]), 0)
                indices = pc.replace_with_mask(indices, mask_array, pa.array(replacements, pa.int32()))
        # Dictionary-encoded: a field has a handful of distinct messages, so its column is the
        # failing-rule indices over them, no string copied per record (pandas reads it as a
        # Categorical; `.cast(pa.string())` gives plain strings).
        messages = pa.array(texts, pa.string())
        columns.append(pa.DictionaryArray.from_arrays(indices, messages) if dictionary else pc.take(messages, indices))
    return pa.Table.from_arrays(columns, names=["valid"] + list(ids))
