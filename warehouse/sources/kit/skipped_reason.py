"""Why a file that no source reads holds nothing in the warehouse: the reason stored with its skipped
``source`` row, which ``warehouse info`` and the query ``unread_inputs`` list (nothing dropped in silence).

A file of a known kind that no source reads (one read only beside another input, or known to hold no
data of its own) gets its reason from ``skipped_files.csv``, by a pattern on the file name, one line
each; any other file is one no source reads. The profilers' files the warehouse knows are all sources
of their own today (a PROF folder's ``start_info``, read beside its timeline for the clock, and its
``.done`` marks included: :mod:`warehouse.sources.capture`), so the table lists none.
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
