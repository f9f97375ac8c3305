"""One finding per run, rule and subject (issue 35): a rule's per-step findings are stored as one
that holds its steps, on its worst step."""

import json

import pytest

from tests.diagnosis import cluster as synth
from warehouse.analysis import findings, merge


def test_one_slow_rank_over_five_steps_is_one_finding_on_its_worst_step(warehouse_db):
    built = synth.build(warehouse_db, ranks=4, steps=(1, 2, 3, 4, 5), slow_rank=2)
    # step 4 is its worst: its kernels there run 0.4 ms longer in all (1.75x the median, 1.5x elsewhere)
    step_4 = [k["id"] for k in built.kernels[2, 4] if k["name"] == "MatMul_up"]
    warehouse_db.execute(f"UPDATE kernel SET dur = dur + {400_000 // len(step_4)} "
                         f"WHERE id IN ({', '.join(map(str, step_4))})")
    per_step = findings.evaluate(warehouse_db, "slow_rank_suspected")
    assert [f.values["step_id"] for f in per_step] == [1, 2, 3, 4, 5]  # the rule itself still answers per step
    findings.analyze(warehouse_db)
    [(finding_id, rank, step, severity, confidence, message, numbers)] = warehouse_db.execute(
        "SELECT id, rank_id, step_id, severity, confidence, message, numbers FROM finding "
        "WHERE finding_type = 'slow_rank_suspected'").fetchall()
    numbers = json.loads(numbers)
    assert (rank, step, severity, confidence) == (2, 4, "high", "high")
    assert (numbers["steps"], numbers["run_steps"], numbers["worst_step"], numbers["worst_by"],
            numbers["step_ids"]) == (5, 5, 4, "ratio", [1, 2, 3, 4, 5])
    assert numbers["ratio"] == pytest.approx(2_800_000 / 1_600_000, abs=1e-3)  # the worst step's own figures
    assert message.startswith(f"In 5 of 5 steps (worst step 4: ratio {numbers['ratio']}): Rank 2 computes ")
    notes = [note for (note,) in warehouse_db.execute(
        "SELECT note FROM finding_evidence WHERE finding_id = ? ORDER BY position", (finding_id,))]
    # the worst step's five kernels, then one row for each other step (equal ratios: earliest first)
    assert [note.split(":")[0] for note in notes] == ["step 4"] * 5 + ["step 1", "step 2", "step 3", "step 5"]


def finding(step_id, severity="medium", confidence="high", subject="rank 1", **numbers):
    return findings.Finding("some_new_rule", {
        "run_id": 1, "rank_id": 1, "step_id": step_id, "subject": subject, "severity": severity,
        "confidence": confidence, "message": f"Seen in step {step_id}.", "numbers": json.dumps(numbers)},
        [(None, "kernel", step_id, None, None, f"row of step {step_id}")])


def test_severity_is_the_highest_confidence_the_median_and_an_unlisted_rule_ranks_by_ratio():
    found = [finding(1, "low", "low", ratio=1.2), finding(2, "high", "medium", ratio=1.1),
             finding(3, "medium", "high", ratio=1.9), finding(None, ratio=3.0), finding(-1, ratio=3.0)]
    merged, whole_run, whole_capture = merge.merge("some_new_rule", found, {1: 10})
    assert (whole_run, whole_capture) == (found[3], found[4])  # no step, a whole capture: as answered
    numbers = json.loads(merged.values["numbers"])
    # the most severe step is the worst, whatever its figure; the median of low, medium, high is medium
    assert (merged.values["step_id"], merged.values["severity"], merged.values["confidence"]) == (2, "high", "medium")
    assert (numbers["worst_by"], numbers["steps"], numbers["run_steps"]) == ("ratio", 3, 10)
    assert merged.values["message"] == "In 3 of 10 steps (worst step 2: ratio 1.1): Seen in step 2."
    assert [row[-1] for row in merged.evidence] == ["step 2: row of step 2", "step 3: row of step 3",
                                                    "step 1: row of step 1"]


@pytest.mark.parametrize("subject,step_id,key", (
    ("hcom_allReduce__401_0_1", 1, "hcom_allReduce_"),
    ("hcom_allReduce__5", 2, "hcom_allReduce_"),
    ("step 4", 4, "steps"),
    ("step 4", 5, "step 4"),  # another step's name is a subject of its own
    ("rank 3", 1, "rank 3"),
    ("MatMul_v2_0", 1, "MatMul_v2_0"),
))
def test_subject_keys(subject, step_id, key):
    assert merge.subject_key(subject, step_id) == key
