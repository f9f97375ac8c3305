"""The proposer (seed 003) with an evidence chain (seed 004): rules -> ``finding`` rows.

Each rule is a named query ``queries/diagnosis/rule_<finding_type>.sql`` (so REST, the CLI
and Datasette can run it too, with other thresholds). Every rule answers the same
columns: one row per evidence row, the rows of one finding sharing ``finding_key`` and
repeating the finding's own columns. A rule answers per profiling run (its ``run_id``
column; two runs are never added together) and takes ``run_id`` to answer one run only.
:func:`analyze` runs every rule of :data:`RULES` over every run and writes what they answer
into ``analysis_run``, ``finding`` and ``finding_evidence`` (migrations/0006, 0008) in one
transaction, replacing the previous analysis's rows: ``finding.run_id`` is the profiling run
the finding is about, ``finding.analysis_run_id`` the analysis that wrote it. What a rule answers
per step is stored as one finding per run, subject and rank, holding its steps
(:mod:`warehouse.analysis.merge`): the report, the CLI, REST and the Datasette pages all read
these rows.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone

from warehouse import db, queries
from warehouse.analysis.merge import merge, run_steps
from warehouse.analysis.step_classes import write_step_classes

#: the finding types, one per rule file ``queries/<view>/rule_<type>.sql`` (a new rule is one new
#: file); the report orders findings by severity, then type
RULES = tuple(sorted(path.stem.removeprefix("rule_") for path in queries.QUERIES_DIR.glob("*/rule_*.sql")))
FINDING_COLUMNS = ("run_id", "rank_id", "step_id", "subject", "severity", "confidence", "message", "numbers")
EVIDENCE_COLUMNS = ("evidence_source_id", "evidence_table", "evidence_source_row", "evidence_slice_id",
                    "evidence_kernel_id", "evidence_note")
#: the columns every rule query declares, in this order (tests/diagnosis/test_rules.py checks each file)
RULE_COLUMNS = ("finding_key", "run_id", "rank_id", "step_id", "subject", "severity",
                "confidence", "message", "numbers", "evidence_table", "evidence_source_id", "evidence_source_row",
                "evidence_slice_id", "evidence_kernel_id", "evidence_note")


@dataclass
class Finding:
    """One finding as a rule answered it, with its evidence rows in order."""

    finding_type: str
    values: dict
    evidence: list[tuple] = field(default_factory=list)


def rule_query(finding_type: str) -> queries.Query:
    """The named query of a rule."""
    return queries.get(f"rule_{finding_type}")


def evaluate(conn: sqlite3.Connection, finding_type: str, params: dict | None = None) -> list[Finding]:
    """Run one rule; group its rows into findings (in the order the rule answered them), per step as
    the rule answers (:func:`analyze` merges the steps)."""
    columns, rows = rule_query(finding_type).run(conn, params)
    found: dict[tuple, Finding] = {}
    for row in rows:
        record = dict(zip(columns, row))
        key = (record.get("run_id"), record["finding_key"])  # a finding never spans two runs
        finding = found.get(key)
        if finding is None:
            finding = found[key] = Finding(
                # a rule without a run_id column (none should lack it) answers NULL: the run is unknown
                finding_type, {name: record.get(name) for name in FINDING_COLUMNS})
        if record["evidence_table"] is not None:
            finding.evidence.append(tuple(record[name] for name in EVIDENCE_COLUMNS))
    return list(found.values())


def analyze(conn: sqlite3.Connection, params: dict[str, dict] | None = None) -> dict[str, int]:
    """Replace the findings with those of every rule, in one transaction; return counts per type.

    A rule's per-step findings of one run, subject and rank are stored as one (:func:`merge`).

    ``params`` maps a finding type to the parameters of its rule (thresholds).
    """
    params = params or {}
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    counts = {}
    with db.transaction(conn, "warehouse analyze", again="run warehouse analyze again"):
        for table in ("finding_evidence", "finding", "analysis_run"):
            conn.execute(f"DELETE FROM {table}")
        analysis_run_id = conn.execute("INSERT INTO analysis_run (started_at, rules) VALUES (?, ?)",
                                       (now, json.dumps(list(RULES)))).lastrowid
        steps = run_steps(conn)
        for finding_type in RULES:
            findings = merge(finding_type, evaluate(conn, finding_type, params.get(finding_type)), steps)
            for finding in findings:
                _write(conn, analysis_run_id, finding, now)
            counts[finding_type] = len(findings)
        conn.execute("UPDATE analysis_run SET finding_count = ? WHERE id = ?",
                     (sum(counts.values()), analysis_run_id))
        write_step_classes(conn)  # the step classes and layers the report and the steps queries read
    return counts


def latest_analysis(conn: sqlite3.Connection) -> dict | None:
    """The last ``warehouse analyze`` (its id, start and finding count), or None when none ran: a
    page tells 'no finding' from 'not analysed'."""
    row = conn.execute("SELECT id, started_at, finding_count FROM analysis_run ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else dict(zip(("id", "started_at", "finding_count"), row))


def _write(conn: sqlite3.Connection, analysis_run_id: int, finding: Finding, now: str) -> None:
    values = finding.values
    finding_id = conn.execute(
        "INSERT INTO finding (analysis_run_id, run_id, finding_type, severity, confidence, rank_id, step_id, subject, "
        "message, numbers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (analysis_run_id, values["run_id"], finding.finding_type, values["severity"], values["confidence"], values["rank_id"],
         values["step_id"], values["subject"], values["message"], values["numbers"], now),
    ).lastrowid
    conn.executemany(
        "INSERT INTO finding_evidence (finding_id, position, input_source_id, table_name, source_row, slice_id, "
        "kernel_id, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(finding_id, position, *evidence) for position, evidence in enumerate(finding.evidence)],
    )
