"""formwell.check_table: Arrow tables (pyarrow, polars, pandas) checked in place through the Arrow C
Data Interface agree with check_many record by record; hostile inputs get clear errors; every C
struct taken from a producer is released exactly once; a Form pickles as its spec."""

import ctypes
import gc
import json
import os
import pickle
import subprocess
import sys

import pytest

import formwell
from formwell import Custom, Form, Required

from conftest import PACKAGE_ROOT, REPO_ROOT
from test_check_many import ODD_VALUES, generated_records

pa = pytest.importorskip("pyarrow", reason="check_table needs pyarrow for these tests (pip install pyarrow)")
if not hasattr(formwell._native.lib, "fw_form_check_arrow"):
    pytest.skip("the loaded libformwell has no fw_form_check_arrow", allow_module_level=True)

REGISTRATION = os.path.join(REPO_ROOT, "examples", "registration.json")
SIGNUPS = os.path.join(REPO_ROOT, "examples", "signups.jsonl")
IDS = ["name", "email", "username", "password", "confirm"]


@pytest.fixture(scope="module")
def registration():
    with Form.from_spec(REGISTRATION) as form:
        yield form


@pytest.fixture(scope="module")
def records():
    return generated_records(6000, seed=15)


@pytest.fixture(scope="module")
def table(records):
    """The records as a table: a missing key or None is a null; the unknown key `newsletter` is a
    column the form ignores."""
    return pa.Table.from_pylist(records, schema=pa.schema([(key, pa.string()) for key in IDS + ["newsletter"]]))


def assert_same(form, by_table, by_records, records=None):
    """check_table's result says exactly what check_many's says, record by record."""
    assert isinstance(by_table, formwell.arrow.TableCheckResult)
    assert isinstance(by_table, formwell.CheckResult)
    assert len(by_table) == len(by_records)
    assert by_table.valid == by_records.valid
    assert by_table.invalid_count == by_records.invalid_count
    assert by_table.invalid_indices() == by_records.invalid_indices()
    for index in range(len(by_records)):
        assert by_table.errors(index) == by_records.errors(index), (index, records and records[index])
        for key in form.field_ids:
            assert by_table.failing_rule(index, key) == by_records.failing_rule(index, key)
    assert list(by_table.invalid()) == list(by_records.invalid())
    assert by_table.summary() == by_records.summary()


def test_a_pyarrow_table_agrees_with_check_many(registration, records, table):
    assert table.column("newsletter").null_count < len(records)  # an extra column, ignored
    assert table.column("email").null_count > 0  # missing keys and None: nulls read ""
    by_table = registration.check_table(table)
    assert 0 < by_table.invalid_count < len(records)
    assert_same(registration, by_table, registration.check_many(records), records)
    assert formwell.check_table(registration, table).valid == by_table.valid


def test_slices_at_every_kind_of_offset(registration, records, table):
    expected = registration.check_many(records)
    for start, length in [(0, 1), (1, 7), (3, 100), (13, 1000), (4093, 1907), (len(records) - 1, 1), (50, 0)]:
        part = table.slice(start, length)
        result = registration.check_table(part)
        assert result.valid == expected.valid[start : start + length], (start, length)
        for index in range(length):
            assert result.errors(index) == expected.errors(start + index)
    batch = table.combine_chunks().to_batches()[0].slice(17, 333)  # a RecordBatch with an offset
    assert registration.check_table(batch).valid == expected.valid[17:350]


def test_a_chunked_table_and_a_reader(registration, records, table):
    expected = registration.check_many(records)
    chunked = pa.Table.from_batches(table.to_batches(max_chunksize=999))
    assert chunked.column("email").num_chunks > 5
    assert_same(registration, registration.check_table(chunked), expected)
    reader = pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=1234))
    assert registration.check_table(reader).valid == expected.valid
    # a concatenation of slices: chunks that each start at an offset into their buffers
    sliced = pa.concat_tables([table.slice(10, 500), table.slice(2000, 1500), table.slice(5999, 1)])
    want = expected.valid[10:510] + expected.valid[2000:3500] + expected.valid[5999:6000]
    assert registration.check_table(sliced).valid == want


