"""Fuzz the rank db (``ascend_pytorch_profiler_{rank}.db``) through the real ingest frame.

From the factory's db of every table: a table with the right name but wrong columns (one
dropped, renamed, every column TEXT, a single column, extra columns), a wrong-typed cell
(text, BLOB, NULL, the 64-bit extremes, a huge string) anywhere, a table left out; then
the file's bytes: cut at every page boundary (and inside pages), flipped bytes.
"""

from __future__ import annotations

import functools
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories.rank_db import build_tables
from fuzz.harness import byte_mutations, examples, ingest_hostile, one_of_values, sqlite_bytes, with_cell

NAME = "ascend_pytorch_profiler_0.db"
PAGE = 4096
HOSTILE_CELLS = ("x", b"\x00\xff", None, 2**63 - 1, -(2**63), -1, 1e308, float("inf"), "9" * 40, "x" * 100_000, "")


@functools.cache
def _tables() -> dict:
    return build_tables(rank_id=0, device_id=0, ts0=1_736_410_576_000_000_000, rank_in_map=True,
                        block_columns="blockDim")


def _columns(ddl: str) -> list[str]:
    return [part.strip() for part in ddl.split(",")]


@functools.cache
def _original() -> bytes:
    return sqlite_bytes(_tables())


def _reshaped(name: str, how: str, column: int) -> dict:
    """The tables with ``name`` given the wrong columns in the way ``how`` says."""
    tables = dict(_tables())
    columns, rows = _columns(tables[name][0]), tables[name][1]
    column %= len(columns)
    if how == "drop" and len(columns) > 1:
        columns = columns[:column] + columns[column + 1:]
        rows = [row[:column] + row[column + 1:] for row in rows]
    elif how == "rename":
        columns[column] = f"renamed_{column} {columns[column].split()[-1]}"
    elif how == "text":
        columns = [f"{c.split()[0]} TEXT" for c in columns]
        rows = [tuple("x" for _ in row) for row in rows]
    elif how == "single":
        columns, rows = ["x TEXT"], [("x",) for _ in rows]
    elif how == "extra":
        columns = columns + ["extra1 TEXT", "extra2 BLOB"]
        rows = [row + ("e", b"\x00") for row in rows]
    elif how == "omit":
        del tables[name]
        return tables
    tables[name] = (", ".join(columns), rows)
    return tables


def _retyped(name: str, row: int, column: int, value) -> dict:
    return with_cell(_tables(), name, row, column, value)


def table_mutations() -> st.SearchStrategy[bytes]:
    names = st.sampled_from(sorted(_tables()))
    reshaped = st.tuples(names, st.sampled_from(["drop", "rename", "text", "single", "extra", "omit"]),
                         st.integers(0, 40)).map(lambda t: _reshaped(*t))
    retyped = st.tuples(names, st.integers(0, 40), st.integers(0, 40), one_of_values(HOSTILE_CELLS)).map(
        lambda t: _retyped(*t))
    return st.one_of(reshaped, retyped).map(_writable).filter(bool)


def _writable(tables: dict) -> bytes:
    """The db's bytes, or b"" when SQLite refuses the cell (text in an INTEGER PRIMARY KEY)."""
    try:
        return sqlite_bytes(tables)
    except sqlite3.IntegrityError:
        return b""


@pytest.mark.slow
@examples(80)
@given(data=st.data())
def test_hostile_rank_db_ends_cleanly(data):
    """A rank db with wrong columns, wrong types or damaged bytes: a clear failure or a sound ingest."""
    original = _original()
    pages = range(0, len(original), PAGE)
    mangled = data.draw(st.one_of(table_mutations(), byte_mutations(original, pages)))
    ingest_hostile(NAME, mangled)


@pytest.mark.parametrize("name", sorted(_tables()))
def test_every_table_with_the_right_name_and_wrong_columns_ends_cleanly(name):
    """Each table in turn reduced to one TEXT column ``x``."""
    ingest_hostile(NAME, sqlite_bytes(_reshaped(name, "single", 0)))
