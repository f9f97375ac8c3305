"""Two runs side by side (issue 17): ``warehouse compare --db X BASE RUN``, or on a Parquet
dataset (``warehouse export``, the Spark ingest) with ``--engine duckdb|spark --data DIR``.

The answers are the named queries of ``queries/compare/`` (``compare_runs``, ``compare_step_time``,
``compare_kernels``, ``compare_communication``, ``compare_memory``), run with
``base_run_id`` and ``run_id``, so the CLI, the REST API and Datasette give the same rows.
Up front it says what differs between the two runs (device, cluster size, export kind, profiler
and its version: ``compare_runs``), whether they are comparable (the run_comparable view: the
same device kind and type, cluster size and model) and how their ranks pair (by place in the
cluster where both state their shape, as each one's only rank, else by rank id: every compare
query pairs them alike and says it per row, ``paired_by``), so a figure is read knowing what it
compares.
This module resolves the two runs (names or ids), prints the top rows of each answer (through
:mod:`warehouse.output`, as ``warehouse query`` does), and picks the top regressions and
improvements, each with its evidence rows in both runs (input path and row). Its report is one
more report of this package: :mod:`.compare_tables` lays it out as tables (:class:`~.tables.Table`)
and the report's HTML and Markdown writers write it, escaped as the run report is.

Every row it reads comes from a named query (the evidence and the run names from the internal
ones of ``queries/_compare/``), run through a :data:`Runner`: :func:`sqlite_runner` over a
warehouse, :func:`engine_runner` over an engine, so a dataset gives the answers SQLite gives.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

from warehouse import output, queries, units
from warehouse.errors import WarehouseError
from warehouse.model import runs
from warehouse.report.format import ms, text_of

#: the report's heading (the warehouse or dataset compared follows it)
TITLE = "Compare runs"
#: the answers, in the order they are printed and reported
QUERIES = (
    ("compare_runs", "What the runs are (device, cluster, export, profiler) and whether they are comparable"),
    ("compare_step_time", "Step time (mean per step, per rank and overall)"),
    ("compare_kernels", "Kernels (every rank; by the time they add)"),
    ("compare_communication", "Communication (per collective type and group)"),
    ("compare_memory", "Memory peaks (per rank and component)"),
)
#: rows of each answer printed by the command, and items per kind in the report
TOP = 10
REPORT_ITEMS = 5
#: evidence rows per run and item
EVIDENCE_ROWS = 3
#: the properties of compare_runs said up front when they differ, with their words
HEADER_PROPERTIES = {"device_kind": "device kind", "device_type": "device type", "cluster_size": "cluster size",
                     "ranks": "ranks ingested", "export_kind": "export kind", "profiler": "profiler",
                     "profiler_version": "profiler version", "export_schema": "export schema"}
#: communication metrics where a larger value is worse (bandwidth: a smaller one)
WORSE_WHEN_LARGER = {"mean_time_ns", "mean_elapse_ns", "mean_transit_ns", "mean_wait_ns",
                     "mean_synchronization_ns"}


#: runs a named query with its parameters: ``run(name, values) -> (columns, rows)``
Runner = Callable[[str, dict], tuple[list[str], list[tuple]]]


class CompareError(WarehouseError):
    """An output the report cannot be written as."""


@dataclass
class Run:
    run_id: int
    name: str
    labels: dict


@dataclass
class Answer:
    name: str
    title: str
    columns: list[str]
    rows: list[tuple]

    def dicts(self) -> list[dict]:
        return [dict(zip(self.columns, row)) for row in self.rows]


@dataclass
class Item:
    """A regression or an improvement: what changed, by how much, and the rows that show it."""

    kind: str
    subject: str
    change: str
    base_evidence: list[dict] = field(default_factory=list)
    run_evidence: list[dict] = field(default_factory=list)


@dataclass
class Comparison:
    base: Run
    run: Run
    answers: dict[str, Answer]
    regressions: list[Item] = field(default_factory=list)
    improvements: list[Item] = field(default_factory=list)


def sqlite_runner(conn: sqlite3.Connection) -> Runner:
    """Named queries on a SQLite warehouse."""
    return lambda name, values: queries.get(name).run(conn, values)


def engine_runner(engine) -> Runner:
    """Named queries on an engine over a Parquet dataset (:mod:`warehouse.engines`)."""
    return lambda name, values: engine.run(queries.get(name), values)


def resolve_pair(run_query: Runner, base: str, run: str) -> tuple[Run, Run]:
    """The two runs a user named, each as :func:`warehouse.model.runs.run_id_named` reads a name.

    :raises UnknownRun: one line naming the unknown run and the runs there are.
    """
    names = dict(run_query(runs.RUN_NAMES, {})[1])
    found = []
    for named in (base, run):
        run_id = runs.run_id_named(names, named)
        labels = {key: value for *_, key, value in run_query("run_labels", {"run_id": run_id})[1]
                  if key is not None}
        found.append(Run(run_id, names[run_id], labels))
    return found[0], found[1]


def compare(run_query: Runner, base: Run, run: Run, *, evidence: bool = True) -> Comparison:
    """Every compare answer of ``run`` against ``base``; with ``evidence``, the regressions and improvements."""
    answers = {}
    for name, title in QUERIES:
        columns, rows = run_query(name, {"base_run_id": base.run_id, "run_id": run.run_id})
        answers[name] = Answer(name, title, columns, rows)
    comparison = Comparison(base, run, answers)
    if evidence:
        _pick(run_query, comparison)
    return comparison


def differences(comparison: Comparison) -> list[dict]:
    """The properties of :data:`HEADER_PROPERTIES` that differ between the two runs, or that one
    run states and the other does not: ``{"property", "base", "run"}`` each, in compare_runs' order."""
    return [{"property": row["property"], "base": row["base_value"], "run": row["run_value"]}
            for row in comparison.answers["compare_runs"].dicts()
            if row["property"] in HEADER_PROPERTIES and row["base_value"] != row["run_value"]]