@pytest.mark.parametrize("kind", ["large_string", "string_view", "dictionary", "mixed"])
def test_other_string_layouts(registration, records, table, kind):
    columns = []
    for index, name in enumerate(table.column_names):
        column = table.column(name)
        if kind == "large_string" or (kind == "mixed" and index % 3 == 0):
            column = column.cast(pa.large_string())
        elif kind == "string_view" or (kind == "mixed" and index % 3 == 1):
            column = column.cast(pa.string_view())
        else:
            column = column.dictionary_encode()
        columns.append(column)
    converted = pa.table(columns, names=table.column_names)
    assert_same(registration, registration.check_table(converted), registration.check_many(records))


def _casts_to_views():
    try:
        pa.array(["a"]).cast(pa.string_view())
        return True
    except (AttributeError, pa.ArrowNotImplementedError):
        return False


@pytest.mark.skipif(not _casts_to_views(), reason="this pyarrow has no cast to string_view")
def test_view_columns_of_only_inline_values():
    # A cast to string_view / binary_view of values of 12 bytes or less leaves a null data buffer,
    # and pyarrow before 25 crashes the process exporting such an array: check_table still reads
    # it, beside a view column that names no field, as a Table, a RecordBatch and a reader.
    spec = {"formwell": 1, "fields": [{"id": "name", "rules": [{"rule": "required"}]},
                                      {"id": "email", "rules": [{"rule": "email"}]}]}
    names = ["Ada", None, "", "Grace Hopper", "Bo"]
    emails = ["ada@ex.io", "x", None, "g@ex.io", "b@ex.co"]
    table = pa.table({
        "name": pa.array(names).cast(pa.string_view()),
        "email": pa.array(emails).cast(pa.string_view()),
        "note": pa.array([b"n"] * 5).cast(pa.binary_view()),
        "extra": pa.array(["short"] * 5).dictionary_encode().cast(pa.dictionary(pa.int32(), pa.string_view())),
    })
    with Form.from_spec(spec) as form:
        expected = form.check_many({"name": names, "email": emails})
        assert 0 < expected.invalid_count < len(names)
        assert_same(form, form.check_table(table), expected)
        assert_same(form, form.check_table(table.to_batches()[0]), expected)
        reader = pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=2))
        assert_same(form, form.check_table(reader), expected)
        if int(pa.__version__.split(".")[0]) < 25:  # (pyarrow 25 and later export it as it is)
            dictionary = table.set_column(0, "name", pa.array(names).dictionary_encode().cast(
                pa.dictionary(pa.int32(), pa.string_view())))
            assert form.check_table(dictionary).valid == expected.valid
        only_views = table.select(["note"])  # no field column: every record holds initial values
        assert form.check_table(only_views).valid == form.check_many([{}] * 5).valid


def test_odd_values_and_long_values():
    # (a minute per match: a long value must not hit the time limit in one run and not in another)
    registration = Form.from_spec(REGISTRATION)
    registration.time_limit = 60.0
    values = ODD_VALUES + ["x" * 100_000, "A1" + "é" * 40_000, "", None]
    records = [{"name": n, "email": e, "username": u, "password": p, "confirm": p}
               for n in values for e, u, p in zip(values[1:] + values[:1], values[3:] + values[:3], values)]
    try:
        table = pa.Table.from_pylist(records)
        assert_same(registration, registration.check_table(table), registration.check_many(records), records)
        large = table.cast(pa.schema([(name, pa.large_string()) for name in table.column_names]))
        assert registration.check_table(large).valid == registration.check_many(records).valid
    finally:
        registration.close()


