"""Stage 1 of ``warehouse ingest --answers-first``: every file of the ingest gets its source row,
in the order a plain ingest gives them, and the cluster answers are there when it returns.

- A rank db is *staged*: its answers are computed from the raw file (:mod:`warehouse.ingest.staged.answers`,
  in the worker pool of :mod:`warehouse.ingest.parts` with ``jobs`` > 1) and written with its source row,
  ``stage = 'answers'`` (:func:`warehouse.ingest.staged.store.write_answers`), one transaction per rank.
  Beside an analysis.db the derived step breakdown is skipped (the summary answers step_time; the
  steps' markers are kept), unless that summary could not be staged.
- An ``analysis.db`` is staged too: its step summary (StepTraceTime, which answers step_time where
  it exists) goes into ``step_trace_time`` by the analysis.db source's own statement
  (:func:`warehouse.ingest.staged.store.write_step_summary`); its communication tables come in stage 2.
- Any other file is *pending*: its source row is held (``stage = 'pending'``) for stage 2; what it
  answers comes then.

A staged file's sha256 is left empty: stage 2 reads every file whole anyway and fills it (hashing
64 rank dbs would cost seconds of the first answers' budget).

Stage 2 is :func:`warehouse.ingest.ingest_paths` over the same files: each lands in the source row
it holds, its staged rows dropped in that transaction, so source ids and every table's rows end as
a plain ingest writes them (stage 1 writes no row a plain ingest keeps).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from warehouse import db, ingest
from warehouse.ingest import FileResult, progress_line
from warehouse.model.runs import RunNamer
from warehouse.ingest.parts import PartPool
from warehouse.sources import detect_source
from warehouse.ingest.staged import answers as staged_answers
from warehouse.ingest.staged import store

RANK_DB, ANALYSIS_DB = "rank_db", "analysis_db"


def kind_of(path: Path) -> str | None:
    """The kind of input ``path`` is, None when no source reads it (or detection failed: stage 2's
    ingest of the file then records why)."""
    try:
        module = detect_source(path)
    except Exception:  # noqa: BLE001 - detect never decides the ingest's fate; ingest_file records it
        return None
    return module.KIND if module else None


def stage_paths(
    conn: sqlite3.Connection,
    files: list[Path],
    *,
    jobs: int = 1,
    run_name: str | None = None,
    on_file: Callable[[FileResult], None] | None = None,
) -> list[FileResult]:
    """Stage 1 over ``files`` (as :func:`warehouse.ingest.discover` lists them), in their order.

    A staged file's result has status ``staged``, a held file's ``pending``, a file the warehouse
    holds already (staged, or whole: stage 2 then finds it unchanged or replaces it) ``unchanged``.
    A rank db whose answers cannot be computed, or an analysis.db whose step summary cannot be
    read, is held (its full ingest in stage 2 then says why it fails).
    """
    kinds = {path: kind_of(path) for path in files}
    runs = RunNamer(conn, files, run_name)
    held = {path: _held(conn, path) for path in files}
    todo = [path for path in files if kinds[path] == RANK_DB and held[path] is None]
    results = []
    with PartPool(jobs, fork=True) if jobs > 1 and len(todo) > 1 else _InProcess() as pool:
        futures = {path: pool.submit(staged_answers.pooled, path, not _summary_beside(path, kinds))[0]
                   for path in todo}
        for path in files:
            started = time.perf_counter_ns()
            if held[path] is not None:
                result = FileResult(path, "unchanged", kinds[path], source_id=held[path])
            else:
                progress_line.doing(path, "staging")
                future = futures.pop(path, None)
                if future:
                    progress_line.wait(future)
                result = _stage(conn, path, kinds[path], future, runs)
            result.elapsed_ns = time.perf_counter_ns() - started
            progress_line.done(path)
            results.append(result)
            if on_file:
                on_file(result)
    return results


def _summary_beside(path: Path, kinds: dict[Path, str | None]) -> bool:
    """Whether an analysis.db of the ingest lies beside the rank db: its step summary will answer
    step_time for the rank (fact_precedence), so the rank's derived step breakdown is not needed."""
    return any(kind == ANALYSIS_DB and other.parent == path.parent for other, kind in kinds.items())


def _summarized(conn: sqlite3.Connection, run_id: int, rank_id: int) -> bool:
    """Whether the profiler's own step summary answers for the rank (summary_answer)."""
    return conn.execute("SELECT 1 FROM summary_answer WHERE run_id = ? AND rank_id = ? AND fact = 'step_summary'",
                        (run_id, rank_id)).fetchone() is not None


def _held(conn: sqlite3.Connection, path: Path) -> int | None:
    """The ok source row (staged or whole) the warehouse has for ``path`` already, if any."""
    row = conn.execute("SELECT id FROM source WHERE path = ? AND status = 'ok' ORDER BY id LIMIT 1",
                       (str(path),)).fetchone()
    return row[0] if row else None


def _stage(conn, path: Path, kind: str | None, future: Future | None, runs: RunNamer) -> FileResult:
    """``path``'s source row with what stage 1 has of it, in one transaction."""
    answers = future.result() if future else None
    size = os.stat(path).st_size
    try:
        with db.transaction(conn, path):
            conn.execute("DELETE FROM source WHERE path = ? AND status != 'ok'", (str(path),))
            stage = "answers" if kind in (RANK_DB, ANALYSIS_DB) else "pending"
            source_id = ingest.insert_source(conn, path, kind, "", size, runs.run_of(path), stage=stage)
            rows = _first_rows(conn, path, kind, source_id, answers)
            if rows is None:
                conn.execute("UPDATE source SET stage = 'pending' WHERE id = ?", (source_id,))
    except BaseException:
        runs.forget(path)  # the run it may have made was rolled back with it
        raise
    finally:
        ingest.detach_inputs(conn)  # what the step summary's copy attached
    status = "pending" if rows is None else "staged"
    return FileResult(path, status, kind, rows or 0, source_id=source_id, size_bytes=size)


def _first_rows(conn, path: Path, kind: str | None, source_id: int,
                answers: staged_answers.RankAnswers | None) -> int | None:
    """Write what stage 1 has of the file; the rows written, None when it has nothing of it."""
    if kind == RANK_DB and answers is not None and answers.error is None:
        run_id = conn.execute("SELECT run_id FROM source WHERE id = ?", (source_id,)).fetchone()[0]
        if not answers.breakdown and not _summarized(conn, run_id, answers.rank_id):
            answers = staged_answers.rank_answers(path)  # its summary could not be staged: derive the steps
        return store.write_answers(conn, source_id, answers)
    if kind == ANALYSIS_DB:
        conn.execute("SAVEPOINT step_summary")  # a summary that cannot be read leaves nothing behind
        try:
            rows = store.write_step_summary(conn, path, source_id)
        except Exception:  # noqa: BLE001 - held for stage 2, whose full ingest records the reason
            conn.execute("ROLLBACK TO step_summary")
            rows = None
        conn.execute("RELEASE step_summary")
        return rows
    return None


class _InProcess:
    """The pool's interface, computing in this process (one job, or one file)."""

    def submit(self, work, path: Path, *args) -> tuple[Future, None]:
        future: Future = Future()
        future.set_result(work(path, None, *args))
        return future, None

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc_info) -> None:
        return None
