"""A warehouse holding a planted 1 MiB repetitive name, built by the real ingest from the factories, and
the searches that against it took a server to gigabytes (issue 32, case 6); for the memory tests of the
name search in REST (tests/service) and Datasette (tests/datasette).

FTS5 holds every trigram's positions in a name at once: a search of n characters against the planted
name held ~n/2 MB before the search was bounded, and glibc kept it resident, per server thread.
"""

from __future__ import annotations

import resource
from pathlib import Path

from click.testing import CliRunner

from factories.trace_json import EventFactory, TraceFileFactory
from warehouse.cli import cli

#: 1 MiB of "ab": the longest name the ingest takes (MAX_STRING_BYTES), each trigram in it ~500,000 times
PLANTED = "ab" * 2**19
#: eleven searches of 200 to 600 characters, each a piece of the planted name (so each finds it)
TEXTS = tuple("ab" * n for n in (100, 150, 200, 250, 300, 100, 150, 200, 250, 300, 300))
#: the server's peak resident memory must stay under this (as tests/service/test_limits.py's; it is ~150 MB)
RSS_CAP_MB = 600
#: the address space a server gets: past it an allocation fails instead of filling the machine
ADDRESS_SPACE = 4 * 2**30


def planted_warehouse(folder: Path) -> Path:
    """A warehouse of one run ``planted``: one trace whose slices are the planted name (1), FlashAttentionScore
    (2) and MatMul (1)."""
    trace = TraceFileFactory(path=folder / "planted" / "trace.json", events=[
        EventFactory(name=PLANTED), EventFactory(name="FlashAttentionScore"),
        EventFactory(name="FlashAttentionScore"), EventFactory(name="MatMul")])
    warehouse = folder / "planted.db"
    result = CliRunner().invoke(cli, ["ingest", str(trace), "--db", str(warehouse), "--run", "planted", "-q"])
    assert result.exit_code == 0, result.output
    return warehouse


def bound_memory(pid: int) -> None:
    """Cap the address space of the server process ``pid`` (:data:`ADDRESS_SPACE`)."""
    resource.prlimit(pid, resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory (``VmHWM`` of /proc/<pid>/status), in MB."""
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
