"""The violating rows one audit finds: what each reconciliation test of two MindSpore files checks."""

from __future__ import annotations

from warehouse import audits


def audit_examples(conn, name: str) -> list[tuple]:
    """The rows the audit ``name`` (audits/{name}.sql) lists on ``conn``."""
    audit = {audit.name: audit for audit in audits.load_audits()}[name]
    return audits.run_audit(conn, audit).examples
