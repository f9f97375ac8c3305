"""Which ``Host`` headers and ``Origin``s a warehouse server answers, and when it needs a token.

A browser runs any page's script against any address, loopback included. Browsers do not
apply the same-origin policy to WebSockets, so a page from anywhere can open one to
``127.0.0.1``; and a page on a name its author controls can re-point that name at
``127.0.0.1`` (DNS rebinding), so that the browser sends it plain HTTP requests it takes for
its own. A server that answers only requests naming one of its own hosts (the ``Host``
header) and, when a page sends them, only from pages of those hosts (the ``Origin`` header),
defeats both: the attacker's page can name neither.

The hosts served: the loopback names (``localhost``, ``127.0.0.1``, ``::1``), the address the
server is bound to when it is a concrete one, and the names the user adds
(``--allow-host NAME`` or ``WAREHOUSE_ALLOWED_HOSTS=name1,name2``; ``*`` allows any name and
leaves the check to the token). An origin is allowed when its scheme is http or https and its
host is allowed, on any port: the Insight page is served from another port than the one it talks to.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
#: the environment variable naming more hosts (comma-separated), read by every server
ENV = "WAREHOUSE_ALLOWED_HOSTS"
#: the environment variable holding the token every server then requires
TOKEN_ENV = "WAREHOUSE_TOKEN"
ANY = "*"
#: a Host header: a name or an IPv4 address, or an IPv6 address in brackets, then maybe a port
_HOST = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::\d{1,5})?")
_ORIGIN = re.compile(r"https?://(?P<host>.+)")


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps a server on this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether ``host`` is a bind-everywhere address (``0.0.0.0``, ``::``, or empty)."""
    try:
        return not host or ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def host_name(header: str) -> str | None:
    """The host of a ``Host`` header (``[::1]:8000`` -> ``::1``), lower case; None if it is not one."""
    found = _HOST.fullmatch(header.strip())
    if found is None:
        return None
    return (found["v6"] or found["name"]).lower()


def names_in(text: str | Iterable[str] | None) -> list[str]:
    """Host names from a comma-separated setting or a list of them (``--allow-host`` given several times)."""
    if text is None:
        return []
    parts = text.split(",") if isinstance(text, str) else [part for item in text for part in str(item).split(",")]
    return [part.strip().strip("[]").lower() for part in parts if part.strip()]


@dataclass(frozen=True)
class AllowedHosts:
    """The host names a server answers to (see the module docstring)."""

    names: frozenset[str]

    @classmethod
    def build(cls, extra: str | Iterable[str] | None = None, bound: str | None = None) -> AllowedHosts:
        """The loopback names, ``bound`` when it is a concrete address, and the ``extra`` names."""
        names = {*LOOPBACK_NAMES, *names_in(extra)}
        if bound and not is_wildcard(bound):
            names.add(bound.strip("[]").lower())
        return cls(frozenset(names))

    @classmethod
    def from_env(cls, environ: Mapping[str, str], bound: str | None = None) -> AllowedHosts:
        return cls.build(environ.get(ENV), bound)

    def allows_host(self, header: str | None) -> bool:
        """Whether a request with this ``Host`` header is for this server (no header: not from a browser)."""
        if header is None:
            return True
        name = host_name(header)
        return name is not None and (ANY in self.names or name in self.names)

    def allows_origin(self, origin: str | None) -> bool:
        """Whether a page of this ``Origin`` may use the server (no header: not a page's request)."""
        if origin is None:
            return True
        found = _ORIGIN.fullmatch(origin.strip())
        return found is not None and self.allows_host(found["host"])

    def refusal_for(self, host: str | None, origin: str | None) -> str | None:
        """Why a request with these ``Host`` and ``Origin`` headers is not for this server, or None."""
        if not self.allows_host(host):
            return refusal("Host", host, self)
        if not self.allows_origin(origin):
            return refusal("Origin", origin, self)
        return None

    def described(self) -> str:
        return ", ".join(sorted(self.names))


def refusal(header: str, value: str | None, allowed: AllowedHosts) -> str:
    """The one-line reason a request naming a foreign host or origin is refused."""
    return (f"{header} {value!r} is not a host this server answers to ({allowed.described()}); "
            f"add it with --allow-host NAME or {ENV}=NAME")


def new_token() -> str:
    """A random token for a server listening beyond loopback without one."""
    return secrets.token_urlsafe(24)
