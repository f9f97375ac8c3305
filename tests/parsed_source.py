"""Python source parsed to its syntax tree, for the tests that read the project's own code.

CPython 3.11 before 3.11.8 (python/cpython gh-106905) keeps ``ast.parse``'s recursion count in state
every thread shares, and a conversion that fails leaves the count off: a parse while another thread
parses (the traceback module does, to place its carets, when a server thread of an earlier test in the
same worker logs an error) can fail with "SystemError: AST constructor recursion depth mismatch".
Each call starts its count afresh, so the parse is tried again.
"""

from __future__ import annotations

import ast

#: how many times a parse is tried before its SystemError is raised
TRIES = 5


def parsed(source: str, name: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, name)``, tried again on CPython's spurious SystemError (module docstring)."""
    for _ in range(TRIES - 1):
        try:
            return ast.parse(source, name)
        except SystemError:
            continue
    return ast.parse(source, name)
