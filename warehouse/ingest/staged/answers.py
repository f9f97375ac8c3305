"""Stage 1 of one rank db: its answers, aggregated, computed by the warehouse's own views.

The raw file is attached read-only to a *scratch warehouse* (an in-memory warehouse, migrated
once per process) and only what the answers read goes in: the steps and HCCL operators through
the rank db source's own statements (``meta_step.sql``, ``prepare_5_steps.sql``,
``fact_communication_op.sql``), the kernels with step, name, type, start and duration
(``staged_kernels.sql``, ``staged_kernel_rows.sql``), their class from the kernel classification run once per
distinct group of what the class depends on (``staged_kernel_groups.sql``, then :func:`classify_source`).
No PMU pivot, no timeline, flows, names or counters. The answers are then read from the
scratch's views (``staged_answers.sql``: ``step_breakdown``, ``hccl_total``; the kernels summed as
``kernel_total`` sums them), so a staged figure is the full warehouse's arithmetic over the same
rows, and the transaction is rolled back.

A generated rank of 42,500 kernels and 340 steps costs ~0.15 CPU-s beside its analysis.db (no
breakdown to derive), ~0.5 CPU-s without (bench/RESULTS.md), against ~10 s for its full ingest.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from warehouse import db, sqlfiles
from warehouse.errors import IngestError
from warehouse.model.classify import classify_source, load_rules
from warehouse.sources import rank_db
from warehouse.sources.base import attach_readonly, sqlite_snapshot
from warehouse.ingest.staged import SQL_DIR

HERE = SQL_DIR
SCRATCH_SQL = sqlfiles.statements(HERE / "staged_scratch.sql")
SCRATCH_RANK_SQL = sqlfiles.statements(HERE / "staged_scratch_rank.sql")
KERNEL_GROUPS_SQL = sqlfiles.statements(HERE / "staged_kernel_groups.sql")
#: the step of a kernel as fact_kernel.sql finds it: the rank db source's _task_step.sql, included
KERNELS_SQL = sqlfiles.split(sqlfiles.expand_includes(sqlfiles.text(HERE / "staged_kernels.sql"), rank_db.SQL_DIR))
KERNEL_ROWS_SQL = sqlfiles.text(HERE / "staged_kernel_rows.sql")
STEPS_SQL, MARKERS_SQL, KERNEL_TOTALS_SQL, HCCL_TOTALS_SQL = sqlfiles.statements(HERE / "staged_answers.sql")
#: the rank db source's statements stage 1 runs as they are (steps, their lookup, HCCL operators)
RANK_DB_SQL = tuple(statement for name in ("meta_step.sql", "prepare_5_steps.sql", "fact_communication_op.sql")
                    for statement in sqlfiles.statements(rank_db.SQL_DIR / name))
#: the scratch's source ids: the rank db, and its classification groups
SOURCE_ID, GROUP_SOURCE = 1, 2

_scratch: sqlite3.Connection | None = None


@dataclass
class RankAnswers:
    """One rank db's first answers (rows as staged_step, staged_kernel, staged_hccl take them,
    without source_id), or why they could not be computed."""

    rank_id: int | None = None
    device_id: int | None = None
    host_name: str | None = None
    steps: list[tuple] = field(default_factory=list)
    kernels: list[tuple] = field(default_factory=list)
    hccl: list[tuple] = field(default_factory=list)
    #: whether ``steps`` hold the derived breakdown (else their markers only)
    breakdown: bool = True
    error: str | None = None


def scratch() -> sqlite3.Connection:
    """This process's scratch warehouse (made on first use: the migrations cost ~50 ms)."""
    global _scratch
    if _scratch is None:
        _scratch = db.connect(":memory:")
        for statement in SCRATCH_SQL:
            _scratch.execute(statement)
        load_rules(_scratch)  # once: classify_source then finds them current
    return _scratch


def rank_answers(path: Path, breakdown: bool = True) -> RankAnswers:
    """The answers of the rank db at ``path``; a file that cannot be read gives ``error``, one
    line naming it (its full ingest will say the same or more). Without ``breakdown`` the steps
    come without their derived breakdown (``RankAnswers.breakdown`` False): for a rank whose
    profiler's summary (analysis.db) answers step_time, which reads only the steps' markers then,
    that is ~40 % of the rank's time saved."""
    try:
        return _compute(scratch(), Path(path), breakdown)
    except (IngestError, sqlite3.Error, OSError, ValueError) as exc:
        message = " ".join(str(exc).split())
        return RankAnswers(error=message if message.startswith(str(path)) else f"{path}: {message}")


def pooled(path: Path, _part_path: Path, breakdown: bool = True) -> RankAnswers:
    """:func:`rank_answers` as a :class:`warehouse.ingest.parts.PartPool` job (it writes no part)."""
    return rank_answers(path, breakdown)


def _compute(conn: sqlite3.Connection, path: Path, breakdown: bool) -> RankAnswers:
    with sqlite_snapshot(path) as readable:
        identity = rank_db._identify(path, readable)
        attach_readonly(conn, readable, rank_db.SCHEMA)
        params = {"path": str(path), "source_id": SOURCE_ID, "group_source": GROUP_SOURCE,
                  "rank_id": identity.rank_id, "device_id": identity.device_id, "base_communication_op": 0}
        conn.execute("BEGIN")
        try:
            rank_db._create_input_views(conn, identity.tables)
            rank_db._run_script(conn, "setup.sql")
            for statement in SCRATCH_RANK_SQL + RANK_DB_SQL + KERNEL_GROUPS_SQL:
                conn.execute(statement, params)
            classify_source(conn, GROUP_SOURCE)
            for statement in KERNELS_SQL:
                conn.execute(statement, params)
            conn.execute(KERNEL_ROWS_SQL, {**params, "every_row": int(breakdown)})
            return RankAnswers(
                identity.rank_id, identity.device_id, identity.host_name,
                steps=conn.execute(STEPS_SQL if breakdown else MARKERS_SQL).fetchall(),
                kernels=conn.execute(KERNEL_TOTALS_SQL, params).fetchall(),
                hccl=conn.execute(HCCL_TOTALS_SQL).fetchall(),
                breakdown=breakdown,
            )
        finally:
            conn.execute("ROLLBACK")  # the scratch is empty again, its temp tables and views gone
            conn.execute(f"DETACH DATABASE {rank_db.SCHEMA}")
