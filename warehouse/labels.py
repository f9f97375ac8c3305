"""Labels of a run (issue 17): ``key=value`` pairs a person attaches to a profiling run.

``warehouse ingest PATH --run NAME --label commit=abc --label batch=32`` stores them in
``run_label`` (migrations/0011_run_labels.sql), one row per key: setting a key again replaces
its value, other keys stay. They tell the runs of a history apart (the trend queries and
``warehouse compare`` show them).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping

from warehouse import db
from warehouse.errors import WarehouseError


class LabelError(WarehouseError):
    """A label that is not ``key=value`` with a non-empty key."""


def parse(text: str) -> tuple[str, str]:
    """``'commit=abc'`` -> ``('commit', 'abc')``; the value is everything after the first ``=``.

    :raises LabelError: when there is no ``=`` or the key is empty.
    """
    key, sep, value = str(text).partition("=")
    key = key.strip()
    if not sep or not key:
        raise LabelError(f"label {text!r}: expected key=value (e.g. commit=abc)")
    return key, value


def parse_all(texts: Iterable[str]) -> dict[str, str]:
    """Every ``key=value`` of ``texts`` as a dict (a key given twice: the last value)."""
    return dict(parse(text) for text in texts)


def checked(texts: Iterable[str]) -> dict[str, str]:
    """:func:`parse_all` for a command-line option: a malformed label is click's usage error (exit 2)."""
    import click

    try:
        return parse_all(texts)
    except LabelError as exc:
        raise click.BadParameter(str(exc)) from None


def set_labels(conn: sqlite3.Connection, run_id: int, labels: Mapping[str, str] | Iterable[str]) -> int:
    """Attach ``labels`` (a mapping, or ``key=value`` texts) to run ``run_id`` in one transaction;
    a key the run already has gets the new value. Returns how many labels were written.

    :raises LabelError: for a malformed label or a run that does not exist.
    """
    pairs = dict(labels) if isinstance(labels, Mapping) else parse_all(labels)
    for key in pairs:
        if not str(key).strip():
            raise LabelError("label with an empty key")
    if not pairs:
        return 0
    if conn.execute("SELECT 1 FROM run WHERE run_id = ?", (run_id,)).fetchone() is None:
        raise LabelError(f"no run {run_id} to label")
    with db.transaction(conn, f"labels of run {run_id}"):
        conn.executemany(
            "INSERT INTO run_label (run_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value",
            [(run_id, str(key).strip(), str(value)) for key, value in pairs.items()],
        )
    return len(pairs)


def labels_of(conn: sqlite3.Connection, run_id: int) -> dict[str, str]:
    """The labels of run ``run_id``, by key (empty when none, or in a warehouse opened read-only
    before migration 0011 gave it the table)."""
    try:
        return dict(conn.execute("SELECT key, value FROM run_label WHERE run_id = ? ORDER BY key", (run_id,)))
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return {}
        raise


def runs_of_sources(conn: sqlite3.Connection, source_ids: Iterable[int]) -> list[int]:
    """The runs the inputs ``source_ids`` belong to (what an ingest touched), in run order."""
    ids = sorted({int(i) for i in source_ids if i is not None})
    if not ids:
        return []
    marks = ", ".join("?" for _ in ids)
    return [run_id for (run_id,) in conn.execute(
        f"SELECT DISTINCT run_id FROM source WHERE id IN ({marks}) AND run_id IS NOT NULL ORDER BY run_id", ids)]
