"""The picture pages in a real headless Chromium, against ``warehouse datasette`` running
as a real process on the factory profile: each page loads, draws its SVG chart from the
data, and shows the numbers the data implies."""

from __future__ import annotations

import re

import pytest

from factories import datasette_rows
from factories import warehouse_rows as rows
from tests.datasette.conftest import datasette_server
from tests.datasette.dom import Dom
from warehouse import db
from warehouse.schema_docs import read_docs

# each test drives headless Chromium against a running Datasette: seconds each
pytestmark = pytest.mark.slow

def test_table_page_shows_its_rows_before_the_column_descriptions(server, browse):
    """The kernel table documents every column: the descriptions wait in one closed <details>
    (one click opens it), the rows come without scrolling past them."""
    html = browse(server + "/kernel", "table_kernel")
    dom = Dom(html)
    folds = [attrs for tag, attrs in dom.tags if tag == "details" and "column-descriptions-fold" in attrs.get("class", "")]
    assert len(folds) == 1 and "open" not in folds[0]
    documented = read_docs()["kernel"].columns
    fold = re.search(r'<details class="column-descriptions-fold">\s*<summary>What the (\d+) described columns mean'
                     r'</summary>\s*<dl class="column-descriptions">(.*?)</dl>\s*</details>', html, re.S)
    assert fold is not None and int(fold[1]) == fold[2].count("<dt>") == len([c for c in documented if documented[c]])
    assert html.count('<dl class="column-descriptions">') == 1  # not listed a second time above the rows
    # 4 ranks x 2 steps x (a matmul, an all-reduce); rank 0's first matmul: 60 % of its 10 ms step
    assert len(dom.column("id")) == 16
    assert dom.column("dur")[0] == {"column": "dur", "text": "6.000 ms", "title": "6000000"}


def test_canned_query_shows_milliseconds_with_the_stored_nanoseconds_on_hover(server, browse):
    """Rank 0's steps (10 ms host steps, the device busy 7 ms of each): the step time reads
    7.000 ms, its tooltip the stored integer; the rank id stays a plain number."""
    html = browse(server + "/step_time?rank_id=0", "canned_step_time")
    dom = Dom(html)
    # the rows come first: the SQL behind its "show" link, the columns' meanings folded
    assert re.search(r'<span class="show-hide-sql">\(<a [^>]*>show</a>\)</span>', html)
    assert re.search(r'<details class="column-descriptions-fold"><summary>What the \d+ columns mean</summary>', html)
    durations = dom.column("duration_ns")
    assert [cell["text"] for cell in durations] == ["7.000 ms", "7.000 ms"]
    assert [cell["title"] for cell in durations] == ["7000000", "7000000"]
    assert [cell["text"] for cell in dom.column("rank_id")] == ["0", "0"]


def test_steps_page_shows_the_slow_rank(server, browse):
    """The slow rank is the one the last analysis found (one slow_rank_suspected finding holding
    both steps), as the report names it."""
    dom = Dom(browse(server.replace("/profile", "/-/warehouse/profile/steps"), "steps"))
    assert dom.ready
    assert re.fullmatch(r"run run: 4 ranks; slow: rank 2 \(in 2 of 2 steps\) \(warehouse analyze of \S+\)",
                        dom.status), dom.status
    assert [r["data-rank-id"] for r in dom.rows] == ["0", "1", "2", "3"]
    assert [r["data-rank-id"] for r in dom.rows if "wh-slow" in r["class"]] == [str(datasette_rows.SLOW_RANK)]
    assert "rank 2 (slow)" in dom.texts and "rank 0" in dom.texts
    # the device is busy 70 % of each 10 ms host step: the step time the profiler counts is 7 ms
    assert "median 7.000 ms" in dom.texts
    computing = dom.bar_heights("#4e79a7")  # one computing bar per rank
    assert len(computing) == 4
    # computing is 60 % of each step: rank 2's bar is 18 / 10 times the others' (less its 2 px red outline)
    assert round(computing[2] / computing[0], 1) == 1.8
    assert computing[0] == computing[1] == computing[3]
    # communication not overlapped: 10 % of each step, stacked on computing; the legend names the table's columns
    assert len(dom.bar_heights("#f28e2b")) == 4
    assert {"preparing", "computing", "communication not overlapped", "free"} <= set(dom.texts)


