"""Helpers for the browser tests of the widgets (a module of its own: two conftest.py files in
tests/ would shadow each other when imported by name)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

PHONE = {"width": 390, "height": 844}
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# A cold Pyodide start takes seconds, more on a loaded 2-core machine with other tests running.
ENGINE_TIMEOUT_MS = 90_000


class Outside:
    """Requests that tried to leave the test server: each one fails the test that made it."""

    def __init__(self) -> None:
        self.urls: list[str] = []


def phone_context(browser: Any, base_url: str, outside: Outside, **options: Any) -> Any:
    """A phone-sized touch context that lets no request leave the test server."""
    # No service worker: its precaching would compete with (and be counted in) what a test measures;
    # test_offline.py runs the real one.
    options.setdefault("service_workers", "block")
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, **options)
    local = urlsplit(base_url).netloc

    def only_localhost(route: Any) -> None:
        if urlsplit(route.request.url).netloc == local or route.request.url.startswith(("blob:", "data:")):
            route.continue_()
        else:
            outside.urls.append(route.request.url)
            route.abort()

    context.route("**/*", only_localhost)
    return context


def axe_violations(page: Any, serious_only: bool = True, within: list[str] | None = None) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (serious and critical ones by default),
    in the whole document or only `within` these CSS selectors (e.g. a page's widgets)."""
    page.evaluate(AXE.read_text(encoding="utf-8"))  # not a <script> tag: the site's CSP forbids inline scripts
    result = page.evaluate("async (within) => (await axe.run(within ? {include: within.map((s) => [s])} : document, "
                           "{resultTypes: ['violations']})).violations", within)
    if serious_only:
        result = [v for v in result if v["impact"] in ("serious", "critical")]
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]} for v in result]
