"""The one error type a player ever sees: what was wrong, where, and what to type instead.

A message is face-neutral: it names no CLI flag, argument or command, and reads after the name of
the field it is about (``fields[0]``), which each face words its own way: the CLI as its flag
(``--attack-skill: enter a whole number, such as 40, not “abc”``), a page as the field's label."""

from __future__ import annotations

import contextlib
from typing import Iterator


class RollbookError(Exception):
    """Bad input to the engine. Its message is a single line meant for a player."""

    kind = "input"

    def __init__(self, message: str, *, hint: str | None = None, fields: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        # the request's arguments it is about, the one to fix first; a keyed one's entry as "score.con"
        self.fields = fields

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class LimitError(RollbookError):
    """An input that is valid but too large to answer quickly (a hang would freeze a phone)."""

    kind = "limit"


def quoted(value: object) -> str:
    """A value the player typed, as a message shows it: “abc” for text, 40 for a number."""
    if isinstance(value, str):
        return f"“{value}”"
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "nothing"}[value]
    return str(value)


@contextlib.contextmanager
def about(*fields: str, **renamed: str) -> Iterator[None]:
    """A rule's error raised inside is about these arguments, unless it names its own: a rule's
    error names the rule's parameters, which ``renamed`` maps to the command's (``dice="rolls"``)."""
    try:
        yield
    except RollbookError as error:
        error.fields = tuple(renamed.get(field, field) for field in error.fields) or fields
        raise
