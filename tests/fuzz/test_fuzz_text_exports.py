"""Fuzz every text export (the CSV and JSON files torch_npu and msprof write) through the real ingest frame.

Each starts from the factory's valid file: byte mutations (truncations at every line end
or JSON token, flipped bytes, non-UTF-8 and other hostile bytes), then CSV-shaped ones
(a column dropped from the header or from one row, extra cells, a hostile or enormous
cell) and JSON-shaped ones (a wrong type, deep nesting or an enormous string at any
path, a key removed). :func:`fuzz.harness.ingest_hostile` asserts the clean end.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factories import text_exports as tx
from fuzz.harness import (
    examples,
    HOSTILE_BYTES, RAW, RAW_TEXTS, byte_mutations, document_mutations, dump, ingest_hostile, json_paths,
    json_token_boundaries, one_of_values, replace_at,
)

#: (factory, file name, folder): every CSV export the warehouse reads
CSV_EXPORTS = [
    (tx.KernelDetailsFactory, "kernel_details.csv", "rank3_ascend_pt/ASCEND_PROFILER_OUTPUT"),
    (tx.OpSummaryFactory, "op_summary_0.csv", ""),
    (tx.OpStatisticFactory, "op_statistic.csv", ""),
    (tx.OperatorDetailsFactory, "operator_details.csv", ""),
    (tx.StepTraceTimeFactory, "step_trace_time.csv", ""),
    (tx.ClusterStepTraceTimeFactory, "cluster_step_trace_time.csv", "cluster_analysis_output"),
    (tx.MemoryRecordFactory, "memory_record.csv", ""),
    (tx.OperatorMemoryFactory, "operator_memory.csv", ""),
    (tx.ApiStatisticFactory, "api_statistic.csv", ""),
    (tx.NpuModuleMemFactory, "npu_module_mem.csv", ""),
    (tx.L2CacheFactory, "l2_cache.csv", ""),
    (tx.StaticOpMemFactory, "static_op_mem.csv", ""),
]
#: (factory, file name, folder): every JSON export the warehouse reads
JSON_EXPORTS = [
    (tx.CommunicationJsonFactory, "communication.json", ""),
    (tx.CommunicationMatrixFactory, "communication_matrix.json", ""),
    (tx.ClusterCommunicationFactory, "cluster_communication.json", "cluster_analysis_output"),
    (tx.ClusterCommunicationMatrixFactory, "cluster_communication_matrix.json", "cluster_analysis_output"),
    (tx.ProfilerInfoFactory, "profiler_info_3.json", ""),
    (tx.ProfilerMetadataFactory, "profiler_metadata.json", ""),
    (tx.CommunicationGroupFactory, "communication_group.json", ""),
]
#: cell values no column expects
HOSTILE_CELLS = ["", "N/A", "x", "-1", "1e999", "nan", "-inf", "9" * 400, "\u00e9\u0000", '"', '"""', "x" * 500_000]


@functools.cache
def _written(factory, name):
    """The factory's valid file, written once (its sequences would differ between examples)."""
    with tempfile.TemporaryDirectory() as tmp:
        written = factory(path=Path(tmp) / name)
        return written, Path(written.path).read_bytes()


def _ids(exports):
    return [name for _, name, _ in exports]


