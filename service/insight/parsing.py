"""An import parsed in the background: ``parse/progress`` while it runs, then the cards' events.

The real server answers import/action at once and parses afterwards, pushing per card
``parse/progress`` (``fileId``: the card, ``parsedSize``/``totalSize`` in bytes, ``progress`` in
percent; ``server/src/modules/full_db/PaserFactory.cpp`` ParseProgressCallBack, shape
``timeline/protocol/TimelineProtocolUtil.cpp`` ToEventJson<ParseProgressEvent>) and, once done,
``parse/success`` or ``parse/fail`` (``rankId``, ``error``: ToEventJson<ParseFailEvent>). The page
shows a card's progress bar from the first and drops the card's "analyzing" state on the others
(``modules/timeline/src/connection/handler.ts`` parseProgressHandler, parseFailHandler).

Here the ingest runs in a thread of its own with its own writable connection, while the page's
requests keep being answered on their read-only ones. A card's figures are the bytes of its new
files read so far (every read of an input reports them: :func:`warehouse.sources.base.observe_reads`,
only this thread's reads counted), a file's last byte counted once it is ingested (its rows are
written after its last read); at most one event per card every :data:`PROGRESS_EVERY_S`, and one
as each file is in. Once every file is in, the same events as an import answered
after its ingest (:mod:`parse_events`, :func:`memory.memory_completed`) go out in one batch, then a
``parse/fail`` for each card planned that the ingest did not give (with its file's one-line
reason) and for each other file that failed (``rankId`` its path), then ``allPagesSuccess`` and the
expert heat map's event, as the real server tells them once every parse task ended. One import at a time
per warehouse (:func:`lock_of`).

``parse/cards`` is the page's "parse these cards" (a card's start button, the axis's, "Parse Cards of
Related Group": ``modules/timeline/src/components/ChartContainer/Units/UnitInfo.tsx``, ``TimeMakerAxis.tsx``,
``actions/actionParseCardsOfRelatedGroup.ts``; ``cards`` and ``dbPaths``), offered for a card not yet
parsed. The real server parses those of its cards an import left pending and skips any other
(``server/src/modules/timeline/handler/ParseCardsHandler.cpp``: QueryPendingFilePath empty), answering
``isContinueParse`` true (ToResponseJson<ParseCardsResponse>). An import here leaves nothing pending
(``isPending`` false: every file is ingested at once), so :func:`parse_cards` has nothing to start: the
cards' events come from their import.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from service.insight import cache, expert, memory, parse_events, ranks
from service.insight.planned import Planned
from service.insight.protocol import InsightError, Params
from warehouse import db, ingest
from warehouse.sources.base import observe_reads

PARSE_PROGRESS, PARSE_FAIL = "parse/progress", "parse/fail"
#: the least time between two parse/progress events of one card (a file done is told at once)
PROGRESS_EVERY_S = 0.2

log = logging.getLogger(__name__)

_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()

#: sends events to the page, nothing between them (the WebSocket's; raises when the page is gone)
Push = Callable[[list[dict]], None]
#: ingests the import's files with the writable connection it is given, calling back as each is done
IngestAll = Callable[[object, Callable[[Path], None]], list[ingest.FileResult]]


def lock_of(database: str) -> threading.Lock:
    """The lock one import into ``database`` holds while it writes."""
    with _locks_lock:
        return _locks.setdefault(str(database), threading.Lock())


class Progress:
    """Bytes read per planned card, told to the page as ``parse/progress``."""

    def __init__(self, planned: Planned, sizes: dict[Path, int], push: Push):
        self.card_of = {str(path): card for path, card in planned.card_of.items()}
        self.sizes = {str(path): size for path, size in sizes.items()}
        self.read: dict[str, int] = {}
        self.totals: dict[str, int] = {}
        for path, card in self.card_of.items():
            self.totals[card] = self.totals.get(card, 0) + self.sizes.get(path, 0)
        self.push = push
        self.told_at: dict[str, float] = {}

    def reads(self, path: Path, given: int, size: int) -> None:
        """A read of an input got to byte ``given`` (of ``size``): all but its last byte count until the
        file is in (what is read is still written after the last read)."""
        self._note(str(path), min(given, self.sizes.get(str(path), size) - 1), force=False)

    def done(self, path: Path) -> None:
        """A file is ingested (or failed): all of it counts as parsed."""
        self._note(str(path), self.sizes.get(str(path), 0), force=True)

    def _note(self, path: str, given: int, force: bool) -> None:
        card = self.card_of.get(path)
        if card is None or (given <= self.read.get(path, 0) and not force):
            return
        self.read[path] = max(given, self.read.get(path, 0))
        now = time.monotonic()
        if not force and now - self.told_at.get(card, 0.0) < PROGRESS_EVERY_S:
            return
        self.told_at[card] = now
        parsed = sum(read for name, read in self.read.items() if self.card_of[name] == card)
        total = self.totals[card]
        self.push([parse_events.envelope(PARSE_PROGRESS, {
            "fileId": card, "parsedSize": parsed, "totalSize": total,
            "progress": parsed * 100 // total if total else 100})])


def start(database: str, sizes: dict[Path, int], planned: Planned, paths: list[str], ingest_all: IngestAll,
          push: Push, aliases: dict[str, str]) -> None:
    """Run ``ingest_all`` (of the files ``sizes`` measures) in a thread, telling the page through
    ``push`` (its cards' ``aliases`` as they are when done); the caller holds :func:`lock_of`
    ``database``, the thread releases it."""
    thread = threading.Thread(target=_run, name="insight-import", daemon=True,
                              args=(database, sizes, planned, paths, ingest_all, push, aliases))
    try:
        thread.start()
    except BaseException:
        lock_of(database).release()
        raise


def _run(database, sizes, planned: Planned, paths, ingest_all: IngestAll, push: Push, aliases) -> None:
    lock = lock_of(database)
    told = _Told(push)
    progress = Progress(planned, sizes, told.push)
    me = threading.current_thread()

    def observe(path: Path, given: int, size: int) -> None:
        if threading.current_thread() is me:
            progress.reads(path, given, size)
        elif previous is not None:
            previous(path, given, size)

    previous = observe_reads(observe)
    try:
        writer = db.connect(database)
        try:
            results = ingest_all(writer, progress.done)
        finally:
            writer.close()
            cache.forget(database)
        events = finished(database, planned, paths, results, aliases)
    except Exception as exc:  # noqa: BLE001 - the page must hear of it; the cause goes to the log
        log.exception("the import of %s failed", ", ".join(paths))
        events = [failed(card.card_id, f"the import failed: {exc}") for card in planned.cards]
    finally:
        observe_reads(previous)
        lock.release()
    told.push(events)  # after the release: an import the page sends on hearing them finds the warehouse free


class _Told:
    """``push``, quiet once the page is gone (the ingest goes on: what it reads is kept)."""

    def __init__(self, push: Push):
        self._push = push
        self.gone = False

    def push(self, events: list[dict]) -> None:
        if self.gone or not events:
            return
        try:
            self._push(events)
        except Exception:  # noqa: BLE001 - a closed page: nobody to tell
            self.gone = True


def finished(database: str, planned: Planned, paths: list[str], results: list[ingest.FileResult],
             aliases: dict[str, str]) -> list[dict]:
    """The events of an import done: those of an import answered after its ingest, the failures told before
    the closing ones."""
    conn = db.connect_readonly(database)
    try:
        cards = ranks.of_paths(conn, paths)
        given = {card.card_id for card in cards}
        failures = {str(result.path): _one_line(result.error) for result in results if result.status == "failed"}
        told = []
        for card in planned.cards:
            if card.card_id not in given:
                reason = failures.pop(card.card_id, None) or next(
                    (failures.pop(str(path)) for path, of in planned.card_of.items()
                     if of == card.card_id and str(path) in failures), None)
                told.append(failed(card.card_id, reason or f"{card.path}: read, but it gave no timeline card here"))
        told.extend(failed(path, reason) for path, reason in failures.items())
        return completed(conn, cards, aliases, told)
    finally:
        conn.close()


def completed(conn, cards: list[ranks.RankCard], aliases: dict[str, str],
              failures: list[dict] | None = None) -> list[dict]:
    """What the page hears once ``cards`` are parsed: their lanes (with the aliases the page gave them),
    their clusters, operators, memory, then ``failures`` (the import's parse/fail events), then, when there is a
    card or a failure to tell, allPagesSuccess and the expert heat map's event (ParsePostProcess's order)."""
    told = (parse_events.parse_success(conn, cards, aliases) + parse_events.cluster_completed(cards)
            + parse_events.operator_completed(conn, cards) + memory.memory_completed(conn, cards) + (failures or []))
    if not cards and not failures:
        return told
    return told + [parse_events.all_pages_success(conn, cards)] + expert.heatmap_completed(conn, cards)


def failed(card_id: str, reason: str) -> dict:
    """parse/fail of one card."""
    return parse_events.envelope(PARSE_FAIL, {"rankId": card_id, "error": reason})


def _one_line(error: str | None) -> str:
    return (error or "could not be read").strip().splitlines()[0]


def parse_cards(conn, params: Params) -> dict:
    """parse/cards: nothing is pending (each import parses its files at once), so the answer only says go on."""
    for name in ("cards", "dbPaths"):
        given = params.values.get(name, [])
        if not isinstance(given, list) or not all(isinstance(value, str) for value in given):
            raise InsightError(f"parameter {name}: {given!r} is not a list of strings")
    return {"isContinueParse": True}
