"""Fuzz MindSpore's data pipeline files (MindData: the pipeline JSON and CSV, the CPU utilization JSON,
the device queue and GetNext text files, the AI CPU's raw GetNext records) and its summaries (hccl_raw
and cluster analyse CSVs, flops text, FLOPs, timeline summary, FLOPs per scope, dynamic shape and parallel
strategy JSONs, the device timeline), and MindInsight's marey graph and scope map JSONs kept beside them,
through the real ingest frame.

Each starts from the factory's valid file: byte mutations (truncations at every line end, or at every
comma of a one-line JSON, flipped bytes, non-UTF-8 and other hostile bytes), the text exports' CSV
mutations for the CSV, and, in the slow tier, a wrong-typed value in every field of the JSONs in turn.
:func:`fuzz.harness.ingest_hostile` asserts the clean end.
"""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories import minddata as md
from factories import mindspore as ms
from factories import mindspore_parallel as parallel
from factories import mindspore_summaries as summaries
from fuzz.harness import byte_mutations, dump, examples, ingest_hostile, json_paths, replace_at
from fuzz.test_fuzz_every_field import WRONG
from fuzz.test_fuzz_mindspore import shaped, written

#: every MindData file and MindSpore summary the warehouse reads, by shape: (factory, file name)
CSVS = [(md.PipelineCsvFactory, "minddata_pipeline_raw_0.csv"), (summaries.HcclRawFactory, "hccl_raw_0.csv"),
        (summaries.ClusterAnalyseFactory, "ascend_cluster_analyse_pipeline-parallel_2_4_0.csv"),
        (functools.partial(summaries.ClusterAnalyseFactory, phases=True), "ascend_cluster_analyse_data-parallel_1_1_1.csv"),
        (functools.partial(summaries.ClusterAnalyseFactory, older=True),
         "ascend_cluster_analyse_pipeline-parallel_1_2_1.csv")]
JSONS = [
    (md.PipelineProfilingFactory, "pipeline_profiling_0.json"),
    (md.CpuUtilizationFactory, "minddata_cpu_utilization_0.json"),
    (summaries.FlopsSummaryFactory, "flops_summary_0.json"),
    (summaries.TimelineSummaryFactory, "ascend_timeline_summary_0.json"),
    (functools.partial(summaries.TimelineSummaryFactory, older=True), "timeline_summary_0.json"),
    (summaries.FlopsScopeFactory, "flops_scope_0.json"),
    (summaries.DynamicShapeFactory, "dynamic_shape_info_0.json"),
    (parallel.ParallelStrategyFactory, "parallel_strategy_0.json"),
    (parallel.MareyTimelineFactory, "ascend_marey_timeline_1.json"),
    (parallel.ScopeMapFactory, "scope_map_1.json"),
    (summaries.ProfilerInfoFactory, "profiler_info_0.json"),
    (ms.TimelineDisplayFactory, "ascend_timeline_display_0.json"),
]
LINES = [
    (md.DeviceQueueFactory, "device_queue_profiling_0.txt"),
    (md.GetNextFactory, "minddata_aicpu_0.txt"),
    (summaries.FlopsFactory, "flops_0.txt"),
]
#: the AI CPU's raw GetNext records (NUL-ended)
NUL_ENDED = [(md.GetNextRawFactory, "DATA_PREPROCESS.dev.AICPUMI.0.slice_0")]
EXPORTS = CSVS + JSONS + LINES + NUL_ENDED


def _ends(data: bytes, mark: bytes) -> list[int]:
    """The offsets just past each ``mark`` byte of ``data``."""
    return [at + 1 for at in range(len(data)) if data[at:at + 1] == mark]


@pytest.mark.parametrize(("factory", "name"), CSVS, ids=[name for _, name in CSVS])
@examples(8)
@given(data=st.data())
def test_hostile_minddata_csv_ends_cleanly(factory, name, data):
    """A mangled minddata_pipeline_raw, hccl_raw or cluster analyse CSV ends as a clear failure or a sound ingest."""
    original = written(factory, name)
    ingest_hostile(name, data.draw(st.one_of(byte_mutations(original, _ends(original, b"\n")), shaped(original))))


#: the files of one-line records (text lines, cut at line ends), the one-line JSONs (cut at commas) and the
#: raw GetNext records (cut at their NULs)
RECORDS = ([(factory, name, b"\n") for factory, name in LINES] + [(factory, name, b",") for factory, name in JSONS]
           + [(factory, name, b"\x00") for factory, name in NUL_ENDED])


@pytest.mark.parametrize(("factory", "name", "mark"), RECORDS, ids=[name for _, name, _ in RECORDS])
@examples(8)
@given(data=st.data())
def test_hostile_minddata_file_ends_cleanly(factory, name, mark, data):
    """A mangled device queue, GetNext (text or raw) or FLOPs file, pipeline, CPU utilization, FLOPs, timeline
    summary, FLOPs scope, dynamic shape, parallel strategy, marey graph or scope map JSON ends as a clear failure
    or a sound ingest."""
    original = written(factory, name)
    ingest_hostile(name, data.draw(byte_mutations(original, _ends(original, mark))))


@pytest.mark.slow
@pytest.mark.parametrize(("factory", "name"), JSONS, ids=[name for _, name in JSONS])
def test_every_field_of_a_minddata_json(factory, name):
    document = json.loads(written(factory, name))
    for index, path in enumerate(json_paths(document)[1:]):
        ingest_hostile(name, dump(replace_at(document, path, WRONG[index % len(WRONG)])))
