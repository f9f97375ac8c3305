"""A rank db's MEMCPY_INFO (profiler level 2): each memory copy task's bytes and direction into ``memcpy_task``,
bound to the task's slice; a db without the table (levels 0 and 1) describes no copy."""

from __future__ import annotations

import shutil

from tests.factories.rank_db import MEMCPY_OPERATIONS, MEMCPY_TASK, RankDbFactory
from warehouse import db
from warehouse.ingest import ingest_file

#: (start, end, stream, bytes, direction) from ts0; 7 is a direction ENUM_MEMCPY_OPERATION does not name
COPIES = ((20_000, 20_400, 5, 4096, "host to device"), (21_000, 21_100, 6, 1024, "device to host"),
          (22_000, 22_050, 5, 64, 7))


def test_memcpy_info_rows_become_memcpy_tasks_on_their_slices(tmp_path):
    rank = RankDbFactory(path=tmp_path / "ascend_pytorch_profiler_0.db", rank_id=0, memcpy=COPIES)
    assert rank.tables["ENUM_MEMCPY_OPERATION"][1] == sorted(MEMCPY_OPERATIONS.items())
    conn = db.connect(tmp_path / "warehouse.db")
    assert ingest_file(conn, rank.path).status == "ok"
    got = conn.execute("SELECT m.source_row, m.rank_id, m.global_task_id, m.size_bytes, m.operation_id, m.operation, "
                       "s.ts - ?, s.dur, s.name, t.tid FROM memcpy_task AS m JOIN slice AS s ON s.id = m.slice_id "
                       "JOIN thread AS t ON t.id = s.thread_id ORDER BY m.source_row", (rank.ts0,)).fetchall()
    named = {name: number for number, name in MEMCPY_OPERATIONS.items()}
    assert got == [(row, 0, MEMCPY_TASK + row - 1, size, named.get(direction, direction),
                    direction if direction in named else None, start, end - start, "MEMCPY_ASYNC", str(stream))
                   for row, (start, end, stream, size, direction) in enumerate(COPIES, 1)]
    conn.close()


def test_a_db_without_memcpy_info_describes_no_copy(tmp_path, realdata):
    folder = tmp_path / "rank0"
    shutil.copytree(realdata / "msinsight/pytorch/db/level1/rank0_ascend_pt", folder)
    conn = db.connect(tmp_path / "warehouse.db")
    assert ingest_file(conn, folder / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db").status == "ok"
    assert conn.execute("SELECT count(*) FROM memcpy_task").fetchone() == (0,)
    assert conn.execute("SELECT count(*) FROM slice WHERE name = 'MEMCPY_ASYNC'").fetchone() == (24,)
    conn.close()
