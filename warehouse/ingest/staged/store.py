"""The staged rows of one input in the warehouse: written by stage 1, dropped by stage 2.

A rank db's are its answers (``staged_step``, ``staged_kernel``, ``staged_hccl``); an analysis.db's
its step summary, in ``step_trace_time`` as its full ingest writes it (rows of the staged source id,
deleted and written again, in the ingest's order, by stage 2).

Both run inside the caller's transaction: stage 1 writes a rank's answers with its source row in
one short transaction; stage 2 drops them in the transaction that lands the file's full ingest,
so at every moment a rank answers from exactly one of the two (migration 0016).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from warehouse import sqlfiles
from warehouse.ingest.staged import SQL_DIR
from warehouse.sources import analysis_db
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.sqlite_input import attached, copy_table
from warehouse.ingest.staged.answers import RankAnswers

FORGET_SQL = sqlfiles.statements(SQL_DIR / "staged_forget.sql")


def write_answers(conn: sqlite3.Connection, source_id: int, answers: RankAnswers) -> int:
    """Give the staged ``source_id`` its rank and first answers; returns the rows written."""
    conn.execute("UPDATE source SET rank_id = ?, device_id = ?, host_name = ?, card = ? WHERE id = ?",
                 (answers.rank_id, answers.device_id, answers.host_name, f"rank{answers.rank_id}", source_id))
    conn.executemany(
        "INSERT INTO staged_step (source_id, rank_id, step_id, start_ns, end_ns, computing_ns, "
        "communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, stage_ns, bubble_ns, "
        "communication_not_overlapped_exclude_receive_ns, preparing_ns) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(source_id, *row) for row in answers.steps])
    conn.executemany(
        "INSERT INTO staged_kernel (source_id, rank_id, name, op_class, count, timed, total_ns, max_ns) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [(source_id, *row) for row in answers.kernels])
    conn.executemany(
        "INSERT INTO staged_hccl (source_id, rank_id, name, count, timed, total_ns, max_ns) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)", [(source_id, *row) for row in answers.hccl])
    rows = len(answers.steps) + len(answers.kernels) + len(answers.hccl)
    conn.execute("UPDATE source SET row_count = ? WHERE id = ?", (rows, source_id))
    return rows


def write_step_summary(conn: sqlite3.Connection, path: Path, source_id: int) -> int:
    """Copy the staged analysis.db's StepTraceTime into ``step_trace_time`` as its full ingest does
    (the analysis.db source's statement and converters); returns the rows written.

    :raises IngestError: when the file or its StepTraceTime cannot be read (naming the file).
    """
    rank_id = rank_or_unknown(path).rank
    file, wanted = analysis_db.INPUT_TABLES["StepTraceTime"]
    with attached(conn, path, ["StepTraceTime"]) as failures:
        rows, _ = copy_table(conn, path, "StepTraceTime", wanted, analysis_db.SQL_DIR / file,
                             {"source_id": source_id, "rank_id": rank_id}, failures)
    conn.execute("UPDATE source SET rank_id = ?, row_count = ? WHERE id = ?", (rank_id, rows, source_id))
    return rows


def forget(conn: sqlite3.Connection, source_id: int) -> None:
    """Drop the staged ``source_id``: its first answers and its source row."""
    for statement in FORGET_SQL:
        conn.execute(statement, {"source_id": source_id})
