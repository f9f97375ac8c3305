"""Every named query gives the same answer on SQLite, DuckDB and Spark over the exported data.

The queries come from the registry, so a new query is compared as soon as it exists. Each
must return rows on the factory warehouse with the parameters of :data:`PARAMS` (its
defaults when it has no entry); a query with a required parameter and no entry fails
:func:`test_every_required_parameter_has_a_test_value`, so none slips through untested.
"""

from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import dataclass

import pytest
import sqlglot
from sqlglot import exp

from warehouse import queries
from warehouse.engines.base import Engine


@dataclass(frozen=True)
class Lookup:
    """A parameter value read from the factory warehouse (ids depend on the ingest order)."""

    sql: str


OP_PROFILE = Lookup("SELECT id FROM source WHERE kind = 'op_profile'")
CODE_FILE = Lookup("SELECT min(file) FROM code_line")
CODE_CORE = Lookup("SELECT min(core) FROM code_line")
BUSIEST_THREAD = Lookup("SELECT thread_id FROM _slice GROUP BY thread_id ORDER BY count(*) DESC, thread_id LIMIT 1")
FLOW_SLICE = Lookup("SELECT min(slice_out) FROM flow")
#: the run of the text export's rank (3, its device's: the Memory page's rank with memory records, operator and
#: static memory)
MEMORY_RUN = Lookup("SELECT min(run_id) FROM source WHERE rank_id = 3 AND kind = 'memory_record_csv'")
#: the run of rank 0's rank db kernels (the Operator page's rank)
KERNEL_RUN_SQL = ("SELECT min(s.run_id) FROM kernel AS k JOIN source AS s ON s.id = k.source_id "
                  "WHERE k.rank_id = 0 AND k.origin = 'rank_db'")
KERNEL_RUN = Lookup(KERNEL_RUN_SQL)
#: the longest slice of a lane answering rank 0's timeline in the Operator page's run (a block's allocating slice)
RANK0_SLICE = ("FROM slice AS s JOIN thread AS t ON t.id = s.thread_id JOIN answer_source AS a ON a.source_id = t.source_id "
               f"AND a.fact = 'timeline' WHERE a.rank_id = 0 AND a.run_id = ({KERNEL_RUN_SQL}) ORDER BY s.dur DESC, s.id LIMIT 1")
HCCL_ROW = "FROM hccl_operator WHERE op_type IS NOT NULL ORDER BY dur DESC, source_id, source_row LIMIT 1"
TIME_ROW = "FROM communication_time_answer WHERE group_name IS NOT NULL ORDER BY source_id, source_row LIMIT 1"
MEMORY_ROW = ("FROM memory_record AS m JOIN answer_source AS a ON a.source_id = m.source_id AND a.fact = 'memory' "
              "ORDER BY m.source_id, m.source_row LIMIT 1")
#: two runs of one shape numbered otherwise (tests/scale/conftest.py): compare pairs their ranks by place
# the scale fixture's pipelined pair; in a warehouse without it (the demo's, the real samples') NULL: the
# queries' defaults (the last run against the one before it)
PIPELINED_PAIR = {"base_run_id": Lookup("SELECT (SELECT run_id FROM run WHERE name = 'pipelined')"),
                  "run_id": Lookup("SELECT (SELECT run_id FROM run WHERE name = 'pipelined_renumbered')")}
