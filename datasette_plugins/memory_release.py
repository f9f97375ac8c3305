"""After each request, the memory its queries freed goes back to the system (:mod:`warehouse.memory`).

Datasette runs queries on its own threads, and glibc keeps what each thread frees in that thread's
arena: a query that took hundreds of MB in SQLite left the process that much bigger for good, per
thread. The wrapper asks :func:`warehouse.memory.release_freed` once the answer is sent, which trims
only when SQLite's memory peaked past its threshold since the last request.
"""

from __future__ import annotations

from warehouse import memory


def wrap(app):
    """The ASGI app ``app``, returning freed memory to the system after each request."""

    async def released(scope, receive, send):
        try:
            return await app(scope, receive, send)
        finally:
            memory.release_freed()

    return released
