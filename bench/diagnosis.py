"""Benchmark of the diagnosis: each rule, `warehouse analyze` (all rules, one transaction) and the report.

Builds the synthetic cluster of bench/cluster_queries.py (--ranks x --per-rank kernels, steps,
HCCL operators), gives its compute kernels a layer pattern (norm, matmul, attention, matmul, norm,
matmul x 3) so that the segmentation has layers to find, and prints the CPU time of each rule query, of the whole analyze, of the step
breakdown with segmentation and of writing the HTML report. For scale: reference/PEERS.md saw
msprof-analyze `advisor` take 19 s on 2 real ranks.

Run: ``.venv/bin/python bench/diagnosis.py --ranks 8 --per-rank 125000``
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
import time
from pathlib import Path

from warehouse import db, report
from warehouse.analysis import findings
from warehouse.model.classify import load_rules
from warehouse.analysis.steps import step_breakdown

HERE = Path(__file__).parent
LAYER_PATTERN = (
    "UPDATE kernel SET category = CASE id % 8 WHEN 0 THEN 'compute.norm' WHEN 2 THEN 'attention.flash_score' "
    "WHEN 4 THEN 'compute.norm' ELSE 'compute.matmul' END WHERE op_class = 'aic'"
)


def cluster_queries():
    """bench/cluster_queries.py: its synthetic cluster (build) and the cluster's size arguments."""
    spec = importlib.util.spec_from_file_location("cluster_queries", HERE / "cluster_queries.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(label: str, function):
    started = time.process_time()
    result = function()
    print(f"{label:40s} {time.process_time() - started:6.2f} s CPU")
    return result


def main() -> None:
    cluster = cluster_queries()
    args = cluster.cluster_arguments(__doc__.splitlines()[0])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cluster.db"
        cluster.build(path, args.ranks, args.per_rank, args.steps)
        conn = db.connect(path)
        load_rules(conn)
        conn.execute(LAYER_PATTERN)
        for finding_type in findings.RULES:
            found = timed(f"rule {finding_type}", lambda: findings.evaluate(conn, finding_type))
            print(f"{'':40s} {len(found)} findings")
        counts = timed("warehouse analyze (every rule, written)", lambda: findings.analyze(conn))
        print(f"{'':40s} {sum(counts.values())} findings")
        timed("step breakdown with segmentation", lambda: step_breakdown(conn))
        timed("report (HTML)", lambda: report.write(conn, path.name, Path(tmp) / "report.html"))
        print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
