"""The Spark ingest's run-wide views typed as the export types them (warehouse/engines/spark_views.py):
a column computed by an expression that holds no value is float64, whatever Spark inferred; the files
are rewritten so, partition folders and other columns untouched."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from warehouse.engines.spark_views import _valueless_as_float

COLUMNS = [
    {"name": "run_id", "sqlite_type": "INTEGER", "type": "int64"},
    {"name": "rank_id", "sqlite_type": None, "type": "int64"},  # the partition key: in the folder names
    {"name": "dp_ranks", "sqlite_type": None, "type": "string"},  # no value in any file
    {"name": "peer_key", "sqlite_type": None, "type": "string"},  # a value in one file
    {"name": "label", "sqlite_type": "TEXT", "type": "string"},  # declared: stays string, empty or not
]


def _write(folder, rank: int, peer_key: str | None) -> None:
    part = folder / f"rank_id={rank}"
    part.mkdir(parents=True)
    table = pa.table({"run_id": pa.array([1, 1], pa.int64()), "dp_ranks": pa.array([None, None], pa.string()),
                      "peer_key": pa.array([peer_key, None], pa.string()), "label": pa.array([None, None], pa.string())})
    pq.write_table(table, part / "part-0.parquet")


def test_a_valueless_untyped_column_becomes_float64_in_every_file(tmp_path):
    _write(tmp_path, 0, None)
    _write(tmp_path, 1, "stage 0")
    columns = _valueless_as_float(tmp_path, COLUMNS)
    assert [c["type"] for c in columns] == ["int64", "int64", "float64", "string", "string"]
    for rank, peer_key in ((0, None), (1, "stage 0")):
        table = pq.read_table(tmp_path / f"rank_id={rank}" / "part-0.parquet")
        assert table.schema.field("dp_ranks").type == pa.float64()
        assert table.schema.field("label").type == pa.string()
        assert table.column("dp_ranks").to_pylist() == [None, None]
        assert table.column("peer_key").to_pylist() == [peer_key, None]
        assert table.column("run_id").to_pylist() == [1, 1]


def test_columns_with_values_leave_the_files_as_written(tmp_path):
    _write(tmp_path, 0, "stage 0")
    path = tmp_path / "rank_id=0" / "part-0.parquet"
    before = path.read_bytes()
    typed = [c for c in COLUMNS if c["name"] != "dp_ranks"]
    assert _valueless_as_float(tmp_path, typed) == typed
    assert path.read_bytes() == before
