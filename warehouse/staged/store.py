"""The staged rows of one input in the warehouse: written by stage 1, dropped by stage 2.

Both run inside the caller's transaction: stage 1 writes a rank's answers with its source row in
one short transaction; stage 2 drops them in the transaction that lands the file's full ingest,
so at every moment a rank answers from exactly one of the two (migration 0016).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from warehouse import sqlfiles
from warehouse.staged.answers import RankAnswers

FORGET_SQL = sqlfiles.statements(Path(__file__).parent / "forget.sql")


def write_answers(conn: sqlite3.Connection, source_id: int, answers: RankAnswers) -> int:
    """Give the staged ``source_id`` its rank and first answers; returns the rows written."""
    conn.execute("UPDATE source SET rank_id = ?, device_id = ?, host_name = ?, card = ? WHERE id = ?",
                 (answers.rank_id, answers.device_id, answers.host_name, f"rank{answers.rank_id}", source_id))
    conn.executemany(
        "INSERT INTO staged_step (source_id, rank_id, step_id, start_ns, end_ns, computing_ns, "
        "communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, stage_ns, bubble_ns, "
        "communication_not_overlapped_exclude_receive_ns, preparing_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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


def forget(conn: sqlite3.Connection, source_id: int) -> None:
    """Drop the staged ``source_id``: its first answers and its source row."""
    for statement in FORGET_SQL:
        conn.execute(statement, {"source_id": source_id})
