"""Fixtures of the named-query tests: a migrated warehouse the row factories write into."""

from __future__ import annotations

import pytest

from factories import warehouse_rows
from warehouse import queries


@pytest.fixture
def rows(warehouse_db):
    """The migrated warehouse, bound to the factories of tests/factories/warehouse_rows.py."""
    with warehouse_rows.bound(warehouse_db):
        yield warehouse_db


@pytest.fixture
def run(rows):
    """``run(name, **params)``: the query's rows as dicts, parameters passed as text as HTTP passes them."""

    def run_query(name: str, **params) -> list[dict]:
        columns, result = queries.get(name).run(rows, {k: str(v) for k, v in params.items()})
        return [dict(zip(columns, row)) for row in result]

    return run_query
