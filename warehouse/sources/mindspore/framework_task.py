"""Framework.host[.vm].task_desc_info.{device}.slice_{n}: which operator each device task runs.

MindSpore's host writes a line per task, ``{full op name} {block dim} {task id} {stream id}``
(:func:`~warehouse.sources.mindspore.framework.task_records` reads it, as the HWTS log's source does
for its kernels' names): each line is a row of ``mindspore_framework_task``. The device is the number
in the file name. A line that is not a name and three numbers fails the file naming the line.
"""

from __future__ import annotations

from warehouse.sources.mindspore.device import device_records_source
from warehouse.sources.mindspore.framework import host_file, task_records

KIND = "mindspore_framework_task_desc"
NAME = host_file("task_desc_info")

detect, ingest = device_records_source(NAME, "mindspore_framework_task",
                                       ["op_name", "block_dim", "task_id", "stream_id"], task_records)
