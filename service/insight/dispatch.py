"""One dispatcher for the operator-view protocol, whatever carries it (``POST /insight`` or the WebSocket).

A request ``{"id", "moduleName", "type": "request", "command", "fileId", "projectName", "params"}``
is answered with ``{"type": "response", "id", "requestId", "result", "command", "moduleName",
"body"}``; a command that cannot answer sets ``result: false`` and, as the MindStudio Insight
server does (Ascend/msinsight ``server/src/protocol/ProtocolUtil.cpp``, SetResponseJsonBaseInfo),
a top-level ``error: {code, message}``. Both transports call :func:`answer` inside the Flask
app's context, so the two answer the same bodies.
"""

from __future__ import annotations

import itertools
import threading

from service.db import get_db
from service.insight import (advisor, arrangement, baseline, card_alias, communication, communication_advice,
                             communication_kernel, counters, curve, details, event_view, expert, expert_analysis,
                             explorer, flow_categories, hotspot, importer, kernel_e2e, kernel_list, kernel_types,
                             memcpy, memory, operator, operator_export, parallelism, parsing, pipeline, project,
                             rank_details, rank_offset, remote, same_operators, search, selection, slow_rank_advice,
                             source, strategy, summary, system_view, system_view_layers, timeline, views)
from service.insight.protocol import InsightError, Params
from service.insight.session import Session
from warehouse.errors import WarehouseError

#: command -> function(conn, params) -> body
COMMANDS = {
    "heartCheck": project.heart_check,
    "moduleConfig/get": project.module_config,
    "files/getProjectExplorer": project.project_explorer,
    "files/updateProjectExplorer": explorer.update_project_explorer,
    "files/deleteProjectExplorer": explorer.delete_project_explorer,
    "files/clearProjectExplorer": explorer.clear_project_explorer,
    "files/get": project.files_get,
    "files/checkProjectValid": project.check_project_valid,
    "global/setBaseline": baseline.set_baseline,
    "global/cancelBaseline": baseline.cancel_baseline,
    "import/action": importer.import_action,
    "unit/threadTracesSummary": timeline.thread_traces_summary,
    "unit/threadTraces": timeline.thread_traces,
    "unit/flows": timeline.flows,
    "unit/threadDetail": timeline.thread_detail,
    "unit/threads": selection.threads,
    "search/count": search.count,
    "search/slice": search.slice_at,
    "search/all/slices": search.all_slices,
    "unit/kernelDetails": kernel_list.kernel_details,
    "unit/one/kernelDetail": kernel_list.one_kernel,
    "kernel/total/list": kernel_types.kernel_types,
    "unit/kernelE2ETime": kernel_e2e.kernel_e2e_time,
    "unit/kernelDetail": communication_kernel.kernel_detail,
    "query/all/same/operators/duration": same_operators.durations,
    "flow/categoryList": flow_categories.category_list,
    "flow/categoryEvents": flow_categories.category_events,
    "unit/counter": counters.unit_counter,
    "unit/setCardAlias": card_alias.set_card_alias,
    "timeline/rankOffset": rank_offset.rank_offset,
    "remote/reset": remote.reset,
    "remote/delete": remote.delete,
    "create/curve": curve.create_curve,
    "memcpy/total/list": memcpy.total_list,
    "memcpy/detail/list": memcpy.detail_list,
    "tableData/nameList": system_view.name_list,
    "systemView/overall": system_view.overall,
    "unit/systemView": system_view_layers.summary,
    "unit/systemViewTrace": system_view_layers.trace,
    "systemView/overall/more/details": system_view.overall_more_details,
    "tableData/detail": system_view.table_detail,
    "systemView/systemViewFtraceStat": system_view.ftrace_stat,
    "expertAnalysis/AICoreFreq": expert_analysis.aicore_freq,
    "advisor/operatorDispatch": advisor.operator_dispatch,
    "parse/cards": parsing.parse_cards,
    "unit/eventView": event_view.event_view,
    "summary/queryTopData": summary.query_top_data,
    "summary/statistic": summary.statistic,
    "summary/queryComputeDetail": rank_details.compute_detail,
    "summary/queryCommunicationDetail": rank_details.communication_detail,
    "summary/query/parallelStrategy": expert.strategy_and_heatmap,
    "summary/set/parallelStrategy": strategy.choose,
    "parallelism/arrangement/all": arrangement.arrangement,
    "parallelism/performance/data": parallelism.performance,
    "parallelism/pipeline/fwdBwdTimeline": pipeline.fwd_bwd_timeline,
    "summary/slowRank/advisor": slow_rank_advice.advisor,
    "summary/queryModelInfo": expert.query_model_info,
    "summary/queryExpertHotspot": expert.query_expert_hotspot,
    "summary/importExpertData": expert.import_expert_data,
    "communication/duration/iterations": communication.iterations,
    "communication/matrix/bandwidthInfo": communication.matrix,
    "communication/duration/list": communication.duration_list,
    "communication/matrix/group": communication.groups,
    "communication/duration/operatorNames": communication.operator_names,
    "communication/matrix/sortOpNames": communication.matrix_operator_names,
    "communication/operatorDetails": communication.operator_details,
    "communication/bandwidth": communication.bandwidth,
    "communication/distribution": communication.distribution,
    "communication/duration/slow-rank/list": communication.slow_ranks,
    "communication/operatorLists": communication.operator_lists,
    "communication/advisor": communication_advice.advisor,
    "operator/category": operator.category,
    "operator/compute_unit": operator.compute_unit,
    "operator/statistic": operator.statistic,
    "operator/details": operator.details,
    "operator/more_info": operator.more_info,
    "operator/exportDetails": operator_export.export_details,
    "Memory/view/type": memory.memory_type,
    "Memory/view/resourceType": memory.resource_type,
    "Memory/view/memoryUsage": memory.memory_usage,
    "Memory/view/operator": memory.operators,
    "Memory/view/operatorSize": memory.operator_size,
    "Memory/view/component": memory.components,
    "Memory/view/staticOpMemoryGraph": memory.static_graph,
    "Memory/view/staticOpMemoryList": memory.static_list,
    "Memory/view/staticOpMemorySize": memory.static_size,
    "Memory/find/slice": memory.find_slice,
    "source/code/file": source.code_file,
    "source/api/line": source.api_line,
    "source/api/instructions": source.api_instructions,
    "source/details/baseInfo": details.base_info,
    "source/details/computeworkload": details.compute_workload,
    "source/details/memoryGraph": details.memory_graph,
    "source/details/memoryTable": details.memory_table,
    "source/api/line/dynamic": hotspot.api_line_dynamic,
    "source/api/instructions/dynamic": hotspot.api_instructions_dynamic,
    "source/details/roofline": views.roofline,
    "source/details/interCoreLoadAnalysis": views.inter_core_load,
    "source/queryTopWarpStallReason": views.stall_reasons,
    "source/cache/cachelineRecords": views.cacheline_records,
}
ENVELOPE = ("id", "moduleName", "type", "command")
#: error codes of an answer with result false
UNKNOWN_COMMAND, BAD_REQUEST, CANNOT_ANSWER = 1001, 1002, 1003

