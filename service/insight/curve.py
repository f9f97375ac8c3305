"""create/curve: "Generate Line Chart By Block" on a slice of an inference (IE) card's Timeline.

The context menu offers it only on a card of an IE project (``checkCardIsIE``), and sends the selected
slice's ``name`` as ``x``, its card as ``fileId``, its lane as ``pid``/``tid`` and ``type`` "1" (a line of
the durations of the lane's slices of that name) or "2" (of the gaps between them, "Bubble"); it then
opens the Statistic page on the group the answer's ``curveName`` names (Ascend/msinsight
``modules/timeline/src/actions/actionGenerateCurve.ts`` findLineChart, ``api/request.ts`` createCurve).
The real server writes a view of that name into the card's database for its servitization (IE) curves
and answers ``{curveName}``: ``<x>_<track>_curve`` for "1", ``<x>_bubble_<track>_curve`` for "2", empty
for another type; an ``x`` that is not letters, digits and ``.@:-_`` (or holds ``--``) is refused
(``server/src/modules/timeline/handler/CreateCurveHandler.cpp``; StringUtil::CheckSqlValid; shape:
``protocol/TimelineProtocolUtil.cpp`` ToResponseJson<CreateCurveResponse>).

The warehouse reads no IE project (import/action answers ``isIE`` false, so the page never offers the
menu) and is served read-only: no view is written, and the Statistic page's curve commands are not
answered. The name is answered as the real server forms it, the lane's track being the warehouse's
thread id the page sends as ``tid`` (the real server numbers its tracks itself), checked to be a lane of
the card and process named.
"""

from __future__ import annotations

import re

from service.insight.protocol import InsightError, Params
from service.insight.timeline import thread_checked

#: what StringUtil::CheckSqlValid lets through (empty passes too)
SQL_SAFE = re.compile(r"^(?!.*--)[.a-zA-Z0-9_@:-]+$")
#: the curve named per type: slice durations, gaps between the slices ("bubbles")
NAMES = {"1": "{x}_{track}_curve", "2": "{x}_bubble_{track}_curve"}


def create_curve(conn, params: Params) -> dict:
    """The curve's name for the slices named ``x`` on the lane ``tid`` of process ``pid`` of card ``fileId``."""
    name = params.text("x", required=False) or ""
    if name and not SQL_SAFE.match(name):
        raise InsightError(f"parameter x: {name!r} cannot name a line chart (letters, digits and .@:-_ only)")
    card = Params({"cardId": params.text("fileId")}, params.session)
    thread = thread_checked(conn, card, params.integer("tid"), params.integer("pid"))
    template = NAMES.get(params.text("type", required=False) or "")
    return {"curveName": template.format(x=name, track=thread["thread_id"]) if template else ""}
