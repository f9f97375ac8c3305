"""First answers first (issue 21 item 1): a cluster's step time, communication, top kernels and
slow ranks from the raw rank dbs in seconds, the full warehouse after.

Stage 1 (:mod:`warehouse.ingest.staged.first`) stages every rank db: a worker reads the raw file and
computes the rank's answers, aggregated (:mod:`warehouse.ingest.staged.answers`), and the parent writes
them (``staged_step``, ``staged_kernel``, ``staged_hccl``, migration 0016) with the file's
``source`` row, ``stage = 'answers'``, in one short transaction per rank. Stage 2 is the ordinary
full ingest of the same files into the same source rows (:mod:`warehouse.ingest`); the staged
rows go in the transaction that lands the rank, so the warehouse ends as a plain ingest leaves it.
"""

from pathlib import Path

#: the statements of stage 1 (``staged_*.sql``): beside the model's, where the wheel's package data takes .sql files
SQL_DIR = Path(__file__).parents[2] / "model"
