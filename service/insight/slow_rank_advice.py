"""summary/slowRank/advisor: the slow ranks (or groups) of the parallel view, by their waits in collectives.

The page (modules/cluster ``components/summary/Index.tsx`` getSlowRankData, ``SlowRankTable.tsx``;
``utils/RequestUtils.ts`` slowRankAdvisor) sends the strategy and ``dimension`` of the view
(:mod:`arrangement`) with ``clusterPath``, and shows ``topNElements`` (``name`` and each kind's
synchronize time), ``hasSlowRank`` and ``matchSuccess``. The advice is the real server's
(``server/src/modules/summary/core/BaseParallelStrategyAlgorithm.cpp`` CalAdviceInfoByCommInfo,
CalAdviceInfoBy{Pp,Cp,Tp}Dim, CalSynchronizeTime, ReduceCommDefaultFunc; ``TopNAdviceMaintainer.cpp``),
shaped as ``summary/protocol/SummaryProtocolUtil.cpp`` ToResponseJson<SummarySlowRankAdvisorResponse>:
in a collective every member waits for the last to arrive, so within each data-parallel group (per
pipeline stage; each element the mean of its tensor and context ranks) an element's synchronize time
is the group's longest data-parallel communication less its own, and one more than 5 % of that
longest is slow; unfolding the context-, then the tensor-parallel ranks, the three slowest of the
level above (or every group, when none) are looked into the same way within their context- and
tensor-parallel groups, carrying their data-parallel times. The ten with the most synchronize time
are kept, the three with the most shown. ``matchSuccess`` is false when the ranks' communication
holds no time in groups of the kind a level compares (the strategy does not match the run).

Each rank's time per kind of group is the named query ``parallel_group_comm_time`` over every step.
"""

from __future__ import annotations

from service.insight import ranks
from service.insight.arrangement import NAME_ORDER, layout
from service.insight.parallelism import group_means, per_kind
from service.insight.protocol import Params, rows
from service.insight.strategy import Strategy

#: slow above this share of the group's longest communication; kept, shown (thresholdForSlowRankAdvice,
#: maxLengthOfAdvice, topN)
THRESHOLD, KEPT, SHOWN = 0.05, 10, 3
#: the levels below the data-parallel one: the dimension that unfolds each and its kind
LEVELS = (("ep-dp-pp", "dp"), ("ep-dp-pp-cp", "cp"), ("ep-dp-pp-cp-tp", "tp"))


def _sizes(strategy: Strategy, kind: str) -> dict[str, int]:
    """The sizes a level sees: the tensor and context kinds folded above their own level."""
    sizes = {"dp": strategy.dp, "pp": strategy.pp, "cp": strategy.cp, "tp": strategy.tp}
    if kind == "dp":
        sizes |= {"cp": 1, "tp": 1}
    if kind == "cp":
        sizes["tp"] = 1
    return sizes


def _index(place: dict[str, int], sizes: dict[str, int], dp_last: bool) -> int:
    """The element's index at a level (GetElementIndex)."""
    tp_cp = sizes["tp"] * sizes["cp"]
    inner = tp_cp * sizes["pp"] * place["dp"] + tp_cp * place["pp"] if dp_last else \
        tp_cp * sizes["dp"] * place["pp"] + tp_cp * place["dp"]
    return inner + sizes["tp"] * place["cp"] + place["tp"]


class _Advice:
    """The slowest elements of one level (TopNAdviceMaintainer): the ten with the most synchronize time in
    all, each kept as (that total, the element: index, name, place, times per kind)."""

    def __init__(self):
        self.kept: list[tuple[float, dict]] = []

    def insert(self, item: dict) -> None:
        self.kept.append((sum(item["times"].values()), item))
        self.kept = sorted(self.kept, key=lambda pair: -pair[0])[:KEPT]

    def slowest(self) -> list[dict]:
        return [item for _, item in self.kept[:SHOWN]]


def _synchronize(kind: str, base: dict, strategy: Strategy, times: dict[int, float], advice: _Advice) -> None:
    """Within the ``kind`` group through ``base`` (the other kinds' indexes and carried times), each element's
    wait: the longest time less its own (CalSynchronizeTime)."""
    sizes = _sizes(strategy, kind)
    members = []
    for member in range(getattr(strategy, kind)):
        place = {**base["place"], kind: member}
        index = _index(place, sizes, strategy.dp_last)
        if index in times:
            members.append((place, index, times[index]))
    longest = max((time for _, _, time in members), default=0.0)
    if longest == 0:
        return
    for place, index, time in members:
        wait = round(longest - time, 3)
        carried = {k: v for k, v in base["times"].items() if k in ("dp", "cp")}
        if wait / longest > THRESHOLD or carried:
            name = "-".join(f"{k}{place[k]}" for k in NAME_ORDER if sizes[k] > 1)
            advice.insert({"index": index, "name": name, "place": place, "times": {**carried, kind: wait}})


def _level(kind: str, strategy: Strategy, per_rank: dict[int, float], above: list[dict]) -> tuple[_Advice, bool]:
    """One level's advice and whether the ranks hold time in groups of its kind."""
    advice = _Advice()
    width = {"dp": strategy.tp * strategy.cp, "cp": strategy.tp, "tp": 1}[kind]
    times = group_means(per_rank, width)
    if not times:
        return advice, False
    if above:
        bases = [{"place": item["place"], "times": item["times"]} for item in above]
    else:
        others = [k for k in ("dp", "pp", "cp") if k != kind and not (kind == "dp" and k == "cp")]
        bases = [{"place": {"tp": 0, "cp": 0, **place}, "times": {}} for place in _grid(strategy, others)]
    for base in bases:
        _synchronize(kind, base, strategy, times, advice)
    return advice, True


def _grid(strategy: Strategy, kinds: list[str]) -> list[dict[str, int]]:
    """Every combination of the ``kinds``' indexes."""
    places = [{}]
    for kind in kinds:
        places = [{**place, kind: index} for place in places for index in range(getattr(strategy, kind))]
    return places


def advise(strategy: Strategy, dimension: str, comm: list[dict]) -> tuple[list[dict], bool]:
    """The slowest elements of the view and whether the communication matched the strategy."""
    kinds = per_kind(comm)
    slowest: list[dict] = []
    matched = True
    for level_dimension, kind in LEVELS:
        if dimension == "ep-dp":
            break
        if getattr(strategy, kind) > 1:
            # a level that finds no time in its kind's groups leaves the next to look into every group
            advice, matched = _level(kind, strategy, kinds.get(kind, {}), slowest)
            slowest = advice.slowest()
        if level_dimension == dimension:
            break
    return slowest, matched


def advisor(conn, params: Params) -> dict:
    """summary/slowRank/advisor: the view's slowest elements by their synchronize times."""
    run_id = ranks.of_cluster(conn, params.text("clusterPath"))[0].run_id
    view = layout(params)
    comm = rows(conn, "parallel_group_comm_time", run_id=run_id, step_id=None)
    slowest, matched = advise(view.strategy, view.dimension, comm)
    return {"topNElements": [{"index": item["index"], "name": item["name"],
                              **{f"{kind}SynchronizeTime": item["times"][kind]
                                 for kind in ("tp", "cp", "dp") if kind in item["times"]}} for item in slowest],
            "hasSlowRank": not (matched and not slowest), "matchSuccess": matched}
