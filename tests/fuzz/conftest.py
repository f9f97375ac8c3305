"""The fuzz suite's hypothesis profile: seeded (derandomized) and bounded, so CI runs it in minutes.

Every fuzz test is deterministic: ``derandomize=True`` draws its examples from a seed
derived from the test itself, and no example database is kept between runs. The bounds
(examples per test, a per-example deadline) keep the whole suite under ~3 minutes on
two cores; each example also runs under :func:`fuzz.harness.bounded` (a wall-clock alarm
and an address-space limit), which catches hangs and runaway allocations the deadline cannot.
"""

from __future__ import annotations

from datetime import timedelta

from hypothesis import HealthCheck, settings

settings.register_profile(
    "fuzz",
    derandomize=True,
    database=None,
    max_examples=30,
    deadline=timedelta(seconds=10),
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.load_profile("fuzz")
