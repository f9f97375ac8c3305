"""Escaped output everywhere (issue 23): the HTML, Markdown and Excel reports, CSV answers, and step ids.

A cluster of two rank dbs whose inputs carry markup (a kernel name in STRING_IDS, the run's name,
a STEP_TIME id, an evidence note, a finding's numbers, an input's path) is ingested, analysed and
reported; the HTML report must show every payload as text, use only the report's own elements
and attributes, and run no script in Chromium; the Markdown report must render to no raw HTML
and no link; the Excel report must hold each payload as a string cell. CSV answers
(``warehouse sql``, the REST API) neutralise formulas and write BLOBs as hex. A step id that is not an integer fails the rank db's ingest (migration 0010).
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from openpyxl import load_workbook

from factories.rank_db import RankDbFactory
from factories.warehouse_rows import KernelFactory, SourceFactory, bound
from service import create_app
from warehouse import db
from warehouse.cli import cli

# Chromium as the Datasette page tests drive it: their ``browse`` fixture, reused as it is
_spec = importlib.util.spec_from_file_location("datasette_page_fixtures",
                                               Path(__file__).parent / "datasette" / "conftest.py")
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)
browse = _fixtures.browse

TITLE = "Profiling diagnosis"
#: each payload renames the page if it ever runs
KERNEL = "MatMul<img src=x onerror=\"document.title='xss-kernel'\">"
RUN = "run</svg><script>document.title='xss-run'</script>"
STEP = "2<img src=x onerror=document.title='xss-step'>"
NOTE = "\"onmouseover=\"document.title='xss-note'\" autofocus onfocus=\"document.title='xss-note'\" x=\""
NUMBER_KEY = "k'><script>document.title='xss-numbers'</script>"
PATH = "/tmp/<svg onload=document.title='xss-path'>/ascend_pytorch_profiler_1.db"
MARKDOWN = ("note | [link](http://evil.example/x) ![img](http://evil.example/i.png) `tick` *em* _u_ "
            "<a href=javascript:alert(1)>a</a> www.evil.example mail@evil.example\n# heading\n- item")
PAYLOADS = (KERNEL, RUN, STEP, NOTE, NUMBER_KEY, PATH)

#: every element and attribute the HTML report writes itself
REPORT_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "p", "table", "tr", "th",
               "td", "a", "div", "span", "b", "small", "code", "i", "svg", "rect", "text",
               # the step inspector: its data block, script and controls, and what its script draws
               "script", "label", "select", "option", "button", "line"}
REPORT_ATTRIBUTES = {"lang", "charset", "id", "href", "class", "style", "xmlns", "width", "height", "role",
                     "aria-label", "x", "y", "font-size", "fill",
                     "type", "value", "data-k", "x1", "x2", "y1", "y2", "stroke"}
#: what CommonMark with GFM tables makes of the Markdown report's own markup
MARKDOWN_TAGS = {"h1", "h2", "h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td", "ul", "li", "code"}


class Elements(HTMLParser):
    """Every element with its attributes, and the page's text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> Elements:
    page = Elements()
    page.feed(html)
    page.close()
    return page


