"""`warehouse analyze` and `warehouse report` on a factory cluster and on the real samples."""

import json
import re
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from tests.built_once import copy_of
from tests.diagnosis import cluster as synth
from warehouse import db
from warehouse.model.classify import load_rules
from warehouse.cli import cli


class Page(HTMLParser):
    """Collects the text of every table cell, the tags used and every external reference."""

    def __init__(self):
        super().__init__()
        self.tags, self.cells, self.external, self.ids = set(), [], [], set()
        self._cell = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        attrs = dict(attrs)
        self.ids.add(attrs.get("id"))
        for name in ("src", "href"):
            if attrs.get(name):
                self.external.append(attrs[name])
        if tag in ("td", "th"):
            self._cell = []

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None


def cluster_warehouse(path):
    conn = db.connect(path)
    load_rules(conn)  # kernel signatures: the layers of the step breakdown
    synth.build(conn, slow_rank=3, slow_collective=(2, 5))
    conn.close()


@pytest.fixture(scope="module")
def analysed_once(tmp_path_factory):
    """The cluster analysed once per module (``warehouse analyze``, seconds): (its file, what analyze printed)."""
    path = tmp_path_factory.mktemp("analysed") / "warehouse.db"
    cluster_warehouse(path)
    result = CliRunner().invoke(cli, ["analyze", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path, result.output


@pytest.fixture
def analysed(analysed_once, warehouse_path):
    """This test's copy of the analysed cluster at ``warehouse_path`` (it may write it); what analyze printed."""
    copy_of(analysed_once[0], warehouse_path)
    return analysed_once[1]


def test_report_html_names_the_slow_rank_and_collective_with_evidence(runner, analysed, warehouse_path, tmp_path):
    assert "slow_rank_suspected              1" in analysed  # one finding holds the rank's two steps
    out = tmp_path / "report.html"
    result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = Page()
    page.feed(out.read_text(encoding="utf-8"))
    # self-contained: the step inspector's script and data inline (no src), no reference outside the
    # page (only its own anchors)
    assert {"script", "svg", "select"} <= page.tags
    assert page.external and all(re.fullmatch(r"#finding-\d+|#inspect-1-\d+", ref) for ref in page.external)
    cells = page.cells
    assert cells[cells.index("slow rank") + 1] == "rank 3"
    assert (cells[cells.index("ranks") + 1], cells[cells.index("steps") + 1]) == ("8", "2")  # the run's own
    # every collective finding, as the findings list them (the summary is counted from the same rows)
    assert cells[cells.index("slow collective") + 1] == (
        "hcom_allReduce__2_0_1 (rank 5, step 2, high), hcom_allReduce__1_0_1 (rank 3, step 1, low)")
    # high: the slow collective and the slow rank (one finding for its two steps); low: rank 3's lateness at
    # step 1's allreduce, and 5 hot spots
    assert [cells[cells.index(f"findings {s}") + 1] for s in ("high", "medium", "low")] == ["2", "0", "6"]
    assert "hcom_allReduce__2_0_1" in out.read_text(encoding="utf-8")
    assert "/run/rank5/profiler_5.db" in cells  # the evidence row of the slow collective on rank 5
    # rank 3, step 1 of the step breakdown in the profiler's terms: 0.1 ms preparing, 2.4 ms computing,
    # the device busy until its allreduce ends 2.78 ms after the step's start; derived from the rows
    row = cells.index("3", cells.index("tail ms"))
    assert cells[row:row + 5] == ["3", "1", "2.780", "0.100", "2.400"]
    assert cells[row + 10] == "derived"
    assert {"finding-1", "run1", "run1-steps", "run1-findings", "run1-kernels", "run1-communication",
            "run1-memory"} <= page.ids
    # head / main / tail of rank 3 step 1: 100 us, 16 kernels of 150 us and 15 spacings, the rest
    assert cells[row + 11:row + 15] == ["2", "0.100", "2.475", "7.425"]
    assert "Head / main / tail (observed layers)" in out.read_text(encoding="utf-8")


def test_report_markdown_and_a_second_analyze(runner, analysed, warehouse_path, tmp_path):
    assert runner.invoke(cli, ["analyze", "--db", str(warehouse_path)]).exit_code == 0  # the second
    out = tmp_path / "report.md"
    assert runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)]).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "| slow rank | rank 3 |" in text
    assert text.count("### Finding ") == 8  # one per rule and subject (the slow rank's two steps are one)
    # each evidence row under its id, the one the findings table names
    assert re.search(r"^- E\d+\.0 `/run/rank5/profiler_5.db` \(communication_op row", text, re.MULTILINE)


