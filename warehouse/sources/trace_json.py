"""Chrome trace-event JSON (placeholder until the trace JSON source lands)."""

KIND = "trace_json"


def detect(path) -> bool:
    return False


def ingest(conn, path, source_id):
    raise NotImplementedError
