"""The fault-case counts in tests/FAULTS.md (README.md links there) are the suite's own, not a stale copy:
``scripts/fault_counts.py --check`` counts them from the tests again and compares."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.cpython_only
def test_the_written_fault_counts_are_the_suites_own() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "fault_counts.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:] or done.stdout[-2000:]