def test_an_all_null_column_reads_empty(registration):
    table = pa.table({"name": pa.array([None, None, None]), "email": ["ada@example.com", None, "x"]})
    assert table.schema.field("name").type == pa.null()
    result = registration.check_table(table)
    expected = registration.check_many({"name": [None] * 3, "email": ["ada@example.com", None, "x"]})
    assert_same(registration, result, expected)
    assert result.errors(0)["name"] == "Name is required"


def test_a_field_without_a_column_holds_its_initial_value():
    spec = {"formwell": 1, "fields": [
        {"id": "country", "initial": "FR", "rules": [{"rule": "required"}, {"rule": "regex", "pattern": "[A-Z]{2}"}]},
        {"id": "city", "rules": [{"rule": "required"}]}]}
    with Form.from_spec(spec) as form:
        result = form.check_table(pa.table({"city": ["Paris", ""], "extra": [1, 2]}))
        assert result.valid == [True, False]
        assert result.errors(1) == {"city": "This field is required"}
        assert form.check_table(pa.table({"city": ["Lyon"], "country": ["fr"]})).errors(0) == {
            "country": "Invalid format"}


def test_polars(registration, records, table):
    pl = pytest.importorskip("polars", reason="polars is not installed")
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    assert_same(registration, registration.check_table(frame), registration.check_many(records))
    # several chunks, and a lazy frame's result
    stacked = pl.concat([frame.slice(0, 2500), frame.slice(2500, None)], rechunk=False)
    assert stacked.n_chunks() > 1
    assert registration.check_table(stacked).valid == registration.check_many(records).valid
    assert registration.check_table(frame.lazy().head(100).collect()).valid == registration.check_many(records[:100]).valid


def test_pandas_with_arrow_dtypes(registration, records):
    pd = pytest.importorskip("pandas", reason="pandas is not installed")
    frame = pd.DataFrame(records, columns=IDS).astype(pd.ArrowDtype(pa.string()))
    assert hasattr(frame, "__arrow_c_stream__") or pytest.skip("this pandas has no __arrow_c_stream__")
    assert_same(registration, registration.check_table(frame), registration.check_many(records))
    converted = pa.Table.from_pandas(frame, preserve_index=False)
    assert registration.check_table(converted).valid == registration.check_many(records).valid
    # pandas' own string dtype (object or "str") goes through pyarrow the same way
    plain = pd.DataFrame(records, columns=IDS)
    assert registration.check_table(pa.Table.from_pandas(plain)).valid == registration.check_many(records).valid


def test_to_arrow(registration, records, table):
    result = registration.check_table(table)
    verdicts = result.to_arrow()
    assert verdicts.column_names == ["valid"] + IDS
    assert verdicts.schema.field("valid").type == pa.bool_()
    # messages are dictionary-encoded strings (a few distinct messages per field)
    assert all(verdicts.schema.field(key).type == pa.dictionary(pa.int32(), pa.string()) for key in IDS)
    rows = verdicts.to_pylist()
    for index, row in enumerate(rows):
        assert row["valid"] is result.valid[index]
        assert {key: row[key] for key in IDS if row[key] is not None} == result.errors(index)
    # check_many's results have the same table; dictionary=False gives the same texts as plain strings
    assert registration.check_many(records).to_arrow().equals(verdicts)
    plain = result.to_arrow(dictionary=False)
    assert all(plain.schema.field(key).type == pa.string() for key in IDS)
    assert plain.to_pylist() == rows


def test_summary_prints_like_the_cli(registration):
    with open(SIGNUPS, encoding="utf-8") as file:
        signups = [json.loads(line) for line in file]
    summary = registration.check_table(pa.Table.from_pylist(signups)).summary()
    assert (summary.records, summary.valid, summary.invalid) == (3000, 2492, 508)
    assert str(summary).splitlines() == [
        "3000 records: 2492 valid, 508 invalid",
        "  name: 50 invalid \u2014 Name is required (50)",
        "  email: 153 invalid \u2014 Invalid email format (111), This field is required (42)",
        "  username: 197 invalid \u2014 Lowercase letters, numbers, and underscores only (103), "
        "20 characters maximum (52), At least 3 characters (42)",
        "  password: 80 invalid \u2014 Must be at least 8 characters (56), "
        "Password too weak \u2014 add uppercase, numbers, or symbols (24)",
        "  confirm: 125 invalid \u2014 Please confirm your password (65), Passwords don't match (60)",
    ]
    assert summary.top("email", 1) == [("Invalid email format", 111)]
    assert summary.as_dict()["fields"]["confirm"] == {
        "invalid": 125, "messages": {"Please confirm your password": 65, "Passwords don't match": 60}}


