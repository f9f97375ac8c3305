"""One style for durations and sizes in every finding message and evidence note (warehouse/units.py)."""

import re

import pytest

from tests.diagnosis import cluster as synth
from warehouse import readonly, units
from warehouse.analysis import findings

#: a number followed by a unit, whatever its style ("22484.0 us", "85.17 ms", "8192.0 MiB")
QUANTITY = re.compile(r"(-?[\d.]+) (ns|us|ms|s|B|KiB|MiB|GiB|TiB|PiB)\b")
#: the one style: format_ns (three decimals, ns whole) and format_bytes (one decimal, B whole)
ONE_STYLE = re.compile(r"-?\d+\.\d{3} (s|ms|us)|-?\d+ (ns|B)|-?\d+\.\d (KiB|MiB|GiB|TiB|PiB)")


@pytest.mark.parametrize(
    "function,value,text",
    (
        (units.format_ns, 22_484_000, "22.484 ms"),  # the demo's "22484.0 us"
        (units.format_ns, 85_170_000, "85.170 ms"),
        (units.format_ns, 999, "999 ns"),
        (units.format_ns, 1_000, "1.000 us"),
        (units.format_ns, 1_500_000_000, "1.500 s"),
        (units.format_bytes, 1_023, "1023 B"),
        (units.format_bytes, 8 * 2**30, "8.0 GiB"),  # the memory rule's "8192.0 MiB"
        (units.format_bytes, 1_572_864, "1.5 MiB"),
    ),
)
def test_the_formats(function, value, text):
    assert function(value) == text


def test_every_query_can_call_them_and_null_stays_null(warehouse_db):
    columns, rows = readonly.run_select(warehouse_db, "SELECT format_ns(22484000) AS d, format_bytes(NULL) AS b")
    assert rows == [("22.484 ms", None)]


def test_every_message_and_note_writes_durations_and_sizes_in_one_style(warehouse_db):
    synth.build(warehouse_db, slow_rank=3, slow_collective=(2, 5), host_gap_rank=6, dp_rank=1, memory_rank=2,
                ep_rank=4)
    findings.analyze(warehouse_db)
    texts = [text for (text,) in warehouse_db.execute("SELECT message FROM finding UNION ALL "
                                                      "SELECT note FROM finding_evidence") if text]
    quantities = [(match[0], text) for text in texts for match in QUANTITY.finditer(text)]
    assert {unit for quantity, _ in quantities for unit in quantity.split()[-1:]} >= {"us", "ms", "GiB"}
    assert [(quantity, text) for quantity, text in quantities if not ONE_STYLE.fullmatch(quantity)] == []
