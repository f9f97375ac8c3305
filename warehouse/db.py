"""Opening a warehouse: connection settings, read-only connections, and the migration runner.

The tables live only in ``migrations/NNNN_name.sql``, the derived views in
``warehouse/model/views/`` (:mod:`warehouse.schema_views`). A warehouse's version is
``PRAGMA user_version`` (set in the same transaction as the DDL) and
``schema_migrations`` keeps the audit trail with each file's sha256, so a landed
migration that was edited afterwards is refused instead of silently skipped.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from warehouse import schema_views, sqlfiles
from warehouse.errors import WarehouseError

MIGRATIONS_DIR = Path(__file__).resolve().parent / "_bundled" / "migrations"
BOOKKEEPING_SQL = sqlfiles.text(Path(__file__).parent / "schema_migrations.sql")
MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

#: Seconds a writer waits for another writer's lock before failing.
BUSY_TIMEOUT_S = 30


@dataclass(frozen=True)
class Migration:
    """One schema version: its number, name and SQL text."""

    version: int
    name: str
    sql: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


#: told (schema version, pending migrations) before an existing warehouse is upgraded
Announce = Callable[[int, list[Migration]], None]


def available_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration files in version order.

    :raises WarehouseError: if two files share a version or a version is skipped.
    """
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = MIGRATION_NAME.match(path.name)
        if not match:
            raise WarehouseError(f"{path}: migration files are named NNNN_snake_name.sql")
        migrations.append(Migration(int(match[1]), match[2], sqlfiles.text(path)))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise WarehouseError(
                f"{directory}: migration {expected:04d} is missing or duplicated "
                f"(found {migration.version:04d}_{migration.name}.sql)"
            )
    return migrations


def connect(path: str | Path, *, migrate_schema: bool = True,
            announce: Announce | None = None) -> sqlite3.Connection:
    """Open (creating if needed) a warehouse for writing, upgraded to the code's schema
    (``announce`` as for :func:`migrate`).

    The connection is in autocommit mode: callers open their own transactions
    (``BEGIN IMMEDIATE``) so that one input is one transaction.

    :raises WarehouseError: if the file is not a warehouse this code can use.
    """
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_S, check_same_thread=False)
        _enable_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA cache_size = -65536")
        conn.execute("PRAGMA temp_store = MEMORY")
    except sqlite3.DatabaseError as exc:
        raise WarehouseError(f"{path}: not a usable SQLite warehouse ({exc})") from None
    if migrate_schema:
        migrate(conn, label=str(path), announce=announce)
    return conn


def begin(conn: sqlite3.Connection, what: object, again: str = "run the ingest again") -> None:
    """Take the warehouse's write lock (``BEGIN IMMEDIATE``, waiting up to the busy timeout for
    another writer).

    :raises WarehouseError: naming ``what`` (the input or the task) and what to do (``again``) if
        another process kept the lock all that time: nothing was written.
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise WarehouseError(
            f"{what}: the warehouse is busy: another process held its write lock for {BUSY_TIMEOUT_S} s "
            f"({exc}); nothing was written, {again}"
        ) from None


@contextmanager
def transaction(conn: sqlite3.Connection, what: object,
                again: str = "run the ingest again") -> Iterator[sqlite3.Connection]:
    """One write transaction (:func:`begin`): committed when the block ends, rolled back when it raises."""
    begin(conn, what, again)
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _enable_wal(conn: sqlite3.Connection) -> None:
    """Switch to WAL, waiting like the busy timeout does.

    The switch needs an exclusive lock, and SQLite answers "database is locked" at once
    (without calling the busy handler) while another process is creating the same new
    warehouse; two ingests started together into a new file would otherwise fail.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def connect_readonly(path: str | Path) -> sqlite3.Connection:
    """Open an existing warehouse read-only (the service, ``warehouse sql``, queries).

    :raises WarehouseError: if the file does not exist or its schema does not match the code: newer
        or an edited migration (:func:`check_version`), or one that ``warehouse migrate`` must
        upgrade first (:func:`upgrade_needed`).
    """
    path = Path(path)
    if not path.is_file():
        raise WarehouseError(f"{path}: no such warehouse")
    conn = open_readonly(path)
    try:
        if reason := upgrade_needed(conn, label=str(path)):
            raise WarehouseError(reason)
    except BaseException:
        conn.close()
        raise
    return conn


