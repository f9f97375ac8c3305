"""parallelism/performance/data: each element of the parallel view's figures, on the Summary page.

The page (modules/cluster ``components/summary/Index.tsx`` getPerformanceData; ``utils/RequestUtils.ts``
getParallelismPerformanceDataCancelable) sends the strategy and ``dimension`` of the arrangement
(:mod:`arrangement`), the ``step`` ("All", or empty, for every step) and ``isCompare``; it reads
``performance[i].indicators.compare`` under the keys of the arrangement's ``indicators`` and
``commTimeIndicator.diff``'s keys. The figures are the real server's
(``server/src/modules/summary/core/BaseParallelStrategyAlgorithm.cpp``
CalculatePerformanceDataWithTpDimension, ReduceTpPerformance, ReduceCpPerformance,
CalculatePerformanceDataWith{Cp,Pp}Dimension, ReducePpPerformanceFor{Pp,Dp}Last,
GetPerformanceResponseDataWithDpDimension; ``MegatronParallelStrategyAlgorithm.cpp``
GetPerformanceIndicatorByDimension): per rank in the ranks' view; folding the tensor-parallel ranks
(max, min and range of each figure), then the context-parallel ones, then summing the slowest of
each pipeline stage per data-parallel replica. The answer is shaped as
``summary/protocol/SummaryProtocolUtil.cpp`` ToResponseJson<ParallelismPerformanceResponse>.

Each rank's step time is the named query ``parallel_rank_time`` (step_answer: the profiler's own
summary, else derived from the kernels and HCCL operators) in us; its communication per kind of
parallel group (dp, tp, ...) the named query ``parallel_group_comm_time``, each element's the mean of
its ranks' as the real server's (SummaryService.cpp QueryParallelismCommTime, ReduceCommDefaultFunc;
none in the replicas' view, which the real server does not split either). Without a baseline ``baseline`` is
empty and ``diff`` equals ``compare``; in compare mode (``isCompare``, the cluster global/setBaseline chose:
:func:`~service.insight.baseline.cluster_baseline`) the baseline cluster's figures for ``baselineStep``, in the
same view and strategy (the real server gives the baseline the open cluster's strategy:
BaselineManagerService.cpp InitBaselineParallelStrategy), are paired per element (MergeParallelismPerformance,
MergeCommDataPerformance: ``diff`` each key's difference to 3 decimals, a missing side 0, CalDiffIndicators),
and no advice is given. The ``advice`` is the real server's in the ranks' view (CalAdviceInfo,
AnalyzePerformanceAdviceWithDpCpPpTpDimension):
a figure whose spread over the ranks passes 5 % of their mean end-to-end time has an issue.
"""

from __future__ import annotations

from service.insight import baseline, ranks
from service.insight.arrangement import RANKS_VIEW, Layout, layout
from service.insight.protocol import InsightError, Params, rows

#: the figures folded per group, under the real server's StepStatistic names
FOLDED = ("computing", "communication", "overlapped", "free", "npuTime")


