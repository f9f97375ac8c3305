"""The check every hostile MindSpore raw file's test makes: one clear failure, no rows left."""

from __future__ import annotations

from pathlib import Path

from warehouse.ingest import ingest_file


def assert_fails_naming(conn, path: Path, data: bytes, reason: str, *tables: str) -> None:
    """Writing ``data`` to ``path`` and ingesting it fails with an error that starts with the file and
    ``reason`` (the byte offset), and ``tables`` hold no rows."""
    path.write_bytes(data)
    result = ingest_file(conn, path)
    assert result.status == "failed" and result.error.startswith(f"{path}: {reason}"), result.error
    for table in tables:
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