def test_report_before_analyze_says_so_and_bad_suffix_is_one_line(runner, warehouse_path, tmp_path):
    cluster_warehouse(warehouse_path)
    out = tmp_path / "report.md"
    assert runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)]).exit_code == 0
    assert "never: run `warehouse analyze` first" in out.read_text(encoding="utf-8")
    result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(tmp_path / "r.pdf")])
    assert result.exit_code == 1 and "the report is written as .html, .md or .xlsx" in result.output


def test_report_on_the_real_level1_samples(runner, realdata, warehouse_path, tmp_path):
    level1 = realdata / "msinsight" / "pytorch" / "db" / "level1"
    assert runner.invoke(cli, ["ingest", str(level1), "--db", str(warehouse_path), "-q"]).exit_code == 0
    result = runner.invoke(cli, ["analyze", "--db", str(warehouse_path)])
    assert result.exit_code == 0, result.output
    conn = db.connect_readonly(warehouse_path)
    gaps = conn.execute("SELECT rank_id, step_id, severity FROM finding WHERE finding_type = 'host_bound_gaps' "
                        "ORDER BY rank_id").fetchall()
    assert gaps == [(0, 50, "medium"), (1, 50, "medium")]
    paths = {row[0] for row in conn.execute(
        "SELECT s.path FROM finding_evidence AS e JOIN source AS s ON s.id = e.input_source_id")}
    assert paths and all(p.endswith((".db",)) and "level1" in p for p in paths)
    for name in ("report.html", "report.md"):
        out = tmp_path / name
        result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)])
        assert result.exit_code == 0, result.output
    page = Page()
    page.feed((tmp_path / "report.html").read_text(encoding="utf-8"))
    row = page.cells.index("50")
    # the profiler's own step time (analysis.db: preparing 18.056 + stage 132.234 ms), and where it comes from
    assert page.cells[row - 1:row + 2] == ["0", "50", "150.289"]
    assert page.cells[row + 9] == "analysis_db"
    # the findings are no input's rows: the audits still pass after analyze
    assert runner.invoke(cli, ["check", "--db", str(warehouse_path)]).exit_code == 0


def test_findings_queries_filter_and_lead_back_to_the_inputs(runner, analysed, warehouse_path):
    result = runner.invoke(cli, ["query", "findings", "--db", str(warehouse_path), "-p", "severity=high",
                                 "--format", "json"])
    high = json.loads(result.output)
    assert [(f["finding_type"], f["rank_id"], f["evidence_rows"]) for f in high] == [
        ("communication_collective_slow", 5, 8), ("slow_rank_suspected", 3, 6)]  # its worst step's 5, step 2's first
    result = runner.invoke(cli, ["query", "finding_evidence", "--db", str(warehouse_path), "-p",
                                 f"finding_id={high[0]['id']}", "--format", "json"])
    first = json.loads(result.output)[0]
    assert (first["path"], first["kind"], first["table_name"], first["position"]) == (
        "/run/rank5/profiler_5.db", "rank_db", "communication_op", 0)
    result = runner.invoke(cli, ["query", "kernel_sequence", "--db", str(warehouse_path), "-p", "rank_id=3",
                                 "-p", "step_id=2", "--format", "json"])
    sequence = json.loads(result.output)
    assert [(k["name"], k["role"]) for k in sequence[:3]] == [
        ("RmsNorm", "compute"), ("MatMul_qkv", "matmul"), ("FusedInferAttentionScore", "attention")]
    assert len(sequence) == 16 and {k["step_id"] for k in sequence} == {2}


def test_report_writes_a_blob_as_hex_and_only_its_own_markup(runner, analysed, warehouse_path, tmp_path):
    """A kernel name stored as a BLOB shows as its hex digits (never b'...'); a name with Markdown
    and HTML in it shows as text in both reports (tests/test_escaping.py has the hostile inputs)."""
    conn = db.connect(warehouse_path)
    conn.execute("UPDATE kernel SET name = x'00ff' WHERE name = 'Swiglu'")
    conn.execute("UPDATE kernel SET name = '*Mat|Mul* <b>[x](y)</b>' WHERE name = 'MatMul_up'")
    conn.close()
    html_out, md_out = tmp_path / "report.html", tmp_path / "report.md"
    for out in (html_out, md_out):
        result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)])
        assert result.exit_code == 0, result.output
    page = Page()
    page.feed(html_out.read_text(encoding="utf-8"))
    assert "00ff" in page.cells and "*Mat|Mul* <b>[x](y)</b>" in page.cells
    assert page.tags <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "p", "table",
                         "tr", "th", "td", "a", "div", "span", "b", "small", "code", "i", "svg", "rect", "text",
                         "script", "label", "select", "button"}  # the step inspector's
    assert "b'" not in html_out.read_text(encoding="utf-8")
    markdown = md_out.read_text(encoding="utf-8")
    assert "| 00ff |" in markdown and "b'" not in markdown
    assert r"| \*Mat\|Mul\* &lt;b&gt;\[x\](y)&lt;/b&gt; |" in markdown
