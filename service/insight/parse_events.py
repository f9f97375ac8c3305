"""parse/success: the event after an import that gives MindStudio Insight's Timeline its lanes.

The Timeline builds a card's process and thread lanes only from this event
(Ascend/msinsight ``modules/timeline/src/connection/handler.ts`` parseSuccessHandler), then asks
``unit/threadTracesSummary`` per process and ``unit/threadTraces`` per thread lane
(``modules/timeline/src/insight/units/AscendUnit.tsx``). The real server pushes one per rank once
it is parsed (``server/src/modules/full_db/PaserFactory.cpp`` SendParseSuccessEvent) in the shape
of ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` (ToEventJson<ParseSuccessEvent>,
UnitTrackToJson; envelope: ProtocolUtil::SetEventJsonBaseInfo). The warehouse has ingested the
rank when import/action answers, so the events follow the answer at once.

The tree is the processes and threads of the card's timeline inputs (named query ``insight_unit_tree``)
and their counter lanes (:mod:`service.insight.counters`);
``processId``/``threadId`` are the warehouse's ids as the ``unit/*`` commands take them
(:mod:`service.insight.timeline`). Times there are relative to the card's time zero, its first slice
start or sample of a counter lane (the real text timeline's extent covers both: TextSqlConstant.h
QUERY_EXETREME_TIME_SQL), so each card's ``offset`` is 0 and ``startTime`` is that time zero (absolute
ns, a decimal string as the real server's); ``maxTimeStamp`` is the longest extent (last end - first start) among the cards
imported, as TraceTime::GetDuration is the longest card group's once all are parsed.

After a run of several ranks the real server pushes ``parse/clusterCompleted`` then
``parse/clusterStep2Completed`` for its folder (``ProjectParserDb.cpp`` ParseClusterFiles,
``PaserFactory.cpp`` ParseClusterEndProcess; shapes: ToEventJson<ParseClusterCompletedEvent> and
ToEventJson<ParseClusterStep2CompletedEvent>). The Timeline relays them to the frame
(``modules/timeline/src/connection/handler.ts`` clusterCompletedHandler,
clusterDurationCompletedHandler), which marks the cluster parsed: only then do the Summary and
Communication pages ask their first requests (``modules/cluster/src/SummaryIndex.tsx``,
``CommunicationIndex.tsx``: ``session.clusterCompleted``).

The Operator page lists a rank only once ``parse/operatorCompleted`` (module ``operator``) named it
(``modules/framework/src/connection/interceptorHandler.ts`` parseOperatorSuccessHandler,
``modules/operator/src/connection/handler.ts`` parseSuccessHandler: its ``rankList`` and ``dbPath``).
The real server pushes one per rank of a database export once its summary database is open, with
``status`` false when the rank has no compute task (``full_db/database/FullDbParser.cpp``
InitSummary, ``operator/database/DbSummaryDataBase.cpp`` ParserEnd), and one per rank of a text
export whose kernel_details.csv it parsed (``operator/parser/KernelParse.cpp`` ParseCallBack), in
the shape of ToEventJson<OperatorParseStatusEvent> (``operator/protocol/OperatorProtocolUtil.cpp``).

Once every card of an import is parsed the real server pushes ``allPagesSuccess`` (module ``memory``:
``full_db/PaserFactory.cpp`` ParsePostProcess and SendAllParseSuccess, after every parse task ended and
before ``parse/heatmapCompleted``; again after each ``global/setBaseline`` answer, SetBaselineHandler.cpp),
shaped by ToEventJson<AllSuccessEvent> (``timeline/protocol/TimelineProtocolUtil.cpp``): ``isAllPageParsed``
true, each card's ``offset`` from the earliest card (TraceTime::ComputeCardMinTimeInfo) and ``minTime``, the
earliest card's start as a decimal string. On hearing it the Timeline ends its cards' parsing state and
moves each card by its offset (``modules/timeline/src/connection/handler.ts`` allSuccessHandler), the Memory,
Operator and Statistic pages refresh (their handler.ts allSuccessHandler). Each card's lanes here are on its
own time axis (``offset`` 0 in parse/success), so each card's offset is 0 here too.

``parse/operatorClear`` is declared by the real server (``defs/ProtocolDefs.h`` EVENT_PARSE_OPERATOR_CLEAR,
``operator/protocol/OperatorProtocolUtil.cpp`` ToEventJson<OperatorParseClearEvent>) but never sent: no
handler or parser of ``server/src`` makes an OperatorParseClearEvent, and no page of ``modules/`` listens for
it. The warehouse sends it at the same moments: never.
"""

from __future__ import annotations

import itertools
import threading

from service.insight import counters
from service.insight.protocol import one, rows
from service.insight.ranks import RankCard

PARSE_SUCCESS = "parse/success"
OPERATOR_COMPLETED = "parse/operatorCompleted"
CLUSTER_COMPLETED, CLUSTER_STEP2_COMPLETED = "parse/clusterCompleted", "parse/clusterStep2Completed"
#: parseResult of a cluster parsed (PARSE_RESULT_OK of the real server)
PARSE_RESULT_OK = "ok"
ALL_PAGES_SUCCESS = "allPagesSuccess"
MODULE, OPERATOR_MODULE, MEMORY_MODULE = "timeline", "operator", "memory"
#: kinds of a text export's kernel list (the inputs KernelParse reads)
KERNEL_KINDS = frozenset({"kernel_details_csv", "op_summary_csv"})
#: metaType of a text project's lanes (TextTraceDatabase::AddThreadTrack); a database project's are its tables'
TEXT_META_TYPE = "TEXT"

_event_ids = itertools.count(1)
_event_ids_lock = threading.Lock()


