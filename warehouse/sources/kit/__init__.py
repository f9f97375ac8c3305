"""The kit: the helpers the format modules share, one module per job, no format of its own.

A format module (``warehouse.sources.<format>``) detects its file and turns it into raw rows;
what two or more of them need lives here, so that no format module imports another:

- :mod:`~warehouse.sources.kit.numbers`: the 64-bit bound of every integer read from an input;
- :mod:`~warehouse.sources.kit.text`: reading the text export's CSV and JSON files, exact units;
- :mod:`~warehouse.sources.kit.csv_bulk`: every CSV export's records read and converted by DuckDB
  (``csv_cells.sql``), its failures named by :mod:`~warehouse.sources.kit.csv_lines`;
- :mod:`~warehouse.sources.kit.kernel_csv`: a kernel table exported as CSV (kernel_details.csv, op_summary_*.csv);
- :mod:`~warehouse.sources.kit.duck`: DuckDB inside an ingest (bounded; its sqlite extension from the wheel);
- :mod:`~warehouse.sources.kit.communication`: the entries of the communication JSON files and their rows;
- :mod:`~warehouse.sources.kit.step_trace`: step numbers and the step trace's time columns;
- :mod:`~warehouse.sources.kit.rank_layout`: the rank and device a file's folder layout gives (the
  names of :mod:`warehouse.model.folder_grammar`, which the runs read too, and the sidecars' content), and the one encoding of an unknown rank (-1);
- :mod:`~warehouse.sources.kit.sqlite_input`: an SQLite input attached read-only, its input views and the
  copy's SQL functions (analysis.db, cluster_analysis.db);
- :mod:`~warehouse.sources.kit.multirow`: many rows per INSERT (the text exports, traces, operator profiles);
- :mod:`~warehouse.sources.kit.interning`: a trace's names interned into the string table as it is read.

Nothing here is in :data:`warehouse.sources.SOURCES`.
"""
