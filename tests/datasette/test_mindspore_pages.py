"""The Datasette pages the torch_npu tests open, on a warehouse of real MindSpore runs
(MindInsight's JOB3 raw job twice and its profiler folder, tests/mindspore_realdata.py), in a real
headless Chromium against ``warehouse datasette`` running as a real process: each page loads
without an error and shows the MindSpore rows SQL on the warehouse gives."""

from __future__ import annotations

import pytest

from datasette_plugins import pages
from tests import mindspore_realdata
from tests.datasette.conftest import datasette_server
from tests.datasette.dom import Dom
from warehouse import db, queries

# a real server and a browser on real samples: seconds each
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def mindspore_path(tmp_path_factory, realdata):
    return mindspore_realdata.build(realdata, tmp_path_factory.mktemp("datasette_mindspore"))


@pytest.fixture(scope="module")
def mindspore_server(mindspore_path):
    with datasette_server(mindspore_path) as url:
        yield url


def _page(server: str, slug: str, query: str = "") -> str:
    return server.replace("/mindspore", f"/-/warehouse/mindspore/{slug}") + query


def _rows(path, name: str, values: dict) -> list[tuple]:
    conn = db.connect_readonly(path)
    try:
        return queries.get(name).run(conn, values)[1]
    finally:
        conn.close()


@pytest.mark.parametrize("slug", [page.slug for page in pages.PAGES])
def test_every_picture_page_loads_on_mindspore_runs(mindspore_server, browse, slug):
    dom = Dom(browse(_page(mindspore_server, slug), f"mindspore_{slug}"))
    assert dom.ready and "Could not load" not in dom.status, dom.status


def test_steps_page_shows_the_mindspore_runs_ranks(mindspore_server, mindspore_path, browse):
    run_id = _rows(mindspore_path, "compare_run_names", {})[0][0]
    dom = Dom(browse(_page(mindspore_server, "steps", f"?run_id={run_id}"), "mindspore_steps_base"))
    assert dom.ready
    ranks = sorted({row[1] for row in _rows(mindspore_path, "step_time", {"run_id": run_id})})
    assert [row["data-rank-id"] for row in dom.rows] == [str(rank) for rank in ranks] == ["1"]
    assert dom.status.startswith("run base: 1 rank"), dom.status


def test_kernel_table_and_step_time_query_show_the_warehouses_rows(mindspore_server, mindspore_path, browse):
    dom = Dom(browse(mindspore_server + "/kernel", "mindspore_kernel"))
    conn = db.connect_readonly(mindspore_path)
    try:
        first = conn.execute("SELECT id, dur FROM kernel ORDER BY id LIMIT 1").fetchone()
    finally:
        conn.close()
    assert dom.column("id")[0]["text"] == str(first[0])
    assert dom.column("dur")[0]["title"] == str(first[1])
    # JOB3's first step (run base, rank 1) as the named query answers it: its training trace's 284.271 ms
    dom = Dom(browse(mindspore_server + "/step_time?run_id=1&rank_id=1", "mindspore_step_time"))
    expected = _rows(mindspore_path, "step_time", {"run_id": 1, "rank_id": 1})
    durations = dom.column("duration_ns")
    assert durations[0]["title"] == str(expected[0][5]) == "284271180"
    assert durations[0]["text"] == "284.271 ms"
