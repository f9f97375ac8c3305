"""Give the operating system back the memory a finished request freed, so a server's size follows what it uses.

glibc's malloc keeps what a thread frees in that thread's arena for later use, and a server answers
on several threads: after a query that took hundreds of MB in SQLite (an FTS5 phrase against a huge
name), each thread that ran one kept its own copy's worth resident. ``warehouse serve`` grew ~97 MB
with each such 100 MB query, one at a time, and 2.5 GB after 11 name searches, although SQLite
freed it all each time. ``malloc_trim(0)`` returns every arena's free pages to the system; it costs
a walk of the arenas, so it runs only after a request during which SQLite freed much of what it held
(its peak since the last request, ``sqlite3_memory_highwater``, process-wide and reset here, past what
it holds now by a threshold; an ingest's 64 MB page cache in use is not trimmed for).

Elsewhere than glibc (musl, macOS) both calls are missing and :func:`release_freed` does nothing.
"""

from __future__ import annotations

import _sqlite3  # the module linked to the SQLite library whose counters are read below
import ctypes
import ctypes.util


def _function(library: str | None, name: str, restype, *argtypes):
    """``name`` from ``library`` (a path, or None for libc), or None where it does not exist."""
    try:
        found = getattr(ctypes.CDLL(library or ctypes.util.find_library("c")), name)
    except (OSError, AttributeError, TypeError):
        return None
    found.restype, found.argtypes = restype, argtypes
    return found


#: sqlite3_memory_highwater(reset): the most bytes SQLite held since the last reset (the process's)
_HIGHWATER = _function(getattr(_sqlite3, "__file__", None), "sqlite3_memory_highwater", ctypes.c_int64, ctypes.c_int)
#: sqlite3_memory_used(): the bytes SQLite holds now (the process's)
_USED = _function(getattr(_sqlite3, "__file__", None), "sqlite3_memory_used", ctypes.c_int64)
#: glibc's malloc_trim(pad): give free memory of every arena back to the system
_TRIM = _function(None, "malloc_trim", ctypes.c_int, ctypes.c_size_t)


#: bytes SQLite must have freed since its peak before :func:`release_freed` trims (a window query takes < 1 MB)
TRIM_AFTER_BYTES = 32 * 2**20


def sqlite_peak(reset: bool = False) -> int | None:
    """The most bytes SQLite held at once in this process since the last reset (None where it cannot be read).

    :param reset: start the count again from what SQLite holds now.
    """
    return None if _HIGHWATER is None else _HIGHWATER(int(reset))


def release_freed(threshold: int = TRIM_AFTER_BYTES) -> bool:
    """Return freed memory to the system if SQLite's peak since the last call is past what it holds now by
    more than ``threshold`` bytes.

    :return: whether memory was trimmed.
    """
    if _TRIM is None or _USED is None or (sqlite_peak(reset=True) or 0) - _USED() <= threshold:
        return False
    _TRIM(0)
    return True
