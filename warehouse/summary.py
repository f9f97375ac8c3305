"""What a warehouse holds, and what an ingest did, for people and for JSON."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

from tabulate import tabulate

from warehouse import db, queries, sqlfiles
from warehouse.ingest import FileResult

TWINS_SQL = sqlfiles.text(Path(__file__).parent / "summary_twins.sql")
TWIN_FIELDS = ("run_id", "rank_id", "source_id", "path", "answered_by", "answered_by_path")


def describe(conn: sqlite3.Connection) -> dict:
    """Schema version, runs, sources, twins (:func:`twins`), what of the inputs is not read (:func:`unread`)
    and row counts of every public table and view."""
    sources = [
        dict(zip(("id", "run_id", "path", "kind", "status", "rank_id", "card", "rows", "error"), row))
        for row in conn.execute(
            "SELECT id, run_id, path, kind, status, rank_id, card, row_count, error FROM source ORDER BY id")
    ]
    columns, rows = queries.get("runs").run(conn)
    runs = [dict(zip(columns, row)) for row in rows]
    names = [
        row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE '\\_%' ESCAPE '\\' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    counts = {name: conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names}
    return {"schema_version": db.schema_version(conn), "runs": runs, "sources": sources, "twins": twins(conn),
            "unread": unread(conn), "row_counts": counts}


def twins(conn: sqlite3.Connection) -> list[dict]:
    """Each input that is another's twin (one capture exported twice) and the input answering in its
    place; none in a warehouse whose views predate ``source_twin``."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'source_twin'").fetchone():
        return []
    return [dict(zip(TWIN_FIELDS, row)) for row in conn.execute(TWINS_SQL)]


def unread(conn: sqlite3.Connection) -> list[dict]:
    """Each table of an input that no statement of its source reads, and each file no source reads,
    with the reason (the named query ``unread_inputs``): nothing of an input is dropped in silence."""
    columns, rows = queries.get("unread_inputs").run(conn)
    return [dict(zip(columns, row)) for row in rows]


def describe_text(facts: dict) -> str:
    statuses = Counter(source["status"] for source in facts["sources"])
    lines = [
        f"schema version {facts['schema_version']}; "
        f"{len(facts['sources'])} sources ({', '.join(f'{n} {s}' for s, n in sorted(statuses.items())) or 'none'})",
        "",
        tabulate([(r["run_id"], r["name"], r["profiler"] or "-", r["ranks"], r["steps"], r["sources"], r["root"])
                  for r in facts["runs"]], headers=("run", "name", "profiler", "ranks", "steps", "inputs", "root"),
                 disable_numparse=True),
        "",
        *_twin_lines(facts.get("twins", [])),
        *_unread_lines(facts.get("unread", [])),
        tabulate(sorted((name, count) for name, count in facts["row_counts"].items() if count),
                 headers=("table", "rows"), disable_numparse=True),
    ]
    return "\n".join(lines)


def _twin_lines(twins: list[dict]) -> list[str]:
    """One line per twin: which input answers and which is its twin (answering nothing), then a blank line."""
    lines = [f"run {t['run_id']} rank {t['rank_id']}: {t['answered_by_path']} (input {t['answered_by']}) answers; "
             f"{t['path']} (input {t['source_id']}) is its twin, the same capture, and answers nothing"
             for t in twins]
    return lines + [""] if lines else []


def _unread_lines(unread: list[dict]) -> list[str]:
    """One line per input with tables not read (their names), one per run with files no source reads
    (the files), then a blank line; the reasons are the query ``unread_inputs``'s."""
    tables: dict[tuple, list[str]] = {}
    files: dict[object, list[str]] = {}
    for row in unread:
        if row["item"] is None:
            files.setdefault(row["run_id"], []).append(row["path"])
        else:
            tables.setdefault((row["run_id"], row["rank_id"], row["source_id"], row["path"]), []).append(row["item"])
    lines = [f"run {run} rank {'-' if rank is None else rank} input {source} {path}: "
             f"{len(items)} table{'s' if len(items) > 1 else ''} not read: {', '.join(items)}"
             for (run, rank, source, path), items in tables.items()]
    lines += [f"run {run}: {len(paths)} file{'s' if len(paths) > 1 else ''} no source reads: {', '.join(paths)}"
              for run, paths in files.items()]
    if not lines:
        return []
    return ["Not read (the reasons: warehouse query unread_inputs):", *lines, ""]


def results_table(results: list[FileResult]) -> str:
    """One line per file: status, kind, rows, seconds, file; then totals."""
    rows = [
        (r.status, r.kind or "-", r.rows, f"{r.elapsed_ns / 1e9:.2f}", r.path.name if r.status != "failed" else r.error)
        for r in results
    ]
    statuses = Counter(r.status for r in results)
    total = f"{len(results)} files: " + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
    return tabulate(rows, headers=("status", "kind", "rows", "s", "file"), disable_numparse=True) + "\n" + total
