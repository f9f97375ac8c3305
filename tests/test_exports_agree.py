"""The db and the text export of one model (issue 34): the real 2-rank samples at profiler level 0,
msinsight/pytorch/db/level0 and .../text/level0, each in its own warehouse, give the same step time,
top kernels, memory peaks and findings within 1 %, but for the differences named here with their
cause (README, "The db and the text export of one model"). The two samples are two captures of the
same model, 27 minutes apart (profiler_info's collectionTimeEnd), so a figure that depends on one
capture's timing differs; a named difference that disappears, or a new one, fails."""

from __future__ import annotations

from collections import Counter

import pytest

from warehouse import db, queries
from warehouse.analysis import findings
from warehouse.ingest import ingest_paths

SAMPLES = "msinsight/pytorch/{export}/level0"
RANKS = (0, 1)
TOP = 10

CAPTURE_WAIT = ("another capture: the first all-reduce of the step waits for the later rank, "
                "and how much later it is differs from capture to capture")
CAPTURE_HOST = "another capture: the host's launch times (step start to first kernel, idle gaps)"
CAPTURE_KERNEL = "another capture: one kernel's durations vary by a few % between captures"
NO_CORE = "a level-0 kernel_details.csv names no Accelerator Core; the db's TASK names the task type"
BASIS = "each export answers with its own step summary: analysis.db, step_trace_time.csv"

#: the figures compared, per answer: the columns, and what tells a row of one export from another
FIGURES = {
    "step_time": (("rank_id", "step_id"), ("duration_ns", "computing_ns", "communication_not_overlapped_ns",
                                           "overlapped_ns", "communication_ns", "free_ns", "preparing_ns",
                                           "stage_ns", "bubble_ns", "basis")),
    "top_kernels": (("rank_id", "name"), ("op_class", "count", "total_ns")),
    "memory_peak": (("rank_id", "component"), ("samples", "peak_allocated_bytes", "peak_reserved_bytes")),
}

#: the figures over 1 % apart, and why
NAMED = {
    ("step_time", "duration_ns"): CAPTURE_WAIT,
    ("step_time", "stage_ns"): CAPTURE_WAIT,
    ("step_time", "communication_ns"): CAPTURE_WAIT,
    ("step_time", "communication_not_overlapped_ns"): CAPTURE_WAIT,
    ("step_time", "preparing_ns"): CAPTURE_HOST,
    ("step_time", "free_ns"): CAPTURE_HOST,
    ("step_time", "basis"): BASIS,
    ("top_kernels", "total_ns"): CAPTURE_KERNEL,
    ("top_kernels", "op_class"): NO_CORE,
}

#: the findings (rule, rank, severity) of one export only, and why
FINDINGS_DB_ONLY = {
    # a level-0 trace_view.json writes no CANN events: no synchronisation calls to find
    ("host_device_synchronization", 0, "medium"): 1,
    ("host_device_synchronization", 1, "medium"): 1,
    # the text capture's rank 1 step is 24 ms shorter (its all-reduce wait): the same host-bound idle
    # time is 20.8 % of it, over the 20 % of severity high (16.7 % in the db capture)
    ("host_bound_gaps", 1, "medium"): 1,
}
FINDINGS_TEXT_ONLY = {
    ("host_bound_gaps", 1, "high"): 1,
    # in the text capture rank 1 came 16.9 ms late to the first all-reduce (skew 0.30; 4 ms in the db's)
    ("communication_collective_slow", 1, "low"): 1,
}


def rows(conn, name: str, params: dict | None = None) -> list[dict]:
    columns, found = queries.get(name).run(conn, params)
    return [dict(zip(columns, row)) for row in found]


def answers_of(conn) -> dict[str, list[dict]]:
    """The four answers; top_kernels per rank (the query answers one rank or all at once), every
    kernel, ranked."""
    kernels = [dict(row, rank_id=rank)
               for rank in RANKS for row in rows(conn, "top_kernels", {"rank_id": rank, "limit": 1000})]
    return {"step_time": rows(conn, "step_time"), "top_kernels": kernels,
            "memory_peak": rows(conn, "memory_peak"), "findings": rows(conn, "findings")}


