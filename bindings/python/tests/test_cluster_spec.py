"""The spec text formwell.dask and formwell.spark ship to their workers (formwell._cluster)."""
import json

import formwell
from formwell import _cluster

SPEC = {"formwell": 1, "fields": [
    {"id": "email", "rules": [{"rule": "required"}]},
    {"id": "token", "secret": True, "initial": "s3cret-token", "rules": [{"rule": "required"}]},
    {"id": "plain", "secret": True, "rules": []},
]}


def test_the_shipped_spec_keeps_secret_initial_values():
    shipped = json.loads(_cluster.spec_json(SPEC))
    fields = {field["id"]: field for field in shipped["fields"]}
    assert fields["token"]["initial"] == "s3cret-token" and fields["token"]["secret"] is True
    assert "initial" not in fields["plain"]


def test_a_worker_form_judges_records_as_the_client_form():
    with formwell.Form.from_spec(SPEC) as client, formwell.Form.from_spec(_cluster.spec_json(client)) as worker:
        records = [{"email": "a"}, {"email": ""}, {"email": "a", "token": ""}]
        for index in range(len(records)):
            assert client.check_many(records).is_valid(index) == worker.check_many(records).is_valid(index)
        assert worker.check_many([{"email": "a"}]).is_valid(0)


def test_export_spec_still_leaves_secret_initial_values_out():
    with formwell.Form.from_spec(SPEC) as form:
        assert "s3cret-token" not in form.to_spec_json()
