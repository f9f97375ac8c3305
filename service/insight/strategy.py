"""The parallel strategy of a cluster on MindStudio Insight's Summary page: the one it was launched with, or the user's.

The page's form (modules/cluster ``components/communicatorContainer/CommunicatorContainer.tsx`` init,
clickGenerate; ``utils/RequestUtils.ts`` getParallelStrategy, setParallelStrategy; the parameters'
types in ``utils/interface.ts`` GetParallelStrategyRes) asks ``summary/query/parallelStrategy`` with
``clusterPath`` and sends the user's choice to ``summary/set/parallelStrategy``: ``algorithm``,
``tpSize``, ``ppSize``, ``dpSize`` (required, as the real server's ``protocol/SummaryProtocol.cpp``
ToSetParallelStrategyRequest), ``cpSize``, ``epSize``, ``moeTpSize`` (1 when not given). The checks
are the real server's (``communication/parser/ClusterDef.cpp`` ParallelStrategyConfig::CheckParams);
the answers are shaped as ``summary/protocol/SummaryProtocolUtil.cpp`` ToResponseJson
<QueryParallelStrategyResponse> and <SetParallelStrategyResponse>.

The run's own strategy is the named query ``parallel_strategy`` (its shape, run_shape, and its rank
order, rank_place), at ``level`` "collected" when the run says its shape, else "undefined" with
every size 1, as the real server (``VirtualClusterDatabase.cpp`` QueryParallelStrategyConfig). A
choice is kept per session and cluster folder (:class:`~service.insight.session.Session`), at level
"configured" (``SetParallelStrategyConfigHandler.cpp``); the views here lay out Megatron-LM's two rank
orders only (:mod:`arrangement`), so another algorithm is refused with a message.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.insight import ranks
from service.insight.protocol import InsightError, Params, one

#: Megatron-LM's rank orders (ClusterDef.h MEGATRON_LM_TP_CP_EP_DP_PP_ALG, MEGATRON_LM_TP_CP_PP_EP_DP_ALG)
PP_LAST, DP_LAST = "megatron-lm(tp-cp-ep-dp-pp)", "megatron-lm(tp-cp-pp-ep-dp)"
#: the algorithms the real server knows (ALGORITHMS_ALLOWED); only the first two are laid out here
KNOWN = (PP_LAST, DP_LAST, "mindspeed(tp-cp-ep-dp-pp)", "mindie-llm(tp-dp-ep-pp-moetp)", "vllm(tp-pp-dp-ep)")
MAX_PARALLEL_SIZE, MAX_WORLD_SIZE = 10_000, 1_000_000
#: the request and answer key of each size, and whether a request must give it
SIZES = {"tp": ("tpSize", True), "pp": ("ppSize", True), "dp": ("dpSize", True), "cp": ("cpSize", False),
         "ep": ("epSize", False), "moe_tp": ("moeTpSize", False)}


@dataclass(frozen=True)
class Strategy:
    """A parallel strategy: Megatron-LM's rank order and the size of each kind of parallel group."""

    algorithm: str
    tp: int
    pp: int
    dp: int
    cp: int = 1
    ep: int = 1
    moe_tp: int = 1

    @property
    def world_size(self) -> int:
        return self.tp * self.cp * self.dp * self.pp

    def body(self) -> dict:
        """The strategy under the protocol's keys (``algorithm``, ``tpSize``, ...)."""
        return {"algorithm": self.algorithm, **{key: getattr(self, size) for size, (key, _) in SIZES.items()}}

    @property
    def dp_last(self) -> bool:
        """True when pipeline stages are numbered inside a data-parallel replica (tp-cp-pp-ep-dp)."""
        return self.algorithm == DP_LAST


def from_params(params: Params) -> Strategy:
    """The strategy a request states, checked as the real server checks it."""
    algorithm = params.text("algorithm")
    if algorithm not in KNOWN:
        raise InsightError(f"Algorithm is not allowed: {algorithm!r} (known: {', '.join(KNOWN)})")
    if algorithm not in (PP_LAST, DP_LAST):
        raise InsightError(f"the parallel view lays out {PP_LAST} and {DP_LAST} only, not {algorithm}")
    sizes = {}
    for size, (key, required) in SIZES.items():
        sizes[size] = params.integer(key, required=required)
        sizes[size] = 1 if sizes[size] is None else sizes[size]
        if not 1 <= sizes[size] <= MAX_PARALLEL_SIZE:
            raise InsightError(f"{key} must be between 1 and {MAX_PARALLEL_SIZE}, not {sizes[size]}")
    strategy = Strategy(algorithm, **sizes)
    if strategy.world_size > MAX_WORLD_SIZE:
        raise InsightError(f"The product of PP size, TP size, DP size, and CP size must be less than {MAX_WORLD_SIZE}")
    if strategy.dp % strategy.ep:
        raise InsightError("DP size must be evenly divided by EP size for Megatron-LM")
    return strategy


def collected(conn, cluster_path: str) -> tuple[Strategy, str]:
    """The strategy the run at ``cluster_path`` says it was launched with, and its level."""
    run_id = ranks.of_cluster(conn, cluster_path)[0].run_id
    row = one(conn, "parallel_strategy", run_id=run_id)
    strategy = Strategy(row["algorithm"], row["tp_size"], row["pp_size"], row["dp_size"], row["cp_size"],
                        row["ep_size"])
    return strategy, "collected" if row["shape_known"] else "undefined"


def query(conn, params: Params) -> dict:
    """summary/query/parallelStrategy: the session's choice for the cluster, else the run's own."""
    cluster_path = params.text("clusterPath")
    chosen = params.session.strategies.get(cluster_path)
    if chosen is not None:
        ranks.of_cluster(conn, cluster_path)
        return {**chosen, "level": "configured"}
    strategy, level = collected(conn, cluster_path)
    return {**strategy.body(), "level": level}


def choose(conn, params: Params) -> dict:
    """summary/set/parallelStrategy: keep the user's strategy for the cluster in the session."""
    cluster_path = params.text("clusterPath")
    ranks.of_cluster(conn, cluster_path)
    params.session.strategies[cluster_path] = from_params(params).body()
    return {"result": True, "msg": ""}
