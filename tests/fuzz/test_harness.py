"""The fuzz harness's own bounds: they must catch what they are there to catch."""

from __future__ import annotations

import resource

import pytest

from fuzz.harness import MEMORY_HEADROOM_BYTES, Hang, bounded


def test_an_allocation_past_the_headroom_fails_inside_the_bound_and_the_limit_is_restored():
    before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(MemoryError):
        with bounded():
            bytearray(2 * MEMORY_HEADROOM_BYTES)
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_hang_is_stopped_by_the_alarm_and_is_no_exception_the_frame_could_record():
    assert not issubclass(Hang, Exception)  # ingest_file records Exceptions as failures; a hang must escape
    with pytest.raises(Hang):
        with bounded(seconds=1):
            while True:
                pass
