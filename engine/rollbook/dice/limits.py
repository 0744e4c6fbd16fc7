"""Caps that keep every answer well under a second, in the browser as on a server.

Each cap is one named number and one message that says what the limit is.
"""

from __future__ import annotations

from rollbook.dice.errors import DiceLimitError

MAX_CHARS = 1_000  # the text of one expression
MAX_DEPTH = 32  # nesting of parentheses, groups, unary minus and computed counts
MAX_DICE = 1_000  # dice written in one roll (the sum of every count)
MAX_SIDES = 10_000  # faces of one die
MAX_GROUP_ITEMS = 20  # expressions in one {group}
MAX_CHAIN = 100  # extra dice one die may add by exploding or open-ending, when rolled
MAX_REROLLS = 100  # rerolls of one die shown one by one; beyond, the die is drawn directly
MAX_OUTCOMES = 20_000  # distinct totals in one exact distribution
MAX_PRODUCT_PAIRS = 250_000  # outcome pairs to combine for one * or / of two random values
MAX_WEIGHT_DIGITS = 2_500_000  # outcomes x decimal digits of exact weight held while convolving
MAX_GROUP_WORK = 150_000  # (values kept so far) x (outcomes of the next item), keeping from a group


def too_many(what: str, limit: int, *, column: int | None = None, hint: str | None = None) -> DiceLimitError:
    """``at most 1,000 dice in one roll``: the one shape every limit message has."""
    return DiceLimitError(f"at most {limit:,} {what}", column=column, hint=hint)


def check_dice(total: int, column: int | None = None) -> None:
    if total > MAX_DICE:
        raise too_many("dice in one roll", MAX_DICE, column=column)


def check_sides(sides: int, column: int | None = None) -> None:
    if sides > MAX_SIDES:
        raise too_many("sides on a die", MAX_SIDES, column=column)


def check_outcomes(count: int) -> None:
    if count > MAX_OUTCOMES:
        raise too_many("different totals in an exact distribution", MAX_OUTCOMES,
                       hint=f"this one would have {count:,}; roll it instead")
# The work of one exact distribution, in units of about 40 ns on a laptop CPU: one decimal digit
# of a weight produced by a convolution (measured: 30-60 ns a digit). Keeps every answer well
# under a second, also in the browser, whatever the shape of the expression.
MAX_WORK = 8_000_000
MAX_REPEATS = 100  # rolls of one expression asked for at once (--count)
