"""Form.check_many: many records at once, each judged as a submit, against the per-field API."""

import gc
import json
import os
import random

import pytest

import formwell
from formwell import CheckResult, Custom, Form, MinLength, Regex, Required

from conftest import REPO_ROOT

REGISTRATION = os.path.join(REPO_ROOT, "examples", "registration.json")
PROFILE = os.path.join(REPO_ROOT, "examples", "profile.json")
SIGNUPS = os.path.join(REPO_ROOT, "examples", "signups.jsonl")

#: Values that exercise what the engine does beyond ASCII: grapheme clusters (lengths), canonical
#: equivalence (matches), other scripts, emoji.
ODD_VALUES = ["Zoë", "e\u0301te\u0301", "\u00e9t\u00e9", "👨‍👩‍👧" * 3, "Пароль123", "Ünïcödé9X", "ä" * 21,
              "ab", "x" * 25, "A1" + "é" * 6, "日本語ユーザー", "ada@例え.jp", "  ", "tab\there", "new\nline"]


def submit(form, record):
    """The reference: what the per-field API shows after a submit of ``record`` (form reset first)."""
    form.reset()
    for field_id, value in record.items():
        if field_id in form:
            form.set_value(field_id, "" if value is None else value)
    valid = form.validate()
    errors = {}
    for state in form.states():
        if state.error is not None:
            errors[state.id] = state.error
    return valid, errors


def generated_records(count, seed=7):
    """Sign-ups from examples/signups.jsonl, roughly a third of them disturbed: keys dropped, None,
    unknown keys, non-ASCII values, a confirm that is a canonically equivalent spelling."""
    with open(SIGNUPS, encoding="utf-8") as file:
        base = [json.loads(line) for line in file]
    rng = random.Random(seed)
    records = []
    for index in range(count):
        record = dict(base[index % len(base)])
        roll = rng.random()
        if roll < 0.08:
            del record[rng.choice(list(record))]
        elif roll < 0.14:
            record[rng.choice(list(record))] = None
        elif roll < 0.20:
            record["newsletter"] = "yes"  # not a field: ignored
        elif roll < 0.32:
            record[rng.choice(list(record))] = rng.choice(ODD_VALUES)
        elif roll < 0.36:
            record["password"] = "Caf\u00e9Latte9"
            record["confirm"] = "Cafe\u0301Latte9"  # canonically equivalent: matches
        records.append(record)
    return records


def assert_agrees(form, records, result):
    assert len(result) == len(records)
    valid = result.valid
    invalid = 0
    for index, record in enumerate(records):
        want_valid, want_errors = submit(form, record)
        assert valid[index] is want_valid, f"record {index}: {record}"
        assert result.is_valid(index) is want_valid
        assert result.errors(index) == want_errors, f"record {index}: {record}"
        invalid += not want_valid
    assert result.invalid_count == invalid
    assert result.valid_count == len(records) - invalid


@pytest.fixture(scope="module")
def registration():
    with Form.from_spec(REGISTRATION) as form:
        yield form


@pytest.fixture(scope="module")
def records():
    return generated_records(4000)


def test_records_agree_with_submits(registration, records):
    result = registration.check_many(records)
    assert isinstance(result, CheckResult)
    assert 0 < result.invalid_count < len(records)
    assert_agrees(registration, records, result)


def test_failing_rules_agree_with_submits(registration, records):
    result = registration.check_many(records)
    for index, record in enumerate(records[:1500]):
        submit(registration, record)
        for state in registration.states():
            assert result.failing_rule(index, state.id) == (state.failing_rule if state.error else None)


def test_columns_agree_with_records(registration, records):
    ids = registration.field_ids
    complete = [{key: record.get(key, "") for key in ids} for record in records]  # initial values are ""
    columns = {key: [record[key] for record in complete] for key in ids}
    by_columns = registration.check_many(columns)
    by_records = registration.check_many(records)
    assert by_columns.valid == by_records.valid
    for index in range(len(records)):
        assert by_columns.errors(index) == by_records.errors(index)


