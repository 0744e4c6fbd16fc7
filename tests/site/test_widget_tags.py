"""The widgets' tags have one source, the map ELEMENT_MODULES in widgets/rollbook.js, read by the
hooks through hooks/widget_tags.py: every widget but the inline roll stands outside any <p> on
every built page (issue 40: tools/combat/ had eight inside one, from a list in
hooks/inline_rolls.py that had drifted from the map), and no page or hook names a widget the map
does not define."""

from __future__ import annotations

import ast
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitebuild import ROOT, BuiltSite, load_hook

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

widget_tags = load_hook("widget_tags")
TAG = re.compile(r"<(rollbook-[a-z]+(?:-[a-z]+)*)(?![a-z-])")
NAME = re.compile(r"rollbook-[a-z]+(?:-[a-z]+)*")

# The elements whose start tag ends an open <p> (the HTML standard's parsing rules, "in body");
# a custom element is not one of them, hence the bug: the browser keeps it inside the paragraph.
CLOSES_P = frozenset({
    "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hgroup", "hr", "listing", "main", "menu", "nav", "ol", "p", "pre", "search", "section", "summary",
    "table", "ul", "xmp"})


class WidgetsInParagraphs(HTMLParser):
    """The widgets (every rollbook- element but the inline roll) opened inside a <p>, with their line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_paragraph = False
        self.found: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag.startswith("rollbook-") and tag != widget_tags.INLINE_WIDGET and self.in_paragraph:
            self.found.append((self.getpos()[0], tag))
        if tag in CLOSES_P:
            self.in_paragraph = tag == "p"

    def handle_endtag(self, tag: str) -> None:
        if tag == "p":
            self.in_paragraph = False


def widgets_in_paragraphs(html: str) -> list[tuple[int, str]]:
    parser = WidgetsInParagraphs()
    parser.feed(html)
    parser.close()
    return parser.found


def test_the_paragraph_check_sees_a_widget_in_a_paragraph() -> None:
    assert widgets_in_paragraphs("<p><rollbook-cyno-dodge></rollbook-cyno-dodge></p>") == [(1, "rollbook-cyno-dodge")]
    assert widgets_in_paragraphs("<p>Roll <rollbook-roll expression=1d6>1d6</rollbook-roll>.</p>"
                                 "<rollbook-roller></rollbook-roller><p>a</p><div><rollbook-log></rollbook-log></div>") == []
    assert widgets_in_paragraphs("<p>text\n<div></div><rollbook-log></rollbook-log>") == []  # <div> ended the <p>


def test_no_widget_sits_inside_a_paragraph(site: BuiltSite) -> None:
    found = [f"{page.relative_to(site.directory)}:{line}: <p><{tag}>"
             for page in site.pages() for line, tag in widgets_in_paragraphs(page.read_text(encoding="utf-8"))]
    assert found == [], "widgets inside a <p> (hooks/inline_rolls.py makes every widget but the inline roll a block):\n" \
        + "\n".join(found)


def tags_in_pages(docs: Path) -> list[tuple[str, str]]:
    """(where, tag) of every rollbook- start tag written in the pages' Markdown."""
    return [(f"{path.relative_to(docs)}:{text[:match.start()].count(chr(10)) + 1}", match[1])
            for path in sorted(docs.rglob("*.md")) for text in [path.read_text(encoding="utf-8")]
            for match in TAG.finditer(text)]


