"""Ingest independent files in worker processes, each into a part (a scratch warehouse).

SQLite has one writer, and one file's ingest is one thread of Python and SQLite: on a
machine with several cores, the other cores would idle. Workers run the whole ingest of
a file (detect, parse, insert, nest, classify) into a fresh warehouse file of their own;
the parent copies each finished part into the warehouse (:mod:`warehouse.ingest.merge`), in the
order the files were named, so the result is the same as ingesting them one by one.

A part is written once and read once, row by row in rowid order, by the parent's copy (which
fills the warehouse's own indexes): its secondary indexes are dropped when it is made
(:func:`drop_part_indexes`), but the one the worker's nesting reads.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import shutil
import signal
import sqlite3
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

import sqlite_utils

from warehouse.ingest import progress_line
from warehouse.ingest.merge import copied_tables

T = TypeVar("T")

#: Files smaller than this are ingested by the parent: a part's round trip would cost more.
MIN_PART_BYTES = 4 << 20
#: the name of a parts folder starts with this (the ingest never walks into one)
PART_FOLDER_PREFIX = ".warehouse-parts-"
#: the file in a parts folder naming the process that owns it
OWNER_FILE = "owner.pid"
#: prctl option: the signal a process gets when its parent dies (Linux)
PR_SET_PDEATHSIG = 1
#: indexes a part keeps: nesting walks each thread's slices in (ts, dur) order
PART_INDEXES_KEPT = frozenset({"_slice_thread_ts"})


def default_jobs() -> int:
    """Worker processes by default: one per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class PartPool:
    """Worker processes and the folder their parts are written to (removed on exit).

    The folder is made in ``beside`` (the warehouse's folder: a part can be as large as
    the file's share of the warehouse, so it goes where the user made room for that),
    else in the system's temporary folder.
    """

    def __init__(self, jobs: int, beside: Path | None = None, *, fork: bool = False):
        """``fork``: start the workers by forking this process when it runs no other thread (a worker
        is then up in milliseconds with the modules imported, where spawning one costs ~0.5 s of CPU:
        what short jobs such as stage 1 of ``ingest --answers-first`` notice); else spawn."""
        self.jobs = jobs
        self._folder = tempfile.TemporaryDirectory(prefix=PART_FOLDER_PREFIX, dir=beside)
        (Path(self._folder.name) / OWNER_FILE).write_text(str(os.getpid()), encoding="ascii")
        # spawn, not fork, by default: the parent may hold SQLite connections and server threads (a
        # forked worker never touches the parent's connections; with another thread running, a lock
        # it held at the fork could never be released in the child)
        alone = threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if fork and alone else "spawn")
        self._executor = ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                                             initargs=(os.getpid(), progress_line.worker_queue(context)))
        self._count = 0

    def submit(self, work: Callable[..., T], path: Path, *args) -> tuple[Future[T], Path]:
        """Run ``work(path, part_path, *args)`` in a worker; returns its future and the new part's path."""
        self._count += 1
        part_path = Path(self._folder.name) / f"part{self._count}.db"
        return self._executor.submit(work, path, part_path, *args), part_path

    def discard(self, part_path: Path) -> None:
        """Delete a part once it is copied (or not wanted)."""
        part_path.unlink(missing_ok=True)

    def __enter__(self) -> PartPool:
        return self

    def __exit__(self, *exc_info) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._folder.cleanup()


def drop_part_indexes(conn: sqlite3.Connection) -> None:
    """In a new, empty part: drop the indexes made by CREATE INDEX on the tables the parent copies,
    but ``PART_INDEXES_KEPT`` (keys and UNIQUE constraints stay: they decide what the rows are).
    A part holds one input, so a per-input index finds what a scan would; keeping the others up
    as the rows go in cost the worker 15-20 % of its CPU on a rank db."""
    database = sqlite_utils.Database(conn)
    for table in copied_tables(conn):
        for index in database.table(table).indexes:
            if index.origin == "c" and index.name not in PART_INDEXES_KEPT:
                conn.execute(f'DROP INDEX main."{index.name}"')


def _start_worker(parent: int, to_line) -> None:
    """In a worker: die with the parent; report to its progress line, if it shows one."""
    _die_with(parent)
    progress_line.in_worker(to_line)


def _die_with(parent: int) -> None:
    """In a worker: be killed when the parent dies (a killed ingest leaves no worker behind)."""
    libc_name = ctypes.util.find_library("c")
    if libc_name:
        try:
            ctypes.CDLL(libc_name, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # not Linux: the worker ends when its queue closes
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def sweep_stale(folder: Path) -> list[tuple[Path, int]]:
    """Remove the parts folders in ``folder`` whose ingest was killed (its process is gone);
    returns each removed folder with the bytes it held."""
    removed = []
    for stale in sorted(folder.glob(PART_FOLDER_PREFIX + "*")):
        if not stale.is_dir() or _owner_alive(stale):
            continue
        size = sum(part.stat().st_size for part in stale.rglob("*") if part.is_file())
        shutil.rmtree(stale, ignore_errors=True)
        removed.append((stale, size))
    return removed


def _owner_alive(folder: Path) -> bool:
    try:
        owner = int((folder / OWNER_FILE).read_text(encoding="ascii"))
    except (OSError, ValueError):
        return False  # no owner file: an older ingest's folder, or a broken one
    try:
        os.kill(owner, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
