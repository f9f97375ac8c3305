"""The roofline page in a real headless Chromium against a real ``warehouse datasette``: it opens
on an operator that has a roofline (the first profile has none, as a real msprof op profile
without block 0x0D), draws one point per roof, each roof's own (msprof op writes a point per
roof), and its table lists the same points: chart and table read the same rows."""

from __future__ import annotations

import math
import re

import pytest

from factories import warehouse_rows as rows
from tests.datasette.conftest import datasette_server
from tests.datasette.dom import Dom
from warehouse import db

# each test drives headless Chromium against a running Datasette: seconds each
pytestmark = pytest.mark.slow

#: chart, title, roof, bandwidth (TB/s), compute roof name and value (TFLOP/s), the roof's point
ROOFS = (
    (0, "Memory Unit", "GM", 1.6, "Cube FP16", 300.0, 40.0, 55.0),
    (0, "Memory Unit", "L2", 5.2, "Cube FP16", 300.0, 12.5, 50.0),
    (0, "Memory Unit", "L1", 0.0, "Cube FP16", 300.0, 90.0, 55.0),  # no bandwidth: no roof, not drawn
    (1, "Pipe", "UB", 20.0, "Vector FP32", 25.0, 0.5, 8.0),
)
#: an ECharts scatter symbol (a circle) in the SVG, placed by its transform, painted its roof's colour
SYMBOL = re.compile(r'<path d="M1 0A1 1 0 1 1 1 -0.0001" transform="matrix\([\d.]+,0,0,[\d.]+,'
                    r'(?P<x>[\d.]+),(?P<y>[\d.]+)\)" fill="(?P<fill>#[0-9a-f]{6})"')
#: a grid line of the plot: vertical (x axis) or horizontal (y axis), one a decade
GRID = re.compile(r'<path d="M(?P<x1>[\d.]+) (?P<y1>[\d.]+)L(?P<x2>[\d.]+) (?P<y2>[\d.]+)" fill="none" stroke="#dbdee4"')


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Two operator profiles: NoRoofs first (no roofline rows), then MatMulV2 with :data:`ROOFS`;
    yields the roofline page's URL."""
    path = tmp_path_factory.mktemp("datasette_roofline") / "ops.db"
    conn = db.connect(path)
    with rows.bound(conn):
        bare = rows.SourceFactory(kind="op_profile", card="NoRoofs").id
        rows.OpRunFactory(source_id=bare, name="NoRoofs")
        source = rows.SourceFactory(kind="op_profile", card="MatMulV2").id
        rows.OpRunFactory(source_id=source, name="MatMulV2")
        for chart, title, bw_name, bw, computility_name, computility, x, y in ROOFS:
            rows.RooflineFactory(source_id=source, chart_index=chart, title=title, bw_name=bw_name, bw=bw,
                                 computility_name=computility_name, computility=computility, point_x=x, point_y=y)
    conn.commit()
    conn.close()
    with datasette_server(path) as url:
        yield url.replace("/ops", "/-/warehouse/ops/roofline")


def table_points(html: str) -> list[str]:
    """The table's point cells, top to bottom."""
    return re.findall(r'<td class="wh-point">([^<]*)</td>', html)


def chart_points(html: str) -> list[tuple[str, float, float]]:
    """The chart's points read back from the SVG, left to right: (colour, log10 intensity, log10
    performance), each from its pixel place on the log axes (one grid line a decade; the intensity
    axis starts at the whole decade a decade under the smallest ridge or point, 1 here; the
    performance axis is measured from the first point)."""
    lines = [{k: float(v) for k, v in m.groupdict().items()} for m in GRID.finditer(html)]
    columns = sorted({g["x1"] for g in lines if g["x1"] == g["x2"]})
    levels = sorted({g["y1"] for g in lines if g["y1"] == g["y2"]})
    decade_x, decade_y = columns[1] - columns[0], levels[1] - levels[0]
    symbols = sorted(SYMBOL.finditer(html), key=lambda m: float(m["x"]))
    base_y = float(symbols[0]["y"])
    return [(m["fill"], (float(m["x"]) - columns[0]) / decade_x, (base_y - float(m["y"])) / decade_y)
            for m in symbols]


def test_roofline_page_opens_on_an_operator_with_a_roofline_and_charts_its_table(server, browse):
    """The first profile has no roofline: the page opens on the second. Each roof's own point, in
    the chart as in the table: GM's (40, 55) and L2's (12.5, 50), not GM's twice; the roof without
    bandwidth in neither."""
    html = browse(server)
    dom = Dom(html)
    assert dom.ready
    assert dom.status == "2 roofs for MatMulV2 (2 charts)"
    assert dom.options["source_id"] == ["NoRoofs", "MatMulV2"]  # each named once: the card says no more
    # both axes and the points say their units (msprof op's: FLOP/byte, TFLOP/s)
    assert {"MatMulV2: Memory Unit", "GM / Cube FP16", "L2 / Cube FP16", "arithmetic intensity (FLOP/byte)",
            "performance (TFLOP/s)"} <= set(dom.texts)
    assert len([p for p in dom.paths if p.get("stroke-linejoin") == "bevel"]) == 2  # the two roofs
    assert [(r["data-roof"], float(r["data-point-x"]), float(r["data-point-y"])) for r in dom.rows] == [
        ("GM", 40.0, 55.0), ("L2", 12.5, 50.0)]
    table = table_points(html)
    assert table == ["40 FLOP/byte, 55 TFLOP/s", "12.5 FLOP/byte, 50 TFLOP/s"]
    assert sorted(t for t in dom.texts if t.endswith(" TFLOP/s") and "FLOP/byte, " in t) == sorted(table)
    # where the chart puts them: L2 (orange, the second roof) left of GM (blue), each at its own place
    (left, lx, ly), (right, rx, ry) = chart_points(html)
    assert (left, right) == ("#f28e2b", "#4e79a7")
    assert (lx, rx) == (pytest.approx(math.log10(12.5), abs=0.01), pytest.approx(math.log10(40), abs=0.01))
    assert (ly, ry) == (0, pytest.approx(math.log10(55 / 50), abs=0.01))
    # attainable at each roof's own intensity: min(1.6 x 40, 300) = 64 for GM, min(5.2 x 12.5, 300) = 65 for L2
    assert {r["data-roof"]: float(r["data-efficiency"]) for r in dom.rows} == {"GM": 55 / 64, "L2": 50 / 65}
    # L2's ridge, 300 / 5.2 = 57.6923076923..., reads with four significant digits; no long fraction anywhere
    assert "<td>57.69</td>" in html and re.search(r">[^<]*\d\.\d{5,}[^<]*<", html) is None


def test_roofline_page_shows_the_chart_named_in_the_url(server, browse):
    dom = Dom(browse(server + "?chart=Pipe"))
    assert dom.ready
    assert dom.status == "1 roof for MatMulV2 (2 charts)"
    assert "MatMulV2: Pipe" in dom.texts and "0.5 FLOP/byte, 8 TFLOP/s" in dom.texts
    # attainable at intensity 0.5: min(20 x 0.5, 25) = 10; reached 8
    assert {r["data-roof"]: float(r["data-efficiency"]) for r in dom.rows} == {"UB": 0.8}


def test_roofline_page_says_when_the_chosen_operator_has_no_roofline(server, browse):
    html = browse(server + "?source_id=1")
    dom = Dom(html)
    assert dom.ready
    assert dom.status == "Operator NoRoofs has no roofline data."
    assert dom.rows == [] and SYMBOL.search(html) is None
