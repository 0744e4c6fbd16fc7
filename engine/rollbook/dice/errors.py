"""Errors of the dice engine: every one is a RollbookError, most point at a column (a character)."""

from __future__ import annotations

from rollbook.errors import LimitError, RollbookError


def ordinal(number: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def place(column: int) -> str:
    """A column of the expression as a player counts it: "the 3rd character"."""
    return f"the {ordinal(column)} character"


class DiceError(RollbookError):
    """A dice expression that cannot be rolled; ``column`` (1-based) says where, when known: the
    message says it in words ("at the 6th character, …", unless ``placed`` is false: the message
    already says where, "found the end of the expression"), the API gives the number for a caret."""

    def __init__(self, message: str, *, column: int | None = None, hint: str | None = None,
                 variable: str | None = None, value_given: bool = False, placed: bool = True) -> None:
        super().__init__(f"at {place(column)}, {message}" if column and placed else message, hint=hint)
        self.column = column
        # a name in the expression: its entry among the values given is what to fix too, or alone
        # when ``value_given`` (the value itself is wrong, not the expression)
        self.variable = variable
        self.value_given = value_given


class DiceSyntaxError(DiceError):
    """The text is not dice notation: what was expected, and at which column."""


class DiceLimitError(DiceError, LimitError):
    """Valid notation, but too large to answer quickly (a hang would freeze a phone)."""