#: the MoE inference run (tests/scale/conftest.py ingest_moe_run)
MOE_RUN = Lookup("SELECT min(run_id) FROM source WHERE kind = 'trace_json' AND path LIKE '%/moe/rank%'")
#: per query, the parameters that make it return rows on the factory warehouse
PARAMS = {
    # conftest.plant_advice_inputs' RDMA send of 2 ms, 1.5 ms in transit (the server's 4 s passes a 32-bit integer)
    "communication_retransmissions": {"min_ms": 1.0},
    "compare_communication_evidence": {
        "run_id": Lookup(f"SELECT run_id {TIME_ROW}"), "metric": "mean_elapse_ns",
        "op_type": Lookup(f"SELECT op_name {TIME_ROW}"), "name_like": "none", "group_name": Lookup(f"SELECT group_name {TIME_ROW}")},
    "compare_hccl_evidence": {"run_id": Lookup(f"SELECT run_id {HCCL_ROW}"), "op_type": Lookup(f"SELECT op_type {HCCL_ROW}"),
                              "name_like": Lookup(f"SELECT op_type || '\\_%' {HCCL_ROW}")},
    "compare_kernel_evidence": {"run_id": Lookup("SELECT run_id FROM kernel_answer ORDER BY dur DESC, id LIMIT 1"),
                                "name": Lookup("SELECT name FROM kernel_answer ORDER BY dur DESC, id LIMIT 1")},
    "compare_memory_evidence": {"run_id": Lookup(f"SELECT a.run_id {MEMORY_ROW}"), "metric": "peak_allocated_bytes",
                                "rank_id": Lookup(f"SELECT m.rank_id {MEMORY_ROW}"),
                                "component": Lookup(f"SELECT m.component {MEMORY_ROW}")},
    "compare_step_evidence": {"run_id": Lookup("SELECT min(run_id) FROM step_answer")},
    "compare_communication": PIPELINED_PAIR,
    "compare_memory": PIPELINED_PAIR,
    "compare_runs": PIPELINED_PAIR,
    "compare_step_time": PIPELINED_PAIR,
    "ep_load_balance": {"op_type": "MatMul", "threshold": 0.5},
    "free_analysis": {"min_gap_ns": 0},
    "finding_evidence": {"finding_id": Lookup("SELECT min(id) FROM finding")},
    "insight_advice": {"source_id": OP_PROFILE, "block_type": Lookup("SELECT min(block_type) FROM op_advice")},
    "insight_aicore_freq": {"run_id": KERNEL_RUN, "rank_id": 0},
    "insight_block_json": {"source_id": OP_PROFILE, "block_type": 5},
    "insight_code_file": {"source_id": OP_PROFILE, "source_name": CODE_FILE},
    "insight_code_files": {"source_id": OP_PROFILE},
    "insight_code_line_metrics": {"source_id": OP_PROFILE, "file": CODE_FILE, "core": CODE_CORE},
    "insight_code_lines": {"source_id": OP_PROFILE, "file": CODE_FILE, "core": CODE_CORE},
    "insight_compute_load": {"source_id": OP_PROFILE},
    "insight_cores": {"source_id": OP_PROFILE},
    "insight_memory_cores": {"source_id": OP_PROFILE},
    "insight_block_kinds": {"source_id": OP_PROFILE},
    "insight_category_flows": {
        "source_id": Lookup("SELECT min(source_id) FROM flow"), "start_ns": 0, "end_ns": 2**62,
        "category": Lookup("SELECT coalesce(category, name) FROM flow "
                           "WHERE source_id = (SELECT min(source_id) FROM flow) ORDER BY id LIMIT 1")},
    "insight_counter_lanes": {
        "source_id": Lookup("SELECT min(source_id) FROM counter_track WHERE process_id IS NOT NULL")},
    "insight_counter_samples": {"track_id": Lookup("SELECT min(track_id) FROM _counter"), "start_ns": 0,
                                "end_ns": 2**62},
    "insight_flow_categories": {"source_id": Lookup("SELECT min(source_id) FROM flow")},
    "insight_memory_components": {"run_id": MEMORY_RUN, "rank_id": 3, "zero_ns": 0},
    "insight_memory_operators": {"run_id": MEMORY_RUN, "rank_id": 3, "zero_ns": 0},
    "insight_memory_records": {"run_id": MEMORY_RUN, "rank_id": 3, "zero_ns": 0},
    "insight_memory_slice": {"run_id": KERNEL_RUN, "rank_id": 0,
                             "slice_name": Lookup(f"SELECT s.name {RANK0_SLICE}"), "ts": Lookup(f"SELECT s.ts {RANK0_SLICE}")},
    "insight_memory_static_ops": {"run_id": MEMORY_RUN, "rank_id": 3},
    "insight_memory_table_cells": {"source_id": OP_PROFILE},
    "insight_memory_units": {"source_id": OP_PROFILE},
    "insight_expert_hotspot": {"run_id": MOE_RUN},
    "insight_expert_model": {"run_id": MOE_RUN},
    "insight_kernel_types": {"run_id": KERNEL_RUN, "rank_id": 0},
    # the compilations, linked operators and sends tests/scale/conftest.py plants on rank 0 (two compilations:
    # threshold 1 passes, the real server's 20 would not)
    "insight_operator_dispatch": {"run_id": KERNEL_RUN, "rank_id": 0, "threshold": 1},
    "insight_fwd_bwd_blocks": {"run_id": KERNEL_RUN, "rank_id": 0},
    "insight_p2p_ops": {"run_id": KERNEL_RUN, "rank_id": 0},
    "insight_layer_summary": {"run_id": KERNEL_RUN, "rank_id": 0, "layer": "ascend hardware"},
    "insight_layer_trace": {"run_id": KERNEL_RUN, "rank_id": 0, "layer": "ascend hardware"},
    "insight_kernel_pmu": {"kernel_id": Lookup("SELECT min(id) FROM kernel WHERE origin = 'rank_db'")},
    "insight_op_blocks": {"source_id": OP_PROFILE},
    "insight_operator_groups": {"run_id": KERNEL_RUN, "rank_id": 0, "group_by": "op_type"},
    "insight_operators": {"run_id": KERNEL_RUN, "rank_id": 0, "communication": False},
    "insight_op_run": {"source_id": OP_PROFILE},
    "insight_pipe_ratios": {"source_id": OP_PROFILE},
    "insight_process_threads": {"process_id": Lookup("SELECT min(process_id) FROM thread")},
    # the busiest thread's input, searched for the middle of its first slice's name
    "insight_search_slices": {
        "source_id": Lookup(f"SELECT source_id FROM thread WHERE id = ({BUSIEST_THREAD.sql})"),
        "text": Lookup(f"SELECT substr(n.value, 2, 4) FROM _slice AS s JOIN string AS n ON n.id = s.name_id "
                       f"WHERE s.thread_id = ({BUSIEST_THREAD.sql}) ORDER BY s.id LIMIT 1")},
    "insight_slice_at": {"thread_id": Lookup("SELECT min(thread_id) FROM _slice WHERE depth = 1"), "depth": 1,
                         "ts": Lookup("SELECT ts FROM _slice WHERE depth = 1 ORDER BY thread_id, ts LIMIT 1")},
    "insight_slice_detail": {"slice_id": FLOW_SLICE},
    "insight_slice_flows": {"slice_id": FLOW_SLICE},
    "insight_source": {"source_id": OP_PROFILE},
    "insight_source_span": {"source_id": Lookup("SELECT min(source_id) FROM thread")},
    # rank 0's factory rank db (its copies, its framework and CANN calls and tasks)
    "insight_memcpy_tasks": {"source_id": Lookup("SELECT min(source_id) FROM memcpy_task")},
    "insight_kernel_e2e_events": {"source_id": Lookup("SELECT min(source_id) FROM memcpy_task")},
    # the text export's trace (its Python, CANN and Ascend Hardware slices and their arrows)
    "insight_kernel_e2e_trace_events": {"source_id": Lookup("SELECT min(id) FROM source WHERE kind = 'trace_json'")},
    "insight_kernel_e2e_trace_flows": {"source_id": Lookup("SELECT min(id) FROM source WHERE kind = 'trace_json'")},
    "insight_source_start": {"source_id": Lookup("SELECT min(source_id) FROM thread")},
    "insight_string": {"string_id": Lookup("SELECT min(id) FROM string")},
    "insight_thread": {"thread_id": BUSIEST_THREAD},
    "insight_thread_events": {"thread_id": BUSIEST_THREAD},
    "insight_thread_named_slices": {
        "thread_id": BUSIEST_THREAD, "start_ns": 0, "end_ns": 2**62,
        "slice_name": Lookup(f"SELECT n.value FROM _slice AS s JOIN string AS n ON n.id = s.name_id "
                       f"WHERE s.thread_id = ({BUSIEST_THREAD.sql}) ORDER BY s.id LIMIT 1")},
    "insight_thread_names": {"thread_id": BUSIEST_THREAD, "start_ns": 0, "end_ns": 2**62},
    "insight_thread_slices": {"thread_id": BUSIEST_THREAD},
    "insight_unit_tree": {"source_id": Lookup("SELECT min(source_id) FROM thread")},
    "memory_curve": {"rank_id": 0},
    "op_core_load": {"source_id": OP_PROFILE},
    "op_hot_instructions": {"source_id": OP_PROFILE},
    "op_hot_lines": {"source_id": OP_PROFILE},
    "op_memory_units": {"source_id": OP_PROFILE},
    "op_roofline": {"source_id": OP_PROFILE},
    # in the names' own case: Spark's LIKE is case-sensitive
    "search_names": {"text": "MatMul"},
    "slice_children": {"slice_id": Lookup("SELECT parent_id FROM _slice WHERE parent_id IS NOT NULL "
                                          "GROUP BY parent_id ORDER BY count(*) DESC, parent_id LIMIT 1")},
    "slice_detail": {"slice_id": FLOW_SLICE},
    "slice_flows": {"slice_id": FLOW_SLICE},
    "timeline_slices": {"thread_id": BUSIEST_THREAD, "start": 0, "end": 2**62},
    # the diagnosis rules, their thresholds set so that the factory data trips them
    "rule_communication_collective_slow": {"skew": 0, "min_skew_ns": 0},
    "rule_dp_workload_imbalance": {"spread": 0},
    # no MoE layer in the factory cluster: its data-parallel rank's 1.25x matmuls stand in for expert kernels
    "rule_ep_load_imbalance_suspected": {"expert_categories": "compute.matmul"},
    "rule_host_bound_gaps": {"min_gap_ns": 0, "min_share": 0},
    "rule_memory_peak_near_capacity": {"capacity_bytes": 1, "threshold": 0},
    "rule_op_low_l2_hit": {"threshold": 100},
    "rule_reduced_work_or_dummy_rank": {"ratio": 2},
    "rule_slow_rank_suspected": {"threshold": 0},
}
NAMES = sorted(queries.registry())
#: relative and absolute tolerance of a float compared across engines
TOLERANCE = 1e-9


