"""The tables of the text are in Material's scroll wrapper in the built HTML (hooks/text_tables.py),
so Material's bundle does not move them after the page is drawn, and they look as Material styles
its own: rollbook.css gives their class every rule Material gives a bare table."""

from __future__ import annotations

import re
from pathlib import Path

import material
import pytest
from bs4 import BeautifulSoup

from sitebuild import ROOT, BuiltSite, load_hook

text_tables = load_hook("text_tables")
CLASS, wrapped = text_tables.CLASS, text_tables.wrapped

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

MATERIAL_CSS = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
BARE = "table:not([class])"


def rules(css: str, media: str = "") -> list[tuple[str, str, frozenset[str]]]:
    """(media, selector, declarations) of each style rule, whitespace and comments ignored."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found: list[tuple[str, str, frozenset[str]]] = []
    at = 0
    while (brace := css.find("{", at)) != -1:
        prelude = " ".join(css[at:brace].split())
        depth, end = 1, brace + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        block = css[brace + 1:end - 1]
        if prelude.startswith("@media"):
            found += rules(block, " ".join(prelude.split()))
        elif not prelude.startswith("@"):
            selector = re.sub(r"\s*([>+~,])\s*", r"\1", prelude)
            declarations = frozenset(re.sub(r"\s*:\s*", ":", d.strip()) for d in block.split(";") if d.strip())
            found.append((media, selector, declarations))
        at = end
    return found


def test_the_hook_wraps_bare_tables_and_leaves_others() -> None:
    page = "<p>x</p><table><tr><td>1</td></tr></table><table class='own'><tr><td>2</td></tr></table>"
    soup = BeautifulSoup(wrapped(page), "html.parser")
    first, second = soup.find_all("table")
    assert first["class"] == [CLASS]
    assert [d["class"] for d in first.parents if d.name == "div"] == [["md-typeset__table"], ["md-typeset__scrollwrap"]]
    assert second["class"] == ["own"] and second.parent.name == "[document]"


def test_every_table_of_the_text_is_wrapped_in_the_html(site: BuiltSite) -> None:
    counted = 0
    for path in site.pages():
        article = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").find("article")
        if article is None:
            continue
        for table in article.find_all("table"):
            where = f"{path.relative_to(site.directory)}"
            assert table.get("class"), f"{where}: a table without a class, which Material's bundle moves after drawing"
            if CLASS in table["class"]:
                counted += 1
                assert table.parent["class"] == ["md-typeset__table"], where
                assert table.parent.parent["class"] == ["md-typeset__scrollwrap"], where
    assert counted >= 40, f"only {counted} tables of the text were found wrapped"


def test_the_wrapped_tables_have_every_style_material_gives_a_bare_table() -> None:
    theirs = [rule for sheet in sorted(MATERIAL_CSS.glob("main.*.min.css"))
              for rule in rules(sheet.read_text(encoding="utf-8")) if BARE in rule[1]]
    assert len(theirs) >= 10, "Material's stylesheet has no rules for bare tables: has it changed its markup?"
    ours = set(rules((ROOT / "docs" / "stylesheets" / "rollbook.css").read_text(encoding="utf-8")))
    missing = [(media, selector.replace(BARE, f"table.{CLASS}"), declarations)
               for media, selector, declarations in theirs
               if (media, selector.replace(BARE, f"table.{CLASS}"), declarations) not in ours]
    assert not missing, (
        "Material's rules for bare tables changed: give docs/stylesheets/rollbook.css the same for "
        f"table.{CLASS}:\n" + "\n".join(f"{m} {s} {{{'; '.join(sorted(d))}}}" for m, s, d in missing))
