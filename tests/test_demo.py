"""The README's first command: the demo builds a warehouse from every input kind and serves it."""

import json
import urllib.request

import pytest

from warehouse import db, services
from warehouse.cli import cli


def test_demo_ingests_every_input_it_writes(runner, tmp_path):
    result = runner.invoke(cli, ["demo", "--dir", str(tmp_path), "--no-serve"])
    assert result.exit_code == 0, result.output
    conn = db.connect_readonly(tmp_path / "warehouse.db")
    statuses = dict(conn.execute("SELECT status, count(*) FROM source GROUP BY status").fetchall())
    assert statuses.get("failed") is None and statuses.get("skipped") is None
    assert statuses["ok"] >= 4
    ranks = [row[0] for row in conn.execute("SELECT DISTINCT rank_id FROM source WHERE rank_id IS NOT NULL ORDER BY 1")]
    assert ranks == [0, 1]
    assert conn.execute("SELECT count(*) FROM slice").fetchone()[0] > 1000


@pytest.mark.slow
def test_both_services_answer_on_loopback_and_stop(tmp_path, runner):
    runner.invoke(cli, ["demo", "--dir", str(tmp_path), "--no-serve"])
    with services.both_services(tmp_path / "warehouse.db") as running:
        assert running.rest_url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(f"{running.rest_url}/queries/timeline_processes?_limit=100") as response:
            body = json.load(response)
        assert {"Python", "CANN", "Ascend Hardware"} <= {row["name"] for row in body["rows"]}
        with urllib.request.urlopen(f"{running.datasette_url}.json?sql=select+count(*)+as+n+from+source") as response:
            assert json.load(response)["rows"][0][0] >= 4
        rest_port = int(running.rest_url.split(":")[2].split("/")[0])
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{rest_port}/api/v1/health", timeout=2)
