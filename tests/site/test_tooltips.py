"""Abbreviations are tooltips wherever they appear: docs/includes/abbreviations.md is appended to
every page (pymdownx.snippets auto_append), and the abbr extension marks every use."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from sitebuild import ROOT, BuiltSite

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

DEFINITION = re.compile(r"^\*\[(?P<abbr>[^\]]+)\]:\s*(?P<meaning>.+)$")


def abbreviations() -> dict[str, str]:
    text = (ROOT / "docs" / "includes" / "abbreviations.md").read_text(encoding="utf-8")
    return {m["abbr"]: m["meaning"].strip() for m in map(DEFINITION.match, text.splitlines()) if m}


def test_every_abbreviation_in_the_content_is_a_tooltip(site: BuiltSite) -> None:
    meanings = abbreviations()
    assert meanings, "docs/includes/abbreviations.md defines no abbreviation"
    word = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, sorted(meanings, key=len, reverse=True))) + r")(?!\w)")
    bare, wrong, used = [], [], 0
    for page in site.pages():
        content = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one(".md-content")
        if content is None:
            continue
        where = page.relative_to(site.directory).as_posix()
        for abbr in content.find_all("abbr"):
            used += 1
            if abbr.get_text() in meanings and abbr.get("title") != meanings[abbr.get_text()]:
                wrong.append(f"{where}: <abbr>{abbr.get_text()}</abbr> title {abbr.get('title')!r}")
        for text in content.find_all(string=True):
            if text.find_parent(["abbr", "code", "pre", "script", "style"]) is None:
                bare += [f"{where}: {match[1]} in {str(text).strip()[:60]!r}" for match in word.finditer(text)]
    assert used > 0
    assert bare + wrong == [], "\n".join(bare + wrong)