def test_threads_one_and_all_agree(registration, records):
    one = registration.check_many(records, threads=1)
    every = registration.check_many(records, threads=0)
    two = registration.check_many(records, threads=2)
    assert one.valid == every.valid == two.valid
    assert list(one.invalid()) == list(every.invalid()) == list(two.invalid())
    for index in range(0, len(records), 7):
        for key in registration.field_ids:
            assert one.failing_rule(index, key) == every.failing_rule(index, key)


def test_the_form_itself_is_untouched(registration, records):
    registration.reset()
    registration.set_value("email", "ada@example.com")
    before = registration.states()
    registration.check_many(records[:100])
    assert registration.states() == before


def test_the_shipped_signups_match_the_cli_summary(registration):
    with open(SIGNUPS, encoding="utf-8") as file:
        signups = [json.loads(line) for line in file]
    result = registration.check_many(signups)
    assert (len(result), result.valid_count, result.invalid_count) == (3000, 2492, 508)  # README's run
    assert result.errors(1) == {"username": "Lowercase letters, numbers, and underscores only",
                                "confirm": "Please confirm your password"}


def test_invalid_iterates_the_invalid_records(registration, records):
    result = registration.check_many(records)
    pairs = list(result.invalid())
    assert [index for index, _ in pairs] == [i for i, ok in enumerate(result.valid) if not ok]
    assert result.invalid_indices() == [index for index, _ in pairs]
    assert all(errors and errors == result.errors(index) for index, errors in pairs)


def test_initial_values_stand_in_for_missing_keys_and_columns():
    with Form.from_spec(PROFILE) as form:
        records = [{}, {"bio": "x" * 300}, {"website": "not a url", "location": None}, {"displayName": ""},
                   {"displayName": None, "unknown": 5}]
        result = form.check_many(records)
        assert result.valid == [True, False, False, False, False]
        assert_agrees(form, records, result)
        assert result.errors(1) == {"bio": "Bio must be 280 characters or fewer"}
        # Columns: a field without one holds its initial value in every record.
        by_columns = form.check_many({"website": ["ftp://host", "nope"]})
        assert by_columns.valid == [True, False]
        assert by_columns.errors(1) == {"website": "Enter a valid URL including https://"}


def test_initial_values_given_to_add_field(form):
    form.add_field("country", [Required(), MinLength(2)], initial="UK")
    form.add_field("city", [Required()])
    result = form.check_many([{}, {"city": "Leeds"}, {"country": "U", "city": "Leeds"}])
    assert result.valid == [False, True, False]
    assert result.errors(0) == {"city": "This field is required"}
    assert result.errors(2) == {"country": "Must be at least 2 characters"}


def test_none_is_empty(registration):
    result = registration.check_many([{"name": None, "email": None}])
    assert result.errors(0)["name"] == "Name is required"
    assert result.errors(0)["email"] == "This field is required"
    columns = registration.check_many({"name": [None, "Ada"]})
    assert columns.errors(0)["name"] == "Name is required"
    assert "name" not in columns.errors(1)


@pytest.mark.parametrize("bad", [5, 1.5, b"bytes", ["list"], True])
def test_other_value_types_raise_type_error_naming_record_and_key(registration, bad):
    records = [{"name": "Ada"}, {"name": "Bob", "email": bad}]
    with pytest.raises(TypeError, match=r"record 1, key 'email' is"):
        registration.check_many(records)
    with pytest.raises(TypeError, match=r"record 1, column 'email' is"):
        registration.check_many({"email": ["a@b.co", bad]})


def test_str_subclasses_are_strings(registration):
    class Name(str):
        pass

    result = registration.check_many([{"name": Name("Ada")}, {"name": Name("")}])
    assert "name" not in result.errors(0)
    assert result.errors(1)["name"] == "Name is required"


def test_records_that_are_not_mappings(registration):
    with pytest.raises(TypeError, match=r"record 1 is list"):
        registration.check_many([{"name": "Ada"}, ["name", "Ada"]])
    with pytest.raises(TypeError):
        registration.check_many("name")
    with pytest.raises(TypeError, match="column 'name'"):
        registration.check_many({"name": "Ada"})  # one record given as columns


