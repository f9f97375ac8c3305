"""Datasette's search box, bounded: the full-text index is asked for the search's first 32 characters.

Datasette turns the box's text into an FTS5 query with its SQL function ``escape_fts`` (each word a
quoted phrase). On the string table's trigram index a phrase of n characters is n - 2 trigrams, and
FTS5 holds each one's positions in a name at once: a 600-character search against a planted 1 MiB
name of "abab..." (the ingest accepts names up to MAX_STRING_BYTES) held ~190 MB and ran 24 s, which
no time limit interrupts. Datasette's own ``escape_fts`` is replaced on every connection by one that
escapes only the first :data:`SEARCH_CHARS` characters: at most 30 trigrams, 30 MB and 0.26 s against
that name (64 characters: 63 MB and 0.6 s, and the table page runs the search more than once). A
longer search finds the names holding its start.
"""

from __future__ import annotations

import sqlite3

from datasette.utils import escape_fts

#: characters of a search that reach the full-text index (30 trigrams at most)
SEARCH_CHARS = 32


def bounded_escape_fts(query):
    """Datasette's ``escape_fts`` of the query's first :data:`SEARCH_CHARS` characters."""
    return escape_fts(query[:SEARCH_CHARS] if isinstance(query, str) else query)


def register(conn: sqlite3.Connection) -> None:
    """Put :func:`bounded_escape_fts` on ``conn`` in place of Datasette's ``escape_fts``."""
    conn.create_function("escape_fts", 1, bounded_escape_fts, deterministic=True)