def test_steps_page_never_marks_the_fastest_rank_slow(server, browse):
    """Over the mean of the steps a rank is slow when the analysis found it slow in a step: only
    rank 2 (12.6 ms against 7 ms), never a fast rank."""
    dom = Dom(browse(server.replace("/profile", "/-/warehouse/profile/steps"), "steps_mean"))
    ratios = {r["data-rank-id"]: "wh-slow" in r["class"] for r in dom.rows}
    assert ratios == {"0": False, "1": False, "2": True, "3": False}


def test_steps_page_for_one_step(server, browse):
    dom = Dom(browse(server.replace("/profile", "/-/warehouse/profile/steps?step_id=2"), "steps_2"))
    assert dom.ready
    assert "Step time per rank: step 2" in dom.texts


def test_timeline_page_draws_the_thread_as_a_flame_chart(server, browse):
    dom = Dom(browse(server.replace("/profile", "/-/warehouse/profile/timeline"), "timeline"))
    assert dom.ready
    assert dom.status == "4 slices between 0 ns and 10.000 ms after the thread's first slice"
    assert "rank 0 · python · pid 4242 · tid 4243 main" in dom.texts
    for name in ("ProfilerStep#1", "aten::linear", "aten::matmul", "aten::relu"):
        assert name in dom.texts
    assert {"depth 0", "depth 1", "depth 2"} <= set(dom.texts)


def test_timeline_of_a_whole_process_stacks_its_threads(server, browse):
    dom = Dom(browse(server.replace("/profile", "/-/warehouse/profile/timeline?process_id=1"), "timeline_process"))
    assert dom.ready
    assert dom.status == "5 slices on 2 threads between 0 ns and 10.000 ms after the threads' first slice"
    assert "rank 0 · python · pid 4242 · 2 threads" in dom.texts
    # one lane per thread, labelled on its first row; the main thread's lane has three depths
    lanes = [t for t in dom.texts if t.startswith("tid ")]
    assert lanes == ["tid 4243", "tid 4244"]
    assert {"aten::matmul", "aten::copy_"} <= set(dom.texts)


@pytest.fixture(scope="module")
def cluster_timeline_server(tmp_path_factory):
    """An operator simulator's core (no rank, run "sim", added first), then run "train": rank 1's
    process, and rank 0's CANN and Python processes (one pid, as torch_npu writes them) and its
    device stream, which has the most slices of rank 0's threads."""
    path = tmp_path_factory.mktemp("datasette_timeline") / "cluster.db"
    conn = db.connect(path)
    with rows.bound(conn):
        simulator = rows.ProcessFactory(rank_id=None, pid="core0.cubecore0", name="core0.cubecore0",
                                        source_id=rows.rank_source(None, run="sim", kind="op_profile"))
        rank1 = rows.ProcessFactory(rank_id=1, pid="3001", name="Python", source_id=rows.rank_source(1, run="train"))
        source = rows.rank_source(0, run="train")
        cann = rows.ProcessFactory(rank_id=0, pid="3000", name="CANN", source_id=source)
        python = rows.ProcessFactory(rank_id=0, pid="3000", name="Python", source_id=source)
        device = rows.ProcessFactory(rank_id=0, pid="0", name="Ascend Hardware", source_id=source)
        for process, tid, name, slices in ((simulator, "0", "instructions", 9), (rank1, "3001", "main", 9),
                                           (cann, "3000", "cann", 1), (python, "3000", "main", 2),
                                           (device, "7", "stream 7", 4)):
            thread = rows.ThreadFactory(process=process, tid=tid, name=name)
            for index in range(slices):
                rows.SliceFactory(thread_id=thread.id, ts=datasette_rows.EPOCH_NS + index * datasette_rows.MS,
                                  dur=datasette_rows.MS // 2,
                                  name=f"{name} {index}", depth=0, source_id=process.source_id)
    conn.commit()
    conn.close()
    with datasette_server(path) as url:
        yield url


