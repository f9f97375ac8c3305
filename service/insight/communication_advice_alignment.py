"""The "Byte Alignment Analysis" item of communication/advisor: HCCL operators moving unaligned SDMA data.

The real server (``server/src/modules/communication/advisor/ByteAlignmentAnalyzer.cpp``) reads each
rank's trace database: the hcom operators of COMMUNICATION_OP and their Memcpy / Reduce tasks of
COMMUNICATION_TASK_INFO (``timeline/core/database/DbTraceDatabaseAdvice.cpp``
QueryByteAlignmentAnalyzerData; of a text export, trace_view.json's hcom, Memcpy and Reduce slices,
``TextTraceDatabaseAdvice.cpp``), and lists an operator when one of its SDMA tasks off chip moves more
than 512 bytes and no multiple of 512. Here the named query ``communication_unaligned_transfers``
lists them, from the HCCL tasks of the input answering each rank's timeline, in the server's order
(ranks as text, then operator names). Its columns are std::map keys, so in name order: ``name``, ``rankId``.
"""

from __future__ import annotations

from service.insight.protocol import rows

TITLE = "Byte Alignment Analysis"
#: transfers above this many bytes are checked, against this alignment (BYTE_ALIGNMENT_*_SIZE)
SMALL_BYTES = 512
BASE_BYTES = 512


def item(conn, run_id: int) -> dict:
    """The Byte Alignment Analysis item of the run: the rank and name of each unaligned operator."""
    found = rows(conn, "communication_unaligned_transfers", run_id=run_id, small_bytes=SMALL_BYTES,
                 base_bytes=BASE_BYTES)
    return {"name": TITLE, "statistics": {
        "name": [row["op_name"] for row in found],
        "rankId": [str(row["rank_id"]) for row in found]}}
