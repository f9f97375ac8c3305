"""``warehouse serve``'s waitress server, hardened against slow and numerous clients.

waitress bounds idle connections (``channel_timeout``: no byte in or out for that long) and
open connections (``connection_limit``: past it, it stops accepting until some close), but
not the time a client may take to send one request: a client trickling a header line every
few seconds is never idle, and ~100 of them used to fill waitress's default limit and lock
everyone out. Here each connection notes when the first byte of its current request came;
the server's maintenance pass (every ``cleanup_interval`` s) closes a connection whose
request is still incomplete ``REQUEST_READ_TIMEOUT_S`` after that, and the connection limit
is raised well above what a few slow clients can hold.

Threads: ``--threads`` for the requests at large, plus ``SQL_SLOTS + SQL_QUEUE`` that ad-hoc
SQL can hold (service/admission.py), so slow SQL never takes the others' threads.
"""

from __future__ import annotations

import time

import waitress
from flask import Flask
from waitress.channel import HTTPChannel

from warehouse.limits import Limits


class ReadTimedChannel(HTTPChannel):
    """An HTTP connection that remembers when the request it is reading began (``time.monotonic()``)."""

    request_started: float | None = None

    def received(self, data):
        if data and self.request is None:
            self.request_started = time.monotonic()
        result = super().received(data)
        if self.request is None:  # every request received is complete: none is being read
            self.request_started = None
        return result


def create_server(app: Flask, *, host: str, port: int, threads: int, limits: Limits, **options):
    """A waitress server for ``app`` (``run()`` it, ``close()`` it); ``threads`` for requests other than ad-hoc SQL.

    :raises OSError: if it cannot listen on ``host:port``.
    """
    read_timeout = limits.REQUEST_READ_TIMEOUT_S
    server = waitress.create_server(
        app, host=host, port=port, ident="warehouse",
        threads=threads + limits.SQL_SLOTS + limits.SQL_QUEUE,
        channel_timeout=max(1, round(limits.CHANNEL_TIMEOUT_S)),
        connection_limit=max(1, limits.CONNECTION_LIMIT),
        # how often idle and slow connections are looked for: a slow one lasts at most read_timeout + this
        cleanup_interval=max(1, min(30, round(read_timeout / 4) if read_timeout else 30)),
        **options,
    )
    if read_timeout:
        server.channel_class = ReadTimedChannel
        maintenance = server.maintenance

        def close_slow_readers(now):
            maintenance(now)
            cutoff = time.monotonic() - read_timeout
            for channel in list(server.active_channels.values()):
                started = getattr(channel, "request_started", None)
                if started is not None and started < cutoff and not channel.requests:
                    channel.will_close = True

        server.maintenance = close_slow_readers
    return server