def verdict(comparison: Comparison) -> tuple[bool, str]:
    """Whether the two runs are comparable, and why (compare_runs' last row, run_comparable's reason)."""
    row, = [row for row in comparison.answers["compare_runs"].dicts() if row["property"] == "comparable"]
    return row["run_value"] == "yes", row["note"]


def rank_pairing(comparison: Comparison) -> tuple[str, str]:
    """How the two runs' ranks pair (place, only rank or rank id), and the sentence that says why
    and which paired ranks have different ids (compare_runs' rank_pairing row)."""
    row, = [row for row in comparison.answers["compare_runs"].dicts() if row["property"] == "rank_pairing"]
    return row["run_value"], row["note"]


def header(comparison: Comparison) -> list[str]:
    """What is said before any figure: what differs between the runs, whether they are comparable,
    and how their ranks pair."""
    differing = [f"{HEADER_PROPERTIES[d['property']]} {_stated(d['base'])} → {_stated(d['run'])}"
                 for d in differences(comparison)]
    return ["differs: " + ("; ".join(differing) if differing else "nothing of device, cluster, export or profiler"),
            verdict(comparison)[1], rank_pairing(comparison)[1]]


def render_text(comparison: Comparison, fmt: str, top: int = TOP) -> str:
    """The top rows of each answer in ``fmt`` (table, csv: one section per answer; json: one object),
    after the :func:`header` (table: its lines; json: ``differs``, ``comparable`` and ``rank_pairing``)."""
    if fmt == "json":
        comparable, reason = verdict(comparison)
        paired_by, note = rank_pairing(comparison)
        document = {"base": _run_dict(comparison.base), "run": _run_dict(comparison.run),
                    "differs": differences(comparison), "comparable": {"comparable": comparable, "reason": reason},
                    "rank_pairing": {"paired_by": paired_by, "note": note}}
        for name, answer in comparison.answers.items():
            document[name] = [dict(zip(answer.columns, row)) for row in answer.rows[:top]]
        return json.dumps(document, indent=2, default=output.bytes_as_hex) + "\n"
    parts = []
    if fmt == "table":
        parts.append(f"base: run {comparison.base.run_id} {_labelled(comparison.base)}\n"
                     f"run:  run {comparison.run.run_id} {_labelled(comparison.run)}\n")
        parts.append("".join(line + "\n" for line in header(comparison)))
    for name, answer in comparison.answers.items():
        shown = answer.rows[:top]
        if fmt == "table":
            more = f" (top {len(shown)} of {len(answer.rows)})" if len(answer.rows) > len(shown) else ""
            parts.append(f"\n{name}: {answer.title}{more}\n")
            parts.append(output.render(answer.columns, shown, fmt) if shown else "(no rows)\n")
        else:
            parts.append(("\n" if parts else "") + output.csv_text(["query"], [(name,)]))
            parts.append(output.render(answer.columns, shown, fmt))
    return "".join(parts)


