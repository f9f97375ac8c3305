"""Every integer a source reads from an input is bounded to 64 bits (issue 22 item 5).

An integer past SQLite's INTEGER (a step number, a rank key, a rank pair, a device number, a
rank_id) fails its input with one line naming the file and the field, leaves no rows, keeps what
the warehouse already held, and prints nothing: with SQLite's callback tracebacks on (Datasette
turns them on process-wide) a value that reached SQLite used to print a traceback and fail with
"string or blob too big" or an OverflowError.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.factories.analysis_db import AnalysisDbFactory
from tests.factories.cluster_outputs import ClusterAnalysisDbFactory, time_rows
from tests.factories.rank_db import RankDbFactory
from tests.factories.text_exports import (
    ClusterCommunicationFactory,
    ClusterCommunicationMatrixFactory,
    ClusterStepTraceTimeFactory,
    CommunicationEntryFactory,
    CommunicationJsonFactory,
    CommunicationMatrixFactory,
    MemoryRecordFactory,
    ProfilerInfoFactory,
    StepTraceTimeFactory,
    link,
)
from warehouse import db
from warehouse.ingest import ingest_file

#: past 2**63 - 1, and past -2**63
BIG = "99999999999999999999999"
OP = "hcom_allReduce__586_0_1@17522688603477080586"


def step_trace_csv(path: Path):
    return StepTraceTimeFactory(path=path / "step_trace_time.csv",
                         rows=[{**StepTraceTimeFactory.build(path=None).rows[0], "Step": BIG}])


def cluster_step_trace_csv(path: Path):
    rows = ClusterStepTraceTimeFactory.build(path=None).rows
    return ClusterStepTraceTimeFactory(path=path / "cluster_step_trace_time.csv",
                                       rows=[{**rows[0], "Step": BIG}, rows[1]])


def analysis_db_step(path: Path):
    return AnalysisDbFactory(path=path / "analysis.db", step_trace=[{**StepTraceTimeFactory.build(path=None).rows[0],
                                                              "Step": BIG}])


def analysis_db_step_key(path: Path):
    return AnalysisDbFactory(path=path / "analysis.db",
                      communication={f"step{BIG}": {"p2p": {}, "collective": {OP: CommunicationEntryFactory()}}})


def analysis_db_rank_pair(path: Path):
    return AnalysisDbFactory(path=path / "analysis.db", matrix={"step50": {"p2p": {}, "collective": {
        OP: {f"0-{BIG}": link("HCCS", 1.0, 1.0, 1.0)}}}})


def communication_json_step_key(path: Path):
    return CommunicationJsonFactory(path=path / "communication.json",
                             document={f"step{BIG}": {"p2p": {}, "collective": {OP: CommunicationEntryFactory()}}})


def communication_matrix(path: Path, pair: str):
    """communication_matrix.json with one operator and one rank pair."""
    document = {"step50": {"p2p": {}, "collective": {OP: {pair: link("HCCS", 1.0, 1.0, 1.0)}}}}
    return CommunicationMatrixFactory(path=path / "communication_matrix.json", document=document)


def communication_matrix_rank_pair(path: Path):
    return communication_matrix(path, f"0-{BIG}")


def communication_matrix_negative_rank(path: Path):
    return communication_matrix(path, f"-{BIG}-0")


def cluster_communication_rank_key(path: Path):
    return ClusterCommunicationFactory(path=path / "cluster_communication.json", document={"p2p": {"step2": {
        OP: {f"-{BIG}": CommunicationEntryFactory()}}}, "collective": {"step2": {}}})


def cluster_communication_matrix_step_key(path: Path):
    return ClusterCommunicationMatrixFactory(path=path / "cluster_communication_matrix.json", document={"p2p": {
        f"step{BIG}": {OP: {"0-8": link("RDMA", 1.0, 1.0, 1.0)}}}})


def cluster_analysis_db_step_key(path: Path):
    rows = time_rows()
    return ClusterAnalysisDbFactory(path=path / "cluster_analysis.db",
                             time=[(rows[0][0], f"step{BIG}", *rows[0][2:]), *rows[1:]])


def profiler_info(path: Path, rank_id: int):
    """profiler_info_3.json whose rank_id is ``rank_id``."""
    document = {**ProfilerInfoFactory.build(path=None).document, "rank_id": rank_id}
    return ProfilerInfoFactory(path=path / "profiler_info_3.json", document=document)


def profiler_info_rank(path: Path):
    return profiler_info(path, int(BIG))


def profiler_info_negative_rank(path: Path):
    return profiler_info(path, -int(BIG))


def memory_record_device(path: Path):
    rows = MemoryRecordFactory.build(path=None).rows
    return MemoryRecordFactory(path=path / "memory_record.csv",
                               rows=[rows[0], {**rows[1], "Device Type": f"NPU:{BIG}"}])


def rank_folder(path: Path):
    return StepTraceTimeFactory(path=path / f"rank{BIG}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv")


def rank_db_file_name(path: Path):
    return RankDbFactory(path=path / f"ascend_pytorch_profiler_{BIG}.db", rank_in_map=False)


def rank_db_rank_device_map(path: Path):
    written = RankDbFactory(path=path / "ascend_pytorch_profiler_0.db")
    with closing(sqlite3.connect(written.path)) as conn, conn:
        conn.execute("UPDATE RANK_DEVICE_MAP SET rankId = ?", (float(BIG),))
    return written


#: (writer of the bad input under a folder, returning its factory's result;
#:  the places the reason names besides the file)
CASES = (
    (step_trace_csv, ("line 2", "'Step'")),
    (cluster_step_trace_csv, ("line 2", "'Step'")),
    (analysis_db_step, ("StepTraceTime: row 1: step",)),
    (analysis_db_step_key, ("CommAnalyzerTime: row 1: step",)),
    # the rank pair is read from src_rank || '-' || dst_rank, which no single column holds
    (analysis_db_rank_pair, ("CommAnalyzerMatrix",)),
    (communication_json_step_key, (f"step{BIG}/collective/{OP}",)),
    (communication_matrix_rank_pair, (f"step50/collective/{OP}/0-{BIG}",)),
    (communication_matrix_negative_rank, (f"step50/collective/{OP}/-{BIG}-0",)),
    (cluster_communication_rank_key, (f"p2p/step2/{OP}/-{BIG}",)),
    (cluster_communication_matrix_step_key, (f"step{BIG}/p2p/{OP}",)),
    (cluster_analysis_db_step_key, ("ClusterCommAnalyzerTime: row 1: step",)),
    (profiler_info_rank, ("rank_id",)),
    (profiler_info_negative_rank, ("rank_id",)),
    (memory_record_device, ("line 3", "'Device Type'")),
    (rank_folder, (f"folder rank{BIG}_ascend_pt",)),
    (rank_db_file_name, ("file name",)),
    (rank_db_rank_device_map, ("RANK_DEVICE_MAP: rankId", "1e+23")),
)


@pytest.fixture
def callback_tracebacks():
    """SQLite's callback tracebacks on for the test, as Datasette leaves them (the default is off)."""
    sqlite3.enable_callback_tracebacks(True)
    yield
    sqlite3.enable_callback_tracebacks(False)