def tags_in_hook(source: str) -> list[tuple[int, str]]:
    """(line, tag) of the widgets a hook names: a start tag in any string (<rollbook-…), a name in a
    tuple, list or set of strings (a list of widgets, such as the one that drifted), or an element
    made by name (etree.Element("rollbook-…")). Other strings (a class, a file's name) are not tags."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [(node.lineno, match[1]) for match in TAG.finditer(node.value)]
        names: list[ast.expr] = []
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            names = node.elts
        elif isinstance(node, ast.Call):
            function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            names = {"Element": node.args[:1], "SubElement": node.args[1:2]}.get(function, [])
        found += [(name.lineno, name.value) for name in names
                  if isinstance(name, ast.Constant) and isinstance(name.value, str) and NAME.fullmatch(name.value)]
    # comments: a start tag written there is a claim about the pages too
    found += [(number, match[1]) for number, line in enumerate(source.split("\n"), start=1)
              if "#" in line for match in TAG.finditer(line[line.index("#"):])]
    return sorted(set(found))


def tags_in_hooks(hooks: Path) -> list[tuple[str, str]]:
    return [(f"{path.name}:{line}", tag) for path in sorted(hooks.glob("*.py"))
            for line, tag in tags_in_hook(path.read_text(encoding="utf-8"))]


def test_the_hook_check_sees_a_list_of_widgets() -> None:
    source = ('BLOCK = ("rollbook-roller", "rollbook-cyno-turns")\nCLASS = "rollbook-text-table"\n'
              'e = etree.Element("rollbook-roll")\n# a <rollbook-log> here\nMETA = \'<meta name="rollbook-engine">\'\n')
    assert tags_in_hook(source) == [(1, "rollbook-cyno-turns"), (1, "rollbook-roller"), (3, "rollbook-roll"), (4, "rollbook-log")]


def test_every_widget_tag_in_the_pages_and_the_hooks_is_in_the_map() -> None:
    known = set(widget_tags.widget_tags())
    named = tags_in_pages(ROOT / "docs") + tags_in_hooks(ROOT / "hooks")
    assert {tag for _, tag in named} & known, "the scan found no widget at all: is it still reading the pages?"
    unknown = [f"{where}: {tag}" for where, tag in named if tag not in known]
    assert unknown == [], "widget tags without an entry in ELEMENT_MODULES (widgets/rollbook.js):\n" + "\n".join(unknown)


def test_the_engine_starts_early_for_no_widget_the_map_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = load_hook("pyodide_bundle")
    assert bundle.engine_widget_pattern().search("<rollbook-cyno-dodge></rollbook-cyno-dodge>")
    assert not bundle.engine_widget_pattern().search("<rollbook-log></rollbook-log><rollbook-table-mode>")
    monkeypatch.setattr(bundle, "NO_EARLY_START", (*bundle.NO_EARLY_START, "rollbook-cyno-turns"))
    with pytest.raises(bundle.BundleError, match="rollbook-cyno-turns: not a widget"):
        bundle.engine_widget_pattern()


def test_the_block_widgets_are_every_widget_but_the_inline_roll() -> None:
    tags = widget_tags.widget_tags()
    assert len(tags) >= 20 and "rollbook-cyno-dodge" in tags and "rollbook-encounter" in tags
    assert widget_tags.block_widgets() == tuple(tag for tag in tags if tag != "rollbook-roll")


@pytest.mark.parametrize(("edit", "message"), [
    (lambda text: text.replace('  "rollbook-log": () => import("./elements/log.js"),',
                               '  "rollbook-log": () =>\n    import("./elements/log.js"),'), "not an entry"),
    (lambda text: text.replace('"rollbook-log": ()', "'rollbook-log': ()"), "not an entry"),
    (lambda text: text.replace("ELEMENT_MODULES = {", "ELEMENT_MODULES = Object.freeze({"), "expected one line"),
    (lambda text: re.sub(r"(export const ELEMENT_MODULES = \{\n)(?:  .*\n)+", r"\1", text), "names no widget"),
    (lambda text: text.replace('  "rollbook-roll": () => import("./elements/inline-roll.js"),\n', ""), "no rollbook-roll"),
    (lambda text: text.replace('"rollbook-kept": ()', '"rollbook-log": ()'), "rollbook-log twice"),
    (lambda text: text.replace("./elements/criticals.js", "./elements/critical.js"), "is not there"),
    (lambda text: text.replace("\n};\n", "\n}\n", 1), "not an entry"),
])
def test_the_reader_stops_at_a_map_of_another_shape(tmp_path: Path, edit, message: str) -> None:
    shutil.copytree(ROOT / "widgets", tmp_path / "widgets", ignore=shutil.ignore_patterns("vendor", "node_modules"))
    entry = tmp_path / "widgets" / "rollbook.js"
    edited = edit(entry.read_text(encoding="utf-8"))
    assert edited != entry.read_text(encoding="utf-8")
    entry.write_text(edited, encoding="utf-8")
    with pytest.raises(widget_tags.WidgetTagsError, match=message):
        widget_tags.element_modules(entry)


def defined_by_the_entry(entry: Path) -> set[str]:
    """The tags the entry defines itself: those of the element modules it imports at once
    (``import "./elements/table-mode.js";``, the header's toggle on every page), not by tag."""
    text = entry.read_text(encoding="utf-8")
    modules = re.findall(r'^import "\./(elements/[a-z/-]+\.js)";', text, flags=re.MULTILINE)
    return {match for module in modules
            for match in re.findall(r'define\("(rollbook-[a-z-]+)"', (entry.parent / module).read_text(encoding="utf-8"))}


def test_every_widget_tag_in_the_theme_is_defined() -> None:
    """The theme's templates (overrides/) put widgets on every page too: each is in the map, or
    defined by a module the entry imports itself."""
    known = set(widget_tags.widget_tags()) | defined_by_the_entry(widget_tags.ENTRY)
    assert "rollbook-table-mode" in known  # the header's toggle, imported by the entry itself
    named = [(f"{path.relative_to(ROOT)}:{text[:match.start()].count(chr(10)) + 1}", match[1])
             for path in sorted((ROOT / "overrides").rglob("*.html")) for text in [path.read_text(encoding="utf-8")]
             for match in TAG.finditer(text)]
    assert named, "the scan found no widget in overrides/: is it still reading the templates?"
    unknown = [f"{where}: {tag}" for where, tag in named if tag not in known]
    assert unknown == [], "widget tags in the theme that no module defines:\n" + "\n".join(unknown)
