"""Fuzz torch_npu's ``analysis.db`` through the real ingest frame.

From the factory's db of the four tables: a table reduced to one column or left out, a
hostile cell (text, BLOB, NULL, the 64-bit extremes, infinities, a huge string) anywhere;
then the file's bytes: cut at every page boundary (and inside pages), flipped bytes.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories.analysis_db import AnalysisDbFactory
from fuzz.harness import byte_mutations, examples, ingest_hostile, sqlite_bytes, table_mutations, with_cell

NAME = "analysis.db"
PAGE = 4096
HOSTILE_CELLS = ("x", b"\x00\xff", None, 2**63 - 1, -(2**63), -1, 1e308, float("inf"), float("nan"), "9" * 40,
                 "x" * 100_000, "", "step", "1-2-3")


@functools.cache
def _tables() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        return AnalysisDbFactory(path=Path(tmp) / NAME).tables


@functools.cache
def _original() -> bytes:
    return sqlite_bytes(_tables())


@examples(60)
@given(data=st.data())
def test_hostile_analysis_db_ends_cleanly(data):
    """An analysis.db with wrong columns, wrong types or damaged bytes: a clear failure or a sound ingest."""
    original = _original()
    mangled = data.draw(st.one_of(table_mutations(_tables(), HOSTILE_CELLS),
                                 byte_mutations(original, range(0, len(original), PAGE))))
    ingest_hostile(NAME, mangled)


@pytest.mark.slow  # a sweep: every case in turn (the fast tier keeps the hypothesis test)
@pytest.mark.parametrize("name", sorted(_tables()))
@pytest.mark.parametrize("cell", HOSTILE_CELLS)
def test_a_hostile_cell_in_every_column_ends_cleanly(name, cell):
    for column in range(len(_tables()[name][1][0])):
        ingest_hostile(NAME, sqlite_bytes(with_cell(_tables(), name, 0, column, cell)))
