"""The CSV exports read and converted by DuckDB (warehouse/sources/kit/csv_bulk.py): every form a cell
takes gives the value the Python converter of text.py gives it, and a cell neither converts fails the
file naming its line and column."""

from __future__ import annotations

import csv
import io

import pytest

from tests.factories.text_exports import ApiStatisticFactory, OperatorMemoryFactory, StepTraceTimeFactory
from warehouse.ingest import ingest_file
from warehouse.sources import api_statistic, operator_memory, step_trace_time
from warehouse.sources.kit.csv_bulk import SQL_CONVERTERS, sql_form
from warehouse.sources.kit.text import column_plan, convert_row

#: number forms: plain, spaced (ASCII and Unicode), signed, exponent, more decimals than a unit (a
#: float's noise, rounded half to even), underscores, triple quotes, an Arabic-Indic digit, no value
NUMBERS = ["18816.5", " 0.5 ", "+.5", "1e3", "425.06850000000003", "1_000", '"""12"""', "\u3000 7\u00a0",
           "\u0663", "N/A", "", "-2.25", "0.00048828125"]
#: device forms: the exports' own, lower case and spaced (Python's regular expression), a host, none
DEVICES = ["NPU:0", "host", "npu 3", "NPU : 12", "7", "\u0663", "", "N/A", "NPU:0", "CPU", "NPU:٣", "0", "NPU:15"]


def python_rows(path, module) -> list[list]:
    """The file's rows as the Python converters give them, in the order of ``module.SPEC.columns``."""
    records = list(csv.reader(io.StringIO(path.read_bytes().decode("utf-8-sig"), newline="")))
    plan = column_plan([name.strip() for name in records[0]], module.SPEC.columns)
    return [convert_row(path, line, row, plan) for line, row in enumerate(records[1:], 2)]


def stored_rows(conn, module) -> list[list]:
    names = ", ".join(column.name for column in module.SPEC.columns)
    return [list(row) for row in conn.execute(f"SELECT {names} FROM {module.SPEC.table} ORDER BY source_row")]


def test_memory_cells_of_every_form_convert_as_in_python(warehouse_db, tmp_path):
    numbers = [column.headers[0] for column in operator_memory.SPEC.columns if column.name not in ("name", "device_id")]
    rows = [{**{header: number for header in numbers}, "Name": f" op{number} ", "Device Type": device}
            for number, device in zip(NUMBERS, DEVICES)]
    written = OperatorMemoryFactory(path=tmp_path / "operator_memory.csv", rows=rows)

    result = ingest_file(warehouse_db, written.path)

    assert (result.status, result.rows) == ("ok", len(rows)), result.error
    got = stored_rows(warehouse_db, operator_memory)
    assert got == python_rows(written.path, operator_memory)
    sizes = [row[1] for row in got]  # Size(KB) -> bytes, exactly
    assert sizes[:5] == [19268096, 512, 512, 1024000, 435270]
    assert sizes[-1] == 0  # 0.00048828125 KiB is half a byte: rounded half to even
    assert [row[-1] for row in got] == [0, None, 3, 12, 7, 3, None, None, 0, None, 3, 0, 15]


def test_a_variance_and_step_numbers_convert_as_in_python(warehouse_db, tmp_path):
    api = ApiStatisticFactory(path=tmp_path / "rank0" / "api_statistic.csv", rows=[
        {"Level": "acl", "API Name": f"api{n}", "Time(us)": value, "Count": "3", "Variance": value}
        for n, value in enumerate(["389.155", " 1e-3 ", "0.1", "\u0663", "N/A"])])
    steps = StepTraceTimeFactory(path=tmp_path / "rank0" / "step_trace_time.csv", rows=[
        {"Step": step, "Computing": "1.5"} for step in ["50", "step7", " 8 ", "-5", "\u0663", "N/A", "a-12"]])

    for written, module in ((api, api_statistic), (steps, step_trace_time)):
        result = ingest_file(warehouse_db, written.path)
        assert result.status == "ok", result.error
        assert stored_rows(warehouse_db, module) == python_rows(written.path, module)
    assert [row[-1] for row in stored_rows(warehouse_db, api_statistic)] == [
        389.155 * 1e6, 0.001 * 1e6, 0.1 * 1e6, 3e6, None]
    assert [row[0] for row in stored_rows(warehouse_db, step_trace_time)] == [50, 7, 8, 5, 3, None, 12]


@pytest.mark.parametrize(
    "cell,reason",
    (
        ("12abc", "not a number: '12abc'"),
        ("99999999999999999999", "number out of range: '99999999999999999999'"),
    ),
)
def test_a_cell_no_converter_takes_fails_naming_line_and_column(warehouse_db, tmp_path, cell, reason):
    written = OperatorMemoryFactory(path=tmp_path / "operator_memory.csv")
    rows = [dict(row) for row in written.rows] * 2
    rows[2] = {**rows[2], "Size(KB)": cell}
    written = OperatorMemoryFactory(path=written.path, rows=rows)

    result = ingest_file(warehouse_db, written.path)

    assert result.error == f"{written.path}: line 4: column 'Size(KB)': {reason}"
    assert warehouse_db.execute("SELECT count(*) FROM op_memory").fetchone() == (0,)


def test_every_converter_of_every_csv_table_has_its_macro_or_its_type():
    from warehouse.sources import SOURCES

    converters = {column.convert for module in SOURCES if hasattr(module, "SPEC") for column in module.SPEC.columns}
    own = converters - set(SQL_CONVERTERS)
    assert converters and len(own) < len(converters)
    # a source's own converter (MindSpore's operator id refuses a missing cell) is called on every cell
    assert {convert.__name__: sql_form(convert) for convert in own} == {"op_number": (None, "BIGINT")}