def test_other_mappings_as_records(registration):
    from types import MappingProxyType

    result = registration.check_many([MappingProxyType({"name": "Ada"}), {"name": "Ada"}])
    assert result.errors(0) == result.errors(1)
    assert "name" not in result.errors(0)


def test_unknown_keys_are_ignored_but_unknown_columns_refused(registration):
    result = registration.check_many([{"name": "Ada", "shoe_size": "42", 7: "x"}])
    assert "name" not in result.errors(0)
    with pytest.raises(KeyError):
        registration.check_many({"name": ["Ada"], "shoe_size": ["42"]})
    with pytest.raises(formwell.UnknownFieldError):
        registration.check_many({"shoe_size": ["42"]})


def test_columns_of_different_lengths(registration):
    with pytest.raises(ValueError, match="column 'email' has 1 values but column 'name' has 2"):
        registration.check_many({"name": ["Ada", "Bob"], "email": ["a@b.co"]})


def test_columns_may_be_any_sequence(registration):
    result = registration.check_many({"name": ("Ada", ""), "email": iter(["a@b.co", "nope"])})
    assert result.errors(1)["email"] == "Invalid email format"


def test_non_ascii_values(form):
    form.add_field("nick", [Required(), MinLength(3), Regex(r"\p{L}+", message="Letters only")])
    form.add_field("again", [formwell.Matches("nick")])
    values = ["Zoë", "Zo", "👨‍👩‍👧👨‍👩‍👧", "日本語", "e\u0301te\u0301", "abc1", "ä" * 3]
    records = [{"nick": v, "again": v} for v in values] + [{"nick": "\u00e9t\u00e9", "again": "e\u0301te\u0301"}]
    result = form.check_many(records)
    assert result.valid == [True, False, False, True, False, False, True, True]  # U+0301 is not a letter
    assert_agrees(form, records, result)
    with pytest.raises(UnicodeEncodeError, match="record 1"):
        form.check_many([{"nick": "ok"}, {"nick": "lone \ud800 surrogate"}])


def test_empty_input(registration):
    for empty in ([], {}, iter(()), {"name": []}):
        result = registration.check_many(empty)
        assert len(result) == 0 and result.valid == [] and result.invalid_count == 0
        assert list(result.invalid()) == []
        with pytest.raises(IndexError):
            result.errors(0)


def test_a_form_without_fields(form):
    result = form.check_many([{}, {"x": "y"}])
    assert result.valid == [True, True] and result.errors(0) == {}


def test_generators_are_read_once(registration):
    result = registration.check_many({"name": "Ada"} for _ in range(3))
    assert len(result) == 3


def test_indices(registration, records):
    result = registration.check_many(records[:50])
    last = result.invalid_indices()[-1]
    assert result.errors(last - 50) == result.errors(last)
    assert result.failing_rule(last - 50, "name") == result.failing_rule(last, "name")
    assert result.is_valid(-1) == result.valid[-1]
    for bad in (50, -51):
        with pytest.raises(IndexError):
            result.errors(bad)
        with pytest.raises(IndexError):
            result.failing_rule(bad, "name")
    with pytest.raises(TypeError):
        result.errors("0")
    with pytest.raises(KeyError):
        result.failing_rule(0, "shoe_size")


def test_repr_and_field_ids(registration, records):
    result = registration.check_many(records[:10])
    assert repr(result) == f"<formwell.CheckResult 10 records: {result.valid_count} valid, {result.invalid_count} invalid>"
    assert result.field_ids == registration.field_ids
    result.valid.append(True)  # a new list each time
    assert len(result.valid) == 10


def test_threads_argument(registration):
    with pytest.raises(ValueError):
        registration.check_many([{}], threads=-1)
    with pytest.raises(TypeError):
        registration.check_many([{}], threads="2")
    with pytest.raises(TypeError):
        registration.check_many([{}], 2)  # keyword only


def test_closed_form(records):
    form = Form.from_spec(REGISTRATION)
    form.close()
    with pytest.raises(formwell.InvalidHandleError):
        form.check_many(records[:3])


