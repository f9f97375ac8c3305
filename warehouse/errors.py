"""The exceptions that carry a user-facing message (never shown as a traceback)."""


class WarehouseError(Exception):
    """A problem the user can act on: a bad path, a warehouse of another version."""


class IngestError(WarehouseError):
    """An input file is malformed; the message names the place (byte offset, line, table)."""


class SourceConflict(IngestError):
    """An input claims what other ingested sources hold (e.g. the same rank of the run).

    Raised by a source module before it writes anything; with ``--force`` the frame
    deletes ``source_ids`` and runs the module again, so the new file replaces them.
    """

    def __init__(self, message: str, source_ids):
        super().__init__(message)
        self.source_ids = tuple(source_ids)
