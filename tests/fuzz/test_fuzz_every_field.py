"""Wrong types in every field, deterministically: each JSON path and each CSV column in turn.

The hypothesis tests pick paths at random; these sweeps visit every one: the value at each
path of every JSON export, trace event and operator-profile JSON block (and each column of a
CSV export's first record) is replaced by a wrong-typed value, cycling through
:data:`WRONG`, and the file goes through :func:`fuzz.harness.ingest_hostile`.
"""

from __future__ import annotations

import json

import pytest

from factories.op_profile import Block
from fuzz import test_fuzz_op_profile, test_fuzz_text_exports, test_fuzz_trace_json
from fuzz.harness import dump, ingest_hostile, json_paths, replace_at

#: the sweeps ingest one file per field (hundreds per export): the full suite runs them, the fast
#: tier keeps the hypothesis tests, which visit fields at random
pytestmark = pytest.mark.slow

#: wrong-typed values, one per path in turn
WRONG = [None, "x", [], {"k": 1}, 2**64, -1, True, 1.5e308, ""]


def _sweep(doc):
    """(path, mangled document) for every non-root path of ``doc``, the values cycling through WRONG."""
    return [(path, replace_at(doc, path, WRONG[i % len(WRONG)])) for i, path in enumerate(json_paths(doc)[1:])]


@pytest.mark.parametrize(("factory", "name", "folder"), test_fuzz_text_exports.JSON_EXPORTS,
                         ids=[name for _, name, _ in test_fuzz_text_exports.JSON_EXPORTS])
def test_every_field_of_a_json_export(factory, name, folder):
    written, _ = test_fuzz_text_exports._written(factory, name)
    for path, doc in _sweep(written.document):
        ingest_hostile(name, dump(doc), folder=folder)


def test_every_field_of_every_trace_event():
    events = [dict(e) for e in test_fuzz_trace_json._events()]
    for path, doc in _sweep(events):
        ingest_hostile(test_fuzz_trace_json.NAME, dump(doc))


@pytest.mark.parametrize(("factory", "name", "folder"), test_fuzz_text_exports.CSV_EXPORTS,
                         ids=[name for _, name, _ in test_fuzz_text_exports.CSV_EXPORTS])
def test_every_column_of_a_csv_export(factory, name, folder):
    _, original = test_fuzz_text_exports._written(factory, name)
    header, first, *rest = original.split(b"\r\n")
    cells = first.split(b",")
    for column in range(len(cells)):
        wrong = cells[:column] + [b"x\xff"] + cells[column + 1:]
        ingest_hostile(name, b"\r\n".join([header, b",".join(wrong), *rest]), folder=folder)


def test_every_field_of_every_op_profile_json_block():
    _, _, blocks = test_fuzz_op_profile._original()
    for index, block in enumerate(blocks):
        if block.doc is None:
            continue
        for path, doc in _sweep(block.doc):
            mangled = Block(block.type, json.dumps(doc).encode(), block.version, block.path)
            data = b"".join((mangled if i == index else b).to_bytes() for i, b in enumerate(blocks))
            ingest_hostile(test_fuzz_op_profile.NAME, data)
