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
    by_kind = dict(conn.execute("SELECT coalesce(kind, status), count(*) FROM source GROUP BY 1").fetchall())
    # torch_npu's own analysis.db beside each database rank included: every file is read
    assert by_kind == {"rank_db": 4, "analysis_db": 4, "trace_json": 2, "kernel_details_csv": 2, "op_profile": 1,
                       "profiler_info_json": 6}
    assert conn.execute("SELECT count(*) FROM source WHERE status = 'failed'").fetchone()[0] == 0
    ranks = [row[0] for row in conn.execute("SELECT rank_id FROM rank ORDER BY 1")]
    assert ranks == [0, 1, 2, 3, 4, 5]
    origins = dict(conn.execute("SELECT origin, count(DISTINCT rank_id) FROM kernel GROUP BY origin").fetchall())
    assert origins == {"rank_db": 4, "kernel_details_csv": 2}
    assert conn.execute("SELECT count(*) FROM op_run").fetchone()[0] == 1
    # the demo analyses what it ingested and writes the report: the findings name the cluster's run
    runs = dict(conn.execute("SELECT name, run_id FROM run").fetchall())
    findings = conn.execute("SELECT run_id, count(*) FROM finding GROUP BY run_id").fetchall()
    assert findings and runs["inputs"] in {run for run, _ in findings}
    report = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Run inputs (run_id" in report and f"{sum(n for _, n in findings)} findings" in result.output


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