def csv_mutations(data: bytes) -> st.SearchStrategy[bytes]:
    """A column dropped from the header or one row, extra cells, or a hostile cell (split naively on commas)."""
    lines = [line.split(b",") for line in data.split(b"\r\n")[:-1]]

    def render(rows):
        return b"".join(b",".join(cells) + b"\r\n" for cells in rows)

    def drop(t):
        line, column = t
        rows = [list(cells) for cells in lines]
        del rows[line][column % len(rows[line])]
        return render(rows)

    def extra(t):
        line, count = t
        rows = [list(cells) for cells in lines]
        rows[line] += [b"1"] * count
        return render(rows)

    def cell(t):
        line, column, value = t
        rows = [list(cells) for cells in lines]
        rows[line][column % len(rows[line])] = value
        return render(rows)

    line = st.integers(0, len(lines) - 1)
    columns = st.integers(0, 100)
    values = st.one_of(one_of_values(HOSTILE_CELLS).map(lambda v: v.encode("utf-8")), st.sampled_from(HOSTILE_BYTES))
    return st.one_of(
        st.tuples(line, columns).map(drop),
        st.tuples(line, st.integers(1, 3)).map(extra),
        st.tuples(line, columns, values).map(cell),
        st.just(render(lines[:1])),
        st.just(render(lines[:1] * 2 + lines[1:])),
    )


@pytest.mark.parametrize(("factory", "name", "folder"), CSV_EXPORTS, ids=_ids(CSV_EXPORTS))
@examples(40)
@given(data=st.data())
def test_hostile_csv_export_ends_cleanly(factory, name, folder, data):
    """A mangled CSV export ends as a clear failure or a sound ingest."""
    written, original = _written(factory, name)
    line_ends = [i + 2 for i in range(len(original)) if original[i:i + 2] == b"\r\n"]
    mangled = data.draw(st.one_of(byte_mutations(original, line_ends), csv_mutations(original)))
    ingest_hostile(name, mangled, folder=folder)


@pytest.mark.parametrize(("factory", "name", "folder"), JSON_EXPORTS, ids=_ids(JSON_EXPORTS))
@examples(40)
@given(data=st.data())
def test_hostile_json_export_ends_cleanly(factory, name, folder, data):
    """A mangled JSON export ends as a clear failure or a sound ingest."""
    written, original = _written(factory, name)
    mangled = data.draw(st.one_of(
        byte_mutations(original, json_token_boundaries(original)), document_mutations(written.document),
    ))
    ingest_hostile(name, mangled, folder=folder)


@pytest.mark.parametrize(("factory", "name", "folder"), JSON_EXPORTS, ids=_ids(JSON_EXPORTS))
def test_deep_nesting_and_enormous_strings_in_json_exports_end_cleanly(factory, name, folder):
    """Every hostile raw JSON text (100k-deep arrays and objects, a 4 MB string, 1e999999) at the deepest value."""
    written, _ = _written(factory, name)
    deepest = max(json_paths(written.document), key=len)
    for raw in RAW_TEXTS:
        ingest_hostile(name, dump(replace_at(written.document, deepest, RAW), raw), folder=folder)


def test_an_enormous_value_is_not_echoed_whole_in_the_reason():
    """A 500 kB cell that is not a number: the one-line reason names the place and is cut short."""
    _, original = _written(tx.OpStatisticFactory, "op_statistic.csv")
    header, first, *rest = original.split(b"\r\n")
    cells = first.split(b",")
    cells[2] = b"x" * 500_000  # Count
    result = ingest_hostile("op_statistic.csv", b"\r\n".join([header, b",".join(cells), *rest]))
    assert result.status == "failed"
    assert ": line 2: column 'Count': not a number: 'xxx" in result.error
    assert result.error.endswith("x\u2026") and len(result.error) <= len(str(result.path)) + 2 + 500


@pytest.mark.parametrize("cell", ["1e999", "-9" + "9" * 30, "1e999999999", "NaN", "Infinity", "9" * 5000])
def test_numbers_out_of_range_fail_with_a_reason(cell):
    """Numbers SQLite cannot hold (or that would need gigabytes as an int) fail clearly, without allocating."""
    _, original = _written(tx.OpStatisticFactory, "op_statistic.csv")
    header, first, *rest = original.split(b"\r\n")
    cells = first.split(b",")
    cells[2] = cell.encode()  # Count
    result = ingest_hostile("op_statistic.csv", b"\r\n".join([header, b",".join(cells), *rest]))
    assert result.status == "failed" and "Count" in result.error, result.error
