"""unit/kernelE2ETime: the System View's "Kernel E2E Time" table, each kernel's way from its Python call to the
device.

The frontend's KernelE2ETimeTable asks it with the card's ``rankId`` and ``dbPath``, the analysed range
(``startTime``/``endTime``, relative ns; equal: the whole card), a page (``current``, ``pageSize``), the path
shown (``pathType``: "all", "ACLOP" or "ACLNN"), an operator name searched (``opName``) and the column sorted
(``sortField``, ``sortOrder`` "asc" or "desc"); it shows ``records`` as a tree (``children``), each row's
durations, status and diagnostic, highlights a row's ``highlightSlices`` on the Timeline, and sums up
``totalCount``, ``normalCount``, ``fallbackCount``, ``incompleteCount`` and ``launchMatchRate``
(Ascend/msinsight ``modules/timeline/src/components/detailViews/KernelE2ETimeTable.tsx``; ``Common.tsx``
queryKernelE2ETime).

The real server recovers the chains (:mod:`service.insight.kernel_e2e_chains`), keeps those of the path
asked, sorts them on the column asked (rows without the figure last; end to end unless another duration is
named; descending unless "asc"), groups them under their CANN and Python calls, keeps the rows whose name
holds ``opName`` (any case; a parent keeps the children that match), counts the statuses of the rows kept,
and answers a page (``server/src/modules/timeline/handler/QueryKernelE2ETimeHandler.cpp``;
``core/kernelE2E/KernelE2ETimeDatabaseAccesser.cpp`` PrepareChainsForResponse, BuildHighlightSlices; shape:
``protocol/TimelineProtocolUtil.cpp`` ToResponseJson<KernelE2ETimeResponse>, AddKernelE2ERecordJson). A
highlighted slice's ``startTime`` is relative ns, its ``pid``, ``tid`` and ``id`` the process lane, thread
lane and slice as the warehouse's ``parse/success`` and ``unit/threadTraces`` name them (the real server's
lanes and ids are its own). A database export's events and a text export's are read as the real server
reads each (:mod:`service.insight.kernel_e2e_events`).
"""

from __future__ import annotations

from service.insight import ranks
from service.insight.kernel_e2e_chains import DURATIONS, FALLBACK, INCOMPLETE, NORMAL, Chain, grouped, recover
from service.insight.kernel_e2e_events import connection_flows, db_events, trace_events, trace_flows
from service.insight.kernel_e2e_times import Calculator
from service.insight.protocol import Params, rows
from service.insight.timeline import card_range, card_zero

#: the events a row highlights after its Python call, by role, in order: up to the CANN call for a CANN
#: call's parent row, all for a chain (a Python call's parent row: the call only)
UPSTREAM_ROLES = (("python_op", "PYTHON_OP"), ("enqueue", "ENQUEUE"), ("dequeue", "DEQUEUE"),
                  ("cann_api", "CANN_API"))
DEVICE_ROLES = (("launch", "LAUNCH"), ("hardware_task", "HARDWARE_TASK"))


def _asked(params: Params) -> dict:
    """The request's parameters with the real server's defaults (KernelE2ETimeParams)."""
    current, page_size = params.integer("current", required=False), params.integer("pageSize", required=False)
    return {"current": 1 if current is None else current, "page_size": 100 if page_size is None else page_size,
            "path_type": params.text("pathType", required=False) or "all",
            "op_name": params.text("opName", required=False) or "",
            "sort_field": params.text("sortField", required=False) or "endToEndTime",
            "ascending": params.text("sortOrder", required=False) == "asc"}


def _sorted(chains: list[Chain], field: str, ascending: bool, calculator: Calculator) -> list[Chain]:
    """SortChains: stable, on the record's ``field`` (end to end when no duration), rows without it last."""
    field = field if field in DURATIONS else "endToEndTime"

    def key(chain: Chain) -> tuple:
        value = calculator.of(chain)[field]
        return (value is None, 0 if value is None else value if ascending else -value)

    return sorted(chains, key=key)


