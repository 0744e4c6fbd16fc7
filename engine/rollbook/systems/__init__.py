"""The three rule sets as functions over frozen dataclasses: opencore, codex, cyno.

Rules take dice results as arguments where a player may have rolled real dice, and an injected
``rng: random.Random`` where the engine rolls them (through :mod:`rollbook.dice`).
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

from rollbook.errors import RollbookError


def roll_total(expression: str, rng: random.Random) -> int:
    """Roll ``expression`` with the dice engine and return its total."""
    from rollbook.dice import roll  # imported late: the dice engine loads its parser on first use

    return roll(expression, rng).total


def check_range(name: str, value: int, low: int, high: int, *, hint: str | None = None) -> int:
    """``value`` if it lies in ``low..high``; a RollbookError saying where it must lie otherwise."""
    if not low <= value <= high:
        raise RollbookError(f"{name} must be between {low} and {high}, not {value}", hint=hint)
    return value


_NUMBER = re.compile(r"^-?\d+(\.\d+)?(/[1-9]\d*)?$")
_DECIMAL = re.compile(r"^-?\d+(\.\d+)?$")


def parse_number(text: str, what: str, *, fractions: bool = True) -> Fraction:
    """``7``, ``3.5`` or (when allowed) ``7/2`` as an exact Fraction; a RollbookError otherwise."""
    clean = text.strip()
    pattern = _NUMBER if fractions else _DECIMAL
    if not pattern.match(clean) or len(clean) > 40:
        example = "7, 3.5 or 7/2" if fractions else "7 or 2.5"
        raise RollbookError(f"cannot read {what} {text!r}", hint=f"a number such as {example}")
    return Fraction(clean)
