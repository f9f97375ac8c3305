#!/usr/bin/env bash
# Sets everything up, then runs the main job on generated demo data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/warehouse demo "$@"
