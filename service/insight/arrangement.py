"""parallelism/arrangement/all: the ranks of a cluster laid out by parallel group, on the Summary page.

The page (modules/cluster ``components/communicatorContainer/ParallelismGraph.tsx`` useFetchData,
``components/summary/Index.tsx`` getAllConnections; ``utils/RequestUtils.ts``
queryParallelismArrangementCancelable) sends the strategy (:mod:`strategy`) and the ``dimension``
unfolded: ``ep-dp`` shows one element per data-parallel replica, ``ep-dp-pp`` per replica and
pipeline stage, ``ep-dp-pp-cp`` per context-parallel rank of those, ``ep-dp-pp-cp-tp`` one per rank.
The layout is the real server's for Megatron-LM (``server/src/modules/summary/core/``
``MegatronParallelStrategyAlgorithm.cpp`` UpdateParallelDimension, GenerateArrangementByDimension,
GetConnectionsByMegatronToken; ``BaseParallelStrategyAlgorithm.cpp`` GetElementName,
GetElementPosition, GetElementContainRanks, Set*IndicatorAttr; ``ParallelStrategyAlgorithmHelper.cpp``
GenerateMaskedOrthogonalRankGroups, after Megatron-LM's own rank groups), the answer shaped as
``summary/protocol/SummaryProtocolUtil.cpp`` ToResponseJson<ParallelismArrangementResponse>.

Two departures, both where the real server's answer says nothing true: the orthogonal groups of a
folded view are those of its elements (the real server counts them over the whole world, repeating
groups), and the indicator "Communication(Not Overlapped and Exclude Receive)" is left out (the
warehouse's step time does not split receives out of the communication not overlapped).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from service.insight import ranks
from service.insight.protocol import InsightError, Params
from service.insight.strategy import Strategy, from_params

#: the kinds each dimension unfolds (BaseParallelStrategyAlgorithm::UpdateShowMap)
UNFOLDS = {"ep-dp": ("ep", "dp"), "ep-dp-pp": ("ep", "dp", "pp"), "ep-dp-pp-cp": ("ep", "dp", "pp", "cp"),
           "ep-dp-pp-cp-tp": ("ep", "dp", "pp", "cp", "tp", "moe_tp")}
RANKS_VIEW = "ep-dp-pp-cp-tp"
#: the order of an element's name (LAYOUT)
NAME_ORDER = ("dp", "pp", "cp", "tp")
#: Megatron-LM's groups without and with the expert-parallel kind, and their names (tokenExceptEp, tokenWithEp)
TOKENS = (("dp", "dp"), ("cp", "cp"), ("tp", "tp"), ("pp", "pp"), ("dp-cp", "dp-cp"), ("tp-pp", "mp"),
          ("tp-dp-cp", "tp-dp-cp"), ("tp-dp", "tp-dp"), ("tp-cp", "tp-cp"))
EP_TOKENS = (("ep", "exp"), ("tp-ep", "tp_exp"), ("dp", "dp_modulo_exp"), ("dp-cp", "dp_modulo_exp_cp"),
             ("tp-ep-pp", "mp_exp"))
NPU_TIME = "Computing + Communication(Not Overlapped) + Free"
#: the most ranks a view lays out (the real server takes a million; every view lists each rank once, the
#: ranks' view some ten groups through each: a million is more than a page draws or a frame should carry)
MAX_RANKS = 65_536


def _indicator(key: str, name: str, heat: bool, chart: bool, visible: bool, kind: str = "bar", stack: str = "",
               axis: str = "time") -> dict:
    return {"key": key, "name": name, "renderHeatMap": heat, "renderChart": chart, "visible": visible, "chart": kind,
            "stack": stack, "yAxisType": axis}


def _folded_indicators() -> list[dict]:
    """The statistics of a folded group (SetCpIndicatorAttr, SetPpIndicatorAttr): max, min and range."""
    figures = (("computing", "Computing"), ("communication", "Communication"), ("free", "Free"), ("npuTime", NPU_TIME))
    found = [_indicator(f"{key}Max", f"Max {name}", True, True, key != "npuTime") for key, name in figures]
    found += [_indicator(f"{key}Min", f"Min {name}", True, False, key == "computing") for key, name in figures]
    found += [_indicator(f"{key}Range", f"{name} Range", True, False, key == "computing") for key, name in figures]
    # the real server's key "overlapped" holds the communication not overlapped (ClusterDef.h)
    return found + [_indicator("overlappedMax", "Max Communication(Not Overlapped)", True, False, False),
                    _indicator("overlappedMin", "Min Communication(Not Overlapped)", True, False, False)]


#: the figures each dimension shows per element (Set*IndicatorAttr)
INDICATORS = {
    RANKS_VIEW: [
        _indicator("computing", "Computing", True, False, True),
        _indicator("communication", "Communication", True, False, True),
        _indicator("pureComputing", "Computing(Not Overlapped)", True, True, True, stack="time"),
        # the real server's keys "notOverlapped" and "overlapped" hold the names' opposites (ClusterDef.h)
        _indicator("notOverlapped", "Computing/Communication Overlapped", True, True, True, stack="time"),
        _indicator("overlapped", "Communication(Not Overlapped)", True, True, True, stack="time"),
        _indicator("free", "Free", True, True, True, stack="time"),
        _indicator("preparing", "Preparing", True, True, True, stack="time"),
        _indicator("stage", "Stage", True, False, False),
        _indicator("bubble", "Bubble", True, False, False),
        _indicator("computingRatio", "Computing Ratio", False, True, True, "line", axis="ratio"),
        _indicator("communicationRatio", "Communication Ratio", False, True, True, "line", axis="ratio"),
    ],
    "ep-dp-pp-cp": _folded_indicators(),
    "ep-dp-pp": _folded_indicators(),
    "ep-dp": [_indicator(f"Sum of Max {key}", f"Sum of Max {name}", True, True, True)
              for key, name in (("computing", "Computing"), ("communication", "Communication"), ("free", "Free"))]
    + [_indicator("Sum of Max overlapped", "Sum of Max Communication(Not Overlapped)", True, False, False)],
}


@dataclass(frozen=True)
class Layout:
    """A strategy seen in one dimension: the kinds unfolded (``shown``, those of size above 1) and the rest
    folded to size 1, in Megatron-LM's rank order (tensor fastest)."""

    strategy: Strategy
    dimension: str

    @property
    def shown(self) -> dict[str, int]:
        sizes = {kind: getattr(self.strategy, kind) for kind in UNFOLDS[self.dimension]}
        return {kind: size for kind, size in sizes.items() if size > 1}

    def size(self, kind: str) -> int:
        """The kind's size in this view (1 when folded)."""
        return self.shown.get(kind, 1)

    @property
    def order(self) -> tuple[str, ...]:
        return ("tp", "cp", "pp", "dp") if self.strategy.dp_last else ("tp", "cp", "dp", "pp")

    @property
    def order_with_ep(self) -> tuple[str, ...]:
        """The order with the expert-parallel kind inside the data-parallel one (paraOrderWithEp)."""
        order = list(self.order)
        order.insert(3 if self.strategy.dp_last else 2, "ep")
        return tuple(order)

    @property
    def elements(self) -> int:
        return math.prod(self.size(kind) for kind in self.order)

    def place(self, index: int) -> dict[str, int]:
        """The element's index in each kind of group (its ``attribute``, without the suffix)."""
        place, rest = {}, index
        for kind in self.order:
            place[kind], rest = rest % self.size(kind), rest // self.size(kind)
        place["ep"] = place["dp"] // (self.size("dp") // self.size("ep"))
        return {kind: place[kind] for kind in self.order_with_ep}

    def rank(self, dp: int, pp: int, cp: int, tp: int) -> int:
        """The global rank at that place in the whole world (CalculateContainingRanksByAttrs)."""
        s = self.strategy
        if s.dp_last:
            return s.tp * s.cp * s.pp * dp + s.tp * s.cp * pp + s.tp * cp + tp
        return s.tp * s.cp * s.dp * pp + s.tp * s.cp * dp + s.tp * cp + tp

    def ranks(self, index: int, place: dict[str, int]) -> tuple[list[int], str]:
        """The ranks an element holds and their text (GetElementContainRanks): intervals, one per stage
        where a folded pipeline splits them."""
        s = self.strategy
        if s.world_size <= 1:
            return [], ""
        if self.dimension == RANKS_VIEW:
            return [index], str(index)
        unfolded = UNFOLDS[self.dimension]
        stages = [place["pp"]] if "cp" in unfolded or "pp" in unfolded else list(range(s.pp))
        cps = (place["cp"], place["cp"]) if "cp" in unfolded else (0, s.cp - 1)
        if len(stages) > 1 and s.dp_last:
            spans = [(self.rank(place["dp"], stages[0], cps[0], 0), self.rank(place["dp"], stages[-1], cps[1], s.tp - 1))]
        else:
            spans = [(self.rank(place["dp"], pp, cps[0], 0), self.rank(place["dp"], pp, cps[1], s.tp - 1))
                     for pp in stages]
        held = [rank for start, end in spans for rank in range(start, end + 1)]
        return held, ",".join(_interval(start, end) for start, end in spans)

    def element(self, index: int) -> dict:
        """One element of the arrangement (GetPerArrangement)."""
        place = self.place(index)
        name = "-".join(f"{kind}{place[kind]}" for kind in NAME_ORDER if kind in self.shown)
        held, text = self.ranks(index, place)
        x = place["dp"] * self.size("tp") * self.size("cp") + place["cp"] * self.size("tp") + place["tp"]
        return {"index": index, "name": name, "position": {"x": x, "y": place["pp"]},
                "attribute": {f"{kind}Index": value for kind, value in place.items()},
                "formattedRanks": text, "ranks": held}

    def connections(self) -> list[dict]:
        """The parallel groups between elements (GetConnectionsByTokenList); none in the replicas' view or
        when the strategy is one rank."""
        if self.strategy.world_size <= 1 or self.dimension == "ep-dp":
            return []
        found = self._groups(TOKENS, self.order, lambda kind: self.size(kind))
        if "ep" in self.shown:
            found += self._groups(EP_TOKENS, self.order_with_ep,
                                  lambda kind: self.size("dp") // self.size("ep") if kind == "dp" else self.size(kind))
        return found

    def _groups(self, tokens, order, size_of) -> list[dict]:
        order = [kind for kind in order if kind in self.shown]
        sizes = [size_of(kind) for kind in order]
        found = []
        for token, name in tokens:
            kinds = token.split("-")
            if all(kind in self.shown for kind in kinds):
                found += [{"type": name, "list": group, "group": []}
                          for group in orthogonal_groups(sizes, [kind in kinds for kind in order])]
        return found


def _interval(start: int, end: int) -> str:
    """FormatRanksForInterval: "3", "3,4" or "3-6"."""
    if start == end:
        return str(start)
    return f"{start},{end}" if end - start == 1 else f"{start}-{end}"


def orthogonal_groups(sizes: list[int], mask: list[bool]) -> list[list[int]]:
    """Megatron-LM's rank groups: the indexes that differ only in the kinds ``mask`` marks, ``sizes``
    being each kind's size, fastest first (GenerateMaskedOrthogonalRankGroups)."""
    strides = [math.prod(sizes[:i]) for i in range(len(sizes))]
    inside = [(size, stride) for size, stride, marked in zip(sizes, strides, mask) if marked]
    outside = [(size, stride) for size, stride, marked in zip(sizes, strides, mask) if not marked]
    return [[_offset(member, inside) + _offset(group, outside) for member in range(math.prod(s for s, _ in inside))]
            for group in range(math.prod(s for s, _ in outside))]


def _offset(index: int, shape: list[tuple[int, int]]) -> int:
    """The global index of ``index`` decomposed over ``shape`` (size, stride), fastest first."""
    offset = 0
    for size, stride in shape:
        index, digit = divmod(index, size)
        offset += digit * stride
    return offset


def layout(params: Params) -> Layout:
    """The strategy and dimension a request states."""
    dimension = params.text("dimension")
    if dimension not in UNFOLDS:
        raise InsightError(f"dimension must be one of {', '.join(UNFOLDS)}, not {dimension!r}")
    view = Layout(from_params(params), dimension)
    if view.strategy.world_size > MAX_RANKS:
        raise InsightError(f"the strategy lays out {view.strategy.world_size} ranks, more than the {MAX_RANKS} "
                           "a view answers")
    return view


def arrangement(conn, params: Params) -> dict:
    """parallelism/arrangement/all: the elements of the view, the figures it can show, the groups between
    the elements and each rank's file."""
    cards = ranks.of_cluster(conn, params.text("clusterPath"))
    view = layout(params)
    return {"size": view.elements, "arrangements": [view.element(index) for index in range(view.elements)],
            "indicators": INDICATORS[view.dimension],
            "rankDbPathList": [{"rankId": str(card.rank_id), "dbPath": card.path} for card in cards],
            "connections": view.connections()}
