"""Every ruling is on the Rulings page, and every [[ruling ID]] shows next to its rule."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from rollbook import rulings
from sitebuild import BuiltSite, placeholders

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]


def text(element: BeautifulSoup) -> str:
    return " ".join(element.get_text().split())


def as_shown(words: str | None) -> str | None:
    """A ruling's words as a page shows them: another ruling named by its title, not its id."""
    titles = {ruling.id: ruling.title for ruling in rulings.all_rulings()}
    return words and re.sub(r"\bruling ([a-z]+(?:-[a-z0-9]+)+)", lambda m: f"ruling “{titles.get(m[1], m[1])}”", words)


def soup(site: BuiltSite, src: str) -> BeautifulSoup:
    return BeautifulSoup(site.page(src).read_text(encoding="utf-8"), "html.parser")


def test_every_ruling_is_on_the_rulings_page_under_its_id(site: BuiltSite) -> None:
    page = soup(site, "rulings.md")
    missing = []
    for ruling in rulings.all_rulings():
        heading = page.find(id=ruling.id)
        if heading is None or " ".join(ruling.title.split()) not in text(heading):
            missing.append(f"{ruling.id}: no heading with this id and title")
            continue
        # The entry is everything up to the next heading of the same or a higher level.
        entry = []
        for sibling in heading.find_next_siblings():
            if sibling.name in ("h1", "h2", "h3"):
                break
            entry.append(text(sibling))
        entry_text = " ".join(entry)
        for field in ("question", "reading", "why", "alternative"):
            value = as_shown(getattr(ruling, field))
            if value and " ".join(value.split())[:60] not in entry_text:
                missing.append(f"{ruling.id}: {field} not shown")
    assert missing == [], "\n".join(missing)


def test_every_ruling_placeholder_resolves_to_an_admonition(site: BuiltSite) -> None:
    known = {ruling.id: ruling for ruling in rulings.all_rulings()}
    problems = []
    for src, line, ruling_id in placeholders("ruling"):
        if ruling_id not in known:
            problems.append(f"{src}:{line}: unknown ruling {ruling_id}")
            continue
        titles = [text(note.select_one(".admonition-title"))
                  for note in soup(site, src).select("div.admonition.rollbook-ruling")]
        if f"Ruling: {' '.join(known[ruling_id].title.split())}" not in titles:
            problems.append(f"{src}:{line}: no 'Ruling: {known[ruling_id].title}' admonition on the page")
    assert problems == [], "\n".join(problems)


def test_no_page_names_a_ruling_by_its_id_or_its_engine_option(site: BuiltSite) -> None:
    """A reader meets a ruling by its title, linked to its entry: the rulings' own words named
    others by id ("at least 1, ruling opencore-hp-minimum") and the Rulings page showed each one's
    engine option ("save_direction=over"), words of the command line, not of a reader."""
    ids = {ruling.id for ruling in rulings.all_rulings()}
    options = {ruling.option for ruling in rulings.all_rulings() if ruling.option}
    named = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ids | options, key=len, reverse=True))) + r")(?![\w-])")
    found = []
    for path in site.pages():
        article = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").select_one("article")
        if article is None:
            continue
        for code in article.select("code, pre"):  # examples of the command line stay as they are
            code.decompose()
        for match in named.finditer(text(article)):
            found.append(f"{path.relative_to(site.directory)}: {match[1]}")
    assert found == [], "\n".join(found)
