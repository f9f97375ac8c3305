"""Audits (audits/*.sql): each one passes on sound data and catches a hand-made violation."""

import pytest

from warehouse import audits
from warehouse.errors import WarehouseError
from warehouse.model.classify import load_rules

# A small sound warehouse: one ok source, a thread with a slice and its child, a flow
# between them, a counter sample, a kernel and a step, of rank 0 of one run.
SOUND = """
INSERT INTO run (run_id, name, root, created_at) VALUES (1, 'in', '/in', '2026-01-01T00:00:00+00:00');
INSERT INTO source (id, run_id, rank_id, path, kind, sha256, size_bytes, status, row_count, elapsed_ns, ingested_at)
VALUES (1, 1, 0, '/in/trace.json', 'trace_json', 'aa', 10, 'ok', 9, 5, '2026-01-01T00:00:00+00:00');
INSERT INTO process (id, source_id, rank_id, pid) VALUES (1, 1, 0, '100');
INSERT INTO thread (id, process_id, source_id, tid, max_dur) VALUES (1, 1, 1, '7', 100);
INSERT INTO string (id, value) VALUES (1, 'forward'), (2, 'matmul');
INSERT INTO _slice (id, thread_id, ts, dur, name_id, depth, parent_id, source_id)
VALUES (1, 1, 1000, 100, 1, 0, NULL, 1), (2, 1, 1010, 20, 2, 1, 1, 1);
INSERT INTO flow (id, source_id, slice_out, slice_in) VALUES (1, 1, 1, 2);
INSERT INTO counter_track (id, source_id, process_id, name) VALUES (1, 1, 1, 'HBM.Read');
INSERT INTO _counter (track_id, ts, value, source_id) VALUES (1, 1000, 2.5, 1);
INSERT INTO kernel (id, source_id, origin, rank_id, name, ts, dur, op_class)
VALUES (1, 1, 'kernel_details_csv', 0, 'MatMul_1', 2000, 5, 'aic');
INSERT INTO step (rank_id, step_id, start_ns, end_ns, source_id) VALUES (0, 1, 1000, 3000, 1);
"""

# a kernel_details.csv of rank 0 holding one HCCL operator of 10 us, and a communication.json of the rank
HCCL_KERNEL = """
INSERT INTO source (id, run_id, rank_id, path, kind, sha256, size_bytes, status, row_count, elapsed_ns, ingested_at)
VALUES (2, 1, 0, '/in/kernel_details.csv', 'kernel_details_csv', 'bb', 10, 'ok', 1, 5, 'now'),
       (3, 1, 0, '/in/communication.json', 'communication_json', 'cc', 10, 'ok', 1, 5, 'now');
INSERT INTO kernel (id, source_id, origin, rank_id, name, ts, dur, op_class)
VALUES (2, 2, 'kernel_details_csv', 0, 'hcom_allReduce__586_0_1', 2000, 10000, 'communication');
"""

EXPECTED_AUDITS = [
    "communication_agrees",
    "counter_track_exists",
    "done_marks_agree",
    "fact_source_ok",
    "flow_endpoints_exist",
    "foreign_keys_resolve",
    "hccl_operators_agree",
    "kernel_dur_non_negative",
    "kernel_op_class_allowed",
    "mindspore_aicore_ops_agree",
    "mindspore_aicore_types_agree",
    "mindspore_aicpu_agrees",
    "mindspore_flops_agree",
    "mindspore_flops_scope_agrees",
    "mindspore_framework_agrees",
    "mindspore_get_next_agrees",
    "mindspore_hwts_agrees",
    "mindspore_minddata_agrees",
    "mindspore_steps_agree",
    "mindspore_timeline_agrees",
    "mindspore_timeline_display_agrees",
    "msprof_steps_agree",
    "msprof_summaries_agree",
    "overlap_analysis_agrees",
    "slice_depth_follows_parent",
    "slice_dur_non_negative",
    "slice_parent_encloses",
    "source_final_state",
    "source_row_count_matches",
    "step_breakdown_agrees",
    "thread_max_dur_bounds_slices",
]


@pytest.fixture
def sound(warehouse_db):
    load_rules(warehouse_db)  # the classification's rules, as every ingest that classifies kernels loads them
    warehouse_db.executescript(SOUND)
    return warehouse_db


def by_name():
    return {audit.name: audit for audit in audits.load_audits()}


def test_every_audit_passes_on_sound_data(sound):
    results = audits.run_audits(sound)
    assert [r.audit.name for r in results] == EXPECTED_AUDITS
    assert [(r.audit.name, r.violations) for r in results if not r.passed] == []


def test_every_audit_says_what_it_checks():
    for audit in audits.load_audits():
        assert len(audit.description) > 30, audit.name
        assert "{table}" not in audit.sql


def test_helpers_are_given_as_ctes_to_the_audits_naming_them(sound):
    found = by_name()
    assert [h.name for h in found["source_row_count_matches"].helpers] == ["_rows_per_source"]
    assert found["slice_dur_non_negative"].helpers == ()
    # the helper's template runs over every table with a source_id column
    statement = found["fact_source_ok"].statement(sound)
    assert statement.startswith("WITH _rows_per_source AS (")
    assert all(f'FROM "{table}"' in statement for table in ("_slice", "kernel", "step", "run_metadata"))
    assert 'FROM "source"' not in statement


