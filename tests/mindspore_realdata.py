"""A warehouse of MindInsight's real MindSpore samples (shared/realdata/mindinsight, PROVENANCE.md),
analysed: the JOB3 raw job twice (runs ``base`` and ``after``: two MindSpore runs of one model)
and the ``profiler`` folder of intermediates (run ``profiler``, its device timelines included). The samples are copied first, so that each copy is a run of its own."""

from __future__ import annotations

import shutil
from pathlib import Path

from warehouse import db, ingest
from warehouse.analysis import findings

#: the run names and the sample each is a copy of
RUNS = {"base": "JOB3", "after": "JOB3", "profiler": "profiler"}
#: the MindSpore run of the profiler folder
PROFILER_RUN = "profiler"


def build(realdata: Path, folder: Path) -> Path:
    """The analysed warehouse ``folder/mindspore.db``; its runs are :data:`RUNS`."""
    path = folder / "mindspore.db"
    conn = db.connect(path)
    for name, sample in RUNS.items():
        copy = shutil.copytree(realdata / "mindinsight" / sample, folder / name)
        ingest.ingest_paths(conn, [copy], run_name=name)
    findings.analyze(conn)
    conn.close()
    return path
