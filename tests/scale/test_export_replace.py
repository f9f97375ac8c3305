"""``warehouse export --out DIR --replace`` deletes only what the export it replaces wrote.

What an export wrote is what its manifest lists (each relation's folder, partitions and files);
anything else in DIR (a user's notes, a folder of their own) survives. A manifest that is not
an export's, or that lists a path outside DIR (``..``, an absolute path, a folder that is a
symlink out), is refused in one line and nothing is deleted, inside DIR or out.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from factories import warehouse_rows

from warehouse import export
from warehouse.cli import cli


@pytest.fixture
def source(warehouse_db, warehouse_path) -> Path:
    """A small warehouse: a few kernels on two ranks (a partitioned table) and the rest empty."""
    with warehouse_rows.bound(warehouse_db):
        for rank in (0, 1):
            warehouse_rows.KernelFactory(rank_id=rank)
    return warehouse_path


def run_export(runner, source: Path, out: Path, *options: str):
    return runner.invoke(cli, ["export", "--db", str(source), "--out", str(out), *options])


def tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_replace_keeps_what_the_export_did_not_write(runner, source, tmp_path):
    out = tmp_path / "parquet"
    assert run_export(runner, source, out).exit_code == 0
    exported = tree(out)
    assert "kernel/rank_id=1/part-0.parquet" in exported
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "mine" / "deeper").mkdir(parents=True)
    (out / "mine" / "deeper" / "data.csv").write_text("a,b\n", encoding="utf-8")
    (out / "kernel" / "README").write_text("about the kernels", encoding="utf-8")

    result = run_export(runner, source, out, "--replace")
    assert result.exit_code == 0, result.output
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (out / "mine" / "deeper" / "data.csv").read_text(encoding="utf-8") == "a,b\n"
    assert (out / "kernel" / "README").read_text(encoding="utf-8") == "about the kernels"
    assert tree(out) == sorted([*exported, "notes.txt", "mine", "mine/deeper", "mine/deeper/data.csv",
                                "kernel/README"])


def test_replace_after_a_smaller_export_leaves_no_stale_partition(runner, source, warehouse_db, tmp_path):
    out = tmp_path / "parquet"
    assert run_export(runner, source, out).exit_code == 0
    warehouse_db.execute("DELETE FROM kernel WHERE rank_id = 1")
    assert run_export(runner, source, out, "--replace").exit_code == 0
    assert sorted(p.name for p in (out / "kernel").iterdir()) == ["rank_id=0"]


def plant(out: Path, tables: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"format": export.FORMAT, "format_version": export.FORMAT_VERSION, "tables": tables}
    (out / export.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


@pytest.mark.parametrize("tables,says", [
    ({"kernel": {"path": "../outside", "partitions": []}}, "../outside"),
    ({"kernel": {"path": "ok", "partitions": ["../../outside"]}}, "../../outside"),
    ({"kernel": {"path": "{victim}", "partitions": []}}, "{victim}"),  # an absolute path
    ({"kernel": {"path": "link", "partitions": []}}, "link"),  # a folder that is a symlink out
])
def test_a_manifest_listing_paths_outside_is_refused_and_deletes_nothing(runner, source, tmp_path, tables, says):
    victim = tmp_path / "outside"
    (victim / "part-0.parquet").parent.mkdir()
    (victim / "part-0.parquet").write_text("not yours", encoding="utf-8")
    (victim / "etc").write_text("keep", encoding="utf-8")
    out = tmp_path / "parquet"
    tables = json.loads(json.dumps(tables).replace("{victim}", str(victim)))
    plant(out, tables)
    os.symlink(victim, out / "link")
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    before = tree(out), tree(victim)

    result = run_export(runner, source, out, "--replace")
    assert result.exit_code == 1
    message = result.output.strip()
    assert message.startswith(f"Error: {out}/{export.MANIFEST}: ") and len(message.splitlines()) == 1
    assert says.replace("{victim}", str(victim)) in message and "outside" in message
    assert (tree(out), tree(victim)) == before


@pytest.mark.parametrize("content", ['{"tables": {}}', "not json", '{"format": "ascend-warehouse-parquet"}',
                                     '{"format": "ascend-warehouse-parquet", "tables": {}, "ingest": {}}'])
def test_a_manifest_the_export_did_not_write_is_refused(runner, source, tmp_path, content):
    out = tmp_path / "parquet"
    out.mkdir()
    (out / export.MANIFEST).write_text(content, encoding="utf-8")
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    result = run_export(runner, source, out, "--replace")
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {out}/{export.MANIFEST}: ") and "not written by `warehouse export`" \
        in result.output
    assert tree(out) == [export.MANIFEST, "notes.txt"]
