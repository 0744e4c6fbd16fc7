"""Every fact of the three seed documents is on the built site.

The facts (tests/site/seed_facts.toml) were listed from the seeds, not from the site: every rule
with its number, every table row, every worked example. Each must appear in the text of some
page's content. Whitespace, case, dashes and quote marks are normalised on both sides, so
typography (an en dash, a curly apostrophe, a line break) never hides a fact; the words and
numbers must match. All missing facts are reported at once.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from bs4 import BeautifulSoup

from sitebuild import ROOT, BuiltSite, load_toml

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

FACTS = load_toml(ROOT / "tests" / "site" / "seed_facts.toml")
DASHES = re.compile(r"[\u2010-\u2015\u2212\u2043\ufe58\ufe63\uff0d]")
QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
                        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"'})


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(QUOTES)
    return " ".join(DASHES.sub("-", text).split()).casefold()


def site_text(site: BuiltSite) -> str:
    """The content of every page (not the navigation around it), normalised, one page per line."""
    pages = []
    for page in site.pages():
        content = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one(".md-content")
        if content is not None:
            for permalink in content.select("a.headerlink"):
                permalink.decompose()  # the "¶" after each heading is not part of the text
            pages.append(normalise(content.get_text()))
    return "\n".join(pages)


def test_the_fact_list_covers_all_three_seeds() -> None:
    assert set(FACTS) == {"opencore", "codex", "cyno"}
    for rule_set, entry in FACTS.items():
        assert entry["seed"].endswith(".txt") and len(entry["facts"]) >= 30, rule_set
        assert len(set(entry["facts"])) == len(entry["facts"]), f"{rule_set}: a fact is listed twice"


def test_every_seed_fact_is_on_the_site(site: BuiltSite) -> None:
    text = site_text(site)
    missing = [f"[{rule_set}] {fact}" for rule_set, entry in FACTS.items()
               for fact in entry["facts"] if normalise(fact) not in text]
    total = sum(len(entry["facts"]) for entry in FACTS.values())
    assert missing == [], f"{len(missing)} of {total} seed facts are not on the site:\n" + "\n".join(missing)


def test_normalising_keeps_words_and_numbers() -> None:
    assert normalise("Roll  a\n1d100 \u2013 CON\u2019s") == normalise("roll a 1d100 - CON's")
    assert normalise("41 to 50") != normalise("41 to 51")