def _kept(chains: list[Chain], matches) -> list[Chain]:
    """The chains that match, and the parents of children that match with only those (FilterChainsByPathType,
    FilterChainsByOpName)."""
    kept = []
    for chain in chains:
        if matches(chain):
            kept.append(chain)
            continue
        children = [child for child in chain.children if matches(child)]
        if children:
            parent = Chain(**{**chain.__dict__, "children": children})
            kept.append(parent)
    return kept


def _slices(chain: Chain, record: dict, zero: int) -> list[dict]:
    """BuildHighlightSlices: the row's events as slices, then the steps missing."""
    def slice_of(event, role: str) -> dict:
        return {"role": role, "name": event.name, "startTime": max(event.start - zero, 0),
                "duration": max(event.end - event.start, 0), "pid": str(event.process_id),
                "tid": str(event.thread_id), "id": str(event.slice_id)}

    def events(roles) -> list[dict]:
        return [slice_of(getattr(chain, name), role) for name, role in roles if getattr(chain, name) is not None]

    found = events((("python_call", "PYTHON_CALL"),))
    if chain.is_parent and chain.cann_api is None:
        return found
    found += events(UPSTREAM_ROLES)
    if chain.is_parent:
        return found
    found += events(DEVICE_ROLES)
    missing = [("PYTHON_CALL", "missing parent python call", chain.python_call is None),
               ("ENQUEUE", "missing enqueue", chain.enqueue is None),
               ("DEQUEUE", "missing dequeue", chain.dequeue is None),
               ("LAUNCH", "CANN Launch not found, fallback to DEQUEUE_END",
                chain.launch is None and record["status"] == FALLBACK),
               ("LAUNCH", "missing launch", chain.launch is None and record["status"] == INCOMPLETE)]
    return found + [{"role": role, "name": role, "startTime": 0, "duration": 0, "missingReason": reason}
                    for role, reason, absent in missing if absent]


def _row(chain: Chain, calculator: Calculator, zero: int) -> dict:
    """A record as AddKernelE2ERecordJson writes it: durations only when given, children only when any."""
    record = calculator.of(chain)
    row = {"id": record["id"], "opName": record["opName"], "pathType": record["pathType"],
           "isParent": record["isParent"]}
    row.update({name: record[name] for name in DURATIONS if record[name] is not None})
    row.update(status=record["status"], diagnostic=record["diagnostic"],
               highlightSlices=_slices(chain, record, zero))
    if chain.children:
        row["children"] = [_row(child, calculator, zero) for child in chain.children]
    return row


def kernel_e2e_time(conn, params: Params) -> dict:
    """unit/kernelE2ETime: a page of the card's dispatch chains with their times, and the statuses counted."""
    card = ranks.asked(conn, params)
    asked = _asked(params)
    window = card_range(conn, card, params)
    events, flows = [], []
    for source_id in card.timeline_ids:
        if card.is_db:
            found, bound = connection_flows(db_events(rows(conn, "insight_kernel_e2e_events", source_id=source_id,
                                                           **window)))
        else:
            found = trace_events(rows(conn, "insight_kernel_e2e_trace_events", source_id=source_id, **window))
            bound = trace_flows(rows(conn, "insight_kernel_e2e_trace_flows", source_id=source_id, **window))
        events += found
        flows += bound
    calculator = Calculator(card.card_id)
    chains = recover(events, flows)
    if asked["path_type"] != "all":
        chains = _kept(chains, lambda chain: chain.path_type == asked["path_type"])
    chains = grouped(_sorted(chains, asked["sort_field"], asked["ascending"], calculator), card.card_id)
    if asked["op_name"]:
        chains = _kept(chains, lambda chain: asked["op_name"].lower() in calculator.of(chain)["opName"].lower())
    start = (asked["current"] - 1) * asked["page_size"]
    page = chains[start:start + asked["page_size"]] if asked["current"] > 0 and asked["page_size"] > 0 else []
    zero = card_zero(conn, card)
    statuses = [calculator.of(chain)["status"] for chain in chains]
    normal = statuses.count(NORMAL)
    return {"records": [_row(chain, calculator, zero) for chain in page], "totalCount": len(chains),
            "normalCount": normal, "fallbackCount": statuses.count(FALLBACK),
            "incompleteCount": statuses.count(INCOMPLETE), "launchMatchRate": normal / len(chains) if chains else 0.0}
