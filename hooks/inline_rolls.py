"""MkDocs hook: dice in the rules text become buttons that roll (``<rollbook-roll>``).

An author marks a roll explicitly in the Markdown, with what it is for:

    Roll [[roll 1d100 | Initiative]] and add ...      a button "1d100" labelled "Initiative"
    | [[roll 1d100 - CON # Starting HP]] |            the same, in a table cell ("|" splits cells;
                                                      "#" is the dice notation's own label mark)
    [[roll 2d10+STR]]                                 labelled by the expression itself

Only marked text becomes a button (never a pattern guessed over the HTML), code spans stay
literal, and every marked expression is checked by the engine at build time: a typo stops the
build with the page, instead of shipping a button that answers with an error. Tables rendered
from data mark their own dice cells (``rollbook.tables.Display.rolls``, see rollbook_tables).
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as etree
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.inlinepatterns import InlineProcessor
from mkdocs.exceptions import PluginError

from rollbook.dice import parse
from rollbook.errors import RollbookError
from rollbook.facts import facts

# hooks/ is no package: MkDocs has a hook's folder on sys.path while it imports the hook, the tests
# that load a hook by its path do not, so the folder is put there for this one import.
sys.path.insert(0, str(Path(__file__).parent))
try:
    from widget_tags import WidgetTagsError, block_widgets
finally:
    sys.path.remove(str(Path(__file__).parent))

# The expression may hold Roll20's term labels in brackets ([[roll 2d6[fire] + 1d4[cold]]]).
ROLL = r"\[\[roll\s+(?P<expression>(?:[^\[\]|#]|\[[^\[\]|#]*\])+?)\s*(?:[|#]\s*(?P<label>[^\]]+?)\s*)?\]\]"
# After code spans (190) and backslash escapes (180), before links (160), which would read "[[".
PRIORITY = 175


def roll_element(expression: str, label: str | None) -> etree.Element:
    """``<rollbook-roll expression=… label=…>expression</rollbook-roll>``: reads as text without JS."""
    element = etree.Element("rollbook-roll")
    element.set("expression", expression)
    if label:
        element.set("label", label)
    element.text = expression
    return element


# OpenCore's abilities: an inline roll may name them (2d10+STR); the page fills them in from the
# active character, so the build checks the expression with each of them standing for a number.
ABILITY_VALUES = {ability["code"]: 50 for ability in facts()["abilities"]}


def check_expression(expression: str) -> None:
    """RollbookError unless the engine can roll ``expression`` (ability names count as values)."""
    parse(expression, ABILITY_VALUES)


class InlineRollProcessor(InlineProcessor):
    def handleMatch(self, m: re.Match[str], data: str) -> tuple[etree.Element, int, int]:  # type: ignore[override]
        expression, label = m["expression"].strip(), m["label"]
        try:
            check_expression(expression)
        except RollbookError as error:
            raise PluginError(f"inline roll [[roll {expression}]]: {error}") from error
        return roll_element(expression, label), m.start(0), m.end(0)


class InlineRollExtension(Extension):
    def __init__(self, block_widgets: tuple[str, ...]) -> None:
        super().__init__()
        self.block_widgets = block_widgets

    def extendMarkdown(self, md: Markdown) -> None:
        md.inlinePatterns.register(InlineRollProcessor(ROLL, md), "rollbook_roll", PRIORITY)
        # The widgets placed on a line of their own in a page (<rollbook-roller></rollbook-roller>):
        # block elements, so Markdown does not wrap them in a <p> (where their headings and lists
        # may not go). Every widget but the inline roll, read from widgets/rollbook.js.
        md.block_level_elements.extend(self.block_widgets)


def on_config(config: Any) -> Any:
    try:
        widgets = block_widgets()
    except WidgetTagsError as error:
        raise PluginError(f"inline_rolls: {error}") from error
    config.markdown_extensions.append(InlineRollExtension(widgets))
    return config
