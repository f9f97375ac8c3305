#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite (slow tests included), on every core
# (pytest-xdist; a test file stays on one worker, so its module fixtures are built once).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The longest files first (Spark and the engines): a long file handed out last runs alone at the
# end while the other cores idle. Then every other test file and folder, each once.
if [ "$#" -eq 0 ]; then
    first="tests/scale/test_spark_ingest.py tests/scale/test_spark_ingest_killed.py tests/scale/test_scale_engines.py"
    rest=$(find tests/scale -name 'test_*.py' ! -name test_spark_ingest.py ! -name test_spark_ingest_killed.py \
               ! -name test_scale_engines.py; find tests -mindepth 1 -maxdepth 1 \( -type d -o -name 'test_*.py' \) \
               ! -name scale ! -name factories ! -name __pycache__)
    set -- $first $(printf '%s\n' $rest | sort)
fi
# --durations names the slowest tests in every run (CI's included), so a slow one is seen where it lands
exec .venv/bin/python -m pytest -q -n auto --dist loadfile --durations=30 "$@"
