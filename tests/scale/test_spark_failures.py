"""A Spark job that fails: said in one line, and a task Spark tries again does its work anew.

The Spark ingest's local default retries a failed task as a cluster does (``local[*,4]``), so a
group's ingest must give the same report on a second try over the part a failed try left; and a
failure in the JVM reaches the user as one line naming the dataset and the Java causes, not the
JVM's stack.
"""

from __future__ import annotations

import pytest

from factories.rank_db import RankDbFactory
from warehouse.engines import spark, spark_parts
from warehouse.errors import WarehouseError

pytestmark = pytest.mark.slow


def test_a_group_tried_again_reports_what_its_first_try_did(tmp_path):
    rank_db = tmp_path / "rank0_ascend_pt" / "ascend_pytorch_profiler_0.db"
    rank_db.parent.mkdir()
    RankDbFactory(path=rank_db, rank_id=0)
    task = {"group": 0, "files": [str(rank_db)], "part": str(tmp_path / "parts" / "g000000.db")}
    (tmp_path / "parts").mkdir()
    first = spark_parts.ingest_group(task)
    assert [(f["status"], f["kind"]) for f in first["files"]] == [("ok", "rank_db")]
    again = spark_parts.ingest_group(task)  # the part of the first try is still there
    assert again == first


def test_a_failure_in_the_jvm_is_one_line_with_its_causes(spark_session, tmp_path):
    with pytest.raises(WarehouseError) as raised, spark.failures_said(tmp_path / "dataset"):
        spark_session.sql("SELECT raise_error('the planted failure') AS x").collect()
    message = str(raised.value)
    assert message.startswith(f"{tmp_path / 'dataset'}: the Spark job failed: ")
    assert "the planted failure" in message
    assert "\n" not in message and "\tat " not in message


def test_an_error_not_from_the_jvm_passes_as_it_is(tmp_path):
    with pytest.raises(ValueError, match="^mine$"), spark.failures_said(tmp_path):
        raise ValueError("mine")
