"""factory-boy factories that write MindSpore's profiler intermediates byte for byte.

As MindSpore writes them (the real files of MindInsight's test resources):
``aicore_intermediate_{device}_type.csv`` with CRLF line ends, times in ms.
Each factory takes ``path`` and returns a :class:`~factories.text_exports.CsvFile`.
"""

from __future__ import annotations

import factory

from factories.text_exports import CsvExportFactory

AICORE_TYPE_HEADER = ("kernel_type", "total_time", "execution_frequency", "percent")


def plain_csv(header, rows, end: str) -> bytes:
    """The header and rows (dicts keyed by header name) joined by commas, each line ended by ``end``."""
    lines = [",".join(header), *(",".join(str(row[name]) for name in header) for row in rows)]
    return "".join(line + end for line in lines).encode("utf-8")


class AicoreTypeFactory(CsvExportFactory):
    """The AI Core time per operator type (the real file's first rows)."""

    header = AICORE_TYPE_HEADER
    rows = factory.LazyFunction(lambda: [
        {"kernel_type": "AtomicAddrClean", "total_time": "0.007283", "execution_frequency": "6", "percent": "0.49"},
        {"kernel_type": "MatMul", "total_time": "1.085", "execution_frequency": "9", "percent": "73.80"},
    ])
    data = factory.LazyAttribute(lambda o: plain_csv(o.header, o.rows, "\r\n"))