def envelope(event: str, body: dict, module: str = MODULE) -> dict:
    """An event as the real server frames it: ``{type: "event", id, event, moduleName, body}``."""
    with _event_ids_lock:
        event_id = next(_event_ids)
    return {"type": "event", "id": event_id, "event": event, "moduleName": module, "body": body}


def span(conn, card: RankCard) -> tuple[int, int] | None:
    """(first slice start or counter lane sample, last slice end or counter lane sample) over the card's timeline
    inputs (named query ``insight_source_span``), None without either."""
    found = [one(conn, "insight_source_span", source_id=source_id) for source_id in card.timeline_ids]
    found = [(row["start_ns"], row["end_ns"]) for row in found if row and row["start_ns"] is not None]
    if not found:
        return None
    return min(start for start, _ in found), max(end for _, end in found)


def longest(spans) -> int:
    """``maxTimeStamp`` of cards with these spans (:func:`span`; None: no slice): the longest extent, 0 for none."""
    return max((end - start for start, end in filter(None, spans)), default=0)


def meta_type(card: RankCard) -> str:
    """The metaType of the card's lanes (and of what names a slice on them)."""
    return "" if card.is_db else TEXT_META_TYPE


def unit_tree(conn, card: RankCard) -> list[dict]:
    """The card's process tracks, each with its thread tracks then its counter tracks (UnitTrackToJson's
    keys; :mod:`service.insight.counters`); a process holding only counters is a process track too."""
    lane_type = meta_type(card)
    processes: dict[int, dict] = {}

    def process_track(row: dict) -> dict:
        if row["process_id"] not in processes:
            processes[row["process_id"]] = _track(
                "process", card.card_id, str(row["process_id"]), lane_type,
                processName=row["process_name"] or f"Process {row['pid']}", label=row["labels"] or "")
        return processes[row["process_id"]]

    for source_id in card.timeline_ids:
        for row in rows(conn, "insight_unit_tree", source_id=source_id):
            process_track(row)["children"].append(_track(
                "thread", card.card_id, str(row["process_id"]), lane_type, threadId=str(row["thread_id"]),
                threadName=row["thread_name"] or f"Thread {row['tid']}", maxDepth=row["depths"]))
        for lane in counters.lanes(conn, source_id):
            process_track(lane)["children"].append(_track(
                "counter", card.card_id, str(lane["process_id"]), lane_type, threadName=lane["event"],
                dataType=lane["args"]))
    return list(processes.values())


def _track(kind: str, card_id: str, process_id: str, meta_type: str, **given) -> dict:
    metadata = {"cardId": card_id, "processId": process_id, "processName": "", "label": "", "threadId": "",
                "threadName": "", "groupNameValue": "", "rankList": [], "metaType": meta_type, "maxDepth": 0,
                "dataType": []}
    metadata.update(given)
    return {"type": kind, "children": [], "metadata": metadata}


def parse_success(conn, cards: list[RankCard], aliases: dict[str, str] | None = None) -> list[dict]:
    """One parse/success event per card, in the cards' order, each with its alias in ``aliases`` (card id
    -> alias, unit/setCardAlias's) as ``cardAlias``."""
    spans = {card.card_id: span(conn, card) for card in cards}
    extent = longest(spans.values())
    events = []
    for card in cards:
        first_last = spans[card.card_id]
        events.append(envelope(PARSE_SUCCESS, {
            "startTime": str(first_last[0] if first_last else 0), "maxTimeStamp": extent, "offset": 0,
            "startTimeUpdated": first_last is not None, "isFullDb": card.is_db, "isRl": False, "isFtrace": False,
            "unit": {"type": "card", "metadata": {"cardId": card.card_id,
                                                  "cardAlias": (aliases or {}).get(card.card_id, "")},
                     "children": unit_tree(conn, card)},
            "rankList": [card.rank_info()],
            "threadGroupList": [], "dbPath": card.path}))
    return events


def all_pages_success(conn, cards: list[RankCard]) -> dict:
    """allPagesSuccess once ``cards`` are parsed: each card's offset (0: each is on its own time axis) and the
    earliest card's time zero as ``minTime`` ("0" when none has a timeline)."""
    starts = [first_last[0] for first_last in (span(conn, card) for card in cards) if first_last]
    return envelope(ALL_PAGES_SUCCESS, {
        "isAllPageParsed": True, "cardOffsets": [{"cardId": card.card_id, "offset": 0} for card in cards],
        "minTime": str(min(starts, default=0))}, MEMORY_MODULE)


def cluster_completed(cards: list[RankCard]) -> list[dict]:
    """parse/clusterCompleted and parse/clusterStep2Completed for each run of several ranks among ``cards``."""
    events = []
    for root in dict.fromkeys(card.run_root for card in cards if card.run_ranks > 1):
        body = {"parseResult": PARSE_RESULT_OK, "isAllPageParsed": False, "clusterPath": root}
        events.append(envelope(CLUSTER_COMPLETED, {**body, "isShowCluster": True}))
        events.append(envelope(CLUSTER_STEP2_COMPLETED, body))
    return events


def operator_completed(conn, cards: list[RankCard]) -> list[dict]:
    """parse/operatorCompleted for each card of a database export (``status``: whether the rank has
    operators) and each card holding a text export's kernel list, in the cards' order."""
    events = []
    for card in cards:
        if not (card.is_db or card.kinds & KERNEL_KINDS):
            continue
        found = rows(conn, "insight_operator_groups", run_id=card.run_id, rank_id=card.rank_id, group_by="op_type")
        events.append(envelope(OPERATOR_COMPLETED, {
            "rankId": card.card_id, "status": bool(found), "error": "", "dbPath": card.path,
            "rankList": [card.rank_info()]}, OPERATOR_MODULE))
    return events
