"""Messages as codes + parameters + locales: FieldState's code, params, display_code,
display_params and error_codes; Form(locale=...) and Form.locale; formwell.locales, message_catalog
and add_message_catalog; formwell.check_value; the codes of batch results."""

import dataclasses
import json
import pathlib
import pickle

import pytest

import formwell
from formwell import (
    AsyncRule,
    Custom,
    Display,
    Email,
    FieldState,
    Form,
    InvalidArgumentError,
    InvalidSpecError,
    Matches,
    MaxLength,
    MinLength,
    OneOf,
    PatternError,
    Regex,
    Required,
    RuleSet,
    Validity,
    ValueVerdict,
    check_value,
)

from conftest import REPO_ROOT

FRENCH = json.loads((pathlib.Path(REPO_ROOT) / "Sources" / "Formwell" / "Messages" / "Catalogues" / "fr.json")
                    .read_text(encoding="utf-8"))
#: A catastrophic pattern: with small match limits, a long run of "a" then "b" cannot be checked.
CATASTROPHIC = r"^(a+)+$"
HARD = "a" * 30 + "b"


# ---- codes and parameters on field states ----


def test_a_valid_or_untouched_field_has_no_code(form):
    form.add_field("email", [Required(), Email()])
    state = form.state("email")
    assert (state.code, state.params, state.display_code, state.display_params, state.error_codes) == (
        "", {}, "", {}, ())
    form.set_value("email", "ada@example.com")
    assert form.state("email").code == "" and form.state("email").error_codes == ()


def test_code_and_params_describe_the_message(form):
    form.add_field("password", [Required(), MinLength(8)], label="Password")
    form.focus("password")
    state = form.set("password", "abc")  # lenient while typing: invalid, not shown yet
    assert (state.validity, state.display) == (Validity.INVALID, Display.NONE)
    assert (state.code, state.params) == ("min_length", {"length": 8, "unit": "graphemes"})
    assert (state.display_code, state.display_params) == ("", {})
    assert state.error_codes == ("min_length",)
    form.blur("password")
    state = form.state("password")
    assert (state.display_code, state.display_params) == ("min_length", {"length": 8, "unit": "graphemes"})
    assert isinstance(state.error_codes, tuple)


def test_display_code_differs_from_code_for_a_focused_empty_touched_required_field(form):
    form.add_field("email", [Required(), Email()])
    form.touch("email")
    form.focus("email")
    state = form.state("email")
    # Focused: the lenient stage does not check required, so the input validity has no failure,
    # but the field was touched, so the display shows "This field is required".
    assert (state.validity, state.message, state.code, state.params) == (Validity.EMPTY, "", "", {})
    assert (state.display, state.display_message) == (Display.ERROR, "This field is required")
    assert (state.display_code, state.display_params, state.error_codes) == ("required", {}, ())


def test_an_external_error_has_code_external(form):
    form.add_field("username", [Required()])
    form.set_value("username", "ada")
    form.set_error("username", "That name is taken")
    form.touch("username")
    state = form.state("username")
    assert state.external_error and state.failing_rule is None
    assert (state.code, state.params, state.display_code, state.error_codes) == ("external", {}, "external",
                                                                                 ("external",))
    form.clear_error("username")
    assert form.state("username").code == ""


def test_error_codes_line_up_with_errors_in_error_mode_all():
    with Form(errors="all") as form:
        form.add_field("username", [Required(), MinLength(5, unit="utf16"), Regex("^[a-z]+$"),
                                    MaxLength(8, unit="bytes")])
        form.set_value("username", "A1")
        form.touch("username")
        state = form.state("username")
        assert state.errors == ["Must be at least 5 characters", "Invalid format"]
        assert state.error_codes == ("min_length", "regex")
        assert (state.code, state.params) == ("min_length", {"length": 5, "unit": "utf16"})
        assert state.display_code == "min_length"


def test_params_of_rules_naming_fields_and_lists(form):
    form.add_field("password", [Required()], secret=True)
    form.add_field("confirm", [Matches("password")], label="Confirm")
    form.add_field("size", [OneOf(["S", "M", "L"])])
    form.set_value("password", "hunter22")
    form.set_value("confirm", "hunter23")
    form.set_value("size", "XL")
    form.touch_all()
    states = {state.id: state for state in form.states()}
    assert (states["confirm"].code, states["confirm"].params) == ("matches", {"field": "password"})
    assert (states["size"].code, states["size"].params) == ("one_of", {"values": ["S", "M", "L"]})
    # Parameters never hold a value: a secret field's value does not travel in them.
    assert "hunter" not in repr(states["confirm"].params)


