"""The one opener every input read goes through (issue 32 case 5): regular files only, a size cap per
kind checked before a byte is read, decompressed bytes capped, and the input's deadline on every read.

Each check is on a real file the factories write (a FIFO, a sparse file, a gzip stream of spaces);
the ingests around them are tested in tests/test_hostile_inputs.py.
"""

from __future__ import annotations

import gzip
import json
import threading
import time

import pytest

from tests.factories.hostile import fifo, gzip_repeating, link_to
from warehouse.sources.base import NotRegularFile, OverSizeLimit, ReadDeadlinePassed, open_binary, read_deadline
from warehouse.sources.kit.rank_layout import rank_from_layout
from warehouse.sources.kit.text import load_json_object

#: the hang guard of the FIFO checks: an open that blocks is still blocked after this
HANG_GUARD_S = 10


def test_a_fifo_is_refused_at_once_without_blocking(tmp_path):
    pipe = fifo(tmp_path / "profiler_info_0.json")
    outcome = []

    def read():
        try:
            with open_binary(pipe, "MAX_SIDECAR_BYTES") as stream:
                outcome.append(stream.read())
        except OSError as exc:
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)  # a blocked open would otherwise hold pytest
    reader.start()
    reader.join(HANG_GUARD_S)
    assert not reader.is_alive(), "opening a FIFO blocked"
    [refused] = outcome
    assert isinstance(refused, NotRegularFile) and "a FIFO" in str(refused)


def test_a_device_link_is_refused_unopened(tmp_path):
    zero = link_to(tmp_path / "profiler_metadata.json", "/dev/zero")
    with pytest.raises(NotRegularFile, match="a character device"):
        open_binary(zero, "MAX_SIDECAR_BYTES")


def test_a_sparse_sidecar_is_refused_from_its_size_before_a_byte_is_read(tmp_path, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_MAX_SIDECAR_BYTES", str(1 << 20))
    sidecar = tmp_path / "profiler_info_0.json"
    with sidecar.open("wb") as out:
        out.write(b'{"rank_id": 0}')
        out.truncate(64 << 20)  # 64 MiB on disk, no block of it written
    with pytest.raises(OverSizeLimit) as refused:
        load_json_object(sidecar)
    assert str(refused.value) == (f"{sidecar}: {64 << 20} bytes, over the limit of {1 << 20} bytes for this kind "
                                  "of file (WAREHOUSE_MAX_SIDECAR_BYTES); nothing of it was read")


def test_a_gzip_sidecar_is_capped_decompressed(tmp_path, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_MAX_SIDECAR_BYTES", str(1 << 20))
    sidecar = gzip_repeating(tmp_path / "profiler_info_0.json", b'{"rank_id": 0, "pad": "', b" ", 8 << 20, b'"}')
    assert sidecar.stat().st_size < 1 << 20
    with pytest.raises(OverSizeLimit, match=f"byte {1 << 20}: decompresses to more than .*WAREHOUSE_MAX_SIDECAR_BYTES"):
        load_json_object(sidecar)


def test_the_layout_ignores_a_sidecar_it_may_not_read_and_keeps_the_name(tmp_path, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_MAX_SIDECAR_BYTES", "64")
    folder = tmp_path / "run" / "rank2"
    folder.mkdir(parents=True)
    info = {"rank_id": 5, "config": {"common_config": {"x": "y" * 64}}}
    (folder / "profiler_info_2.json").write_text(json.dumps(info))
    assert rank_from_layout(folder / "trace_view.json") == (2, "profiler_info_2.json")
    monkeypatch.setenv("WAREHOUSE_MAX_SIDECAR_BYTES", str(1 << 20))
    assert rank_from_layout(folder / "trace_view.json") == (5, "profiler_info_2.json")  # read when it fits


@pytest.mark.parametrize("gz", (False, True))
def test_every_read_stops_once_the_input_deadline_has_passed(tmp_path, gz):
    path = tmp_path / "trace_view.json"
    data = b"[" + b" " * (4 << 20) + b"]"
    path.write_bytes(gzip.compress(data) if gz else data)
    with open_binary(path) as stream:
        assert stream.read(10) == data[:10]
        previous = read_deadline(time.monotonic() - 1)
        try:
            with pytest.raises(ReadDeadlinePassed, match="WAREHOUSE_INGEST_TIME_LIMIT_S"):
                stream.read()
        finally:
            read_deadline(previous)
    with open_binary(path) as stream:  # no deadline: the whole file reads
        assert stream.read() == data
