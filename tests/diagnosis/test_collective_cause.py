"""communication_collective_slow names the cause of a slow collective instance and the ranks it cost.

The rank that arrived last is the cause and the others, who waited for it, are affected; the
links are blamed only when the ranks arrived together and one rank's transfer is long, never
when the profiler counts that rank's time as waiting. A difference under msprof-analyze's
thresholds (its communication_bottleneck: no slow NPU while (longest - shortest) / longest is
under 0.05) is no finding: on the real samples each finding names the rank msprof-analyze's
arithmetic names, and agrees with the profiler's own wait figures.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.factories import collectives
from tests.factories import warehouse_rows as rows
from warehouse import db, queries
from warehouse.analysis import findings
from warehouse.ingest import ingest_paths
from warehouse.sources.base import readonly_uri

RULE = "communication_collective_slow"
T = 10_000_000
#: msprof-analyze communication_bottleneck's slow_npu_happen threshold (its config.json)
SLOW_NPU_HAPPEN = 0.05
LEVEL1_DB = "msinsight/pytorch/db/level1"
LEVEL1_TEXT = "msinsight/pytorch/text/level1"
SERVER_RANKS = ("msinsight/server_test_data/test_rank_0", "msinsight/server_test_data/test_rank_1")


def found(conn) -> list[dict]:
    """The rule's findings, per step as it answers them: values, numbers decoded, evidence notes (the
    last of each evidence row)."""
    return [dict(f.values, numbers=json.loads(f.values["numbers"]), notes=[e[-1] for e in f.evidence])
            for f in findings.evaluate(conn, RULE)]


def test_the_rank_that_arrived_last_is_the_cause_and_the_others_waited(warehouse_db):
    # rank 2 arrives 3 ms late at a 4-rank allreduce that all ranks end together 200 us later
    with rows.bound(warehouse_db):
        collectives.collective({0: T, 1: T + 20_000, 2: T + 3_000_000, 3: T}, dict.fromkeys(range(4), T + 3_200_000),
                               notify_waits={0: 3_000_000, 1: 2_980_000, 2: 10_000, 3: 3_000_000})
    [late] = found(warehouse_db)
    assert (late["rank_id"], late["severity"], late["confidence"]) == (2, "low", "high")
    numbers = late["numbers"]
    assert (numbers["cause"], numbers["affected_ranks"], numbers["most_affected_rank_id"]) == ("late_arrival", 3, 0)
    assert (numbers["start_spread_ns"], numbers["end_spread_ns"]) == (3_000_000, 0)
    assert (numbers["cause_wait_ns"], numbers["affected_wait_ns"], numbers["wait_basis"]) == (
        10_000, 2_993_333, "Notify Wait")
    assert late["message"].startswith("Collective hcom_allReduce__210_0_1 waits for rank 2: it started 3.000 ms after "
                                      "the first rank, and 3 other rank(s) waited for it (rank 0 longest)")
    assert "link" not in late["message"]
    assert late["notes"] == [
        "rank 2: 200.000 us, started 3.000 ms after the first rank (the cause: it arrived last), "
        "Notify Wait 5.0% of it",
        "rank 0: 3.200 ms, started 0 ns after the first rank, waited 3.000 ms for rank 2, Notify Wait 93.8% of it",
        "rank 3: 3.200 ms, started 0 ns after the first rank, waited 3.000 ms for rank 2, Notify Wait 93.8% of it",
        "rank 1: 3.180 ms, started 20.000 us after the first rank, waited 2.980 ms for rank 2, Notify Wait 93.7% of it"]


def test_the_profiler_s_wait_clears_the_rank_that_ends_last(warehouse_db):
    # the shape: rank 2 arrives 3.08 ms late, rank 0 ends 4 ms after the others, and the
    # profiler counts rank 0's time as waiting (transit 0): rank 2 is the cause, not rank 0's links
    starts = {0: T, 1: T, 2: T + 3_080_000, 3: T}
    ends = {0: T + 7_300_000, 1: T + 3_300_000, 2: T + 3_300_000, 3: T + 3_300_000}
    split = {0: (7_100_000, 0), 1: (3_080_000, 200_000), 2: (20_000, 200_000), 3: (3_080_000, 200_000)}
    with rows.bound(warehouse_db):
        collectives.collective(starts, ends, split=split)
    [late] = found(warehouse_db)
    assert (late["rank_id"], late["numbers"]["cause"], late["numbers"]["wait_basis"]) == (2, "late_arrival", "profiler")
    assert (late["numbers"]["affected_ranks"], late["numbers"]["most_affected_rank_id"]) == (3, 0)
    assert "The profiler counts rank 0's time as waiting: wait 7.100 ms, transit 0 ns of 7.300 ms." in late["message"]
    assert "link" not in late["message"]
    # without the profiler's split, the start and end times alone read a slow transfer on rank 0
    warehouse_db.execute("DELETE FROM communication_time")
    [slow] = found(warehouse_db)
    assert (slow["rank_id"], slow["severity"], slow["numbers"]["cause"]) == (0, "high", "slow_transfer")


def test_a_slow_link_names_the_rank_whose_transfer_is_long_and_its_links(warehouse_db):
    # the ranks arrive together; rank 1's transfer takes 1 ms longer, the profiler counts it as transit
    ends = {0: T + 200_000, 1: T + 1_200_000, 2: T + 200_000, 3: T + 200_000}
    split = {0: (20_000, 180_000), 1: (10_000, 1_190_000), 2: (20_000, 180_000), 3: (20_000, 180_000)}
    with rows.bound(warehouse_db):
        collectives.collective(dict.fromkeys(range(4), T), ends, split=split)
    [slow] = found(warehouse_db)
    assert (slow["rank_id"], slow["severity"], slow["confidence"]) == (1, "high", "high")
    assert (slow["numbers"]["cause"], slow["numbers"]["affected_ranks"]) == ("slow_transfer", 3)
    assert slow["message"] == (
        "Collective hcom_allReduce__210_0_1 is slow on rank 1: the ranks arrived within 0 ns of each other, and rank 1 "
        "ends 1.000 ms after the others (the profiler: transit 1.190 ms, wait 10.000 us of 1.200 ms); durations range "
        "200.000 us to 1.200 ms over 4 ranks; check its links (HCCS/RoCE), retransmissions and contention.")
    assert slow["notes"][0] == ("rank 1: 1.200 ms, started 0 ns after the first rank (the cause: it ends last), "
                                "profiler wait 10.000 us, transit 1.190 ms")


def test_a_rank_that_ends_last_while_waiting_is_not_told_to_check_its_links(warehouse_db):
    ends = {0: T + 200_000, 1: T + 1_200_000, 2: T + 200_000}
    split = {0: (20_000, 180_000), 1: (1_020_000, 180_000), 2: (20_000, 180_000)}
    with rows.bound(warehouse_db):
        collectives.collective(dict.fromkeys(range(3), T), ends, split=split)
    [odd] = found(warehouse_db)
    assert (odd["rank_id"], odd["severity"], odd["confidence"], odd["numbers"]["cause"]) == (
        1, "medium", "low", "waited_elsewhere")
    assert "link" not in odd["message"] and "counts its time as waiting (wait 1.020 ms" in odd["message"]


def test_a_skew_under_the_thresholds_is_no_finding(warehouse_db):
    with rows.bound(warehouse_db):
        # 60 us late on a 100 us allreduce: 0.6 of it, but under min_skew_ns (msprof-analyze's 100 us)
        collectives.collective({0: T, 1: T + 60_000}, {0: T + 160_000, 1: T + 160_000}, name="hcom_allReduce__1_0_1")
        # 3.5 ms late on an 85 ms allreduce, as the real level-1 capture: 0.04 of the longest, under 0.05
        collectives.collective({0: 2 * T, 1: 2 * T + 3_500_000}, {0: 2 * T + 88_500_000, 1: 2 * T + 88_500_000},
                               name="hcom_allReduce__2_0_1")
    assert found(warehouse_db) == []


def test_ranks_late_together_are_named_with_the_cause_and_a_rank_early_alone_is_no_finding(warehouse_db):
    with rows.bound(warehouse_db):
        # ranks 2 and 3 arrive 1 ms late together (within 100 us): rank 3, the last, is named, rank 2 with it
        collectives.collective({0: T, 1: T, 2: T + 950_000, 3: T + 1_000_000}, dict.fromkeys(range(4), T + 1_200_000),
                               name="hcom_allReduce__1_0_1")
        # rank 3 arrives 1 ms before the others, who arrive together: it is early (less work), no one is late
        collectives.collective({0: 2 * T, 1: 2 * T, 2: 2 * T, 3: 2 * T - 1_000_000},
                               dict.fromkeys(range(4), 2 * T + 200_000), name="hcom_allReduce__2_0_1")
    [late] = found(warehouse_db)
    assert (late["subject"], late["rank_id"], late["numbers"]["affected_ranks"]) == ("hcom_allReduce__1_0_1", 3, 2)
    assert "started 1.000 ms after the first rank (with 1 other rank(s) within 100.000 us of it), and 2 other " \
           "rank(s) waited for it (rank 0 longest)" in late["message"]


def msprof_slow_npu(durations: dict[int, int]) -> int | None:
    """msprof-analyze communication_bottleneck's verdict on one operator: the ranks sorted by
    duration, longest first; no slow NPU while (longest - shortest) / longest is under
    slow_npu_happen, else the shortest (the rank that arrived last) is the slow one."""
    ranked = sorted(durations.items(), key=lambda item: item[1], reverse=True)
    (_, longest), (slow_rank, shortest) = ranked[0], ranked[-1]
    return None if (longest - shortest) / longest < SLOW_NPU_HAPPEN else slow_rank


def rank_db_durations(folder) -> dict[str, dict[int, int]]:
    """Per operator name, each rank's COMMUNICATION_OP duration, read from the profiler's own rank
    dbs as msprof-analyze reads them (TargetCommunicationOpWithNameExport)."""
    durations: dict[str, dict[int, int]] = {}
    for rank in (0, 1):
        path = folder / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f"ascend_pytorch_profiler_{rank}.db"
        conn = sqlite3.connect(readonly_uri(path), uri=True)  # immutable: a WAL-mode db gains no -shm file
        for name, dur in conn.execute("SELECT s.value, c.endNs - c.startNs FROM COMMUNICATION_OP AS c "
                                      "JOIN STRING_IDS AS s ON s.id = c.opName"):
            durations.setdefault(name, {})[rank] = dur
        conn.close()
    return durations


def warehouse_durations(conn, run_id: int) -> dict[str, dict[int, int]]:
    """The same per operator from the warehouse's HCCL operators of a run (a text export's rows)."""
    durations: dict[str, dict[int, int]] = {}
    for name, rank, dur in conn.execute("SELECT name, rank_id, dur FROM hccl_operator WHERE run_id = ?", (run_id,)):
        durations.setdefault(name, {})[rank] = dur
    return {name: by_rank for name, by_rank in durations.items() if len(by_rank) > 1}


@pytest.fixture(scope="module")
def real(realdata, tmp_path_factory):
    """The real 2-rank level-1 captures (db and text export) and the server test ranks, one run
    each in one warehouse; the rule's findings per run."""
    conn = db.connect(tmp_path_factory.mktemp("collective_cause") / "warehouse.db")
    paths = [realdata / LEVEL1_DB, realdata / LEVEL1_TEXT] + [realdata / p for p in SERVER_RANKS]
    assert [r.error for r in ingest_paths(conn, paths) if r.status != "ok"] == []
    runs = dict(conn.execute("SELECT root, run_id FROM run"))
    run_ids = {sample: runs[str(realdata / sample)] for sample in (LEVEL1_DB, LEVEL1_TEXT)}
    run_ids["server"] = runs[str(realdata / "msinsight/server_test_data")]
    by_run = {sample: [f for f in found(conn) if f["run_id"] == run_id] for sample, run_id in run_ids.items()}
    yield conn, run_ids, by_run
    conn.close()


