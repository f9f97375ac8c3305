"""MindSpore clusters for the tests of the rules that judge one (MindInsight's parallel proposer's findings):
MindInsight's real cluster_propose sample ingested from a copy, and a cluster's analysis files written by
the factory."""

from __future__ import annotations

import shutil

from tests.factories.mindspore_summaries import ClusterAnalyseFactory
from warehouse.ingest import ingest_paths


def ingest_cluster_propose(conn, realdata, tmp_path) -> None:
    """Ingest a copy of cluster_propose (4 ranks in 2 pipeline stages, MindInsight's
    tests/st/func/profiler/test_parallel_proposer.py's files)."""
    shutil.copytree(realdata / "mindinsight" / "cluster_propose", tmp_path / "cluster_propose")
    ingest_paths(conn, [tmp_path / "cluster_propose"])


def cluster_files(folder, mode: str, ranks, rows=(("6.0", "0.1"),)) -> None:
    """The cluster analysis file of each of ``ranks`` in a run of ``mode`` with 1 stage and 2 ranks, whose
    records are ``rows`` (computation and communication alone, ms)."""
    for rank in ranks:
        ClusterAnalyseFactory(path=folder / f"ascend_cluster_analyse_{mode}_1_2_{rank}.csv",
                              header=("computation_time", "communication_alone_time"), rows=[list(r) for r in rows])
