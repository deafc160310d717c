"""formwell.dask.check on a real distributed.LocalCluster (two worker processes): 200,000 generated
sign-ups, verdicts equal to the CLI's on the same records."""

import os
import time

import pytest

import formwell

pytest.importorskip("pyarrow", reason="formwell.dask needs pyarrow")
pd = pytest.importorskip("pandas", reason="formwell.dask needs pandas")
dd = pytest.importorskip("dask.dataframe", reason="dask[dataframe] is not installed")
distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed")
if not hasattr(formwell._native.lib, "fw_form_check_arrow"):
    pytest.skip("the loaded libformwell has no fw_form_check_arrow", allow_module_level=True)

from signups_data import IDS, REGISTRATION, assert_columns_match, cli_verdicts, generate  # noqa: E402

COUNT = 200_000


@pytest.fixture(scope="module")
def client():
    started = time.perf_counter()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(2)
        print(f"LocalCluster up in {time.perf_counter() - started:.1f} s")
        yield client


@pytest.fixture(scope="module")
def signups(tmp_path_factory):
    path = generate(COUNT, tmp_path_factory.mktemp("dask-signups"))
    return path, None


def test_two_worker_processes_agree_with_the_cli(client, signups):
    path, _ = signups
    # the workers read the CSV themselves (the same records as the JSONL the CLI reads), as strings
    csv = os.path.join(os.path.dirname(path), "signups.csv")
    ddf = dd.read_csv(csv, dtype=str, keep_default_na=False, na_filter=False, blocksize=1_000_000)
    assert ddf.npartitions >= 8
    started = time.perf_counter()
    verdicts = formwell.dask.check(ddf, REGISTRATION)
    assert list(verdicts.columns) == ["valid"] + IDS
    result = verdicts.compute()
    elapsed = time.perf_counter() - started
    print(f"dask: {COUNT} records in {ddf.npartitions} partitions on 2 workers in {elapsed:.2f} s")
    messages = {field: result[field].astype(object).where(result[field].notna(), None).tolist() for field in IDS}
    started = time.perf_counter()
    reference = cli_verdicts(path)
    print(f"CLI: {time.perf_counter() - started:.2f} s")
    assert 0 < sum(not ok for ok, _ in reference) < COUNT
    assert_columns_match(result["valid"].tolist(), messages, reference)
    assert result.dtypes["valid"] == bool
    # Both workers took part, each built the form once (and loaded the library once, at import)
    forms = client.run(formwell._cluster.cached_forms)
    libraries = client.run(lambda: formwell.library_path)
    assert len(forms) == 2 and set(forms.values()) == {1}, forms
    assert len(set(libraries.values())) == 1


def test_a_form_and_custom_rules_by_name(client):
    spec = {"formwell": 1, "fields": [
        {"id": "username", "rules": [{"rule": "required"}, {"rule": "custom", "name": "free"}]},
        {"id": "email", "rules": [{"rule": "email"}]}]}

    def free(value):
        return f"{value} is taken" if value in ("ada", "root") else None

    frame = pd.DataFrame({"username": ["ada", "bob", "", "root", None, "eve"] * 50,
                          "email": ["a@example.com", "bad", None, "", "x@example.org", "y@"] * 50,
                          "other": range(300)})
    ddf = dd.from_pandas(frame, npartitions=3)
    with formwell.Form.from_spec(spec, {"free": free}) as form:
        expected = form.check_many({"username": ["ada", "bob", "", "root", None, "eve"] * 50,
                                    "email": ["a@example.com", "bad", None, "", "x@example.org", "y@"] * 50})
        result = formwell.dask.check(ddf, form, validators={"free": free}).compute()
        assert result["valid"].tolist() == expected.valid
        for index in range(len(frame)):
            got = {field: result[field].iloc[index] for field in ("username", "email")
                   if not pd.isna(result[field].iloc[index])}
            assert got == expected.errors(index)
        assert expected.errors(0) == {"username": "ada is taken"}
    # a spec whose custom rule names nothing registered fails on the client, before any task runs
    with pytest.raises(formwell.InvalidSpecError):
        formwell.dask.check(ddf, spec)


def test_a_column_of_the_wrong_type_is_a_clear_error(client):
    ddf = dd.from_pandas(pd.DataFrame({"email": [1, 2, 3], "name": ["a", "b", "c"]}), npartitions=1)
    with pytest.raises(TypeError, match="column 'email' is int64"):
        formwell.dask.check(ddf, REGISTRATION).compute()


def test_a_secret_field_with_an_initial_value_is_judged_as_check_many_judges_it(client):
    # The spec shipped to workers keeps a secret field's initial value, which export_spec leaves out.
    spec = {"formwell": 1, "fields": [
        {"id": "email", "rules": [{"rule": "required"}, {"rule": "email"}]},
        {"id": "token", "secret": True, "initial": "s3cret-token", "rules": [{"rule": "required"}]},
    ]}
    frame = pd.DataFrame({"email": ["ada@example.com", "bad", ""]})
    with formwell.Form.from_spec(spec) as form:
        assert "s3cret-token" not in form.to_spec_json()
        expected = [form.check_many([{"email": value}]).is_valid(0) for value in frame["email"]]
    got = formwell.dask.check(dd.from_pandas(frame, npartitions=2), spec).compute()
    assert list(got["valid"]) == expected == [True, False, False]
    assert got["token"].isna().all()  # no record fails the token field: its initial value reached the workers
