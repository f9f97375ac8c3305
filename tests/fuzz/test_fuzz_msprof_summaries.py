"""Fuzz a CANN msprof PROF folder's summary CSVs (task_time_*.csv, step_trace_*.csv) through the real frame.

From the factory's files (two iterations): byte mutations (truncations at every line end, flipped
bytes, non-UTF-8 and other hostile bytes) and the CSV-shaped ones of the text exports (a column
dropped, extra cells, a hostile cell). :func:`fuzz.harness.ingest_hostile` asserts the clean end.
op_summary_*.csv is fuzzed with the text exports; the msprof db with the rank dbs.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories import prof_folder as pf
from fuzz.harness import byte_mutations, examples, ingest_hostile
from fuzz.test_fuzz_mindspore import shaped

FOLDER = "PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0/summary"
#: the summary files this fuzzes, by name
NAMES = ("task_time_0_1.csv", "step_trace_0_1.csv")


def _original(name: str) -> bytes:
    return pf.summary_files(2)[name]


@pytest.mark.parametrize("name", NAMES)
@examples(8)
@given(data=st.data())
def test_hostile_msprof_summary_ends_cleanly(name, data):
    """A mangled summary CSV ends as a clear failure naming its line, or a sound ingest."""
    original = _original(name)
    line_ends = [i + 1 for i in range(len(original)) if original[i:i + 1] == b"\n"]
    ingest_hostile(name, data.draw(st.one_of(byte_mutations(original, line_ends), shaped(original))), folder=FOLDER)
