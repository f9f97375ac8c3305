"""The kernel list under the Timeline: unit/kernelDetails, and unit/one/kernelDetail to jump from a row to its slice.

The frontend's operator detail table (Ascend/msinsight ``modules/timeline/src/components/detailViews/
OperatorDetailView.tsx`` OperatorSubTable, ``Common.tsx`` queryKernelDetails and useKernelDetails) asks a
page of the card's kernels: ``rankId``, ``dbPath``, ``current``, ``pageSize``, ``orderBy`` (a column key;
its start column as ``startTime``), ``order``, ``startTime``/``endTime`` (relative ns; equal: the whole
card), ``coreType`` and ``filterCondition`` (JSON texts ``{"columnName", "value"}``, a column holding
the value, any case). A row clicked, or a row of the Find window, is located on the timeline with
``unit/one/kernelDetail`` (``rankId``, ``name``, ``timestamp`` relative, ``duration``; FindInWindow.tsx
handleFindSelected, EventsView.tsx).

Shapes: ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` ToResponseJson<KernelDetailsResponse>
and <OneKernelResponse>; values as ``core/database/TextTraceDatabase.cpp`` QueryKernelDetailData and
TraceDatabaseHelper.cpp SetKernelDetailHelpler give them: start relative ns, duration and wait time in us,
every accelerator core of the card in ``acceleratorCoreList``. The kernels are the named query
``insight_operators``'s compute kernels of the rank (those the Operator page lists); the slice a kernel
is drawn as is the named query ``insight_memory_slice``'s (named as the kernel, covering its start, on
the lanes answering the rank's timeline), where the real server looks within 500 ns of the start.
"""

from __future__ import annotations

from service.insight import paging, ranks, timeline
from service.insight.protocol import InsightError, Params, one, rows

NS_PER_US = 1000.0
#: answer key -> insight_operators column, for the text columns the table filters on
TEXT_COLUMNS = {"name": "name", "type": "op_type", "acceleratorCore": "acc_core", "taskId": "task_id",
                "inputShapes": "input_shapes", "inputDataTypes": "input_dtypes", "inputFormats": "input_formats",
                "outputShapes": "output_shapes", "outputDataTypes": "output_dtypes",
                "outputFormats": "output_formats"}
#: the table's sortable columns (every answer key but id)
SORT_COLUMNS = {key: key for key in (*TEXT_COLUMNS, "startTime", "duration", "waitTime", "blockNum")}


def _text(value) -> str:
    return "" if value is None else str(value)


def _row(kernel: dict, zero: int) -> dict:
    """One kernel as KernelDetail (id: the warehouse's kernel row)."""
    return {"id": _text(kernel["kernel_id"]), "startTime": kernel["ts"] - zero, "duration": kernel["dur"] / NS_PER_US,
            "waitTime": (kernel["wait_ns"] or 0) / NS_PER_US, "blockNum": kernel["block_dim"] or 0,
            **{key: _text(kernel[column]) for key, column in TEXT_COLUMNS.items()}}


def kernel_details(conn, params: Params) -> dict:
    """unit/kernelDetails: one page of the card's kernels in a time range, filtered and sorted."""
    card = ranks.asked(conn, params)
    zero = timeline.card_zero(conn, card)
    start, end = params.integer("startTime", required=False) or 0, params.integer("endTime", required=False) or 0
    if end < start:
        raise InsightError(f"endTime {end} is before startTime {start}")
    kernels = rows(conn, "insight_operators", run_id=card.run_id, rank_id=card.rank_id, communication=False)
    cores = sorted({_text(kernel["acc_core"]) for kernel in kernels})
    items = [_row(kernel, zero) for kernel in kernels]
    if start != end:
        items = [item for item in items if item["startTime"] + item["duration"] * NS_PER_US >= start
                 and item["startTime"] <= end]
    core_type = params.text("coreType", required=False)
    if core_type:
        items = [item for item in items if item["acceleratorCore"] == core_type]
    columns = {key: key for key in TEXT_COLUMNS}
    items = paging.kept(items, paging.filters(params, "filterCondition", tuple(columns)), columns)
    shown = paging.page(paging.ordered(items, params, SORT_COLUMNS), params)
    return {"kernelDetails": shown, "acceleratorCoreList": cores, "count": len(items),
            "pageSize": params.integer("pageSize", required=False) or 10,
            "currentPage": params.integer("current", required=False) or 1}


def one_kernel(conn, params: Params) -> dict:
    """unit/one/kernelDetail: the slice a kernel (``name`` at ``timestamp``) is drawn as: its id, lane and
    depth (all empty when the card's timeline has none, as the real server answers)."""
    card = ranks.asked(conn, params)
    name, at = params.text("name"), params.integer("timestamp")
    found = one(conn, "insight_memory_slice", run_id=card.run_id, rank_id=card.rank_id, slice_name=name,
                ts=at + timeline.card_zero(conn, card))
    body = {"id": "", "rankId": card.card_id, "depth": 0, "duration": 0, "threadId": "", "pid": "", "step": "",
            "group": ""}
    if found is not None:
        body.update(id=str(found["id"]), depth=found["depth"], duration=found["dur"],
                    threadId=str(found["thread_id"]), pid=str(found["process_id"]))
    return body
