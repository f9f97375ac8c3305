"""A migrated, empty warehouse file, as ``warehouse`` makes one, built once per test process.

Tests start from a copy of its bytes: running every migration again costs ~0.16 CPU-s a
warehouse (a copy ~0.01), and most tests are not about the migrations (tests/test_migrations.py is).
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from warehouse import db


@functools.cache
def empty_warehouse_bytes() -> bytes:
    """The bytes of a warehouse just migrated, its connection closed (the write-ahead log checkpointed in)."""
    with tempfile.TemporaryDirectory(prefix="empty-warehouse-") as tmp:
        path = Path(tmp) / "warehouse.db"
        db.connect(path).close()
        return path.read_bytes()
