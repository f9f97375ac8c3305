"""Fuzz MindSpore's intermediates (step trace, AI Core type and detail in their versions, framework_raw, the AI CPU table
and its CSV, the HWTS log's text dump, the kernel timeline, the older profiler's compute time tables) and raw files
(AI CPU records, HWTS log, training trace, the Framework host files, TDT records) through the real ingest frame.

Each starts from the factory's valid file: byte mutations (truncations at every line end or record
end, flipped bytes, non-UTF-8 and other hostile bytes) and, for the CSVs, the CSV-shaped ones of the
text exports (a column dropped, extra cells, a hostile cell). :func:`fuzz.harness.ingest_hostile`
asserts the clean end.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories import mindspore as ms
from fuzz.harness import byte_mutations, examples, ingest_hostile
from fuzz.test_fuzz_text_exports import csv_mutations

#: (factory, file name): every MindSpore intermediate the warehouse reads
EXPORTS = [
    (ms.StepTraceRawFactory, "step_trace_raw_0_detail_time.csv"),
    (ms.AicoreTypeFactory, "aicore_intermediate_0_type.csv"),
    (ms.AicoreDetailFactory, "aicore_intermediate_0_detail.csv"),
    (ms.AicpuRawFactory, "DATA_PREPROCESS.dev.AICPU.0.slice_0"),
    (ms.HwtsRawFactory, "hwts.log.data.45.dev.profiler_default_tag.0.slice_0"),
    (ms.TrainingTraceFactory, "training_trace.46.dev.profiler_default_tag.0.slice_0"),
    (ms.FrameworkRawFactory, "framework_raw_0.csv"),
    (ms.TaskDescFactory, "Framework.host.vm.task_desc_info.0.slice_0"),
    (ms.GraphDescFactory, "Framework.host.vm.graph_desc_info.0.slice_0"),
    (ms.PointFactory, "Framework.host.vm.point.0.slice_0"),
    (ms.AicpuTableFactory, "output_data_preprocess_aicpu_0.txt"),
    (ms.TdtRawFactory, "DATA_PREPROCESS.dev.TDT.0.slice_0"),
    (ms.HwtsTextFactory, "output_format_data_hwts_0.txt"),
    (ms.TimelineDataFactory, "output_timeline_data_0.txt"),
    (ms.AicpuIntermediateFactory, "aicpu_intermediate_0.csv"),
    (ms.OpComputeTimeFactory, "output_op_compute_time_0.txt"),
    (ms.OpComputeDetailFactory, "output_op_compute_time_detail_0.txt"),
    (functools.partial(ms.AicoreTypeFactory, older=True), "aicore_intermediate_1_type.csv"),
    (functools.partial(ms.AicoreDetailFactory, older=True), "aicore_intermediate_1_detail.csv"),
    (ms.AicpuExecutionTableFactory, "output_data_preprocess_aicpu_0.txt"),
]
#: the AI Core files (today's and older versions) and the AI CPU CSV are read by the text exports' CSV reader
#: (fuzzed with them): a few examples each
PLAIN_CSV = [*EXPORTS[1:3], EXPORTS[14], *EXPORTS[17:19]]
#: the HWTS log's text dump, the kernel timeline and the older profiler's compute time tables: lines of text
DUMPS = [*EXPORTS[12:14], *EXPORTS[15:17]]
#: the AI CPU text table, older and newer
AICPU_TABLES = [EXPORTS[10], EXPORTS[19]]
#: the Framework host files: lines of text
FRAMEWORK_HOST = EXPORTS[7:10]
#: the raw files: (factory, name, the byte each record ends at)
RAW = [
    (*EXPORTS[3], lambda data: [at + 1 for at in range(len(data)) if data[at] == 0]),
    (*EXPORTS[4], lambda data: list(range(64, len(data) + 1, 64))),
    (*EXPORTS[5], lambda data: list(range(20, len(data) + 1, 20))),
    (*EXPORTS[11], lambda data: [at + 1 for at in range(len(data)) if data[at] == 0]),
]


@functools.cache
def written(factory, name) -> bytes:
    """The factory's valid file."""
    with tempfile.TemporaryDirectory() as tmp:
        return Path(factory(path=Path(tmp) / name).path).read_bytes()


def shaped(data: bytes) -> st.SearchStrategy[bytes]:
    """The text exports' CSV mutations on a file of LF or CRLF line ends (kept as they were)."""
    if b"\r\n" in data:
        return csv_mutations(data)
    return csv_mutations(data.replace(b"\n", b"\r\n")).map(lambda mangled: mangled.replace(b"\r\n", b"\n"))


def _fuzz(factory, name, data) -> None:
    """Ingest one mangled version of the factory's file (see module doc)."""
    original = written(factory, name)
    line_ends = [i + 1 for i in range(len(original)) if original[i:i + 1] == b"\n"]
    ingest_hostile(name, data.draw(st.one_of(byte_mutations(original, line_ends), shaped(original))))


@examples(10)
@given(data=st.data())
def test_hostile_step_trace_ends_cleanly(data):
    """A mangled step trace ends as a clear failure or a sound ingest."""
    _fuzz(*EXPORTS[0], data)


@examples(8)
@given(data=st.data())
def test_hostile_framework_csv_ends_cleanly(data):
    """A mangled framework_raw CSV ends as a clear failure or a sound ingest."""
    _fuzz(*EXPORTS[6], data)


@pytest.mark.parametrize(("factory", "name"), AICPU_TABLES, ids=("older", "newer"))
@examples(5)
@given(data=st.data())
def test_hostile_ai_cpu_table_ends_cleanly(factory, name, data):
    """A mangled output_data_preprocess_aicpu table (either version) ends as a clear failure or a sound ingest."""
    _fuzz(factory, name, data)


@pytest.mark.parametrize(("factory", "name"), DUMPS, ids=[name for _, name in DUMPS])
@examples(5)
@given(data=st.data())
def test_hostile_text_table_ends_cleanly(factory, name, data):
    """A mangled HWTS text dump, kernel timeline, output_op_compute_time or its detail file ends as a clear failure
    or a sound ingest."""
    _fuzz(factory, name, data)


@pytest.mark.parametrize(("factory", "name"), FRAMEWORK_HOST, ids=[name.split(".")[3] for _, name in FRAMEWORK_HOST])
@examples(5)
@given(data=st.data())
def test_hostile_framework_host_file_ends_cleanly(factory, name, data):
    """A mangled Framework task, graph or point file ends as a clear failure or a sound ingest."""
    _fuzz(factory, name, data)


@pytest.mark.parametrize(("factory", "name"), PLAIN_CSV, ids=[name for _, name in PLAIN_CSV])
@examples(3)
@given(data=st.data())
def test_hostile_ai_core_file_ends_cleanly(factory, name, data):
    """A mangled AI Core type or detail file or AI CPU CSV ends as a clear failure or a sound ingest."""
    _fuzz(factory, name, data)


@pytest.mark.parametrize(("factory", "name", "ends"), RAW, ids=[name.split(".")[0] for _, name, _ in RAW])
@examples(8)
@given(data=st.data())
def test_hostile_raw_file_ends_cleanly(factory, name, ends, data):
    """A mangled AI CPU file, HWTS log, training trace or TDT file ends as a clear failure or a sound ingest."""
    original = written(factory, name)
    ingest_hostile(name, data.draw(byte_mutations(original, ends(original))))