def test_timeline_opens_on_the_busiest_thread_of_the_first_rank(cluster_timeline_server, browse):
    """Not the simulator's instructions (first in the warehouse) nor rank 1 (first of its run):
    rank 0's device stream, its thread with the most slices; every process named apart."""
    url = cluster_timeline_server.replace("/cluster", "/-/warehouse/cluster/timeline")
    dom = Dom(browse(url, "timeline_first_rank"))
    assert dom.ready
    assert dom.status == "4 slices between 0 ns and 3.500 ms after the thread's first slice"
    assert "run 2 · rank 0 · Ascend Hardware · pid 0 · tid 7 stream 7" in dom.texts
    assert dom.options["process_id"] == ["run 1 · core0.cubecore0 · pid core0.cubecore0", "run 2 · rank 1 · Python · pid 3001",
                         "run 2 · rank 0 · CANN · pid 3000", "run 2 · rank 0 · Python · pid 3000",
                         "run 2 · rank 0 · Ascend Hardware · pid 0"]


def test_timeline_window_from_the_url_fetches_only_its_slices(server, browse):
    """Epoch-ns bounds larger than 2**53 go through exactly: relu (7-9 ms) is outside."""
    start = datasette_rows.EPOCH_NS + 500_000
    end = datasette_rows.EPOCH_NS + 5_000_000
    url = server.replace("/profile", f"/-/warehouse/profile/timeline?thread_id=1&start={start}&end={end}")
    dom = Dom(browse(url, "timeline_window"))
    assert dom.ready
    assert dom.status == "3 slices between 500.000 us and 5.000 ms after the thread's first slice"
    assert "aten::matmul" in dom.texts
    assert "aten::relu" not in dom.texts


def test_memory_page_draws_a_curve_per_rank_and_marks_the_peaks(server, browse):
    html = browse(server.replace("/profile", "/-/warehouse/profile/memory"), "memory")
    dom = Dom(html)
    assert dom.ready
    assert dom.status == "run run: 4 of 4 ranks drawn, PTA"
    assert html.count("highest peak") == 1
    curves = [p for p in dom.paths if p.get("stroke-linejoin") == "bevel"]
    assert len([p for p in curves if "stroke-dasharray" in p]) == 4  # reserved, one per rank
    assert len([p for p in curves if "stroke-dasharray" not in p]) == 4  # allocated
    # the legend names the rank and the component of each series
    assert {"rank 0 · PTA", "rank 1 · PTA", "rank 2 · PTA", "rank 3 · PTA"} <= set(dom.texts)
    # each rank's peak is labelled on its curve: 3 GiB for rank 1, 2 GiB for the others
    assert sorted(t for t in dom.texts if t in ("2.0 GiB", "3.0 GiB")) == ["2.0 GiB"] * 3 + ["3.0 GiB"]
    assert [r["data-rank-id"] for r in dom.rows if "wh-slow" in r["class"]] == [str(datasette_rows.PEAK_RANK)]
    assert {r["data-component"] for r in dom.rows} == {"PTA"}


def test_memory_page_for_one_rank(server, browse):
    dom = Dom(browse(server.replace("/profile", "/-/warehouse/profile/memory?rank_id=1"), "memory_rank1"))
    assert dom.ready
    assert dom.status == "run run: 1 of 4 ranks drawn, PTA"
    assert len([p for p in dom.paths if p.get("stroke-linejoin") == "bevel"]) == 2


GIB = 1 << 30


@pytest.fixture(scope="module")
def components_server(tmp_path_factory):
    """Rank 0 of run "train" with the process's memory (APP, reserved only: 6 GiB at its peak) and
    torch_npu's (PTA: 2 GiB allocated, 4 GiB reserved at its peak), and the same rank's text export
    (memory_record.csv) whose rows must not be drawn over the db's; rank 0 of run "other" apart."""
    path = tmp_path_factory.mktemp("datasette_memory") / "components.db"
    conn = db.connect(path)
    with rows.bound(conn):
        train = rows.rank_source(0, run="train")
        text = rows.rank_source(0, run="train", kind="memory_record_csv")
        for index in range(5):
            ts = datasette_rows.EPOCH_NS + index * 1_000_000
            rows.MemoryRecordFactory(rank_id=0, source_id=train, component="APP", ts=ts, total_allocated_bytes=None,
                                     total_reserved_bytes=(6 if index == 2 else 5) * GIB, total_active_bytes=None)
            rows.MemoryRecordFactory(rank_id=0, source_id=train, component="PTA", ts=ts + 500_000,
                                     total_allocated_bytes=(2 if index == 3 else 1) * GIB,
                                     total_reserved_bytes=4 * GIB)
            rows.MemoryRecordFactory(rank_id=0, source_id=text, component="PTA", ts=ts,
                                     total_allocated_bytes=9 * GIB, total_reserved_bytes=9 * GIB)
        rows.MemoryRecordFactory(rank_id=0, source_id=rows.rank_source(0, run="other"), component="GE",
                                 ts=datasette_rows.EPOCH_NS, total_allocated_bytes=GIB // 2,
                                 total_reserved_bytes=GIB)
    conn.commit()
    conn.close()
    with datasette_server(path) as url:
        yield url


