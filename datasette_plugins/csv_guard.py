"""Datasette's CSV answers with formula cells neutralised, as the REST API's CSV (OWASP, CSV injection).

Datasette writes its ``.csv`` pages itself (no hook reaches the cells), so this ASGI middleware
rewrites the stream it sends: each whole CSV record is parsed, and a cell that a spreadsheet
would run as a formula (starting ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, and not
a plain number such as ``-5``) gets a leading single quote. Records are rewritten as they
complete, so a streamed export (``_stream=1``) stays streamed.
"""

from __future__ import annotations

import codecs
import csv
import io
import re

from warehouse.output import FORMULA_STARTS

#: text a spreadsheet reads as a number, not a formula (``-5``, ``+1.5e3``)
PLAIN_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
#: the content types of Datasette's CSV (``text/csv`` with ``_dl=1``); its ``_trace`` page is HTML and left alone
CSV_TYPES = (b"text/plain", b"text/csv")
#: what ends a record (a newline outside quotes) or opens and closes a quoted field
RECORD_MARKS = re.compile(r'["\n]')


def neutralise(cell: str) -> str:
    """``cell`` as a spreadsheet shows it as text: a leading quote before a formula, numbers untouched."""
    if cell.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


class RecordRewriter:
    """Splits a CSV byte stream into whole records and rewrites each with :func:`neutralise`."""

    def __init__(self) -> None:
        self.pending = ""  # text after the last whole record
        self.scanned = 0  # how much of ``pending`` was scanned for record ends
        self.quoted = False  # the scan ended inside a quoted field
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")

    def feed(self, chunk: bytes, final: bool = False) -> bytes:
        """The rewritten records completed by ``chunk`` (all that is left when ``final``)."""
        self.pending += self.decoder.decode(chunk, final)
        cut = 0
        for mark in RECORD_MARKS.finditer(self.pending, self.scanned):
            if mark[0] == '"':
                self.quoted = not self.quoted
            elif not self.quoted:
                cut = mark.end()
        self.scanned = len(self.pending)
        if final:
            cut = len(self.pending)
        complete, self.pending = self.pending[:cut], self.pending[cut:]
        self.scanned -= cut
        return _rewrite(complete).encode("utf-8", errors="surrogateescape")


def _rewrite(records: str) -> str:
    if not records:
        return ""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in csv.reader(io.StringIO(records, newline="")):
        writer.writerow([neutralise(cell) for cell in row])
    text = out.getvalue()
    return text if records.endswith("\n") else text[:-2]


def is_csv_request(scope) -> bool:
    """Datasette answers this request in CSV (its ``.csv`` paths: Datasette 0.65 has no ``_format=csv``)."""
    return scope.get("type") == "http" and scope.get("path", "").endswith(".csv")


def wrap(app):
    """The ASGI app ``app`` with its CSV answers' cells neutralised."""

    async def guarded(scope, receive, send):
        if not is_csv_request(scope):
            return await app(scope, receive, send)
        state = {"rewriter": None}

        async def guarded_send(message):
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers") or [])
                content_type = headers.get(b"content-type", b"")
                if content_type.startswith(CSV_TYPES):
                    state["rewriter"] = RecordRewriter()
                    message = {**message, "headers": [(k, v) for k, v in message.get("headers") or []
                                                      if k.lower() != b"content-length"]}
            elif message["type"] == "http.response.body" and state["rewriter"] is not None:
                final = not message.get("more_body", False)
                message = {**message, "body": state["rewriter"].feed(message.get("body", b""), final)}
            await send(message)

        return await app(scope, receive, guarded_send)

    return guarded
