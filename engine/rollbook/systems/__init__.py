"""The three rule sets as functions over frozen dataclasses: opencore, codex, cyno.

Rules take dice results as arguments where a player may have rolled real dice, and an injected
``rng: random.Random`` where the engine rolls them (through :mod:`rollbook.dice`).
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Callable, Hashable, Literal, Mapping, TypeVar

from rollbook.errors import RollbookError, quoted
from rollbook.rule_sets import RULE_SETS as RULE_SETS  # still read here by the hooks

Winner = TypeVar("Winner")
Key = TypeVar("Key", bound=Hashable)


def roll_total(expression: str, rng: random.Random) -> int:
    """Roll ``expression`` with the dice engine and return its total."""
    from rollbook.dice import roll  # imported late: the dice engine loads its parser on first use

    return int(roll(expression, rng).total)  # the rule sets' expressions are whole: dice and + -


def given_or_rolled(value: int | None, expression: str, rng: random.Random) -> int:
    """The roll a player made at the table, or one the engine makes for them."""
    return roll_total(expression, rng) if value is None else value


def roll_off(first: int | None, second: int | None, expression: str, rng: random.Random,
             decide: Callable[[int, int], Winner | None]) -> tuple[list[tuple[int, int]], Winner]:
    """Two sides each roll ``expression`` (rolls already made are given); while ``decide`` calls the
    pair a tie (None), both roll again. Returns every pair rolled and the winner."""
    rolls = [(given_or_rolled(first, expression, rng), given_or_rolled(second, expression, rng))]
    while (winner := decide(*rolls[-1])) is None:
        rolls.append((roll_total(expression, rng), roll_total(expression, rng)))
    return rolls, winner


def rank_with_rerolls(scores: Mapping[Key, int], reroll: Callable[[Key], int]) -> list[Key]:
    """The keys, highest score first. Keys that tie get a new score each from ``reroll`` (in the
    order given) and are ranked among themselves the same way, until no tie is left."""
    ranked: list[Key] = []
    for score in sorted(set(scores.values()), reverse=True):
        tied = [key for key in scores if scores[key] == score]
        ranked += tied if len(tied) == 1 else rank_with_rerolls({key: reroll(key) for key in tied}, reroll)
    return ranked


def higher(first: int, second: int) -> Literal["first", "second"] | None:
    """Which of two results is higher; None when they tie."""
    if first == second:
        return None
    return "first" if first > second else "second"


def check_range(name: str, value: int, low: int, high: int, *, hint: str | None = None, field: str | None = None) -> int:
    """``value`` if it lies in ``low..high``; a RollbookError saying where it must lie otherwise
    (about the argument ``field``, when it is one)."""
    if not low <= value <= high:
        raise RollbookError(f"{name} must be between {low} and {high}, not {value}", hint=hint,
                            fields=(field,) if field else ())
    return value


_NUMBER = re.compile(r"^-?\d+(\.\d+)?(/[1-9]\d*)?$")
_DECIMAL = re.compile(r"^-?\d+(\.\d+)?$")


def parse_number(text: str, what: str, *, fractions: bool = True, field: str | None = None) -> Fraction:
    """``7``, ``3.5`` or (when allowed) ``7/2`` as an exact Fraction; a RollbookError otherwise
    (about the argument ``field``, when it is one)."""
    clean = text.strip()
    pattern = _NUMBER if fractions else _DECIMAL
    if not pattern.match(clean) or len(clean) > 40:
        example = "7, 3.5 or 7/2" if fractions else "7 or 2.5"
        raise RollbookError(f"cannot read {what} {quoted(text)}", hint=f"a number such as {example}",
                            fields=(field,) if field else ())
    return Fraction(clean)
