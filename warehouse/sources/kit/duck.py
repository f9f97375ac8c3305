"""DuckDB inside an ingest: the C++ engine that reads and converts a large input in bulk.

A source hands the bulk of a file to DuckDB (vectorised reading, conversion in SQL) and DuckDB
writes the converted rows into a scratch SQLite file through its sqlite extension; the source then
copies them into the warehouse with one ``INSERT ... SELECT`` on the ingest's own connection, so the
rows stay inside the ingest's transaction (one per input, nothing of a failed file kept). DuckDB
cannot write into that transaction itself: it opens the warehouse file with its own SQLite, which
neither sees the open transaction's rows nor gets the write lock it holds.

Bounded: DuckDB's memory is capped (:data:`MEMORY_LIMIT`; it spills to a scratch folder beside the
warehouse), it runs one thread (rows keep their file order, and the process stays within its
share of a shared machine), and it may not install or load anything but the sqlite extension of the
``duckdb-ext-sqlite`` package, loaded from that package's file: nothing is fetched at run time.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from warehouse import sqlfiles
from warehouse.sources.base import read_observer

#: DuckDB's memory cap per ingest (the process stays under 500 MB with SQLite's cache beside it)
MEMORY_LIMIT = "256MB"
#: the sqlite extension's file inside the duckdb-ext-sqlite package, by DuckDB version and platform
EXTENSION_FILE = "extensions/v{version}/{platform}/sqlite_scanner.duckdb_extension"
#: the scratch SQLite file DuckDB writes a source's rows into, in the scratch folder
SCRATCH_FILE = "rows.db"
#: how often the progress of a statement reading an input is told (:func:`reading`), in seconds
PROGRESS_POLL_S = 0.1
#: each thread's DuckDB (:func:`engine`)
_ENGINES = threading.local()


def extension_path(duck) -> Path:
    """The sqlite extension binary the installed ``duckdb-ext-sqlite`` package carries for this DuckDB."""
    import duckdb

    platform = duck.execute("PRAGMA platform").fetchone()[0]
    relative = EXTENSION_FILE.format(version=duckdb.__version__, platform=platform)
    return Path(str(resources.files("duckdb_ext").joinpath(relative)))


def scratch_parent(conn: sqlite3.Connection) -> str | None:
    """The folder of the warehouse ``conn`` writes (None for an in-memory one: the system's temp folder)."""
    main = next(row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main")
    return str(Path(main).parent) if main else None


@contextmanager
def session(conn: sqlite3.Connection, macros: Path) -> Iterator[tuple[object, Path]]:
    """This thread's bounded DuckDB (:func:`engine`) with the ``macros`` file's statements run, and a
    scratch folder beside the warehouse (DuckDB's spill folder and :data:`SCRATCH_FILE`), gone
    afterwards (an attached scratch file stays readable by ``conn`` until it is detached)."""
    duck = engine(macros)
    folder = Path(tempfile.mkdtemp(prefix=".warehouse-scratch-", dir=scratch_parent(conn)))
    try:
        duck.execute(f"SET temp_directory = {literal(str(folder / 'spill'))}")
        yield duck, folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def reading(duck, path: Path) -> Iterator[None]:
    """While the block runs a statement of ``duck`` that reads ``path``: how far DuckDB has got, as
    bytes of the file, told to the reads' observer (:func:`warehouse.sources.base.observe_reads`, the
    ingest's progress line) every :data:`PROGRESS_POLL_S` from a thread of its own (DuckDB lets the
    GIL go while a statement runs), and the file's last byte once the block is done. A read of a
    large file by DuckDB takes most of its ingest: without this the line would stand still for it.
    Nothing is done when no one observes."""
    observer = read_observer()
    if observer is None:
        yield
        return
    size = Path(path).stat().st_size
    stop = threading.Event()

    def poll() -> None:
        told = 0
        while not stop.wait(PROGRESS_POLL_S):
            given = int(size * min(duck.query_progress(), 100.0) / 100)  # -1 before the statement starts
            if given > told:
                observer(path, given, size)
                told = given

    watcher = threading.Thread(target=poll, name="duckdb-read-progress", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        stop.set()
        watcher.join()
    observer(path, size, size)


def engine(macros: Path):
    """This thread's DuckDB: in memory, capped, one thread, the sqlite extension loaded and the ``macros``
    defined, made once per thread and process (loading the extension costs ~0.4 s of CPU: not once per
    input file; a forked worker makes its own)."""
    import duckdb

    made = getattr(_ENGINES, "made", None)
    if made is None or _ENGINES.pid != os.getpid():
        made = duckdb.connect(":memory:", config={
            "memory_limit": MEMORY_LIMIT,
            "threads": 1,
            "preserve_insertion_order": True,
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
        })
        made.execute("SET enable_progress_bar = true")  # tracked for :func:`reading`,
        made.execute("SET enable_progress_bar_print = false")  # never printed
        made.execute(f"LOAD {literal(str(extension_path(made)))}")
        _ENGINES.made, _ENGINES.macros, _ENGINES.pid = made, set(), os.getpid()
    if macros not in _ENGINES.macros:
        for statement in sqlfiles.statements(macros):
            made.execute(statement)
        _ENGINES.macros.add(macros)
    return made


def literal(text: str) -> str:
    """``text`` as a DuckDB string literal."""
    return "'" + text.replace("'", "''") + "'"
