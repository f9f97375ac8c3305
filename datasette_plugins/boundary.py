"""Datasette for the hosts it serves only, and behind a token when one is set: an ASGI wrapper.

A request naming a foreign ``Host`` (DNS rebinding: another site's page reading the warehouse
through a name it re-points at this machine) or sent by a page of a foreign ``Origin`` gets a
one-line 403. The hosts served are warehouse/hosts.py's: the loopback names and
``WAREHOUSE_ALLOWED_HOSTS`` (comma-separated; ``*``: any), which ``warehouse datasette`` sets
from ``--host`` and ``--allow-host``; plain ``datasette`` bound beyond loopback needs it set.

With ``WAREHOUSE_TOKEN`` set (``warehouse datasette`` beyond loopback always sets one), every
request needs it: ``Authorization: Bearer <token>``, or the cookie a first visit with
``?_token=<token>`` sets (that visit is then sent on to the same address without it, so the
token does not stay in the address bar or the history). Without it: a one-line 401.
"""

from __future__ import annotations

import hmac
import os
import re
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qsl, quote, urlencode

from datasette.utils.asgi import asgi_send

from warehouse import hosts

COOKIE = "warehouse_token"
QUERY = "_token"


def wrap(app):
    """``app`` behind the host, origin and token checks; the settings are read from the environment now."""
    allowed = hosts.AllowedHosts.from_env(os.environ)
    token = os.environ.get(hosts.TOKEN_ENV) or None

    async def guarded(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        reason = allowed.refusal_for(headers.get("host"), headers.get("origin"))
        if reason is not None:
            return await asgi_send(send, reason + "\n", 403)
        if token is None or _carries(headers, token):
            return await app(scope, receive, send)
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        if any(name == QUERY and _same(value, token) for name, value in query):
            rest = urlencode([(name, value) for name, value in query if name != QUERY])
            path = re.sub(r"^/+", "/", scope["path"])  # never //elsewhere: a redirect off the site
            return await _remember(send, path + (f"?{rest}" if rest else ""), token)
        return await asgi_send(send, f"missing or wrong token: send 'Authorization: Bearer <token>' or open a page "
                                     f"once with ?{QUERY}=<token> ({hosts.TOKEN_ENV})\n", 401)

    return guarded


def _same(given: str, token: str) -> bool:
    return hmac.compare_digest(given.encode(), token.encode())


def _carries(headers: dict[str, str], token: str) -> bool:
    """Whether the request has the token, as a bearer token or in the cookie."""
    scheme, _, given = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and _same(given.strip(), token):
        return True
    try:
        cookie = SimpleCookie(headers.get("cookie", ""))
    except CookieError:
        return False
    return COOKIE in cookie and _same(cookie[COOKIE].value, token)


async def _remember(send, location: str, token: str) -> None:
    """Set the token's cookie and send the browser on to ``location``."""
    await send({"type": "http.response.start", "status": 302, "headers": [
        [b"location", quote(location, safe="/?=&%:@+,;~").encode()],
        [b"set-cookie", f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax".encode()],
        [b"content-type", b"text/plain"]]})
    await send({"type": "http.response.body", "body": b""})
