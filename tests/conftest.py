"""Shared fixtures: a migrated warehouse on disk, the CLI runner, the real samples."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from factories.empty_warehouse import empty_warehouse_bytes
from warehouse import db

REPO = Path(__file__).resolve().parent.parent

# Hypothesis profiles, registered before pytest's --hypothesis-profile option is read. Both are
# seeded (derandomized: each test draws its examples from a seed derived from the test) and keep no
# example database, so every run is reproducible. "fuzz" (loaded by default, and by the README's test
# command) gives every fuzz test its full budget of examples; "quick", the fast tier's
# (`--hypothesis-profile quick`), a sixth of it (tests/fuzz/harness.py: examples). A per-example
# deadline, and fuzz.harness.bounded's alarm and address-space limit, catch hangs and runaways.
FUZZ_PROFILE = {
    "derandomize": True,
    "database": None,
    "deadline": timedelta(seconds=10),
    "print_blob": True,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
}
settings.register_profile("fuzz", max_examples=30, **FUZZ_PROFILE)
settings.register_profile("quick", max_examples=5, **FUZZ_PROFILE)
settings.load_profile("fuzz")


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
    """A migrated, empty warehouse on disk (autocommit connection): a copy of this process's first."""
    warehouse_path.write_bytes(empty_warehouse_bytes())
    conn = db.connect(warehouse_path)
    yield conn
    conn.close()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
