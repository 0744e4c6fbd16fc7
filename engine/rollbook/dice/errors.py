"""Errors of the dice engine: every one is a RollbookError, most point at a column."""

from __future__ import annotations

from rollbook.errors import LimitError, RollbookError


class DiceError(RollbookError):
    """A dice expression that cannot be rolled; ``column`` (1-based) says where, when known."""

    def __init__(self, message: str, *, column: int | None = None, hint: str | None = None,
                 variable: str | None = None, value_given: bool = False) -> None:
        super().__init__(f"column {column}: {message}" if column else message, hint=hint)
        self.column = column
        # a name in the expression: its entry among the values given is what to fix too, or alone
        # when ``value_given`` (the value itself is wrong, not the expression)
        self.variable = variable
        self.value_given = value_given


class DiceSyntaxError(DiceError):
    """The text is not dice notation: what was expected, and at which column."""


class DiceLimitError(DiceError, LimitError):
    """Valid notation, but too large to answer quickly (a hang would freeze a phone)."""
