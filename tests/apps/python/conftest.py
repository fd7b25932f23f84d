"""Shared set-up of the Python package's tests: where the sources, the netlists and the
command line are (ctest passes them in the environment; see CMakeLists.txt here)."""

import faulthandler
import os
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("JOURDAIN_SOURCE_DIR", Path(__file__).resolve().parents[3]))
NETLISTS = SOURCE_DIR / "netlists"
JOURDAIN_EXE = os.environ.get("JOURDAIN_EXE", str(SOURCE_DIR / "build" / "apps" / "cli" / "jourdain"))

# A test that hangs (a study waiting for good for workers that never come) ends after
# this long with the stacks of every thread and exit status 1, instead of holding ctest
# for good: generous beside the longest test here on a loaded machine (a minute or so).
TEST_TIMEOUT_SECONDS = float(os.environ.get("JOURDAIN_TEST_TIMEOUT", "300"))
_hang_report = None  # the real stderr: pytest captures it while tests run


def pytest_configure(config):
    # pytest does not capture while it configures: a copy of the real stderr taken now
    # still reaches ctest's log when the tests run.
    global _hang_report
    _hang_report = open(os.dup(sys.stderr.fileno()), "w")


@pytest.fixture(autouse=True)
def fail_a_hang_with_its_stacks():
    faulthandler.dump_traceback_later(TEST_TIMEOUT_SECONDS, exit=True, file=_hang_report or sys.stderr)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def netlists() -> Path:
    return NETLISTS


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """The command line, as a user runs it."""
    return subprocess.run([JOURDAIN_EXE, *args], capture_output=True, text=True, check=False)