def test_the_level1_db_capture_has_no_slow_collective_as_msprof_analyze_says(real, realdata):
    conn, run_ids, by_run = real
    durations = rank_db_durations(realdata / LEVEL1_DB)
    assert len(durations) == 4 and {msprof_slow_npu(d) for d in durations.values()} == {None}
    # its largest difference: rank 1 started the first all-reduce 3.53 ms late, 0.0396 of the longest
    first = durations["hcom_allReduce__210_0_1"]
    assert round((first[0] - first[1]) / first[0], 4) == 0.0396
    assert by_run[LEVEL1_DB] == []
    # the profiler's wait of rank 0 there is rank 1's lateness
    split = dict(conn.execute("SELECT rank_id, wait_ns FROM communication_time_answer WHERE run_id = ? "
                              "AND op_name = 'hcom_allReduce__210_0_1'", (run_ids[LEVEL1_DB],)))
    starts = dict(conn.execute("SELECT rank_id, ts FROM hccl_operator WHERE run_id = ? "
                               "AND name = 'hcom_allReduce__210_0_1'", (run_ids[LEVEL1_DB],)))
    assert split[0] == pytest.approx(starts[1] - starts[0], rel=0.02)


def test_a_finding_on_a_real_sample_names_the_rank_msprof_analyze_names(real):
    # the text captures, by the same arithmetic on the same operator rows (the db capture: on its own files above)
    conn, run_ids, by_run = real
    for sample in (LEVEL1_TEXT, "server"):
        named = {f["subject"]: f for f in by_run[sample]}
        for name, durations in warehouse_durations(conn, run_ids[sample]).items():
            verdict = msprof_slow_npu(durations)
            if name in named:  # the rank msprof-analyze calls slow is the cause, the others affected, no links
                finding = named[name]
                assert (finding["rank_id"], finding["numbers"]["cause"]) == (verdict, "late_arrival"), name
                assert "link" not in finding["message"]
            else:  # where its 0.05 of the longest flags one the rule does not, the skew is under the rule's 0.3
                assert verdict is None or max(durations.values()) < 1.3 * min(durations.values()), name
    # rank 1 started the text capture's first all-reduce 5.6 ms late: 0.071 of the longest, 0.076 of the shortest
    assert by_run[LEVEL1_TEXT] == []
    # the server test ranks' operators are their communication.json's 28 (kernel_details.csv is cut short)
    assert sorted(f["subject"] for f in by_run["server"]) == [
        "hcom_allReduce__483_19", "hcom_broadcast__483_0", "hcom_broadcast__483_1"]