@pytest.mark.parametrize(("write", "places"), CASES, ids=[case[0].__name__ for case in CASES])
def test_an_integer_past_64_bits_fails_the_input_with_one_line(tmp_path, capfd, callback_tracebacks, write, places):
    conn = db.connect(tmp_path / "warehouse.db")
    good = tmp_path / "good" / "step_trace_time.csv"
    StepTraceTimeFactory(path=good)
    assert ingest_file(conn, good).status == "ok"
    held = conn.execute("SELECT count(*) FROM step_trace_time").fetchone()

    folder = tmp_path / "bad"
    path = write(folder).path
    result = ingest_file(conn, path)

    assert result.status == "failed", result
    reason = result.error
    assert reason.startswith(f"{path}: ") and "\n" not in reason, reason
    assert "out of range" in reason or "not a 64-bit integer" in reason, reason
    for place in places:
        assert place in reason, (place, reason)
    assert "internal error" not in reason and "too big" not in reason, reason
    assert capfd.readouterr().err == ""
    # nothing of the failed input, everything of the good one
    assert conn.execute("SELECT count(*) FROM step_trace_time").fetchone() == held
    assert conn.execute("SELECT status FROM source ORDER BY id").fetchall() == [("ok",), ("failed",)]
    conn.close()


def test_an_integer_of_thousands_of_digits_fails_as_invalid_json(tmp_path, capfd, callback_tracebacks):
    # past Python's int conversion limit (4300 digits) json itself refuses it, with a ValueError
    path = tmp_path / "communication.json"
    path.write_text('{"step50": {"p2p": {}, "collective": {"' + OP + '": {"Communication Time Info": '
                    '{"Start Timestamp(us)": ' + "9" * 5000 + "}}}}}", encoding="utf-8")
    conn = db.connect(tmp_path / "warehouse.db")
    result = ingest_file(conn, path)
    conn.close()
    assert (result.status, result.error) == ("failed", f"{path}: invalid JSON (an integer of over 4300 digits)")
    assert capfd.readouterr().err == ""
