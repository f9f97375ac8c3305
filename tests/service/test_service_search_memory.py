"""Issue 32, case 6: name searches against a planted 1 MiB repetitive name keep ``warehouse serve`` small.

Before the search was bounded each one held ~n/2 MB for a text of n characters (FTS5's trigram
positions) and glibc kept it, per thread: 11 searches took the server to 2.5 GB, each past the time
limit. The answers stay right: the planted name is found by a piece of it, a text is matched in
full up to 256 characters, and longer texts by their first 256 (queries/search/search_names.sql).
"""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from planted_names import PLANTED, RSS_CAP_MB, TEXTS, bound_memory, peak_rss_mb, planted_warehouse
from server_process import served
from warehouse import memory

#: seconds one request may take before the test gives up on it (a hang guard, not a timing)
REQUEST_LIMIT_S = 120


def get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=REQUEST_LIMIT_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def names_found(base: str, text: str) -> tuple[int, list]:
    """``(status, [(name, slices, kernels, api_calls, inputs), ...])`` of search_names for ``text``."""
    status, answer = get(f"{base}/queries/search_names?" + urllib.parse.urlencode({"text": text}))
    if status != 200:
        return status, [answer]
    return status, [(row["name"], row["slices"], row["kernels"], row["api_calls"], row["inputs"])
                    for row in answer["rows"]]


@pytest.mark.slow  # a server process and eleven searches over a 1 MiB name: seconds
def test_searches_against_a_planted_huge_name_keep_the_server_small_and_right(tmp_path):
    warehouse = planted_warehouse(tmp_path)
    with served(warehouse, "--threads", "2") as server:
        bound_memory(server.process.pid)
        with ThreadPoolExecutor(2) as clients:
            answers = list(clients.map(lambda text: names_found(server.url, text), TEXTS))
        peak = peak_rss_mb(server.process.pid)
        checks = {text: names_found(server.url, text) for text in (
            "Flash", "ab" * 8 + "c", "ba" * 150 + "c", "ab" * 127 + "ac")}
        health = get(server.url + "/health")
    assert peak < RSS_CAP_MB, f"the server's peak resident memory was {peak:.0f} MB"
    assert answers == [(200, [(PLANTED, 1, 0, 0, 1)])] * len(TEXTS)
    assert checks == {
        "Flash": (200, [("FlashAttentionScore", 2, 0, 0, 1)]),
        "ab" * 8 + "c": (200, []),  # the index is asked for 16 characters; the 17th is matched too
        "ba" * 150 + "c": (200, [(PLANTED, 1, 0, 0, 1)]),  # past 256 characters: the first 256 are matched
        "ab" * 127 + "ac": (200, []),  # the 256th character is matched
    }
    assert health[0] == 200


def test_freed_memory_goes_back_only_after_sqlite_freed_much():
    conn = sqlite3.connect(":memory:")
    memory.release_freed()  # start from now
    conn.execute("SELECT length(randomblob(1000000))").fetchone()
    assert memory.release_freed() is False  # 1 MB: not worth a trim
    conn.execute("SELECT length(randomblob(50000000))").fetchone()
    assert memory.sqlite_peak() >= 50_000_000
    assert memory.release_freed() is True
    assert memory.release_freed() is False  # counted again from the last call
    conn.close()


@pytest.mark.slow  # a server process and eleven ad-hoc queries of ~100 MB each in SQLite: seconds
def test_memory_a_query_freed_does_not_stay_with_the_server(tmp_path):
    # any SQL may make SQLite hold hundreds of MB (up to WAREHOUSE_MAX_SQLITE_HEAP_BYTES) for one query: once it
    # has answered, the process gives it back, whichever thread ran it
    warehouse = planted_warehouse(tmp_path)
    phrase = "SELECT count(*) AS n FROM _string_fts WHERE _string_fts MATCH '\"" + "ab" * 100 + "\"'"
    with served(warehouse, "--threads", "4") as server:
        bound_memory(server.process.pid)
        answers = [sql(server.url, phrase) for _ in range(11)]
        peak = peak_rss_mb(server.process.pid)
    assert peak < RSS_CAP_MB, f"the server's peak resident memory was {peak:.0f} MB"
    assert answers == [(200, [{"n": 1}])] * 11


def sql(base: str, text: str) -> tuple[int, object]:
    """``(status, rows)`` of ad-hoc SQL."""
    request = urllib.request.Request(f"{base}/sql", data=json.dumps({"sql": text}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_LIMIT_S) as response:
            return response.status, json.loads(response.read())["rows"]
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
