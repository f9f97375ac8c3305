"""Give the operating system back the memory a finished request freed, so a server's size follows what it uses.

glibc's malloc keeps what a thread frees in that thread's arena for later use, and a server answers
on several threads: after a query that took hundreds of MB in SQLite (an FTS5 phrase against a huge
name), each thread that ran one kept its own copy's worth resident. ``warehouse serve`` grew ~97 MB
with each such 100 MB query, one at a time, and 2.5 GB after 11 name searches, although SQLite
freed it all each time. ``malloc_trim(0)`` returns every arena's free pages to the system; it costs
a walk of the arenas, so it runs only after a request during which SQLite's memory peaked past a
threshold (``sqlite3_memory_highwater``, process-wide, read and reset here).

Elsewhere than glibc (musl, macOS) both calls are missing and :func:`release_freed` does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sqlite3  # noqa: F401  (loads the SQLite library whose counters are read below)
import _sqlite3


def _function(library: str | None, name: str, restype, *argtypes):
    """``name`` from ``library`` (a path, or None for libc), or None where it does not exist."""
    try:
        found = getattr(ctypes.CDLL(library or ctypes.util.find_library("c")), name)
    except (OSError, AttributeError, TypeError):
        return None
    found.restype, found.argtypes = restype, argtypes
    return found


#: sqlite3_memory_highwater(reset): the most bytes SQLite held since the last reset (the process's)
_HIGHWATER = _function(_sqlite3.__file__, "sqlite3_memory_highwater", ctypes.c_int64, ctypes.c_int)
#: glibc's malloc_trim(pad): give free memory of every arena back to the system
_TRIM = _function(None, "malloc_trim", ctypes.c_int, ctypes.c_size_t)


#: SQLite's peak, since the last call, past which :func:`release_freed` trims (a window query takes < 1 MB)
TRIM_AFTER_BYTES = 32 * 2**20


def release_freed(threshold: int = TRIM_AFTER_BYTES) -> bool:
    """Return freed memory to the system if SQLite's memory peaked past ``threshold`` bytes since the last call.

    :return: whether memory was trimmed.
    """
    if _HIGHWATER is None or _TRIM is None:
        return False
    if _HIGHWATER(1) <= threshold:
        return False
    _TRIM(0)
    return True
