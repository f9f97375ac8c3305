"""The shared text-export helpers, and the real text exports: every file read, every row kept."""

from __future__ import annotations

import csv
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tests.factories.text_exports import ProfilerInfoFactory
from warehouse.ingest import ingest_paths
from warehouse.sources.kit.text import (
    csv_header,
    device_id,
    kib_to_bytes,
    load_json,
    mb_to_bytes,
    scalar,
    text,
    us_to_ns,
)
from warehouse.errors import IngestError
from warehouse.sources.kit.rank_layout import UNKNOWN_RANK, rank_or_unknown


@pytest.mark.parametrize(
    "cell,expected",
    (
        ("1736408883704643.212\t", "1736408883704643.212"),
        ('"32,3,224,224"', "32,3,224,224"),
        ("N/A", None),
        ("", None),
        ("  AI_CORE ", "AI_CORE"),
        (7, "7"),
    ),
)
def test_text(cell, expected):
    assert text(cell) == expected


def test_units_are_exact():
    # a float would give 1736408883704643328 for this timestamp
    assert us_to_ns("1736408883704643.212\t") == 1736408883704643212
    assert us_to_ns(Decimal("1736408883732241.5")) == 1736408883732241500
    assert us_to_ns("N/A") is None
    assert kib_to_bytes("0.5") == 512
    assert mb_to_bytes(Decimal("20.97152")) == 20971520
    with pytest.raises(ValueError, match="not a number: 'abc'"):
        us_to_ns("abc")
    with pytest.raises(ValueError, match="not a number: True"):
        us_to_ns(True)


@pytest.mark.parametrize("value,expected", (("NPU:0", 0), ("npu:12", 12), ("3", 3), ("host", None), (None, None)))
def test_device_id(value, expected):
    assert device_id(value) == expected


def test_scalar_keeps_integers_and_floats_apart():
    assert (scalar("0"), scalar("19.2124"), scalar("YES"), scalar("N/A")) == (0, 19.2124, "YES", None)
    assert (scalar("Infinity"), scalar("1e3")) == ("Infinity", 1000.0)


