"""Shared set-up of the Python package's tests: where the sources, the netlists and the
command line are (ctest passes them in the environment; see CMakeLists.txt here)."""

import os
import subprocess
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("JOURDAIN_SOURCE_DIR", Path(__file__).resolve().parents[3]))
NETLISTS = SOURCE_DIR / "netlists"
JOURDAIN_EXE = os.environ.get("JOURDAIN_EXE", str(SOURCE_DIR / "build" / "apps" / "cli" / "jourdain"))


@pytest.fixture
def netlists() -> Path:
    return NETLISTS


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """The command line, as a user runs it."""
    return subprocess.run([JOURDAIN_EXE, *args], capture_output=True, text=True, check=False)
