"""The library's size limits (formwell.limits, the C header's fw_limit): a spec or a field past one
is refused with the error naming the limit, and nothing is added."""
import json

import pytest

import formwell
from formwell import Form, InvalidArgumentError, InvalidSpecError


def test_the_limits_are_the_headers():
    assert formwell.limits.FIELDS_PER_FORM == 1_000_000
    assert formwell.limits.RULES_PER_FIELD == 100_000
    assert formwell.limits.RULES_PER_SPEC == 2_000_000


def test_a_spec_past_the_rule_budget_is_refused_before_anything_is_built():
    set_rules = 1_000
    fields = formwell.limits.RULES_PER_SPEC // set_rules + 1
    spec = {
        "formwell": 1,
        "rule_sets": {"many": [{"rule": "min_length", "length": 1}] * set_rules},
        "fields": [{"id": f"f{i}", "rules": [{"rule": "set", "name": "many"}]} for i in range(fields)],
    }
    form = Form()
    form.add_field("kept")
    with pytest.raises(InvalidSpecError) as refused:
        form.load_spec(json.dumps(spec))
    assert "FW_LIMIT_RULES_PER_SPEC" in str(refused.value)
    assert refused.value.detail.startswith("fields: the spec expands to more than the 2000000 rules")
    assert form.field_ids == ["kept"]


def test_a_field_past_the_rule_limit_is_refused():
    spec = {
        "formwell": 1,
        "rule_sets": {"many": [{"rule": "min_length", "length": 1}] * 1_000},
        "fields": [{"id": "f", "rules": [{"rule": "set", "name": "many"}] * 101}],
    }
    with pytest.raises(InvalidSpecError, match="FW_LIMIT_RULES_PER_FIELD"):
        Form.from_spec(json.dumps(spec))
