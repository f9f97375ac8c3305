#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite (slow tests included), on every core
# (pytest-xdist; a test file stays on one worker, so its module fixtures are built once).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -q -n auto --dist loadfile "$@"
