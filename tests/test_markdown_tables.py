"""Markdown tables keep their columns and carry no input's HTML (issue 32, case 10).

Two runs are ingested from rank dbs in folders whose names hold ``|``, a backslash and an
``<img onerror>``, with a kernel name and run names of the same kind; ``warehouse compare`` and
``warehouse report`` write Markdown, rendered by markdown-it with raw HTML allowed (as a viewer
that allows HTML would): every row of every table has its header's cells, no element but the
documents' own reaches the HTML, and each hostile value reads as written.
"""

from __future__ import annotations

import re
import sqlite3
from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from factories.rank_db import RankDbFactory
from warehouse.cli import cli

MARKUP = '<img src=x onerror="alert(1)">'
FOLDER = "cap|ture\\ " + MARKUP + " [x](javascript:alert(1)) *em*"  # one folder: no "/" in it
KERNEL = "Mat|Mul" + MARKUP + " `tick` _u_"
RUNS = ("ba|se **b**", "af|ter <b>a</b>")
#: what CommonMark with GFM tables makes of the two documents' own markup
OWN_TAGS = {"h1", "h2", "h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td", "ul", "li", "code"}


class Rendered(HTMLParser):
    """The rendered HTML's elements and text."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.text.append(data)


@pytest.fixture
def hostile(tmp_path, runner, warehouse_path):
    """Two runs of one rank whose input paths, kernel and run names hold Markdown and HTML; the
    second run's steps and kernels slower, so the comparison has evidence tables."""
    for run, slower_ns in zip(RUNS, (0, 5_000)):
        path = tmp_path / (FOLDER + str(slower_ns)) / "ascend_pytorch_profiler_0.db"
        RankDbFactory(path=path, rank_id=0)
        conn = sqlite3.connect(path)
        with conn:
            conn.execute("UPDATE STRING_IDS SET value = ? WHERE value = 'MatMul_1'", (KERNEL,))
            conn.execute("UPDATE STEP_TIME SET endNs = endNs + ?", (slower_ns,))
            conn.execute("UPDATE TASK SET endNs = endNs + ?", (slower_ns,))
        conn.close()
        result = runner.invoke(cli, ["ingest", str(path.parent), "--db", str(warehouse_path), "--run", run,
                                     "-q", "-j", "1"])
        assert result.exit_code == 0, result.output
    return warehouse_path


def render(markdown: str) -> str:
    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(markdown)


@pytest.mark.parametrize("command", ("compare", "report"))
def test_markdown_tables_keep_their_columns_and_no_input_html(hostile, runner, tmp_path, command):
    out = tmp_path / f"{command}.md"
    args = [*RUNS] if command == "compare" else []
    result = runner.invoke(cli, [command, "--db", str(hostile), *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = render(out.read_text(encoding="utf-8"))
    tables = re.findall(r"<table>.*?</table>", html, re.S)
    assert tables
    for table in tables:
        counts = [len(re.findall(r"<t[hd][ >]", row)) for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)]
        assert len(set(counts)) == 1, counts  # a '|' in a value never adds a cell
    page = Rendered(html)
    assert page.tags <= OWN_TAGS, page.tags - OWN_TAGS  # no img, no b, no a, no em from an input
    text = "".join(page.text)
    assert KERNEL in text and all(run in text for run in RUNS)
    if command == "compare":  # each evidence row names its input in the input column, the path as written
        inputs = [cells[1] for cells in _rows(html) if cells[0] in RUNS]
        assert inputs and all(re.fullmatch(r".*/" + re.escape(FOLDER) + r"(0|5000)/ascend_pytorch_profiler_0\.db", path)
                              for path in inputs), inputs


def _rows(html: str) -> list[list[str]]:
    """Each table row of ``html`` as its cells' texts."""
    return [["".join(Rendered(cell).text) for cell in re.findall(r"<t[hd]>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)]