def params_for(conn: sqlite3.Connection, name: str) -> dict:
    """The test parameters of query ``name``, lookups read from ``conn``."""
    values = {}
    for key, value in PARAMS.get(name, {}).items():
        values[key] = conn.execute(value.sql).fetchone()[0] if isinstance(value, Lookup) else value
    return values


def test_every_required_parameter_has_a_test_value():
    missing = [f"{q.name}.{p.name}" for q in queries.registry().values() for p in q.params
               if p.required and p.name not in PARAMS.get(q.name, {})]
    assert missing == [], "add the query's parameters to PARAMS in tests/scale/test_scale_engines.py"


def test_params_name_only_existing_queries_and_parameters():
    registry = queries.registry()
    stale = [f"{name}.{key}" for name, values in PARAMS.items() for key in values
             if name not in registry or key not in {p.name for p in registry[name].params}]
    assert stale == []


@pytest.fixture(scope="module")
def sqlite_answers(factory_warehouse):
    """name -> (params, rows) of every query on SQLite, the reference answer."""
    conn = sqlite3.connect(f"file:{factory_warehouse}?mode=ro", uri=True)
    answers = {}
    for name in NAMES:
        values = params_for(conn, name)
        answers[name] = (values, queries.get(name).run(conn, values)[1])
    conn.close()
    return answers


