"""Shared fixtures: a migrated warehouse on disk, the CLI runner, the real samples."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from warehouse import db

REPO = Path(__file__).resolve().parent.parent


def _find_realdata() -> Path:
    candidates = [os.environ.get("WAREHOUSE_REALDATA"), REPO.parent / "shared" / "realdata", "/work/shared/realdata"]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    raise RuntimeError("the real samples (shared/realdata) are not beside the repository; set WAREHOUSE_REALDATA")


@pytest.fixture(scope="session")
def realdata() -> Path:
    """The folder of real profiler outputs (never modified by tests)."""
    return _find_realdata()


@pytest.fixture
def warehouse_path(tmp_path) -> Path:
    return tmp_path / "warehouse.db"


@pytest.fixture
def warehouse_db(warehouse_path):
    """A migrated, empty warehouse on disk (autocommit connection)."""
    conn = db.connect(warehouse_path)
    yield conn
    conn.close()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
