"""Requests for this server only: a foreign ``Host`` (DNS rebinding) or ``Origin`` (another site's page) gets 403.

The hosts served are warehouse/hosts.py's: the loopback names, the concrete address
``warehouse serve --host`` binds, and ``ALLOWED_HOSTS`` (``--allow-host NAME``,
``WAREHOUSE_ALLOWED_HOSTS=name1,name2``). Checked before the token and before a request slot
is taken, so a refused request costs nothing. The WebSocket applies the same rule at its
handshake (service/insight_ws.py).
"""

from __future__ import annotations

from flask import Flask, request

from service.errors import ApiError
from warehouse import hosts


def allowed_hosts(app: Flask) -> hosts.AllowedHosts:
    """The hosts ``app`` serves (its ``ALLOWED_HOSTS`` and ``BOUND_HOST`` config)."""
    return hosts.AllowedHosts.build(app.config.get("ALLOWED_HOSTS"), app.config.get("BOUND_HOST"))


def init_app(app: Flask) -> None:
    allowed = allowed_hosts(app)

    @app.before_request
    def refuse_foreign_hosts():
        """:raise 403: if the request names a host or comes from a page this server does not serve."""
        reason = allowed.refusal_for(request.headers.get("Host"), request.headers.get("Origin"))
        if reason is not None:
            raise ApiError("foreign_host", reason, 403)
