"""ascend_timeline_display_{device}.json: MindSpore's timeline of one device, a Chrome trace.

MindSpore's timeline generators (mindspore/profiler/parser/integrator.py, AscendTimelineGenerator and
GpuTimelineGenerator; ``gpu_timeline_display_{device}.json`` on a GPU, ``timeline_display_{device}.json``
in the older profiler of MindInsight's run_1 resources) write the device's operators (pid 1, a thread per
stream, ``args`` with the operator's ``type`` and ``fullname``), its data pipeline's GetNext records and
the streams' scopes as one JSON array of complete ("X") events, in us from the earliest of them. It is read
as :mod:`~warehouse.sources.trace_json` reads a trace (same errors, naming the file and the byte), as a
kind of its own: it belongs to the profiler folder's run (:mod:`~warehouse.model.folder_grammar`), its rank
is the device its name carries, and it answers the rank's timeline only (fact timeline) where MindSpore's
step trace answers its steps. Its clock is the file's: MindSpore writes no epoch for it. The audit
``mindspore_timeline_display_agrees`` reconciles its operators with the kernels of MindSpore's kernel
timeline (output_timeline_data_{device}.txt), from which the generator writes them.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from warehouse.model import folder_grammar as grammar
from warehouse.sources.base import Outcome, open_binary, read_head
from warehouse.sources.trace_json import CHUNK_BYTES, DETECT_BYTES, looks_like_trace
from warehouse.sources.trace_json.loader import Loader

KIND = "mindspore_timeline_json"


def detect(path) -> bool:
    """A trace JSON named as MindSpore names a device's timeline."""
    try:
        return (grammar.rank_of_mindspore_timeline(Path(path).name) is not None
                and looks_like_trace(read_head(path, DETECT_BYTES)))
    except Exception:  # noqa: BLE001 - detect never raises
        return False


def ingest(conn: sqlite3.Connection, path, source_id: int) -> Outcome:
    """Read the timeline as a trace of the device its name carries (module doc)."""
    path = Path(path)
    device = grammar.rank_of_mindspore_timeline(path.name)
    with open_binary(path) as stream:
        loader = Loader(conn, source_id, str(path), rank_id=device)
        meta = loader.run(stream, CHUNK_BYTES)
    outcome = loader.outcome(meta)
    outcome.device_id = device
    return outcome