def test_custom_rules_own_messages_outlive_the_table():
    def taken(value):
        return f"{value} is taken" if value.startswith("ada") else None

    with Form() as form:
        form.add_field("username", [Required(), Custom(taken)])  # no message=: the validator's words
        form.add_field("nick", [Custom(lambda v: len(v) < 3, message="Too long")])
        values = [f"ada{i}" if i % 3 == 0 else f"bob{i}" for i in range(3000)]
        nicks = ["ab" if i % 5 else "abcd" for i in range(3000)]
        table = pa.table({"username": values, "nick": nicks})
        result = form.check_table(table)
        expected = form.check_many({"username": values, "nick": nicks})
        del table
        gc.collect()
        assert_same(form, result, expected)
        assert result.errors(0) == {"username": "ada0 is taken", "nick": "Too long"}
        assert result.own_message(0, "username") and not result.own_message(0, "nick")
        verdicts = result.to_arrow()
        assert verdicts.column("username")[3].as_py() == "ada3 is taken"
        assert verdicts.column("nick")[5].as_py() == "Too long"
        summary = result.summary()
        assert summary.invalid_by_field == {"username": 1000, "nick": 600}
        assert summary.top("username", 2) == [("ada0 is taken", 1), ("ada1002 is taken", 1)]


def test_hostile_python_inputs(registration):
    with pytest.raises(TypeError, match=r"column 'email' is int64, not strings"):
        registration.check_table(pa.table({"email": [1, 2, 3]}))
    with pytest.raises(TypeError, match=r"column 'name' is binary"):
        registration.check_table(pa.table({"name": pa.array([b"x"], pa.binary())}))
    with pytest.raises(TypeError, match=r"column 'email' is dictionary<int64>"):
        registration.check_table(pa.table({"email": pa.array([1, 2]).dictionary_encode()}))
    with pytest.raises(TypeError, match=r"not a struct|not list|struct"):
        registration.check_table(pa.array(["ada@example.com"]))
    with pytest.raises(TypeError, match="__arrow_c_stream__"):
        registration.check_table([{"email": "x"}])
    with pytest.raises(TypeError, match="__arrow_c_stream__"):
        registration.check_table({"email": ["x"]})
    # a column of ints that is not a field is ignored
    assert registration.check_table(pa.table({"age": [1, 2], "name": ["A", ""]})).invalid_count == 2
    with pytest.raises(TypeError, match="threads"):
        registration.check_table(pa.table({"name": ["A"]}), threads="2")
    with pytest.raises(ValueError, match="threads"):
        registration.check_table(pa.table({"name": ["A"]}), threads=-1)
    with Form() as closed:
        pass
    with pytest.raises(formwell.InvalidHandleError):
        closed.check_table(pa.table({"name": ["A"]}))


def test_invalid_utf8_is_refused_with_the_column(registration):
    bad = pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(b"\x00\x00\x00\x00\x03\x00\x00\x00\x05\x00\x00\x00"),
                                                 pa.py_buffer(b"ab\xffcd")])
    with pytest.raises(formwell.FormwellError) as caught:
        registration.check_table(pa.table({"email": bad}))
    assert "email" in str(caught.value)


# ---- ownership: each struct released exactly once, on success and on error ----

