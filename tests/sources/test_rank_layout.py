"""One rule for the rank a file's folders name, shared by every source."""

import json

from warehouse.sources.rank_layout import rank_from_layout


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
