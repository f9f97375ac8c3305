"""The REST API (Flask): filled in by the REST issue."""
