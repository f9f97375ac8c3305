"""DATA_PREPROCESS.dev.AICPUMI.{device}.slice_{n} (the AI CPU's raw GetNext records) into
``mindspore_get_next``, reconciled with minddata_aicpu_{device}.txt by the audit mindspore_get_next_agrees."""

from __future__ import annotations

import pytest

from tests.factories.minddata import GET_NEXT, GetNextFactory, GetNextRawFactory, get_next_records
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file, ingest_paths

NAME = "DATA_PREPROCESS.dev.AICPUMI.1.slice_0"
ROWS = "SELECT source_row, rank_id, name, start_ns, end_ns, queue_size FROM mindspore_get_next ORDER BY source_row"


@pytest.mark.parametrize("queue_first", (True, False), ids=("queue-record", "run-record"))
def test_each_get_next_with_its_wait_and_queue(warehouse_db, tmp_path, queue_first):
    written = GetNextRawFactory(path=tmp_path / NAME, queue_first=queue_first)
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_get_next_raw", 3)
    # us to ns; numbered among the GetNext records
    assert warehouse_db.execute(ROWS).fetchall() == [
        (1, 1, "GetNext_dequeue_wait", 154907895305000, 154907895306000, 3),
        (2, 1, "GetNext_dequeue_wait", 154907895614000, 154907895614000, 2),
        (3, 1, "GetNext_dequeue_wait", 154907896920000, 154907896921000, 1)]


def test_other_nodes_are_counted_not_kept(warehouse_db, tmp_path):
    path = tmp_path / NAME
    path.write_bytes(get_next_records([("InitData", 1, 2, 0), *GET_NEXT[:1]]))
    result = ingest_file(warehouse_db, path)
    assert result.rows == 1
    assert '"get_next": 1, "other_nodes": 1' in warehouse_db.execute("SELECT detail FROM source").fetchone()[0]


def test_the_raw_file_answers_and_the_text_file_agrees_with_it(warehouse_db, tmp_path):
    GetNextRawFactory(path=tmp_path / "JOB" / NAME)
    GetNextFactory(path=tmp_path / "JOB" / "minddata_aicpu_1.txt")
    assert {r.status for r in ingest_paths(warehouse_db, [tmp_path / "JOB"])} == {"ok"}
    assert audit_examples(warehouse_db, "mindspore_get_next_agrees") == []
    GetNextFactory(path=tmp_path / "JOB" / "minddata_aicpu_1.txt",
                   rows=[list(GET_NEXT[0]), ["GetNext_dequeue_wait", 154907895614, 154907895614, 7]])
    ingest_paths(warehouse_db, [tmp_path / "JOB"])
    assert [row[2:4] for row in audit_examples(warehouse_db, "mindspore_get_next_agrees")] == [(2, "queue_size")]


@pytest.mark.parametrize(("change", "reason"), [
    (lambda data: data[:-1], "byte 172: a record cut short"),
    (lambda data: data.replace(b"queue size:2", b"queue size:x"), "byte 86: not a 'queue size'"),
    (lambda data: data.replace(b", Run end:154907895614", b""), "byte 86: expected 'Node:<name>"),
])
def test_a_hostile_file_fails_naming_the_byte_offset(warehouse_db, tmp_path, change, reason):
    written = GetNextRawFactory(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "mindspore_get_next")


def test_the_real_file_is_empty(warehouse_db, realdata):
    """JOB3's AICPUMI file is empty (0 bytes, as in MindInsight's resources): a source of no GetNext, from which
    MindSpore's parser writes no minddata_aicpu file either."""
    path = realdata / "mindinsight" / "JOB3" / "data" / NAME
    assert path.stat().st_size == 0
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_get_next_raw", 0)
    assert warehouse_db.execute("SELECT rank_id, device_id FROM source").fetchone() == (1, 1)
