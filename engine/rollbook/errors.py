"""The one error type a player ever sees: what was wrong, where, and what to type instead."""

from __future__ import annotations


class RollbookError(Exception):
    """Bad input to the engine. Its message is a single line meant for a player."""

    kind = "input"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class LimitError(RollbookError):
    """An input that is valid but too large to answer quickly (a hang would freeze a phone)."""

    kind = "limit"
