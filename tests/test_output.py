"""warehouse/output.py: the table format writes what tabulate writes, without importing it for plain cells."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, strategies as st
from tabulate import tabulate

from warehouse import output

#: what SQLite hands back: NULL, integers, reals, text (with spaces, accents, line breaks, escapes)
VALUES = st.one_of(st.none(), st.integers(), st.floats(allow_nan=True), st.text(max_size=12),
                   st.sampled_from(["True", "False", "", "  padded  ", "a\nb", "\x1b[31mred\x1b[0m", "é", "a\tb"]))


@given(st.integers(min_value=0, max_value=4).flatmap(
    lambda n: st.tuples(st.lists(st.text(max_size=8), min_size=n, max_size=n),
                        st.lists(st.tuples(*[VALUES] * n), max_size=5))))
def test_the_table_is_tabulates_simple_table(table):
    columns, rows = table
    assert output.table_text(columns, rows) == tabulate(rows, headers=columns, disable_numparse=True)


def test_a_table_of_plain_cells_does_not_import_tabulate():
    code = ("import sys; from warehouse import output; "
            "text = output.render(['name', 'n'], [('MatMul', 3), (None, 2.5)], 'table'); "
            "assert 'tabulate' not in sys.modules; print(text, end='')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout == "name    n\n------  ---\nMatMul  3\n        2.5\n"