@pytest.fixture
def hostile(tmp_path, runner, warehouse_path):
    """A warehouse of two ranks whose inputs carry every payload; returns its path."""
    capture = tmp_path / "capture"
    for rank in (0, 1):
        path = capture / f"ascend_pytorch_profiler_{rank}.db"
        RankDbFactory(path=path, rank_id=rank)
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE STRING_IDS SET value = ? WHERE value = 'MatMul_1'", (KERNEL,))
        conn.close()
    result = runner.invoke(cli, ["ingest", str(capture), "--db", str(warehouse_path), "--run", RUN, "-q"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(cli, ["analyze", "--db", str(warehouse_path)]).exit_code == 0
    conn = db.connect(warehouse_path)
    # a step id written before migration 0010 refused them (the triggers are dropped to plant it)
    conn.execute("DROP TRIGGER step_step_id_integer_update")
    # (step 1: the factory's step 2 holds no device activity, so the charts leave it out)
    conn.execute("UPDATE step SET step_id = ? WHERE rank_id = 1 AND step_id = 1", (STEP,))
    conn.execute("UPDATE finding_evidence SET note = ? WHERE id = (SELECT min(id) FROM finding_evidence)",
                 (NOTE + " " + MARKDOWN,))
    conn.execute("UPDATE finding SET numbers = json_object(?, ?)", (NUMBER_KEY, NUMBER_KEY))
    conn.execute("UPDATE source SET path = ? WHERE rank_id = 1", (PATH,))
    kinds = {row[0] for row in conn.execute("SELECT finding_type FROM finding")}
    assert "kernel_hotspot" in kinds  # the kernel's name is the subject and in the message
    conn.close()
    return warehouse_path


def report(runner, warehouse, out: Path) -> str:
    result = runner.invoke(cli, ["report", "--db", str(warehouse), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_html_report_shows_every_payload_as_text_and_adds_no_element(runner, hostile, tmp_path, browse):
    html = report(runner, hostile, tmp_path / "report.html")
    page = parse(html)
    text = "".join(page.text)
    # (a) every payload is on the page as text: in a cell, an SVG label, an evidence row
    for payload in (KERNEL, RUN, NOTE, PATH):
        assert payload in text, payload
    assert "rank 1 step " + STEP in text  # the step's SVG label
    assert STEP in text and NUMBER_KEY + "=" + NUMBER_KEY in text
    assert "&lt;img src=x onerror=" in html and "&lt;/svg&gt;&lt;script&gt;" in html
    assert "&quot;onmouseover=&quot;" in html
    # (b) no element or attribute but the report's own
    tags = {tag for tag, _ in page.elements}
    attributes = {name for _, attrs in page.elements for name in attrs}
    assert tags <= REPORT_TAGS, tags - REPORT_TAGS
    assert attributes <= REPORT_ATTRIBUTES, attributes - REPORT_ATTRIBUTES
    # the page's own anchors only: a finding, or a step in the inspector by run id and row number
    assert all(re.fullmatch(r"#finding-\d+|#inspect-\d+-\d+", attrs["href"])
               for tag, attrs in page.elements if "href" in attrs)
    assert all(re.fullmatch(r"background:#[0-9a-f]{6}", attrs["style"])
               for _, attrs in page.elements if "style" in attrs)
    # (c) Chromium runs nothing: the title is still the report's, its DOM holds only the report's
    # elements and attributes (and the tbody it adds to every table)
    dom = browse((tmp_path / "report.html").as_uri())
    assert re.search(r"<title>(.*?)</title>", dom)[1] == TITLE
    rendered = parse(dom)
    assert {tag for tag, _ in rendered.elements} <= REPORT_TAGS | {"tbody"}
    assert {name for _, attrs in rendered.elements for name in attrs} <= REPORT_ATTRIBUTES
    assert all(payload in "".join(rendered.text) for payload in (KERNEL, RUN, NOTE, PATH))
    # (d) the step inspector's data: JSON without '<', '>' or '&' (no '</script>' can end it early), each
    # payload in it as written; its script shows the run's name as an option's text
    block = re.search(r'<script type="application/json" id="wh-steps">(.*?)</script>', html, re.S)[1]
    assert not set("<>&") & set(block)
    values = set(strings(json.loads(block)))
    assert {KERNEL, RUN, STEP, PATH} <= values
    assert RUN + " (run_id 1)" in "".join(rendered.text)


def strings(value):
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, dict)):
        for item in value.values() if isinstance(value, dict) else value:
            yield from strings(item)


def test_markdown_report_renders_no_html_and_no_link(runner, hostile, tmp_path):
    text = report(runner, hostile, tmp_path / "report.md")
    for line in _outside_code(text):
        assert "<" not in line and ">" not in line, line
        assert "http://" not in line and "www.evil" not in line and "@evil" not in line, line
    rendered = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(text)
    page = parse(rendered)
    tags = {tag for tag, _ in page.elements}
    assert tags <= MARKDOWN_TAGS, tags - MARKDOWN_TAGS  # no raw HTML, no a, no img, no em
    shown = "".join(page.text)
    for payload in (KERNEL, RUN, NUMBER_KEY, " ".join(MARKDOWN.splitlines())):
        assert payload in shown, payload
    # a '|' in a value never adds a cell: every row of a table has as many cells as its header
    for table in re.findall(r"<table>.*?</table>", rendered, re.S):
        rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
        assert len({len(re.findall(r"<t[hd][ >]", row)) for row in rows}) == 1
    # the evidence paths stay code spans, shown verbatim
    assert f"<code>{PATH.replace('<', '&lt;').replace('>', '&gt;')}</code>" in rendered


def test_excel_report_holds_every_payload_as_a_string_cell(runner, hostile, tmp_path):
    out = tmp_path / "report.xlsx"
    result = runner.invoke(cli, ["report", "--db", str(hostile), "-o", str(out)])
    assert result.exit_code == 0, result.output
    cells = [cell for sheet in load_workbook(out).worksheets for row in sheet.iter_rows() for cell in row]
    assert not [c.coordinate for c in cells if c.data_type in ("f", "e")]  # no formula, no error value
    texts = {c.value for c in cells if c.data_type == "s"}
    # each exactly as the input wrote it, newlines included (a spreadsheet renders no markup)
    for payload in (KERNEL, RUN, STEP, NOTE + " " + MARKDOWN, PATH):
        assert payload in texts, payload


def _outside_code(markdown: str) -> list[str]:
    """Each line with its code spans removed (they show their content verbatim, markup included)."""
    return [re.sub(r"(`+) .*? \1|(`+)[^`]*?\2", "", line) for line in markdown.splitlines()]


SQL = ("SELECT '=HYPERLINK(\"http://evil.example\",\"x\")' AS formula, -5 AS negative, -2.5 AS real, "
       "'-5' AS text_negative, '+1' AS plus, '@SUM(A1)' AS at, char(9) || 'tab' AS tab, "
       "char(13) || 'cr' AS cr, 'plain' AS plain, x'00ff10' AS blob, NULL AS missing")
NEUTRALISED = ["'=HYPERLINK(\"http://evil.example\",\"x\")", "-5", "-2.5", "'-5", "'+1", "'@SUM(A1)", "'\ttab",
               "'\rcr", "plain", "00ff10", ""]


def test_cli_sql_csv_neutralises_formulas_and_writes_blobs_as_hex(runner, warehouse_db, warehouse_path):
    result = runner.invoke(cli, ["sql", SQL, "--db", str(warehouse_path), "--format", "csv"])
    assert result.exit_code == 0, result.output
    header, row = list(csv.reader(io.StringIO(result.output)))
    assert header[0] == "formula" and row == NEUTRALISED
    as_json = json.loads(runner.invoke(cli, ["sql", SQL, "--db", str(warehouse_path), "--format", "json"]).output)
    assert as_json[0]["blob"] == "00ff10" and as_json[0]["negative"] == -5
    table = runner.invoke(cli, ["sql", SQL, "--db", str(warehouse_path), "--format", "table"]).output
    assert "00ff10" in table and "b'" not in table


def test_rest_csv_neutralises_formulas_and_json_writes_blobs_as_hex(warehouse_db, warehouse_path):
    client = create_app({"TESTING": True, "DATABASE": str(warehouse_path)}).test_client()
    response = client.post("/api/v1/sql?_format=csv", json={"sql": SQL, "params": {}})
    assert response.status_code == 200, response.get_data(as_text=True)
    header, row = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert header[-2:] == ["blob", "missing"] and row == NEUTRALISED
    answer = client.post("/api/v1/sql", json={"sql": SQL, "params": {}}).get_json()
    assert answer["rows"][0]["blob"] == "00ff10" and answer["rows"][0]["real"] == -2.5


def test_rest_named_query_csv_neutralises_a_kernel_name(warehouse_db, warehouse_path):
    with bound(warehouse_db):
        KernelFactory(rank_id=0, name="=cmd|' /C calc'!A0", dur=300)
        KernelFactory(rank_id=0, name="-2+3", dur=100)
    client = create_app({"TESTING": True, "DATABASE": str(warehouse_path)}).test_client()
    response = client.get("/api/v1/queries/top_kernels?_format=csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [r["name"] for r in rows] == ["'=cmd|' /C calc'!A0", "'-2+3"]
    assert rows[0]["total_ns"] == "300"


# --- a step id is an integer (migration 0010) ---------------------------------------------------------


def test_step_id_triggers_refuse_what_is_not_an_integer(warehouse_db):
    conn = warehouse_db
    with bound(conn):
        source = SourceFactory(kind="rank_db", rank_id=0)["id"]
    conn.execute("INSERT INTO step VALUES (0, '7', 0, 10, ?)", (source,))  # numeric text: the integer 7
    assert conn.execute("SELECT typeof(step_id), step_id FROM step").fetchall() == [("integer", 7)]
    for bad in ("<img src=x>", 2.5, "", b"\x01", None):
        with pytest.raises(sqlite3.IntegrityError, match=r"^step\.step_id must be an integer$"):
            conn.execute("INSERT INTO step VALUES (0, ?, 0, 10, ?)", (bad, source))
    with pytest.raises(sqlite3.IntegrityError, match="step.step_id must be an integer"):
        conn.execute("UPDATE step SET step_id = 'x'")
    triggers = {row[0] for row in conn.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")}
    assert {"step", "kernel", "step_trace_time", "communication_time", "communication_bandwidth",
            "communication_matrix"} <= triggers
    for table in ("kernel", "step_trace_time"):  # NULL allowed there: the sources leave it unknown
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (f"{table}_step_id_integer_insert",))
        assert "'null'" in sql.fetchone()[0]


def test_rank_db_with_a_text_step_id_fails_naming_the_file_and_the_table(runner, tmp_path, warehouse_path):
    good = tmp_path / "run" / "ascend_pytorch_profiler_0.db"
    bad = tmp_path / "run" / "ascend_pytorch_profiler_1.db"
    numeric = tmp_path / "run" / "ascend_pytorch_profiler_2.db"
    for rank, path in enumerate((good, bad, numeric)):
        RankDbFactory(path=path, rank_id=rank)
    with sqlite3.connect(bad) as conn:
        conn.execute("UPDATE STEP_TIME SET id = ? WHERE id = 2", (STEP,))
    conn.close()
    with sqlite3.connect(numeric) as conn:  # a numeric id written as text is the integer it says
        conn.execute("CREATE TABLE s AS SELECT * FROM STEP_TIME")
        conn.execute("DROP TABLE STEP_TIME")
        conn.execute("CREATE TABLE STEP_TIME (id TEXT, startNs INTEGER, endNs INTEGER)")
        conn.execute("INSERT INTO STEP_TIME SELECT CAST(id AS TEXT), startNs, endNs FROM s")
        conn.execute("DROP TABLE s")
    conn.close()
    result = runner.invoke(cli, ["ingest", str(tmp_path / "run"), "--db", str(warehouse_path)])
    assert result.exit_code == 1
    conn = db.connect(warehouse_path)
    sources = conn.execute("SELECT path, status, error FROM source ORDER BY path").fetchall()
    assert [(Path(p).name, s) for p, s, _ in sources] == [
        ("ascend_pytorch_profiler_0.db", "ok"), ("ascend_pytorch_profiler_1.db", "failed"),
        ("ascend_pytorch_profiler_2.db", "ok")]
    error = sources[1][2]
    assert "\n" not in error and error.startswith(str(bad)) and "STEP_TIME" in error
    assert "id" in error and "integer" in error
    # the failed file left no rows; the numeric text ids are integers
    steps = conn.execute("SELECT rank_id, step_id, typeof(step_id) FROM step ORDER BY rank_id, step_id").fetchall()
    assert steps == [(0, 1, "integer"), (0, 2, "integer"), (2, 1, "integer"), (2, 2, "integer")]
    conn.close()
    assert runner.invoke(cli, ["check", "--db", str(warehouse_path)]).exit_code == 0
