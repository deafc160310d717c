"""Spark (PySpark, local mode): formwell.spark.check and the mapInArrow example on 20,000 generated
sign-ups, verdicts equal to the CLI's on the same records. One SparkSession for the whole session
(starting the JVM is most of this file's time)."""

import importlib.util
import os
import shutil
import sys
import time

import pytest

import formwell

from conftest import PACKAGE_ROOT

pa = pytest.importorskip("pyarrow", reason="formwell.spark needs pyarrow")
pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("PySpark needs Java (17+): no java on PATH and no JAVA_HOME", allow_module_level=True)
if not hasattr(formwell._native.lib, "fw_form_check_arrow"):
    pytest.skip("the loaded libformwell has no fw_form_check_arrow", allow_module_level=True)

from signups_data import IDS, REGISTRATION, assert_columns_match, cli_verdicts, generate, read_records  # noqa: E402

COUNT = 20_000

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    # The Python workers import this formwell (the source tree, or the installed copy it is) and
    # load the same library; a JVM that only runs short jobs starts faster with C1 and serial GC.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    started = time.perf_counter()
    session = (SparkSession.builder.master("local[2]").appName("formwell-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
               .config("spark.sql.shuffle.partitions", "2")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    print(f"SparkSession up in {time.perf_counter() - started:.1f} s")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def signups(tmp_path_factory):
    path = generate(COUNT, tmp_path_factory.mktemp("spark-signups"))
    records = read_records(path)
    table = pa.table({"line": pa.array(range(1, len(records) + 1), pa.int64()),
                      **{key: pa.array([record.get(key) for record in records], pa.string()) for key in IDS}})
    return path, table


def spark_frame(spark, table, partitions=4):
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    schema = StructType([StructField("line", LongType(), False)] + [StructField(key, StringType()) for key in IDS])
    return spark.createDataFrame(table, schema=schema).repartition(partitions)


def collected(verdicts):
    """The verdicts as a pyarrow table sorted by line."""
    table = verdicts.toArrow()
    return table.sort_by("line")


def test_spark_check_agrees_with_the_cli(spark, signups):
    path, table = signups
    started = time.perf_counter()
    verdicts = formwell.spark.check(spark_frame(spark, table), REGISTRATION, keep=["line"])
    assert verdicts.columns == ["line", "valid"] + IDS
    result = collected(verdicts)
    print(f"spark: {COUNT} records in {time.perf_counter() - started:.1f} s")
    assert result.column("line").to_pylist() == list(range(1, COUNT + 1))
    reference = cli_verdicts(path)
    assert 0 < sum(not ok for ok, _ in reference) < COUNT
    assert_columns_match(result.column("valid").to_pylist(), {key: result.column(key).to_pylist() for key in IDS},
                         reference)


def test_the_example_agrees_with_the_cli(spark, signups):
    path, table = signups
    spec = importlib.util.spec_from_file_location("spark_check", os.path.join(PACKAGE_ROOT, "examples", "spark_check.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    # the example's verdicts carry no key: check a single ordered partition
    frame = spark.createDataFrame(table.drop(["line"])).coalesce(1)
    result = example.check_with_spark(frame, REGISTRATION).toArrow()
    reference = cli_verdicts(path)
    assert_columns_match(result.column("valid").to_pylist(), {key: result.column(key).to_pylist() for key in IDS},
                         reference)


def test_custom_rules_by_name_and_bad_input(spark):
    spec = {"formwell": 1, "fields": [{"id": "user", "rules": [{"rule": "custom", "name": "free"}]}]}
    frame = spark.createDataFrame(pa.table({"id": [1, 2, 3], "user": ["ada", "bob", None]}))
    verdicts = formwell.spark.check(frame, spec, keep=["id"], validators={"free": lambda v: v != "ada" or "taken"})
    rows = sorted(verdicts.collect())
    assert [(row["id"], row["valid"], row["user"]) for row in rows] == [(1, False, "taken"), (2, True, None),
                                                                        (3, True, None)]
    with pytest.raises(ValueError, match="keep"):
        formwell.spark.check(frame, spec, keep=["user"], validators={"free": lambda v: None})
    numbers = spark.createDataFrame(pa.table({"email": [1, 2]}))
    with pytest.raises(Exception, match="column 'email' is int64"):
        formwell.spark.check(numbers, REGISTRATION).collect()
