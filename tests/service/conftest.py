"""Fixtures of the service tests: a small warehouse file, the app on it, its test client."""

from __future__ import annotations

import pytest

from factories import warehouse_rows
from factories.warehouse_rows import KernelFactory, ProcessFactory, SliceFactory, SourceFactory, ThreadFactory
from service import create_app


@pytest.fixture
def served_warehouse(warehouse_db, warehouse_path):
    """A warehouse file holding one thread of 5 slices, 3 kernels and a failed source."""
    with warehouse_rows.bound(warehouse_db):
        thread = ThreadFactory(process=ProcessFactory(rank_id=0, pid="100"), tid="7", name="main")
        for i in range(5):
            SliceFactory(thread_id=thread["id"], ts=100 * i, dur=50, name=f"op{i}")
        KernelFactory(rank_id=0, name="MatMul", dur=300)
        KernelFactory(rank_id=0, name="Add", dur=200)
        KernelFactory(rank_id=1, name="Add", dur=100)
        SourceFactory(status="failed", kind=None, error="/runs/bad.json: byte 12: bad JSON")
    return {"path": warehouse_path, "thread_id": thread["id"]}


@pytest.fixture
def app(served_warehouse):
    return create_app({"TESTING": True, "DATABASE": str(served_warehouse["path"])})


@pytest.fixture
def client(app):
    return app.test_client()
