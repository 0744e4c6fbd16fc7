"""Rollbook's dice engine: notation, rolls with every detail, exact probabilities.

    >>> from rollbook.dice import roll, distribution
    >>> roll("4d6kh3", random.Random(7)).text        # '4d6kh3 (6, 5, ~~2~~, 4) = 15'
    >>> distribution("2d6").p_at_least(10)            # Fraction(1, 6)

Every bad input raises :class:`DiceError` (a RollbookError) naming the place and what to
type instead; the grammar is on the site's dice notation page (docs/dice-notation.md).
"""

from __future__ import annotations

import random
from typing import Mapping, NamedTuple

from rollbook.dice.chains import die_value
from rollbook.dice.checks import check_rolls
from rollbook.dice.exact import Distribution, distribution_of
from rollbook.dice.errors import DiceError, DiceLimitError, DiceSyntaxError
from rollbook.dice.limits import AMPLE, MAX_ROLLED, Budget
from rollbook.dice.notation import canonical
from rollbook.dice.parser import Values, named_values, parse_tree
from rollbook.dice.results import Die, RollResult
from rollbook.dice.roller import Runner, compile_tree, model
from rollbook.dice.tree import Expression

__all__ = ["parse", "roll", "distribution", "canonical", "Distribution", "RollResult", "Die", "Expression",
           "DiceError", "DiceSyntaxError", "DiceLimitError", "Budget", "plan"]


class Prepared(NamedTuple):
    """A checked expression, ready to roll again and again."""

    tree: Expression
    run: Runner
    least: int  # dice one roll rolls at the fewest
    most: float  # and at the most (inf when rerolls or explosions leave it open)
    alone: Budget | None  # AMPLE when one roll can never exceed the limit: nothing to count


# expression text (with the named values, when there are some) -> checked tree, compiled roller
_checked: dict[str | tuple[str, Values], Prepared] = {}
_CACHE_SIZE = 512


def _prepared(expression: str, values: Values = ()) -> Prepared:
    key = (expression, values) if values else expression  # no tuple to build on the hot path
    hit = _checked.get(key)
    if hit is None:
        if not isinstance(expression, str):
            raise DiceError(f"a dice expression must be text, not {type(expression).__name__}")
        tree = parse_tree(expression, values)
        least, most = check_rolls(tree)
        if len(_checked) >= _CACHE_SIZE:
            _checked.clear()
        alone = AMPLE if most <= MAX_ROLLED else None
        hit = _checked[key] = Prepared(tree, compile_tree(tree.root), least, most, alone)
    return hit


def parse(expression: str, values: Mapping[str, int] | None = None) -> Expression:
    """Text to a checked syntax tree; raises DiceError (with the column) for bad input.

    ``values`` gives the names in the expression their numbers: ``parse("2d10+STR", {"STR": 3})``."""
    return _prepared(expression, named_values(values)).tree


def plan(expression: str, times: int, budget: Budget, values: Mapping[str, int] | None = None) -> None:
    """Refuse before rolling when ``times`` rolls cannot fit in the budget (see limits.MAX_ROLLED)."""
    p = _prepared(expression, named_values(values))
    budget.plan(p.least, p.most, times)


def roll(expression: str, rng: random.Random | None = None, budget: Budget | None = None,
         values: Mapping[str, int] | None = None) -> RollResult:
    """Roll once. Cryptographic randomness unless an ``rng`` (e.g. ``random.Random(seed)``) is given.

    Every die rolled is spent from ``budget``: one request's limit across many rolls (``--count``).
    Without one, this roll alone may roll at most limits.MAX_ROLLED dice. ``values`` as for parse."""
    tree, run, least, most, alone = _prepared(expression, named_values(values) if values else ())
    if budget is None and alone is not None:
        budget = alone  # checked when first parsed: this roll alone cannot run short
    else:
        budget = budget or Budget()
        budget.plan(least, most)
    return RollResult(tree, run(rng or random.SystemRandom(), budget))


def clear_caches() -> None:
    """Forget parsed trees and per-die tables (benchmarks time the cold path with it)."""
    _checked.clear()
    _distributions.clear()
    parse_tree.cache_clear()
    model.cache_clear()
    die_value.cache_clear()


ESTIMATE_HINT = "estimate them from seeded rolls instead, such as 10,000"
_distributions: dict[str, Distribution] = {}  # canonical expression -> answer (a widget asks again and again)


def distribution(expression: str, values: Mapping[str, int] | None = None) -> Distribution:
    """The exact distribution of the expression's total (``residual`` > 0 only for infinite chains);
    ``values`` as for parse."""
    tree = parse(expression, values)
    key = canonical(Expression(tree.root))  # the label does not change the odds
    hit = _distributions.get(key)
    if hit is None:
        if len(_distributions) >= 64:
            _distributions.clear()
        try:
            hit = _distributions[key] = distribution_of(tree, key)
        except DiceLimitError as error:  # plainly: no exact answer, and what to do instead
            raise DiceLimitError(f"exact odds are out of reach: {error.message}",
                                 hint=f"{error.hint}; " * bool(error.hint) + ESTIMATE_HINT) from None
    return hit