def test_the_waiting_rank_s_profiler_wait_is_the_cause_s_lateness(real):
    # the server test ranks: rank 0 arrives last at both broadcasts, and rank 1's wait (communication.json)
    # is its lateness; rank 0 waited too (the group holds 16 ranks, two captured), which the finding says
    conn, run_ids, by_run = real
    named = {f["subject"]: f for f in by_run["server"]}
    for name in ("hcom_broadcast__483_0", "hcom_broadcast__483_1"):
        finding, numbers = named[name], named[name]["numbers"]
        assert (finding["rank_id"], numbers["most_affected_rank_id"], numbers["wait_basis"]) == (0, 1, "profiler")
        assert numbers["affected_wait_ns"] == pytest.approx(numbers["start_spread_ns"], rel=0.04)
        assert finding["confidence"] == "low" and "a rank of the group not captured here" in finding["message"]
    # the 19th all-reduce: rank 0 arrives 198.2 us last and waits for no one (its profiler wait 0), rank 1
    # waits 442.2 us of it: the lateness and more (another rank of the group, not captured, later still)
    reduce = named["hcom_allReduce__483_19"]
    numbers = reduce["numbers"]
    assert (reduce["rank_id"], numbers["most_affected_rank_id"], numbers["cause_wait_ns"]) == (0, 1, 0)
    assert numbers["start_spread_ns"] == 198_200 and numbers["affected_wait_ns"] == 442_240
    assert reduce["severity"] == "low" and "link" not in reduce["message"]


def test_the_communication_bottleneck_query_names_no_slow_rank_where_msprof_analyze_names_none(real, realdata):
    # msprof-analyze's communication_bottleneck on the level-1 db capture: "No slow NPU detected" for each
    # of its 4 all-reduces; the named query that mirrors it says the same, wait and reason included
    conn, run_ids, _ = real
    columns, rows = queries.get("communication_bottleneck").run(conn, {"run_id": run_ids[LEVEL1_DB]})
    answered = [dict(zip(columns, row)) for row in rows]
    durations = rank_db_durations(realdata / LEVEL1_DB)
    assert sorted(r["name"] for r in answered) == sorted(durations)
    assert {(r["fast_rank_id"], r["slow_rank_id"]) for r in answered} == {(None, None)}
    assert {r["reason"] for r in answered} == {"no slow rank: durations differ by under 0.05 of the longest"}
    first = next(r for r in answered if r["name"] == "hcom_allReduce__210_0_1")
    assert first["wait_ns"] > 3_000_000  # the 3.53 ms lateness is still reported, as a wait, not a slow rank
