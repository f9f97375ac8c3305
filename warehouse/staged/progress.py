"""Which runs still wait for stage 2 of ``warehouse ingest --answers-first`` (for ``warehouse info``)."""

from __future__ import annotations

import sqlite3

from warehouse import sqlfiles
from warehouse.staged import SQL_DIR

PROGRESS_SQL = sqlfiles.text(SQL_DIR / "staged_progress.sql")
COLUMNS = ("run_id", "name", "ranks_complete", "ranks_staged", "files_pending", "stage2_failed")


def waiting_runs(conn: sqlite3.Connection) -> list[dict]:
    """One dict per run holding a staged or pending input (none once every stage 2 landed)."""
    return [dict(zip(COLUMNS, row)) for row in conn.execute(PROGRESS_SQL)]


def describe_text(runs: list[dict]) -> str:
    """Lines for ``warehouse info``: per run, what has its first answers only and what is still to come."""
    lines = []
    for run in runs:
        line = (f"run {run['run_id']} ({run['name']}): {run['ranks_complete']} ranks complete, "
                f"{run['ranks_staged']} with first answers only (timeline, flows, counters still to come)")
        if run["files_pending"]:
            line += f", {run['files_pending']} files not in yet"
        if run["stage2_failed"]:
            line += f", {run['stage2_failed']} staged files whose full ingest failed (source.error says why)"
        lines.append(line)
    return "\n".join(lines)
