"""op_summary_*.csv: the device kernels of an msprof (CANN) export.

Rows go to ``kernel`` with origin ``op_summary_csv`` (see :mod:`warehouse.sources.kit.kernel_csv`);
its ``Task Type`` column (AI_CORE, MIX_AIV, HCCL, ...) goes to ``kernel.task_type``.
"""

from __future__ import annotations

from warehouse.sources.kit.kernel_csv import kernel_source

KIND = "op_summary_csv"
REQUIRED = frozenset({"Op Name", "Task Type", "Task Duration(us)"})
detect, ingest = kernel_source(KIND, REQUIRED)
