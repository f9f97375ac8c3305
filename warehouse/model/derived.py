"""What is derived from the inputs' rows, kept true as inputs come and go.

The ingest frame calls :func:`after_rows` once a source wrote an input's rows (in the
process that ran the source: a worker for a part, whose nested and classified rows are then
copied in), then :func:`after_source`. Ranks need nothing here: ``rank`` is a view over the
inputs. Slices written unnested are nested; kernels are classified; the names the rows use are
interned and counted (``name_use``, for the name search); a run's facts (start, profiler) are refreshed; findings
drawn from an input's rows are dropped when those rows are replaced, so no finding ever
points at a deleted slice or kernel.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

from warehouse import limits, sqlfiles
from warehouse.model import nesting
from warehouse.model.classify import classify_source

HERE = Path(__file__).parent
RUN_FACTS_SQL = sqlfiles.text(HERE / "run_facts.sql")
NAME_USE_SQL = sqlfiles.statements(HERE / "name_use.sql")
SLICE_NAME_COUNT_SQL = sqlfiles.text(HERE / "slice_name_count.sql")
KERNEL_NAME_COUNT_SQL = sqlfiles.text(HERE / "kernel_name_count.sql")
API_NAME_COUNT_SQL = sqlfiles.text(HERE / "api_name_count.sql")
SLICE_NAME_COUNT_INSERT = ("INSERT INTO temp._slice_name_count (source_id, string_id, row_count) VALUES (?, ?, ?) "
                           "ON CONFLICT (source_id, string_id) DO UPDATE SET row_count = row_count + excluded.row_count")
FORGET_SOURCE_SQL = sqlfiles.statements(HERE / "forget_source.sql")


def after_rows(conn: sqlite3.Connection, source_id: int, *, nest: bool = False, classify: bool = True) -> None:
    """Give the rows a source just wrote their meaning: nest its slices when it wrote them unnested
    (``nest``), classify its kernels (seed 004) unless it wrote them classified (not ``classify``),
    intern and count the names they use."""
    if nest:
        nesting.nest_source(conn, source_id)
    if classify and conn.execute("SELECT 1 FROM kernel WHERE source_id = ? LIMIT 1", (source_id,)).fetchone():
        classify_source(conn, source_id)
    count_names(conn, source_id)


def count_names(conn: sqlite3.Connection, source_id: int) -> None:
    """Intern the names of the source's kernels and API calls and write its ``name_use``.

    Only names within ``MAX_STRING_BYTES`` are interned, the bound on every string-table value: the
    name index costs ~1.5 s per MB of a name and ~13 bytes of memory per character (a 10 MB name:
    14.6 s, 128 MB), which a hostile CSV field of 64 MB would otherwise cost."""
    params = {"source_id": source_id, "longest": limits.current().MAX_STRING_BYTES}
    conn.execute(SLICE_NAME_COUNT_SQL)
    conn.execute(KERNEL_NAME_COUNT_SQL)
    conn.execute(API_NAME_COUNT_SQL)
    for statement in NAME_USE_SQL:
        conn.execute(statement, params)


def note_slice_names(conn: sqlite3.Connection, source_id: int, counts: Mapping[int | None, int]) -> None:
    """Record how many of the source's slices carry each name id (None: unnamed, not counted), as the
    source counted them while writing them: :func:`count_names` then takes these counts instead of
    reading the slices back (slice_name_count.sql)."""
    conn.execute(SLICE_NAME_COUNT_SQL)
    conn.executemany(SLICE_NAME_COUNT_INSERT,
                     [(source_id, name_id, count) for name_id, count in counts.items() if name_id is not None])


def note_kernel_names(conn: sqlite3.Connection, source_id: int, rows: str, params: Mapping[str, object]) -> None:
    """Count the source's kernels per name from ``rows``, a SELECT giving the ``name`` of each kernel the
    source wrote (with ``params``), for :func:`count_names`, which otherwise reads them back from
    ``kernel`` (kernel_name_count.sql)."""
    conn.execute(KERNEL_NAME_COUNT_SQL)
    conn.execute(f"INSERT INTO temp._kernel_name_count (source_id, name, row_count) "
                 f"SELECT :source_id, name, count(*) FROM ({rows}) GROUP BY name", {**params, "source_id": source_id})


def after_source(conn: sqlite3.Connection, source_id: int) -> None:
    """Refresh the facts of the run ``source_id`` joined (inside the caller's transaction)."""
    conn.execute(RUN_FACTS_SQL, {"source_id": source_id})


def forget_source(conn: sqlite3.Connection, source_id: int) -> None:
    """Drop what was derived from ``source_id``'s rows, before they are deleted."""
    for statement in FORGET_SOURCE_SQL:
        conn.execute(statement, {"source_id": source_id})
