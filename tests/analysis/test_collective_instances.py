"""rule_communication_collective_slow matches a collective's instance across ranks: one row per rank.

An export that gives every step's allreduce the same name (one name, many calls per rank)
used to be read as one instance: every call of every rank in it, "over 100 ranks" on a 6-rank
demo, its duration range and its clock check spanning the whole run.
"""

import json

from tests.diagnosis import cluster as synth
from warehouse import queries
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



#: DP 2 x TP 2 in Megatron's order: tensor-parallel pairs (0, 1), (2, 3); data-parallel pairs (0, 2), (1, 3)
DP2_TP2 = {"dp": [[0, 2], [1, 3]], "tp": [[0, 1], [2, 3]]}
#: a text export (it names no group) of two data-parallel groups reducing apart, the same operator names in
#: both; rank 2 computes 1.5x, so rank 0 waits for it in every step and ranks 1 and 3 wait for no one
TWO_GROUPS = dict(ranks=4, steps=(1, 2), rank_db=False, text_export=True, slow_rank=2,
                  collective_groups=DP2_TP2["dp"])


def instances(conn):
    """(step, cause rank, the ranks of its evidence, group, what says the group) per finding of the rule, as it
    answers them (per step), and the last sentence of the first message."""
    found = findings.evaluate(conn, "communication_collective_slow")
    answers = []
    for finding in found:
        numbers = json.loads(finding.values["numbers"])
        ranks = sorted(int(note.split(":")[0].removeprefix("rank ")) for *_, note in finding.evidence)
        answers.append((finding.values["step_id"], finding.values["rank_id"], numbers["cause"], ranks,
                        numbers["group"], numbers["group_said_by"]))
    return sorted(answers), found[0].values["message"].rsplit(". ", 1)[-1] if found else None


def run(conn, name: str, *columns: str) -> list[tuple]:
    """The named query's rows, those columns."""
    names, rows = queries.load()[name].run(conn)
    return [tuple(row[names.index(column)] for column in columns) for row in rows]


def test_a_late_rank_is_late_only_in_its_own_groups_instances(warehouse_db):
    built = synth.build(warehouse_db, **TWO_GROUPS)
    synth.place(warehouse_db, built, DP2_TP2)
    answers, said = instances(warehouse_db)
    # each all-reduce of the data-parallel group (0, 2) waits for rank 2; the group (1, 3) is not touched
    assert answers == [(step, 2, "late_arrival", [0, 2], "dp [0,2]", "parallel_group_info") for step in (1, 2)]
    assert said == "Its input names no group: its ranks are the data-parallel group [0,2] (parallel_group_info)."
    assert sorted(run(warehouse_db, "communication_bottleneck", "group_name", "slow_rank_id", "fast_rank_id")) == [
        ("dp [0,2]", 2, 0), ("dp [0,2]", 2, 0), ("dp [1,3]", None, None), ("dp [1,3]", None, None)]
    assert sorted(run(warehouse_db, "communication_slow_rank", "rank_id", "ops", "slow_affect_count")) == [
        (0, 2, 0), (1, 2, 0), (2, 2, 2), (3, 2, 0)]


def test_without_a_stated_group_every_rank_is_one_instance_and_the_finding_says_so(warehouse_db):
    synth.build(warehouse_db, **TWO_GROUPS)
    answers, said = instances(warehouse_db)
    # the two groups' all-reduces are one instance of 4 ranks: ranks 1 and 3 ended theirs before rank 2
    # began, so it reads as clocks apart, the longest (rank 0) named, and the message says no group was known
    assert answers == [(step, 0, "clocks_apart", [0, 1, 2, 3], None, "nothing") for step in (1, 2)]
    assert said == ("No input names its group or states a parallel group it fits: every rank calling it is taken "
                    "as one group.")


def test_an_operator_that_names_its_group_keeps_it(warehouse_db):
    # the rank dbs name each data-parallel group (group_0, group_2 in COMMUNICATION_OP): the stated shape
    # does not override them
    built = synth.build(warehouse_db, **{**TWO_GROUPS, "rank_db": True})
    synth.place(warehouse_db, built, DP2_TP2)
    answers, said = instances(warehouse_db)
    assert answers == [(step, 2, "late_arrival", [0, 2], "group_0", "operator") for step in (1, 2)]
    assert said.endswith("not the transfer.")
