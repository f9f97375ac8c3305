"""The expert load balancing view (MoE) of MindStudio Insight's Summary page: each MoE layer's load per rank.

The view (Ascend/msinsight ``modules/cluster/src/components/summary/expert-load-balancing/index.tsx``)
shows "Profiling Expert Data Parsing..." until the event ``parse/heatmapCompleted`` gives
``parseResult`` (``modules/cluster/src/connection/handler.ts`` profilingExpertDataParsedHandler);
when true it asks ``summary/queryModelInfo`` then ``summary/queryExpertHotspot`` for the form's
layers, experts, stage and data version ("profiling"), and a Search asks the latter again
(``utils/RequestUtils.ts``, ``utils/interface.ts``; every request with ``clusterPath``).

The real server computes the profiling heat map once a project is parsed (``full_db/PaserFactory.cpp``
ParsePostProcess, ParseHeatMapToCluster: for each cluster, ``summary/core/ExpertHotspotManager.cpp``
UpdateHeatMapFromProfiling) from each rank's CANN layer APIs and grouped-matmul kernels, and sends
the event with ``parseResult`` true when one cluster gave it. Here that walk is the named queries
``insight_expert_model`` (whether each rank gives it, its last pass's layers) and
``insight_expert_hotspot`` (each MoE layer's grouped-matmul time per rank and stage): the event after
an import says whether a run imported gives it (:func:`heatmap_completed`). A training run's profile
has no layer API, so the event says false and the page leaves its "Parsing" state with an empty
chart, as the real server's: ExtractHeatMapFromTraceDb returns false on no CANN slice of those names
(ExpertHotspotManager.cpp line 410) or no grouped-matmul kernel (line 417), so ParsePostProcess sends
``parseResult`` false (PaserFactory.cpp line 436); GetModelInfo reads 0 for every figure it has none
of (line 224), and FillExpertInfo fills every cell of the form's grid empty (FillDenseLayerInfo, line 365;
line numbers at msinsight commit 4e16fca).

The model info is the profile's (UpdateHeatMapFromProfiling: the layers of the last pass, the ranks
as experts) until the form's Search sends its own, which ``summary/queryExpertHotspot`` keeps
(UpdateModelInfo, with its checks) for the session and cluster, as the real server keeps it in its
cluster database. The heat map is the real server's grid (FillExpertInfo): one cell per layer and
expert, ``expertId`` -1 and ``visits`` 0 where no data, each profiled MoE layer's load on its rank's
cell. The dump versions ("unbalanced", "balanced") come only from files a user imports
(``summary/importExpertData``: model_gen_config.json with prefill_N.csv/decode_N.csv, or
*_global_deployment.json; ``ExpertHotspotParser.cpp``, ``ExpertDeploymentParser.cpp``), which the
warehouse does not read: the import is refused with a message, and those versions draw the empty grid.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from service.insight import parse_events, ranks, strategy, timeline
from service.insight.protocol import InsightError, Params, rows

HEATMAP_COMPLETED = "parse/heatmapCompleted"
STAGES, VERSIONS, PROFILING = ("prefill", "decode"), ("unbalanced", "balanced", "profiling"), "profiling"
#: what the dump files the real server reads for importExpertData are (ClusterDef.h EXPERT_*_REG)
DUMP_FILES = ("model_gen_config.json with prefill_N.csv/decode_N.csv (expert hotspot dumps)",
              "prefill_global_deployment.json/decode_global_deployment.json (expert deployments)")


@dataclass(frozen=True)
class ModelInfo:
    """What the view knows of the model (ClusterDef.h ModelInfo)."""

    dense_layers: tuple[int, ...] = ()
    moe_layers: int = 0
    ranks: int = 0
    experts: int = 0
    layers: int = 0

    def body(self) -> dict:
        """summary/queryModelInfo's answer (SummaryProtocolUtil.cpp ToResponseJson<QueryModelInfoResponse>)."""
        return {"expertNum": self.experts, "layerNum": self.layers, "denseLayerList": list(self.dense_layers)}