# -- regressions and improvements -----------------------------------------------------------

def _pick(run_query: Runner, comparison: Comparison) -> None:
    base, run = comparison.base.run_id, comparison.run.run_id
    answers = comparison.answers
    for row in answers["compare_step_time"].dicts():
        if row["scope"] == "overall" and row["component"] == "duration" and row["difference_ns"]:
            item = Item("step time", "mean step duration (every rank)",
                        f"{ms(row['base_ns'])} ms → {ms(row['run_ns'])} ms ({_signed_ms(row['difference_ns'])})",
                        _step_evidence(run_query, base), _step_evidence(run_query, run))
            (comparison.regressions if row["difference_ns"] > 0 else comparison.improvements).append(item)
    kernels = answers["compare_kernels"].dicts()
    for rows, bucket in ((kernels, comparison.regressions), (list(reversed(kernels)), comparison.improvements)):
        for row in rows[:REPORT_ITEMS]:
            added = row["difference_ns"] or 0
            if (added > 0) != (bucket is comparison.regressions) or added == 0:
                break
            ratio = f", {row['ratio']:.2f}x per execution" if row["ratio"] is not None else ""
            named = text_of(row["name"]) + (f" (base: {text_of(row['base_name'])})" if row["base_name"] else "")
            bucket.append(Item(
                "kernel", f"{named} (matched by {row['matched_by']})",
                f"{_signed_ms(added)} in all ({row['base_count']} → {row['run_count']} executions{ratio})",
                _kernel_evidence(run_query, base, row, row["base_name"] or row["name"]),
                _kernel_evidence(run_query, run, row, row["name"])))
    worse, better = [], []
    for row in answers["compare_communication"].dicts():
        metric = row["metric"]
        if metric == "count" or row["base_value"] is None or row["run_value"] is None:
            continue
        if row["base_value"] == row["run_value"] or row["ratio"] is None:
            continue
        larger = row["run_value"] > row["base_value"]
        regressed = larger if metric in WORSE_WHEN_LARGER else not larger
        scope = "every rank" if row["scope"] == "overall" else _rank(row)
        base_group = f" (baseline: {text_of(row['base_group_ranks'])})" if row["base_group_ranks"] else ""
        item = Item("communication", f"{text_of(row['op_type'])} group of ranks {text_of(row['group_ranks'])}"
                    f"{base_group}, {scope}: {metric}",
                    f"{_value(metric, row['base_value'])} → {_value(metric, row['run_value'])} "
                    f"({row['ratio']:.2f}x)",
                    _communication_evidence(run_query, base, row, row["base_group_name"], _base_rank(row)),
                    _communication_evidence(run_query, run, row, row["run_group_name"], row["rank_id"]))
        (worse if regressed else better).append(item)
    comparison.regressions += worse[:REPORT_ITEMS]
    comparison.improvements += better[:REPORT_ITEMS]
    grew, shrank = [], []
    for row in answers["compare_memory"].dicts():
        if not row["difference_bytes"] or row["scope"] != "rank":
            continue
        item = Item("memory", f"{_rank(row)} {text_of(row['component'])}: {row['metric']}",
                    f"{_bytes(row['base_bytes'])} → {_bytes(row['run_bytes'])}",
                    _memory_evidence(run_query, base, row, _base_rank(row)),
                    _memory_evidence(run_query, run, row, row["rank_id"]))
        (grew if row["difference_bytes"] > 0 else shrank).append(item)
    comparison.regressions += grew[:REPORT_ITEMS]
    comparison.improvements += shrank[:REPORT_ITEMS]


