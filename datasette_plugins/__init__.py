"""The Datasette plugin of the warehouse (registered through the ``datasette`` entry point)."""
