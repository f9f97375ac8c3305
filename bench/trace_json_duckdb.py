"""Prototype (issue 36): a trace JSON's whole conversion done by DuckDB, its CPU against ``json.load``.

Runs, each in a child process of its own (so that peak RSS is the child's), on the same file:
``json.load``; and trace_json_duckdb.sql in a DuckDB bounded as the ingest's is
(:func:`warehouse.sources.kit.duck.engine`: 256 MB, one thread): the events read with
``read_json``, ts/dur converted to exact integer ns (the string split at the point, read as an
integer), phases classified, B/E pairs matched per thread as window functions, nesting depth and
parent over numpy columns (:func:`nesting`), flow events bound (ASOF joins, then :func:`climbed`)
and paired, counters, metadata, the names in interning order; then the warehouse's rows (slices, counters, flows,
threads, processes, counter tracks) written into a scratch SQLite file through the sqlite
extension, and copied from there into a fresh warehouse in one transaction, as an ingest would.
Prints each child's CPU seconds, the ratio, the CPU of each statement, and peak RSS.

With ``--compare WAREHOUSE`` (a fresh warehouse into which today's ingest read the same file),
it also says which of the prototype's rows differ from the warehouse's: slices (ts, dur, thread,
depth, parent, names, args), flows and counters.

    .venv/bin/python bench/trace_json_duckdb.py [--events 1000000] [--file F] [--repeat 3] [--compare W.db] [--loader]

``--loader`` also runs today's ingest of the trace (``trace_json.ingest`` and its commit, the Python
loader) in the same alternation, and says how much of it is the work the prototype does.

What it leaves out (bench/RESULTS.md, "Trace JSON through DuckDB": it costs more CPU than the
Python loader, so the ingest keeps the loader): the object and truncated shapes, ``.gz``, the
errors of hostile inputs, the limits, the steps, host API calls and run metadata, and args as the
file writes them (``read_json`` re-serialises JSON values: ``{"a": 1}`` becomes ``{"a":1}``).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SQL = Path(__file__).with_suffix(".sql")

JSON_LOAD = """
import json, resource, sys, time
cpu = time.process_time()
with open(sys.argv[1], "rb") as stream:
    events = json.load(stream)
