"""The model's derived views: one SQL file each, recreated when their text changes.

Tables, indexes and data moves live in the migrations; a derived view holds no data, so it
lives in one file, ``warehouse/model/views/<name>.sql``, whose header documents it in the
named queries' grammar (:mod:`warehouse.sqlfiles`: ``-- description:`` and one
``-- column NAME: text`` per column) and whose body is the view's SELECT (``-- include: _part``
lines share a fragment, ``_part.sql`` in the same folder). The files are the one copy of a view's
meaning, its documentation included (Datasette's column descriptions read them).

A warehouse records each view's sha256 in ``schema_views``; :func:`script` (run by
:func:`warehouse.db.migrate` in the migrations' transaction) drops every view and creates them
all again in dependency order when any file differs, so ``sqlite_master`` keeps them in the
order the exporters walk. :func:`changed` is what a read-only check compares.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from warehouse import sqlfiles
from warehouse.errors import WarehouseError

VIEWS_DIR = Path(__file__).resolve().parent / "model" / "views"
VIEW_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class View:
    """One derived view: its name, its SELECT (includes expanded) and its documentation."""

    name: str
    select: str
    description: str
    columns: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.select.encode()).hexdigest()

    @property
    def create(self) -> str:
        return f'CREATE VIEW "{self.name}" AS\n{self.select};'


def available_views(directory: Path = VIEWS_DIR) -> list[View]:
    """The view files, by name.

    :raises WarehouseError: if a file is misnamed or undocumented.
    """
    return list(_read_views(directory, tuple(sorted(
        (path.name, path.stat().st_mtime_ns) for path in directory.glob("*.sql")))))


@lru_cache(maxsize=4)
def _read_views(directory: Path, stamp: tuple) -> tuple[View, ...]:
    views = {}
    for name, _ in stamp:
        if name.startswith("_"):
            continue  # a fragment for `-- include:`
        views[name[:-4]] = _read_view(directory / name)
    return tuple(views[name] for name in sorted(views))


def _read_view(path: Path) -> View:
    name = path.stem
    if not VIEW_NAME.match(name):
        raise WarehouseError(f"{path}: view files are named snake_name.sql")
    text = sqlfiles.text(path)
    try:
        header = sqlfiles.fields(text)
        select = sqlfiles.expand_includes(sqlfiles.body(text), path.parent)
    except sqlfiles.SqlFileError as exc:
        raise WarehouseError(f"{path}: {exc}") from None
    description = " ".join(item.value for item in header if item.key == "description")
    columns = {}
    for item in header:
        if item.key == "column":
            column, _, meaning = item.value.partition(":")
            columns[column.strip()] = meaning.strip()
    if not description or not select:
        raise WarehouseError(f"{path}: a view file needs a '-- description:' header and a SELECT")
    return View(name, select.rstrip().rstrip(";"), description, columns)


def in_dependency_order(views: list[View]) -> list[View]:
    """``views``, each after the views it reads.

    :raises WarehouseError: if the views read each other in a circle.
    """
    return list(_ordered(tuple(views)))


@lru_cache(maxsize=8)
def _ordered(views: tuple[View, ...]) -> tuple[View, ...]:
    """:func:`in_dependency_order`, parsed once per process: every fresh warehouse recreates the
    views, and parsing them all costs about 0.25 s."""
    views = {view.name: view for view in views}
    read_by = {name: reads(view) & views.keys() - {name} for name, view in views.items()}
    ordered: dict[str, None] = {}

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in ordered:
            return
        if name in path:
            raise WarehouseError(f"{VIEWS_DIR}: views read each other in a circle ({' -> '.join(path + (name,))})")
        for other in sorted(read_by[name]):
            visit(other, path + (name,))
        ordered[name] = None

    for name in sorted(views):
        visit(name, ())
    return tuple(views[name] for name in ordered)


def reads(view: View) -> set[str]:
    """The tables and views the view's SELECT reads (its CTEs' names too, which name no view)."""
    from sqlglot import exp

    return {table.name for table in parse(view).find_all(exp.Table)}


@lru_cache(maxsize=64)
def parse(view: View):
    """The view's SELECT as sqlglot's tree, parsed once per process (the dependency order and the
    Spark ingest's split of the views both read it); a shared tree, not to be changed.

    sqlglot is imported here, not at the top: opening a warehouse whose views are current needs
    no parsing, and the answering commands start without it.

    :raises WarehouseError: if the SELECT cannot be parsed.
    """
    import sqlglot

    try:
        return sqlglot.parse_one(view.select, read="sqlite")
    except sqlglot.errors.ParseError as exc:
        raise WarehouseError(f"{VIEWS_DIR / view.name}.sql: cannot be parsed ({exc})") from None


def recorded(conn: sqlite3.Connection) -> dict[str, str]:
    """The views' sha256 a warehouse was built with ({} before any was recorded)."""
    try:
        return dict(conn.execute("SELECT name, sha256 FROM schema_views"))
    except sqlite3.OperationalError:  # a warehouse older than the view files
        return {}


def changed(conn: sqlite3.Connection, views: list[View] | None = None) -> list[str]:
    """The names of the views whose file differs from what the warehouse holds (added and removed ones too)."""
    views = available_views() if views is None else views
    held = recorded(conn)
    wanted = {view.name: view.sha256 for view in views}
    return sorted(name for name in held.keys() | wanted.keys() if held.get(name) != wanted.get(name))


def script(conn: sqlite3.Connection, views: list[View]) -> list[str]:
    """The statements that drop the model's views (those recorded and those of the files: a view a
    user made is left alone) and create the files' views, recording their sha256."""
    statements = [f'DROP VIEW IF EXISTS "{name}";' for name in sorted(recorded(conn).keys() | {v.name for v in views})]
    statements.append("DELETE FROM schema_views;")
    for view in in_dependency_order(views):
        statements.append(view.create)
        statements.append(f"INSERT INTO schema_views (name, sha256) VALUES ('{view.name}', '{view.sha256}');")
    return statements
