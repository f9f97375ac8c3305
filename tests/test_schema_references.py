"""Schema facts live in the schema (issue 22): every column holding warehouse ids is declared,
by a foreign key or a row of ``column_reference``, so copying a part shifts it with its table."""

import re

import pytest

from warehouse import introspect
from warehouse.ingest import merge

#: column names that hold slice ids, whatever table has them
SLICE_ID_COLUMN = re.compile(r"^(slice_id|slice_in|slice_out|parent_id|\w+_slice_id)$")


def test_every_column_holding_slice_ids_in_a_copied_table_is_declared(warehouse_db):
    undeclared = []
    for table, columns in merge.copied_tables(warehouse_db).items():
        declared = introspect.references(warehouse_db, table)
        undeclared += [f"{table}.{c}" for c in columns if SLICE_ID_COLUMN.match(c) and c not in declared]
    assert undeclared == []
    assert introspect.references(warehouse_db, "kernel") == {"source_id": "source", "slice_id": "_slice"}
    assert introspect.references(warehouse_db, "flow")["slice_in"] == "_slice"


def test_every_declared_reference_names_a_column_and_a_table_that_exist(warehouse_db):
    rows = warehouse_db.execute("SELECT table_name, column_name, referenced_table FROM column_reference").fetchall()
    assert len(rows) == 9  # migration 0014's eight, memcpy_task.slice_id (0037)
    for table, column, target in rows:
        assert column in {c for c, in warehouse_db.execute(f'SELECT name FROM pragma_table_info("{table}")')}
        assert "id" in {c for c, in warehouse_db.execute(f'SELECT name FROM pragma_table_info("{target}")')}


@pytest.mark.parametrize("column", ["slice_id", "parent_slice_id"])
def test_a_new_undeclared_slice_column_is_caught(warehouse_db, column):
    warehouse_db.execute(f"CREATE TABLE later_facts (id INTEGER PRIMARY KEY, source_id INTEGER, {column} INTEGER)")
    declared = introspect.references(warehouse_db, "later_facts")
    assert SLICE_ID_COLUMN.match(column) and column not in declared
    warehouse_db.execute("INSERT INTO column_reference VALUES ('later_facts', ?, '_slice')", (column,))
    assert introspect.references(warehouse_db, "later_facts")[column] == "_slice"