def group_means(per_rank: dict[int, float], width: int) -> dict[int, float]:
    """Each run of ``width`` consecutive ranks' mean, by rank // width: a folded element's (ReduceCommDefaultFunc)."""
    sums: dict[int, list[float]] = {}
    for rank, value in per_rank.items():
        sums.setdefault(rank // width, []).append(value)
    return {index: round(sum(values) / len(values), 3) for index, values in sums.items()}


def per_kind(comm: list[dict]) -> dict[str, dict[int, float]]:
    """parallel_group_comm_time's rows as {kind: {rank: us}}."""
    found: dict[str, dict[int, float]] = {}
    for row in comm:
        found.setdefault(row["group_kind"], {})[row["rank_id"]] = row["comm_us"]
    return found


def communication(view: Layout, comm: list[dict]) -> dict[int, dict[str, float]]:
    """Each element's communication time per kind of group (none in the replicas' view)."""
    width = {RANKS_VIEW: 1, "ep-dp-pp-cp": view.strategy.tp, "ep-dp-pp": view.strategy.tp * view.strategy.cp}
    if view.dimension not in width:
        return {}
    found: dict[int, dict[str, float]] = {}
    for kind, ranks_time in per_kind(comm).items():
        for index, mean in group_means(ranks_time, width[view.dimension]).items():
            found.setdefault(index, {})[kind] = mean
    return found


def _round(value: float) -> float:
    """Reserved3DecimalPlaces: three decimals."""
    return round(value, 3)


def rank_figures(row: dict) -> dict:
    """One rank's figures in the ranks' view; the real server's keys "notOverlapped" and "overlapped"
    hold the names' opposites (ClusterDef.h), kept so that the frontend's labels read right."""
    computing, alone, free = row["computing_us"], row["communication_not_overlapped_us"], row["free_us"]
    end_to_end = computing + alone + free + max(0.0, row["preparing_us"])
    ratio = (lambda part: _round(part / end_to_end * 100)) if end_to_end else (lambda part: 0)
    return {"preparing": row["preparing_us"], "computing": computing,
            "pureComputing": _round(computing - row["overlapped_us"]), "communication": row["communication_us"],
            "notOverlapped": row["overlapped_us"], "overlapped": alone, "free": free, "stage": row["stage_us"],
            "bubble": row["bubble_us"], "computingRatio": ratio(computing),
            "communicationRatio": ratio(row["communication_us"])}


def _statistic(row: dict) -> dict:
    """The figures a fold keeps (StepStatistic), npuTime being computing + communication not overlapped + free."""
    return {"computing": row["computing_us"], "communication": row["communication_us"],
            "overlapped": row["communication_not_overlapped_us"], "free": row["free_us"],
            "npuTime": row["computing_us"] + row["communication_not_overlapped_us"] + row["free_us"]}


def fold(highs: dict[int, dict], lows: dict[int, dict], width: int, count: int) -> tuple[dict, dict]:
    """Each run of ``width`` consecutive indexes below ``count`` folded to one (index // width): the max of
    their highs and the min of their lows; a run without figures or computing is left out."""
    folded_highs, folded_lows = {}, {}
    for start in range(0, count, width):
        members = [i for i in range(start, min(start + width, count)) if i in highs]
        if not members:
            continue
        high = {key: max(highs[i][key] for i in members) for key in FOLDED}
        if high["computing"] != 0:
            folded_highs[start // width] = high
            folded_lows[start // width] = {key: min(lows[i][key] for i in members) for key in FOLDED}
    return folded_highs, folded_lows


def spread(highs: dict[int, dict], lows: dict[int, dict]) -> dict[int, dict]:
    """Each folded group's max, min and range of each figure (CalculatePerformanceDataWith{Cp,Pp}Dimension)."""
    figures = {}
    for index, high in highs.items():
        low, found = lows[index], {}
        for key in ("computing", "communication", "free", "npuTime"):
            found |= {f"{key}Max": _round(high[key]), f"{key}Min": _round(low[key]),
                      f"{key}Range": _round(high[key] - low[key])}
        figures[index] = found | {"overlappedMax": _round(high["overlapped"]), "overlappedMin": _round(low["overlapped"])}
    return figures


def replicas(view: Layout, highs: dict[int, dict]) -> dict[int, dict]:
    """Per data-parallel replica, the sum over its pipeline stages of each stage's slowest figures
    (ReducePpPerformanceFor{Pp,Dp}Last, GetPerformanceResponseDataWithDpDimension)."""
    s = view.strategy
    figures = {}
    for replica in range(s.dp):
        # a stage's index among the folded groups: stage x replicas + replica, or replica x stages + stage
        stages = [replica * s.pp + pp if s.dp_last else pp * s.dp + replica for pp in range(s.pp)]
        held = [highs[i] for i in stages if i in highs]
        summed = {key: sum(high[key] for high in held) for key in ("computing", "communication", "overlapped", "free")}
        if summed["computing"] != 0:
            figures[replica] = {f"Sum of Max {key}": _round(value) for key, value in summed.items()}
    return figures


def figures(view: Layout, per_rank: list[dict]) -> dict[int, dict]:
    """Each element's figures in the view (index: the element's)."""
    if view.dimension == RANKS_VIEW:
        return {row["rank_id"]: rank_figures(row) for row in per_rank}
    s = view.strategy
    stats = {row["rank_id"]: _statistic(row) for row in per_rank}
    highs, lows = fold(stats, stats, s.tp, s.world_size)
    if view.dimension == "ep-dp-pp-cp":
        return spread(highs, lows)
    highs, lows = fold(highs, lows, s.cp, s.world_size // s.tp)
    if view.dimension == "ep-dp-pp":
        return spread(highs, lows)
    return replicas(view, highs)


#: the figures the advice weighs: (key in the ranks' view, the name the advice gives it, its subject)
ADVISED = (("computing", "Computing", "Computing"), ("overlapped", "Communication(Not Overlapped)", "Communication"),
           ("free", "Free", "Free"))
#: a spread above this share of the mean end-to-end time is an issue
ADVICE_SHARE = 0.05


def advice(view: Layout, found: dict[int, dict]) -> list[str]:
    """The ranks' view's advice: each figure whose max - min over the ranks passes 5 % of their mean
    computing + communication not overlapped + free + preparing, in the real server's words."""
    if view.dimension != RANKS_VIEW or not found:
        return []
    ranks_figures = list(found.values())
    mean = sum(f["computing"] + f["overlapped"] + f["free"] + max(0.0, f["preparing"])
               for f in ranks_figures) / len(ranks_figures)
    if mean == 0:
        return []
    said = []
    for key, name, subject in ADVISED:
        spread = max(f[key] for f in ranks_figures) - min(f[key] for f in ranks_figures)
        if spread / mean > ADVICE_SHARE:
            said.append(f'{subject} has some issues, because the max difference of "{name}" has reached '
                        f"{_round(spread):.6f}us.")
    return said


def step_of(params: Params, name: str = "step") -> int | None:
    """The step asked (``step``, or the baseline's ``baselineStep``): None for every step ("All" or empty)."""
    step = params.text(name, required=False)
    if step in (None, "All"):
        return None
    return params.integer(name)


def _measured(conn, view: Layout, run_id: int, step_id: int | None) -> tuple[dict[int, dict], dict[int, dict]]:
    """One cluster's figures and communication per element of the view, for a step or every step."""
    return (figures(view, rows(conn, "parallel_rank_time", run_id=run_id, step_id=step_id)),
            communication(view, rows(conn, "parallel_group_comm_time", run_id=run_id, step_id=step_id)))


def _paired(compare: dict[str, float], other: dict[str, float]) -> dict:
    """CompareData of two elements' figures, the diff as CalDiffIndicators makes it."""
    return {"compare": compare, "baseline": other,
            "diff": {key: _round(compare.get(key, 0) - other.get(key, 0)) for key in compare.keys() | other.keys()}}


def performance(conn, params: Params) -> dict:
    """parallelism/performance/data: the view's elements' figures, for every step or one; in compare mode paired
    with the baseline cluster's per element."""
    run_id = ranks.of_cluster(conn, params.text("clusterPath"))[0].run_id
    other, view = baseline.cluster_baseline(conn, params), layout(params)
    found, comm = _measured(conn, view, run_id, step_of(params))
    base_found, base_comm = ({}, {}) if other is None else _measured(conn, view, other[0].run_id,
                                                                     step_of(params, "baselineStep"))
    if not found and not base_found:
        # the real server's refusal (SummaryService.cpp QueryParallelismPerformanceInfo)
        raise InsightError("Fail to query parallelism performance info: the cluster has no step time"
                           + ("" if step_of(params) is None else f" for step {step_of(params)}"))
    if other is None:
        return {"performance": [{"index": index, "indicators": {"compare": shown, "baseline": {}, "diff": shown},
                                 "commTimeIndicator": {"compare": comm.get(index, {}), "baseline": {},
                                                       "diff": comm.get(index, {})}}
                                for index, shown in sorted(found.items())],
                "advice": advice(view, found)}
    return {"performance": [{"index": index, "indicators": _paired(found.get(index, {}), base_found.get(index, {})),
                             "commTimeIndicator": _paired(comm.get(index, {}), base_comm.get(index, {}))}
                            for index in sorted(found.keys() | base_found.keys())],
            # the real server advises only outside compare mode
            "advice": []}
