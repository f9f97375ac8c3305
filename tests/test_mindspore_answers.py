"""``warehouse report`` and ``warehouse compare`` on real MindSpore runs (MindInsight's JOB3 raw job
and profiler folder): the answers hold MindSpore's kernels and steps, as SQL on the warehouse
gives them."""

from __future__ import annotations

import json
import re

import pytest

from tests import mindspore_realdata
from warehouse import db
from warehouse.cli import cli

# ingests and analyses the real samples: seconds
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory, realdata):
    return mindspore_realdata.build(realdata, tmp_path_factory.mktemp("mindspore"))


def _one(path, sql, params=()):
    conn = db.connect_readonly(path)
    try:
        return conn.execute(sql, params).fetchone()
    finally:
        conn.close()


def _summary(markdown: str, what: str) -> str:
    return re.search(rf"^\| {what} \| ([^|]+) \|$", markdown, re.M)[1]


def test_the_report_of_a_raw_job_holds_its_kernels_and_steps(warehouse, tmp_path, runner):
    run_id = _one(warehouse, "SELECT run_id FROM run WHERE name = 'base'")[0]
    markdown_path, html_path = tmp_path / "r.md", tmp_path / "r.html"
    for output in (markdown_path, html_path):
        result = runner.invoke(cli, ["report", "--db", str(warehouse), "--run", "base", "-o", str(output)])
        assert result.exit_code == 0, result.output
    markdown, html = markdown_path.read_text(), html_path.read_text()
    kernels, steps = _one(warehouse, "SELECT (SELECT count(*) FROM kernel_answer WHERE run_id = :r), "
                                     "(SELECT count(DISTINCT step_id) FROM step_answer WHERE run_id = :r)",
                          {"r": run_id})
    # JOB3: 2817 kernels of the hwts log over 322 steps of the training trace
    assert (kernels, steps) == (2817, 322)
    assert (_summary(markdown, "kernels"), _summary(markdown, "steps")) == ("2817", "322")
    # the top kernel is the one with the most time on the warehouse (GatherV2, 14 runs, 591.083 ms)
    name, count, total_ns = _one(warehouse, "SELECT name, count(*), sum(dur) FROM kernel_answer WHERE run_id = ? "
                                            "GROUP BY name ORDER BY sum(dur) DESC LIMIT 1", (run_id,))
    assert (name, count, total_ns) == ("GatherV2-op55", 14, 591082970)
    top = re.search(r"### Top kernels\n\n[^\n]*\n[^\n]*\n\| ([^|]+) \| [^|]+ \| (\d+) \| ([\d,.]+) \|", markdown)
    assert top.groups() == (name, str(count), f"{total_ns / 1e6:,.3f}")
    assert name in html and f"{total_ns / 1e6:,.3f}" in html
    # the first step's duration as step_answer gives it: MindSpore's step time, its training trace's end less
    # its start (284.271 ms; the kernels' span, preparing + stage, is 284.232 ms)
    duration = _one(warehouse, "SELECT duration_ns FROM step_answer WHERE run_id = ? AND step_id = 1", (run_id,))[0]
    assert re.search(rf"^\| 1 \| 1 \| {duration / 1e6:.3f} \|", markdown, re.M) and duration == 284271180
    # its HWTS log ends inside step 15: step 16 keeps its step time (205.710 ms), its breakdown is unknown
    assert re.search(r"^\| 1 \| 16 \| 205\.710 \| - \| - \| - \|", markdown, re.M)


def test_the_report_of_a_profiler_folder_holds_its_ranks_steps(warehouse, tmp_path, runner):
    run = mindspore_realdata.PROFILER_RUN
    result = runner.invoke(cli, ["report", "--db", str(warehouse), "--run", run, "-o", str(tmp_path / "p.md")])
    assert result.exit_code == 0, result.output
    markdown = (tmp_path / "p.md").read_text()
    ranks, steps = _one(warehouse, "WITH r AS (SELECT run_id FROM run WHERE name = ?) "
                                   "SELECT (SELECT count(*) FROM rank WHERE run_id = (SELECT run_id FROM r)), "
                                   "(SELECT count(DISTINCT step_id) FROM step_answer WHERE run_id = (SELECT run_id FROM r))",
                        (run,))
    # three ranks (the step traces' 0 and 10, the AI Core files' 1); the step traces hold steps 1 to 40
    assert (_summary(markdown, "ranks"), _summary(markdown, "steps")) == (str(ranks), str(steps)) == ("3", "40")
    assert "minddata_data_bound" in markdown


def test_compare_of_two_mindspore_runs_pairs_their_kernels(warehouse, tmp_path, runner):
    result = runner.invoke(cli, ["compare", "--db", str(warehouse), "base", "after", "--format", "json", "--top", "500",
                                 "-o", str(tmp_path / "c.html")])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    properties = {row["property"]: (row["base_value"], row["run_value"]) for row in document["compare_runs"]}
    assert properties["profiler"] == ("MindSpore", "MindSpore")
    assert document["differs"] == [] and document["comparable"]["comparable"] is True
    # the same job twice: every kernel in both, none slower; the heaviest as SQL sums it on each run
    kernels = {row["name"]: row for row in document["compare_kernels"]}
    heaviest = kernels["GatherV2-op55"]
    assert (heaviest["base_count"], heaviest["run_count"], heaviest["base_total_ns"], heaviest["run_total_ns"],
            heaviest["difference_ns"]) == (14, 14, 591082970, 591082970, 0)
    names = _one(warehouse, "SELECT count(DISTINCT name) FROM kernel_answer "
                            "WHERE run_id = (SELECT run_id FROM run WHERE name = 'base')")[0]
    assert properties["kernel_names"] == (str(names), str(names))
    duration = [row for row in document["compare_step_time"]
                if row["scope"] == "overall" and row["component"] == "duration"][0]
    mean, steps = _one(warehouse, "SELECT avg(duration_ns), count(*) FROM step_answer "
                                  "WHERE run_id = (SELECT run_id FROM run WHERE name = 'base')")
    assert (duration["base_steps"], duration["run_steps"]) == (steps, steps) == (322, 322)
    assert duration["base_ns"] == duration["run_ns"] == pytest.approx(mean)
    # the HTML report says the same: both runs MindSpore's, 322 steps in each
    html = (tmp_path / "c.html").read_text()
    assert "<td>profiler</td><td>MindSpore</td><td>MindSpore</td>" in html.replace("\n", "")
    assert "<td>322</td><td>322</td>" in html
