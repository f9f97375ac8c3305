"""One folder grammar (issue 33): the run a file's folders give and the rank they give read the
same names, so a folder that makes a run's rank folder also names its rank."""

import sqlite3

import pytest

from tests.factories.cluster_outputs import ProfFolderFactory
from warehouse.model.runs import run_root
from warehouse.sources import rank_db
from warehouse.model import folder_grammar as grammar
from warehouse.sources.kit.rank_layout import rank_from_layout


@pytest.mark.parametrize(("name", "rank_folder", "rank", "torch_npu"), [
    ("rank3_ascend_pt", True, 3, True),
    ("rank3_ascend_ms", True, 3, False),
    ("node1_12345_20250109081213_ascend_pt", True, None, True),
    ("test_rank_4", True, 4, False),
    ("rank3_x_ascend_pt", True, None, True),
    ("rank3", False, None, False),
    ("_ascend_pt", False, None, False),
    ("PROF_000001_x", False, None, False),
])
def test_folder_names(name, rank_folder, rank, torch_npu):
    assert grammar.is_rank_folder(name) is rank_folder
    assert grammar.rank_of_folder(name) == rank
    assert grammar.is_torch_npu_folder(name) is torch_npu


def test_sidecar_and_device_names():
    assert grammar.rank_of_profiler_info("profiler_info_12.json") == 12
    assert grammar.rank_of_profiler_info("profiler_info_x.json") is None
    assert grammar.device_of_folder("device_7") == 7 and grammar.device_of_folder("device_") is None
    assert grammar.is_device_info("info.json.7") and not grammar.is_device_info("info.json")
    assert grammar.is_prof_folder("PROF_000001_x") and not grammar.is_prof_folder("prof_000001")


def test_a_mindspore_rank_folder_names_its_rank_as_it_names_its_run(tmp_path):
    """``rank2_ascend_ms`` made the folder above it a run but named no rank (the rank reader knew
    ``_ascend_pt`` only): its files were rank -1."""
    kernels = tmp_path / "job" / "rank2_ascend_ms" / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv"
    assert run_root(kernels) == tmp_path / "job"
    assert rank_from_layout(kernels) == (2, "folder rank2_ascend_ms")


def test_the_rank_folder_above_a_prof_folder_names_the_rank_of_its_device_files(tmp_path):
    """torch_npu writes PROF_* inside its rank folder; a device's summary (device_N/summary/x.csv) is
    four folders below the rank folder: the run was that folder's, the rank none when RANK_ID was unset."""
    prof = ProfFolderFactory(root=tmp_path / "job" / "rank5_ascend_pt", rank_id=-1, host_rank_id=-1, device_ids=(1,))
    summary = prof.devices[1] / "summary" / "op_summary_0_1.csv"
    assert run_root(summary) == tmp_path / "job"
    found = rank_from_layout(summary)
    assert found == (5, "folder rank5_ascend_pt") and found.device_id == 1
    # a PROF folder's own info.json still answers first, and a plain folder above it says nothing
    prof = ProfFolderFactory(root=tmp_path / "plain", rank_id=-1, host_rank_id=-1, device_ids=(1,))
    assert rank_from_layout(prof.devices[1] / "summary" / "x.csv") is None
    deep = tmp_path / "rank6_ascend_pt" / "other" / "device_1" / "summary" / "x.csv"
    assert rank_from_layout(deep) is None  # no PROF folder: the rank folder is past the search depth


def test_a_cann_db_in_a_torch_npu_rank_folder_is_its_rank_dbs_half_elsewhere_a_rank_db(tmp_path):
    for folder in ("rank0_ascend_pt", "rank0_ascend_ms", "plain"):
        path = tmp_path / folder / "PROF_1" / "msprof_1.db"
        path.parent.mkdir(parents=True)
        with sqlite3.connect(path) as conn:
            conn.executescript("CREATE TABLE STRING_IDS (id INTEGER, value TEXT);"
                               "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER);")
        conn.close()
    assert [rank_db.detect(tmp_path / folder / "PROF_1" / "msprof_1.db")
            for folder in ("rank0_ascend_pt", "rank0_ascend_ms", "plain")] == [False, True, True]
