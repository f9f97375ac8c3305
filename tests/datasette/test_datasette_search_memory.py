"""Issue 32, case 6, in Datasette: searches against a planted 1 MiB repetitive name keep ``warehouse datasette`` small.

Both of its searches: the canned query search_names (the same SQL file as REST's) and the search box
on the string table, whose text Datasette's ``escape_fts`` makes an FTS5 phrase (the plugin escapes its
first 32 characters: datasette_plugins/search_box.py). Before, four 600-character searches in the box
took the server to 874 MB, 24 s each; the answers stay right.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from datasette_plugins.search_box import bounded_escape_fts
from planted_names import PLANTED, RSS_CAP_MB, TEXTS, bound_memory, peak_rss_mb, planted_warehouse
from tests.datasette.conftest import datasette_server

#: seconds one request may take before the test gives up on it (a hang guard, not a timing)
REQUEST_LIMIT_S = 120


def get(url: str) -> tuple[int, object]:
    try:
        with urllib.request.urlopen(url, timeout=REQUEST_LIMIT_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")[:200]


def canned(url: str, text: str) -> tuple[int, object]:
    """``(status, [(name, slices), ...])`` of the canned query search_names for ``text``."""
    status, rows = get(f"{url}/search_names.json?" + urllib.parse.urlencode({"text": text, "_shape": "array"}))
    return status, [(row["name"], row["slices"]) for row in rows] if status == 200 else rows


def search_box(url: str, text: str) -> tuple[int, object]:
    """``(status, [value, ...])`` of the string table's search box for ``text``."""
    status, rows = get(f"{url}/string.json?" + urllib.parse.urlencode({"_search": text, "_shape": "array"}))
    return status, [row["value"] for row in rows] if status == 200 else rows


def test_the_search_box_escapes_the_first_32_characters_as_datasette_would():
    assert bounded_escape_fts("ab" * 300) == '"' + "ab" * 16 + '"'
    assert bounded_escape_fts('Flash "Attention Score"') == '"Flash" "Attention Score"'


@pytest.mark.slow  # a Datasette process and 22 searches over a 1 MiB name: seconds
def test_searches_against_a_planted_huge_name_keep_datasette_small_and_right(tmp_path):
    warehouse = planted_warehouse(tmp_path)
    with datasette_server(warehouse) as url:
        bound_memory(url.pid)
        with ThreadPoolExecutor(2) as clients:
            from_canned = list(clients.map(lambda text: canned(url, text), TEXTS))
            from_box = list(clients.map(lambda text: search_box(url, text), TEXTS))
        peak = peak_rss_mb(url.pid)
        checks = {("canned", "Flash"): canned(url, "Flash"), ("canned", "ab" * 8 + "c"): canned(url, "ab" * 8 + "c"),
                  ("box", "Flash"): search_box(url, "Flash"), ("box", "ab" * 8 + "c"): search_box(url, "ab" * 8 + "c")}
        alive = get(url + ".json?" + urllib.parse.urlencode({"sql": "select 1 as one", "_shape": "array"}))
    assert peak < RSS_CAP_MB, f"Datasette's peak resident memory was {peak:.0f} MB"
    assert from_canned == [(200, [(PLANTED, 1)])] * len(TEXTS)
    assert from_box == [(200, [PLANTED])] * len(TEXTS)
    assert checks == {
        ("canned", "Flash"): (200, [("FlashAttentionScore", 2)]),
        ("canned", "ab" * 8 + "c"): (200, []),
        ("box", "Flash"): (200, ["FlashAttentionScore"]),
        ("box", "ab" * 8 + "c"): (200, []),
    }
    assert alive == (200, [{"one": 1}])
