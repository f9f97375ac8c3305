"""The line ``warehouse ingest`` keeps on a terminal: what it reads and how far.

An ingest of a GB trace or of a cluster's folder takes minutes; without a word for all that time a
user cannot tell a slow ingest from a stuck one. On a terminal (the CLI decides: stderr a tty and no
``--quiet``) one line on stderr is redrawn in place, at most every :data:`REDRAW_S`: the stage (the
first answers of ``--answers-first``, then the ingest), the files done of the folder's, and each file
in hand with what is done to it (hashed, ingested, staged) and how many of its bytes were read, as
every read of an input reports them (:func:`warehouse.sources.base.observe_reads`). The line is wiped
before anything else is printed. Where no line is shown, every function here does nothing.

A file ingested by a worker process (``--jobs``) is read there: the worker sends what it does and
reads through a queue (:func:`worker_queue`, :func:`in_worker`), which the parent drains while it
waits for the worker's part (:func:`wait`) and whenever it draws.
"""

from __future__ import annotations

import queue
import shutil
import time
from collections.abc import Iterator
from concurrent.futures import Future
from concurrent.futures import wait as wait_for
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO, TypeVar

from warehouse.sources.base import observe_reads

T = TypeVar("T")

#: the least time between two redraws of the line (a file's last byte and a file done are drawn at once)
REDRAW_S = 0.1
#: wipes the terminal's line the cursor is on
WIPE = "\r\x1b[K"

_LINE: list[Line | None] = [None]  # this process's line, when it shows one
_TO_PARENT: list[object | None] = [None]  # a worker's queue to the parent's line


class Line:
    """The state of the line and its drawing on ``stream``."""

    def __init__(self, stream: TextIO, stage: str, total: int):
        self.stream = stream
        self.stage = stage
        self.total = total
        self.finished = 0
        #: each file in hand: [what is done to it, bytes read, bytes of the file, since when]
        self.files: dict[str, list] = {}
        #: the files done (a worker's last words on one may come after its part)
        self.gone: set[str] = set()
        self.queues: list = []
        self.drawn_at = 0.0
        self.drawn = ""

    def doing(self, path: str, what: str) -> None:
        self._doing(path, what)
        self.draw()

    def read(self, path: str, given: int, size: int) -> None:
        self.draw(force=self._read(path, given, size))

    def _doing(self, path: str, what: str) -> None:
        if path in self.gone:
            return
        held = self.files.get(path)
        if held is None or held[0] != what:  # a new step reads the file anew
            self.files[path] = [what, 0, 0, time.monotonic()]

    def _read(self, path: str, given: int, size: int) -> bool:
        """Note a read of a file in hand (not of one only looked at, a sidecar or a file's head while
        finding its kind); whether it read the file's last byte. A file hashed leaves the line."""
        held = self.files.get(path)
        if held is None:
            return False
        held[1:3] = [given, size]
        if held[0] == "hashing" and given >= size:
            del self.files[path]
        return given >= size

    def done(self, path: str) -> None:
        self.files.pop(path, None)
        self.gone.add(path)
        self.finished += 1
        self.draw(force=True)

    def drain(self) -> bool:
        """Apply what the workers sent; whether one of them read a file's last byte."""
        last_byte = False
        for source in self.queues:
            while True:
                try:
                    message = source.get_nowait()
                except (queue.Empty, OSError, EOFError):
                    break
                if message[0] == "read":
                    last_byte = self._read(*message[1:]) or last_byte
                else:
                    self._doing(*message[1:])
        return last_byte

    def draw(self, force: bool = False) -> None:
        force = self.drain() or force
        now = time.monotonic()
        if not force and now - self.drawn_at < REDRAW_S:
            return
        self.drawn_at = now
        text = self.text(now)[:shutil.get_terminal_size().columns - 1]
        if text != self.drawn:
            self.drawn = text
            self.stream.write(WIPE + text)
            self.stream.flush()

    def text(self, now: float) -> str:
        """The stage, the files done, and each file in hand: what, how far, for how long."""
        parts = [f"{self.stage} {self.finished}/{self.total} files"]
        for path, (what, given, size, since) in self.files.items():
            name = "/".join(Path(path).parts[-2:])
            part = f"{name}: {what}"
            if size:
                part += f", {given * 100 // size} % of {size / 1e6:.1f} MB read"
            parts.append(f"{part}, {now - since:.0f} s")
        return " | ".join(parts)

    def wipe(self) -> None:
        self.stream.write(WIPE)
        self.stream.flush()


@contextmanager
def shown(stream: TextIO, stage: str, total: int, *, enabled: bool) -> Iterator[None]:
    """Keep the line on ``stream`` while the block runs (nothing when not ``enabled``); wiped after it."""
    if not enabled:
        yield
        return
    line = Line(stream, stage, total)
    _LINE[0] = line
    previous = observe_reads(lambda path, given, size: line.read(str(path), given, size))
    try:
        line.draw(force=True)
        yield
    finally:
        observe_reads(previous)
        _LINE[0] = None
        line.wipe()


def doing(path: Path, what: str) -> None:
    """Say what is done to ``path`` now (hashing, ingesting, staging), in the parent or in a worker."""
    line, to_parent = _LINE[0], _TO_PARENT[0]
    if line:
        line.doing(str(path), what)
    elif to_parent is not None:
        to_parent.put(("doing", str(path), what))


def done(path: Path) -> None:
    """Count ``path`` as done: it leaves the line."""
    if _LINE[0]:
        _LINE[0].done(str(path))


def wait(future: Future[T]) -> T:
    """``future``'s result (a worker's part), the line kept up while it comes."""
    line = _LINE[0]
    while line and not future.done():
        wait_for([future], timeout=REDRAW_S)
        line.draw()
    return future.result()


def worker_queue(context) -> object | None:
    """A queue for the workers of a pool made with the multiprocessing ``context`` to report on
    (:func:`in_worker`), drained by this process's line; None when no line is shown."""
    line = _LINE[0]
    if line is None:
        return None
    made = context.Queue()
    line.queues.append(made)
    return made


def in_worker(to_parent) -> None:
    """In a worker process: send what it does and reads to the parent's line through ``to_parent``
    (from :func:`worker_queue`; None: the parent shows no line), a read at most every :data:`REDRAW_S`
    and its last byte always."""
    _LINE[0] = None  # a forked worker's copy of the parent's line is not its to draw
    _TO_PARENT[0] = to_parent
    if to_parent is None:
        observe_reads(None)
        return
    sent = [0.0]

    def send(path: Path, given: int, size: int) -> None:
        now = time.monotonic()
        if given >= size or now - sent[0] >= REDRAW_S:
            sent[0] = now
            to_parent.put(("read", str(path), given, size))

    observe_reads(send)
