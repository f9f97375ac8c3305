"""Issue 23 in Datasette: CSV answers with formula cells neutralised, a cap on one answer's bytes, and
SQLite's heap bounded, in plain ``datasette`` (the plugin) as in ``warehouse datasette``."""

from __future__ import annotations

import asyncio
import csv
import io
import urllib.error
import urllib.parse
import urllib.request

import pytest
from datasette.app import Datasette

from datasette_plugins.csv_guard import RecordRewriter, neutralise
from tests.datasette.conftest import datasette_server
from warehouse import db

#: text cells a spreadsheet would run, and what they must become
FORMULAS = {
    '=HYPERLINK("http://evil.example","click")': '\'=HYPERLINK("http://evil.example","click")',
    "+cmd|' /C calc'!A0": "'+cmd|' /C calc'!A0",
    "-2+3": "'-2+3",
    "@SUM(A1:A9)": "'@SUM(A1:A9)",
    "\tfoo": "'\tfoo",
    "\r=1": "'\r=1",
}
#: text cells left as they are: numbers (negative, signed, exponent) and ordinary text
KEPT = ["-5", "+1.5e3", "-.5", "plain, \"quoted\"\nover two lines", "a=b", "kernel-name", "ünïcødé →"]


@pytest.fixture
def notes_db(tmp_path):
    """A warehouse with one extra table of hostile and ordinary text cells beside numbers."""
    path = tmp_path / "notes.db"
    conn = db.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT, n INTEGER, x REAL)")
    cells = [*FORMULAS, *KEPT]
    conn.executemany("INSERT INTO notes (text, n, x) VALUES (?, ?, ?)",
                     [(cell, -i, -i / 2) for i, cell in enumerate(cells)])
    conn.close()
    return path


def _expected_texts() -> list[str]:
    return [*FORMULAS.values(), *KEPT]


def test_neutralise_quotes_formulas_and_keeps_numbers():
    assert {cell: neutralise(cell) for cell in FORMULAS} == FORMULAS
    assert [neutralise(cell) for cell in KEPT] == KEPT


def test_records_split_anywhere_are_rewritten_whole():
    text = 'a,b\r\n"=1,\n2",-3\r\n"x""y",ü\r\n@z,w'
    rewriter = RecordRewriter()
    data = text.encode()
    # one byte at a time: a quoted newline, a doubled quote and a two-byte character all cross chunk ends
    out = b"".join(rewriter.feed(data[i:i + 1]) for i in range(len(data))) + rewriter.feed(b"", final=True)
    assert list(csv.reader(io.StringIO(out.decode(), newline=""))) == [
        ["a", "b"], ["'=1,\n2", "-3"], ['x"y', "ü"], ["'@z", "w"]]
    assert out.decode().startswith('a,b\r\n"\'=1,\n2",-3\r\n')


@pytest.mark.parametrize("path", ["/notes/notes.csv?_size=max", "/notes/notes.csv?_size=max&_dl=1",
                                  "/notes.csv?sql=select+text,+n,+x+from+notes+order+by+id",
                                  "/notes.csv?sql=select+text,+n,+x+from+notes+order+by+id&_stream=1"])
def test_plain_datasette_csv_neutralises_formulas(notes_db, path):
    async def fetch():
        return await Datasette([str(notes_db)]).client.get(path)

    response = asyncio.run(fetch())
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.text, newline="")))
    assert [row["text"] for row in rows] == _expected_texts()
    assert [row["n"] for row in rows] == [str(-i) for i in range(len(rows))]  # numbers stay numbers
    assert rows[3]["x"] == "-1.5"


def test_json_answers_keep_the_text_as_stored(notes_db):
    async def fetch():
        return await Datasette([str(notes_db)]).client.get("/notes.json?sql=select+text+from+notes+order+by+id&_shape=array")

    assert [row["text"] for row in asyncio.run(fetch()).json()] == [*FORMULAS, *KEPT]


def test_an_answer_over_the_byte_cap_is_the_query_error(notes_db, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_MAX_ANSWER_BYTES", "3000000")
    many = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) "
            "SELECT zeroblob(100000) AS b FROM n")
    small = many.replace("100000", "1000")

    async def fetch(sql):
        return await Datasette([str(notes_db)]).client.get("/notes.json?" + urllib.parse.urlencode({"sql": sql}))

    refused = asyncio.run(fetch(many))
    assert refused.status_code == 400
    assert refused.json()["error"] == ("the answer is over the limit of 3000000 bytes (WAREHOUSE_MAX_ANSWER_BYTES): "
                                       "ask for fewer rows or smaller values")
    answered = asyncio.run(fetch(small))  # 100 KB: under the cap, and the count starts again per query
    assert answered.status_code == 200 and len(answered.json()["rows"]) == 100


def _peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_served_datasette_bounds_wide_rows_and_streams_neutralised_csv(notes_db):
    # a row of 200 values of 16 MB: 3.2 GB in SQLite, 6.4 GB with Python's copies, without the heap limit
    wide = "SELECT " + ", ".join(f"zeroblob(16000000) AS c{i}" for i in range(200))
    with datasette_server(notes_db, env={"WAREHOUSE_MAX_SQLITE_HEAP_BYTES": str(300 * 2**20)}) as url:
        status, text = _get(url + ".json?" + urllib.parse.urlencode({"sql": wide}))
        assert status == 413
        assert text.strip() == ("the answer does not fit in the memory SQLite may use "
                                "(WAREHOUSE_MAX_SQLITE_HEAP_BYTES): ask for fewer or smaller values")
        assert _peak_rss_mb(url.pid) < 900
        status, text = _get(url + "/notes.csv?_stream=1")  # streamed by uvicorn in chunks
        assert status == 200
        assert [row["text"] for row in csv.DictReader(io.StringIO(text, newline=""))] == _expected_texts()
        status, text = _get(url + ".json?sql=select+1+as+one&_shape=array")  # still serving
        assert (status, text) == (200, '[{"one": 1}]')