def test_params_are_a_new_dict_each_time(form):
    form.add_field("a", [MinLength(3)])
    form.set_value("a", "x")
    state = form.state("a")
    state.params["length"] = 99
    assert state.params == {"length": 3, "unit": "graphemes"}
    assert state == form.state("a") and hash(state) == hash(form.state("a"))


def test_states_read_the_codes_of_every_field(form):
    form.add_field("a", [Required()])
    form.add_field("b", [MinLength(2)])
    form.add_field("c")
    form.set_value("b", "x")
    form.touch_all()
    assert [(s.id, s.code, s.display_code, s.error_codes) for s in form.states()] == [
        ("a", "required", "required", ("required",)), ("b", "min_length", "min_length", ("min_length",)),
        ("c", "", "", ())]
    assert form.states() == [form.state(field_id) for field_id in "abc"]


def test_a_pattern_over_its_limits_has_code_pattern_limit(form):
    form.add_field("code", [Regex(CATASTROPHIC)])
    form.set_match_limits(match_limit=2000)
    form.set_value("code", HARD)
    form.touch("code")
    state = form.state("code")
    assert state.limit_exceeded
    assert (state.code, state.params, state.display_code, state.error_codes) == ("pattern_limit", {}, "pattern_limit",
                                                                                 ("pattern_limit",))


def test_field_state_members_and_repr():
    with Form() as form:
        form.add_field("a", [Required()])
        form.touch("a")
        state = form.state("a")
    assert repr(state).endswith("secret=False, code='required')")
    assert "params" not in repr(state) and "error_codes" not in repr(state)
    members = dataclasses.asdict(state)
    assert (members["code"], members["params"], members["display_code"], members["display_params"],
            members["error_codes"]) == ("required", {}, "required", {}, ("required",))
    assert state._asdict()["error_codes"] == ("required",)
    assert pickle.loads(pickle.dumps(state)) == state
    assert dataclasses.replace(state, touched=False).code == "required"
    assert state._replace(code="email").code == "email"
    assert state._replace(code="email").error_codes == ("required",)
    # The constructor takes the parameters as a dict or as JSON text.
    built = FieldState(id="a", value="", phase=None, validity=None, message="", display=None, display_message="",
                       touched=False, code="min_length", params={"unit": "graphemes", "length": 8},
                       display_params='{"length":8}', error_codes=["min_length"])
    assert (built.code, built.params, built.display_code, built.display_params, built.error_codes) == (
        "min_length", {"length": 8, "unit": "graphemes"}, "", {"length": 8}, ("min_length",))
    plain = FieldState(id="a", value="", phase=None, validity=None, message="", display=None, display_message="",
                       touched=False)
    assert (plain.code, plain.params, plain.error_codes) == ("", {}, ())
    with pytest.raises(TypeError):
        FieldState(id="a", value="", phase=None, validity=None, message="", display=None, display_message="",
                   touched=False, params=[1])


# ---- locales ----


def test_a_form_in_french():
    with Form(locale="fr-CA") as form:
        assert form.locale == "fr"
        failures = FRENCH["failures"]
        form.add_field("pseudo", [Required(), MinLength(3)], label="Pseudonyme")
        form.add_field("email", [Email()], label="Courriel")
        form.touch("pseudo")
        state = form.state("pseudo")
        assert state.message == failures["required"]["message"] == "Ce champ est obligatoire"
        assert state.accessibility_hint == failures["required"]["hint"] == "Saisissez une valeur"
        assert state.code == "required"  # codes are the same in every language
        state = form.set("pseudo", "Zo")
        assert state.message == "Au moins 3 caractères"
        assert (state.code, state.params) == ("min_length", {"length": 3, "unit": "graphemes"})
        form.set_value("email", "x")
        form.touch("email")
        assert form.state("email").display_message == failures["email"]["message"] == "Adresse e-mail non valide"
        assert form.validate() is False
        assert form.announcement == "2 champs à corriger : Pseudonyme, Courriel"


def test_the_locale_can_change_and_the_messages_follow(form):
    form.add_field("a", [Required()])
    form.touch("a")
    assert form.locale == "en" and form.state("a").message == "This field is required"
    form.locale = "FR_fr"
    assert form.locale == "fr" and form.state("a").message == "Ce champ est obligatoire"
    assert form.state("a").code == "required"
    form.locale = "en-GB"
    assert form.locale == "en" and form.state("a").message == "This field is required"


