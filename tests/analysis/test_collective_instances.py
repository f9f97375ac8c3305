"""rule_communication_collective_slow matches a collective's instance across ranks: one row per rank.

An export that gives every step's allreduce the same name (one name, many calls per rank)
used to be read as one instance: every call of every rank in it, "over 100 ranks" on a 6-rank
demo, its duration range and its clock check spanning the whole run.
"""

import json

from tests.diagnosis import cluster as synth
from warehouse.analysis import findings

#: the text export of 4 ranks over 3 steps, rank 1 ending step 2's allreduce 1 ms late
PLANTED = dict(ranks=4, steps=(1, 2, 3), rank_db=False, text_export=True, slow_collective=(2, 1))


def collective_findings(conn):
    findings.analyze(conn)
    return [(rank_id, step_id, severity, confidence, json.loads(numbers)) for rank_id, step_id, severity, confidence,
            numbers in conn.execute("SELECT rank_id, step_id, severity, confidence, numbers FROM finding "
                                    "WHERE finding_type = 'communication_collective_slow' ORDER BY id")]


def test_a_name_every_step_repeats_is_one_instance_per_call(warehouse_db):
    synth.build(warehouse_db, **PLANTED)
    numbered = collective_findings(warehouse_db)
    # as an export that does not number its collectives writes them
    warehouse_db.execute("UPDATE kernel SET name = 'hcom_allReduce__5' WHERE op_class = 'communication'")
    assert collective_findings(warehouse_db) == numbered
    [(rank_id, step_id, severity, _, numbers)] = numbered
    assert (rank_id, step_id, severity) == (1, 2, "high")
    assert (numbers["ranks"], numbers["end_spread_ns"]) == (4, synth.LATE_NS)


def test_ranks_counts_ranks_not_rows(warehouse_db):
    synth.build(warehouse_db, **PLANTED)
    warehouse_db.execute("UPDATE kernel SET name = 'hcom_allReduce__5' WHERE op_class = 'communication'")
    findings.analyze(warehouse_db)
    [message] = [m for (m,) in warehouse_db.execute(
        "SELECT message FROM finding WHERE finding_type = 'communication_collective_slow'")]
    assert message.startswith("Collective hcom_allReduce__5 is slow on rank 1: ")
    assert " over 4 ranks;" in message  # 12 rows of that name: 4 ranks x 3 calls
