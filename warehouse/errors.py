"""The exceptions that carry a user-facing message (never shown as a traceback)."""


class WarehouseError(Exception):
    """A problem the user can act on: a bad path, a warehouse of another version."""


class IngestError(WarehouseError):
    """An input file is malformed; the message names the place (byte offset, line, table)."""