def open_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection to an SQLite file, without the schema check; on read-only storage
    (a WAL file cannot make its shared memory there) it is opened immutable."""
    conn = _open_readonly(path, "mode=ro")
    try:
        conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.OperationalError as exc:
        conn.close()
        return _open_immutable(path, exc)
    except sqlite3.DatabaseError:
        return conn  # not a database: the caller's first statement says so in its own words
    return conn


def _open_readonly(path: Path, mode: str) -> sqlite3.Connection:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True, check_same_thread=False)
    conn.execute("PRAGMA query_only = 1")
    return conn


def _open_immutable(path: Path, failure: sqlite3.OperationalError) -> sqlite3.Connection:
    """A WAL warehouse on read-only storage cannot make its shared-memory file: read it as
    immutable, which is exact when its WAL holds nothing (nothing can write there either).

    :raises WarehouseError: when the folder is writable (the failure is something else) or a
        WAL with changes not yet in the file would be ignored.
    """
    if os.access(path.parent, os.W_OK):
        raise WarehouseError(f"{path}: cannot be read ({failure})") from None
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise WarehouseError(
            f"{path}: on read-only storage with changes still in {wal.name}; open it once where it is "
            "writable (any warehouse command) to fold them in") from None
    return _open_readonly(path, "mode=ro&immutable=1")


def schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def check_version(conn: sqlite3.Connection, *, label: str, migrations: list[Migration] | None = None) -> list[Migration]:
    """Compare a warehouse with the migration files; return the pending ones.

    Reads only: never creates a table.

    :raises WarehouseError: if the warehouse is newer than the code or a landed migration changed.
    """
    migrations = available_migrations() if migrations is None else migrations
    current = schema_version(conn)
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise WarehouseError(
            f"{label}: warehouse schema version {current} is newer than this code's {latest}; "
            "upgrade the warehouse package to read it"
        )
    if current:
        landed = dict(conn.execute("SELECT version, sha256 FROM schema_migrations").fetchall())
        for migration in migrations[:current]:
            recorded = landed.get(migration.version)
            if recorded != migration.sha256:
                raise WarehouseError(
                    f"{label}: migration {migration.version:04d}_{migration.name}.sql differs from the one "
                    "this warehouse was built with; landed migrations must never be edited "
                    "(add a new migration instead)"
                )
    return migrations[current:]


def upgrade_needed(conn: sqlite3.Connection, *, label: str, migrations: list[Migration] | None = None) -> str | None:
    """Why ``warehouse migrate`` must upgrade a warehouse before this code reads it, or None when
    it is current: a migration is pending, or (at the latest schema) a view differs from its file
    (:func:`schema_views.changed`). A reader refuses both alike: the queries are written for the
    code's tables and views. Reads only.

    :raises WarehouseError: as :func:`check_version`.
    """
    migrations = available_migrations() if migrations is None else migrations
    if check_version(conn, label=label, migrations=migrations):
        return (f"{label}: schema version {schema_version(conn)} is behind this code's {migrations[-1].version}; "
                "run `warehouse migrate`")
    if stale := schema_views.changed(conn):
        return f"{label}: views differ from this code's files ({', '.join(stale)}); run `warehouse migrate`"
    return None


def migrate(conn: sqlite3.Connection, *, label: str = "warehouse", migrations: list[Migration] | None = None,
            announce: Announce | None = None) -> list[Migration]:
    """Apply the pending migrations and recreate the model's views if a view file changed
    (:mod:`warehouse.schema_views`), in one transaction; return the migrations applied.

    ``announce(version, pending)`` is called first when an existing warehouse (schema ``version``
    > 0) is upgraded: a migration may rebuild an index, minutes on a big warehouse.

    :raises WarehouseError: as :func:`check_version`, or if a migration's or a view's SQL fails
        (nothing is applied then).
    """
    code = available_migrations()
    migrations = code if migrations is None else migrations
    pending = check_version(conn, label=label, migrations=migrations)
    views = _views_for(conn, pending, code)
    if not pending and not schema_views.changed(conn, views):
        return []
    if announce is not None and pending and (version := schema_version(conn)):
        announce(version, pending)
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    script = ["BEGIN IMMEDIATE;", BOOKKEEPING_SQL]
    for migration in pending:
        script.append(migration.sql)
        script.append(
            "INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES "
            f"({migration.version}, {_quote(migration.name)}, {_quote(migration.sha256)}, {_quote(now)});"
        )
    if views:
        script.extend(schema_views.script(conn, views))
    if pending:
        script.append(f"PRAGMA user_version = {pending[-1].version};")
    script.append("COMMIT;")
    try:
        conn.executescript("\n".join(script))
    except sqlite3.Error as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        # another process (a concurrent ingest) may have applied them while we waited for the lock
        if not check_version(conn, label=label, migrations=migrations) and not schema_views.changed(conn, views):
            return []
        raise WarehouseError(f"{label}: migration failed, nothing applied ({exc})") from None
    return pending


def _views_for(conn: sqlite3.Connection, pending: list[Migration], code: list[Migration]) -> list[schema_views.View]:
    """The view files, when the migration reaches the latest schema of the ``code``'s migrations,
    which they are written for; none (nothing to recreate) for an upgrade to an older version (the
    migration tests' steps)."""
    reached = pending[-1].version if pending else schema_version(conn)
    if reached != len(code):
        return []
    return schema_views.available_views()


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
