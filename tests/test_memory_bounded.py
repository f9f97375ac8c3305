"""Trace JSON ingest streams: a file twice the size does not take twice the memory.

Each ingest runs in a fresh child interpreter (``warehouse ingest`` code: the frame, sha256,
one transaction) and reports its own peak RSS: ``VmHWM`` of /proc/self/status, which starts
afresh at exec (``ru_maxrss`` keeps the peak of the forked copy of the pytest process). The
baseline is the same child ingesting a trace of a few events (interpreter, imports,
migrations). Not a timing: peak memory does not depend on the machine's load. Measured when
written: baseline 23 MB, 150,000 events (25 MB of JSON) 148 MB, 300,000 events 158 MB,
600,000 events 185 MB (the SQLite page cache, 64 MB at most, fills as the warehouse grows;
the chunks being decoded do not grow).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from warehouse.synth.trace_json import write_trace

CHILD = """
import sys
from pathlib import Path
from warehouse import db, ingest
conn = db.connect(sys.argv[2])
result = ingest.ingest_file(conn, Path(sys.argv[1]))
conn.close()
if result.status != "ok":
    raise SystemExit(result.error)
with open("/proc/self/status") as status:
    peak_kb = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
print(result.rows, peak_kb)
"""


def peak_rss_kb(tmp_path, events: int) -> tuple[int, int]:
    """(rows written, peak RSS in KiB) of a child ingesting a generated trace of ``events`` events."""
    trace = tmp_path / f"trace_{events}.json"
    write_trace(trace, events, seed=5)
    done = subprocess.run([sys.executable, "-c", CHILD, str(trace), str(tmp_path / f"w{events}.db")],
                          capture_output=True, text=True, check=True)
    rows, rss = done.stdout.split()
    return int(rows), int(rss)


@pytest.mark.slow
def test_trace_json_peak_memory_does_not_grow_with_the_file(tmp_path):
    _, baseline = peak_rss_kb(tmp_path, 100)
    rows_1x, rss_1x = peak_rss_kb(tmp_path, 150_000)
    rows_2x, rss_2x = peak_rss_kb(tmp_path, 300_000)
    # the two ingests did the work: twice the events, about twice the rows
    assert 1.9 * rows_1x < rows_2x < 2.1 * rows_1x
    # and the work itself took memory (the check below would pass trivially otherwise)
    assert rss_1x - baseline > 20_000
    # twice the input, not twice the memory above the baseline (proportional growth would give 2x)
    assert rss_2x - baseline < 1.3 * (rss_1x - baseline), (baseline, rss_1x, rss_2x)
