"""Fuzz a capture's metadata files (msprof's start_info and .done marks, MindSpore's host_start.log, min_cycle_counter and
step_trace_point_info) through
the real ingest frame: byte mutations of the factory's valid file (truncations at every line end or JSON
comma, flipped bytes, non-UTF-8 and other hostile bytes). :func:`fuzz.harness.ingest_hostile` asserts the
clean end."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories import capture
from fuzz.harness import byte_mutations, examples, ingest_hostile
from fuzz.test_fuzz_mindspore import written

#: (factory, file name, the byte a truncation may stop after)
EXPORTS = [
    (capture.StartInfoFactory, "start_info.0", b","),
    (capture.HostStartLogFactory, "host_start.log.0", b"\n"),
    (capture.DoneMarkFactory, "start_info.0.done", b":"),
    (capture.DoneMarkFactory, "Framework.host.vm.graph_desc_info.0.slice_0.done", b":"),
    (capture.MinCycleCounterFactory, "min_cycle_counter_0.txt", b"."),
    (capture.PointInfoFactory, "step_trace_point_info.json", b","),
]


@pytest.mark.parametrize(("factory", "name", "mark"), EXPORTS, ids=[name for _, name, _ in EXPORTS])
@examples(5)
@given(data=st.data())
def test_hostile_capture_file_ends_cleanly(factory, name, mark, data):
    """A mangled start_info, host_start.log, done mark, min_cycle_counter or point info ends as a clear failure or a
    sound ingest."""
    original = written(factory, name)
    ends = [at + 1 for at in range(len(original)) if original[at:at + 1] == mark]
    ingest_hostile(name, data.draw(byte_mutations(original, ends)))
