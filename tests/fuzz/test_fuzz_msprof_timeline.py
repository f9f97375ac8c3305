"""Fuzz CANN msprof's timeline JSONs of a PROF folder (msprof_*.json, step_trace_*.json) through the real frame.

From the factory's events (an iteration's Ascend Hardware tasks, its step trace and HCCL events;
the iterations): truncations at every token boundary, flipped bytes, hostile bytes spliced in, and
any event's field with a wrong type, an enormous value, or removed.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories import prof_folder as pf
from fuzz.harness import byte_mutations, document_mutations, examples, ingest_hostile, json_token_boundaries

FOLDER = "PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0/timeline"
NAME = "msprof_0_2_1.json"
#: the file's name and events: an iteration's whole timeline, and the iterations
FILES = {
    NAME: [*pf.hardware_events(1), pf.iteration(1), *pf.hccl_events(1)],
    "step_trace_0_2_1.json": [pf.meta(10036, 0, "process_name", "Step Trace"), pf.iteration(1), pf.iteration(2)],
}


def _original(name: str = NAME) -> bytes:
    return json.dumps(FILES[name]).encode()


@pytest.mark.parametrize("name", sorted(FILES))
@examples(6)  # about a second an example: the suite runs near its time budget
@given(data=st.data())
def test_hostile_msprof_timeline_ends_cleanly(name, data):
    """A mangled timeline JSON ends as a clear failure naming the event or byte, or a sound ingest."""
    original = _original(name)
    mangled = data.draw(st.one_of(byte_mutations(original, json_token_boundaries(original)),
                                  document_mutations(FILES[name])))
    ingest_hostile(name, mangled, folder=FOLDER)
