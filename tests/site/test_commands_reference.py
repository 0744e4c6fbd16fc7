"""COMMANDS.md is the engine's command registry written out, not a stale copy:
``scripts/commands_reference.py --check`` writes it again from ``rollbook.api.commands_schema()`` and compares."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.cpython_only
def test_the_command_reference_is_the_registrys_own() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "commands_reference.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:] or done.stdout[-2000:]
