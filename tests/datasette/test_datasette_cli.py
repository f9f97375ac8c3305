"""``warehouse datasette``: the command line it runs and its refusal of a non-warehouse.
(The pages' tests start the command for real.)"""

from __future__ import annotations

import sqlite3
import sys

from datasette_plugins import launch
from warehouse.cli import cli


def test_argv_serves_the_file_immutable_on_loopback_with_limits(profile_path):
    argv = launch.datasette_argv(profile_path, port=8123)
    assert argv[:4] == [sys.executable, "-m", "datasette", "serve"]
    assert argv[argv.index("--immutable") + 1] == str(profile_path.resolve())
    assert argv[argv.index("--host") + 1] == "127.0.0.1"
    assert argv[argv.index("--port") + 1] == "8123"
    settings = dict(zip(argv[argv.index("--setting") + 1::3], argv[argv.index("--setting") + 2::3]))
    assert settings == {"sql_time_limit_ms": "5000", "max_returned_rows": "20000",
                        "facet_time_limit_ms": "500", "default_page_size": "100"}
    assert launch.url(profile_path, port=8123) == "http://127.0.0.1:8123/profile"


def test_missing_file_is_a_one_line_error(runner, tmp_path):
    result = runner.invoke(cli, ["datasette", "--db", str(tmp_path / "nope.db")])
    assert result.exit_code == 1
    assert result.output == f"Error: {tmp_path / 'nope.db'}: no such warehouse\n"


def test_newer_schema_is_refused(runner, tmp_path):
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 9999")
    conn.close()
    result = runner.invoke(cli, ["datasette", "--db", str(path)])
    assert result.exit_code == 1
    assert "newer than this code" in result.output
