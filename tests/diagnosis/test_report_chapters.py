"""The report's step chapters of seed 004 section 10 (issue 18 item 4) in Markdown and Excel, with
exact values from tests/diagnosis/timeline.py's run: step percentiles per rank, pipeline coverage,
the step classes, and the layers and blocks of each step."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from openpyxl import load_workbook

from tests.diagnosis.timeline import STEPS, activities, build, step_start
from warehouse.cli import cli
from warehouse.report.tables import nearest_rank


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The run as written, and its report as Markdown and as a workbook: (written, markdown, workbook).
    Built, analysed and reported once per module (seconds): the tests only read them."""
    folder = tmp_path_factory.mktemp("chapters")
    warehouse_path, runner = folder / "warehouse.db", CliRunner()
    written = build(warehouse_path)
    result = runner.invoke(cli, ["analyze", "--db", str(warehouse_path)])  # the step classes and layers
    assert result.exit_code == 0, result.output
    outs = {suffix: folder / f"report{suffix}" for suffix in (".md", ".xlsx")}
    for out in outs.values():
        result = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)])
        assert result.exit_code == 0, result.output
    return written, outs[".md"].read_text(encoding="utf-8"), load_workbook(outs[".xlsx"])


def table(markdown: str, title: str) -> list[list[str]]:
    """The rows (header first) of the Markdown table under the heading ``### {title}``."""
    lines = markdown.split(f"### {title}\n", 1)[1].strip().splitlines()
    rows = []
    for line in lines[0:1] + lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def records(sheet) -> list[dict]:
    rows = list(sheet.iter_rows(values_only=True))
    return [dict(zip(rows[0], row)) for row in rows[1:]]


def durations(written, rank) -> list[int]:
    """Each step's duration on ``rank``: its start to the end of its allreduce, its last device activity."""
    return sorted(activities(written, rank, step)[-1]["ts"] + activities(written, rank, step)[-1]["dur"]
                  - step_start(step) for step in STEPS)


def test_nearest_rank_percentile():
    values = list(range(1, 11))
    assert [nearest_rank(values, f) for f in (0.5, 0.9, 0.95, 1.0, 0.01)] == [5, 9, 10, 10, 1]
    assert nearest_rank([7], 0.5) == 7


def test_step_percentiles(written):
    run, markdown, book = written
    rows = table(markdown, "Step time percentiles per rank")
    assert rows[0] == ["rank", "steps", "p50 ms", "p90 ms", "max ms", "mean ms"]
    expected = []
    for rank in (0, 1):
        d = durations(run, rank)  # two steps: p50 the shorter, p90 and max the longer
        assert d[0] < d[1]
        expected.append([str(rank), "2", f"{d[0] / 1e6:.3f}", f"{d[1] / 1e6:.3f}", f"{d[1] / 1e6:.3f}",
                         f"{sum(d) / 2e6:.3f}"])
    assert rows[1:] == expected
    sheet = book["Step percentiles"]
    assert sheet.freeze_panes == "A2"
    found = records(sheet)
    assert [(r["rank"], r["steps"]) for r in found] == [(0, 2), (1, 2)]
    for record, rank in zip(found, (0, 1)):
        d = durations(run, rank)
        assert (record["p50 ms"], record["p90 ms"], record["max ms"]) == pytest.approx(
            (d[0] / 1e6, d[1] / 1e6, d[1] / 1e6))
        assert record["mean ms"] == pytest.approx(sum(d) / 2e6)
    assert sheet["E2"].number_format == "#,##0.000"  # p50 ms (after run_id, run, rank, steps), a number


