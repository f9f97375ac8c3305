"""MindSpore's profiler files (issue 37, seed 003): the intermediates its parsers write per device.

Each module is one source, read byte for byte as MindSpore writes the file:
:mod:`~warehouse.sources.mindspore.step_trace_raw` (``step_trace_raw_{device}_detail_time.csv``),
:mod:`~warehouse.sources.mindspore.aicore_type` and :mod:`~warehouse.sources.mindspore.aicore_detail`
(``aicore_intermediate_{device}_type.csv`` / ``_detail.csv``); and the raw files its parsers read
(seed 003): :mod:`~warehouse.sources.mindspore.aicpu_raw` (``DATA_PREPROCESS.dev.AICPU.*``),
:mod:`~warehouse.sources.mindspore.hwts_raw` (``hwts.log.data.45.*``, named by the Framework files
:mod:`~warehouse.sources.mindspore.framework` reads), :mod:`~warehouse.sources.mindspore.training_trace_raw`
(``training_trace.46.*``); the Framework host files on their own
(:mod:`~warehouse.sources.mindspore.framework_task`, ``framework_graph``, ``framework_point``) and
their intermediate :mod:`~warehouse.sources.mindspore.framework_raw`, the AI CPU's table
:mod:`~warehouse.sources.mindspore.aicpu_table`, the GetNext and data transfer records
(:mod:`~warehouse.sources.mindspore.get_next_raw`, :mod:`~warehouse.sources.mindspore.tdt_raw`),
``host_start.log`` (:mod:`~warehouse.sources.mindspore.host_start_log`), the FLOPs per scope, dynamic
shapes and cluster analysis (:mod:`~warehouse.sources.mindspore.flops_scope`,
:mod:`~warehouse.sources.mindspore.dynamic_shape`, :mod:`~warehouse.sources.mindspore.cluster_analyse`); the
older profiler's compute time tables (:mod:`~warehouse.sources.mindspore.op_compute_time`,
:mod:`~warehouse.sources.mindspore.op_compute_detail`), first cycle counter
(:mod:`~warehouse.sources.mindspore.min_cycle_counter`) and step point operators
(:mod:`~warehouse.sources.mindspore.point_info`). A format whose versions differ (the AI Core CSVs' headers,
the cluster analysis's layouts, the timeline summary's name) is one module reading each version.
MindSpore names the device in the file name, never in a folder:
:mod:`~warehouse.sources.mindspore.device` reads it.
"""
