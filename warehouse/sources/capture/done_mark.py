"""{file}.done: msprof's mark that the file beside it was written whole.

msprof writes ``filesize:{bytes}`` (and a line end) once it has written ``{file}``: the row of
``capture_info`` (key ``filesize``) is that size, which the audit ``done_marks_agree`` compares with the
size of the marked file as ingested. The rank and device are the folders'. A mark of other content
fails naming it.

MindSpore's host marks its Framework files (``Framework.host.vm.graph_desc_info.0.slice_0.done``, in
MindInsight's JOB1 resources) with an empty mark: the file is whole, its size unsaid. Such a mark is read
and keeps no row (MindSpore's framework parser passes over it); the audit has nothing to compare.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome, read_head
from warehouse.sources.kit.capture_info import INSERT
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.rank_layout import rank_or_unknown

KIND = "done_mark"
SUFFIX = ".done"
MARK = re.compile(rb"filesize:(\d{1,19})\r?\n?")
#: a mark is a few bytes: more is not one
MAX_BYTES = 64
#: the files whose marks may be empty: MindSpore's host's Framework files
EMPTY_MARKED = re.compile(r"Framework\.host\.")


def detect(path) -> bool:
    """A name ending ``.done`` after another name, and ``filesize:`` first (or nothing, marking a Framework file)."""
    name = Path(path).name
    if not name.endswith(SUFFIX) or len(name) == len(SUFFIX):
        return False
    head = read_head(path, 9)
    return head == b"filesize:" or (head == b"" and EMPTY_MARKED.match(name) is not None)


def ingest(conn, path, source_id) -> Outcome:
    """Insert the mark's size (module doc)."""
    layout = rank_or_unknown(path)
    head = read_head(path, MAX_BYTES + 1)
    if head == b"" and EMPTY_MARKED.match(Path(path).name):
        return Outcome(rows=0, rank_id=layout.rank, device_id=layout.device_id, detail={"table": None})
    match = MARK.fullmatch(head)
    if match is None:
        raise IngestError(f"{path}: byte 0: expected 'filesize:<bytes>', found {head[:40]!r}")
    try:
        size = whole(match[1].decode())
    except ValueError as exc:
        raise IngestError(f"{path}: byte 9: {exc}") from None
    conn.execute(INSERT, (source_id, 1, layout.rank, "filesize", str(size)))
    return Outcome(rows=1, rank_id=layout.rank, device_id=layout.device_id, detail={"table": "capture_info"})
