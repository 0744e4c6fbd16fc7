"""The data tables: every placeholder names a table, every table is on the site, cell for cell."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from rollbook import tables
from sitebuild import BuiltSite, placeholders

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]


def rendered_tables(site: BuiltSite) -> dict[str, list[tuple[str, BeautifulSoup]]]:
    """table name -> [(page, wrapper div)] for every table the hook rendered into the site."""
    found: dict[str, list[tuple[str, BeautifulSoup]]] = {}
    for page in site.pages():
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for box in soup.select("div[data-rollbook-table]"):
            found.setdefault(box["data-rollbook-table"], []).append(
                (page.relative_to(site.directory).as_posix(), box))
    return found


def text(element: BeautifulSoup) -> str:
    return " ".join(element.get_text().split())


def test_every_table_placeholder_names_a_table() -> None:
    known = set(tables.names())
    unknown = [f"{page}:{line}: {name}" for page, line, name in placeholders("table") if name not in known]
    assert unknown == []


def test_every_data_table_is_rendered_on_some_page(site: BuiltSite) -> None:
    rendered = rendered_tables(site)
    assert sorted(set(tables.names()) - set(rendered)) == []
    assert sorted(set(rendered) - set(tables.names())) == []


def test_rendered_tables_equal_the_data_cell_for_cell(site: BuiltSite) -> None:
    mismatches = []
    for name, boxes in rendered_tables(site).items():
        display = tables.display(name)
        expected = [display.columns, *display.rows]
        for page, box in boxes:
            table = box.find("table")
            head = tuple(text(th) for th in table.select("thead th"))
            body = [tuple(text(td) for td in row.find_all("td")) for row in table.select("tbody tr")]
            if [head, *body] != [tuple(" ".join(c.split()) for c in row) for row in expected]:
                mismatches.append(f"{name} on {page}:\n  site: {[head, *body]}\n  data: {expected}")
            if text(box.find("strong")) != " ".join(display.title.split()):
                mismatches.append(f"{name} on {page}: title {text(box.find('strong'))!r} != {display.title!r}")
            if display.caption and " ".join(display.caption.split()) not in text(box):
                mismatches.append(f"{name} on {page}: caption {display.caption!r} is missing")
    assert mismatches == [], "\n".join(mismatches)


def test_a_weapons_damage_a_low_strength_could_bring_below_one_rolls_at_least_one(site: BuiltSite) -> None:
    """Ruling opencore-damage-minimum in the rules text: the +STR damage buttons say so, the rest do not."""
    (page, box), *_ = rendered_tables(site)["opencore.weapons"]
    buttons = {roll["label"]: (roll["expression"], roll.get("at-least")) for roll in box.select("rollbook-roll")}
    assert buttons["Sword damage"] == ("2d10+STR", "1")
    assert buttons["Hand to Hand damage"] == ("1d6+STR", "1")
    plain = {label: least for label, (expression, least) in buttons.items() if "STR" not in expression}
    assert plain and set(plain.values()) == {None}
    assert "Ruling: A successful hit deals at least 1 damage" in (site.directory / page).read_text(encoding="utf-8")
