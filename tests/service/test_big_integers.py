"""JSON answers a browser reads without losing precision (issue 19 item 3).

A browser parses every JSON number into a double, exact only up to 2**53 - 1; absolute epoch
nanoseconds (1.7e18) pass it. The rule (service/results.py, README, OpenAPI): in a JSON page an
integer beyond +-(2**53 - 1) is its decimal string, every other integer a number; CSV unchanged.
The answers are parsed here as a browser does (``parse_int=float``) as well as exactly.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from openapi_spec_validator import validate

from factories import warehouse_rows
from factories.warehouse_rows import ProcessFactory, SliceFactory, ThreadFactory
from service import create_app, results

API = "/api/v1"
EPOCH_NS = 1_700_000_000_123_456_789
LIMIT = 2**53 - 1


@pytest.fixture
def client(warehouse_db, warehouse_path):
    """A warehouse with two slices at absolute epoch nanoseconds (past 2**53), 250 ns long."""
    with warehouse_rows.bound(warehouse_db):
        thread = ThreadFactory(process=ProcessFactory(rank_id=0, pid="100"), tid="7", name="main")
        for i in range(2):
            SliceFactory(thread_id=thread["id"], ts=EPOCH_NS + 1000 * i, dur=250, name=f"op{i}")
    app = create_app({"TESTING": True, "DATABASE": str(warehouse_path)})
    return app.test_client(), thread["id"]


def browser_parse(text: str):
    """JSON as JavaScript's JSON.parse reads it: every number a double."""
    return json.loads(text, parse_int=float)


def test_named_query_sends_epoch_ns_as_exact_strings(client):
    client, thread_id = client
    response = client.get(f"{API}/queries/timeline_slices",
                          query_string={"thread_id": thread_id, "start": EPOCH_NS, "end": EPOCH_NS + 5000})
    rows = json.loads(response.data)["rows"]
    assert [(r["name"], r["ts"], r["dur"]) for r in rows] == [("op0", str(EPOCH_NS), 250),
                                                              ("op1", str(EPOCH_NS + 1000), 250)]
    # what a browser holds: the strings give back every nanosecond, the small numbers stay numbers
    seen = browser_parse(response.data)["rows"]
    assert [int(r["ts"]) for r in seen] == [EPOCH_NS, EPOCH_NS + 1000]
    assert [r["dur"] for r in seen] == [250.0, 250.0] and all(type(r["id"]) is float for r in seen)


def test_sql_sends_integers_past_2_53_as_strings_and_keeps_the_rest_numbers(client):
    client, _ = client
    sql = ("SELECT :big AS big, -:big AS negative, :limit AS safe, -:limit AS safe_negative, :limit + 1 AS past, "
           "12 AS small, 0.5 AS real, x'01' AS blob, NULL AS none, 'text' AS text")
    response = client.post(f"{API}/sql", json={"sql": sql, "params": {"big": EPOCH_NS, "limit": LIMIT}})
    (row,) = json.loads(response.data)["rows"]
    assert row == {"big": str(EPOCH_NS), "negative": str(-EPOCH_NS), "safe": LIMIT, "safe_negative": -LIMIT,
                   "past": str(LIMIT + 1), "small": 12, "real": 0.5, "blob": "01", "none": None, "text": "text"}
    (seen,) = browser_parse(response.data)["rows"]
    assert int(seen["big"]) == EPOCH_NS and int(seen["past"]) == LIMIT + 1 and seen["safe"] == LIMIT


def test_a_page_without_big_integers_is_unchanged(client):
    client, _ = client
    response = client.post(f"{API}/sql", json={"sql": "SELECT ts - :zero AS relative, dur FROM slice ORDER BY ts",
                                               "params": {"zero": EPOCH_NS}})
    assert json.loads(response.data)["rows"] == [{"relative": 0, "dur": 250}, {"relative": 1000, "dur": 250}]


def test_csv_keeps_the_digits(client):
    client, thread_id = client
    response = client.get(f"{API}/queries/timeline_slices", query_string={
        "thread_id": thread_id, "start": EPOCH_NS, "end": EPOCH_NS + 5000, "_format": "csv"})
    rows = list(csv.DictReader(io.StringIO(response.data.decode())))
    assert [row["ts"] for row in rows] == [str(EPOCH_NS), str(EPOCH_NS + 1000)]


def test_the_rule_is_in_the_openapi_document(client):
    client, _ = client
    document = client.get(f"{API}/openapi.json").get_json()
    validate(document)
    assert document["info"]["description"] == results.BIG_INTEGER_RULE
    row = document["paths"]["/queries/timeline_slices"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"]["properties"]["rows"]["items"]
    assert results.BIG_INTEGER_RULE in row["description"]
    sql_row = document["paths"]["/sql"]["post"]["responses"]["200"]["content"]["application/json"]["schema"][
        "properties"]["rows"]["items"]
    assert sql_row["additionalProperties"]["anyOf"] == [{"type": "number"}, {"type": "string"}]
