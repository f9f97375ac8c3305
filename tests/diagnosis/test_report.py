"""`warehouse analyze` and `warehouse report` on a factory cluster and on the real samples."""

from html.parser import HTMLParser

from tests.diagnosis import cluster as synth
from warehouse import db
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
    synth.build(conn, slow_rank=3, slow_collective=(2, 5))
    conn.close()


def test_report_html_names_the_slow_rank_and_collective_with_evidence(runner, warehouse_path, tmp_path):
    cluster_warehouse(warehouse_path)
    result = runner.invoke(cli, ["analyze", "--db", str(warehouse_path)])
    assert result.exit_code == 0, result.output
    assert "slow_rank_suspected              2" in result.output
    out = tmp_path / "report.html"
    result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = Page()
    page.feed(out.read_text(encoding="utf-8"))
    assert page.external == [] and "script" not in page.tags and "svg" in page.tags
    cells = page.cells
    assert cells[cells.index("slow rank") + 1] == "rank 3"
    # low: rank 3's lateness at step 1's allreduce, and 5 hot spots
    assert cells[cells.index("findings (high / medium / low)") + 1] == "3 / 0 / 6"
    assert "hcom_allReduce__2_0_1" in out.read_text(encoding="utf-8")
    assert "/run/rank5/profiler_5.db" in cells  # the evidence row of the slow collective on rank 5
    # rank 3, step 1 of the step breakdown: 10 ms, 2.4 ms of compute
    row = cells.index("3", cells.index("tail ms"))
    assert cells[row:row + 4] == ["3", "1", "10.000", "2.400"]
    assert {"finding-1", "steps", "findings", "kernels", "communication", "memory"} <= page.ids


def test_report_markdown_and_a_second_analyze(runner, warehouse_path, tmp_path):
    cluster_warehouse(warehouse_path)
    for _ in range(2):
        assert runner.invoke(cli, ["analyze", "--db", str(warehouse_path)]).exit_code == 0
    out = tmp_path / "report.md"
    assert runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)]).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "| slow rank | rank 3 |" in text
    assert text.count("### Finding ") == 9
    assert "- `/run/rank5/profiler_5.db` (communication_op row" in text


def test_report_before_analyze_says_so_and_bad_suffix_is_one_line(runner, warehouse_path, tmp_path):
    cluster_warehouse(warehouse_path)
    out = tmp_path / "report.md"
    assert runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)]).exit_code == 0
    assert "never: run `warehouse analyze` first" in out.read_text(encoding="utf-8")
    result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(tmp_path / "r.pdf")])
    assert result.exit_code == 1 and "the report is written as .html or .md" in result.output


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
        "SELECT s.path FROM finding_evidence AS e JOIN source AS s ON s.id = e.source_id")}
    assert paths and all(p.endswith((".db",)) and "level1" in p for p in paths)
    for name in ("report.html", "report.md"):
        out = tmp_path / name
        result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)])
        assert result.exit_code == 0, result.output
    page = Page()
    page.feed((tmp_path / "report.html").read_text(encoding="utf-8"))
    row = page.cells.index("50")
    assert page.cells[row - 1:row + 2] == ["0", "50", "151.889"]