def _rows(run_query: Runner, name: str, values: dict) -> list[dict]:
    columns, rows = run_query(name, values)
    return [dict(zip(columns, row)) for row in rows]


def _step_evidence(run_query: Runner, run_id: int) -> list[dict]:
    return _rows(run_query, "compare_step_evidence", {"run_id": run_id, "limit": EVIDENCE_ROWS})


def _kernel_evidence(run_query: Runner, run_id: int, row: dict, name: str) -> list[dict]:
    """The longest executions of the row's kernel named ``name`` in one run (the two runs' names
    differ for a kernel matched by what it computes)."""
    return _rows(run_query, "compare_kernel_evidence", {
        "run_id": run_id, "name": name, "exact": row["matched_by"] != "name", "op_type": row["op_type"],
        "input_shapes": row["input_shapes"], "limit": EVIDENCE_ROWS})


def _communication_evidence(run_query: Runner, run_id: int, row: dict, group_name, rank_id) -> list[dict]:
    """The row's collectives in one run, in that run's name of the group (groups match by their ranks)
    and on that run's rank of the pair."""
    values = {"run_id": run_id, "op_type": row["op_type"], "name_like": _like_prefix(row["op_type"]),
              "rank_id": rank_id, "group_name": group_name, "limit": EVIDENCE_ROWS}
    if row["metric"] == "mean_time_ns":
        return _rows(run_query, "compare_hccl_evidence", values)
    return _rows(run_query, "compare_communication_evidence", {**values, "metric": row["metric"]})


def _memory_evidence(run_query: Runner, run_id: int, row: dict, rank_id) -> list[dict]:
    return _rows(run_query, "compare_memory_evidence", {
        "run_id": run_id, "metric": row["metric"], "rank_id": rank_id, "component": row["component"]})


def _base_rank(row: dict):
    """The baseline's rank of a compared row's pair: its own id where the runs number it otherwise."""
    return row["rank_id"] if row["base_rank_id"] is None else row["base_rank_id"]


def _rank(row: dict) -> str:
    """``rank R``, and the baseline's rank of the pair where its id differs."""
    base = f" (baseline rank {text_of(row['base_rank_id'])})" if row["base_rank_id"] is not None else ""
    return f"rank {text_of(row['rank_id'])}{base}"


def _like_prefix(op_type) -> str:
    text = text_of(op_type)
    return "".join("\\" + c if c in "%_\\" else c for c in text) + "\\_%"


# -- wording ------------------------------------------------------------------------------

def _run_dict(run: Run) -> dict:
    return {"run_id": run.run_id, "name": run.name, "labels": run.labels}


def _labelled(run: Run) -> str:
    """A run's name with its labels, ``name (key=value, ...)``."""
    labels = label_text(run)
    return f"{run.name}" + (f" ({labels})" if labels else "")


def label_text(run: Run) -> str:
    """A run's labels as ``key=value, ...`` (empty when it has none)."""
    return ", ".join(f"{k}={v}" for k, v in run.labels.items())


def _stated(value) -> str:
    return "not stated" if value is None else str(value)


def _signed_ms(ns) -> str:
    if ns is None:
        return "-"
    return ("+" if ns > 0 else "") + ms(ns) + " ms"


def _bytes(size) -> str:
    if size is None:
        return "-"
    return f"{size / 2**20:,.1f} MiB"


def _value(metric: str, value) -> str:
    if value is None:
        return "-"
    if metric == "bandwidth_bytes_per_s":
        return units.format_rate(value)
    return f"{ms(value)} ms"
