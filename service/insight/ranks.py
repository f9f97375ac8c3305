"""Rank cards: one card per rank of a training run, as MindStudio Insight's Timeline shows them.

The real server answers import/action with one card per rank, never per input file
(Ascend/msinsight ``server/src/modules/full_db/ProjectParse/ProjectParserDb.cpp``
SetBaseActionOfResponse, ``ProjectParserJson.cpp`` GetRankEntryMap and SetBaseAction). Here a rank
is a (run, rank) the warehouse holds (named query ``insight_rank_inputs``): a rank db and its
analysis.db, a text export's trace_view.json and its CSVs, a lone trace (rank -1), an msprof rank.

A card's id (``rankId``) and its ``dbPath`` are the path of the (first) input whose timeline
answers for the rank (``answer_source``; the rank's first input when none holds a timeline): it
does not change when other profiles are imported. The card's lanes are those of every input
answering its timeline (msprof writes one rank's timeline in several files), all on one time zero
(:meth:`service.insight.cache.WarehouseCache.start`), and a timeline command naming the card may
name any input of the rank (:func:`service.insight.cards.check_source`). As the real server:
``cardName`` is the rank number (the file's path when the rank is unknown, as ProjectParserJson
names a trace without profiler_info); ``cardPath`` is ``"Directory: "`` and the folder two levels
above the file (FileUtil::GetRankIdFromPath); ``cluster`` the run's folder name when the run has
several ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from service.insight.protocol import InsightError, Params, rows

#: ProjectTypeEnum of the real server (server/src/modules/defs/GlobalDefs.h)
DB, TEXT_CLUSTER, TRACE, DB_CLUSTER = 0, 3, 5, 6
#: kinds whose rank is a database project for the real server (ProjectParserDb: a torch_npu or msprof db);
#: the others are text (ProjectParserJson: trace_view.json, msprof's timeline JSONs, the CSVs)
DB_KINDS = frozenset({"rank_db", "analysis_db", "cluster_analysis_db"})
#: kinds holding what makes a text project more than a trace (ProjectParserJson CheckHasJsonMemoryDataOperatorData)
MEMORY_OR_OPERATOR_KINDS = frozenset({"memory_record_csv", "operator_memory_csv", "kernel_details_csv"})
UNKNOWN_RANK = -1


@dataclass(frozen=True)
class RankCard:
    """One rank of one run and its inputs."""

    run_id: int
    run_root: str
    run_ranks: int
    rank_id: int
    #: the first input whose timeline answers (else the rank's first input): the card's id and dbPath
    path: str
    #: the inputs whose timelines answer for the rank, in source order (none: a rank without a timeline)
    timeline_ids: tuple[int, ...]
    kinds: frozenset[str]
    paths: frozenset[str]
    source_ids: frozenset[int]
    device_id: int | None

    @property
    def card_id(self) -> str:
        return self.path

    @property
    def name(self) -> str:
        return self.path if self.rank_id == UNKNOWN_RANK else str(self.rank_id)

    @property
    def is_db(self) -> bool:
        return bool(self.kinds & DB_KINDS)

    @property
    def cluster(self) -> str:
        return PurePath(self.run_root).name if self.run_ranks > 1 else ""

    @property
    def project_type(self) -> int:
        if self.is_db:
            return DB_CLUSTER if self.run_ranks > 1 else DB
        return TEXT_CLUSTER if self.run_ranks > 1 else TRACE

    def rank_info(self) -> dict:
        """The card as the real server's RankInfo (GlobalDefs.h SerializationToJson), in its events."""
        return {"clusterId": self.cluster, "host": "", "rankId": self.card_id, "rankName": self.name,
                "deviceId": "" if self.device_id is None else str(self.device_id)}

    def action(self) -> dict:
        """The card as an import/action result (TimelineProtocolUtil.cpp BuildImportActionJson)."""
        folder = PurePath(self.path).parent
        return {"cardName": self.name, "rankId": self.card_id, "cardPath": f"Directory: {folder.parent.name}",
                "result": True, "dbPath": self.path, "cluster": self.cluster, "projectType": self.project_type,
                "dataPathList": [str(folder)], "host": ""}

    def tree_node(self) -> dict:
        """The card as a node of the project tree (ParseFileInfo::SerializeToJson, type RANK)."""
        return {"clusterPath": self.cluster, "rankId": self.card_id, "host": "", "filePath": self.path,
                "type": "RANK", "deviceId": "" if self.device_id is None else str(self.device_id),
                "fileDir": PurePath(self.path).parent.name, "children": []}

    def cluster_node(self) -> dict:
        """The node of the project tree holding the cards of this card's run of several ranks (type CLUSTER, its
        ``filePath`` the run's folder: what "Set as Baseline Data" on it sends, as the real server's
        ParseFileInfo of a cluster), without its children."""
        return {"clusterPath": self.cluster, "rankId": "", "host": "", "filePath": self.run_root, "type": "CLUSTER",
                "deviceId": "", "fileDir": self.cluster, "children": []}


