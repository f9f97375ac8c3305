"""Stage 1 of ``warehouse ingest --answers-first``: every file of the ingest gets its source row,
in the order a plain ingest gives them, and the cluster answers are there when it returns.

- A rank db is *staged*: its answers are computed from the raw file (:mod:`warehouse.staged.answers`,
  in the worker pool of :mod:`warehouse.parts` with ``jobs`` > 1) and written with its source row,
  ``stage = 'answers'`` (:func:`warehouse.staged.store.write_answers`), one transaction per rank.
  Its sha256 is left empty: stage 2 reads the file whole anyway and fills it (hashing 64 rank dbs
  would cost seconds of the first answers' budget).
- ``analysis.db`` (the profiler's step summary, which answers step_time where it exists) and a file
  no source reads or that fails at once go in as a plain ingest takes them (they are small, and
  write no table a rank db writes).
- Any other file is *pending*: its source row is reserved (``stage = 'pending'``), for stage 2.

Stage 2 is :func:`warehouse.ingest.ingest_paths` over the same files: each staged or pending file
lands in the source row it holds, its staged rows dropped in that transaction, so source ids and
every table's rows end as a plain ingest writes them. That holds only while no file of the ingest
writes the tables analysis.db writes (a text export's step_trace_time.csv, a cluster analysis): their
rows would land in another order, so such an ingest is not staged (:func:`unstageable`).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from warehouse import db, ingest
from warehouse.ingest import FileResult
from warehouse.model.runs import RunNamer
from warehouse.parts import PartPool
from warehouse.sources import detect_source
from warehouse.staged import answers as staged_answers
from warehouse.staged import store

#: kinds ingested whole in stage 1 (besides files no source reads)
WHOLE_KINDS = frozenset({"analysis_db"})
STAGED_KIND = "rank_db"


def kinds_of(files: list[Path]) -> dict[Path, str | None]:
    """Each file's kind (:func:`kind_of`)."""
    return {path: kind_of(path) for path in files}


def kind_of(path: Path) -> str | None:
    """The kind of input ``path`` is, None when no source reads it (or detection failed: the plain
    ingest of the file then records why)."""
    try:
        module = detect_source(path)
    except Exception:  # noqa: BLE001 - detect never decides the ingest's fate; ingest_file records it
        return None
    return module.KIND if module else None


def unstageable(conn: sqlite3.Connection, kinds: dict[Path, str | None]) -> str | None:
    """Why these files cannot be staged (a file of a kind that writes analysis.db's tables), else None."""
    sharing = {row[0] for row in conn.execute(
        "SELECT kind FROM fact_precedence WHERE fact IN (SELECT fact FROM fact_precedence WHERE kind = ?) "
        "AND kind != ?", ("analysis_db", "analysis_db"))}
    clashing = sorted(path for path, kind in kinds.items() if kind in sharing)
    if clashing:
        return (f"{clashing[0]}: a {kinds[clashing[0]]} input writes the tables analysis.db writes, so staging would "
                f"change the order of their rows ({len(clashing)} such files): ingested whole")
    return None


def stage_paths(
    conn: sqlite3.Connection,
    files: list[Path],
    kinds: dict[Path, str | None],
    *,
    jobs: int = 1,
    run_name: str | None = None,
    on_file: Callable[[FileResult], None] | None = None,
) -> list[FileResult]:
    """Stage 1 over ``files`` (as :func:`warehouse.ingest.discover` lists them, ``kinds`` as
    :func:`kinds_of` gives them, :func:`unstageable` None), in their order.

    A staged rank's result has status ``staged``, a reserved file's ``pending``; the files
    ingested whole report as :func:`warehouse.ingest.ingest_file` does. A rank db whose answers
    cannot be computed is reserved (its full ingest in stage 2 then says why it fails).
    """
    runs = RunNamer(conn, files, run_name)
    todo = [path for path in files if kinds[path] == STAGED_KIND and _stageable(conn, path)]
    results = []
    with PartPool(jobs) if jobs > 1 and len(todo) > 1 else _InProcess() as pool:
        futures = {path: pool.submit(staged_answers.pooled, path)[0] for path in todo}
        for path in files:
            started = time.perf_counter_ns()
            kind = kinds[path]
            if path in futures:
                result = _stage(conn, path, futures.pop(path).result(), runs, started)
            elif kind == STAGED_KIND or kind not in WHOLE_KINDS and kind is not None:
                result = _reserve(conn, path, kind, runs, started)
            else:
                result = ingest.ingest_file(conn, path, runs=runs)
            results.append(result)
            if on_file:
                on_file(result)
    return results


def _stageable(conn: sqlite3.Connection, path: Path) -> bool:
    """Whether a rank db is to be staged now: not staged already, nor in the warehouse whole
    (stage 2 then finds it unchanged, or re-ingests a changed file as a plain ingest does)."""
    return not conn.execute("SELECT 1 FROM source WHERE path = ? AND status = 'ok'", (str(path),)).fetchone()


def _stage(conn, path: Path, answers: staged_answers.RankAnswers, runs: RunNamer, started: int) -> FileResult:
    if answers.error:
        return _reserve(conn, path, STAGED_KIND, runs, started)
    size = os.stat(path).st_size
    try:
        with db.transaction(conn, path):
            source_id = _new_source(conn, path, STAGED_KIND, size, runs, "answers")
            rows = store.write_answers(conn, source_id, answers)
    except BaseException:
        runs.forget(path)  # the run it may have made was rolled back with it
        raise
    return FileResult(path, "staged", STAGED_KIND, rows, time.perf_counter_ns() - started, source_id=source_id,
                      size_bytes=size)


def _reserve(conn, path: Path, kind: str | None, runs: RunNamer, started: int) -> FileResult:
    """A source row held for ``path``'s stage 2 (none if it holds one already, staged or whole)."""
    held = conn.execute("SELECT id FROM source WHERE path = ? AND status = 'ok' ORDER BY id LIMIT 1",
                        (str(path),)).fetchone()
    if held:
        return FileResult(path, "unchanged", kind, source_id=held[0])
    size = os.stat(path).st_size
    try:
        with db.transaction(conn, path):
            source_id = _new_source(conn, path, kind, size, runs, "pending")
    except BaseException:
        runs.forget(path)
        raise
    return FileResult(path, "pending", kind, 0, time.perf_counter_ns() - started, source_id=source_id, size_bytes=size)


def _new_source(conn, path: Path, kind: str | None, size: int, runs: RunNamer, stage: str) -> int:
    """The staged file's source row (earlier failed or skipped records of it dropped, as a plain ingest does)."""
    conn.execute("DELETE FROM source WHERE path = ? AND status != 'ok'", (str(path),))
    return ingest._insert_source(conn, path, kind, "", size, runs.run_of(path), stage=stage)


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
