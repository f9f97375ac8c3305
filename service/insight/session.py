"""What one client of the protocol has chosen: the operator profile its views are about, its baseline
(an operator profile, a rank of a training run, or a cluster), the aliases of its cards.

MindStudio Insight's frontend names no card in its operator views (modules/compute
``RequestUtils.ts`` sends only each view's own parameters, and ``isCompared``): the real server
answers about the file set made current when it was imported (``ProjectParserBin.cpp``
SetFilePath, ``SourceFileParser.cpp``) and compares with the baseline ``global/setBaseline`` chose
(``SetBaselineHandler.cpp``) until ``global/cancelBaseline``; a rank's views asked ``isCompare``
compare with the rank chosen so (:func:`~service.insight.baseline.rank_baseline`), a cluster's Summary and
Communication pages with the cluster chosen so (:func:`~service.insight.baseline.cluster_baseline`); the Summary page's
parallel view lays out a cluster by the strategy ``summary/set/parallelStrategy`` chose
(``SetParallelStrategyConfigHandler.cpp``), its expert heat map by the model info its Search gave
(``ExpertHotspotManager.cpp`` UpdateModelInfo). ``remote/reset`` forgets every choice and
``remote/delete`` the cards it names (:mod:`service.insight.remote`). The WebSocket keeps one
:class:`Session` per connection, so two pages on one warehouse each see their own choice;
``POST /insight`` is stateless (a new session per request: a card is named with ``cardId`` where
the warehouse holds several, the baseline with ``baselineRankId``).

A command may also leave events for the client (``parse/success`` after an import): the WebSocket
sends them after the command's answer, as the real server pushes its own; ``POST /insight`` has
no channel for them and drops them. A command may also go on after its answer and tell the client
later (an import parsed in the background): the WebSocket gives it ``push``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Session:
    """One client's choices: operator profiles by source id, a rank by its card id (None: not chosen)."""

    #: the operator profile the last import/action made current
    operator: int | None = None
    #: the operator profile global/setBaseline chose to compare with
    baseline: int | None = None
    #: the parallel strategy summary/set/parallelStrategy chose, per cluster folder (:mod:`strategy`)
    strategies: dict[str, dict] = field(default_factory=dict)
    #: the model info summary/queryExpertHotspot kept, per cluster folder (service.insight.expert.ModelInfo)
    expert_models: dict[str, object] = field(default_factory=dict)
    #: the rank card global/setBaseline chose to compare a rank with (at most one of the baselines is set)
    baseline_rank: str | None = None
    #: the cluster folder global/setBaseline chose to compare a cluster's Summary and Communication with
    baseline_cluster: str | None = None
    #: events to send the client after the answer to its current request
    events: list[dict] = field(default_factory=list)
    #: card id -> the alias unit/setCardAlias gave it (service.insight.card_alias)
    card_aliases: dict[str, str] = field(default_factory=dict)
    #: the rank cards remote/delete took off the client's Timeline until it imports them again (service.insight.remote)
    removed_cards: set[str] = field(default_factory=set)
    #: sends events to the client at any time, from any thread, nothing between them (None: no channel)
    push: Callable[[list[dict]], None] | None = None
    #: what the current request starts once its answer is sent (only with ``push``: work telling the client later)
    then: list[Callable[[], None]] = field(default_factory=list)
