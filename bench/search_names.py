"""Search by name in a big warehouse: the named query search_names and Datasette's search box.

Builds (once, kept at ``--db``) a warehouse from ``--ranks`` synthetic torch_npu traces of
``--events`` events in all (``warehouse.synth.trace_json``, as bench_trace_json.py writes them;
about 0.65 slices per event) plus one trace of ``--names`` distinct names (operator and kernel
names with an instance number, as per-call HCCL names are in real profiles; 1 to 3 slices each),
ingested with ``--jobs`` workers. Then prints the warehouse's slices and names and, on a
read-only connection as ``warehouse query`` opens it, the time of:

- ``search_names`` with ``text=FlashAttention`` (cold: the first on a new connection; warm: the
  median of ``--repeat``), and with ``Flash*`` and a 2-character text (no trigram: a full scan);
- the search Datasette's box runs on the string table (``_string_fts MATCH '"FlashAttention"'``);
- the name_use derivation of the largest input (what migration 0012 adds to its ingest), its
  statements rerun inside a transaction that is rolled back.

    .venv/bin/python bench/search_names.py --db /tmp/search10m.db   # 15M events, 8 ranks, 200k names: 10M slices
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from warehouse import db, ingest, queries
from warehouse.model.derived import count_names
from warehouse.synth.trace_json import KERNELS, OPERATORS, START_NS, write_trace

#: the names the vocabulary trace is made of, besides the synthetic traces' own
STEMS = ("FlashAttentionScore", "FlashAttentionScoreGrad", "aclnnFlashAttentionScore", "MatMulV3", "RmsNorm",
         "RotaryMul", "SwiGlu", "hcom_allReduce_", "hcom_allGather_", *KERNELS, *OPERATORS)
DATASETTE_SEARCH = ("SELECT count(*) FROM string WHERE rowid IN "
                    "(SELECT rowid FROM _string_fts WHERE _string_fts MATCH :search)")


def write_vocabulary(path: Path, names: int, seed: int = 0) -> int:
    """A trace of ``names`` distinct names on one thread, each on 1 to 3 slices; returns the events."""
    rnd = random.Random(seed)
    events, ts = [], START_NS // 1000
    for index in range(names):
        name = f"{rnd.choice(STEMS)}_{index}"
        for _ in range(rnd.randint(1, 3)):
            events.append({"ph": "X", "name": name, "cat": "cpu_op", "pid": 1, "tid": 1, "ts": ts, "dur": 1})
            ts += 2
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(events), encoding="utf-8")
    return len(events)


def build(db_path: Path, events: int, ranks: int, names: int, jobs: int) -> None:
    folder = db_path.with_suffix(".inputs")
    paths = []
    for rank in range(ranks):
        paths.append(folder / f"rank{rank}" / "trace_view.json")
        write_trace(paths[-1], events // ranks, seed=rank, rank=rank)
    paths.append(folder / "vocabulary" / "trace_view.json")
    write_vocabulary(paths[-1], names)
    conn = db.connect(db_path)
    started = time.perf_counter()
    results = ingest.ingest_paths(conn, paths, jobs=jobs)
    conn.close()
    failed = [r.error for r in results if r.status != "ok"]
    if failed:
        raise SystemExit(f"ingest failed: {failed}")
    print(f"built {db_path} in {time.perf_counter() - started:.1f} s ({jobs} jobs)")


def timed(run) -> tuple[float, object]:
    started = time.perf_counter()
    answer = run()
    return time.perf_counter() - started, answer


def search(path: Path, text: str, repeat: int) -> None:
    query = queries.get("search_names")
    conn = db.connect_readonly(path)
    cold, (_, rows) = timed(lambda: query.run(conn, {"text": text}))
    warm = statistics.median(timed(lambda: query.run(conn, {"text": text}))[0] for _ in range(repeat))
    conn.close()
    print(f"search_names text={text!r}: {len(rows)} rows; cold {cold * 1000:.1f} ms, warm {warm * 1000:.1f} ms")


def derivation(path: Path) -> None:
    conn = db.connect(path)
    source_id, rows = conn.execute("SELECT id, row_count FROM source ORDER BY row_count DESC LIMIT 1").fetchone()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("DELETE FROM name_use WHERE input_source_id = ?", (source_id,))
    elapsed, _ = timed(lambda: count_names(conn, source_id))
    conn.execute("ROLLBACK")
    conn.close()
    print(f"name_use of the largest input ({rows:,} rows): {elapsed:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=Path("/tmp/search_names.db"))
    parser.add_argument("--events", type=int, default=15_000_000)
    parser.add_argument("--ranks", type=int, default=8)
    parser.add_argument("--names", type=int, default=200_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not args.db.exists():
        build(args.db, args.events, args.ranks, args.names, args.jobs)
    conn = db.connect_readonly(args.db)
    slices, names = (conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ("_slice", "string"))
    datasette, matched = timed(lambda: conn.execute(DATASETTE_SEARCH, {"search": '"FlashAttention"'}).fetchone()[0])
    conn.close()
    print(f"{slices:,} slices, {names:,} names ({args.db.stat().st_size / 1e9:.2f} GB)")
    for text in ("FlashAttention", "Flash*", "Fl"):
        search(args.db, text, args.repeat)
    print(f"Datasette's search box (string, _search=FlashAttention): {matched} names in {datasette * 1000:.1f} ms")
    derivation(args.db)


if __name__ == "__main__":
    main()