@pytest.fixture(scope="module")
def answers(realdata, tmp_path_factory) -> dict[str, dict[str, list[dict]]]:
    """Each export of level 0 ingested into its own warehouse and analysed: its answers."""
    found = {}
    for export in ("db", "text"):
        conn = db.connect(tmp_path_factory.mktemp(export) / "warehouse.db")
        results = ingest_paths(conn, [realdata / SAMPLES.format(export=export)])
        assert [r.error for r in results if r.status != "ok"] == []
        findings.analyze(conn)
        found[export] = answers_of(conn)
        conn.close()
    return found


def top(kernels: list[dict], rank: int) -> list[dict]:
    return [k for k in kernels if k["rank_id"] == rank][:TOP]


def apart(a, b) -> bool:
    """Over 1 % apart (numbers), or different (text)."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) > 0.01 * max(abs(a), abs(b))
    return a != b


def columns_apart(answer: str, db_rows: list[dict], text_rows: list[dict]) -> set[tuple[str, str]]:
    """(answer, column) for each column compared in which a db row and the text row of the same key
    are apart; both exports have the same keys."""
    key_columns, compared = FIGURES[answer]
    by_key = {tuple(r[c] for c in key_columns): r for r in text_rows}
    assert {tuple(r[c] for c in key_columns) for r in db_rows} <= set(by_key)
    return {(answer, column) for row in db_rows for column in compared
            if apart(row[column], by_key[tuple(row[c] for c in key_columns)][column])}


def test_the_figures_apart_are_the_named_ones(answers):
    db_answers, text_answers = answers["db"], answers["text"]
    found = set()
    for answer in ("step_time", "memory_peak"):
        assert len(db_answers[answer]) == len(text_answers[answer]) > 0
        found |= columns_apart(answer, db_answers[answer], text_answers[answer])
    for rank in RANKS:
        found |= columns_apart("top_kernels", top(db_answers["top_kernels"], rank), text_answers["top_kernels"])
    assert found == set(NAMED)


def test_the_same_kernels_lead_with_the_same_counts(answers):
    for rank in RANKS:
        db_top, text_top = (top(answers[e]["top_kernels"], rank) for e in ("db", "text"))
        # the order of near ties moves between captures; the ten and their counts do not
        assert {(k["name"], k["count"]) for k in db_top} == {(k["name"], k["count"]) for k in text_top}
        db_total, text_total = (sum(k["total_ns"] for k in answers[e]["top_kernels"] if k["rank_id"] == rank)
                                for e in ("db", "text"))
        assert not apart(db_total, text_total)


def test_memory_peaks_of_every_component(answers):
    components = {e: {(r["rank_id"], r["component"]) for r in answers[e]["memory_peak"]} for e in ("db", "text")}
    every = {(rank, c) for rank in RANKS for c in ("APP", "GE", "PTA", "PTA+GE")}
    assert components["db"] == components["text"] == every


def test_findings_differ_by_the_named_ones(answers):
    db_found, text_found = (Counter((f["finding_type"], f["rank_id"], f["severity"]) for f in answers[e]["findings"])
                            for e in ("db", "text"))
    assert dict(db_found - text_found) == FINDINGS_DB_ONLY
    assert dict(text_found - db_found) == FINDINGS_TEXT_ONLY
    both = {("host_bound_gaps", 0, "medium"): 1, ("kernel_hotspot", None, "low"): 3}
    assert db_found & text_found == Counter(both)


def test_the_level0_text_kernels_name_no_core(answers):
    classes = {e: {k["op_class"] for k in answers[e]["top_kernels"]} for e in ("db", "text")}
    assert classes == {"db": {"aic", "aiv", "mix_cv", "dsa"}, "text": {"other"}}
