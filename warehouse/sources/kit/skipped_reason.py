"""Why a file that no source reads holds nothing in the warehouse: the reason stored with its skipped
``source`` row, which ``warehouse info`` and the query ``unread_inputs`` list (nothing dropped in silence).

Some such files are read all the same, beside another input (a PROF folder's ``start_info`` gives its
timeline's clock); others are known and hold no data of their own. ``skipped_files.csv`` names them by
a pattern on the file name, one line each; any other file is one no source reads.
"""

from __future__ import annotations

import csv
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path

#: file-name pattern -> why such a file is not an input of its own (data: ``pattern,reason``)
REASONS_FILE = Path(__file__).parents[1] / "skipped_files.csv"


def skipped_reason(path: Path) -> str:
    """Why ``path``, which no source reads, holds nothing of its own: the first matching pattern's reason."""
    for pattern, reason in skipped_reasons().items():
        if fnmatchcase(path.name, pattern):
            return f"{path}: {reason}"
    return f"{path}: no source reads this kind of file"


@cache
def skipped_reasons() -> dict[str, str]:
    """File-name pattern -> reason, in the order of :data:`REASONS_FILE` (the first match wins)."""
    with REASONS_FILE.open(newline="", encoding="utf-8") as file:
        return {row["pattern"]: row["reason"] for row in csv.DictReader(file)}