def test_memory_page_draws_one_series_per_component(components_server, browse):
    """APP and PTA of one rank: two legend entries naming the component, APP's reserved curve
    alone (it records no allocated memory), each curve's own peak; the text twin is not drawn."""
    url = components_server.replace("/components", "/-/warehouse/components/memory?run_id=1")
    dom = Dom(browse(url, "memory_components"))
    assert dom.ready
    assert dom.status == "run train: 1 of 1 ranks drawn, APP, PTA"
    assert {"rank 0 · APP", "rank 0 · PTA"} <= set(dom.texts)
    curves = [p for p in dom.paths if p.get("stroke-linejoin") == "bevel"]
    assert len([p for p in curves if "stroke-dasharray" in p]) == 2  # reserved: APP and PTA
    assert len([p for p in curves if "stroke-dasharray" not in p]) == 1  # allocated: PTA only
    # APP's peak is its reserved 6 GiB, PTA's its allocated 2 GiB; the text export's 9 GiB is nowhere
    assert {"2.0 GiB", "6.0 GiB"} <= set(dom.texts) and "9.0 GiB" not in dom.texts
    assert [(r["data-rank-id"], r["data-component"]) for r in dom.rows] == [("0", "APP"), ("0", "PTA")]
    # the one highest peak: the process's 6 GiB reserved, not each component's own highest
    assert [r["data-component"] for r in dom.rows if "wh-slow" in r["class"]] == ["APP"]


def test_memory_page_names_one_highest_peak_when_ranks_tie(tmp_path, browse):
    """Two ranks whose PTA memory peaks at the same 2 GiB: one row says "highest peak" (the
    first rank's), not every row."""
    path = tmp_path / "tie.db"
    conn = db.connect(path)
    with rows.bound(conn):
        for rank in (0, 1):
            source = rows.rank_source(rank, run="tie")
            for index, allocated in enumerate((1, 2, 1)):
                rows.MemoryRecordFactory(rank_id=rank, source_id=source, component="PTA",
                                         ts=datasette_rows.EPOCH_NS + index * 1_000_000,
                                         total_allocated_bytes=allocated * GIB, total_reserved_bytes=4 * GIB)
    conn.commit()
    conn.close()
    with datasette_server(path) as url:
        html = browse(url.replace("/tie", "/-/warehouse/tie/memory"), "memory_tie")
    dom = Dom(html)
    assert dom.status == "run tie: 2 of 2 ranks drawn, PTA"
    assert html.count("highest peak") == 1
    assert [r["data-rank-id"] for r in dom.rows if "wh-slow" in r["class"]] == ["0"]


def test_memory_page_shows_one_run_and_one_component(components_server, browse):
    url = components_server.replace("/components", "/-/warehouse/components/memory?run_id=2&component=GE")
    dom = Dom(browse(url, "memory_other_run"))
    assert dom.ready
    assert dom.status == "run other: 1 of 1 ranks drawn, GE"
    assert "rank 0 · GE" in dom.texts and "rank 0 · APP" not in dom.texts
    assert [(r["data-rank-id"], r["data-component"]) for r in dom.rows] == [("0", "GE")]