def taken(value):
    """A validator wording its own message (it names the value): the flagged cell path."""
    if value.startswith("x"):
        return f"{value!r} is taken"
    if value == "nope":
        return False
    return None


def test_custom_validator_own_messages(form):
    form.add_field("user", [Required(), Custom(taken)])
    form.add_field("pin", [Custom(lambda v: v.isdigit(), message="Digits only")])
    records = [{"user": "xavier", "pin": "12"}, {"user": "ada", "pin": "1a"}, {"user": "nope"},
               {"user": "xena", "pin": "x"}, {"user": ""}, {"user": "bob", "pin": "9"}]
    result = form.check_many(records)
    assert result.valid == [False, False, False, False, False, True]
    assert result.errors(0) == {"user": "'xavier' is taken"}
    assert result.errors(2) == {"user": "Invalid value"}
    assert result.errors(3) == {"user": "'xena' is taken", "pin": "Digits only"}
    assert result.own_message(0, "user") and not result.own_message(1, "pin") and not result.own_message(4, "user")
    assert_agrees(form, records, result)
    # The result keeps its columns: the record is judged again long after the call.
    del records
    gc.collect()
    assert result.errors(3) == {"user": "'xena' is taken", "pin": "Digits only"}


def test_custom_validator_raising(form):
    def boom(value):
        if value == "bad":
            raise RuntimeError("validator broke")
        return None

    form.add_field("a", [Custom(boom)])
    with pytest.raises(RuntimeError, match="validator broke"):
        form.check_many([{"a": "fine"}, {"a": "bad"}])
    assert form.check_many([{"a": "fine"}]).valid == [True]


def test_match_limits(form):
    form.add_field("code", [Regex(r"(a+)+b", message="Bad code")])
    form.set_match_limits(match_limit=2000)
    hard = "a" * 30 + "cb"  # a "b" somewhere: PCRE2 cannot skip the match
    records = [{"code": "aab"}, {"code": hard}, {"code": "ac"}]
    result = form.check_many(records)
    assert result.valid == [True, False, False]
    assert result.errors(1) == {"code": "This value is too complex to check"}
    assert result.errors(2) == {"code": "Bad code"}
    assert result.failing_rule(1, "code") == 0
    assert_agrees(form, records, result)
    form.set_match_limits(*Form().match_limits)


def test_many_records_in_chunks_agree_with_one_call(registration, records):
    """Past 2 x 16,384 dict records the columns of one chunk are built while the library checks
    the previous one: the verdicts and messages must be those of one call over columns."""
    many = records * 10  # 40,000: 4 chunks
    ids = registration.field_ids
    columns = {key: [r.get(key, "") for r in many] for key in ids}  # initial values are ""
    chunked, whole = registration.check_many(many), registration.check_many(columns)
    assert chunked.valid == whole.valid
    assert chunked.invalid_count == whole.invalid_count
    assert list(chunked.invalid()) == list(whole.invalid())
    for index in range(0, len(many), 97):
        for key in ids:
            assert chunked.failing_rule(index, key) == whole.failing_rule(index, key)


def test_own_messages_in_later_chunks(form):
    form.add_field("user", [Required(), Custom(taken)])
    records = [{"user": f"x{i}" if i % 3 == 0 else f"u{i}"} for i in range(40000)]
    result = form.check_many(records)
    assert result.invalid_count == len(range(0, 40000, 3))
    for index in (0, 3, 16383, 16386, 29997, 39999):
        assert result.errors(index) == {"user": f"'x{index}' is taken"}
    assert result.errors(-1) == {"user": "'x39999' is taken"}
    assert result.errors(1) == {}


def test_a_validator_raising_in_a_later_chunk(form):
    def boom(value):
        if value == "bad":
            raise RuntimeError("validator broke late")
        return None

    form.add_field("a", [Custom(boom)])
    records = [{"a": "fine"}] * 39000 + [{"a": "bad"}]
    with pytest.raises(RuntimeError, match="validator broke late"):
        form.check_many(records)
    assert form.check_many(records[:40]).valid == [True] * 40
