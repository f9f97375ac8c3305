"""Schemathesis against our own OpenAPI document: every operation, generated requests, no 500s, conforming answers.

Runs in-process on the Flask app (schemathesis' WSGI transport) over the factory warehouse
of ``conftest.py``; bounded (a few examples per operation) and seeded (derandomized), so
CI runs the same requests every time. Each operation is driven through its hypothesis
strategy directly (``operation.as_strategy()``), which needs no pytest plugin hook.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance, response_schema_conformance, status_code_conformance,
)

from service import create_app

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
#: generated requests per operation
EXAMPLES = 15


@pytest.mark.slow
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["valid", "invalid"])
def test_every_operation_answers_without_a_server_error_and_as_documented(served_warehouse, mode):
    """Valid requests get documented answers; invalid ones (wrong types, missing fields) get no 500 either."""
    checks = CHECKS if mode is GenerationMode.POSITIVE else [not_a_server_error, content_type_conformance]
    app = create_app({"DATABASE": str(served_warehouse["path"]), "TIME_LIMIT_S": 2.0})
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 70  # every route and every named query

    for operation in operations:
        if mode is GenerationMode.NEGATIVE and not (len(operation.query) or len(operation.path_parameters)
                                                    or len(operation.body)):
            continue  # nothing to make invalid (GET /health)

        @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=mode))
        def answers_as_documented(case):
            case.call_and_validate(checks=checks)

        answers_as_documented()
