"""The answering commands import only what they use (bench/cli_startup.py measures what it saves).

Each case runs in a fresh interpreter: this one has imported everything already.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: modules that cost more than half of Python's start each, and that these commands do not need
HEAVY = ("sqlglot", "tabulate", "warehouse.ingest", "warehouse.sources", "warehouse.ingest.parts", "flask", "datasette")

RUN = """
import json, sys
from warehouse.cli import cli
try:
    cli({args!r}, standalone_mode=False)
finally:
    print(json.dumps(sorted(name for name in {heavy!r} if name in sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    (
        ["sql", "SELECT count(*) AS runs FROM run"],
        ["query", "step_time"],
        ["--help"],
    ),
)
def test_answering_commands_leave_the_heavy_modules_unimported(warehouse_db, warehouse_path, args):
    argv = args + ["--db", str(warehouse_path)] if args != ["--help"] else args
    result = subprocess.run([sys.executable, "-c", RUN.format(args=argv, heavy=HEAVY)],
                            capture_output=True, text=True, check=True)
    imported = json.loads(result.stderr.strip().splitlines()[-1])
    assert imported == []
    assert result.stdout  # and it answered
