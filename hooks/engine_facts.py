"""MkDocs hook: the build stops when widgets/facts.js is out of date with the engine.

widgets/facts.js is the engine's facts (``rollbook.facts``: abilities, rulings, critical types, an
encounter's fields and limits, every command's parameters) written as JavaScript for the widgets.
It is committed, so Node's tests and the widget bundle read it with no build step; this check
makes a change to the engine's tables, rulings or shapes that was not written out stop the build
with the command that writes it, instead of shipping widgets that check against the old facts.
It does not write the file itself: a build never changes the sources.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rollbook.facts import GENERATED_BY, stale

FACTS_JS = Path(__file__).resolve().parents[1] / "widgets" / "facts.js"


class FactsOutOfDate(Exception):
    """widgets/facts.js is not what the engine's facts make it."""


def check(path: Path = FACTS_JS) -> None:
    if stale(path):
        raise FactsOutOfDate(f"{path.name} is out of date with the engine (or missing): run {GENERATED_BY}")


def on_config(config: Any) -> Any:
    from mkdocs.exceptions import PluginError

    try:
        check()
    except FactsOutOfDate as error:
        raise PluginError(f"engine_facts: {error}") from error
    return config
