"""Interning of repeated strings into the ``string`` table."""

from __future__ import annotations

import sqlite3


class StringTable:
    """Maps text to ``string.id``, inserting new strings; cached for the life of one ingest."""

    def __init__(self, conn: sqlite3.Connection):
        self._conn = conn
        self._ids: dict[str, int] = {}

    def id(self, value: str | None) -> int | None:
        """The id of ``value`` (None for None)."""
        if value is None:
            return None
        found = self._ids.get(value)
        if found is None:
            row = self._conn.execute(
                "INSERT INTO string (value) VALUES (?) ON CONFLICT (value) DO UPDATE SET value = value RETURNING id",
                (value,),
            ).fetchone()
            found = self._ids[value] = row[0]
        return found