def test_an_unknown_locale_raises_and_changes_nothing(form):
    form.add_field("a", [Required()])
    form.touch("a")
    form.locale = "fr"
    before = (form.states(), form.revision, form.locale)
    with pytest.raises(InvalidArgumentError, match="no message catalogue"):
        form.locale = "tlh"
    assert (form.states(), form.revision, form.locale) == before
    with pytest.raises(TypeError):
        form.locale = None
    with pytest.raises(ValueError):
        form.locale = "fr\0"
    assert form.locale == "fr"


def test_form_locale_argument_is_checked_and_leaks_no_form():
    live = formwell.live_forms()
    with pytest.raises(InvalidArgumentError):
        Form(locale="tlh")
    with pytest.raises(TypeError):
        Form(locale=7)
    assert formwell.live_forms() == live


def test_a_spec_names_the_locale_and_the_form_keeps_it_through_pickle():
    spec = {"formwell": 1, "locale": "fr", "fields": [{"id": "a", "rules": [{"rule": "required"}]}]}
    with Form.from_spec(spec) as form:
        assert form.locale == "fr"
        form.touch("a")
        assert form.state("a").message == "Ce champ est obligatoire"
        assert form.to_spec()["locale"] == "fr"
        copy = pickle.loads(pickle.dumps(form))
        assert copy.locale == "fr"
        copy.close()
    with Form() as form:
        form.add_field("b", [Required()])
        assert form.check_many([{"b": ""}]).errors(0) == {"b": "This field is required"}
        form.load_spec({"formwell": 1, "locale": "fr", "fields": []})  # a spec's locale is the form's
        assert form.locale == "fr"
        assert form.check_many([{"b": ""}]).errors(0) == {"b": "Ce champ est obligatoire"}


def test_locales_and_catalogues():
    tags = formwell.locales()
    assert {"en", "fr"} <= set(tags) and tags == sorted(tags)
    french = formwell.message_catalog("fr-CA")
    assert french == FRENCH
    english = formwell.message_catalog("en")
    assert english["locale"] == "en"
    assert english["failures"]["required"]["message"] == "This field is required"
    assert set(english["failures"]) == set(french["failures"])  # every code has its texts
    french["failures"].clear()
    assert formwell.message_catalog("fr")["failures"]  # a new dict each time
    with pytest.raises(InvalidArgumentError):
        formwell.message_catalog("tlh")
    with pytest.raises(TypeError):
        formwell.message_catalog(None)


def test_add_a_catalogue_from_a_dict_with_english_for_what_it_leaves_out():
    formwell.add_message_catalog({
        "locale": "de", "language": "Deutsch", "plurals": "one_is_1",
        "units": {"graphemes": "{count, plural, one {Zeichen} other {Zeichen}}"},
        "failures": {"required": {"message": "Dieses Feld ist erforderlich", "hint": "Geben Sie einen Wert ein"},
                     "min_length": {"message": "Mindestens {length} {units}"}},
    })
    assert "de" in formwell.locales()
    with Form(locale="de-AT") as form:
        assert form.locale == "de"
        form.add_field("a", [Required(), MinLength(3), Email()])
        form.touch("a")
        assert form.state("a").message == "Dieses Feld ist erforderlich"
        assert form.set("a", "ab").message == "Mindestens 3 Zeichen"
        state = form.set("a", "abc")
        assert (state.message, state.code) == ("Invalid email format", "email")  # English fills the gaps
    assert check_value(Required(), "", locale="de").message == "Dieses Feld ist erforderlich"


def test_add_a_catalogue_from_a_file_and_from_json_text(tmp_path):
    path = tmp_path / "it.json"
    path.write_text(json.dumps({"locale": "it", "failures": {"required": {"message": "Campo obbligatorio"}}}),
                    encoding="utf-8")
    formwell.add_message_catalog(path)  # os.PathLike
    assert check_value(Required(), "", locale="it").message == "Campo obbligatorio"
    assert check_value(Email(), "x", locale="it").message == "Invalid email format"
    path.write_text(json.dumps({"locale": "it", "failures": {"required": {"message": "Obbligatorio"}}}),
                    encoding="utf-8")
    formwell.add_message_catalog(str(path))  # a str path replaces the catalogue
    assert check_value(Required(), "", locale="it").message == "Obbligatorio"
    formwell.add_message_catalog(' {"locale": "it", "failures": {"required": {"message": "Richiesto"}}}')
    assert check_value(Required(), "", locale="it").message == "Richiesto"


