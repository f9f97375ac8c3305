"""One finding per run, rule and subject: a rule's per-step findings merged (issue 35).

A rule answers per step (``slow_rank_suspected``: rank 3 in step 1, rank 3 in step 2, ...), so
one problem repeated in every step would be as many findings as steps. :func:`merge` turns
the findings one rule answered for the same run, subject and rank into one finding that holds
its steps as evidence. The rules themselves are unchanged (they stay per step, so a query of
one rule still shows each step); the merge is generic, written once here:

- **which findings merge**: those with a step (``step_id`` 0 or more) and the same
  ``(run_id, subject key, rank_id)``. The subject key is the subject, less what names one step
  or one instance: a subject that is the finding's own step (``'step 4'``) keys as ``'steps'``,
  an HCCL operator's instance name keys as its type (``hcom_allReduce__401_0_1`` ->
  ``hcom_allReduce_``, the ``_instance_type`` rule of the model's views). A finding without a
  step (``NULL``: about the run, a kernel, an operator; ``-1``: a rank's whole capture), and one
  alone in its group (one step: its message names it), is kept as the rule answered it.
- **the worst step**: the most severe, then the worst by the rule's own figure
  (:data:`WORST_FIGURE`, a key of its numbers; a rule not listed is ranked by the first of
  :data:`FALLBACK_FIGURES` its numbers hold), then the earliest. The merged finding is the worst
  step's: its ``step_id``, its numbers (the worst step's figures) and its message, prefixed
  ``'In N of M steps (worst step S: figure value): '``.
- **numbers gain** ``steps`` (N, the steps merged), ``run_steps`` (M, the run's steps),
  ``worst_step``, ``worst_by`` (the figure's name) and ``step_ids`` (every merged step, in order).
- **severity** is the highest over the steps; **confidence** the median of the steps'
  confidences (the lower middle one for an even count): one odd step neither raises nor lowers it.
- **evidence**: the worst step's rows first, as the rule ordered them, then the first row of each
  other step, worst first, at most :data:`OTHER_STEP_EVIDENCE` of them; each note is prefixed
  with its step.

docs/findings.md says per rule when it fires, its severity and confidence and its figure.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import replace
from pathlib import Path
from statistics import median_low

from warehouse import sqlfiles

RUN_STEPS_SQL = Path(__file__).with_name("run_steps.sql")
#: per rule, the number of its ``numbers`` that tells the worst step, and whether a higher value is worse
WORST_FIGURE = {
    "communication_collective_slow": ("skew", True),
    "dp_workload_imbalance": ("spread", True),
    "ep_load_imbalance_suspected": ("ratio", True),
    "gc_pauses": ("share", True),
    "host_bound_gaps": ("share", True),
    "host_device_synchronization": ("blocked_ns", True),
    "memory_peak_near_capacity": ("ratio", True),
    "reduced_work_or_dummy_rank": ("kernels", False),
    "slow_rank_suspected": ("ratio", True),
}
#: a rule not in WORST_FIGURE (a new one) is ranked by the first of these its numbers hold, higher worse
FALLBACK_FIGURES = ("ratio", "skew", "spread", "share")
#: evidence rows kept for the steps other than the worst (one per step)
OTHER_STEP_EVIDENCE = 20
LEVELS = ("low", "medium", "high")
#: an HCCL operator's instance name: its type, then '_' and the instance numbers
INSTANCE_NAME = re.compile(r"^(?P<type>.+?_)_\d+(?:_\d+)*$")


def merge(finding_type: str, findings: list, run_steps: dict) -> list:
    """The rule's findings with those of one run, subject and rank merged (in the rule's order);
    ``run_steps``: each run's number of steps (:func:`run_steps`)."""
    groups: dict[tuple, list] = {}
    for finding in findings:
        groups.setdefault(_key(finding), []).append(finding)
    merged = []
    for key, group in groups.items():
        if key[0] is None or len(group) == 1:  # not stepped, or one step alone: kept as answered
            merged.extend(group)
        else:
            merged.append(_merge_group(finding_type, key[2], group, run_steps.get(group[0].values["run_id"])))
    return merged


def _stepped(finding) -> bool:
    """True for a finding about one step (not the run, not a rank's whole capture)."""
    step_id = finding.values["step_id"]
    return step_id is not None and step_id >= 0


def _key(finding) -> tuple:
    """The merge key: (True, run, subject key, rank) when stepped; a key of its own otherwise."""
    values = finding.values
    if not _stepped(finding):
        return (None, id(finding))
    return (True, values["run_id"], subject_key(values["subject"], values["step_id"]), values["rank_id"])


def subject_key(subject: str | None, step_id: int) -> str | None:
    """The subject less what names one step ('step 4' -> 'steps') or one HCCL instance (its type)."""
    if subject == f"step {step_id}":
        return "steps"
    match = INSTANCE_NAME.match(subject or "")
    return match["type"] if match else subject


def run_steps(conn: sqlite3.Connection) -> dict:
    """Each run's number of steps (read once per analysis)."""
    return dict(conn.execute(sqlfiles.text(RUN_STEPS_SQL)).fetchall())


def _figure(finding_type: str, numbers: dict) -> tuple[str | None, bool]:
    """The name of the figure that ranks the rule's steps, and whether higher is worse."""
    if finding_type in WORST_FIGURE:
        return WORST_FIGURE[finding_type]
    return next(((name, True) for name in FALLBACK_FIGURES if name in numbers), (None, True))


def _rank(finding, figure: str | None, higher_worse: bool) -> tuple:
    """Sort key, worst first: severity, the figure, then the earliest step."""
    value = json.loads(finding.values["numbers"]).get(figure) if figure else None
    score = float("-inf") if value is None else (value if higher_worse else -value)
    return (-LEVELS.index(finding.values["severity"]), -score, finding.values["step_id"])


def _merge_group(finding_type: str, subject: str | None, group: list, run_steps: int | None):
    """One finding for the steps of ``group``, as the module docstring says."""
    figure, higher_worse = _figure(finding_type, json.loads(group[0].values["numbers"]))
    ordered = sorted(group, key=lambda f: _rank(f, figure, higher_worse))
    worst, others = ordered[0], ordered[1:]
    step_ids = sorted({f.values["step_id"] for f in group})
    numbers = json.loads(worst.values["numbers"])
    numbers.update(steps=len(step_ids), run_steps=max(run_steps or 0, len(step_ids)),
                   worst_step=worst.values["step_id"], worst_by=figure, step_ids=step_ids)
    figure_text = f"{figure} {numbers.get(figure)}" if figure else "the most severe"
    same_subject = all(f.values["subject"] == worst.values["subject"] for f in group)
    values = dict(worst.values)
    values.update(
        subject=worst.values["subject"] if same_subject else subject,
        severity=max((f.values["severity"] for f in group), key=LEVELS.index),
        confidence=LEVELS[median_low(LEVELS.index(f.values["confidence"]) for f in group)],
        message=f"In {len(step_ids)} of {numbers['run_steps']} steps (worst step {worst.values['step_id']}: "
                f"{figure_text}): {worst.values['message']}",
        numbers=json.dumps(numbers, separators=(",", ":")),
    )
    evidence = [_step_note(row, worst) for row in worst.evidence]
    evidence += [_step_note(f.evidence[0], f) for f in others if f.evidence][:OTHER_STEP_EVIDENCE]
    return replace(worst, values=values, evidence=evidence)


def _step_note(row: tuple, finding) -> tuple:
    """An evidence row with its note prefixed by its step (the note is the row's last field)."""
    return (*row[:-1], f"step {finding.values['step_id']}: {row[-1]}")
