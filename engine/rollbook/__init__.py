"""Rollbook's rules engine: dice notation, exact odds and the rules of three tabletop games.

Standard library only: this package ships to the browser inside Pyodide.
"""

__version__ = "0.1.0"
