"""``rollbook table NAME``: a rule table as data and as the reader sees it (for pages that build
their pickers and checkboxes from the engine's own rows, never from a copy of the table);
``rollbook rulings``: every ruling's id and title (a page names a ruling by its title)."""

from __future__ import annotations

from typing import Annotated, Any

from rollbook import rulings as rulings_data
from rollbook import tables
from rollbook.commands import Arg, Result, command


def _plain(value: Any) -> Any:
    """A table row (read-only mappings and tuples) as plain JSON values."""
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if hasattr(value, "items"):
        return {key: _plain(item) for key, item in value.items()}
    return value


@command("table")
def table(name: Annotated[str, Arg("the table, e.g. opencore.weapons or cyno.strike.penalties", metavar="NAME")]) -> Result:
    """A rule table: its rows as data and as text, e.g. the weapons or the strike penalties."""
    data = tables.get(name)
    shown = tables.display(name)
    lines = [" | ".join(shown.columns), *(" | ".join(row) for row in shown.rows)]
    return {"name": name, "title": data.title, "caption": shown.caption, "rows": _plain(data.rows),
            "columns": list(shown.columns), "cells": [list(row) for row in shown.rows],
            "text": "\n".join([data.title, *lines])}


@command("rulings")
def rulings() -> Result:
    """Every ruling's id, rule set and title (the Rulings page has each one in full)."""
    found = [{"id": r.id, "rule_set": r.rule_set, "title": r.title} for r in rulings_data.all_rulings()]
    return {"rulings": found, "text": "\n".join(r["title"] for r in found)}
