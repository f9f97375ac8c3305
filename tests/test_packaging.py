"""A wheel carries every file the library reads at run time, not only the Python modules."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA_SUFFIXES = {".sql", ".csv", ".html", ".js", ".css"}


def runtime_data_files() -> set[str]:
    """Data files below the packages, as the wheel must name them (through the _bundled links)."""
    found = set()
    for package in ("warehouse", "datasette_plugins"):
        for root, _, files in os.walk(REPO / package, followlinks=True):
            found.update(
                (Path(root) / name).relative_to(REPO).as_posix() for name in files if Path(name).suffix in DATA_SUFFIXES
            )
    return found


@pytest.mark.slow
def test_wheel_contains_every_runtime_data_file(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(tmp_path), str(REPO)],
        check=True, capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = runtime_data_files()
    assert "warehouse/_bundled/migrations/0001_core.sql" in expected
    assert any(name.startswith("warehouse/_bundled/queries/") for name in expected)
    assert expected - names == set()
