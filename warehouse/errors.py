"""The exceptions that carry a user-facing message (never shown as a traceback)."""

from __future__ import annotations

from importlib.util import find_spec


class WarehouseError(Exception):
    """A problem the user can act on: a bad path, a warehouse of another version.

    The CLI prints the message as one line and exits with :attr:`exit_code`.
    """

    exit_code = 1


class MissingExtra(WarehouseError):
    """A feature needs an optional dependency (an extra of pyproject.toml) that is not installed.

    Exit code 2, as for a usage error: nothing was attempted, and the fix is an install,
    which the message spells out.
    """

    exit_code = 2

    def __init__(self, feature: str, module: str, extra: str):
        super().__init__(f"{feature} needs {module}: pip install 'ascend-warehouse[{extra}]'")
        self.module = module
        self.extra = extra


def require_extra(feature: str, modules: tuple[str, ...], extra: str = "scale") -> None:
    """Check that the top-level ``modules`` of an extra can be imported, without importing them.

    Called before a command touches anything (an output folder, a Spark session), so a missing
    extra is the first and only thing said. ``find_spec`` also sees a module masked by ``None``
    in ``sys.modules``, which is how the tests uninstall one.

    :raises MissingExtra: naming the first module missing and the extra that brings it.
    """
    for module in modules:
        if find_spec(module) is None:
            raise MissingExtra(feature, module, extra)


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
