"""The rank cards an import will give, derived from its files before any is read.

The real server answers import/action at once with the cards its paths give and parses them
afterwards (Ascend/msinsight ``server/src/modules/timeline/handler/ImportActionHandler.cpp``;
``full_db/ProjectParse/ProjectParserDb.cpp`` and ``ProjectParserJson.cpp`` derive the ranks from
the files' paths). Here a file's card is what the ingest will make of it, as far as the path says:
its kind (:func:`warehouse.sources.detect_source`), its run (:func:`warehouse.model.runs.run_root`),
its rank and device (:mod:`warehouse.sources.kit.rank_layout`). A rank gets a card when one of its
files is of a kind answering the timeline (named query ``insight_timeline_kinds``); the card's id
is, as :mod:`service.insight.ranks` picks it once ingested, its first file of the best such kind. A
rank the warehouse holds already keeps its card. What the path cannot tell (a rank only the file's
content names) may differ once ingested: :mod:`service.insight.parsing` then says so per card.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from service.insight import ranks
from service.insight.protocol import rows
from warehouse.model.runs import run_root
from warehouse.sources import detect_source
from warehouse.sources.kit import rank_layout


@dataclass(frozen=True)
class Planned:
    """The cards an import will give, and which of them each new file feeds."""

    cards: list[ranks.RankCard]
    #: each new file's card id (files of a rank without a card are absent)
    card_of: dict[Path, str]


def kinds_of(files: list[Path]) -> dict[Path, str | None]:
    """Each file's kind as the ingest will detect it (None: no source reads it)."""
    found = {}
    for path in files:
        module = detect_source(path)
        found[path] = module.KIND if module else None
    return found


def plan(conn, files: list[Path], kinds: dict[Path, str | None], paths: list[str]) -> Planned:
    """The cards of ``paths`` (ingested before, as :func:`ranks.of_paths`) and of the new ``files``
    (in ingest order, of ``kinds``), in the order the cards will be listed after the ingest."""
    timeline = {row["kind"]: row["precedence"] for row in rows(conn, "insight_timeline_kinds")}
    known = ranks.listing(conn)
    held = {(card.run_root, card.rank_id): card for card in known}
    groups: dict[tuple[str, int], list[Path]] = {}
    devices: dict[tuple[str, int], int | None] = {}
    for path in files:
        layout = rank_layout.rank_or_unknown(path)
        key = (str(run_root(path)), layout.rank)
        groups.setdefault(key, []).append(path)
        if devices.get(key) is None:
            devices[key] = layout.device_id if layout.device_id is not None else rank_layout.device_from_layout(path)
    run_ranks: dict[str, set[int]] = {}
    for root, rank in list(held) + [key for key, group in groups.items() if _timeline(group, kinds, timeline)]:
        run_ranks.setdefault(root, set()).add(rank)
    cards = {card.card_id: card for card in ranks.of_paths(conn, paths)}
    card_of = {}
    for key, group in groups.items():
        card = held.get(key) or _new_card(key, group, kinds, timeline, len(run_ranks.get(key[0], ())), devices[key])
        if card is None:
            continue
        cards.setdefault(card.card_id, card)
        card_of.update((path, card.card_id) for path in group)
    # the listing's order: by run (existing runs first, new ones as the ingest meets them), then rank
    roots = list(dict.fromkeys([card.run_root for card in known] + [root for root, _ in groups]))
    listed = sorted(cards.values(), key=lambda card: (roots.index(card.run_root), card.rank_id))
    return Planned(listed, card_of)


def _timeline(group: list[Path], kinds: dict[Path, str | None], timeline: dict[str, int]) -> list[Path]:
    """The files of ``group`` of the best kind answering the timeline, in ingest order."""
    answering = [path for path in group if kinds[path] in timeline]
    best = min((timeline[kinds[path]] for path in answering), default=None)
    return [path for path in answering if timeline[kinds[path]] == best]


def _new_card(key: tuple[str, int], group: list[Path], kinds: dict[Path, str | None], timeline: dict[str, int],
              run_ranks: int, device_id: int | None) -> ranks.RankCard | None:
    """The card of a rank the warehouse does not hold yet (None: no file of it answers a timeline)."""
    answering = _timeline(group, kinds, timeline)
    if not answering:
        return None
    root, rank = key
    return ranks.RankCard(
        run_id=0, run_root=root, run_ranks=run_ranks, rank_id=rank, path=str(answering[0]), timeline_ids=(),
        kinds=frozenset(kinds[path] for path in group if kinds[path]), paths=frozenset(str(p) for p in group),
        source_ids=frozenset(), device_id=device_id)
