"""What a run still waits for while the second stage of ``warehouse ingest --answers-first`` runs.

One phrase for ``warehouse info``, the report's summary and the Datasette pages, from one named
query (``ingest_progress``): no row, nothing said.
"""

from __future__ import annotations

import sqlite3

from warehouse import queries


def waiting_runs(conn: sqlite3.Connection, run_id: int | None = None) -> list[dict]:
    """One dict per run holding a staged or pending input (none once every stage 2 landed)."""
    columns, rows = queries.get("ingest_progress").run(conn, {"run_id": run_id})
    return [dict(zip(columns, row)) for row in rows]


def still_coming(run: dict) -> str:
    """What of ``run`` (a row of ``ingest_progress``) has its first answers only and what is still to come."""
    text = f"{run['ranks_complete']} ranks complete"
    if run["ranks_staged"]:
        text += f", {run['ranks_staged']} with first answers only"
    if run["files_staged"]:
        text += (f" ({run['files_staged']} inputs staged: their timeline, flows, kernel rows and counters come "
                 "with the second stage of the ingest)")
    if run["files_pending"]:
        text += f", {run['files_pending']} files not in yet"
    if run["stage2_failed"]:
        text += f", {run['stage2_failed']} staged files whose full ingest failed (source.error says why)"
    return text


def describe_text(runs: list[dict]) -> str:
    """Lines for ``warehouse info``: a line per waiting run."""
    return "\n".join(f"run {run['run_id']} ({run['name']}): {still_coming(run)}" for run in runs)
