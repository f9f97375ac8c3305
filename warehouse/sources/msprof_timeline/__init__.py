"""CANN msprof's timeline JSONs: a ``PROF_*/device_{N}/timeline/`` folder, one run's device N.

msprof writes, per iteration, ``msprof_{numbers}.json`` holding every track of it (the device's
streams under "Ascend Hardware", the host's CANN calls, HCCL's operators and their tasks per plane,
the overlap analysis), the same events again split by track (``task_time_*``, ``hccl_*``, ...),
and ``step_trace_*.json`` holding the iterations ("Iteration Time" events with their
``Iteration ID``). Each file is one input (its names are :mod:`~warehouse.model.folder_grammar`'s):

- ``msprof_*.json``, and a one-track file with no ``msprof_*`` of the same numbers beside it: the
  timeline (read as :mod:`~warehouse.sources.trace_json` reads a trace), then its device tasks as
  ``kernel`` rows (origin ``msprof_timeline``; classified by their task type like every kernel),
  except the tasks of the streams HCCL's tasks run on, and its HCCL operators and their tasks as
  ``communication_op`` and ``communication_task`` rows (:mod:`.derive`);
- a one-track file with an ``msprof_*`` of the same numbers beside it: nothing (its events are
  that file's), ``source.detail`` naming it;
- ``step_trace_*.json``: the ``step`` rows, one per iteration (its events are repeated in the
  ``msprof_*`` files).

The clock: the events' times are us of the device's monotonic clock; the device's ``start_info``
maps them to ns since the epoch (:mod:`.clock`), as every other export of the run writes them.
The rank and device are the folder's (:mod:`~warehouse.sources.kit.rank_layout`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from warehouse.model import folder_grammar as grammar
from warehouse.sources.base import Outcome, open_binary, read_head
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.msprof_timeline import clock, derive, steps
from warehouse.sources.trace_json import CHUNK_BYTES, DETECT_BYTES, looks_like_trace
from warehouse.sources.trace_json.loader import Loader

KIND = "msprof_timeline"


def detect(path) -> bool:
    """A trace JSON named as msprof names its timeline files, in a ``PROF_*/device_{N}/timeline/`` folder."""
    try:
        return grammar.timeline_file(Path(path)) is not None and looks_like_trace(read_head(path, DETECT_BYTES))
    except Exception:  # noqa: BLE001 - detect never raises
        return False


def ingest(conn: sqlite3.Connection, path, source_id: int) -> Outcome:
    """Read one timeline JSON of a PROF folder (inside the caller's transaction)."""
    path = Path(path)
    layout = rank_or_unknown(path)
    offset = clock.epoch_offset_ns(path.parent.parent)
    what = grammar.timeline_file(path)
    detail = {"what": what, "clock": "epoch" if offset is not None else "device monotonic (no start_info)"}
    if what == grammar.TIMELINE_STEPS:
        rows = steps.insert_steps(conn, path, source_id, layout.rank, offset or 0)
        return Outcome(rows=rows, rank_id=layout.rank, device_id=layout.device_id, detail=detail)
    whole = path.with_name(path.name.replace(f"{what}_", f"{grammar.TIMELINE_WHOLE}_", 1))
    if what != grammar.TIMELINE_WHOLE and whole.is_file():
        detail["events_in"] = whole.name
        return Outcome(rows=0, rank_id=layout.rank, device_id=layout.device_id, detail=detail)
    with open_binary(path) as stream:
        loader = Loader(conn, source_id, str(path), rank_id=layout.rank)
        meta = loader.run(stream, CHUNK_BYTES)
    clock.shift_source(conn, source_id, offset or 0)
    rows = derive.insert_facts(conn, source_id, layout.rank, layout.device_id)
    outcome = loader.outcome(meta)
    outcome.rows += sum(rows.values())
    outcome.device_id = layout.device_id
    outcome.detail.update(detail, **rows)
    return outcome
