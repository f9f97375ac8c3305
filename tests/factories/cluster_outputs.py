"""factory-boy factories for msprof-analyze's cluster outputs and msprof's PROF_* folders.

- :class:`GroupCommunicationFactory`: ``cluster_communication.json`` in the layout keyed by the
  communication group's ranks (``BaseAnalysis.dump_json`` of msprof-analyze: ``str(tuple)`` of the
  ranks, then the step, the ``<op>@<group>`` key and the rank key, whose entries are communication.json's).
- :class:`ClusterAnalysisDbFactory`: ``cluster_analysis.db`` with the tables declared byte for byte
  as msprof-analyze's ``DBManager.sql_generate_table`` declares them from ``TablesConfig``
  (``name TYPE`` joined by ',' without spaces, the ``index`` column quoted) and rows in the order
  its writers insert them (positional ``insert into T values (?, ...)``); the communication groups
  of a --data_simplification run as msprof-analyze 26.2.0's ``CommunicationGroupMapping`` is
  (pandas' ``to_sql``: each column quoted on its own line, the ranks joined '(0,1)'; checked
  against the file its ``cluster`` run writes from the real level-1 db capture).
- :class:`ProfFolderFactory`: a ``PROF_*`` folder with ``host/info.json`` and one
  ``device_{N}/info.json.{N}`` per device, the info.json keys msprof writes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import factory

from tests.factories.rank_db import write_db
from tests.factories.text_exports import CommunicationEntryFactory, JsonExportFactory, TransportStatsFactory

#: TablesConfig's columns of each table (cluster_analyse/common_func/tables_config.py).
COLUMNS = {
    "ClusterStepTraceTime": (
        ("step", "TEXT"), ("type", "TEXT"), ("index", "TEXT"), ("computing", "NUMERIC"),
        ("communication_not_overlapped", "NUMERIC"), ("overlapped", "NUMERIC"), ("communication", "NUMERIC"),
        ("free", "NUMERIC"), ("stage", "NUMERIC"), ("bubble", "NUMERIC"),
        ("communication_not_overlapped_and_exclude_receive", "NUMERIC"), ("preparing", "NUMERIC"),
        ("dp_index", "INTEGER"), ("pp_index", "INTEGER"), ("tp_index", "INTEGER"),
    ),
    "ClusterCommAnalyzerTime": (
        ("rank_set", "TEXT"), ("step", "TEXT"), ("rank_id", "INTEGER"), ("hccl_op_name", "TEXT"),
        ("group_name", "TEXT"), ("start_timestamp", "NUMERIC"), ("elapsed_time", "NUMERIC"),
        ("transit_time", "NUMERIC"), ("wait_time", "NUMERIC"), ("synchronization_time", "NUMERIC"),
        ("idle_time", "NUMERIC"), ("synchronization_time_ratio", "NUMERIC"), ("wait_time_ratio", "NUMERIC"),
    ),
    "ClusterCommAnalyzerBandwidth": (
        ("rank_set", "TEXT"), ("step", "TEXT"), ("rank_id", "INTEGER"), ("hccl_op_name", "TEXT"),
        ("group_name", "TEXT"), ("band_type", "TEXT"), ("transit_size", "NUMERIC"), ("transit_time", "NUMERIC"),
        ("bandwidth", "NUMERIC"), ("large_packet_ratio", "NUMERIC"), ("package_size", "NUMERIC"),
        ("count", "NUMERIC"), ("total_duration", "NUMERIC"),
    ),
    "ClusterCommAnalyzerMatrix": (
        ("rank_set", "TEXT"), ("step", "TEXT"), ("hccl_op_name", "TEXT"), ("group_name", "TEXT"),
        ("src_rank", "TEXT"), ("dst_rank", "TEXT"), ("transit_size", "NUMERIC"), ("transit_time", "NUMERIC"),
        ("bandwidth", "NUMERIC"), ("transport_type", "TEXT"), ("op_name", "TEXT"),
    ),
    "CommunicationGroup": (
        ("type", "TEXT"), ("rank_set", "TEXT"), ("group_name", "TEXT"), ("group_id", "TEXT"), ("pg_name", "TEXT"),
    ),
    "ClusterBaseInfo": (("key", "TEXT"), ("value", "TEXT")),
}
#: --data_simplification / recipe names: the same columns less rank_set
SIMPLIFIED = {
    "ClusterCommunicationTime": "ClusterCommAnalyzerTime",
    "ClusterCommunicationBandwidth": "ClusterCommAnalyzerBandwidth",
    "ClusterCommunicationMatrix": "ClusterCommAnalyzerMatrix",
    "CommunicationGroupMapping": "CommunicationGroup",
}
GROUP = "17522688603477080586"
OP = "hcom_allReduce__586_0_1"
#: pandas' DataFrame.to_sql column list of CommunicationGroupMapping (what follows 'CREATE TABLE "..." (')
MAPPING_DDL = '\n"type" TEXT,\n  "rank_set" TEXT,\n  "group_name" TEXT,\n  "group_id" TEXT,\n  "pg_name" TEXT\n'
#: the one group of the capture: a collective of ranks 0 and 1 that no parallel_group_info names
#: (type, ranks, HCCL group name, group id, pg_name; '' where msprof-analyze's merge found none)
GROUPS = [("collective", [0, 1], GROUP, "", "")]


def ddl(table: str) -> str:
    """The column list as DBManager.sql_generate_table writes it (pandas' for CommunicationGroupMapping)."""
    if table == "CommunicationGroupMapping":
        return MAPPING_DDL
    columns = COLUMNS[SIMPLIFIED.get(table, table)]
    if table in SIMPLIFIED:
        columns = tuple(column for column in columns if column[0] != "rank_set")
    return ",".join((f'"{name}" {kind}' if name == "index" else f"{name} {kind}") for name, kind in columns)


def group_document() -> dict:
    """Ranks 0 and 1 of one allReduce in step 2, plus the 'Total Op Info' the analysis adds per group."""
    rank1 = CommunicationEntryFactory(time_info={
        "Start Timestamp(us)": 1736408883732300.5, "Elapse Time(ms)": 1.5, "Transit Time(ms)": 0.5,
        "Wait Time(ms)": 1.0, "Synchronization Time(ms)": 0.25, "Idle Time(ms)": 0.0,
        "Wait Time Ratio": 0.6667, "Synchronization Time Ratio": 0.3333,
    }, bandwidth_info={"HCCS": TransportStatsFactory(transit_size=2.0, transit_time=0.5, bandwidth=4.0)})
    return {"(0, 1)": {"step2": {
        f"{OP}@{GROUP}": {"0": CommunicationEntryFactory(), "1": rank1},
        f"Total Op Info@{GROUP}": {"0": CommunicationEntryFactory(), "1": rank1},
    }}}


class GroupCommunicationFactory(JsonExportFactory):
    """cluster_communication.json: ``{"(0, 1)": {step: {"<op>@<group>": {rank: entry}}}}``."""

    document = factory.LazyFunction(group_document)


@dataclass
class ClusterAnalysisDb:
    """A written cluster_analysis.db: its path and each table's DDL and rows."""

    path: Path
    tables: dict[str, tuple[str, list[tuple]]] = field(default_factory=dict)


def step_trace_rows() -> list[tuple]:
    """Two ranks and their stage in step 1 (db mode: the index of a stage is '(0,1)', no spaces)."""
    return [
        ("1", "rank", 0, 8873.756, 101963.203, 4028.675, 105991.878, 25744.05, 136581.0, 0, 101963.203, 17902.5,
         None, None, None),
        ("1", "rank", 1, 9000.5, 100000, 4000, 104000, 25000.25, 136000.75, 0.5, 100000, 18000, None, None, None),
        ("1", "stage", "(0,1)", 9000.5, 101963.203, 4028.675, 105991.878, 25744.05, 136581.0, 0.5, 101963.203,
         18000, None, None, None),
    ]


def time_rows() -> list[tuple]:
    """DataTransferAdapter.transfer_comm_from_json_to_db's rows: rank_set, step, rank, op, group, times."""
    return [
        ("(0, 1)", "step2", 0, OP, GROUP, 1736408883732241.5, 79.08952021875, 0.23918478124999998,
         5.64663284375, 5.61569221875, 73.20370259375, 0.9591, 0.9594),
        ("(0, 1)", "step2", 1, OP, GROUP, 1736408883732300.5, 1.5, 0.5, 1.0, 0.25, 0.0, 0, 0),
        ("(0, 1)", "step2", 0, "Total Op Info", GROUP, 0, 79.08952021875, 0.23918478124999998, 5.64663284375,
         5.61569221875, 73.20370259375, 0.9591, 0.9594),
    ]


def bandwidth_rows() -> list[tuple]:
    """One row per rank, operator, transport and packet size (band_type is the transport)."""
    return [
        ("(0, 1)", "step2", 0, OP, GROUP, "HCCS", 28.647232, 1.81683634375, 15.7676, 0.0, 2.064384, 12,
         1.578891625),
        ("(0, 1)", "step2", 0, OP, GROUP, "HCCS", 28.647232, 1.81683634375, 15.7676, 0.0, 0.5, 3, 0.25),
        ("(0, 1)", "step2", 1, OP, GROUP, "HCCS", 2.0, 0.5, 4.0, 0.0, 2.0, 1, 0.5),
    ]


def matrix_rows() -> list[tuple]:
    """DataTransferAdapter.transfer_matrix_from_json_to_db's rows (global ranks; no op name is '')."""
    return [
        ("(0, 1)", "step2", "allreduce-top1", GROUP, "0", "1", 37.781504, 2.153383, 17.5452, "HCCS", OP),
        ("(0, 1)", "step2", "Total Op Info", GROUP, "1", "0", 37.781504, 2.153383, 17.5452, "HCCS", ""),
    ]


class ClusterAnalysisDbFactory(factory.Factory):
    """Writes a cluster_analysis.db at ``path`` and returns its :class:`ClusterAnalysisDb`.

    ``simplified`` names the communication tables as a --data_simplification run does (no rank_set);
    ``omit`` leaves tables out; ``groups`` are the communication groups (type, ranks, HCCL group
    name, group id, pg_name), their ranks written '(0, 1)' in CommunicationGroup (``str(tuple)``),
    '(0,1)' in CommunicationGroupMapping; ``distributed_args`` (Megatron's, less 'rank') writes
    ClusterBaseInfo as msprof-analyze 26 does when a rank's profiler_metadata.json holds them (its one
    row, the args as ``json.dumps`` writes them; checked against its cluster run), else there is none.
    """

    class Meta:
        model = ClusterAnalysisDb

    path = Path("cluster_analysis.db")
    step_trace = factory.LazyFunction(step_trace_rows)
    time = factory.LazyFunction(time_rows)
    bandwidth = factory.LazyFunction(bandwidth_rows)
    matrix = factory.LazyFunction(matrix_rows)
    groups = factory.LazyFunction(lambda: list(GROUPS))
    distributed_args = None
    simplified = False
    omit = ()

    @classmethod
    def _create(cls, model_class, path, step_trace, time, bandwidth, matrix, groups, distributed_args, simplified,
                omit):
        rows = {
            "ClusterStepTraceTime": step_trace,
            "ClusterCommAnalyzerTime": time,
            "ClusterCommAnalyzerBandwidth": bandwidth,
            "ClusterCommAnalyzerMatrix": matrix,
            "CommunicationGroup": [(kind, str(tuple(ranks)), *names) for kind, ranks, *names in groups],
        }
        if distributed_args is not None:
            rows["ClusterBaseInfo"] = [("distributed_args", json.dumps(distributed_args))]
        tables = {}
        for name, table_rows in rows.items():
            if name in omit:
                continue
            alias = next((simple for simple, full in SIMPLIFIED.items() if full == name), None)
            if simplified and alias == "CommunicationGroupMapping":
                tables[alias] = (ddl(alias), [(kind, "(" + ",".join(str(r) for r in ranks) + ")", *names)
                                              for kind, ranks, *names in groups])
            elif simplified and alias:
                tables[alias] = (ddl(alias), [row[1:] for row in table_rows])
            else:
                tables[name] = (ddl(name), table_rows)
        write_db(Path(path), tables)
        return model_class(Path(path), tables)


def info_json(rank_id: int, device_ids: list[int], hostname: str = "node-1") -> dict:
    """An info.json as msprof writes it (InfoJson::EncodeInfoMainJson), the fields the tests need."""
    return {
        "DeviceInfo": [{"id": device, "env_type": 3, "ai_core_num": 24, "hwts_frequency": "50"}
                       for device in device_ids],
        "netCard": [], "CPU": [], "version": "1.0", "jobInfo": "NA", "OS": "Linux", "hostname": hostname,
        "hwtype": "aarch64", "devices": ",".join(str(device) for device in device_ids), "platform_version": "7",
        "pid": "12345", "rank_id": rank_id, "drvVersion": 467732, "cannVersion": "8.0.RC3",
    }


@dataclass
class ProfFolder:
    """A written PROF_* folder."""

    path: Path
    devices: dict[int, Path]
    host: Path


class ProfFolderFactory(factory.Factory):
    """Writes ``root/PROF_...`` with ``host/info.json`` and ``device_{N}/info.json.{N}`` per device.

    ``rank_id`` is what the process' RANK_ID was (-1: unset); ``host_rank_id`` defaults to it.
    """

    class Meta:
        model = ProfFolder

    root = Path(".")
    name = "PROF_000001_20250109081213914_NMKBQJNCEPMIGLQB"
    rank_id = 3
    host_rank_id = factory.SelfAttribute("rank_id")
    device_ids = (5,)

    @classmethod
    def _create(cls, model_class, root, name, rank_id, host_rank_id, device_ids):
        prof = Path(root) / name
        host = prof / "host"
        host.mkdir(parents=True, exist_ok=True)
        (host / "info.json").write_text(json.dumps(info_json(host_rank_id, list(device_ids))), encoding="utf-8")
        devices = {}
        for device in device_ids:
            folder = prof / f"device_{device}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"info.json.{device}").write_text(json.dumps(info_json(rank_id, [device])), encoding="utf-8")
            devices[device] = folder
        (prof / "mindstudio_profiler_output").mkdir(exist_ok=True)
        return model_class(prof, devices, host)
