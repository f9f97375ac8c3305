"""Generators of realistic profiler outputs at any size, for the demo and the benchmarks."""
