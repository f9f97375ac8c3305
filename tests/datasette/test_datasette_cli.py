"""``warehouse datasette``: the command line it runs and its refusal of a non-warehouse.
(The pages' tests start the command for real.)"""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from datasette_plugins import launch
from warehouse import db
from warehouse.cli import cli


def test_argv_serves_the_file_immutable_on_loopback_with_limits(profile_path):
    argv = launch.datasette_argv(profile_path, port=8123)
    assert argv[:4] == [sys.executable, "-m", "datasette", "serve"]
    assert argv[argv.index("--immutable") + 1] == str(profile_path.resolve())
    assert argv[argv.index("--host") + 1] == "127.0.0.1"
    assert argv[argv.index("--port") + 1] == "8123"
    settings = dict(zip(argv[argv.index("--setting") + 1::3], argv[argv.index("--setting") + 2::3]))
    assert settings == {"sql_time_limit_ms": "5000", "num_sql_threads": "8", "max_returned_rows": "20000",
                        "facet_time_limit_ms": "500", "default_page_size": "100", "max_csv_mb": "64"}
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


@pytest.mark.slow
def test_a_few_runaway_queries_leave_the_others_answered(server):
    """3 clients looping a runaway recursive CTE through Datasette's SQL while another asks the
    steps page's canned query 20 times: its answers stay under a second (p90), never waiting out
    the runaway queries' 5 s time limit (Datasette's 3 default SQL threads would all be taken)."""
    runaway = urllib.parse.quote("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
                                 "SELECT count(*) FROM n")
    stop = time.monotonic() + 60
    done = threading.Event()

    def loop():
        while not done.is_set() and time.monotonic() < stop:
            try:
                urllib.request.urlopen(f"{server}.json?sql={runaway}", timeout=30).read()
            except (urllib.error.URLError, OSError):
                pass

    slow = [threading.Thread(target=loop, daemon=True) for _ in range(3)]
    for thread in slow:
        thread.start()
    time.sleep(1)  # the runaway queries hold their threads
    waits = []
    for _ in range(20):
        started = time.monotonic()
        with urllib.request.urlopen(f"{server}/step_time.json?_shape=objects", timeout=30) as response:
            assert response.status == 200
        waits.append(time.monotonic() - started)
    done.set()
    for thread in slow:
        thread.join(timeout=30)
    waits.sort()
    assert waits[int(len(waits) * 0.9) - 1] < 1.0, waits


def test_the_served_file_holds_what_the_write_ahead_log_held(tmp_path):
    path = tmp_path / "warehouse.db"
    writer = db.connect(path)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("INSERT INTO string (value) VALUES ('FlashAttentionScore')")
    immutable = f"{path.resolve().as_uri()}?immutable=1"
    read = "SELECT count(*) FROM sqlite_master WHERE name = 'string'"
    assert sqlite3.connect(immutable, uri=True).execute(read).fetchone() == (0,)  # the file alone: empty
    launch.datasette_argv(path)
    with sqlite3.connect(immutable, uri=True) as served:
        assert served.execute("SELECT value FROM string").fetchall() == [("FlashAttentionScore",)]
    writer.close()
