"""The HTML report's step inspector in headless Chromium (issue 18 item 4): the timeline of a
chosen step has one lane per stream and one bar per kernel, a lane for its HCCL operators, the
bubble axis marks its idle intervals, a click on a bar opens the operator card with every field
of that kernel's (or operator's) row, the zoom narrows the view, and a step past the embedding
cap shows its longest kernels only.

The run is tests/diagnosis/timeline.py's: two ranks, two steps, two dense layers of eight kernels
per step spread over three streams, each kernel with a global task id past 2**53 (the card must
show its digits), and an allreduce after them.
The page is driven by a script appended to a copy of the report: it selects a step through the
controls' change events and clicks what ``document.elementFromPoint`` finds at a bar's centre,
as a user's click would; Chromium's DOM after that is what the assertions read.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from factories import warehouse_rows as rows
from tests.built_once import copy_of
from tests.diagnosis.timeline import BIG_ID, STEP_NS, STREAMS, activities, build, idle, step_start
from warehouse import db
from warehouse.cli import cli
from warehouse.report import detail
from warehouse.report.format import text_of

# each test drives headless Chromium over a generated report: seconds each
pytestmark = pytest.mark.slow

# Chromium as the Datasette page tests drive it: their ``browse`` fixture, reused as it is
_spec = importlib.util.spec_from_file_location("datasette_page_fixtures",
                                               Path(__file__).parent.parent / "datasette" / "conftest.py")
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)
browse = _fixtures.browse

class Dom(HTMLParser):
    """The inspector's parts of the DOM Chromium renders: select options, the timeline's shapes (with
    their text), the rows of each table with an id, the text of each paragraph or span with an id."""

    def __init__(self, html: str):
        super().__init__()
        self.options: dict[str, list[str]] = {}
        self.shapes: list[dict] = []
        self.tables: dict[str, list[list[str]]] = {}
        self.texts: dict[str, str] = {}
        self._table: list | None = None
        self._target = None  # (container, key) the text goes to
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "select":
            self._options = self.options.setdefault(attrs["id"], [])
        elif tag == "option":
            self._options.append("")
            self._target = (self._options, -1)
        elif tag == "table" and attrs.get("id"):
            self._table = self.tables.setdefault(attrs["id"], [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._table[-1].append("")
            self._target = (self._table[-1], -1)
        elif tag in ("rect", "text"):
            self.shapes.append({"tag": tag, **attrs, "text": ""})
            self._target = (self.shapes[-1], "text") if tag == "text" else None
        elif tag in ("p", "span") and attrs.get("id"):
            self.texts[attrs["id"]] = ""
            self._target = (self.texts, attrs["id"])

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None
        if tag in ("option", "td", "th", "text", "p", "span"):
            self._target = None

    def handle_data(self, data):
        if self._target is not None:
            container, key = self._target
            container[key] += data

    def shapes_of(self, css: str) -> list[dict]:
        return [s for s in self.shapes if css in s.get("class", "").split()]


#: appended to a copy of the report: choose rank and step by their controls, click the given bar, the given buttons
DRIVER = """<script>
window.addEventListener("load", function () {
  function choose(id, index) {
    var select = document.getElementById(id);
    select.value = String(index);
    select.dispatchEvent(new Event("change"));
  }
  function click(node) {
    node.scrollIntoView({block: "center"});
    var box = node.getBoundingClientRect(), x = box.left + box.width / 2, y = box.top + box.height / 2;
    document.elementFromPoint(x, y).dispatchEvent(new MouseEvent("click", {bubbles: true, clientX: x, clientY: y}));
  }
  var drive = DRIVE;
  choose("wh-rank", drive.rank);
  choose("wh-step", drive.step);
  if (drive.link !== null) { click(document.querySelector('a[href="' + drive.link + '"]')); }
  drive.buttons.forEach(function (id) { click(document.getElementById(id)); });
  if (drive.bar !== null) { click(document.querySelector('rect.wh-bar[data-k="' + drive.bar + '"]')); }
});
</script></body>"""


@pytest.fixture(scope="module")
def analysed_timeline(tmp_path_factory):
    """The run ``timeline`` written and analysed once per module (seconds): (its warehouse file, the
    run as written). Tests take a copy (:func:`timeline`)."""
    path = tmp_path_factory.mktemp("timeline") / "warehouse.db"
    written = build(path)
    result = CliRunner().invoke(cli, ["analyze", "--db", str(path)])  # the layers
    assert result.exit_code == 0, result.output
    return path, written


@pytest.fixture
def timeline(tmp_path, warehouse_path, analysed_timeline, runner, browse):
    """``timeline(rank_index, step_index, bar=None, buttons=(), link=None)``: the DOM Chromium renders once
    the driver chose that step and clicked that link, those buttons and that bar (the report is written
    at the first call, from this test's copy of the analysed run at ``warehouse_path``);
    ``.written``: the run as written."""
    analysed, written = analysed_timeline
    copy_of(analysed, warehouse_path)
    out = tmp_path / "report.html"

    def run(rank: int, step: int, bar: int | None = None, buttons: tuple[str, ...] = (),
            link: str | None = None) -> Dom:
        if not out.exists():
            result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)])
            assert result.exit_code == 0, result.output
        drive = json.dumps({"rank": rank, "step": step, "bar": bar, "buttons": list(buttons), "link": link})
        driven = tmp_path / f"driven_{rank}_{step}_{bar}_{len(buttons)}_{link is not None}.html"
        page = out.read_text(encoding="utf-8")
        driven.write_text(page.replace("</body>", DRIVER.replace("DRIVE", drive)), encoding="utf-8")
        return Dom(browse(driven.as_uri()))

    run.written = written
    return run


def x_of(offset_ns: float) -> float:
    """Where the timeline draws a time from the step's start, the whole step in view."""
    return LABEL + offset_ns / STEP_NS * PLOT


LABEL, PLOT = 110, 980


def test_inspector_draws_the_chosen_steps_lanes_bars_and_idle_intervals(timeline):
    dom = timeline(1, 1)  # rank 1, step 2
    kernels = timeline.written.kernels[1, 2]
    allreduce = timeline.written.operators[1, 2]
    start = step_start(2)
    assert dom.options == {"wh-run": ["timeline (run_id 1)"], "wh-rank": ["rank 0", "rank 1"],
                           "wh-step": ["step 1", "step 2"]}
    assert dom.texts["wh-note"] == "16 kernels and 1 HCCL operators in the step."
    # one lane per stream, in stream order, the HCCL operators' lane, then the bubble axis
    assert len(dom.shapes_of("wh-lane")) == len(STREAMS) + 1
    labels = [s["text"] for s in dom.shapes if s["tag"] == "text"]
    assert labels[:5] == ["stream 3", "stream 5", "stream 9", "HCCL operators", "bubble axis"]
    # a bar per kernel, on its stream's lane, where and as long as it ran, and the allreduce's on the last lane
    bars = dom.shapes_of("wh-bar")
    assert [int(b["data-k"]) for b in bars] == list(range(17))
    lanes = [STREAMS.index(k["stream_id"]) for k in kernels] + [len(STREAMS)]
    for bar, item, lane in zip(bars, kernels + [allreduce], lanes):
        assert float(bar["y"]) == 22 * lane + 2
        assert float(bar["x"]) == pytest.approx(x_of(item["ts"] - start), abs=1e-6)
        assert float(bar["width"]) == pytest.approx(item["dur"] / STEP_NS * PLOT, abs=1e-6)
    assert {b["fill"] for b in bars[:16]} == {"#4e79a7", "#59a14f", "#b07aa1"}  # aic, aiv, mix_cv
    assert bars[16]["fill"] == "#e15759"  # communication
    # the bubble axis: the idle intervals, head (50 us) and tail included; the allreduce is no idle time
    gaps = dom.shapes_of("wh-gap")
    expected = idle(activities(timeline.written, 1, 2), start)
    assert len(gaps) == len(expected) == 18  # before the first, between each two, after the last
    for gap, (a, b) in zip(gaps, expected):
        assert (float(gap["x"]), float(gap["width"])) == pytest.approx((x_of(a - start), (b - a) / STEP_NS * PLOT))
    # the step's breakdown, layers (two dense layers, an attention and an ffn block each) and top kernels
    breakdown = dict(map(tuple, dom.tables["wh-breakdown"][1:]))
    assert (breakdown["rank"], breakdown["step"], breakdown["layers"]) == ("1", "2", "2")
    layers = dom.tables["wh-layers"]
    assert layers[0][:7] == ["rank", "step", "layer", "layer kind", "attention family", "block", "kernels"]
    first = kernels[0]["ts"] - start
    attention_end = max(k["ts"] + k["dur"] for k in kernels[:4]) - start
    assert layers[1] == ["1", "2", "0", "dense", "gqa_or_mha", "attention", "4", f"{first / 1e6:.3f}",
                         f"{attention_end / 1e6:.3f}", f"{(attention_end - first) / 1e6:.3f}",
                         f"{sum(k['dur'] for k in kernels[:4]) / 1e6:.3f}"]
    assert [row[5] for row in layers[1:]] == ["attention", "ffn", "attention", "ffn"]
    totals = {}
    for k in kernels:
        totals.setdefault(k["name"], []).append(k["dur"])
    ranked = sorted(totals.items(), key=lambda item: -sum(item[1]))
    assert dom.tables["wh-top"][1:] == [[name, str(len(d)), f"{sum(d) / 1e6:.3f}"] for name, d in ranked]
    assert ranked[0][0] == "RmsNorm"  # four runs a step
    assert dom.tables["wh-card"] == []  # no card before a click


def test_a_click_on_a_bar_opens_its_operator_card_with_every_field_of_its_row(timeline, warehouse_path):
    dom = timeline(1, 1, bar=5)
    kernel = timeline.written.kernels[1, 2][5]
    conn = sqlite3.connect(warehouse_path)
    conn.row_factory = sqlite3.Row
    row = conn.execute("SELECT k.*, s.path AS source_path FROM kernel AS k JOIN source AS s ON s.id = k.source_id "
                       "WHERE k.id = ?", (kernel["id"],)).fetchone()
    conn.close()
    card = dom.tables["wh-card"]
    assert card[0] == ["field", "value"]
    assert card[1:] == [[name, text_of(row[name])] for name in row.keys()]
    fields = dict(map(tuple, card[1:]))
    assert fields["global_task_id"] == str(BIG_ID + 5)  # past 2**53: the digits, not a rounded double
    assert (fields["name"], fields["stream_id"], fields["metrics"]) == ("MatMul_up", "9", '{"l2_hit_rate": 0.5}')
    assert fields["source_path"] == "/timeline/rank1/profiler_1.db"
    assert dom.texts["wh-card-hint"] == "Every field of the kernel row (ts and dur in ns):"
    # the clicked bar is marked, no other
    assert [b["data-k"] for b in dom.shapes_of("wh-picked")] == ["5"]


def test_a_click_on_the_allreduce_opens_the_card_of_its_communication_op_row(timeline, warehouse_path):
    dom = timeline(1, 1, bar=16)
    allreduce = timeline.written.operators[1, 2]
    conn = sqlite3.connect(warehouse_path)
    conn.row_factory = sqlite3.Row
    row = conn.execute("SELECT c.*, s.path AS source_path FROM communication_op AS c "
                       "JOIN source AS s ON s.id = c.source_id WHERE c.rank_id = 1 AND c.ts = ?",
                       (allreduce["ts"],)).fetchone()
    conn.close()
    assert dom.tables["wh-card"][1:] == [[name, text_of(row[name])] for name in row.keys()]
    assert dict(map(tuple, dom.tables["wh-card"][1:]))["name"] == "hcom_allReduce__2_0_1"
    assert dom.texts["wh-card-hint"] == "Every field of the HCCL operator row (ts and dur in ns):"


def test_a_click_on_a_steps_rank_in_the_steps_table_opens_that_step(timeline):
    # rows of the steps table: rank 0 steps 1 and 2, rank 1 steps 1 and 2; the fourth is rank 1's step 2
    dom = timeline(0, 0, link="#inspect-1-3")
    breakdown = dict(map(tuple, dom.tables["wh-breakdown"][1:]))
    assert (breakdown["rank"], breakdown["step"]) == ("1", "2")
    assert dom.options["wh-step"] == ["step 1", "step 2"]
    assert len(dom.shapes_of("wh-bar")) == 17
    assert float(dom.shapes_of("wh-bar")[16]["width"]) == pytest.approx(
        timeline.written.operators[1, 2]["dur"] / STEP_NS * PLOT)  # rank 1's allreduce, not rank 0's


def test_zoom_narrows_the_timeline_to_the_middle_of_the_step_and_pans(timeline):
    dom = timeline(0, 0, buttons=("wh-zoom-in", "wh-zoom-in"))  # rank 0, step 1: a quarter of the step
    kernels = activities(timeline.written, 0, 1)  # the allreduce too
    start = step_start(1)
    low, high = STEP_NS * 3 / 8, STEP_NS * 5 / 8
    assert dom.texts["wh-view"] == "375.0 us - 625.0 us from the step's start"
    inside = [i for i, k in enumerate(kernels) if k["ts"] - start <= high and k["ts"] + k["dur"] - start >= low]
    bars = dom.shapes_of("wh-bar")
    assert [int(b["data-k"]) for b in bars] == inside and 0 < len(inside) < 17
    # four times the scale: a kernel wholly in view is four times as wide as in the whole step's view
    whole = next(k for i, k in enumerate(kernels) if i in inside and k["ts"] - start >= low
                 and k["ts"] + k["dur"] - start <= high)
    bar = bars[inside.index(kernels.index(whole))]
    assert float(bar["width"]) == pytest.approx(4 * whole["dur"] / STEP_NS * PLOT)
    assert float(bar["x"]) == pytest.approx(LABEL + (whole["ts"] - start - low) / (high - low) * PLOT)
    # "later >" moves the view a quarter of its width on; the axis says where it is
    later = timeline(0, 0, buttons=("wh-zoom-in", "wh-zoom-in", "wh-right"))
    assert later.texts["wh-view"] == "437.5 us - 687.5 us from the step's start"
    low, high = low + STEP_NS / 16, high + STEP_NS / 16
    assert [int(b["data-k"]) for b in later.shapes_of("wh-bar")] == [
        i for i, k in enumerate(kernels) if k["ts"] - start <= high and k["ts"] + k["dur"] - start >= low]


def test_a_step_past_the_cap_shows_its_longest_kernels_and_says_so(timeline, monkeypatch):
    monkeypatch.setattr(detail, "MAX_KERNELS_PER_STEP", 5)
    dom = timeline(0, 1)
    kernels = timeline.written.kernels[0, 2]
    # the durations grow with the kernel's position: the five longest are the allreduce and the last four
    # kernels, in start order
    assert dom.texts["wh-note"] == "The timeline shows the 5 longest of the step's 16 kernels and 1 HCCL operators."
    bars = dom.shapes_of("wh-bar")
    start = step_start(2)
    assert [float(b["x"]) for b in bars] == pytest.approx(
        [x_of(k["ts"] - start) for k in kernels[12:] + [timeline.written.operators[0, 2]]])
    # the idle intervals and the layers still come from every kernel of the step
    assert len(dom.shapes_of("wh-gap")) == len(idle(activities(timeline.written, 0, 2), start))
    assert len(dom.tables["wh-layers"]) == 5


def test_a_step_without_device_rows_says_its_timeline_is_empty(warehouse_path, runner, tmp_path):
    build(warehouse_path)
    conn = db.connect(warehouse_path)
    with rows.bound(conn):  # step 3 of rank 0: a window in the rank db, nothing ran in it
        source = conn.execute("SELECT id FROM source WHERE rank_id = 0").fetchone()[0]
        rows.StepFactory(rank_id=0, step_id=3, start_ns=step_start(3), end_ns=step_start(3) + STEP_NS,
                         source_id=source)
    conn.close()
    steps = embedded(runner, warehouse_path, tmp_path)
    empty = next(s for s in steps if (s["rank"], s["step"]) == ("0", "3"))
    assert empty["note"] == "No kernel or HCCL operator of the step is in the warehouse: the timeline is empty."
    assert (empty["kernels"], empty["lanes"], empty["gaps"]) == ([], [], [])


def embedded(runner, warehouse_path, tmp_path) -> list[dict]:
    """The steps of the first run in the data block of the HTML report on ``warehouse_path``."""
    out = tmp_path / "report.html"
    result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="wh-steps">(.*?)</script>', page, re.S)[1])
    return data["runs"][0]["steps"]


def test_the_run_budget_is_shared_among_its_steps_and_each_step_says_what_it_lacks(
        warehouse_path, runner, tmp_path, monkeypatch):
    build(warehouse_path)
    monkeypatch.setattr(detail, "MAX_KERNELS_PER_STEP", 12)
    monkeypatch.setattr(detail, "MAX_KERNELS_PER_RUN", 20)
    steps = embedded(runner, warehouse_path, tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    # 20 over the run's 4 steps: 5 of each step's 17, rank 1's as rank 0's (none left empty)
    assert [(s["rank"], s["step"], len(s["kernels"])) for s in steps] == [
        ("0", "1", 5), ("0", "2", 5), ("1", "1", 5), ("1", "2", 5)]
    assert [s["note"] for s in steps] == 4 * [
        "The timeline shows the 5 longest of the step's 16 kernels and 1 HCCL operators."]
    # the idle intervals and top kernels still count every kernel; the page states both limits
    assert all(len(s["gaps"]) == 18 and s["top"]["rows"][0][:2] == ["RmsNorm", "4"] for s in steps)
    assert ("The timeline embeds a step&#x27;s 12 longest kernels and HCCL operators at most, 20 per run shared "
            "evenly among its steps") in page
