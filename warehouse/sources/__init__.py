"""The input formats the warehouse reads: one module each, tried in this order."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from warehouse.sources import op_profile, trace_json

SOURCES: tuple[ModuleType, ...] = (op_profile, trace_json)


def detect_source(path: str | Path) -> ModuleType | None:
    """The source module that reads this file, or None when none does."""
    for module in SOURCES:
        if module.detect(path):
            return module
    return None
