"""DATA_PREPROCESS.dev.AICPU.{device}.slice_{n}: MindSpore's AI CPU operators with their stages.

The AI CPU writes text records, each ended by a NUL byte (sometimes a line end and a NUL), as
MindSpore's AI CPU parser (``DataPreProcessParser``, aicpu_data_parser.py) reads them:

- a Node record, ``[stamp] Node:{name}, Run start:{n}, Run end:{n}`` (three comma fields: a MindSpore
  AI CPU kernel, whose name is its type) or ``[stamp] Node:{scope}/{type}-op{k}, Run start:{n},
  compute start:{n}, memcpy start:{n}, memcpy end:{n},Run end:{n}`` (six: another kernel); the
  label of a field is not read (real files write ``Run tart``), its place is;
- then the Thread record of the task: ``Thread[{t}] process device[{d}]:aicpu[{c}] task end,
  tickDrvTopHalf={n},tickDrvBottomHalf={n}, tickBeforeRun={n},tickAfterRun={n}, dispatchTime={us} us,
  totalTime={us} us.``

Each Thread record is one task in ``mindspore_aicpu_op``, with the Node record before it when
there is one (MindSpore's parser lists only those: its table is the rows with a name); a Node
record whose Thread record never comes is a task without stages. Times in us become ns; the
counters (run points, ticks) are kept as written. The device is the number in the file name. A
record cut short (no NUL after it), or one that is neither kind, fails the file naming its byte
offset.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome, open_binary, read_head
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import insert_sql
from warehouse.sources.mindspore.device import device_of
from warehouse.sources.mindspore.framework import type_of

KIND = "mindspore_aicpu_raw"
#: the file name (the device number in it)
NAME = re.compile(r"DATA_PREPROCESS\.dev\.AICPU\.(\d{1,9})\.slice_\d{1,9}")
#: what a record ends with
END = b"\x00"
THREAD = re.compile(r"Thread\[ *(\d{1,9})\] process device\[(\d{1,9})\]:aicpu\[ *(\d{1,9})\] task end")
#: the Thread record's fields after the first, in order: (label, its value's unit suffix)
THREAD_FIELDS = ("tickDrvTopHalf", "tickDrvBottomHalf", "tickBeforeRun", "tickAfterRun", "dispatchTime", "totalTime")
THREAD_VALUE = re.compile(r" *(\w+)=(\d{1,19})( us\.?)? *")
NODE = re.compile(r"\[\d{1,19}\] Node:(.*)")
NODE_VALUE = re.compile(r"[^:]*:(\d{1,19})")
#: fields of a Node record: a MindSpore AI CPU kernel's, another kernel's
NODE_FIELDS = (3, 6)
NS_PER_US = 1000
COLUMNS = ["source_id", "source_row", "rank_id", "byte_offset", "name", "op_type", "run_start", "compute_start",
           "memcpy_start", "memcpy_end", "run_end", "thread_id", "device_id", "aicpu_id", "tick_drv_top_half",
           "tick_drv_bottom_half", "tick_before_run", "tick_after_run", "dispatch_ns", "total_ns"]
INSERT = insert_sql("mindspore_aicpu_op", COLUMNS)


def detect(path) -> bool:
    """MindSpore's file name, and a first record that is a Node or a Thread record."""
    if NAME.fullmatch(Path(path).name.removesuffix(".gz")) is None:
        return False
    head = read_head(path, 64)
    return head.startswith((b"[", b"Thread[")) or head == b""


def records(data: bytes) -> list[tuple[int, str]]:
    """(byte offset, text) of every record, a line end before its NUL dropped; empty ones left out.

    :raises ValueError: naming the offset of a last record without its NUL, or of one not UTF-8.
    """
    found, start = [], 0
    while start < len(data):
        end = data.find(END, start)
        if end < 0:
            raise ValueError(f"byte {start}: a record cut short (no NUL after its {len(data) - start} bytes)")
        raw = data[start:end].removesuffix(b"\n")
        if raw.strip():
            try:
                found.append((start, raw.decode("utf-8")))
            except UnicodeDecodeError as exc:
                raise ValueError(f"byte {start + exc.start}: not UTF-8 text") from None
        start = end + 1
    return found