class _Producer:
    """A hand-made Arrow producer (ctypes): one utf8 column per name, through __arrow_c_array__ or
    __arrow_c_stream__, counting every release callback the consumer makes."""

    def __init__(self, columns):
        self.columns = columns
        self.releases = {}
        self._keep = []

    def _release(self, kind, name):
        def release(pointer):
            self.releases[name] = self.releases.get(name, 0) + 1
            ctypes.memset(ctypes.addressof(pointer.contents) + kind.release.offset, 0, ctypes.sizeof(ctypes.c_void_p))
        callback = type(kind().release)(release)
        self._keep.append(callback)
        return callback

    def _schema(self):
        A = formwell._native.ArrowSchema
        children = []
        for name in self.columns:
            child = A(format=b"u" if not isinstance(self.columns[name][0], int) else b"l", name=name.encode(),
                      release=self._release(A, f"schema {name}"))
            children.append(child)
        pointers = (ctypes.POINTER(A) * len(children))(*[ctypes.pointer(c) for c in children])
        self._keep += [children, pointers]
        return A(format=b"+s", name=b"", n_children=len(children), children=pointers, release=self._release(A, "schema"))

    def _array(self, tag):
        R = formwell._native.ArrowArray
        children, length = [], None
        for name, values in self.columns.items():
            if isinstance(values[0], int):
                data = (ctypes.c_int64 * len(values))(*values)
                buffers = (ctypes.c_void_p * 2)(None, ctypes.addressof(data))
                self._keep += [data, buffers]
                child = R(length=len(values), n_buffers=2, buffers=buffers)
            else:
                encoded = [v.encode() for v in values]
                data = ctypes.create_string_buffer(b"".join(encoded))
                ends, total = [0], 0
                for value in encoded:
                    total += len(value)
                    ends.append(total)
                offsets = (ctypes.c_int32 * len(ends))(*ends)
                buffers = (ctypes.c_void_p * 3)(None, ctypes.addressof(offsets), ctypes.addressof(data))
                self._keep += [data, offsets, buffers]
                child = R(length=len(values), n_buffers=3, buffers=buffers)
            child.release = self._release(R, f"{tag} {name}")
            children.append(child)
            length = len(values)
        pointers = (ctypes.POINTER(R) * len(children))(*[ctypes.pointer(c) for c in children])
        no_buffers = (ctypes.c_void_p * 1)(None)
        self._keep += [children, pointers, no_buffers]
        return R(length=length, n_buffers=1, buffers=no_buffers, n_children=len(children), children=pointers,
                 release=self._release(R, tag))

    def _capsule(self, struct, name):
        new = ctypes.pythonapi.PyCapsule_New
        new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        self._keep.append(struct)
        return new(ctypes.addressof(struct), name, None)


class ArrayProducer(_Producer):
    def __arrow_c_array__(self, requested_schema=None):
        return self._capsule(self._schema(), b"arrow_schema"), self._capsule(self._array("array"), b"arrow_array")


class StreamProducer(_Producer):
    """Two batches of the same columns, then the end."""

    def __arrow_c_stream__(self, requested_schema=None):
        S, A, R = formwell._native.ArrowArrayStream, formwell._native.ArrowSchema, formwell._native.ArrowArray
        sent = []

        def get_schema(stream, out):
            schema = self._schema()
            self._keep.append(schema)
            ctypes.memmove(ctypes.addressof(out.contents), ctypes.addressof(schema), ctypes.sizeof(A))
            return 0

        def get_next(stream, out):
            if len(sent) == 2:
                ctypes.memset(ctypes.addressof(out.contents), 0, ctypes.sizeof(R))
            else:
                sent.append(1)
                batch = self._array(f"batch {len(sent)}")
                self._keep.append(batch)
                ctypes.memmove(ctypes.addressof(out.contents), ctypes.addressof(batch), ctypes.sizeof(R))
            return 0

        callbacks = [S._fields_[0][1](get_schema), S._fields_[1][1](get_next)]
        self._keep += callbacks
        stream = S(get_schema=callbacks[0], get_next=callbacks[1], release=self._release(S, "stream"))
        return self._capsule(stream, b"arrow_array_stream")


