"""Every table, view and column of the schema is documented: a table in its migration, a view in its file."""

from warehouse.schema_docs import read_docs


def test_every_table_view_and_column_is_documented(warehouse_db):
    docs = read_docs()
    # a virtual table's shadow tables (FTS5's _data, _idx, ...) are SQLite's own storage, as sqlite_% are
    objects = warehouse_db.execute(
        "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' "
        "AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow')"
    ).fetchall()
    missing = []
    for name, kind in objects:
        doc = docs.get(name)
        if doc is None or not doc.description:
            missing.append(f"{kind} {name}")
            continue
        for column in warehouse_db.execute(f'PRAGMA table_info("{name}")'):
            if not doc.columns.get(column[1]):
                missing.append(f"column {name}.{column[1]}")
    assert missing == []


def test_docs_are_read_from_the_comment_directly_above():
    docs = read_docs()
    assert docs["source"].description.startswith("One row per input file")
    assert docs["_slice"].columns["dur"] == "Duration in ns (0 for instants)."
    assert docs["kernel"].columns["aic_mte_ns"].startswith("Pipeline family aic_mte")
