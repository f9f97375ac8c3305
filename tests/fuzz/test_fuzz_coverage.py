"""The fuzz suite starts from a valid file of every source kind the warehouse reads.

Each fuzz module's starting file must be detected as its kind and ingest cleanly; together
they must cover every module of ``warehouse.sources.SOURCES``, so a new source without a
fuzz test fails here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fuzz import (
    test_fuzz_analysis_db,
    test_fuzz_capture,
    test_fuzz_cluster_analysis_db,
    test_fuzz_minddata,
    test_fuzz_mindspore,
    test_fuzz_msprof_summaries,
    test_fuzz_msprof_timeline,
    test_fuzz_op_profile,
    test_fuzz_rank_db,
    test_fuzz_text_exports,
    test_fuzz_trace_json,
)
from fuzz.harness import ingest_hostile
from warehouse.sources import SOURCES


def _starting_files() -> list[tuple[str, bytes, str]]:
    """(name, bytes, folder) of every fuzz test's valid starting file."""
    files = [
        (test_fuzz_op_profile.NAME, test_fuzz_op_profile._original()[0], ""),
        (test_fuzz_rank_db.NAME, test_fuzz_rank_db._original(), ""),
        (test_fuzz_analysis_db.NAME, test_fuzz_analysis_db._original(), ""),
        (test_fuzz_cluster_analysis_db.NAME, test_fuzz_cluster_analysis_db._original(),
         test_fuzz_cluster_analysis_db.FOLDER),
        (test_fuzz_msprof_timeline.NAME, test_fuzz_msprof_timeline._original(), test_fuzz_msprof_timeline.FOLDER),
        (test_fuzz_trace_json.NAME, test_fuzz_trace_json.render([dict(e) for e in test_fuzz_trace_json._events()]), ""),
    ]
    for factory, name, folder in test_fuzz_text_exports.CSV_EXPORTS + test_fuzz_text_exports.JSON_EXPORTS:
        files.append((name, test_fuzz_text_exports._written(factory, name)[1], folder))
    files += [(name, test_fuzz_mindspore.written(factory, name), "")
              for factory, name in test_fuzz_mindspore.EXPORTS + test_fuzz_minddata.EXPORTS]
    files += [(name, test_fuzz_mindspore.written(factory, name), "") for factory, name, _ in test_fuzz_capture.EXPORTS]
    files += [(name, test_fuzz_msprof_summaries._original(name), test_fuzz_msprof_summaries.FOLDER)
              for name in test_fuzz_msprof_summaries.NAMES]
    return files


def test_the_fuzz_suite_starts_from_a_sound_file_of_every_source_kind():
    kinds = set()
    for name, data, folder in _starting_files():
        result = ingest_hostile(name, data, folder=folder)
        assert result.status == "ok" and result.rows > 0, (name, result.error)
        kinds.add(result.kind)
    assert kinds == {module.KIND for module in SOURCES}
