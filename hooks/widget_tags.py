"""The widgets' tags, read from the one place that defines them: ``ELEMENT_MODULES`` in
widgets/rollbook.js (tag -> the module that defines its element).

Why a reader and not a data file both sides read: the map must stay a literal ``import()`` per tag,
which is what Rollup follows to make each element's module a chunk of its own
(hooks/widgets_bundle.mjs), and what Node's tests import as it is (tests/widgets/rollbook.test.mjs).
A JSON list of tags would still need that map typed beside it, i.e. the tags written twice again.
So the hooks read the map out of the JavaScript, with a pattern strict enough that any change of
the file's shape (an entry on two lines, another quote, a computed key) stops the build here
instead of quietly leaving a tag out.

The one widget that lives inside text is the inline roll (``rollbook-roll``, a button in a
sentence); every other is a block of its own on the page, derived here, not listed.
"""

from __future__ import annotations

import re
from pathlib import Path

ENTRY = Path(__file__).resolve().parents[1] / "widgets" / "rollbook.js"
INLINE_WIDGET = "rollbook-roll"

MAP_START = "export const ELEMENT_MODULES = {"
MAP_END = "};"
# One entry a line, exactly as widgets/rollbook.js writes them (and the Node test reads them).
ENTRY_LINE = re.compile(r'  "(?P<tag>rollbook-[a-z]+(?:-[a-z]+)*)": \(\) => import\("\./(?P<module>[a-z/-]+\.js)"\),')


class WidgetTagsError(Exception):
    """widgets/rollbook.js is not in the shape the hooks read; the message says where."""


def element_modules(entry: Path = ENTRY) -> dict[str, str]:
    """Each widget's tag -> the module (under widgets/) that defines it, in the file's order."""
    try:
        text = entry.read_text(encoding="utf-8")
    except OSError as error:
        raise WidgetTagsError(f"cannot read the widget tags from {entry}: {error}") from error
    lines = text.split("\n")
    starts = [number for number, line in enumerate(lines) if line == MAP_START]
    if len(starts) != 1:
        raise WidgetTagsError(f"{entry}: expected one line {MAP_START!r}, the map of tag -> module")
    modules: dict[str, str] = {}
    for number in range(starts[0] + 1, len(lines)):
        line = lines[number]
        if line == MAP_END:
            break
        match = ENTRY_LINE.fullmatch(line)
        if match is None:
            raise WidgetTagsError(f'{entry}:{number + 1}: not an entry \'  "rollbook-…": () => import("./….js"),\' '
                                  f"nor the map's end '{MAP_END}': {line!r}")
        if not (entry.parent / match["module"]).is_file():
            raise WidgetTagsError(f"{entry}:{number + 1}: {match['tag']}'s module ./{match['module']} is not there")
        if match["tag"] in modules:
            raise WidgetTagsError(f"{entry}:{number + 1}: {match['tag']} twice in ELEMENT_MODULES")
        modules[match["tag"]] = match["module"]
    else:
        raise WidgetTagsError(f"{entry}: the map ELEMENT_MODULES has no end, a line '{MAP_END}'")
    if not modules:
        raise WidgetTagsError(f"{entry}: ELEMENT_MODULES names no widget")
    if INLINE_WIDGET not in modules:
        raise WidgetTagsError(f"{entry}: ELEMENT_MODULES has no {INLINE_WIDGET}, the inline roll")
    return modules


def widget_tags(entry: Path = ENTRY) -> tuple[str, ...]:
    """Every widget's tag."""
    return tuple(element_modules(entry))


def block_widgets(entry: Path = ENTRY) -> tuple[str, ...]:
    """The widgets that stand on a line of their own in a page: all but the inline roll."""
    return tuple(tag for tag in element_modules(entry) if tag != INLINE_WIDGET)
