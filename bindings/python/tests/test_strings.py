"""Python strings in and out: UTF-8, NULs, lone surrogates, grapheme counting."""

import pytest

from formwell import Custom, Form, MaxLength, MinLength, Required

from conftest import expect


def test_nul_is_rejected_before_reaching_c(form):
    form.add_field("a")
    with pytest.raises(ValueError, match="NUL"):
        form["a"] = "ab\0cd"
    with pytest.raises(ValueError, match="NUL"):
        form.add_field("b\0")
    with pytest.raises(ValueError, match="NUL"):
        form.add_field("c", [Required(message="x\0y")])
    assert form["a"] == "" and len(form) == 1


def test_lone_surrogates_raise_cleanly(form):
    form.add_field("a")
    with pytest.raises(UnicodeEncodeError):
        form["a"] = "bad \udc80"
    with pytest.raises(UnicodeEncodeError):
        form.add_field("\ud800")
    assert "\ud800" not in form
    assert form["a"] == ""


def test_non_strings_raise_type_error(form):
    form.add_field("a")
    with pytest.raises(TypeError):
        form["a"] = 5
    with pytest.raises(TypeError):
        form.add_field("b", [lambda v: None])
    with pytest.raises(TypeError):
        Custom("not callable")


def test_unicode_values_and_grapheme_lengths(form):
    form.add_field("name", [MinLength(2), MaxLength(3)], label="Nom")
    family = "👨‍👩‍👧"  # one grapheme cluster, 5 code points
    form["name"] = family
    expect(form, "name", "INACTIVE", "INVALID", "Must be at least 2 characters")
    form["name"] = family + "é" + "e\u0301"  # 3 characters
    expect(form, "name", "INACTIVE", "VALID")
    assert form["name"] == family + "é" + "e\u0301"
    assert form.values == {"name": family + "é" + "e\u0301"}


def test_custom_validator_sees_the_exact_unicode_value(form):
    seen = []
    form.add_field("a", [Custom(lambda v: seen.append(v))])
    form["a"] = "日本語 🙂"
    assert seen == ["日本語 🙂"]


def test_custom_message_with_non_ascii(form):
    form.add_field("a", [Custom(lambda v: "ungültig — ✗")])
    form["a"] = "x"
    assert form.state("a").message == "ungültig — ✗"
