"""A warehouse a module builds once (ingested, analysed: seconds) and each test takes a copy of.

Tests stay independent (a test may write its copy) without paying the build per test: a copy
of a few MiB costs milliseconds. The copy takes the write-ahead log too when the builder left one
(a closed connection checkpoints it into the file; a reader still open may keep it).
"""

from __future__ import annotations

import shutil
from pathlib import Path

#: the files beside a SQLite database that hold part of it
SIDE_FILES = ("-wal",)


def copy_of(built: Path, to: Path) -> Path:
    """The warehouse file ``built`` (no writer open on it) copied to ``to``, its log beside it; returns ``to``."""
    to.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(built, to)
    for suffix in SIDE_FILES:
        side = built.with_name(built.name + suffix)
        if side.exists():
            shutil.copyfile(side, to.with_name(to.name + suffix))
    return to