@pytest.fixture(scope="module")
def duckdb_engine(exported):
    from warehouse.engines.duckdb import DuckDBEngine

    engine = DuckDBEngine(exported)
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def spark_engine(exported, spark_session):
    from warehouse.engines.spark import SparkEngine

    return SparkEngine(exported, spark=spark_session)


@pytest.mark.parametrize("name", NAMES)
def test_sqlite_answer_has_rows(sqlite_answers, name):
    # an empty answer would make the comparisons below vacuous: pick parameters in PARAMS
    assert sqlite_answers[name][1], f"{name} returns no rows on the factory warehouse with {sqlite_answers[name][0]}"


@pytest.mark.parametrize("name", NAMES)
def test_duckdb_answers_as_sqlite(duckdb_engine, sqlite_answers, name):
    assert_same_answer(duckdb_engine, name, *sqlite_answers[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_spark_answers_as_sqlite(spark_engine, sqlite_answers, name):
    assert_same_answer(spark_engine, name, *sqlite_answers[name])


def assert_same_answer(engine: Engine, name: str, values: dict, expected: list[tuple]) -> None:
    """The engine's rows equal SQLite's as multisets, and in the same order on the ORDER BY keys."""
    query = queries.get(name)
    columns, got = engine.run(query, values)
    assert_same_rows(query, columns, got, expected)


def assert_same_rows(query, columns: list[str], got: list[tuple], expected: list[tuple]) -> None:
    """:func:`assert_same_answer` on rows an engine gave."""
    name = query.name
    assert columns == [c.name for c in query.columns]
    assert len(got) == len(expected), f"{name}: {len(got)} rows, SQLite has {len(expected)}"
    for mine, theirs in zip(sorted(got, key=sort_key), sorted(expected, key=sort_key)):
        assert same_row(mine, theirs), f"{name}: {mine} != SQLite's {theirs}"
    keys = order_columns(query)
    if keys:
        project = [columns.index(k) for k in keys]
        for position, (mine, theirs) in enumerate(zip(got, expected)):
            assert same_row([mine[i] for i in project], [theirs[i] for i in project]), (
                f"{name}: row {position} out of order on {keys}")


def assert_answers_as_on_sqlite(engine: Engine, db_path, name: str) -> None:
    """Query ``name`` answers on ``engine`` as on the SQLite warehouse ``db_path``
    (:func:`assert_same_rows`), and row for row in SQLite's order when the query orders on
    expressions; parameters from :data:`PARAMS` looked up in ``db_path``. A required parameter with nothing to look it up from is refused alike."""
    query = queries.get(name)
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        values = params_for(conn, name)
        unbound = [p.name for p in query.params if p.required and values.get(p.name) is None]
        if unbound:
            with pytest.raises(queries.QueryError, match=f"parameter {unbound[0]} is required"):
                query.run(conn, values)
            with pytest.raises(queries.QueryError, match=f"parameter {unbound[0]} is required"):
                engine.run(query, values)
            return
        expected = query.run(conn, values)[1]
    finally:
        conn.close()
    columns, got = engine.run(query, values)
    assert_same_rows(query, columns, got, expected)
    # ordered on expressions (not only output columns): the order of whole rows is compared
    if sqlglot.parse_one(query.sql, read="sqlite").args.get("order") is not None and not order_columns(query):
        for position, (mine, theirs) in enumerate(zip(got, expected)):
            assert same_row(mine, theirs), f"{name}: row {position} is {mine}, SQLite's {theirs}"


def order_columns(query) -> list[str]:
    """The output columns the query's final ORDER BY sorts on (empty when it has none, or
    sorts on something else: then only the multiset is compared)."""
    order = sqlglot.parse_one(query.sql, read="sqlite").args.get("order")
    names = [c.name for c in query.columns]
    if order is None:
        return []
    keys = [o.this.name if isinstance(o.this, exp.Column) else None for o in order.expressions]
    return keys if all(k in names for k in keys) else []


def sort_key(row) -> tuple:
    return tuple(_sortable(v) for v in row)


def _sortable(value) -> tuple:
    value = _canonical(value)
    if value is None:
        return (0, 0.0, "")
    if isinstance(value, (int, float)):
        return (1, float(f"{value:.9g}"), "")
    return (2, 0.0, repr(value))


def _canonical(value):
    """Numbers as numbers whatever the engine's type (an untyped column exports numbers as
    text: warehouse/export.py), JSON text as its value, bytes as bytes."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if hasattr(value, "as_integer_ratio") and not isinstance(value, (int, float)):  # Decimal
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value) if value.strip() == value and value else None
        except ValueError:
            number = None
        if number is not None and math.isfinite(number):
            return number
        if value[:1] in "{[":
            try:
                return json.loads(value)
            except ValueError:
                return value
    return value


def same_row(mine, theirs) -> bool:
    return len(mine) == len(theirs) and all(same_value(a, b) for a, b in zip(mine, theirs))


def same_value(a, b) -> bool:
    a, b = _canonical(a), _canonical(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    return a == b
