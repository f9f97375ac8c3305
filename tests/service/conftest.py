"""Fixtures of the service tests: a small warehouse file, the app on it, its test client."""

from __future__ import annotations

import pytest

from factories import warehouse_rows
from factories.empty_warehouse import empty_warehouse_bytes
from factories.warehouse_rows import KernelFactory, ProcessFactory, SliceFactory, SourceFactory, ThreadFactory
from service import create_app
from warehouse import db


def _write_served_rows(conn) -> int:
    """One thread of 5 slices, 3 kernels and a failed source, into ``conn``; returns the thread's id."""
    with warehouse_rows.bound(conn):
        thread = ThreadFactory(process=ProcessFactory(rank_id=0, pid="100"), tid="7", name="main")
        for i in range(5):
            SliceFactory(thread_id=thread["id"], ts=100 * i, dur=50, name=f"op{i}")
        KernelFactory(rank_id=0, name="MatMul", dur=300)
        KernelFactory(rank_id=0, name="Add", dur=200)
        KernelFactory(rank_id=1, name="Add", dur=100)
        SourceFactory(status="failed", kind=None, error="/runs/bad.json: byte 12: bad JSON")
    return thread["id"]


@pytest.fixture
def served_warehouse(warehouse_db, warehouse_path):
    """A warehouse file holding one thread of 5 slices, 3 kernels and a failed source."""
    return {"path": warehouse_path, "thread_id": _write_served_rows(warehouse_db)}


@pytest.fixture(scope="module")
def served_warehouse_once(tmp_path_factory):
    """The same warehouse, one file per module: for a server its tests share (none of them writes it)."""
    path = tmp_path_factory.mktemp("served") / "warehouse.db"
    path.write_bytes(empty_warehouse_bytes())
    conn = db.connect(path)
    thread_id = _write_served_rows(conn)
    conn.close()
    return {"path": path, "thread_id": thread_id}


@pytest.fixture
def app(served_warehouse):
    return create_app({"TESTING": True, "DATABASE": str(served_warehouse["path"])})


@pytest.fixture
def client(app):
    return app.test_client()
