"""``cluster_analysis.db``: msprof-analyze's cluster analysis written as a database.

``msprof-analyze cluster`` writes ``cluster_analysis_output/cluster_analysis.db`` when its inputs
are db exports (``analysis.db`` / ``ascend_pytorch_profiler_{N}.db``, msprof's ``msprof_*.db``).
Its tables hold what the text cluster files hold and go to the same warehouse tables with the
same conversions as :mod:`warehouse.sources.analysis_db`'s (the SQL functions of
:mod:`warehouse.sources.kit.sqlite_input`):

| input table | text twin | warehouse table |
| --- | --- | --- |
| ClusterStepTraceTime | cluster_step_trace_time.csv | ``step_trace_time`` (scope rank / stage) |
| ClusterCommAnalyzerTime | cluster_communication.json, "Communication Time Info" | ``communication_time`` |
| ClusterCommAnalyzerBandwidth | cluster_communication.json, its "Bandwidth Info" | ``communication_bandwidth`` |
| ClusterCommAnalyzerMatrix | cluster_communication_matrix.json | ``communication_matrix`` (rank_id -1) |
| CommunicationGroup | communication_group.json | ``communication_group`` (section: the table's name) |
| ClusterBaseInfo | a rank's profiler_metadata.json | ``run_metadata`` (rank_id NULL: distributed_args) |

The columns are msprof-analyze's ``TablesConfig`` (``cluster_analyse/common_func/tables_config.py``):
``rank_set`` (the group's ranks, '(0, 1)'; older releases lack it), ``step``, ``rank_id``,
``hccl_op_name``, ``group_name``, then ``elapsed_time`` (sic) and the other times, or ``band_type``
(the transport type) and the packet rows. Run with ``--data_simplification`` (as MindStudio Insight
runs it) or through the ``communication_time_sum`` / ``communication_matrix_sum`` recipes, the same
tables are named ClusterCommunicationTime / ClusterCommunicationBandwidth /
ClusterCommunicationMatrix / CommunicationGroupMapping (msprof-analyze 26's default run writes the
last name too): read the same way (a file with both names is read under the first).

The groups (``type``, ``rank_set`` '(0, 1)' or '(0,1)', ``group_name`` the HCCL group's name,
``group_id`` and ``pg_name`` from the ranks' parallel_group_info, '' when the group is in none) are
the cluster's shape as msprof-analyze saw it: the shape views read the ones with a pg_name after
profiler_metadata.json's and communication_group.json's (``rank_group``). ClusterBaseInfo holds
the distributed_args msprof-analyze found in a rank's profiler_metadata.json (less its 'rank'),
which the shape views read as a rank's (``parallel_size``). The step trace's ``dp_index`` /
``pp_index`` / ``tp_index`` are not read: msprof-analyze derives them from those distributed_args
in Megatron's rank order, as ``rank_place`` does from the args themselves, and without them pads
them with 0, the same as a real index 0 (as on the real level-1 db capture).

What the writer does that the reader cannot undo: the tables do not say p2p or collective
(``comm_type`` stays NULL); a transport type whose "Size Distribution" was empty has no row at
all; per-operator wait and synchronization ratios are 0 when the analysis read db inputs (the
rank's analysis.db has none), the 'Total Op Info' rows' are computed. ``source_row`` is the input
table's rowid. A table the file lacks adds no rows, a column it lacks reads as NULL;
``source.detail`` lists the tables read, missing and ignored and the missing columns; each table
not read (HostInfo, RankDeviceMap, ...) is also a row of ``source_unread``, with the reason.

The file is about the whole cluster: ``source.rank_id`` stays NULL, each row has its own rank.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.sqlite_input import Failure, attached, copy_table, detect_input, input_tables, record_unread

KIND = "cluster_analysis_db"

SQL_DIR = Path(__file__).parent
#: the name msprof-analyze gives the file (claimed even when unreadable, so that it fails rather than is skipped)
FILE_NAME = "cluster_analysis.db"

#: The input tables, the statement file that copies each, and the columns it expects.
INPUT_TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ClusterStepTraceTime": ("step_trace_time.sql", (
        "step", "type", "index", "computing", "communication_not_overlapped", "overlapped", "communication", "free",
        "stage", "bubble", "communication_not_overlapped_and_exclude_receive", "preparing",
    )),
    "ClusterCommAnalyzerTime": ("communication_time.sql", (
        "step", "rank_id", "hccl_op_name", "group_name", "start_timestamp", "elapsed_time", "transit_time",
        "wait_time", "synchronization_time", "idle_time", "synchronization_time_ratio", "wait_time_ratio",
    )),
    "ClusterCommAnalyzerBandwidth": ("communication_bandwidth.sql", (
        "step", "rank_id", "hccl_op_name", "group_name", "band_type", "transit_size", "transit_time", "bandwidth",
        "large_packet_ratio", "package_size", "count", "total_duration",
    )),
    "ClusterCommAnalyzerMatrix": ("communication_matrix.sql", (
        "step", "hccl_op_name", "group_name", "src_rank", "dst_rank", "transit_size", "transit_time", "bandwidth",
        "transport_type", "op_name",
    )),
    "CommunicationGroup": ("communication_group.sql", ("type", "rank_set", "group_name", "group_id", "pg_name")),
    "ClusterBaseInfo": ("cluster_base_info.sql", ("key", "value")),
}
#: The same tables under the names of a --data_simplification run and of the recipes.
ALIASES = {
    "ClusterCommunicationTime": "ClusterCommAnalyzerTime",
    "ClusterCommunicationBandwidth": "ClusterCommAnalyzerBandwidth",
    "ClusterCommunicationMatrix": "ClusterCommAnalyzerMatrix",
    "CommunicationGroupMapping": "CommunicationGroup",
}
KNOWN = INPUT_TABLES.keys() | ALIASES.keys()
#: the tables that make an SQLite file a cluster analysis db (its groups or base info alone do not:
#: another tool's file may hold a table of that name)
CLUSTER_TABLES = KNOWN - {"CommunicationGroup", "CommunicationGroupMapping", "ClusterBaseInfo"}


def detect(path) -> bool:
    """A file named ``cluster_analysis.db``, or an SQLite file with ClusterStepTraceTime or a cluster
    communication table."""
    return detect_input(path, FILE_NAME, CLUSTER_TABLES)


def ingest(conn: sqlite3.Connection, path, source_id: int) -> Outcome:
    """Copy one cluster_analysis.db into the warehouse (inside the caller's transaction).

    :raises IngestError: if the file is empty, not SQLite, damaged, has none of the tables,
        or holds a value that does not convert (naming the file and table).
    """
    path = Path(path)
    tables = _identify(path)
    sources = _read_from(tables)
    with attached(conn, path, (*INPUT_TABLES, *ALIASES)) as failures:
        return _copy(conn, path, source_id, tables, sources, failures)


def _read_from(tables: frozenset[str]) -> dict[str, str]:
    """Each input table -> the file's table that holds it (its own name first, then an alias)."""
    found = {}
    for name in (*INPUT_TABLES, *ALIASES):
        table = ALIASES.get(name, name)
        if name in tables and table not in found:
            found[table] = name
    return found


def _copy(conn: sqlite3.Connection, path: Path, source_id: int, tables: frozenset[str], sources: dict[str, str],
          failures: list[Failure]) -> Outcome:
    rows = 0
    columns_missing = {}
    for table, (file, wanted) in INPUT_TABLES.items():
        name = sources.get(table)
        if name is None:
            continue
        added, missing = copy_table(conn, path, name, wanted, SQL_DIR / file, {"source_id": source_id, "table": name},
                                    failures, view=table)
        rows += added
        if missing:
            columns_missing[name] = missing
    detail = {
        "tables_read": sorted(sources.values()),
        "tables_missing": sorted(INPUT_TABLES.keys() - sources.keys()),
        "tables_ignored": record_unread(conn, source_id, sources.values()),
    }
    if columns_missing:
        detail["columns_missing"] = columns_missing
    return Outcome(rows, detail=detail)


def _identify(path: Path) -> frozenset[str]:
    """The file's tables, read on a connection of its own.

    :raises IngestError: if the file is empty, not SQLite, unreadable or has none of the input tables.
    """
    tables = input_tables(path, "a cluster analysis db")
    if not tables & CLUSTER_TABLES:
        raise IngestError(
            f"{path}: sqlite_master: not a cluster analysis db (needs ClusterStepTraceTime or "
            f"ClusterCommAnalyzerTime, ClusterCommAnalyzerBandwidth, ClusterCommAnalyzerMatrix; "
            f"has {', '.join(sorted(tables)) or 'no tables'})"
        )
    return tables
