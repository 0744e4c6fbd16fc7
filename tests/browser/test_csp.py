"""The Content Security Policy (hooks/csp.py): on every page, the site works under it, and an
injected inline script is refused."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browserkit import ENGINE_TIMEOUT_MS, roll, total
from sitebuild import BuiltSite

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

VIOLATIONS = """window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""
CSP = re.compile(r'<head>\s*(?:<meta charset="[^"]*">)?\s*<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def test_every_page_carries_the_policy_first_in_its_head(served_site: BuiltSite) -> None:
    for page in served_site.pages():
        match = CSP.search(page.read_text(encoding="utf-8"))
        assert match, page
        directives = dict(d.strip().split(" ", 1) for d in match[1].split(";"))
        assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'", page
        assert "'unsafe-inline'" not in match[1] and "'unsafe-eval'" not in match[1], page
        assert "'wasm-unsafe-eval'" in directives["script-src"]


def test_no_page_has_an_inline_style_the_policy_would_refuse(served_site: BuiltSite) -> None:
    # style-src 'self' drops style="…" attributes: a table column aligned that way loses it
    # (dice-notation/ had 23), so alignment is written as align= (tables: use_align_attribute)
    for page in served_site.pages():
        assert not re.search(r"<[a-z][^>]*\sstyle=", page.read_text(encoding="utf-8")), page


def test_the_widgets_work_under_the_policy_and_an_injected_script_is_refused(fresh_phone, base_url: str) -> None:
    fresh_phone.add_init_script(VIOLATIONS)
    page = fresh_phone.new_page()
    page.goto(base_url + "tools/roller/")
    roll(page, "4d6kh3")
    total(page)
    expect(page.locator(".rollbook-distribution tbody tr")).to_have_count(16, timeout=ENGINE_TIMEOUT_MS)
    for path in ("tools/", "tools/criticals/?type=burn&roll=50", "opencore/combat/"):
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__violations") == []

    injected = page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.__injected = true";
        document.body.append(script);
        return window.__injected === true;
    }""")
    assert injected is False
    page.wait_for_function("window.__violations.length > 0")
    assert any(v.startswith("script-src") for v in page.evaluate("window.__violations"))
