"""The input formats the warehouse reads: one module each, tried in this order."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from warehouse.sources.capture import done_mark, info_json  # a capture's metadata files
from warehouse.sources import analysis_db, cluster_analysis_db, msprof_timeline, op_profile, rank_db, trace_json
from warehouse.sources import (  # text exports (kernel_details.csv and friends)
    api_statistic,
    cluster_communication,
    cluster_communication_matrix,
    cluster_step_trace_time,
    communication_group,
    communication_json,
    communication_matrix,
    kernel_details,
    l2_cache,
    memory_record_csv,
    msprof_step_trace,
    npu_module_mem,
    op_statistic,
    op_summary,
    operator_details,
    operator_memory,
    profiler_info,
    profiler_metadata,
    static_op_mem,
    step_trace_time,
    task_time,
)
from warehouse.sources.mindspore import (  # MindSpore's intermediates
    aicore_detail,
    aicore_type,
    aicpu_intermediate,
    aicpu_table,
    framework_raw,
    hwts_txt,
    op_compute_detail,
    op_compute_time,
    step_trace_raw,
    timeline_data,
)
from warehouse.sources.mindspore import (  # MindSpore's raw files
    aicpu_raw,
    framework_graph,
    framework_point,
    framework_task,
    get_next_raw,
    host_start_log,
    hwts_raw,
    min_cycle_counter,
    point_info,
    tdt_raw,
    training_trace_raw,
)
from warehouse.sources.mindspore import (  # MindSpore's data pipeline (MindData)
    device_queue,
    get_next,
    minddata_cpu_utilization,
    minddata_pipeline_raw,
    pipeline_profiling,
)
from warehouse.sources.mindspore import (  # MindSpore's summaries
    cluster_analyse,
    dynamic_shape,
    flops_ops,
    flops_scope,
    flops_summary,
    hccl_raw,
    marey_timeline,
    parallel_strategy,
    scope_map,
    timeline_summary,
)
from warehouse.sources.mindspore import profiler_info as mindspore_profiler_info  # a rank's place in its run
from warehouse.sources.mindspore import timeline_display as mindspore_timeline  # a device's trace

SOURCES: tuple[ModuleType, ...] = (
    # msprof_timeline and MindSpore's timeline before trace_json: a PROF folder's timeline JSONs and MindSpore's
    # device timelines are traces too
    op_profile, msprof_timeline, mindspore_timeline, trace_json, rank_db,
    # after rank_db: a rank db named analysis.db is still a rank db
    analysis_db, cluster_analysis_db,
    # text exports
    kernel_details, op_summary, task_time, op_statistic, operator_details, step_trace_time, cluster_step_trace_time,
    msprof_step_trace,
    memory_record_csv, operator_memory, api_statistic, npu_module_mem, l2_cache, static_op_mem,
    communication_json, communication_matrix, cluster_communication, cluster_communication_matrix,
    communication_group, profiler_info, profiler_metadata,
    # MindSpore's intermediates
    step_trace_raw, aicore_type, aicore_detail, framework_raw, aicpu_table, aicpu_intermediate, hwts_txt,
    timeline_data, op_compute_time, op_compute_detail,
    # MindSpore's raw files
    aicpu_raw, hwts_raw, training_trace_raw, framework_task, framework_graph, framework_point,
    get_next_raw, tdt_raw,
    # MindSpore's data pipeline
    minddata_pipeline_raw, pipeline_profiling, minddata_cpu_utilization, device_queue, get_next,
    # MindSpore's communication, FLOPs and timeline summaries
    hccl_raw, flops_ops, flops_summary, flops_scope, timeline_summary, dynamic_shape, cluster_analyse,
    parallel_strategy, marey_timeline, scope_map,
    # MindSpore's older, flat profiler_info (the rank's place in its parallel run)
    mindspore_profiler_info,
    # a capture's metadata files
    info_json, host_start_log, min_cycle_counter, point_info, done_mark,
)


def detect_source(path: str | Path) -> ModuleType | None:
    """The source module that reads this file, or None when none does."""
    for module in SOURCES:
        if module.detect(path):
            return module
    return None
