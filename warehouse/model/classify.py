"""Kernel classification (seed 004 sections 4 and 6), computed in SQL by the model after each input.

``classify_source(conn, source_id)`` fills the classification columns of the ``kernel``
rows of one source: ``op_class`` from the Accelerator Core / task type (and the kernel's
signature for communication kernels without one), the five pipeline families in ns,
``dominant_core``, ``bound_stage``, ``bound_family`` and ``category`` (the primary category).
A kernel may have further categories (seed 004 section 8: a set, e.g. attention.mla.preprocess
is attention.mla too); ``kernel_category_sets.csv`` lists them per primary category, loaded into
``kernel_category_member`` (migration 0013), and the view ``kernel_category`` gives every set.

The rules are one statement's CTEs (``_kernel_class.sql``), written once for every way rows are
classified (:func:`classify_rows`): a source's rows already in ``kernel`` are updated
(:func:`classify_source`, after the frame's ``after_rows``), a kernel CSV's records are classified as
they are copied in (:mod:`warehouse.sources.kit.kernel_csv`: each row written once, not written and
then rewritten by the UPDATE: 1.2 CPU-s of a 300,000-row file).

The name patterns (``kernel_signatures.csv``) and the core-to-class table
(``kernel_core_classes.csv``) are versioned data files beside this module, so a new
kernel name is one line to add. They are loaded into the warehouse tables
``kernel_signature`` and ``kernel_core_class`` (migration 0005) whenever they changed.
"""

from __future__ import annotations

import csv
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from warehouse import sqlfiles

HERE = Path(__file__).parent
#: the statements classifying the rows ``{KERNEL_ROW}`` selects, the last but one ``{WRITE}`` (the caller's)
CLASSIFY_STATEMENTS = sqlfiles.split(sqlfiles.expand_includes(sqlfiles.text(HERE / "classify.sql"), HERE))
#: the columns the classification writes, as ``kernel_class`` and ``kernel`` name them
CLASS_COLUMNS = ("op_class", "cube_ns", "vector_ns", "aic_mte_ns", "aiv_mte_ns", "scalar_ns", "dominant_core",
                 "bound_stage", "bound_family", "category")
#: classify_source's rows, and the UPDATE writing their classes
SOURCE_ROWS = sqlfiles.body(sqlfiles.text(HERE / "classify_source.sql"))
SOURCE_UPDATE = (f"UPDATE kernel SET {', '.join(f'{name} = kernel_class.{name}' for name in CLASS_COLUMNS)} "
                 "FROM kernel_class WHERE kernel.id = kernel_class.id")
SIGNATURES_FILE = HERE / "kernel_signatures.csv"
CORE_CLASSES_FILE = HERE / "kernel_core_classes.csv"
CATEGORY_SETS_FILE = HERE / "kernel_category_sets.csv"
VERSION_LINE = re.compile(r"\bversion (\d+)\b")


@dataclass(frozen=True)
class DataFile:
    """A versioned CSV of rules: comment lines starting with '#', the first naming the version."""

    version: int
    rows: list[dict[str, str]]


def read_data_file(path: Path) -> DataFile:
    """Read a rules file; its version comes from 'version N' in the first comment line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    match = VERSION_LINE.search(lines[0]) if lines and lines[0].startswith("#") else None
    if match is None:
        raise ValueError(f"{path}: line 1: expected a '# ... version N' comment")
    body = [line for line in lines if line.strip() and not line.startswith("#")]
    return DataFile(int(match[1]), list(csv.DictReader(body)))


def load_rules(conn: sqlite3.Connection) -> None:
    """Make ``kernel_signature``, ``kernel_core_class`` and ``kernel_category_member`` hold the current files' rows.

    The tables are rewritten only when their content differs from the files (a new line,
    a new version), so classifying many sources costs one comparison each.
    """
    signatures = read_data_file(SIGNATURES_FILE)
    cores = read_data_file(CORE_CLASSES_FILE)
    sets = read_data_file(CATEGORY_SETS_FILE)
    _replace(conn, "kernel_signature", ("position", "pattern", "category", "role", "version"), [
        (position, row["pattern"].lower(), row["category"], row["role"], signatures.version)
        for position, row in enumerate(signatures.rows, start=1)
    ])
    _replace(conn, "kernel_core_class", ("core", "op_class", "version"), [
        (row["core"].upper(), row["op_class"], cores.version) for row in cores.rows
    ])
    _replace(conn, "kernel_category_member", ("category", "member", "version"), [
        (row["category"], row["also"], sets.version) for row in sets.rows
    ])


def classify_source(conn: sqlite3.Connection, source_id: int) -> None:
    """Fill the classification columns of every ``kernel`` row of ``source_id``.

    Runs inside the caller's transaction; one UPDATE whatever the number of rows.
    """
    classify_rows(conn, SOURCE_ROWS, SOURCE_UPDATE, {"source_id": source_id})


def classify_rows(conn: sqlite3.Connection, rows: str, write: str, params: Mapping[str, object]) -> None:
    """Classify the kernel rows the SELECT ``rows`` gives and write them with ``write``, a statement that
    reads them from the CTE ``kernel_class`` (each row of ``rows`` with its class columns; see
    ``_kernel_class.sql`` for the columns ``rows`` must give). ``params`` are both statements'.

    Runs inside the caller's transaction.
    """
    load_rules(conn)
    for statement in CLASSIFY_STATEMENTS:
        conn.execute(statement.replace("{KERNEL_ROW}", rows).replace("{WRITE}", write), params)


def classify_all(conn: sqlite3.Connection) -> int:
    """Classify again the kernel rows of every source (after a signature line was added);
    returns the number of sources. Runs inside the caller's transaction."""
    sources = [row[0] for row in conn.execute("SELECT DISTINCT source_id FROM kernel ORDER BY source_id")]
    for source_id in sources:
        classify_source(conn, source_id)
    return len(sources)


def _replace(conn: sqlite3.Connection, table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    names = ", ".join(columns)
    if conn.execute(f"SELECT {names} FROM {table} ORDER BY 1").fetchall() == sorted(rows):
        return
    conn.execute(f"DELETE FROM {table}")
    conn.executemany(f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})", rows)
