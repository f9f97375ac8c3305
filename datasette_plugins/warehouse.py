"""Datasette hooks for warehouse files: filled in by the Datasette issue."""
