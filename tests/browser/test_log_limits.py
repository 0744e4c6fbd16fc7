"""The roll log at its limits (issue 39): a roll whose exact total is longer than the log keeps is
answered and kept (never "Rolling…" and a page error), and a kept roll whose link would not read
back whole is offered no link (one that left its expression out would roll another thing)."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from browserkit import ENGINE_TIMEOUT_MS, Visit

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

KEY = "rollbook.kept.v1"
# 999999999**5 / 999999997: an exact total of 55 characters (the log keeps 40 of an exact total)
LONG_EXACT = "999999999*999999999*999999999*999999999*999999999/999999997"


def entry(n: int, expression: str) -> dict[str, object]:
    return {"id": f"r{n}", "at": "2026-12-05T08:00:00.000Z", "label": expression[:40], "expression": expression, "vars": {},
            "seed": 7, "total": 3, "total_text": None, "text": "3", "page": "tools/roller/"}


def test_a_roll_whose_exact_total_is_longer_than_the_log_keeps_is_answered_and_kept(phone, base_url: str) -> None:
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "tools/roller/")
    field = page.get_by_label("Dice expression")
    field.fill(LONG_EXACT)
    field.press("Enter")
    expect(page.locator(".rollbook-total__value")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    expect(page.get_by_text("Rolling…")).to_have_count(0)
    log = page.get_by_role("log").locator("li")
    expect(log).to_have_count(1)
    expect(log.locator(".rollbook-log__total")).to_have_text("≈ 9.99999998e+35")
    [kept] = page.evaluate(f"() => JSON.parse(localStorage.getItem('{KEY}')).log")
    assert (kept["expression"], kept["total_text"]) == (LONG_EXACT, "≈ 9.99999998e+35")
    assert errors == []


def test_a_kept_roll_whose_link_would_not_read_back_whole_is_offered_no_link(tab: Visit) -> None:
    long = "+".join(["1"] * 300)  # 599 characters: a link's text reads back 500 at most
    page = tab("tools/roller/", kept={"rollbook": 2, "log": [entry(1, long), entry(2, "2d6")]})
    entries = page.get_by_role("log").locator("li")
    expect(entries).to_have_count(2)
    newest, oldest = entries.nth(0), entries.nth(1)
    expect(oldest.get_by_role("link", name="Link to the roll")).to_have_count(0)
    link = newest.get_by_role("link", name="Link to the roll")
    assert parse_qs(urlsplit(link.get_attribute("href") or "").query)["expression"] == ["2d6"]
    assert json.loads(page.evaluate(f"() => localStorage.getItem('{KEY}')"))["log"][0]["expression"] == long
