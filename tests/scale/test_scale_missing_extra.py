"""Every command of the ``scale`` extra, run without it: one line naming the extra, exit code 2.

``sys.modules[name] = None`` makes ``import name`` fail as if the module were not installed.
"""

from __future__ import annotations

import sys

import pytest

from warehouse.cli import cli

INSTALL = "pip install 'ascend-warehouse[scale]'"


@pytest.mark.parametrize(
    "missing,command,message",
    (
        ("pyarrow", ["export", "--out", "{tmp}/out"], f"the Parquet export needs pyarrow: {INSTALL}"),
        ("duckdb", ["query", "step_time", "--engine", "duckdb", "--data", "{tmp}"], f"engine duckdb needs duckdb: {INSTALL}"),
        ("pyspark", ["query", "step_time", "--engine", "spark", "--data", "{tmp}"], f"engine spark needs pyspark: {INSTALL}"),
    ),
)
def test_a_missing_extra_is_one_line_and_exit_code_2(runner, warehouse_db, warehouse_path, tmp_path, monkeypatch,
                                                     missing, command, message):
    monkeypatch.setitem(sys.modules, missing, None)
    # --data is an empty folder: the extra is checked before the export is read
    args = [arg.format(tmp=tmp_path) for arg in command] + ["--db", str(warehouse_path)]
    result = runner.invoke(cli, args)
    assert (result.exit_code, result.output) == (2, f"Error: {message}\n")
    assert result.exception is None or isinstance(result.exception, SystemExit)  # no traceback
    assert not (tmp_path / "out").exists()  # the export touched nothing


def test_other_warehouse_errors_still_exit_1(runner, tmp_path):
    # db.connect_readonly raises a plain WarehouseError: the group keeps exit code 1 for it
    result = runner.invoke(cli, ["info", "--db", str(tmp_path / "none.db")])
    assert (result.exit_code, result.output) == (1, f"Error: {tmp_path / 'none.db'}: no such warehouse\n")