def test_every_struct_is_released_exactly_once(registration):
    columns = {"email": ["ada@example.com", "nope", ""], "name": ["Ada", "", "Bob"]}
    producer = ArrayProducer(columns)
    assert registration.check_table(producer).valid == registration.check_many(columns).valid
    gc.collect()
    assert producer.releases == {"schema": 1, "array": 1}  # the parents release their children
    stream = StreamProducer(columns)
    result = registration.check_table(stream)
    assert result.valid == registration.check_many(columns).valid * 2
    gc.collect()
    assert stream.releases == {"schema": 1, "batch 1": 1, "batch 2": 1, "stream": 1}


def test_structs_are_released_when_the_check_fails(registration):
    producer = ArrayProducer({"email": [1, 2], "name": ["a", "b"]})
    with pytest.raises(TypeError, match="column 'email' is int64"):
        registration.check_table(producer)
    gc.collect()
    assert producer.releases == {"schema": 1, "array": 1}
    stream = StreamProducer({"email": [1, 2]})
    with pytest.raises(TypeError, match="column 'email' is int64"):
        registration.check_table(stream)
    gc.collect()
    assert stream.releases == {"schema": 1, "stream": 1}


def test_no_arrow_memory_is_kept(registration, records):
    gc.collect()
    before = pa.total_allocated_bytes()
    table = pa.Table.from_pylist(records)
    result = registration.check_table(table.to_batches()[0])
    result = registration.check_table(table)
    with pytest.raises(TypeError):
        registration.check_table(table.append_column("email2", table.column("email")).set_column(
            1, "email", pa.array(range(len(records)))))
    del table
    gc.collect()
    assert pa.total_allocated_bytes() == before
    assert len(result) == len(records)


# ---- pickling and validators by name ----

def test_a_form_pickles_as_its_spec(registration, records):
    copy = pickle.loads(pickle.dumps(registration))
    try:
        assert copy is not registration and copy.to_spec() == registration.to_spec()
        assert copy.check_many(records).valid == registration.check_many(records).valid
    finally:
        copy.close()
    with Form() as form:
        form.add_field("code", [Custom(lambda v: None)])
        with pytest.raises(pickle.PicklingError, match="spec"):
            pickle.dumps(form)


def test_custom_rules_travel_by_name():
    spec = {"formwell": 1, "fields": [{"id": "user", "rules": [{"rule": "custom", "name": "free_username"}]}]}
    with pytest.raises(formwell.InvalidSpecError):
        Form.from_spec(spec)
    formwell.register_validator("free_username", lambda v: "taken" if v == "ada" else None)
    try:
        assert "free_username" in formwell.registered_validators()
        with Form.from_spec(spec) as form:
            data = pickle.dumps(form)
            assert form.check_many({"user": ["ada", "bob"]}).errors(0) == {"user": "taken"}
        with pickle.loads(data) as copy:
            assert copy.check_table(pa.table({"user": ["bob", "ada"]})).errors(1) == {"user": "taken"}
        # validators= given to the load win over the registry
        with Form.from_spec(spec, {"free_username": lambda v: "never"}) as form:
            assert form.check_many({"user": ["bob"]}).errors(0) == {"user": "never"}

        @formwell.register_validator("free_username")
        def stricter(value):
            return "reserved" if value in ("ada", "root") else None

        with pickle.loads(data) as copy:
            assert copy.check_many({"user": ["root"]}).errors(0) == {"user": "reserved"}
    finally:
        formwell.unregister_validator("free_username")
    with pytest.raises(formwell.InvalidSpecError):
        pickle.loads(data)


def test_importing_formwell_imports_no_data_frame_library():
    code = ("import sys, formwell; formwell.Form().close(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('pyarrow', 'polars', 'pandas', 'numpy', 'dask', 'distributed', 'pyspark', 'duckdb')))")
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT, FORMWELL_LIBRARY=formwell.library_path)
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert output.returncode == 0, output.stderr
    assert output.stdout.strip() == "[]"
