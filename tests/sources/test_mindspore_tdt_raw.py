"""DATA_PREPROCESS.dev.TDT.{device}.slice_{n} (the batches the host's data transfer enqueued for the device)
into ``mindspore_tdt_enqueue``."""

from __future__ import annotations

import pytest

from tests.factories.mindspore import TDT_CHANNEL, TdtRawFactory
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file

NAME = "DATA_PREPROCESS.dev.TDT.2.slice_0"
ROWS = ("SELECT source_row, rank_id, byte_offset, stamp, channel, batch_index, size FROM mindspore_tdt_enqueue "
        "ORDER BY source_row")


def test_each_enqueued_batch(warehouse_db, tmp_path):
    written = TdtRawFactory(path=tmp_path / NAME)
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_tdt_raw", 3)
    # each record 92 bytes and its NUL
    assert warehouse_db.execute(ROWS).fetchall() == [
        (1, 2, 0, 393233413, TDT_CHANNEL, 1, 0), (2, 2, 93, 393234033, TDT_CHANNEL, 2, 0),
        (3, 2, 186, 464842601, TDT_CHANNEL, 484, 128)]
    assert warehouse_db.execute("SELECT rank_id, device_id FROM source").fetchone() == (2, 2)


@pytest.mark.parametrize(("change", "reason"), [
    (lambda data: data[:-1], "byte 186: a record cut short"),
    (lambda data: data.replace(b"index:2,", b"index:two,"), "byte 93: expected '[<stamp>] Enqueue data to dp"),
    (lambda data: data.replace(b"[393234033]", b"[9999999999999999999]"), "byte 93: number out of range"),
])
def test_a_hostile_file_fails_naming_the_byte_offset(warehouse_db, tmp_path, change, reason):
    written = TdtRawFactory(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "mindspore_tdt_enqueue")


def test_the_real_file(warehouse_db, realdata):
    """JOB3's TDT file: figures from the file read here independently, every record ended by a NUL."""
    path = realdata / "mindinsight" / "JOB3" / "DATA_PREPROCESS.dev.TDT.1.slice_0"
    records = [record for record in path.read_bytes().split(b"\x00") if record]
    sizes = [int(record.rsplit(b"size:", 1)[1]) for record in records]
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.rows) == ("ok", len(records))
    assert (len(records), max(sizes), sizes.count(128)) == (966, 128, 653)
    # one channel, its batches numbered 1 to 966 in file order
    assert warehouse_db.execute(
        "SELECT count(DISTINCT channel), min(batch_index), max(batch_index), sum(size), min(rank_id) "
        "FROM mindspore_tdt_enqueue").fetchone() == (1, 1, 966, sum(sizes), 1)
    assert warehouse_db.execute(
        "SELECT count(*) FROM mindspore_tdt_enqueue WHERE batch_index != source_row").fetchone() == (0,)