@dataclass
class Profiled:
    """A run's profile as the heat map reads it: its model info and its MoE layers' loads (None: it gives none)."""

    model: ModelInfo = field(default_factory=ModelInfo)
    loads: list[dict] | None = None


def profiled(conn, run_id: int, rank_ids: list[int]) -> Profiled:
    """The run's heat map from its profile, as UpdateHeatMapFromProfiling computes it: none unless every rank
    (``rank_ids``) has the layer APIs and grouped-matmul kernels; the model info of the last rank's last pass (the
    ranks read in order, each pass's LmHead overwriting it; a rank whose walk breaks gives nothing), ``experts``
    the ranks."""
    found = {row["rank_id"]: row for row in rows(conn, "insight_expert_model", run_id=run_id)}
    if not rank_ids or any(rank < 0 or not (found.get(rank) or {}).get("has_lanes") for rank in rank_ids):
        return Profiled()  # a rank without them, or without a number (ExtractDigitRankIdFromHost), fails the run
    layers, dense = 0, ()
    for rank in sorted(rank_ids):
        if found[rank]["usable"] and found[rank]["model_layers"]:
            layers = found[rank]["model_layers"]
            dense = tuple(int(layer) for layer in found[rank]["dense_layers"].split(",") if layer)
    rank_count = max(rank_ids) + 1
    model = ModelInfo(dense, max(layers - len(dense), 0), rank_count, rank_count, layers)
    return Profiled(model, rows(conn, "insight_expert_hotspot", run_id=run_id))


def _run(conn, params: Params) -> tuple[str, list[ranks.RankCard]]:
    """(the ``clusterPath`` asked, its rank cards); :raises InsightError: when no run of several ranks is there."""
    cluster = params.text("clusterPath")
    return cluster, ranks.of_cluster(conn, cluster)


def _profiled_of(conn, cards: list[ranks.RankCard]) -> Profiled:
    """The cluster's heat map from its profile, kept for the warehouse's state (the form asks it at each Search)."""
    run_id, rank_ids = cards[0].run_id, [card.rank_id for card in cards]
    return timeline.warehouse_cache().summary(("expert heat map", run_id, tuple(rank_ids)),
                                              lambda: profiled(conn, run_id, rank_ids))


def _model(conn, params: Params) -> tuple[str, ModelInfo, Profiled]:
    """(the cluster, its model info: the session's when its Search gave one, else the profile's, its profile)."""
    cluster, cards = _run(conn, params)
    found = _profiled_of(conn, cards)
    return cluster, params.session.expert_models.get(cluster, found.model), found


def heatmap_completed(conn, cards: list[ranks.RankCard]) -> list[dict]:
    """parse/heatmapCompleted after ``cards`` are parsed: ``parseResult`` true when one of their runs gives a heat
    map (ParsePostProcess: result true, errorMsg empty); none when no rank card was parsed."""
    runs: dict[int, list[int]] = {}
    for card in cards:
        runs.setdefault(card.run_id, []).append(card.rank_id)
    if not runs:
        return []
    # uncached: an import's events are made by its background thread, outside the app the cache belongs to
    given = any(profiled(conn, run_id, rank_ids).loads is not None for run_id, rank_ids in runs.items())
    return [_heatmap_event(given)]


def _heatmap_event(given: bool) -> dict:
    """parse/heatmapCompleted saying whether a heat map was ``given``."""
    return parse_events.envelope(HEATMAP_COMPLETED, {"parseResult": given, "errorMsg": ""})


def strategy_and_heatmap(conn, params: Params) -> dict:
    """summary/query/parallelStrategy (:func:`strategy.query`), and parse/heatmapCompleted of its cluster again
    after the answer.

    The Summary page's frame (modules/cluster) is created once the cluster is parsed, so it can miss the event
    sent at the end of the import, and its expert view waits for it ("Profiling Expert Data Parsing...") for
    good: its session's ``profilingExpertDataParsed`` is set by that event alone (connection/handler.ts
    profilingExpertDataParsedHandler) and cleared when the frame loads (entity/session.ts
    resetForClusterChange). This command is the first the page sends once loaded (CommunicatorContainer.tsx's
    parallel strategy view), so the event is repeated for its ``clusterPath`` then."""
    body = strategy.query(conn, params)
    if params.session is not None:
        cards = ranks.of_cluster(conn, params.text("clusterPath"))
        params.session.events.append(_heatmap_event(_profiled_of(conn, cards).loads is not None))
    return body


