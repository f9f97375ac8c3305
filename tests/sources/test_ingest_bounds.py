"""Unit checks of the ingest bounds (issue 23): the detail cap, timestamp text, CSV detection of UTF-16/NUL."""

from __future__ import annotations

import gzip
import json
import time

import pytest

from warehouse.errors import IngestError
from warehouse.ingest import capped_detail
from warehouse.sources.base import open_binary
from warehouse.sources.kit.text import csv_header
from warehouse.sources.trace_json.events import to_ns


@pytest.mark.parametrize("cap", [300, 1000, 4096, 65536])
def test_capped_detail_is_json_within_the_cap(cap):
    detail = {"blocks": 9, "unknown_blocks": [{"type": 48, "offset": n, "size": 4} for n in range(20_000)],
              "note": "ü" * 3000}
    text = capped_detail(detail, cap)
    assert len(text.encode("utf-8")) <= cap
    assert json.loads(text)["detail_cut"]["left_out_bytes"] > 0


def test_capped_detail_leaves_small_detail_alone():
    assert capped_detail({"a": [1, 2]}, 100) == json.dumps({"a": [1, 2]})
    assert capped_detail({"a": "x" * 1000}, 0) == json.dumps({"a": "x" * 1000})


@pytest.mark.parametrize("text", ["1e999000", "-1e999000", "9" * 100, "1e19", "NaN", "Infinity"])
def test_absurd_timestamp_text_is_refused_at_once(text):
    started = time.monotonic()
    with pytest.raises(IngestError, match="event 4: ts"):
        to_ns(text, "t.json", 4, "ts")
    assert time.monotonic() - started < 0.1


def test_ordinary_timestamps_still_convert():
    assert to_ns("1736408883688177.930", "t", 0, "ts") == 1736408883688177930
    assert to_ns("1.5e3", "t", 0, "ts") == 1_500_000
    assert to_ns(2.5, "t", 0, "ts") == 2500


def test_csv_header_is_found_in_utf16_and_with_a_nul(tmp_path):
    header = "Name,Accelerator Core,Start Time(us),Duration(us)\r\nk,AI_CORE,1,2\r\n"
    utf16 = tmp_path / "a.csv"
    utf16.write_bytes(header.encode("utf-16"))
    nul = tmp_path / "b.csv"
    nul.write_bytes(header.replace("k,", "k\0,").encode())
    for path in (utf16, nul):
        assert csv_header(path) == ["Name", "Accelerator Core", "Start Time(us)", "Duration(us)"]


def test_a_gzip_past_the_decompressed_cap_fails_naming_the_setting(tmp_path, monkeypatch):
    path = tmp_path / "x.gz"
    path.write_bytes(gzip.compress(b" " * 100_000))
    monkeypatch.setenv("WAREHOUSE_MAX_DECOMPRESSED_BYTES", "50000")
    with open_binary(path) as stream, pytest.raises(IngestError, match="WAREHOUSE_MAX_DECOMPRESSED_BYTES"):
        stream.read()
    monkeypatch.setenv("WAREHOUSE_MAX_DECOMPRESSED_BYTES", "200000")
    with open_binary(path) as stream:
        assert len(stream.read()) == 100_000
