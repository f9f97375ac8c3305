"""task_time_*.csv: every device task of an msprof (CANN) export, one per record.

msprof writes it beside op_summary_*.csv (``PROF_*/mindstudio_profiler_output/``, older releases
``PROF_*/device_{N}/summary/``): ``Device_id`` (newer releases), ``kernel_name``, ``kernel_type``
(the task type: AI_CORE, MIX_AIV, EVENT_RECORD, ...), ``stream_id``, ``task_id``, ``task_time(us)``,
``task_start(us)`` and ``task_stop(us)`` (epoch us, a TAB after each). Rows go to ``kernel`` with
origin ``task_time_csv`` (:mod:`warehouse.sources.kit.kernel_csv`), classified by their task type;
the task's end is its start plus its time and is not stored again.
"""

from __future__ import annotations

from warehouse.sources.kit.kernel_csv import kernel_source

KIND = "task_time_csv"
REQUIRED = frozenset({"kernel_name", "kernel_type", "task_time(us)", "task_start(us)"})
detect, ingest = kernel_source(KIND, REQUIRED)
