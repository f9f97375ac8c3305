"""Fuzz msprof-analyze's ``cluster_analysis.db`` through the real ingest frame.

From the factory's db (ClusterStepTraceTime, the three communication tables and the groups under
their full or their --data_simplification names, ClusterBaseInfo), or one holding
both names: a table reduced to one column or left out, a hostile cell (text, BLOB, NULL, the
64-bit extremes, infinities, a huge string, a malformed rank set or link) anywhere; then the
file's bytes: cut at every page boundary (and inside pages), flipped bytes.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories.cluster_outputs import ClusterAnalysisDbFactory
from fuzz import test_fuzz_analysis_db
from fuzz.harness import byte_mutations, examples, ingest_hostile, sqlite_bytes, table_mutations, with_cell

NAME = "cluster_analysis.db"
FOLDER = "cluster_analysis_output"
PAGE = 4096
HOSTILE_CELLS = (*test_fuzz_analysis_db.HOSTILE_CELLS, "(0, 1", "()", "rank", "stage", "-5", "1.5")
#: the cells tried in every column of the tables read (a type of each kind; the suite must stay bounded)
EVERY_COLUMN_CELLS = ("x", b"\x00\xff", None, 2**63 - 1, float("nan"), "9" * 40, "", "(0, 1")
#: the layouts the writer has: the full table names, the --data_simplification ones, both in one file
LAYOUTS = ("full", "simplified", "both")


@functools.cache
def _tables(layout: str = "full") -> dict:
    if layout == "both":
        return {**_tables("full"), **_tables("simplified")}
    with tempfile.TemporaryDirectory() as tmp:
        return ClusterAnalysisDbFactory(path=Path(tmp) / NAME, simplified=layout == "simplified",
                                        distributed_args={"data_parallel_size": 2, "world_size": 2}).tables


@functools.cache
def _original(layout: str = "full") -> bytes:
    return sqlite_bytes(_tables(layout))


@examples(60)
@given(data=st.data())
def test_hostile_cluster_analysis_db_ends_cleanly(data):
    """A cluster_analysis.db with wrong columns, wrong types or damaged bytes: a clear failure or a sound ingest."""
    layout = data.draw(st.sampled_from(LAYOUTS))
    original = _original(layout)
    mangled = data.draw(st.one_of(table_mutations(_tables(layout), HOSTILE_CELLS),
                                 byte_mutations(original, range(0, len(original), PAGE))))
    ingest_hostile(NAME, mangled, folder=FOLDER)


@pytest.mark.slow  # a sweep: every case in turn (the fast tier keeps the hypothesis test)
@pytest.mark.parametrize("name", sorted(_tables()))
@pytest.mark.parametrize("cell", EVERY_COLUMN_CELLS)
def test_a_hostile_cell_in_every_column_ends_cleanly(name, cell):
    for column in range(len(_tables()[name][1][0])):
        ingest_hostile(NAME, sqlite_bytes(with_cell(_tables(), name, 0, column, cell)), folder=FOLDER)