def test_a_bad_catalogue_is_refused_and_adds_nothing(tmp_path):
    before = formwell.locales()
    with pytest.raises(InvalidSpecError, match="failures.nope"):
        formwell.add_message_catalog({"locale": "xx", "failures": {"nope": {"message": "?"}}})
    with pytest.raises(InvalidSpecError):
        formwell.add_message_catalog('{"locale": "xx", ')
    with pytest.raises(FileNotFoundError):
        formwell.add_message_catalog(tmp_path / "missing.json")
    with pytest.raises(TypeError):
        formwell.add_message_catalog(42)
    assert formwell.locales() == before


# ---- single-value checks ----


def test_check_value_with_a_rule_object():
    verdict = check_value(MinLength(8), "abc")
    assert verdict == ValueVerdict(Validity.INVALID, "Must be at least 8 characters", "min_length",
                                   {"length": 8, "unit": "graphemes"}, 0, False)
    assert not verdict and verdict.valid is False
    assert check_value(MinLength(8), "abcdefgh") == ValueVerdict(Validity.VALID)
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.code = "x"
    assert hash(verdict) == hash(check_value(MinLength(8), "abc"))


def test_check_value_with_dicts_lists_and_rule_sets():
    assert check_value({"rule": "email"}, "x").code == "email"
    verdict = check_value([{"rule": "required"}, MinLength(3), {"rule": "regex", "pattern": "^[a-z]+$"}], "AB")
    assert (verdict.code, verdict.failing_rule) == ("min_length", 1)
    assert check_value((Required(), Email()), "ada@example.com").validity is Validity.VALID
    password = RuleSet("password", [Required(), MinLength(8)])
    assert check_value(password, "short").failing_rule == 1
    assert check_value([Email(), password], "a@b.co").failing_rule == 2  # a set gives its rules
    assert check_value(Required(message="{label}?"), "").message == "value?"  # the value's label is "value"


def test_an_empty_value_is_invalid_only_under_required():
    empty = check_value(Email(), "")
    assert (empty.validity, empty.message, empty.code, empty.failing_rule) == (Validity.EMPTY, "", "", None)
    assert empty and empty.valid  # an empty optional value passes, as in a form
    assert check_value(Email(), None).validity is Validity.EMPTY
    required = check_value([Email(), Required()], "")
    assert (required.validity, required.code, required.failing_rule) == (Validity.INVALID, "required", 1)


def test_check_value_in_french():
    verdict = check_value(MaxLength(1, unit="bytes"), "é", locale="fr")
    assert (verdict.message, verdict.code, verdict.params) == ("Au plus 1 octet", "max_length",
                                                               {"length": 1, "unit": "bytes"})
    assert check_value(Required(), "", locale="fr_BE").message == FRENCH["failures"]["required"]["message"]


def test_check_value_over_the_match_limits():
    verdict = check_value(Regex(CATASTROPHIC), "a" * 28 + "b")  # 2**28 steps: past the default limits
    assert (verdict.validity, verdict.code, verdict.params, verdict.limit_exceeded) == (
        Validity.INVALID, "pattern_limit", {}, True)
    assert verdict.message == "This value is too complex to check"


def test_check_value_with_long_texts():
    message = "é" * 400  # more than the first buffer holds
    verdict = check_value(OneOf(["x" * 300], message=message), "y")
    assert verdict.message == message and verdict.params == {"values": ["x" * 300]}


def test_check_value_errors():
    with pytest.raises(InvalidArgumentError, match="compares with another field"):
        check_value(Matches("password"), "x")
    with pytest.raises(InvalidArgumentError):
        check_value({"rule": "required_if", "field": "country", "value": "US"}, "")
    with pytest.raises(InvalidArgumentError):
        check_value(Custom(lambda value: None), "x")
    with pytest.raises(InvalidArgumentError):
        check_value({"rule": "custom", "name": "anything"}, "x")
    with pytest.raises(InvalidArgumentError):
        check_value(AsyncRule("username_free"), "x")
    with pytest.raises(InvalidArgumentError, match="no message catalogue"):
        check_value(Required(), "", locale="tlh")
    with pytest.raises(InvalidSpecError, match="unknown rule"):
        check_value({"rule": "nope"}, "x")
    with pytest.raises(InvalidSpecError):
        check_value({"rule": "min_length"}, "x")  # no length
    with pytest.raises(PatternError):
        check_value({"rule": "regex", "pattern": "("}, "x")
    with pytest.raises(TypeError):
        check_value("required", "x")
    with pytest.raises(TypeError):
        check_value([42], "x")
    with pytest.raises(TypeError):
        check_value(Required(), 42)
    with pytest.raises(ValueError):
        check_value(Required(), "a\0b")


# ---- batch results ----