_response_ids = itertools.count(1)
_response_ids_lock = threading.Lock()


def envelope_problem(message) -> str | None:
    """What is wrong with a request envelope, or None when it is well formed."""
    if not isinstance(message, dict):
        return "the request must be a JSON object (the request envelope)"
    missing = [key for key in ENVELOPE if key not in message]
    if missing:
        return f"the request envelope has no {', '.join(missing)}"
    if message["type"] != "request":
        return f"type must be 'request', not {message['type']!r}"
    if isinstance(message["id"], bool) or not isinstance(message["id"], (int, str)):
        return "id must be a number or a string"
    if not isinstance(message["command"], str) or not isinstance(message["moduleName"], str):
        return "command and moduleName must be strings"
    if not isinstance(message.get("params", {}), dict):
        return "params must be a JSON object"
    return None


def _next_id() -> int:
    with _response_ids_lock:
        return next(_response_ids)


def refusal(request_id, command, module_name, code: int, message: str, body: dict | None = None) -> dict:
    """An answer with ``result: false`` and the error (``body`` keeps extra facts, e.g. the cards)."""
    return {"type": "response", "id": _next_id(), "requestId": request_id, "result": False, "command": command,
            "moduleName": module_name, "body": body or {}, "error": {"code": code, "message": message}}


def answer(message: dict, session: Session | None = None) -> dict:
    """The response to a well-formed request envelope (see :func:`envelope_problem`), for the client
    whose ``session`` it is (None: a stateless request)."""
    command, module_name, request_id = message["command"], message["moduleName"], message["id"]
    handler = COMMANDS.get(command)
    if handler is None:
        return refusal(request_id, command, module_name, UNKNOWN_COMMAND,
                       f"unknown command {command!r} (known: {', '.join(COMMANDS)})")
    try:
        body = handler(get_db(), Params(message.get("params") or {}, session))
    except InsightError as exc:
        extra = {key: value for key, value in exc.body.items() if key != "message"}
        return refusal(request_id, command, module_name, CANNOT_ANSWER, str(exc), extra)
    except WarehouseError as exc:
        return refusal(request_id, command, module_name, CANNOT_ANSWER, str(exc))
    return {"type": "response", "id": _next_id(), "requestId": request_id, "result": True, "command": command,
            "moduleName": module_name, "body": body}