print(json.dumps({"cpu_seconds": time.process_time() - cpu,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

LOADER = """
import json, resource, sys, time
from pathlib import Path
from warehouse import db
from warehouse.sources import trace_json
from warehouse.sources.trace_json import flows, loader
spent = {"flows": 0.0, "finish": 0.0}
def timed(owner, name, label):
    original = getattr(owner, name)
    def wrapper(*args, **kwargs):
        cpu = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - cpu
    setattr(owner, name, wrapper)
timed(flows, "insert_flows", "flows")
timed(loader.Loader, "_finish", "finish")
warehouse = Path(sys.argv[2])
for stale in warehouse.parent.glob(warehouse.name + "*"):
    stale.unlink()
conn = db.connect(str(warehouse))
conn.execute("PRAGMA foreign_keys = OFF")
conn.execute("BEGIN IMMEDIATE")
cpu = time.process_time()
trace_json.ingest(conn, sys.argv[1], 1)
conn.execute("COMMIT")
total = time.process_time() - cpu
print(json.dumps({"cpu_seconds": total, "same_work": total - spent["finish"] + spent["flows"],
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

#: the warehouse's rows, written into the scratch SQLite file (names: in interning order)
SCRATCH = (
    "CREATE TABLE scratch.slice AS SELECT sl.id, sl.thread_id, sl.ts, sl.dur, e.name, e.cat, e.cname, n.depth, "
    "n.parent_id, CAST(coalesce(sl.args, e.args) AS VARCHAR) AS args, sl.source_row "
    "FROM sl JOIN nest AS n USING (id) JOIN ev AS e ON e.idx = sl.source_row ORDER BY sl.id",
    "CREATE TABLE scratch.flow AS SELECT slice_out, slice_in, name, category, flow_key, ts_out, ts_in FROM fl "
    "ORDER BY walk_at",
    "CREATE TABLE scratch.counter AS SELECT t.id AS track_id, s.ts, s.value FROM samples AS s "
    "JOIN track AS t USING (process_id, series, key) ORDER BY s.idx, s.key_pos",
    "CREATE TABLE scratch.track AS SELECT id, process_id, series || '.' || key AS name FROM track ORDER BY id",
    "CREATE TABLE scratch.thread AS SELECT id, pid, tid FROM thr ORDER BY id",
    "CREATE TABLE scratch.process AS SELECT id, pid FROM proc ORDER BY id",
    "CREATE TABLE scratch.names AS SELECT value FROM names ORDER BY first_use",
)

#: the scratch rows copied into the warehouse (source 1, rank 0)
COPY = (
    "INSERT INTO string (value) SELECT value FROM scratch.names WHERE true ON CONFLICT DO NOTHING",
    "INSERT INTO process (id, source_id, rank_id, pid) SELECT id, 1, 0, pid FROM scratch.process",
    "INSERT INTO thread (id, process_id, source_id, tid) SELECT t.id, p.id, 1, t.tid FROM scratch.thread AS t "
    "JOIN scratch.process AS p USING (pid)",
    "INSERT INTO _slice (id, thread_id, ts, dur, name_id, category_id, cname_id, depth, parent_id, args, source_id, "
    "source_row) SELECT s.id, s.thread_id, s.ts, s.dur, n.id, c.id, m.id, s.depth, s.parent_id, s.args, 1, s.source_row "
    "FROM scratch.slice AS s LEFT JOIN string AS n ON n.value = s.name LEFT JOIN string AS c ON c.value = s.cat "
    "LEFT JOIN string AS m ON m.value = s.cname ORDER BY s.id",
    "INSERT INTO counter_track (id, source_id, rank_id, process_id, name) SELECT id, 1, 0, process_id, name "
    "FROM scratch.track",
    "INSERT INTO _counter (track_id, ts, value, source_id) SELECT track_id, ts, value, 1 FROM scratch.counter",
    "INSERT INTO flow (source_id, slice_out, slice_in, name, category, flow_key, ts_out, ts_in) "
    "SELECT 1, slice_out, slice_in, name, category, flow_key, ts_out, ts_in FROM scratch.flow",
)

#: the prototype's rows and the warehouse's, as comparable tuples (ids as the warehouse numbers them from 1)
COMPARED = {
    "slices": ("SELECT s.id, thread_id, ts, dur, n.value, c.value, m.value, depth, parent_id, args, source_row "
               "FROM _slice AS s LEFT JOIN string AS n ON n.id = s.name_id LEFT JOIN string AS c ON c.id = s.category_id "
               "LEFT JOIN string AS m ON m.id = s.cname_id ORDER BY s.id",
               "SELECT id, thread_id, ts, dur, name, cat, cname, depth, parent_id, args, source_row FROM slice ORDER BY id"),
    "slices without args": (
        "SELECT s.id, thread_id, ts, dur, n.value, c.value, m.value, depth, parent_id, source_row "
        "FROM _slice AS s LEFT JOIN string AS n ON n.id = s.name_id LEFT JOIN string AS c ON c.id = s.category_id "
        "LEFT JOIN string AS m ON m.id = s.cname_id ORDER BY s.id",
        "SELECT id, thread_id, ts, dur, name, cat, cname, depth, parent_id, source_row FROM slice ORDER BY id"),
    "flows": ("SELECT slice_out, slice_in, name, category, flow_key, ts_out, ts_in FROM flow ORDER BY id",
              "SELECT * FROM flow ORDER BY rowid"),
    "counters": ("SELECT track_id, ts, value FROM _counter ORDER BY rowid", "SELECT * FROM counter ORDER BY rowid"),
    "counter tracks": ("SELECT id, process_id, name FROM counter_track ORDER BY id", "SELECT * FROM track ORDER BY id"),
    "threads": ("SELECT t.id, p.pid, t.tid FROM thread AS t JOIN process AS p ON p.id = t.process_id ORDER BY t.id",
                "SELECT * FROM thread ORDER BY id"),
    "processes": ("SELECT id, pid FROM process ORDER BY id", "SELECT * FROM process ORDER BY id"),
    "names (interning order)": ("SELECT value FROM string ORDER BY id", "SELECT * FROM names"),
}


def nesting(ends, strict, first) -> tuple:
    """(parent index or -1, depth) of each slice, the slices in nesting order thread by thread.

    The parent is the nearest earlier slice of the thread ending at or after the slice's end
    (strictly after, for an instant: ``strict``); ``first`` marks each thread's first slice.
    Pointer jumping: a slice whose candidate ends too early takes the candidate's own candidate
    (every slice between them ends earlier still), all slices at once, until each candidate fits.
    """
    import numpy as np

    count = len(ends)
    candidate = np.arange(count, dtype=np.int64) - 1
    candidate[first] = -1
    active = np.flatnonzero(candidate >= 0)
    while len(active):
        at = candidate[active]
        fits = np.where(strict[active], ends[at] > ends[active], ends[at] >= ends[active])
        active = active[~fits]
        candidate[active] = candidate[candidate[active]]
        active = active[candidate[active] >= 0]
    jump, depth = candidate.copy(), (candidate >= 0).astype(np.int64)
    active = np.flatnonzero(jump >= 0)
    while len(active):  # list ranking: the depth is the number of parents up to the top
        up = jump[active]
        depth[active] += depth[up]
        jump[active] = jump[up]
        active = active[jump[active] >= 0]
    return candidate, depth


def climbed(con) -> dict:
    """source_row and slice_id of each enclosing flow event (table ``latest``): the latest slice of its
    thread starting at or before its ts, or the nearest of that slice's parents that covers ts (ends
    after it, or starts at it); NULL when none does. All events climb one level at a time together."""
    import numpy as np
    import pyarrow

    slices = con.execute("SELECT sl.id, sl.ts, sl.ts + sl.dur AS end_ts, coalesce(n.parent_id, -1) AS parent "
                         "FROM sl JOIN nest AS n USING (id) ORDER BY sl.id").fetchnumpy()
    events = con.execute("SELECT source_row, ts, coalesce(last_id, -1) AS last_id FROM latest").fetchnumpy()
    first = slices["id"][0] if len(slices["id"]) else 0  # ids are dense from the first
    at = np.where(events["last_id"] >= 0, events["last_id"] - first, -1)
    parent = np.where(slices["parent"] >= 0, slices["parent"] - first, -1)
    active = np.flatnonzero(at >= 0)
    while len(active):
        here = at[active]
        covers = (slices["end_ts"][here] > events["ts"][active]) | (slices["ts"][here] == events["ts"][active])
        active = active[~covers]
        at[active] = parent[at[active]]
        active = active[at[active] >= 0]
    found = pyarrow.array(np.where(at >= 0, at + first, 0), mask=at < 0)
    return {"source_row": events["source_row"], "slice_id": found}


def convert(path: str, scratch: str) -> dict:
    """The whole conversion in this process's bounded DuckDB; its CPU seconds by statement and peak RSS."""
    import resource
    import time

    import numpy as np
    import pyarrow

    from warehouse import sqlfiles
    from warehouse.sources.kit import duck

    cpu = time.process_time()
    con = duck.engine(REPO / "warehouse" / "sources" / "kit" / "csv_cells.sql")
    setup = time.process_time() - cpu
    cpu = time.process_time()
    ids = {"path": path, "first_slice": 1, "first_thread": 1, "first_process": 1, "first_track": 1}
    stages = {}
    for statement in sqlfiles.statements(SQL):
        at = time.process_time()
        if "FROM nest_columns" in statement:
            order = con.execute("SELECT id, ts + dur AS end_ts, dur = 0 AS strict, ord = 1 AS first "
                                "FROM sl ORDER BY thread_id, ord").fetchnumpy()
            parent, depth = nesting(order["end_ts"], order["strict"], order["first"])
            parent_id = pyarrow.array(order["id"][np.maximum(parent, 0)], mask=parent < 0)
            con.register("nest_columns", pyarrow.table({"id": order["id"], "depth": depth, "parent_id": parent_id}))
        if "JOIN climbed_columns" in statement:
            con.register("climbed_columns", pyarrow.table(climbed(con)))
        con.execute(statement, {key: value for key, value in ids.items() if "$" + key in statement})
        name = statement.split(" AS")[0].split()[-1]
        stages[name] = round(time.process_time() - at, 2)
    converted = time.process_time() - cpu
    at = time.process_time()
    con.execute(f"ATTACH {duck.literal(scratch)} AS scratch (TYPE sqlite)")
    for statement in SCRATCH:
        con.execute(statement)
    con.execute("DETACH scratch")
    stages["write scratch SQLite"] = round(time.process_time() - at, 2)
    total = time.process_time() - cpu
    rss_converted = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    stages["copy into the warehouse"] = copy(scratch, str(Path(scratch).with_name("trace_json_duckdb_warehouse.db")))
    return {"cpu_seconds": total, "copy_cpu_seconds": stages["copy into the warehouse"],
            "convert_cpu_seconds": converted, "engine_setup": setup, "stages": stages, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "converted_rss_mb": rss_converted}


def copy(scratch: str, warehouse: str) -> float:
    """CPU seconds of copying the scratch rows into a fresh warehouse in one transaction (the ingest's
    last step: strings interned, names joined to their ids, every index of the tables kept up)."""
    import time

    from warehouse import db

    for stale in Path(warehouse).parent.glob(Path(warehouse).name + "*"):
        stale.unlink()
    conn = db.connect(warehouse)
    conn.execute("PRAGMA foreign_keys = OFF")  # no source row: this copies only the trace's own tables
    conn.execute("ATTACH DATABASE ? AS scratch", (scratch,))
    cpu = time.process_time()
    conn.execute("BEGIN IMMEDIATE")
    for statement in COPY:
        conn.execute(statement)
    conn.execute("COMMIT")
    return round(time.process_time() - cpu, 2)


def child(code: str, *args: str) -> dict:
    """Run ``code`` (or this script with ``--convert``) in a fresh interpreter; its last stdout line is a JSON object."""
    command = [sys.executable, __file__, *args] if code == "--convert" else [sys.executable, "-c", code, *args]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(warehouse: Path, scratch: Path) -> list[str]:
    """One line per compared table: equal, or the first differing row and how many differ."""
    old = sqlite3.connect(f"{warehouse.resolve().as_uri()}?mode=ro", uri=True)
    new = sqlite3.connect(scratch)
    lines = []
    for label, (before, after) in COMPARED.items():
        differ, first, count = 0, None, 0
        for count, (a, b) in enumerate(zip(old.execute(before), new.execute(after)), 1):
            if a != b:
                differ += 1
                first = first or (a, b)
        rows = (old.execute(f"SELECT count(*) FROM ({before})").fetchone()[0],
                new.execute(f"SELECT count(*) FROM ({after})").fetchone()[0])
        state = "equal" if not differ and rows[0] == rows[1] else f"DIFF {differ} of {count} rows"
        shown = f"; first: {first[0]} | {first[1]}" if first else ""
        lines.append(f"{label}: {rows[0]} vs {rows[1]} rows, {state}{shown}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--file", type=Path, help="a bare-array trace (default: the synthetic one of --events)")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "bench_trace_json")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--compare", type=Path, help="a fresh warehouse today's ingest wrote from the same file")
    parser.add_argument("--loader", action="store_true",
                        help="also run today's trace_json.ingest (the Python loader) on the same file, alternated")
    parser.add_argument("--convert", nargs=2, metavar=("TRACE", "SCRATCH"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.convert:  # the child process of one conversion
        print(json.dumps(convert(*options.convert)))
        return
    trace = options.file
    if trace is None:
        from warehouse.synth.trace_json import write_trace

        options.dir.mkdir(parents=True, exist_ok=True)
        trace = options.dir / f"trace_{options.events}.json"
        if not trace.exists():
            write_trace(trace, options.events, seed=0)
    scratch = options.dir / "trace_json_duckdb_rows.db"
    duck_runs, load_runs, loader_runs = [], [], []
    for _ in range(options.repeat):  # alternated, the fastest of each kept
        scratch.unlink(missing_ok=True)
        duck_runs.append(child("--convert", "--convert", str(trace), str(scratch)))
        load_runs.append(child(JSON_LOAD, str(trace)))
        if options.loader:
            loader_runs.append(child(LOADER, str(trace), str(options.dir / "trace_json_loader_warehouse.db")))
    duck_best = min(duck_runs, key=lambda run: run["cpu_seconds"])
    load_best = min(load_runs, key=lambda run: run["cpu_seconds"])
    print(f"{trace} ({trace.stat().st_size / 1e6:.0f} MB), best of {options.repeat}:")
    print(f"  DuckDB whole conversion + scratch SQLite write: {duck_best['cpu_seconds']:.2f} CPU-s "
          f"(conversion {duck_best['convert_cpu_seconds']:.2f}; engine setup {duck_best['engine_setup']:.2f} apart), "
          f"peak RSS {duck_best['converted_rss_mb']:.0f} MB ({duck_best['peak_rss_mb']:.0f} MB with the copy)")
    print(f"  json.load: {load_best['cpu_seconds']:.2f} CPU-s, peak RSS {load_best['peak_rss_mb']:.0f} MB")
    print(f"  ratio: {duck_best['cpu_seconds'] / load_best['cpu_seconds']:.2f}x json.load")
    with_copy = duck_best["cpu_seconds"] + duck_best["copy_cpu_seconds"]
    print(f"  with the copy into a warehouse ({duck_best['copy_cpu_seconds']:.2f} CPU-s, migration apart): "
          f"{with_copy:.2f} CPU-s = {with_copy / load_best['cpu_seconds']:.2f}x json.load")
    if loader_runs:
        best = min(loader_runs, key=lambda run: run["cpu_seconds"])
        print(f"  today's loader (trace_json.ingest and commit): {best['cpu_seconds']:.2f} CPU-s = "
              f"{best['cpu_seconds'] / load_best['cpu_seconds']:.2f}x json.load, peak RSS {best['peak_rss_mb']:.0f} MB; "
              f"the prototype's work alone (no steps, host API calls, name use, run metadata): "
              f"{best['same_work']:.2f} CPU-s = {best['same_work'] / load_best['cpu_seconds']:.2f}x")
    print("  CPU-s per statement: " + ", ".join(f"{name} {cpu}" for name, cpu in duck_best["stages"].items()))
    if options.compare:
        for line in compare(options.compare, scratch):
            print("  " + line)


if __name__ == "__main__":
    main()
