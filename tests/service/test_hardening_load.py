"""The load test, short: 4 clients for 3 s against a real ``warehouse serve`` process, zero errors.

bench/load_test.py is the full run (16 clients x 20 s, figures in bench/RESULTS.md); this
runs its own code on the factory warehouse so CI proves the server holds concurrent
clients (keep-alive connections, the pooled read-only connections, the token) without an error.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "load_test.py"


def _load_test():
    spec = importlib.util.spec_from_file_location("load_test", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("load_test", module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_concurrent_clients_get_no_errors(served_warehouse):
    load_test = _load_test()
    tally = load_test.run(served_warehouse["path"], clients=4, seconds=3, server_threads=4)
    assert tally.errors == 0, tally.causes
    labels = {call.label for call in load_test.mix(served_warehouse["thread_id"])}
    assert set(tally.latencies) == labels  # every request of the mix was answered as expected
    assert all(len(values) >= 2 for values in tally.latencies.values())
    assert "| all |" in load_test.report(tally, 4, 3)