def test_rank_from_folder_or_profiler_info(tmp_path):
    assert rank_or_unknown(tmp_path / "rank12_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "x.csv").rank == 12
    assert rank_or_unknown(tmp_path / "test_rank_4" / "ASCEND_PROFILER_OUTPUT" / "x.csv").rank == 4
    folder = tmp_path / "node1_777_20250101_ascend_pt"
    ProfilerInfoFactory(path=folder / "profiler_info_9.json", document={"config": {}, "rank_id": 5})
    assert rank_or_unknown(folder / "ASCEND_PROFILER_OUTPUT" / "x.csv") == (5, "profiler_info_9.json")
    assert rank_or_unknown(tmp_path / "elsewhere" / "x.csv") == (UNKNOWN_RANK, "unset") == (-1, "unset")


def test_csv_header_refuses_binary_and_json(tmp_path):
    binary = tmp_path / "a.db"
    binary.write_bytes(b"SQLite format 3\0" + b"\1" * 100)
    assert csv_header(binary) is None
    array = tmp_path / "a.json"
    array.write_text('[{"a": 1, "b": 2}]')
    assert csv_header(array) is None


def test_bad_json_names_the_byte(tmp_path):
    path = tmp_path / "communication.json"
    path.write_text('{"step1": {"p2p": {,}}}')
    with pytest.raises(IngestError, match=r"communication\.json: byte 19: invalid JSON"):
        load_json(path)


# --- the real exports ----------------------------------------------------------------------


def csv_rows(path: Path) -> int:
    with path.open(encoding="utf-8-sig", newline="") as stream:
        return sum(1 for row in list(csv.reader(stream))[1:] if row)


def communication_rows(path: Path) -> int:
    document = json.loads(path.read_text())
    cluster = "cluster" in path.name
    count = 0
    for outer in document.values():
        for inner in outer.values():
            for entry in inner.values():
                for info in (entry.values() if cluster else [entry]):
                    count += 1 + len(info.get("Communication Bandwidth Info", {}))
    return count


def matrix_rows(path: Path) -> int:
    document = json.loads(path.read_text())
    return sum(len(links) for outer in document.values() for inner in outer.values() for links in inner.values())


def group_rows(path: Path) -> int:
    return sum(len(items) for items in json.loads(path.read_text()).values())


def metadata_rows(path: Path) -> int:
    return len(json.loads(path.read_text()))


#: (file name pattern, kind, tables its rows go to, how to count the file's rows independently)
KINDS = (
    (r"kernel_details\.csv", "kernel_details_csv", ("kernel",), csv_rows),
    (r"op_summary_\d+\.csv", "op_summary_csv", ("kernel",), csv_rows),
    (r"op_statistic\.csv", "op_statistic_csv", ("op_statistic",), csv_rows),
    (r"operator_details\.csv", "operator_details_csv", ("operator_details",), csv_rows),
    (r"step_trace_time\.csv", "step_trace_time_csv", ("step_trace_time",), csv_rows),
    (r"cluster_step_trace_time\.csv", "cluster_step_trace_time_csv", ("step_trace_time",), csv_rows),
    (r"memory_record\.csv", "memory_record_csv", ("memory_record",), csv_rows),
    (r"operator_memory\.csv", "operator_memory_csv", ("op_memory",), csv_rows),
    (r"api_statistic\.csv", "api_statistic_csv", ("api_statistic",), csv_rows),
    (r"npu_module_mem\.csv", "npu_module_mem_csv", ("npu_module_mem",), csv_rows),
    (r"l2_cache\.csv", "l2_cache_csv", ("kernel_l2_cache",), csv_rows),
    (r"static_op_mem\.csv", "static_op_mem_csv", ("static_op_memory",), csv_rows),
    (r"communication\.json", "communication_json", ("communication_time", "communication_bandwidth"),
     communication_rows),
    (r"cluster_communication\.json", "cluster_communication_json",
     ("communication_time", "communication_bandwidth"), communication_rows),
    (r"communication_matrix\.json", "communication_matrix_json", ("communication_matrix",), matrix_rows),
    (r"cluster_communication_matrix\.json", "cluster_communication_matrix_json", ("communication_matrix",),
     matrix_rows),
    (r"communication_group(_old)?\.json", "communication_group_json", ("communication_group",), group_rows),
    (r"profiler_info_\d+\.json", "profiler_info_json", ("run_metadata",), metadata_rows),
    (r"profiler_metadata\.json", "profiler_metadata_json", ("run_metadata",), metadata_rows),
)


@pytest.mark.parametrize(
    "folder,files",
    (("msinsight/pytorch/text/level0", 17), ("msinsight/pytorch/text/level1", 24), ("msinsight/server_test_data", 26)),
)
def test_real_exports_are_read_whole(warehouse_db, realdata, folder, files):
    ingest_paths(warehouse_db, [realdata / folder])
    checked = 0
    for path in sorted((realdata / folder).rglob("*")):
        kind = next(((k, tables, count) for pattern, k, tables, count in KINDS if re.fullmatch(pattern, path.name)),
                    None)
        if kind is None:
            continue
        expected_kind, tables, count = kind
        source_id, status, source_kind, error = warehouse_db.execute(
            "SELECT id, status, kind, error FROM source WHERE path = ?", (str(path),)).fetchone()
        assert (status, source_kind, error) == ("ok", expected_kind, None), path
        rows = sum(warehouse_db.execute(f"SELECT count(*) FROM {table} WHERE source_id = ?", (source_id,))
                   .fetchone()[0] for table in tables)
        assert rows == count(path), path
        checked += 1
    assert checked == files


def test_real_kernels_are_classified(warehouse_db, realdata):
    ingest_paths(warehouse_db, [realdata / "msinsight/pytorch/text/level1/rank0_ascend_pt"])
    by_class = dict(warehouse_db.execute("SELECT op_class, count(*) FROM kernel GROUP BY op_class").fetchall())
    # the two DSA_SQE kernels (DSAGenBitMask) are dsa: every real kernel has a class
    assert by_class == {"dsa": 2, "aic": 23, "aiv": 149, "communication": 4, "mix_cv": 13}
    # the first record, as the CSV writes it (line 2), keeps its exact timestamp
    assert warehouse_db.execute(
        "SELECT name, ts, dur, input_shapes, bound_stage FROM kernel WHERE source_row = 1").fetchone() == (
        "trans_TransData_0", 1736408883704643212, 53741, "32,3,224,224", "aiv_mte3")


TEXT_SOURCES = (
    "kernel_details", "op_summary", "op_statistic", "operator_details", "step_trace_time", "cluster_step_trace_time",
    "memory_record_csv", "operator_memory", "api_statistic", "npu_module_mem", "l2_cache", "static_op_mem",
    "communication_json", "communication_matrix", "cluster_communication", "cluster_communication_matrix",
    "communication_group", "profiler_info", "profiler_metadata",
)
STRANGERS = (
    ("empty", b""),
    ("binary", b"\x1f\x8b\x08\x00garbage" + bytes(range(256))),
    ("sqlite", b"SQLite format 3\0" + b"\0" * 200),
    ("latin1", "Name,Dur\u00e9e\r\n".encode("latin-1")),
    # trace JSON belongs to the trace source, even when its strings look like our headers or keys
    ("trace_array", b'[{"ph": "X", "name": "Op Name,Task Type,Task Duration(us)", "ts": "1", "dur": 1}]'),
    ("trace_object", b'{"traceEvents": [{"ph": "M", "name": "collective", "args": {"Transport Type": 1}}]}'),
    ("trace_steps", b'{"step1": {"traceEvents": [], "Communication Time Info": {}}}'),
)


@pytest.mark.parametrize("name,content", STRANGERS)
def test_no_text_source_claims_a_stranger(tmp_path, name, content):
    import importlib

    path = tmp_path / f"{name}.json"
    path.write_bytes(content)
    claimed = [module for module in TEXT_SOURCES
               if importlib.import_module(f"warehouse.sources.{module}").detect(path)]
    assert claimed == []


def test_gzip_and_non_utf8_csv(warehouse_db, tmp_path):
    import gzip

    from tests.factories.text_exports import OpStatisticFactory

    plain = tmp_path / "op_statistic.csv"
    written = OpStatisticFactory(path=plain)
    packed = tmp_path / "packed" / "op_statistic.csv.gz"
    packed.parent.mkdir()
    packed.write_bytes(gzip.compress(written.data))
    plain.unlink()
    assert ingest_paths(warehouse_db, [packed])[0].rows == 2
    broken = tmp_path / "broken" / "op_statistic.csv"
    broken.parent.mkdir()
    broken.write_bytes(written.data + "Cast,AI_CPU,1,2,2,2,2,1\r\nS\u00e9,AI_CPU,1,2,2,2,2,1\r\n".encode("latin-1"))
    (result,) = ingest_paths(warehouse_db, [broken])
    assert result.status == "failed"
    assert result.error.startswith(f"{broken}: line ") and "not UTF-8 text" in result.error


def test_real_kernel_times_are_exact(warehouse_db, realdata):
    """Every start and duration of a real kernel_details.csv, summed in ns, equals the file's
    decimal microseconds summed exactly (no float on the way)."""
    path = realdata / "msinsight/pytorch/text/level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
    ingest_paths(warehouse_db, [path])
    with path.open(encoding="utf-8-sig", newline="") as stream:
        records = list(csv.DictReader(stream))
    expected = [sum(Decimal(r[column].strip()) * 1000 for r in records) for column in ("Start Time(us)", "Duration(us)")]
    # summed in Python: the ns timestamps of 191 kernels overflow SQLite's 64-bit sum
    rows = warehouse_db.execute("SELECT ts, dur FROM kernel").fetchall()
    assert [sum(ts for ts, _ in rows), sum(dur for _, dur in rows)] == expected
    assert warehouse_db.execute("SELECT rank_id, count(*) FROM kernel GROUP BY rank_id").fetchall() == [(1, 191)]
