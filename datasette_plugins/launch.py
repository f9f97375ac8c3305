"""Start Datasette on a warehouse with the plugin and settings fit for profiles.

``warehouse datasette`` runs it in the foreground; ``warehouse demo`` starts it beside
the REST API with :func:`start`. The file is served immutable (read-only, no locking,
row counts cached), on loopback unless asked otherwise, and then behind a token (:func:`boundary_env`).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from datasette.utils import tilde_encode

from warehouse import db, hosts, limits

#: Datasette settings: room for a timeline window's slices and a cluster's steps per page
#: and query, a time limit that stops a runaway query without killing slow honest ones, and
#: enough SQL threads that a few clients running runaway queries (each holding a thread until
#: the time limit) leave the others theirs (Datasette's default is 3); a CSV export, streamed
#: or not, as big as one REST answer may be (``WAREHOUSE_MAX_ANSWER_BYTES``, in MiB rounded up).
SETTINGS = {
    "sql_time_limit_ms": 5000,
    "num_sql_threads": 8,
    "max_returned_rows": 20000,
    "facet_time_limit_ms": 500,
    "default_page_size": 100,
    "max_csv_mb": -(-limits.current().MAX_ANSWER_BYTES // 2**20),
}


def _fold_the_log(db_path: str | Path) -> None:
    """Copy what the write-ahead log holds into the file: an immutable reader reads the file
    alone, so rows a writer has not checkpointed yet (a process still open, or one that died)
    would be missing from every page. Best effort: a writer holding the file keeps its log."""
    try:
        with closing(sqlite3.connect(db_path, timeout=1)) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        pass


def datasette_argv(db_path: str | Path, *, host: str = "127.0.0.1", port: int = 8001) -> list[str]:
    """The command line that serves ``db_path`` with Datasette (``python -m datasette serve ...``).

    :raises WarehouseError: if ``db_path`` is not a warehouse this code can read.
    """
    db.connect_readonly(db_path).close()
    _fold_the_log(db_path)
    argv = [sys.executable, "-m", "datasette", "serve", "--immutable", str(Path(db_path).resolve()),
            "--host", host, "--port", str(port)]
    for name, value in SETTINGS.items():
        argv += ["--setting", name, str(value)]
    return argv


def boundary_env(*, host: str, allow_hosts=(), token: str | None = None) -> dict[str, str]:
    """The variables the plugin's boundary reads (datasette_plugins/boundary.py): the hosts served
    besides loopback (``host`` when it is a concrete address, the ``allow_hosts``) and the token."""
    names = [*hosts.names_in(os.environ.get(hosts.ENV)), *hosts.names_in(allow_hosts)]
    if not hosts.is_wildcard(host):
        names.append(host)
    return {hosts.ENV: ",".join(names), **({hosts.TOKEN_ENV: token} if token else {})}


def url(db_path: str | Path, *, host: str = "127.0.0.1", port: int = 8001) -> str:
    """The address of the warehouse's database page once Datasette runs."""
    return f"http://{host}:{port}/{tilde_encode(Path(db_path).stem)}"


def page_url(db_path: str | Path, slug: str, *, host: str = "127.0.0.1", port: int = 8001) -> str:
    """The address of one of the warehouse's pages (``steps``, ``memory``...) once Datasette runs."""
    from datasette_plugins.pages import ROUTE_PREFIX

    return f"http://{host}:{port}{ROUTE_PREFIX}/{tilde_encode(Path(db_path).stem)}/{slug}"


def start(db_path: str | Path, *, host: str = "127.0.0.1", port: int = 8001, **popen_args) -> subprocess.Popen:
    """Start Datasette in the background; the caller stops it (``terminate()``)."""
    return subprocess.Popen(datasette_argv(db_path, host=host, port=port), **popen_args)