def test_hotspot_page_shows_the_source_with_cycles_per_line(server, browse):
    dom = Dom(browse(server.replace("/profile", "/-/warehouse/profile/hotspots"), "hotspots"))
    assert dom.ready
    assert dom.status == "MatMulV2: 3 lines with cycles in /home/op/matmul_kernel.cpp, 27000 cycles in all"
    lines = {int(r["data-line"]): r for r in dom.rows}
    assert sorted(lines) == [1, 2, 3, 4, 5]  # every line of the file, with or without cycles
    # two cores each: cycles summed over them
    assert {n: int(r["data-cycles"]) for n, r in lines.items() if "data-cycles" in r} == {2: 2400, 3: 19600, 4: 5000}
    assert [n for n, r in lines.items() if r.get("class") == "wh-hot"] == [datasette_rows.HOT_LINE]
    assert ["line 2", "line 4", "line 3"] == [t for t in dom.texts if t.startswith("line ")]
    assert [r["data-cycles"] for r in dom.rows if r.get("data-line") == "3"] == ["19600"]
    line2, line4, line3 = dom.bar_widths("#e15759")
    assert round(line3 / line4, 2) == round(19600 / 5000, 2)
    assert round(line4 / line2, 2) == round(5000 / 2400, 2)


@pytest.mark.parametrize(
    "page,message",
    (
        ("timeline", "No thread with slices in this warehouse."),
        ("steps", "No steps in this warehouse (no run has step markers or a step summary)."),
        ("trend", "No run with steps in this warehouse."),
        ("memory", "No memory records in this warehouse (memory_record is empty)."),
        ("roofline", "No operator profile in this warehouse (op_run is empty)."),
        ("hotspots", "No operator profile in this warehouse (op_run is empty)."),
    ),
)
def test_pages_of_an_empty_warehouse_say_there_is_nothing_to_draw(empty_server, browse, page, message):
    dom = Dom(browse(empty_server.replace("/empty", f"/-/warehouse/empty/{page}")))
    assert dom.ready
    assert dom.status == message
    assert dom.paths == [] and dom.rows == []


def test_hotspot_page_for_one_core(server, browse):
    url = server.replace("/profile", "/-/warehouse/profile/hotspots?core=core0.veccore0")
    dom = Dom(browse(url, "hotspots_core"))
    assert dom.ready
    assert dom.status == ("MatMulV2 on core0.veccore0: 3 lines with cycles in /home/op/matmul_kernel.cpp, "
                          "13500 cycles in all")
    assert {int(r["data-line"]): int(r["data-cycles"]) for r in dom.rows if "data-cycles" in r} == {
        2: 1200, 3: 9800, 4: 2500}


@pytest.fixture(scope="module")
def history_server(tmp_path_factory):
    """Three runs of 2 ranks started in order a, b, c: mean steps of 1.0, 1.05 and 1.5 ms (c regresses)."""
    path = tmp_path_factory.mktemp("datasette_trend") / "history.db"
    conn = db.connect(path)
    with rows.bound(conn):
        for position, (run, step_ms) in enumerate((("a", 1.0), ("b", 1.05), ("c", 1.5))):
            run_id = rows.run_id(run)
            start = datasette_rows.EPOCH_NS + position * 3_600_000_000_000
            conn.execute("UPDATE run SET start_ns = ? WHERE run_id = ?", (start, run_id))
            for rank in (0, 1):
                source = rows.rank_source(rank, run=run)
                duration = int(step_ms * 1_000_000)
                rows.StepFactory(rank_id=rank, step_id=1, start_ns=start, end_ns=start + duration, source_id=source)
                rows.KernelFactory(rank_id=rank, ts=start, dur=duration, source_id=source)
    conn.commit()
    conn.close()
    with datasette_server(path) as url:
        yield url


def test_trend_page_draws_the_runs_in_order_and_marks_the_regression(history_server, browse):
    dom = Dom(browse(history_server.replace("/history", "/-/warehouse/history/trend"), "trend"))
    assert dom.ready
    assert dom.status == "3 runs; slower than the run before: c"
    assert [r["data-run-id"] for r in dom.rows] == ["1", "2", "3"]
    assert [r["data-run-id"] for r in dom.rows if "wh-slow" in r["class"]] == ["3"]
    assert {"a", "b", "c", "mean", "rank 0", "rank 1"} <= set(dom.texts)


def test_trend_page_draws_a_line_per_kernel(history_server, browse):
    dom = Dom(browse(history_server.replace("/history", "/-/warehouse/history/trend?show=kernels"), "trend_kernels"))
    assert dom.ready
    assert dom.status == "3 runs; 1 kernel"
    assert [r["data-kernel"] for r in dom.rows] == ["MatMul_1"]
    assert "MatMul_1" in dom.texts
