"""The one JSON decoder for requests (REST bodies through Flask, WebSocket frames): nesting bounded first.

Python's ``json`` (and msgspec) recurse once per level of nesting: 100,000 ``[`` raise
``RecursionError``, which is no ``ValueError``, so it went past every "bad JSON" handler (REST
answered 500, the WebSocket closed with a traceback in the log). The depth is measured first,
without recursion, on the brackets outside strings; past ``MAX_JSON_DEPTH`` the request is
refused with :class:`TooDeep`, a one-line reason both transports turn into a 400 or a refusal frame.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

from flask.json.provider import DefaultJSONProvider

#: a JSON string (its brackets are text, not nesting); an unterminated one runs to the end (linear time)
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
#: every byte but the four brackets, deleted before counting
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class TooDeep(Exception):
    """A JSON request nested deeper than ``MAX_JSON_DEPTH`` (not a ValueError: no handler may take it for None)."""


def depth(text: str | bytes) -> int:
    """The deepest nesting of arrays and objects in ``text`` (malformed text: a bound of it)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    return max(accumulate(_STEP[byte] for byte in brackets), default=0)


def check_depth(text: str | bytes, max_depth: int) -> None:
    """:raises TooDeep: if ``text`` nests deeper than ``max_depth`` (0: no bound)."""
    opening = ("[", "{") if isinstance(text, str) else (b"[", b"{")
    if not max_depth or sum(text.count(bracket) for bracket in opening) <= max_depth:
        return  # too few brackets to nest deeper: most requests end here
    if depth(text) > max_depth:
        raise TooDeep(f"the JSON request is nested deeper than {max_depth} levels (WAREHOUSE_MAX_JSON_DEPTH)")


def loads(text: str | bytes, max_depth: int):
    """``json.loads(text)`` once its nesting is within ``max_depth``.

    :raises TooDeep: if it is not; ``ValueError`` if it is not JSON.
    """
    check_depth(text, max_depth)
    return json.loads(text)


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON with the depth check on every decoded request body (``request.get_json()``).

    The bound is the provider's own (``max_depth``, set from the app's limits), not read back through
    the app: Flask holds the app weakly here, and a test client's response outlives an app it made.
    """

    max_depth: int = 0

    def loads(self, s: str | bytes, **kwargs):
        check_depth(s, self.max_depth)
        return super().loads(s, **kwargs)
