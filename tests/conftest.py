"""What every part of tests/ shares: tests/kit/ on the import path (``from kit.engine import engine``).

Only the engine suite runs inside Pyodide, with --confcutdir tests/engine, so nothing here reaches it."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