@pytest.mark.parametrize(
    "name,violation,expected",
    (
        ("slice_dur_non_negative",
         "INSERT INTO _slice (id, thread_id, ts, dur, source_id, source_row) VALUES (3, 1, 5000, -40, 1, 17)",
         {"id": 3, "dur": -40, "source_row": 17}),
        # rows of a failed input left behind
        ("fact_source_ok",
         "INSERT INTO source (id, path, sha256, size_bytes, status, error, elapsed_ns, ingested_at) "
         "VALUES (2, '/in/bad.json', 'bb', 1, 'failed', '/in/bad.json: byte 3: bad JSON', 1, 'now');"
         "INSERT INTO _slice (id, thread_id, ts, dur, source_id) VALUES (3, 1, 1020, 1, 2)",
         {"table_name": "_slice", "source_id": 2, "source_status": "failed", "row_count": 1}),
        # rows of a source that is gone
        ("fact_source_ok",
         "INSERT INTO _counter (track_id, ts, value, source_id) VALUES (1, 1, 1.0, 9);"
         "INSERT INTO _counter (track_id, ts, value, source_id) VALUES (1, 2, 1.0, 9)",
         {"table_name": "_counter", "source_id": 9, "source_status": None, "row_count": 2}),
        ("slice_parent_encloses",  # parent on another thread
         "INSERT INTO thread (id, process_id, source_id, tid, max_dur) VALUES (2, 1, 1, '8', 10);"
         "INSERT INTO _slice (id, thread_id, ts, dur, depth, parent_id, source_id) VALUES (3, 2, 1010, 10, 1, 1, 1)",
         {"id": 3, "thread_id": 2, "parent_thread_id": 1}),
        ("slice_parent_encloses",  # child ends after its parent
         "INSERT INTO _slice (id, thread_id, ts, dur, depth, parent_id, source_id) VALUES (3, 1, 1090, 20, 1, 1, 1)",
         {"id": 3, "parent_ts": 1000, "parent_dur": 100}),
        ("slice_parent_encloses",  # child starts before its parent
         "INSERT INTO _slice (id, thread_id, ts, dur, depth, parent_id, source_id) VALUES (3, 1, 999, 1, 1, 1, 1)",
         {"id": 3, "ts": 999}),
        ("slice_parent_encloses",  # parent missing
         "INSERT INTO _slice (id, thread_id, ts, dur, depth, parent_id, source_id) VALUES (3, 1, 1010, 1, 1, 77, 1)",
         {"id": 3, "parent_id": 77, "parent_thread_id": None}),
        ("slice_depth_follows_parent",
         "INSERT INTO _slice (id, thread_id, ts, dur, depth, parent_id, source_id) VALUES (3, 1, 1011, 1, 3, 2, 1)",
         {"id": 3, "depth": 3, "parent_depth": 1}),
        ("slice_depth_follows_parent",
         "INSERT INTO _slice (id, thread_id, ts, dur, depth, parent_id, source_id) VALUES (3, 1, 1500, 1, 1, NULL, 1)",
         {"id": 3, "depth": 1, "parent_id": None}),
        ("flow_endpoints_exist",
         "INSERT INTO flow (id, source_id, slice_out, slice_in, flow_key) VALUES (2, 1, 1, 404, 'k9')",
         {"id": 2, "slice_in": 404, "flow_key": "k9"}),
        ("flow_endpoints_exist",
         "INSERT INTO flow (id, source_id, slice_out, slice_in) VALUES (2, 1, 404, 1)",
         {"id": 2, "slice_out": 404}),
        ("thread_max_dur_bounds_slices",
         "UPDATE thread SET max_dur = 99 WHERE id = 1",
         {"thread_id": 1, "max_dur": 99, "longest_dur": 100}),
        ("source_final_state",  # an ingest that never finished
         "UPDATE source SET elapsed_ns = NULL WHERE id = 1",
         {"id": 1, "status": "ok", "elapsed_ns": None}),
        ("source_final_state",
         "INSERT INTO source (id, path, sha256, size_bytes, status, elapsed_ns, ingested_at) "
         "VALUES (2, '/in/x', 'cc', 1, 'failed', 3, 'now')",
         {"id": 2, "status": "failed", "error": None}),
        ("source_final_state",
         "INSERT INTO source (id, path, sha256, size_bytes, status, error, row_count, elapsed_ns, ingested_at) "
         "VALUES (2, '/in/x', 'cc', 1, 'skipped', '/in/x: no source reads it', 4, 3, 'now')",
         {"id": 2, "status": "skipped", "row_count": 4}),
        ("source_row_count_matches",  # a row the source did not count (or one left behind)
         "INSERT INTO run_metadata (source_id, name, value) VALUES (1, 'hostName', 'node-3')",
         {"id": 1, "row_count": 9, "rows_held": 10}),
        ("source_row_count_matches",  # a failed source that kept rows
         "INSERT INTO source (id, path, sha256, size_bytes, status, error, elapsed_ns, ingested_at) "
         "VALUES (2, '/in/bad.json', 'bb', 1, 'failed', '/in/bad.json: byte 3: bad JSON', 1, 'now');"
         "INSERT INTO step (rank_id, step_id, start_ns, end_ns, source_id) VALUES (0, 2, 3000, 4000, 2)",
         {"id": 2, "status": "failed", "row_count": 0, "rows_held": 1}),
        ("counter_track_exists",
         "INSERT INTO _counter (track_id, ts, value, source_id) VALUES (55, 7, 1.5, 1)",
         {"track_id": 55, "ts": 7, "value": 1.5}),
        ("kernel_dur_non_negative",
         "INSERT INTO kernel (id, source_id, source_row, origin, name, dur) VALUES (2, 1, 8, 'rank_db', 'Add', -3)",
         {"id": 2, "dur": -3, "source_row": 8}),
        ("kernel_op_class_allowed",
         "INSERT INTO kernel (id, source_id, origin, name, op_class) VALUES (2, 1, 'rank_db', 'Add', 'gpu')",
         {"id": 2, "op_class": "gpu"}),
        ("foreign_keys_resolve",
         "INSERT INTO thread (id, process_id, source_id, tid) VALUES (2, 31, 1, '9')",
         {"table_name": "thread", "row_id": 2, "parent_table": "process"}),
        # the rank's HCCL kernel lasts 10 us, its communication.json says 15
        ("hccl_operators_agree",
         HCCL_KERNEL + "INSERT INTO communication_time (source_id, source_row, rank_id, step_id, op_name, ts, elapse_ns) "
         "VALUES (3, 1, 0, 1, 'hcom_allReduce__586_0_1', 2000, 15000)",
         {"rank_id": 0, "name": "hcom_allReduce_", "profiler_input": "communication_json", "profiler_operators": 1,
          "warehouse_operators": 1, "profiler_ns": 15000, "warehouse_ns": 10000, "differs_pct": -33.33}),
        # the same time over one operator where the kernels hold two (a summary that lacks one the kernels
        # hold; kernels lacking one the summary lists are partial, and the summary answers: hccl_summary_rank)
        ("hccl_operators_agree",
         HCCL_KERNEL + "INSERT INTO kernel (id, source_id, origin, rank_id, name, ts, dur, op_class) "
         "VALUES (3, 2, 'kernel_details_csv', 0, 'hcom_allReduce__586_1_1', 20000, 5000, 'communication');"
         "INSERT INTO communication_time (source_id, source_row, rank_id, step_id, op_name, ts, elapse_ns) "
         "VALUES (3, 1, 0, 1, 'hcom_allReduce__586_0_1', 2000, 15000)",
         {"name": "hcom_allReduce_", "profiler_operators": 1, "warehouse_operators": 2, "differs_pct": 0.0}),
    ),
)
def test_audit_catches_a_violation(sound, name, violation, expected):
    sound.executescript(violation)
    result = audits.run_audit(sound, by_name()[name])
    assert result.violations == 1
    example = dict(zip(result.columns, result.examples[0]))
    assert {key: example[key] for key in expected} == expected


