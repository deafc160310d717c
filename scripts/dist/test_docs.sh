#!/usr/bin/env bash
# The documentation's install commands and examples are consistent (scripts/dist/doc_blocks.py),
# and the floor it states is the one the built artifacts need (scripts/dist/floor.py --check).
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 scripts/dist/doc_blocks.py --check
python3 scripts/dist/floor.py --check
