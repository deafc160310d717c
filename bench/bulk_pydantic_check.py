#!/usr/bin/env python3
"""bulk_pydantic_check: the pydantic side of row 8b (bench/README.md), what `formwell check SPEC DATA
--format json` does, written the way a Python user would: read a JSONL file, validate each line with
``Registration.model_validate_json(line)`` (bench/bulk_models.py: the rules and messages of
examples/registration.json), print one JSON verdict per line.

Usage: bulk_pydantic_check.py DATA.jsonl > verdicts.jsonl
Exit status 0 when every record is valid, 1 otherwise (as the CLI).
"""

import json
import sys

from bulk_models import Registration, ValidationError, errors_of


def main() -> int:
    validate = Registration.model_validate_json
    dumps = json.dumps
    write = sys.stdout.write
    invalid = 0
    with open(sys.argv[1], "rb") as data:
        for number, line in enumerate(data, 1):
            try:
                validate(line)
            except ValidationError as error:
                invalid += 1
                write(dumps({"errors": errors_of(error), "line": number, "valid": False}, sort_keys=True) + "\n")
            else:
                write(dumps({"errors": {}, "line": number, "valid": True}) + "\n")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
