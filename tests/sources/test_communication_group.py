"""communication_group.json into ``communication_group``."""

from __future__ import annotations

from tests.factories.text_exports import CommunicationGroupFactory
from warehouse.ingest import ingest_file


def test_every_group_of_every_section(warehouse_db, tmp_path):
    path = tmp_path / "communication_group.json"
    CommunicationGroupFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "communication_group_json", 4)
    assert warehouse_db.execute(
        "SELECT source_row, section, group_type, rank_set, group_name, group_id, pg_name FROM communication_group "
        "ORDER BY source_row").fetchall() == [
        (1, "collective", "collective", "[0, 1]", None, None, None),
        (2, "collective", "collective", "[0, 1, 2, 3]", None, None, None),
        (3, "p2p", "p2p", "[0, 1, 2, 3]", None, None, None),
        (4, "comm_group_parallel_info", "collective", "[0, 1]", "6960437680420871035",
         "10.174.216.241%enp189s0f1_55000_0_1738895506630464", "tp"),
    ]


def test_older_file_without_parallel_info(warehouse_db, tmp_path):
    path = tmp_path / "communication_group.json"
    CommunicationGroupFactory(path=path, document={"collective": [[0], [1]], "p2p": [[0, 1]]})
    assert ingest_file(warehouse_db, path).rows == 3
