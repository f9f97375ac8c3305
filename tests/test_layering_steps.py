"""Layering: a kernel's step is derived in the model's views only (issue 33).

``step_span`` states the profiler's rule (a step runs from its start to the next step's start)
and ``kernel_step`` applies it to every kernel and HCCL operator; no named query, source SQL,
stage-1 SQL, analysis or report SQL may place an event into a step by comparing its start with a
step's bounds itself, or compute the next step's start, except the files listed here, each with
its reason. A new file that does either fails here, naming the file and the line.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = [REPO / "queries", REPO / "warehouse"]
VIEWS = REPO / "warehouse" / "model" / "views"

#: an event's start compared with a step's bounds, or the next step's start computed
PLACING = re.compile(r"\bts\s*>=?\s*\w+\.(?:span_)?start_ns|\bstart_ns\s*<=\s*[\w.(]*?(?:ts|startns)\b"
                     r"|lead\(\s*(?:\w+\.)?start_ns",
                     re.IGNORECASE)

EXCEPTIONS = {
    "warehouse/sources/rank_db/_task_step.sql":
        "stage 1 of --answers-first reads a rank db before any row lands, so it cannot read kernel_step: "
        "the same rule, stated once for it (fact_kernel.sql includes it too)",
    "queries/diagnosis/rule_host_bound_gaps.sql":
        "measures the device's idle time inside the host step marker's [start, end), the step's wall time; "
        "a gap between two markers belongs to no step's wall time",
    "queries/diagnosis/rule_host_tiling_not_sunk.sql":
        "places host tiling calls (host events, not kernels) in the host step marker that ran them",
    "queries/diagnosis/rule_host_device_synchronization.sql":
        "places host synchronize calls (CANN API, host events) in the host step marker that ran them",
    "queries/diagnosis/rule_gc_pauses.sql":
        "places host garbage-collection pauses in the host step marker that ran them",
    "queries/diagnosis/rule_memory_peak_near_capacity.sql":
        "places a memory sample (a host-clock instant, not a kernel) in the host step marker",
    "queries/diagnosis/tiling_sink_kernels.sql":
        "reads step_span's bounds (the view's rule) for kernels anchored on their task slices",
    "queries/cluster/mstx_sum.sql":
        "places the framework's own mstx records (host events of an input without MSTX_EVENTS) by step_span's "
        "bounds, the rule user_range_step places the ranges by",
    "queries/cluster/communication_bottleneck.sql":
        "compares kernels with a slow operator's wait window, not with a step",
    "queries/communication/communication_contended_transfers.sql":
        "compares an SDMA transfer's span with a MatMul kernel's (the two overlap), not with a step",
}


def _sql_files():
    for root in ROOTS:
        for path in sorted(root.rglob("*.sql")):
            if VIEWS in path.parents or "_bundled" in path.parts:
                continue
            yield path


def test_no_sql_outside_the_step_views_places_an_event_in_a_step():
    found = {}
    for path in _sql_files():
        text = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("--"))
        if match := PLACING.search(text):
            found[str(path.relative_to(REPO))] = match[0]
    unexplained = {path: hit for path, hit in found.items() if path not in EXCEPTIONS}
    assert unexplained == {}, "derive a step through kernel_step / step_span, or list the file with its reason"
    stale = sorted(set(EXCEPTIONS) - set(found))
    assert stale == [], "these exceptions no longer place anything: remove them"


def test_the_rule_is_stated_in_the_step_views():
    span = (VIEWS / "step_span.sql").read_text()
    assert PLACING.search(span)  # lead(start_ns): the next step's start
    assert "step_span" in (VIEWS / "kernel_step.sql").read_text()
    for reader in ("step_kernel.sql", "step_activity.sql"):
        assert "kernel_step" in (VIEWS / reader).read_text(), reader
