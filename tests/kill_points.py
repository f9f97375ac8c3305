"""The ``warehouse`` CLI as a real child process that SIGKILLs itself at a named point of the code.

A kill point is ``module:function:calls``: the child lets ``function`` of ``module`` complete
``calls`` times, then kills itself with SIGKILL when it is entered once more. The point is
exact (no timing decides what the process had done), and what happens to the process is what a
user's ``kill -9`` (or the OOM killer) does: no handler, no ``finally``, no flush. The child is
bounded in CPU time and address space, and runs in a session of its own so anything it started
(Spark's JVM) goes with it.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

#: the child's program: argv[1] the kill point ("" for none), the rest the CLI's arguments
CHILD = """
import importlib, os, signal, sys

if sys.argv[1]:
    module_name, name, calls = sys.argv[1].split(":")
    module = importlib.import_module(module_name)
    original, left = getattr(module, name), [int(calls)]

    def killing(*args, **kwargs):
        if not left[0]:
            os.kill(os.getpid(), signal.SIGKILL)
        left[0] -= 1
        return original(*args, **kwargs)

    setattr(module, name, killing)
from warehouse.cli import cli

cli(sys.argv[2:], prog_name="warehouse")
"""
#: bounds of the child: CPU seconds (a hang guard) and address space
CPU_SECONDS = 600
ADDRESS_SPACE = 8 << 30


def run(point: str, args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``warehouse ARGS`` in a bounded child killed at ``point`` (``""``: runs to its end)."""
    def bounds():
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    child = subprocess.Popen([sys.executable, "-c", CHILD, point, *args], env={**os.environ, **(env or {})},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=bounds,
                             start_new_session=True)
    try:
        stdout, stderr = child.communicate(timeout=CPU_SECONDS)
    finally:
        try:  # whatever the child started and left behind (its session is its own)
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return subprocess.CompletedProcess(child.args, child.returncode, stdout, stderr)
