"""Issue 20: what a person sees first on the README's demo, in Chromium: the Steps page names the
planted slow rank and only it, the memory page one highest peak, the timeline a rank's thread, a
table page its rows, a canned query milliseconds (warehouse/synth/plan.py plants the story)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from tests.datasette.conftest import datasette_server
from tests.datasette.dom import Dom
from warehouse import db, report
from warehouse.cli import cli

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory):
    """``warehouse demo --no-serve``'s warehouse (analysed, its report written)."""
    folder = tmp_path_factory.mktemp("demo_pages")
    result = CliRunner().invoke(cli, ["demo", "--dir", str(folder), "--no-serve"])
    assert result.exit_code == 0, result.output
    return folder / "warehouse.db"


@pytest.fixture(scope="module")
def demo_server(demo_db):
    """The demo's warehouse behind a real Datasette; yields its database URL."""
    with datasette_server(demo_db) as url:
        yield url


def page(url: str, name: str) -> str:
    return url.replace("/warehouse", f"/-/warehouse/warehouse/{name}")


def test_demo_steps_page_names_the_planted_rank_and_only_it(demo_db, demo_server, browse):
    """The page names the rank the report names (both read the last analysis's findings): rank 3,
    one finding that holds every step."""
    dom = Dom(browse(page(demo_server, "steps"), "demo_steps"))
    assert dom.ready
    named = [r.slow_ranks for r in report.collect(db.connect_readonly(demo_db), "warehouse") if r.steps]
    assert named == [[3]]
    assert "6 ranks; slow: rank 3 (in 8 of 8 steps) (warehouse analyze of " in dom.status
    assert [r["data-rank-id"] for r in dom.rows] == ["0", "1", "2", "3", "4", "5"]
    assert [r["data-rank-id"] for r in dom.rows if "wh-slow" in r["class"]] == ["3"]


def test_demo_memory_page_shows_one_highest_peak_on_the_rank_near_capacity(demo_server, browse):
    html = browse(page(demo_server, "memory"), "demo_memory")
    dom = Dom(html)
    assert dom.ready
    assert html.count("highest peak") == 1
    assert [r["data-rank-id"] for r in dom.rows if "wh-slow" in r["class"]] == ["2"]


def test_demo_timeline_opens_on_a_ranks_thread(demo_server, browse):
    dom = Dom(browse(page(demo_server, "timeline"), "demo_timeline"))
    assert dom.ready
    assert dom.status.endswith("after the thread's first slice") and not dom.status.startswith("0 slices")
    labels = dom.options["process_id"]
    assert len(labels) == len(set(labels))  # every process named apart
    # the chart's title: rank 0's thread (the busiest), not the operator simulator's instructions
    titles = [text for text in dom.texts if " · tid " in text]
    assert len(titles) == 1 and " · rank 0 · " in titles[0], dom.texts[:5]
    assert not any("core0" in text for text in dom.texts)


def test_demo_kernel_table_shows_rows_first(demo_server, browse):
    html = browse(demo_server + "/kernel", "demo_kernel_table")
    dom = Dom(html)
    folds = [attrs for tag, attrs in dom.tags if tag == "details" and "column-descriptions-fold" in attrs.get("class", "")]
    assert len(folds) == 1 and "open" not in folds[0]
    assert len(dom.column("id")) == 100  # Datasette's first page
    assert all(cell["text"].endswith(("ms", "us", "ns")) for cell in dom.column("dur"))


def test_demo_step_time_query_reads_in_milliseconds(demo_server, browse):
    dom = Dom(browse(demo_server + "/step_time?rank_id=3", "demo_step_time"))
    durations = dom.column("duration_ns")
    assert len(durations) == 8
    assert all(cell["text"] in ("1.923 ms", "1.924 ms") for cell in durations)  # rank 3's slow steps
    assert all(int(cell["title"]) > 1_900_000 for cell in durations)


def test_demo_cluster_page_places_each_rank_in_its_stage(demo_server, browse):
    """The demo's planted shape, pipeline 2 x data-parallel 3: ranks 0-2 in stage 0, 3-5 in stage 1,
    each compared within its stage."""
    html = browse(page(demo_server, "cluster"))
    dom = Dom(html)
    assert dom.ready
    assert [r["data-rank-id"] for r in dom.rows] == ["0", "1", "2", "3", "4", "5"]
    assert 'data-shape-known="1"' in html
    stages = re.findall(r'data-rank-id="(\d)"><td>rank \d</td><td>(\d)</td>', html)
    assert stages == [("0", "0"), ("1", "0"), ("2", "0"), ("3", "1"), ("4", "1"), ("5", "1")]
    assert dom.status.startswith("run ") and dom.status.endswith(": 6 ranks")
