"""Rollbook's dice engine: notation, rolls with every detail, exact probabilities.

    >>> from rollbook.dice import roll, distribution
    >>> roll("4d6kh3", random.Random(7)).text        # '4d6kh3 (6, 5, ~~2~~, 4) = 15'
    >>> distribution("2d6").p_at_least(10)            # Fraction(1, 6)

Every bad input raises :class:`DiceError` (a RollbookError) naming the column and what to
type instead; the grammar is on the site's dice notation page (docs/dice-notation.md).
"""

from __future__ import annotations

import random

from rollbook.dice.checks import check
from rollbook.dice.exact import Distribution, die_value, distribution_of
from rollbook.dice.errors import DiceError, DiceLimitError, DiceSyntaxError
from rollbook.dice.notation import canonical
from rollbook.dice.parser import parse_tree
from rollbook.dice.results import Die, RollResult
from rollbook.dice.roller import Runner, compile_tree, model
from rollbook.dice.tree import Expression

__all__ = ["parse", "roll", "distribution", "canonical", "Distribution", "RollResult", "Die", "Expression",
           "DiceError", "DiceSyntaxError", "DiceLimitError"]

_checked: dict[str, tuple[Expression, Runner]] = {}  # expression text -> checked tree, compiled roller
_CACHE_SIZE = 512


def _prepared(expression: str) -> tuple[Expression, Runner]:
    hit = _checked.get(expression)
    if hit is None:
        if not isinstance(expression, str):
            raise DiceError(f"a dice expression must be text, not {type(expression).__name__}")
        tree = parse_tree(expression)
        check(tree)
        if len(_checked) >= _CACHE_SIZE:
            _checked.clear()
        hit = _checked[expression] = (tree, compile_tree(tree.root))
    return hit


def parse(expression: str) -> Expression:
    """Text to a checked syntax tree; raises DiceError (with the column) for bad input."""
    return _prepared(expression)[0]


def roll(expression: str, rng: random.Random | None = None) -> RollResult:
    """Roll once. Cryptographic randomness unless an ``rng`` (e.g. ``random.Random(seed)``) is given."""
    tree, run = _prepared(expression)
    return RollResult(tree, run(rng or random.SystemRandom()))


def clear_caches() -> None:
    """Forget parsed trees and per-die tables (benchmarks time the cold path with it)."""
    _checked.clear()
    _distributions.clear()
    parse_tree.cache_clear()
    model.cache_clear()
    die_value.cache_clear()


_distributions: dict[str, Distribution] = {}  # canonical expression -> answer (a widget asks again and again)


def distribution(expression: str) -> Distribution:
    """The exact distribution of the expression's total (``residual`` > 0 only for infinite chains)."""
    tree = parse(expression)
    key = canonical(Expression(tree.root))  # the label does not change the odds
    hit = _distributions.get(key)
    if hit is None:
        if len(_distributions) >= 64:
            _distributions.clear()
        hit = _distributions[key] = distribution_of(tree, key)
    return hit
