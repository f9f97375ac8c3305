"""A SQL-first warehouse for Huawei Ascend NPU profiling data."""

__version__ = "0.1.0"
