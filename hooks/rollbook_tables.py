"""MkDocs hook: renders the engine's tables and rulings into the pages at build time.

A page names what it wants with a placeholder alone on its own line:

    [[table opencore.critical.slash]]       the table, from rollbook.tables.display(name)
    [[ruling opencore-composite-rounding]]  a "Ruling: <title>" admonition linking to the Rulings page
    [[rulings]]                             every ruling, grouped by rule set, each under an anchor = its id

The tables live once, as data in the engine package; the pages never type them again. An unknown
name stops the build with the page and line, so a typo cannot ship an empty gap.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterator
from typing import Any

from mkdocs.exceptions import PluginError

from rollbook import rulings, tables
from rollbook.errors import RollbookError
from rollbook.systems import RULE_SETS

# The page that holds every ruling; [[ruling ID]] admonitions link to its anchors.
RULINGS_PAGE = "rulings.md"


# Alone on its line; indented placeholders (inside an admonition or a list item) keep their indent.
PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\[\[(?P<kind>[a-z]+)(?:\s+(?P<name>[^\]\s]+))?\s*\]\]\s*$")
FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
# A ruling named in running text by its id ("at least 1, ruling opencore-hp-minimum"), as the
# rulings' own words and a page's may: a reader is shown its title, linked, never the id.
RULING_NAMED = re.compile(r"\bruling (?P<id>(?:" + "|".join(RULE_SETS) + r")(?:-[a-z0-9]+)+)\b")

# Characters that Markdown would read as markup inside a table cell. Backslash first, so the
# escapes added for the others are not escaped again; "<" and "&" become entities (raw HTML is on).
_CELL_ESCAPES = (("\\", "\\\\"), ("&", "&amp;"), ("<", "&lt;"), ("|", "\\|"),
                 ("*", "\\*"), ("_", "\\_"), ("`", "\\`"), ("[", "\\["), ("]", "\\]"))


class PlaceholderError(PluginError):
    """A placeholder the hook cannot render; the message names the page and line."""


def table_anchor(name: str) -> str:
    """The HTML id of a rendered table: "opencore.critical.slash" -> "table-opencore-critical-slash"."""
    return "table-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def escape_cell(text: str) -> str:
    """A cell's text as Markdown that renders back to exactly that text."""
    for char, escaped in _CELL_ESCAPES:
        text = text.replace(char, escaped)
    return text


# Tables a tool page looks up: the page (relative to docs/) and the query that preselects the table.
LOOKUPS = {f"opencore.critical.{kind}": ("tools/criticals.md", f"?type={kind}") for kind in tables.CRITICAL_TYPES}


def page_url(src: str) -> str:
    """The directory URL MkDocs gives a page (use_directory_urls): a/b.md -> a/b/, a/index.md -> a/."""
    stem = posixpath.splitext(src)[0]
    return (posixpath.dirname(stem) if posixpath.basename(stem) == "index" else stem) + "/"


def render_table(name: str, page_src: str = "index.md") -> str:
    """The Markdown for one data table: a bold title, the caption, then the table itself.

    The wrapper div carries the table's name so tests (and readers' links) can find it; Material
    then wraps the bare <table> in its own scrolling box, so wide tables never widen the page.
    """
    display = tables.display(name)
    for row in display.rows:
        if len(row) != len(display.columns):
            raise ValueError(f"table {name!r}: row {row!r} has {len(row)} cells, "
                             f"but the table has {len(display.columns)} columns")
    for cell in (*display.columns, *(cell for row in display.rows for cell in row)):
        if "\n" in cell:
            raise ValueError(f"table {name!r}: cell {cell!r} spans lines; a table cell is one line")

    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(escape_cell(cell) for cell in cells) + " |"

    cells = [[escape_cell(cell) for cell in row] for row in display.rows]
    for at_row, at_column, expression, label, at_least in display.rolls:
        # the dice in the cell become a button (inline_rolls.py); the rest of the cell stays text
        if expression not in display.rows[at_row][at_column]:
            raise ValueError(f"table {name!r}: {expression!r} is not in row {at_row + 1}, column {at_column + 1}")
        least = "" if at_least is None else f' at-least="{at_least}"'
        button = (f'<rollbook-roll expression="{html.escape(expression)}" label="{html.escape(label)}"{least}>'
                  f'{escape_cell(expression)}</rollbook-roll>')
        cells[at_row][at_column] = cells[at_row][at_column].replace(escape_cell(expression), button, 1)

    parts = [f'<div class="rollbook-table" id="{table_anchor(name)}" data-rollbook-table="{name}" markdown>',
             "", f"**{escape_cell(display.title)}**", ""]
    if display.caption:
        parts += [display.caption, ""]
    parts += [line(display.columns), "| " + " | ".join("---" for _ in display.columns) + " |"]
    parts += ["| " + " | ".join(row) + " |" for row in cells]
    if name in LOOKUPS:
        tool, query = LOOKUPS[name]
        # the built URL of the tool page, relative to this page's URL (both are directories)
        href = posixpath.relpath(page_url(tool), page_url(page_src)) + "/" + query
        parts += ["", f'<a class="rollbook-lookup" href="{html.escape(href)}">Look up a roll on the {html.escape(display.title)} table</a>']
    parts += ["", "</div>"]
    return "\n".join(parts)


