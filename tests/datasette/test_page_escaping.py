"""Every text a picture page shows from an input is shown as text (issue 32, case 3).

Markup is planted in every text column the pages show, in the inputs themselves (a rank db's
device id, kernel and memory component names; a trace's process, thread, slice and category
names; an operator profile's name, source file, source lines, cores and roofline names; the
runs' names; and a URL's argument, which the page shell hands to its script), the inputs are
ingested by ``warehouse ingest`` and each page is opened in headless Chromium with every tooltip
of its chart opened in turn. A payload that runs sets
``window.__xss`` to its tag; the test asserts none did, that no element of a payload is on the
page, and that each payload is on the page as text.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.parse

import pytest
from click.testing import CliRunner

from factories import op_profile, trace_json
from factories.rank_db import RankDbFactory
from tests.datasette.conftest import datasette_server
from tests.datasette.devtools import open_page
from warehouse.cli import cli


def payload(tag: str) -> str:
    """Text that breaks out of a quoted attribute, then adds an image and a script that set ``window.__xss``."""
    return (f"{tag}\"'><img src=x onerror=\"window.__xss='{tag}'\">"
            f"<script>window.__xss='{tag}-script'</script>")


RUN, TRACE_RUN, OP_RUN = payload("run"), payload("trace-run"), payload("op-run")
DEVICE, KERNEL, COMPONENT = payload("device"), payload("kernel"), payload("component")
PROCESS, THREAD, SLICE, CATEGORY = payload("process"), payload("thread"), payload("slice"), payload("category")
PID, TID = payload("pid"), payload("tid")  # a trace's pid and tid are text (thread.tid, process.pid)
#: a URL's argument: the page shell hands every argument to its script (window.WAREHOUSE.args)
ARGUMENT = "</script>" + payload("argument")
OPERATOR, FILE, LINE, CORE = payload("operator"), "/src/" + payload("file"), payload("line"), payload("core")
CHART, ROOF, COMPUTE = payload("chart"), payload("roof"), payload("compute")

#: each page (with its URL arguments) and the payloads it must show as text
PAGES = (
    ("memory", "", (DEVICE, COMPONENT, RUN)),
    # no such component: nothing to draw, the status line names it
    ("memory", "?component=" + urllib.parse.quote(ARGUMENT), (ARGUMENT,)),
    ("steps", "", (RUN,)),
    ("trend", "", (RUN,)),
    ("trend", "?show=kernels", (KERNEL, RUN)),
    ("roofline", "", (OPERATOR, CHART, ROOF, COMPUTE)),
    ("hotspots", "", (OPERATOR, FILE, LINE, CORE)),
    # the trace's thread (the page opens on a rank's busiest thread otherwise)
    ("timeline", "?thread_id={thread_id}", (PROCESS, THREAD, SLICE, CATEGORY, PID, TID)),
)

#: JavaScript: wait until the page says it is drawn and every image has loaded or failed (an
#: image's onerror has run by then)
SETTLE = """new Promise(function (resolve, reject) {
  var polls = 0;
  (function poll() {
    if (document.body && document.body.getAttribute("data-wh-ready") === "1") {
      Promise.all(Array.from(document.images).map(function (img) {
        return img.complete ? null : new Promise(function (done) {
          img.addEventListener("load", done); img.addEventListener("error", done);
        });
      })).then(function () { resolve(true); });
    } else if (++polls > 600) { reject(new Error("the page never said it was drawn")); }
    else { setTimeout(poll, 50); }
  })();
})"""

#: JavaScript: open the tooltip of every data item of every series (at most 40 per series),
#: gathering the chart's text (its SVG labels and the tooltip) after each
HOVER = """(function () {
  var element = document.getElementById("wh-chart");
  var chart = echarts.getInstanceByDom(element);
  var texts = [], shown = 0;
  if (!chart) return { texts: texts, shown: shown };
  chart.getOption().series.forEach(function (series, seriesIndex) {
    var count = Math.min((series.data || []).length, 40);
    for (var dataIndex = 0; dataIndex < count; dataIndex++) {
      chart.dispatchAction({ type: "showTip", seriesIndex: seriesIndex, dataIndex: dataIndex });
      texts.push(element.textContent);
      shown += 1;
    }
  });
  return { texts: texts, shown: shown };
})()"""

#: JavaScript: what a payload would have left, and the page's text where the pages put input text
READ = """({
  xss: window.__xss === undefined ? null : String(window.__xss),
  planted: document.querySelectorAll("img, [onerror], #wh-summary script, #wh-chart script").length,
  text: [document.getElementById("wh-summary").textContent, document.getElementById("wh-status").textContent,
         document.getElementById("wh-chart").textContent]
    .concat(Array.from(document.querySelectorAll("option")).map(function (o) { return o.textContent; })).join("\\n"),
})"""


def _rank_db(path, rank: int) -> None:
    """A rank db whose device id, one kernel name and one memory component are markup."""
    RankDbFactory(path=path, rank_id=rank)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE MEMORY_RECORD SET deviceId = ?", (DEVICE,))
        conn.execute("UPDATE STRING_IDS SET value = ? WHERE value = 'MatMul_1'", (KERNEL,))
        conn.execute("UPDATE STRING_IDS SET value = ? WHERE value = 'GE'", (COMPONENT,))
    conn.close()


def _trace(path) -> None:
    """A trace whose pid, tid, process, thread, slice and category names are markup."""
    own = {"pid": PID, "tid": TID}
    metadata = {"ph": "M", "ts": None, "dur": None, "cat": None, **own}
    trace_json.TraceFileFactory(path=path, events=[
        trace_json.EventFactory(name="process_name", args={"name": PROCESS}, **metadata),
        trace_json.EventFactory(name="thread_name", args={"name": THREAD}, **metadata),
        trace_json.EventFactory(name=SLICE, cat=CATEGORY, **own),
        trace_json.EventFactory(name=SLICE, cat=CATEGORY, **own),
    ])


def _op_profile(path) -> None:
    """An operator profile whose name, source file, a source line, a core and roofline names are markup."""
    cores = [CORE, op_profile.CORES[1]]
    blocks = op_profile.every_block()
    blocks[0] = op_profile.BlockFactory(type=0x01, doc=None, path=FILE,
                                        payload=("int x;\n" + LINE + "\nint y;\nint z;\n").encode())
    blocks[3] = op_profile.json_block(0x03, op_profile.FilesApiFactory(Cores=cores, Files=[{"Source": FILE, "Lines": [
        {"Line": 2, "Cycles": [100, 7], "Instructions Executed": [10, 1],
         "Address Range": [["0x1000", "0x1010"]], "L2Cache Hit Rate": ["50%", "NA"], "Hidden Note": "kept"}]}]))
    blocks[5] = op_profile.json_block(0x05, op_profile.BaseInfoFactory(name=OPERATOR))
    roof = {"bw": 1600.5, "bw_name": ROOF, "computility": 320.0, "computility_name": COMPUTE, "point": [12.5, 100.25]}
    blocks[13] = op_profile.json_block(0x0D, op_profile.RooflineFactory(
        multiple_rooflines=[{"title": CHART, "rooflines": [roof]}]))
    op_profile.OpProfileFactory(path=path, blocks=blocks)


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory):
    """``warehouse datasette`` on a warehouse ingested from inputs carrying every payload."""
    root = tmp_path_factory.mktemp("hostile_pages")
    warehouse = root / "hostile.db"
    for rank in (0, 1):
        _rank_db(root / "capture" / f"ascend_pytorch_profiler_{rank}.db", rank)
    (root / "trace").mkdir()
    _trace(root / "trace" / "trace_view.json")
    (root / "op").mkdir()
    _op_profile(root / "op" / "visualize_data.bin")

    for folder, run in (("capture", RUN), ("trace", TRACE_RUN), ("op", OP_RUN)):
        result = CliRunner().invoke(cli, ["ingest", str(root / folder), "--db", str(warehouse), "--run", run,
                                          "-q", "-j", "1"])
        assert result.exit_code == 0, result.output
    conn = sqlite3.connect(warehouse)
    (thread_id,) = conn.execute("SELECT id FROM thread WHERE name = ?", (THREAD,)).fetchone()
    conn.close()
    with datasette_server(warehouse) as url:
        yield url, {"thread_id": thread_id}


@pytest.fixture(scope="module")
def pages(hostile_server, tmp_path_factory):
    """Each page's reading: the tooltips opened, then what a payload left and the page's text."""
    url, ids = hostile_server
    base, _, database = url.rpartition("/")
    readings = {}
    with open_page(tmp_path_factory.mktemp("chromium")) as page:
        for slug, query, _ in PAGES:
            page.open(f"{base}/-/warehouse/{urllib.parse.quote(database)}/{slug}{query.format(**ids)}")
            page.evaluate(SETTLE)
            hovered = page.evaluate(HOVER)
            page.evaluate(SETTLE)
            reading = page.evaluate(READ)
            reading["text"] += "\n".join(hovered["texts"])
            reading["shown"] = hovered["shown"]
            readings[slug + query] = reading
    return readings


@pytest.mark.slow
@pytest.mark.parametrize("slug,query,expected", PAGES, ids=[slug + query for slug, query, _ in PAGES])
def test_page_shows_every_planted_text_as_text_and_runs_none(pages, slug, query, expected):
    reading = pages[slug + query]
    assert reading["xss"] is None, reading["xss"]  # no payload ran
    assert reading["planted"] == 0  # no element of a payload is on the page
    assert reading["shown"] > 0 or ARGUMENT in expected  # the chart had tooltips to open
    missing = [value for value in expected if value not in reading["text"]]
    assert not missing, json.dumps(missing)


def test_page_scripts_write_html_only_through_wh_html():
    """The class, not the instance: no page script writes HTML but through WH.summary and WH.tooltip."""
    from datasette_plugins.pages import STATIC_DIR

    sinks = ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "createContextualFragment")
    for script in sorted(STATIC_DIR.glob("*.js")):
        if script.name == "echarts.min.js":
            continue
        text = script.read_text(encoding="utf-8")
        used = [sink for sink in sinks if sink in text]
        if script.name == "warehouse.js":
            assert used == ["innerHTML"] and text.count("innerHTML") == 1, used  # WH.summary's, of WH.html only
        else:
            assert not used, (script.name, used)
            # an ECharts formatter's answer is HTML in a tooltip: each goes through WH.tooltip
            assert text.count("formatter: function") == 0, script.name
