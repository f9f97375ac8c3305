"""The schema's documentation, read from the migrations' comments and the view files' headers.

A view's documentation is its file's header (:mod:`warehouse.schema_views`). The migrations are
the only copy of the tables, so they carry their documentation too
(Perfetto style): a ``--`` comment directly above ``CREATE TABLE``/``CREATE VIEW``/``CREATE
VIRTUAL TABLE`` describes the object, and one directly above a column definition (or an
``ALTER TABLE ... ADD COLUMN`` / ``RENAME COLUMN ... TO``) describes the column; a virtual
table's column is its name alone on its line (FTS5 takes no types). Datasette's metadata and the
test that every column is documented both read it from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warehouse.db import BOOKKEEPING_SQL, Migration, available_migrations
from warehouse.schema_views import available_views

CREATE = re.compile(r"^\s*CREATE\s+(?:VIRTUAL\s+TABLE|TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?\"?(\w+)\"?", re.IGNORECASE)
ADD_COLUMN = re.compile(r"^\s*ALTER\s+TABLE\s+\"?(\w+)\"?\s+ADD\s+(?:COLUMN\s+)?\"?(\w+)\"?", re.IGNORECASE)
RENAME_COLUMN = re.compile(
    r"^\s*ALTER\s+TABLE\s+\"?(\w+)\"?\s+RENAME\s+(?:COLUMN\s+)?\"?(\w+)\"?\s+TO\s+\"?(\w+)\"?", re.IGNORECASE)
COLUMN = re.compile(r"^\s*\"?(\w+)\"?(?:\s+(?:INTEGER|TEXT|REAL|BLOB|NUMERIC|ANY)\b|\s*,?\s*$)", re.IGNORECASE)
CONSTRAINT_WORDS = {"primary", "unique", "check", "foreign", "constraint"}


@dataclass
class TableDoc:
    """A table's or view's description and its columns' descriptions."""

    name: str
    description: str = ""
    columns: dict[str, str] = field(default_factory=dict)


def read_docs(migrations: list[Migration] | None = None) -> dict[str, TableDoc]:
    """Descriptions of every table the migrations create and every view of the model, by name."""
    docs: dict[str, TableDoc] = {}
    _read_migration(BOOKKEEPING_SQL, docs)
    for migration in available_migrations() if migrations is None else migrations:
        _read_migration(migration.sql, docs)
    for view in available_views():
        docs[view.name] = TableDoc(view.name, view.description, dict(view.columns))
    return docs


def _read_migration(sql: str, docs: dict[str, TableDoc]) -> None:
    comment: list[str] = []
    current: TableDoc | None = None
    for line in sql.splitlines():
        stripped = line.strip()
        if stripped.startswith("--"):
            comment.append(stripped[2:].strip())
            continue
        text = " ".join(comment)
        comment = []
        if created := CREATE.match(line):
            current = docs.setdefault(created[1], TableDoc(created[1]))
            current.description = text
            if not stripped.endswith("("):
                current = None  # a view, or a table created in one line: no column block follows
        elif added := ADD_COLUMN.match(line):
            docs.setdefault(added[1], TableDoc(added[1])).columns[added[2]] = text
        elif renamed := RENAME_COLUMN.match(line):
            table = docs.setdefault(renamed[1], TableDoc(renamed[1]))
            table.columns[renamed[3]] = text or table.columns.pop(renamed[2], "")
        elif current is not None and stripped.startswith(")"):
            current = None
        elif current is not None and (column := COLUMN.match(line)):
            if column[1].lower() not in CONSTRAINT_WORDS:
                current.columns[column[1]] = text
