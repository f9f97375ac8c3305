"""The System View's Expert Analysis of a rank card: expertAnalysis/AICoreFreq (AI Core frequency reduction).

The frontend's Expert System View opens on "Expert Analysis", whose ExpertSummary asks
``expertAnalysis/AICoreFreq`` with the card's ``rankId`` and ``dbPath`` once a card is chosen, then shows
"AI Core frequency reduced by {percent}%" with a link to the frequency lane (``pid`` of the card
``rankId``) when ``hasProblem``, else the unproblematic text (Ascend/msinsight
``modules/timeline/src/components/detailViews/ExpertSystemView.tsx`` ExpertAnalysis, ``ExpertSummary.tsx``;
``api/request.ts`` queryExpertAnalysis).

The real server reads the rank's AICORE_FREQ table (a db) or its trace's "AI Core Freq" counter (a text
export), takes the drop from the highest to the lowest sample in percent of the highest (truncated), and
flags it above 5 percent; a rank without samples is refused
(``server/src/modules/timeline/handler/QueryExpAnaAICoreFreqHandler.cpp``; ``core/database/DbTraceDataBase.cpp``
and ``TextTraceDatabase.cpp`` QueryExpAnaAICoreFreqData). The warehouse keeps both as counter series of the
rank's inputs; the named query ``insight_aicore_freq`` computes the figures. Shape:
``protocol/TimelineProtocolUtil.cpp`` ToResponseJson<ExpAnaAICoreFreqResponse> (``rankId``, ``pid``,
``tid``, ``hasProblem``, ``percent``). ``rankId`` is the card's id (the real server's rank id for a text card,
its db path for a db card: the same path here). ``pid`` names the lane as the real server does: "AI Core
Freq" for a db's table, the counter's process for a trace (the warehouse's process id, as ``parse/success``
declares it); ``tid`` is empty (a trace's frequency process has no thread). The real server's text path
takes a sample's ``MHz`` only when its args hold it as a JSON string (TextTraceDatabase.cpp line 1680 at
msinsight commit 4e16fca) while the profiler's trace_view.json writes a number (``{"MHz": 1800}``); the
warehouse keeps either as the sample's value, so such a trace is answered rather than refused.
"""

from __future__ import annotations

from service.insight import ranks
from service.insight.protocol import InsightError, Params, one

#: the lane of a rank db's AICORE_FREQ table (DbTraceDataBase.cpp QueryExpAnaAICoreFreqData)
DB_FREQ_LANE = "AI Core Freq"


def aicore_freq(conn, params: Params) -> dict:
    """expertAnalysis/AICoreFreq: how much the card's AI Core frequency dropped, and whether that is a problem."""
    card = ranks.asked(conn, params)
    found = one(conn, "insight_aicore_freq", run_id=card.run_id, rank_id=card.rank_id)
    if not found or not found["samples"]:
        raise InsightError(f"card {card.card_id!r} has no AI Core frequency samples "
                           "(no AICORE_FREQ table, no 'AI Core Freq' counter)")
    pid = DB_FREQ_LANE if found["process_id"] is None else str(found["process_id"])
    return {"rankId": card.card_id, "pid": pid, "tid": "", "hasProblem": bool(found["has_problem"]),
            "percent": found["percent"]}
