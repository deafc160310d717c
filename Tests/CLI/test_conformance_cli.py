"""The `records` of the shared conformance vectors (Tests/Conformance/*.json) run through
`formwell check --format json`: each record is one JSONL line, and the tool must give the same
validity and the same messages as the Swift, C and Python runners, and, where a record gives its
`codes` (vectors 65-67), the same failure codes. A spec's own "locale" (vector 65) words the messages."""
import glob
import json
import os
import subprocess

import pytest

from test_cli import CLI, ROOT

VECTORS = [
    path for path in sorted(glob.glob(str(ROOT / "Tests" / "Conformance" / "*.json")))
    if json.load(open(path, encoding="utf-8")).get("records")
]


def test_some_vectors_have_records():
    assert len(VECTORS) >= 5
    assert sum(1 for path in VECTORS if any("codes" in r for r in json.load(open(path, encoding="utf-8"))["records"])) >= 3


@pytest.mark.parametrize("path", VECTORS, ids=os.path.basename)
def test_records(path, tmp_path):
    vector = json.load(open(path, encoding="utf-8"))
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(vector["spec"]), encoding="utf-8")
    data = "".join(json.dumps(record["values"], ensure_ascii=False) + "\n" for record in vector["records"])
    result = subprocess.run([CLI, "check", "--format", "json", "--input", "jsonl", str(spec), "-"],
                            input=data.encode("utf-8"), capture_output=True, timeout=60)
    outputs = [json.loads(line) for line in result.stdout.decode("utf-8").splitlines()]
    assert len(outputs) == len(vector["records"]), result.stderr.decode()
    for index, (record, output) in enumerate(zip(vector["records"], outputs)):
        where = f"{os.path.basename(path)} record {index}"
        assert output["line"] == index + 1, where
        assert output["valid"] is record["valid"], where
        assert output["errors"] == record["errors"], where
        # every reported error has its code and params; the vector's codes, when it gives them
        assert set(output["codes"]) == set(output["params"]) == set(output["errors"]), where
        assert all(isinstance(params, dict) for params in output["params"].values()), where
        if "codes" in record:
            assert output["codes"] == record["codes"], where
    every_valid = all(record["valid"] for record in vector["records"])
    assert result.returncode == (0 if every_valid else 1)
