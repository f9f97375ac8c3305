"""The rank a file belongs to, as the profilers' output layout says it.

torch_npu writes each rank's outputs under ``rank{N}_ascend_pt/`` (MindStudio Insight's
samples use ``test_rank_N/``) with a ``profiler_info_{N}.json`` beside them. Every source
that cannot read the rank from the file itself asks here, so that all of a rank's files
agree on it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PROFILER_INFO = re.compile(r"^profiler_info_(\d+)\.json$")
RANK_FOLDERS = (re.compile(r"^rank(\d+)_ascend_pt$"), re.compile(r"^test_rank_(\d+)$"))
#: how many folders above the file are searched
SEARCH_DEPTH = 3


def rank_from_layout(path: str | Path) -> tuple[int, str] | None:
    """``(rank, what said it)`` from the folders above ``path``, the nearest first; None if none does.

    In each folder: the one ``profiler_info_{N}.json`` in it (its ``rank_id``, else the N of
    its name: the profiler's own word), else the folder's name (``rank{N}_ascend_pt``,
    ``test_rank_N``). A folder with profiler_info files of several ranks says nothing.
    """
    for folder in list(Path(path).absolute().parents)[:SEARCH_DEPTH]:
        found = _profiler_info(folder)
        if found is not None:
            return found
        for pattern in RANK_FOLDERS:
            if match := pattern.match(folder.name):
                return int(match[1]), f"folder {folder.name}"
    return None


def _profiler_info(folder: Path) -> tuple[int, str] | None:
    try:
        infos = sorted(p for p in folder.iterdir() if PROFILER_INFO.match(p.name))
    except OSError:
        return None
    if len({PROFILER_INFO.match(p.name)[1] for p in infos}) != 1:
        return None
    try:
        rank = json.loads(infos[0].read_text(encoding="utf-8")).get("rank_id")
    except (OSError, ValueError, AttributeError, RecursionError):
        rank = None
    if not isinstance(rank, int) or isinstance(rank, bool):
        rank = int(PROFILER_INFO.match(infos[0].name)[1])
    return rank, infos[0].name