def listing(conn) -> list[RankCard]:
    """Every rank card of the warehouse, by run then rank."""
    grouped: dict[tuple[int, int], list[dict]] = {}
    for row in rows(conn, "insight_rank_inputs"):
        grouped.setdefault((row["run_id"], row["rank_id"]), []).append(row)
    cards = []
    for inputs in grouped.values():
        timeline = [row for row in inputs if row["is_timeline"]]
        first = (timeline or inputs)[0]
        devices = [row["device_id"] for row in inputs if row["device_id"] is not None]
        cards.append(RankCard(
            run_id=first["run_id"], run_root=first["run_root"], run_ranks=first["run_ranks"],
            rank_id=first["rank_id"], path=first["path"], timeline_ids=tuple(row["source_id"] for row in timeline),
            kinds=frozenset(row["kind"] for row in inputs), paths=frozenset(row["path"] for row in inputs),
            source_ids=frozenset(row["source_id"] for row in inputs), device_id=devices[0] if devices else None))
    return cards


def of_operator_profile(card: dict) -> RankCard:
    """An operator profile's card (:func:`service.insight.cards.listing`) as a card of the Timeline: its own input,
    whose lanes are its trace's (a simulator's profile, block 0x02) or none (an on-board one), named by its path
    as the real server names it (ProjectParserBin.cpp: ``rankId`` the file, RankInfo of that id alone)."""
    path = card["cardPath"]
    return RankCard(run_id=0, run_root="", run_ranks=1, rank_id=UNKNOWN_RANK, path=path,
                    timeline_ids=(card["sourceId"],), kinds=frozenset({card["kind"]}), paths=frozenset({path}),
                    source_ids=frozenset({card["sourceId"]}), device_id=None)


def named(conn, card_id: str) -> RankCard | None:
    """The rank card whose id is ``card_id``, or None."""
    return next((card for card in listing(conn) if card.card_id == card_id), None)


def asked(conn, params: Params) -> RankCard:
    """The rank card a request names (``rankId``, else ``cardId`` or ``dbPath``: the card's id).

    :raises InsightError: if no rank card has that id (the answer lists the cards).
    """
    card_id = params.text("rankId", aliases=("cardId", "dbPath"))
    rank = named(conn, card_id)
    if rank is None:
        raise InsightError(f"unknown card {card_id!r}", cards=[card.card_id for card in listing(conn)])
    return rank


def of_paths(conn, paths: list[str]) -> list[RankCard]:
    """The rank cards holding any of ``paths`` (ingested now or before), in listing order."""
    wanted = set(paths)
    return [card for card in listing(conn) if card.paths & wanted]


def of_cluster(conn, cluster_path: str | None) -> list[RankCard]:
    """The rank cards of the run of several ranks whose folder is ``cluster_path`` (the cluster
    module's ``clusterPath``: the folder imported, as the real server's ClusterInfo parseFilePath).

    :raises InsightError: if no run of several ranks has that folder.
    """
    found = [card for card in listing(conn) if card.run_ranks > 1 and card.run_root == cluster_path]
    if not found:
        raise InsightError(f"no cluster at {cluster_path!r}: clusterPath names the folder of a run of several ranks")
    return found


def import_flags(cards: list[RankCard]) -> dict:
    """What import/action says of the ranks it imported, as the real server sets it: a cluster when a
    run has several ranks (ProjectParserDb::GetProjectType, ProjectParserJson::GetProjectType), only a
    trace JSON when a text project holds no memory or operator data and is no cluster
    (ProjectParserJson::Parser), several devices when one run's msprof ranks are on several
    (DbTraceDataBase.cpp: GetDeviceIdList(path).size() > 1)."""
    is_cluster = any(card.run_ranks > 1 for card in cards)
    text = [card for card in cards if not card.is_db]
    msprof_devices: dict[int, set[int]] = {}
    for card in cards:
        if "msprof_timeline" in card.kinds and card.device_id is not None:
            msprof_devices.setdefault(card.run_id, set()).add(card.device_id)
    return {
        "isCluster": is_cluster,
        "isOnlyTraceJson": bool(text) and not is_cluster and all(
            "trace_json" in card.kinds and not card.kinds & MEMORY_OR_OPERATOR_KINDS for card in text),
        "isMultiDevice": any(len(devices) > 1 for devices in msprof_devices.values()),
    }
