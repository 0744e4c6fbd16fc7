"""Caps that keep every answer well under a second, in the browser as on a server.

Each cap is one named number and one message that says what the limit is.
"""

from __future__ import annotations

from rollbook.dice.errors import DiceLimitError

MAX_CHARS = 1_000  # the text of one expression
MAX_DEPTH = 32  # nesting of parentheses, groups, unary minus and computed counts
MAX_DICE = 5_000  # dice written in one roll (the sum of every count): 20d4+999d10 rolls, in about 2 ms
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
                       hint=f"this one would have {count:,}")
# The work of one exact distribution, in units of about 40 ns on a laptop CPU: one decimal digit
# of a weight produced by a convolution (measured: 30-60 ns a digit). Keeps every answer well
# under a second, also in the browser, whatever the shape of the expression.
MAX_WORK = 8_000_000
MAX_REPEATS = 100  # rolls of one expression asked for at once (--count)
# Dice actually rolled for one request: every reroll, explosion and open-ended roll counts, across
# the whole --count. 100 rolls of 4d6kh3 are 400, of 10d10! about 1,100; 10,000 rolls take about
# 15 ms and their JSON, die by die, stays under about 1 MB.
MAX_ROLLED = 10_000
ROLLED_WHAT = "dice rolled in one request, rerolls and explosions included"
ROLLED_HINT = "roll fewer dice at once"


class Budget:
    """The dice one request may still roll (MAX_ROLLED): checked before rolling where the worst
    case is known, and spent die by die while rolling where it is not (rerolls, explosions)."""

    __slots__ = ("left",)

    def __init__(self, dice: float = MAX_ROLLED) -> None:
        self.left = dice

    def plan(self, least: int, most: float, times: int = 1) -> None:
        """Refuse before any die falls: ``times`` rolls need at least ``least`` dice each and at
        most ``most`` (``inf`` when rerolls or explosions leave it open)."""
        if least * times > self.left:
            raise too_many(ROLLED_WHAT, MAX_ROLLED, hint=f"this needs at least {least * times:,}; {ROLLED_HINT}")
        if most != float("inf") and most * times > self.left:
            raise too_many(ROLLED_WHAT, MAX_ROLLED, hint=f"this can need {int(most * times):,}; {ROLLED_HINT}")

    def spend(self, dice: int) -> None:
        self.left -= dice
        if self.left < 0:
            raise too_many(ROLLED_WHAT, MAX_ROLLED, hint=f"this roll kept on rerolling or exploding; {ROLLED_HINT}")


# A budget that cannot run short, for one roll whose worst case was checked to fit before rolling
# (inf minus anything stays inf, so sharing it is safe).
AMPLE = Budget(float("inf"))
