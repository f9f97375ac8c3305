"""``python -m warehouse``: the same as the ``warehouse`` command."""

from warehouse.cli import cli

cli()