def test_pipeline_coverage(written):
    run, markdown, book = written
    kernels = run.kernels
    rows = table(markdown, "Pipeline coverage (kernel time with pipeline data; the families' shares of pipeline time)")
    assert rows[0] == ["rank", "kernels", "kernel ms", "with pipeline data", "their ms", "coverage", "cube", "vector",
                       "aic_mte", "aiv_mte", "scalar"]
    found = {r["rank"]: r for r in records(book["Pipeline coverage"])}
    for rank in (0, 1):
        mine = [k for step in STEPS for k in kernels[rank, step]]
        covered = [k for k in mine if k["bound_family"] is not None]
        assert len(covered) == len(mine) - 4  # the activation (twice a step) has no pipeline data
        total, covered_ns = sum(k["dur"] for k in mine), sum(k["dur"] for k in covered)
        cube = sum(k["cube_ns"] or 0 for k in mine)
        vector = sum(k["vector_ns"] or 0 for k in mine)
        assert rows[1 + rank] == [str(rank), "32", f"{total / 1e6:.3f}", "28", f"{covered_ns / 1e6:.3f}",
                                  f"{100 * covered_ns / total:.1f}%", f"{100 * cube / (cube + vector):.1f}%",
                                  f"{100 * vector / (cube + vector):.1f}%", "0.0%", "0.0%", "0.0%"]
        record = found[rank]
        assert (record["kernels"], record["with pipeline data"]) == (32, 28)
        assert record["kernel ms"] == pytest.approx(total / 1e6)
        assert record["coverage"] == pytest.approx(covered_ns / total)  # a ratio shown as a percentage
        assert record["cube"] == pytest.approx(cube / (cube + vector))
    assert book["Pipeline coverage"]["H2"].number_format == "0.0%"


def test_step_classes(written):
    _, markdown, book = written
    rows = table(markdown, "Step classes (steps alike kernel for kernel, shapes included; heaviest first)")
    assert rows[0] == ["rank", "class", "structure", "steps", "derived steps", "kernels per step", "wall sum ms",
                       "wall mean ms", "wall p50 ms", "wall p90 ms", "wall max ms", "bound family"]
    # per rank one class: both steps run the same kernels on the same shapes (only their durations differ);
    # a step's wall is its window (1 ms); more Cube than Vector time: bound by cube
    # (Markdown: the brackets escaped, so they show as written)
    assert rows[1:] == [
        [str(rank), rows[1 + rank][1], r"2x dense\[attention:gqa_or_mha+ffn\]", "2", "no", "16", "2.000", "1.000",
         "1.000", "1.000", "1.000", "cube"] for rank in (0, 1)]
    assert rows[1][1] == rows[2][1] and rows[1][1].startswith("step_")  # the same sequence on both ranks
    found = records(book["Step classes"])
    assert [(r["rank"], r["structure"], r["steps"], r["wall sum ms"], r["bound family"]) for r in found] == [
        (rank, "2x dense[attention:gqa_or_mha+ffn]", 2, 2.0, "cube") for rank in (0, 1)]


def test_layers_and_blocks(written):
    run, markdown, book = written
    kernels = run.kernels
    rows = table(markdown, "Layers and blocks (layers from 0; times from the step's start; block ms: its kernels' "
                           "summed time)")
    assert rows[0] == ["rank", "step", "layer", "layer kind", "attention family", "block", "kernels", "start ms",
                       "end ms", "span ms", "block ms"]
    expected = []
    for rank in (0, 1):
        for step in STEPS:
            start = step_start(step)
            for block in range(4):  # two layers: an attention block (norm .. o-proj) and an ffn block each
                mine = kernels[rank, step][4 * block:4 * block + 4]
                first, end = mine[0]["ts"] - start, max(k["ts"] + k["dur"] for k in mine) - start
                expected.append([str(rank), str(step), str(block // 2), "dense", "gqa_or_mha",
                                 ("attention", "ffn")[block % 2], "4", f"{first / 1e6:.3f}", f"{end / 1e6:.3f}",
                                 f"{(end - first) / 1e6:.3f}", f"{sum(k['dur'] for k in mine) / 1e6:.3f}"])
    assert rows[1:] == expected
    found = records(book["Layers and blocks"])
    assert len(found) == 16
    first = found[0]
    mine = kernels[0, 1][:4]
    assert (first["rank"], first["step"], first["layer"], first["block"], first["kernels"]) == (0, 1, 0, "attention", 4)
    assert first["block ms"] == pytest.approx(sum(k["dur"] for k in mine) / 1e6)
    assert first["start ms"] == pytest.approx((mine[0]["ts"] - step_start(1)) / 1e6)