def test_batch_codes_mirror_the_errors(form):
    form.add_field("email", [Required(), Email()])
    form.add_field("password", [Required(), MinLength(8)])
    form.add_field("nickname", [Custom(lambda v: "too silly" if v == "lol" else None)])
    result = form.check_many([
        {"email": "ada@example.com", "password": "long enough"},
        {"email": "ada@", "password": "short", "nickname": "lol"},
        {},
    ])
    assert result.codes(0) == {}
    assert result.errors(1) == {"email": "Invalid email format", "password": "Must be at least 8 characters",
                                "nickname": "too silly"}
    assert result.codes(1) == {"email": "email", "password": "min_length", "nickname": "custom"}
    assert result.codes(-1) == {"email": "required", "password": "required"}
    assert result.code(1, "password") == "min_length"
    assert result.params(1, "password") == {"length": 8, "unit": "graphemes"}
    assert result.code(0, "email") is None and result.params(0, "email") is None
    assert result.params(2, "email") == {}
    with pytest.raises(formwell.UnknownFieldError):
        result.code(0, "nope")
    with pytest.raises(IndexError):
        result.codes(3)


def test_batch_codes_of_patterns_over_their_limits(form):
    form.add_field("code", [Required(), Regex(CATASTROPHIC)])
    form.set_match_limits(match_limit=2000)
    result = form.check_many([{"code": "aaa"}, {"code": HARD}, {"code": "ab"}])
    assert result.codes(1) == {"code": "pattern_limit"}
    assert result.params(1, "code") == {}
    assert result.errors(1) == {"code": "This value is too complex to check"}
    assert result.failing_rule(1, "code") == 1  # the rule's own code would be "regex"
    assert result.codes(2) == {"code": "regex"} and result.params(2, "code") == {"pattern": CATASTROPHIC}


def test_batch_messages_follow_the_locale_codes_do_not(form):
    form.add_field("code", [Required(), Regex(CATASTROPHIC)])
    form.set_match_limits(match_limit=2000)
    records = [{"code": ""}, {"code": HARD}]
    english = form.check_many(records)
    assert [english.errors(i) for i in range(2)] == [{"code": "This field is required"},
                                                     {"code": "This value is too complex to check"}]
    form.locale = "fr"
    french = form.check_many(records)
    assert [french.errors(i) for i in range(2)] == [{"code": FRENCH["failures"]["required"]["message"]},
                                                    {"code": FRENCH["failures"]["pattern_limit"]["message"]}]
    assert [french.codes(i) for i in range(2)] == [english.codes(i) for i in range(2)] == [
        {"code": "required"}, {"code": "pattern_limit"}]


def test_table_codes(form):
    pa = pytest.importorskip("pyarrow")
    form.locale = "fr"
    form.add_field("code", [Required(), Regex(CATASTROPHIC)])
    form.add_field("name", [MinLength(3)])
    form.set_match_limits(match_limit=2000)
    result = form.check_table(pa.table({"code": ["aaa", HARD, ""], "name": ["abc", "x", ""]}))
    assert [result.codes(i) for i in range(3)] == [{}, {"code": "pattern_limit", "name": "min_length"},
                                                   {"code": "required"}]
    assert result.errors(1) == {"code": "Cette valeur est trop complexe pour être vérifiée",
                                "name": "Au moins 3 caractères"}
    assert result.params(1, "name") == {"length": 3, "unit": "graphemes"}


def test_batch_codes_after_a_field_is_removed(form):
    form.add_field("a", [Required()])
    form.add_field("b", [MinLength(2)])
    assert form.check_many([{"a": "", "b": "x"}]).codes(0) == {"a": "required", "b": "min_length"}
    form.remove_field("a")
    assert form.check_many([{"b": "x"}]).codes(0) == {"b": "min_length"}


def test_the_readme_example_runs_as_shown():
    """docs/python.md's "Messages, codes and locales" example, in a process of its own (it adds a
    catalogue for the whole process)."""
    import os
    import re
    import subprocess
    import sys

    page = (pathlib.Path(REPO_ROOT) / "docs" / "python.md").read_text(encoding="utf-8")
    section = page[page.index("## Messages, codes and locales"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(formwell.__file__)))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Au moins 8 caractères",
        "min_length {'length': 8, 'unit': 'graphemes'}",
        "min_length",
        "fr",
        "Must be at least 8 characters",
        "False email Adresse e-mail non valide",
        "ValueVerdict(validity=<Validity.EMPTY: 0>, message='', code='', params={}, failing_rule=None, "
        "limit_exceeded=False)",
        "['de', 'en', 'fr']",
        "Invalid email format",
    ]