def split(path, data: bytes) -> list[tuple[int, str]]:
    """:func:`records` of the file ``path``'s ``data``.

    :raises IngestError: naming the file and the byte offset of a record cut short or not UTF-8.
    """
    try:
        return records(data)
    except ValueError as exc:
        raise IngestError(f"{path}: {exc}") from None


def file_records(path) -> list[tuple[int, str]]:
    """:func:`records` of the file at ``path`` (another file of NUL-ended records: the AI CPU's GetNext
    records, the TDT file).

    :raises IngestError: as :func:`split`.
    """
    with open_binary(path) as stream:
        return split(path, stream.read())


def node(text: str) -> tuple:
    """(name, op_type, run_start, compute_start, memcpy_start, memcpy_end, run_end) of a Node record.

    :raises ValueError: when it has neither three nor six fields, or a field is not ``label:number``.
    """
    fields = text.split(",")
    head = NODE.fullmatch(fields[0].strip())
    if head is None or len(fields) not in NODE_FIELDS:
        raise ValueError(f"a Node record of {len(fields)} fields (MindSpore reads 3 or 6): {text[:80]!r}")
    values = []
    for field in fields[1:]:
        match = NODE_VALUE.fullmatch(field.strip())
        if match is None:
            raise ValueError(f"not a 'label:number' field: {field.strip()[:40]!r}")
        values.append(whole(match[1]))
    name = head[1]
    if len(fields) == NODE_FIELDS[0]:
        return name, name, values[0], None, None, None, values[1]
    return (name, type_of(name), *values)


def thread(text: str) -> tuple:
    """(thread, device, aicpu core, the four ticks, dispatch ns, total ns) of a Thread record.

    :raises ValueError: when a field is missing, out of order or not a number.
    """
    fields = text.split(",")
    head = THREAD.fullmatch(fields[0].strip())
    if head is None or len(fields) != 1 + len(THREAD_FIELDS):
        raise ValueError(f"a Thread record of {len(fields)} fields (7 expected): {text[:80]!r}")
    values = [whole(head[1]), whole(head[2]), whole(head[3])]
    for label, field in zip(THREAD_FIELDS, fields[1:]):
        match = THREAD_VALUE.fullmatch(field)
        if match is None or match[1] != label or bool(match[3]) != label.endswith("Time"):
            raise ValueError(f"field {label!r} expected, found {field.strip()[:40]!r}")
        values.append(whole(match[2]) * (NS_PER_US if match[3] else 1))
    return tuple(values)


def read(path, data: bytes, rank: int) -> list[tuple]:
    """The tasks of the file (module doc), each a row of ``COLUMNS`` after ``source_id``; a Node record
    without its Thread record (MindSpore warns and skips it) is a task without its stages.

    :raises IngestError: naming the byte offset of the record that is cut short or not understood.
    """
    rows, pending = [], None
    for offset, text in split(path, data):
        try:
            if text.lstrip().startswith("Thread"):
                first, operator = pending or (offset, (None,) * 7)
                rows.append((len(rows) + 1, rank, first, *operator, *thread(text)))
                pending = None
                continue
            if pending is not None:
                rows.append((len(rows) + 1, rank, pending[0], *pending[1], *(None,) * 9))
            pending = (offset, node(text))
        except ValueError as exc:
            raise IngestError(f"{path}: byte {offset}: {exc}") from None
    if pending is not None:
        rows.append((len(rows) + 1, rank, pending[0], *pending[1], *(None,) * 9))
    return rows


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the file's AI CPU tasks (module doc)."""
    rank, device = device_of(path, NAME)
    with open_binary(path) as stream:
        data = stream.read()
    rows = read(path, data, rank)
    multirow.insert_rows(conn, INSERT, ((source_id, *row) for row in rows))
    named = sum(1 for row in rows if row[3] is not None)
    return Outcome(rows=len(rows), rank_id=rank, device_id=device,
                   detail={"table": "mindspore_aicpu_op", "tasks": len(rows), "named": named})