@pytest.mark.parametrize(
    "op_class,violations",
    (
        ("dsa", 0),  # a class of kernel_core_classes.csv
        ("mix_comm_aiv", 0),  # the class classify.sql gives a communication kernel with AIV time
        ("AIC", 1),  # the csv's core value, not its class
    ),
)
def test_kernel_classes_are_those_the_classification_gives(sound, op_class, violations):
    sound.execute("UPDATE kernel SET op_class = ?", (op_class,))
    assert audits.run_audit(sound, by_name()["kernel_op_class_allowed"]).violations == violations


def test_source_id_audit_covers_tables_added_later(sound):
    # the per-table template follows the schema: a table of a future migration is audited too
    sound.executescript("CREATE TABLE later_facts (x INTEGER, source_id INTEGER); INSERT INTO later_facts VALUES (1, 42)")
    result = audits.run_audit(sound, by_name()["fact_source_ok"])
    assert [dict(zip(result.columns, row)) for row in result.examples] == [
        {"table_name": "later_facts", "source_id": 42, "source_status": None, "row_count": 1}
    ]


def test_failed_audit_counts_all_violations_and_keeps_a_few_examples(sound):
    sound.executemany(
        "INSERT INTO _slice (thread_id, ts, dur, source_id) VALUES (1, ?, ?, 1)",
        [(5000 + i, -i) for i in range(1, 13)],
    )
    result = audits.run_audit(sound, by_name()["slice_dur_non_negative"])
    assert result.violations == 12
    assert [row[result.columns.index("dur")] for row in result.examples] == [-1, -2, -3, -4, -5]


def test_an_audit_without_a_header_is_refused(tmp_path):
    (tmp_path / "bare.sql").write_text("SELECT 1 WHERE 0\n")
    with pytest.raises(WarehouseError, match="bare.sql: an audit starts with a comment"):
        audits.load_audits(tmp_path)
