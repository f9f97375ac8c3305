"""communication/advisor: the expert advice of MindStudio Insight's Communication page, for a cluster.

The page (modules/cluster ``components/communication/CommunicationDuration/AdviceLabel.tsx``;
``utils/RequestUtils.ts`` queryCommunicationExpertAdvisor) sends only ``clusterPath`` and draws each
item of the answer as a table: its ``name`` the title, each key of its ``statistics`` a column of
text values. The real server answers an item per analyzer (``server/src/modules/communication/
advisor/CommunicationAdvisor.cpp``: a std::map by title, so the items in title order), shaped as
``communication/protocol/CommunicationProtocolUtil.cpp`` ToResponseJson<CommunicationAdvisorResponse>,
each item's columns in name order (a std::map) and its numbers as std::to_string writes them. Each
analyzer is a module here, answering from its named query.
"""

from __future__ import annotations

from service.insight import (communication_advice_alignment, communication_advice_contention,
                             communication_advice_packets, communication_advice_retransmission, ranks)
from service.insight.protocol import Params

#: the analyzers, each with its TITLE and item(conn, run_id)
ANALYZERS = sorted((communication_advice_alignment, communication_advice_contention, communication_advice_packets,
                    communication_advice_retransmission), key=lambda analyzer: analyzer.TITLE)


def advisor(conn, params: Params) -> dict:
    """communication/advisor: the cluster's advice items, one per analyzer, in title order."""
    run_id = ranks.of_cluster(conn, params.text("clusterPath"))[0].run_id
    return {"items": [analyzer.item(conn, run_id) for analyzer in ANALYZERS]}