def query_model_info(conn, params: Params) -> dict:
    """summary/queryModelInfo: the model's layers, experts and dense layers (QueryModelInfoHandler.cpp)."""
    return _model(conn, params)[1].body()


def _dense_layers(params: Params, layers: int) -> tuple[int, ...]:
    given = params.values.get("denseLayerList") or []
    if not isinstance(given, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in given):
        raise InsightError(f"denseLayerList must be a list of integers, not {given!r}")
    if any(layer >= layers for layer in given):
        raise InsightError("[Summary] The range of dense layer is out of layer number.")
    return tuple(given)


def _choice(params: Params, allowed: tuple[str, ...], name: str) -> str:
    value = params.text(name)
    if value not in allowed:
        raise InsightError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def query_expert_hotspot(conn, params: Params) -> dict:
    """summary/queryExpertHotspot: keeps the form's model info (UpdateModelInfo) and answers the heat map's cells
    (QueryExpertHotspotHandler.cpp; SummaryProtocolUtil.cpp ToResponseJson<QueryExpertHotspotResponse>)."""
    stage, version = _choice(params, STAGES, "modelStage"), _choice(params, VERSIONS, "version")
    layers, experts = params.integer("layerNum"), params.integer("expertNum")
    if layers <= 0 or experts <= 0:
        raise InsightError("[Summary] The number of layer and the number of expert must be greater than zero.")
    dense = _dense_layers(params, layers)
    cluster, current, found = _model(conn, params)
    if current.ranks and current.experts and current.experts != experts:
        raise InsightError("Fail to update model info, the number of expert number can't be modify.")
    if layers < current.moe_layers + len(dense):
        raise InsightError("Fail to update model info, "
                           "the sum of moe and dense layers is less than the total number of layers in the model.")
    model = replace(current, layers=layers, experts=experts, dense_layers=dense)
    params.session.expert_models[cluster] = model
    loads = [row for row in found.loads or () if row["model_stage"] == stage] if version == PROFILING else []
    return {"hotspotInfos": _cells(model, loads)}


def _cells(model: ModelInfo, loads: list[dict]) -> list[dict]:
    """The heat map's cells, layer by layer then expert by expert (FillExpertInfo). Without loads: ``experts`` cells
    a layer, each of rank 0; with a profile's: one cell per rank (CalHeatMap gives each rank one expert, its
    localExpertId 0), each profiled MoE layer's load in its rank's cell."""
    columns = model.ranks if loads else model.experts
    cells = [{"rankId": column if loads else 0, "visits": 0, "layer": layer, "expertId": -1, "expertIndex": column}
             for layer in range(model.layers) for column in range(columns)]
    moe_to_layer = [layer for layer in range(model.layers) if layer not in set(model.dense_layers)][:model.moe_layers]
    moe_to_layer += [0] * (model.moe_layers - len(moe_to_layer))  # CalMoeLayerMapping leaves the rest 0
    for load in loads:
        if load["moe_layer"] >= model.moe_layers or load["rank_id"] >= model.ranks:
            return []  # FillHotspotData: "Invalid hotspot data."
        layer, rank = moe_to_layer[load["moe_layer"]], load["rank_id"]
        cells[rank + layer * columns] = {"rankId": rank, "visits": load["visits_ns"], "layer": layer,
                                         "expertId": rank, "expertIndex": rank}
    return cells


def import_expert_data(conn, params: Params) -> dict:
    """summary/importExpertData: refused once its parameters are checked, the warehouse reads no expert dump file
    (ImportExpertDataHandler.cpp reads them with ExpertHotspotManager::InitExpertHotspotData)."""
    path = params.text("filePath")
    _choice(params, VERSIONS, "version")
    _run(conn, params)
    raise InsightError(f"the warehouse does not read MoE expert dump files ({'; '.join(DUMP_FILES)}): "
                       f"{path!r} was not imported")