def _indent(text: str) -> str:
    return "\n".join(("    " + line) if line.strip() else "" for line in text.strip().splitlines())


def render_ruling(ruling_id: str, page_src: str) -> str:
    """A note admonition with the ruling's reading and a link to its entry on the Rulings page."""
    ruling = rulings.get(ruling_id)
    # A link to the .md source: MkDocs turns it into the right URL for use_directory_urls
    # and, with validation.anchors, checks that the anchor exists.
    link = posixpath.relpath(RULINGS_PAGE, posixpath.dirname(page_src) or ".")
    return "\n".join([
        f'!!! note rollbook-ruling "Ruling: {ruling.title}"',
        "",
        _indent(ruling.reading),
        "",
        f"    [Why, and the alternative]({link}#{ruling.id})",
    ])


def render_all_rulings() -> str:
    """Every ruling, grouped by rule set; each heading's id is the ruling's id."""
    by_set: dict[str, list[Any]] = {key: [] for key in RULE_SETS}
    for ruling in rulings.all_rulings():
        if ruling.rule_set not in by_set:
            raise ValueError(f"ruling {ruling.id!r}: unknown rule set {ruling.rule_set!r} "
                             f"(expected one of {', '.join(RULE_SETS)})")
        by_set[ruling.rule_set].append(ruling)
    parts: list[str] = []
    for key, group in by_set.items():
        if not group:
            continue
        parts += [f"## {RULE_SETS[key]}", ""]
        for ruling in group:
            parts += [f"### {ruling.title} {{ #{ruling.id} }}", ""]
            entries = [("Rule", ruling.rule), ("Question", ruling.question),
                       ("Reading", ruling.reading), ("Why", ruling.why),
                       ("Alternative", ruling.alternative)]
            for label, text in entries:
                if text:
                    parts += [f"**{label}:** {text.strip()}", ""]
            if ruling.option:  # (its engine option is the command line's: no reader sees it here)
                parts += ["**At your table:** the tools that follow this ruling can follow the alternative "
                          "instead: choose it among their rulings, by this ruling's title.", ""]
    return "\n".join(parts)


def _outside_code(lines: list[str]) -> Iterator[int]:
    """Indexes of the lines that are not inside a fenced code block (examples stay literal)."""
    fence: str | None = None
    for index, line in enumerate(lines):
        match = FENCE.match(line)
        if fence is None:
            if match:
                fence = match["fence"]
            else:
                yield index
        elif match and match["fence"][0] == fence[0] and len(match["fence"]) >= len(fence) \
                and not line.strip().lstrip(fence[0]):
            fence = None


def render_placeholder(kind: str, name: str | None, page_src: str) -> str:
    """The Markdown that replaces one placeholder; ValueError/LookupError if it names nothing."""
    if kind == "table" and name:
        known = tables.names()
        if name not in known:
            raise LookupError(f"unknown table {name!r}; known tables: {', '.join(sorted(known))}")
        return render_table(name, page_src)
    if kind == "ruling" and name:
        known = [ruling.id for ruling in rulings.all_rulings()]
        if name not in known:
            raise LookupError(f"unknown ruling {name!r}; known rulings: {', '.join(sorted(known))}")
        return render_ruling(name, page_src)
    if kind == "rulings" and not name:
        return render_all_rulings()
    raise ValueError(f"[[{kind}{' ' + name if name else ''}]] is not a placeholder; write "
                     "[[table NAME]], [[ruling ID]] or [[rulings]]")


def ruling_titles(line: str, page_src: str) -> str:
    """`line` with each ruling named by its id ("ruling opencore-hp-minimum") named by its title,
    linked to its entry on the Rulings page; an id no ruling has stops the build."""
    def titled(match: re.Match[str]) -> str:
        try:
            ruling = rulings.get(match["id"])
        except (RollbookError, LookupError) as error:
            raise LookupError(f"unknown ruling {match['id']!r} named in the text") from error
        link = posixpath.relpath(RULINGS_PAGE, posixpath.dirname(page_src) or ".")
        return f"ruling [“{ruling.title}”]({link}#{ruling.id})"
    return RULING_NAMED.sub(titled, line)


def expand(markdown: str, page_src: str, first_line: int = 1) -> str:
    """The page's Markdown with every placeholder replaced, and every ruling named by its id in
    the text named by its title; PlaceholderError names page and line."""
    lines = markdown.split("\n")
    for index in _outside_code(lines):
        match = PLACEHOLDER.match(lines[index])
        try:
            if match and match["kind"] != "roll":  # [[roll …]] is inline markup (inline_rolls.py)
                rendered = render_placeholder(match["kind"], match["name"], page_src)
                lines[index] = "\n".join(match["indent"] + line if line else line for line in rendered.split("\n"))
            lines[index] = ruling_titles(lines[index], page_src)
        except (LookupError, ValueError) as error:
            raise PlaceholderError(f"{page_src}:{index + first_line}: {error}") from error
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    # MkDocs hands over the Markdown without its front matter: count those lines back in,
    # so errors point at the line an author sees in the file.
    source = page.file.content_string
    front = source[: len(source) - len(markdown)].count("\n") if source.endswith(markdown) else 0
    return expand(markdown, page.file.src_uri, first_line=front + 1)
