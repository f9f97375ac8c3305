"""One rule for the rank a file's folders name, shared by every source."""

import json

from tests.factories.cluster_outputs import ProfFolderFactory, info_json
from warehouse.sources.kit.rank_layout import device_from_layout, rank_from_layout


def test_profiler_info_beats_the_folder_name_and_its_content_beats_its_name(tmp_path):
    rank_folder = tmp_path / "rank3_ascend_pt"
    output = rank_folder / "ASCEND_PROFILER_OUTPUT"
    output.mkdir(parents=True)
    assert rank_from_layout(output / "kernel_details.csv") == (3, "folder rank3_ascend_pt")
    (rank_folder / "profiler_info_7.json").write_text("{}")
    assert rank_from_layout(output / "kernel_details.csv") == (7, "profiler_info_7.json")
    (rank_folder / "profiler_info_7.json").write_text(json.dumps({"rank_id": 9}))
    assert rank_from_layout(output / "kernel_details.csv") == (9, "profiler_info_7.json")


def test_ambiguous_or_distant_folders_say_nothing(tmp_path):
    folder = tmp_path / "node_ascend_pt"
    folder.mkdir()
    (folder / "profiler_info_0.json").write_text("{}")
    (folder / "profiler_info_1.json").write_text("{}")
    assert rank_from_layout(folder / "trace_view.json") is None
    deep = tmp_path / "test_rank_4" / "a" / "b" / "c"
    assert rank_from_layout(deep / "x.csv") is None  # four folders up: past the search depth
    assert rank_from_layout(tmp_path / "test_rank_4" / "a" / "x.csv") == (4, "folder test_rank_4")


def test_prof_folder_device_and_rank_from_its_info_json(tmp_path):
    prof = ProfFolderFactory(root=tmp_path, rank_id=3, device_ids=(5,))
    # a device's own files: device_5, and the rank its info.json.5 sets
    found = rank_from_layout(prof.devices[5] / "summary" / "op_summary_0_1.csv")
    assert found == (3, "device_5/info.json.5") and found.device_id == 5
    assert (found.rank, found.said_by) == (3, "device_5/info.json.5")
    # the exports beside it: the PROF folder's one device
    for export in (prof.path / "mindstudio_profiler_output" / "op_summary_20250109081213.csv",
                   prof.path / "msprof_20250109081213.db"):
        found = rank_from_layout(export)
        assert found == (3, "device_5/info.json.5") and found.device_id == 5
        assert device_from_layout(export) == 5


def test_prof_folder_without_a_rank_still_names_the_device(tmp_path):
    prof = ProfFolderFactory(root=tmp_path / "single", rank_id=-1, device_ids=(2,))  # RANK_ID unset
    export = prof.path / "mindstudio_profiler_output" / "op_summary_1.csv"
    assert rank_from_layout(export) is None
    assert device_from_layout(export) == 2
    # the host's info.json answers when the device's does not set the rank
    prof = ProfFolderFactory(root=tmp_path / "host", rank_id=-1, host_rank_id=6, device_ids=(2,))
    found = rank_from_layout(prof.path / "msprof_1.db")
    assert found == (6, "host/info.json") and found.device_id == 2


def test_prof_folder_of_several_devices(tmp_path):
    prof = ProfFolderFactory(root=tmp_path, rank_id=-1, host_rank_id=-1, device_ids=(0, 1))
    (prof.devices[1] / "info.json.1").write_text(json.dumps(info_json(9, [1])))
    # each device folder says its own; the exports of both devices say nothing
    found = rank_from_layout(prof.devices[1] / "summary" / "x.csv")
    assert found == (9, "device_1/info.json.1") and found.device_id == 1
    assert rank_from_layout(prof.devices[0] / "summary" / "x.csv") is None
    assert device_from_layout(prof.devices[0] / "summary" / "x.csv") == 0
    assert rank_from_layout(prof.path / "mindstudio_profiler_output" / "x.csv") is None
    assert device_from_layout(prof.path / "mindstudio_profiler_output" / "x.csv") is None


def test_torch_npu_prof_folder_inside_a_rank_folder(tmp_path):
    """torch_npu writes PROF_* inside rank{N}_ascend_pt: an unset RANK_ID defers to the folder above."""
    rank_folder = tmp_path / "rank4_ascend_pt"
    prof = ProfFolderFactory(root=rank_folder, rank_id=-1, device_ids=(4,))
    found = rank_from_layout(prof.path / "mindstudio_profiler_output" / "op_summary.csv")
    assert found == (4, "folder rank4_ascend_pt") and found.device_id == 4
    # a damaged info.json says nothing (and raises nothing): the rank folder answers, the device stays
    (prof.devices[4] / "info.json.4").write_text("{not json")
    found = rank_from_layout(prof.devices[4] / "x.csv")
    assert found == (4, "folder rank4_ascend_pt") and found.device_id == 4
    alone = ProfFolderFactory(root=tmp_path / "alone", rank_id=1, host_rank_id=-1, device_ids=(0,))
    (alone.devices[0] / "info.json.0").write_text("[1, 2]")
    assert rank_from_layout(alone.devices[0] / "x.csv") is None
    # a folder merely named like a device outside a PROF folder is no device
    assert device_from_layout(tmp_path / "device_3" / "x.csv") is None
