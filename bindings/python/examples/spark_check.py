#!/usr/bin/env python3
"""Checks sign-ups with Spark: the very form spec the UI uses, on every row of a Spark DataFrame,
through DataFrame.mapInArrow (each Python worker gets pyarrow RecordBatches and formwell reads their
string columns in place; the verdicts go back as Arrow).

    pip install pyspark ./bindings/python[spark]          # Java 17 on the PATH
    python3 bindings/python/examples/spark_check.py [SPEC] [DATA.jsonl]

Defaults: examples/registration.json and examples/signups.jsonl. Prints the counts per field and
message, like `formwell check`'s summary. formwell.spark.check(df, spec, keep=[...]) does the same
as verdicts() below, and keeps one form per worker process instead of one per task.
"""

import os
import sys

import pyarrow as pa
from pyspark.sql import SparkSession, functions as F
from pyspark.sql.types import BooleanType, StringType, StructField, StructType

import formwell

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def check_with_spark(df, spec_path):
    """The verdicts of every row of df: a boolean `valid`, then one message column per field."""
    with formwell.Form.from_spec(spec_path) as form:  # a bad spec fails here, on the driver
        spec_json, ids = form.to_spec_json(), form.field_ids
    schema = StructType([StructField("valid", BooleanType(), False)]
                        + [StructField(field_id, StringType(), True) for field_id in ids])

    def verdicts(batches):  # runs on the workers; only the spec text travels with it
        with formwell.Form.from_spec(spec_json) as worker_form:
            for batch in batches:
                table = worker_form.check_table(batch, threads=1).to_arrow(dictionary=False)
                yield pa.RecordBatch.from_arrays([column.combine_chunks() for column in table.columns],
                                                 names=table.column_names)

    return df.mapInArrow(verdicts, schema)


def main():
    spec = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "examples", "registration.json")
    data = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "examples", "signups.jsonl")
    spark = (SparkSession.builder.master("local[2]").appName("formwell-spark-check")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        with formwell.Form.from_spec(spec) as form:
            ids = form.field_ids
        rows = spark.read.schema(StructType([StructField(i, StringType()) for i in ids])).json(data)
        verdicts = check_with_spark(rows, spec).cache()
        total, invalid = verdicts.count(), verdicts.filter(~F.col("valid")).count()
        print(f"{total} records: {total - invalid} valid, {invalid} invalid")
        for field_id in ids:
            counts = (verdicts.where(F.col(field_id).isNotNull()).groupBy(field_id).count()
                      .orderBy(F.desc("count"), F.asc(field_id)).collect())
            if counts:
                top = ", ".join(f"{row[field_id]} ({row['count']})" for row in counts[:3])
                print(f"  {field_id}: {sum(row['count'] for row in counts)} invalid \u2014 {top}")
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
