"""The built site served on a random localhost port, and one headless Chromium per session."""

from __future__ import annotations

import dataclasses
import functools
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "site"))

from browserkit import (CHROMIUM, PREFIX, LocalSitemap, Outside, QuietServer, StartedTab, Visit, leaving_nothing_kept,
                        phone_context, returning_phone_context, suite_flags)  # noqa: E402
from sitebuild import BuiltSite, deployed_site  # noqa: E402

# `pytest -n 3` (make test) hands the tests out one at a time to whichever worker is free, each
# worker with its own Chromiums and served site (per session, so per worker). The browser tests
# are about seven eighths of the time, some of them 30-50 s each: handed out first, the short engine
# and site tests fill in at the end, so no worker waits long for another's last test. Three workers
# on two cores: the browser tests wait on timers and pages often enough that two left a fifth of
# the CPU idle (vmstat: 22% idle at -n 2, 8% at -n 3; pytest 8 m 57 s against 8 m 10 s).
# (No xdist_group: with pytest 9 xdist 3.8's loadgroup no longer groups at all, and where it works
# it would put every browser test on one worker, about 11 of the 13 minutes of a clean run.)
HERE = Path(__file__).resolve().parent

# Playwright's expectations wait 5 s by default. Too little here: a widget out of view first draws
# once the engine's start is over or 3 s after the page's load (widgets/element.js), and with the
# other worker's tests on the second core the load itself can take 2 s (a clean-clone CI run
# failed on tools/checks/' second widget so). How fast the site is, benchmarks/ measures.
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: HERE not in item.path.parents)  # stable: each part keeps its order


@pytest.fixture(scope="session")
def served_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The site as deployed (tests/site's build, or make test's site/), served on
    http://127.0.0.1:PORT/<site_url path> for the session (one server per xdist worker, one build).

    Instant navigation only follows links whose host and port match the sitemap's: the server
    gives sitemap.xml its own address in place of the deployed one (browserkit.LocalSitemap).
    """
    built = deployed_site(tmp_path_factory)
    server = QuietServer(("127.0.0.1", 0), functools.partial(LocalSitemap, directory=str(built.directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield dataclasses.replace(built, url=f"http://127.0.0.1:{server.server_address[1]}{PREFIX}")
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(served_site: BuiltSite) -> str:
    """http://127.0.0.1:PORT/<site_url path>, where served_site answers."""
    return served_site.url


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright, once per session (per xdist worker): both Chromiums below come from it."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM")
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[object]:
    """Chromium for fresh contexts: each one a first visit, with nothing cached or kept."""
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=suite_flags(playwright))
    yield chromium
    chromium.close()


@pytest.fixture
def context(browser: object) -> Iterator[object]:
    """A fresh browser context (own storage, so a palette choice does not leak between tests)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    yield context
    context.close()


# --- the widgets on a phone ------------------------------------------------------------------


@pytest.fixture
def outside() -> Outside:
    return Outside()


@pytest.fixture(scope="session")
def returning_phone(playwright: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A phone that has been here before, one per xdist worker (a Chromium profile on disk):
    its HTTP cache and compiled code are warm, as a returning player's are: an engine start in it
    costs about 1.25 s of CPU against 1.8 s in a fresh context (a scratch probe, 6 starts each)."""
    context = returning_phone_context(playwright, tmp_path_factory.mktemp("returning-phone"))
    yield context
    context.close()


@pytest.fixture(scope="session")
def started_tab() -> Iterator[StartedTab]:
    """The returning phone's tab whose engine has started (browserkit.StartedTab), one per worker."""
    tab = StartedTab()
    yield tab
    tab.close()


@pytest.fixture
def phone(returning_phone: Any, base_url: str, outside: Outside, started_tab: StartedTab) -> Iterator[Any]:
    """The returning phone with nothing kept: its storage is cleared after every test (and
    checked cleared), its pages closed (its started tab put at rest); only what a browser caches,
    and the engine's unpacked snapshot kept on the device, stay. Fails the test if any request
    left 127.0.0.1. A test of a first visit, or one that routes requests or adds an init script
    to the whole context, takes `fresh_phone`."""
    with leaving_nothing_kept(returning_phone, base_url, outside, started_tab):
        yield returning_phone
    assert outside.urls == [], f"requests left the site: {outside.urls}"


@pytest.fixture
def tab(phone: Any, base_url: str, started_tab: StartedTab) -> Visit:
    """`tab(path)`: the phone's tab whose engine has started, gone to `path` (under base_url, a
    query too) by instant navigation, as a player's tap on a link goes; the same page each call
    (`color_scheme="dark"`: seen so from then on in this test; `kept=value`: what is kept, written
    before the visit, as by another tab).
    For tests of what a page does once open: a page's start, a first visit, routes or init scripts
    need a page of their own (`phone.new_page()`). Put at rest after the test (see `phone`)."""
    return lambda path, color_scheme=None, kept=None: started_tab.visit(phone, base_url, path, color_scheme, kept)


@pytest.fixture
def fresh_phone(browser: Any, base_url: str, outside: Outside) -> Iterator[Any]:
    """A fresh phone context (own storage, nothing cached: a first visit); fails the test if any
    request left 127.0.0.1."""
    yield from a_fresh_phone_of(browser, base_url, outside)


def a_fresh_phone_of(browser: Any, base_url: str, outside: Outside) -> Iterator[Any]:
    """A fresh phone context of `browser`, closed after the test, which fails if any request left 127.0.0.1."""
    context = phone_context(browser, base_url, outside)
    yield context
    context.close()
    assert outside.urls == [], f"requests left the site: {outside.urls}"


@pytest.fixture(scope="session")
def bfcache_browser(playwright: Any) -> Iterator[object]:
    """Chromium with its back/forward cache on, as a phone's is: Playwright turns it off
    (`--disable-back-forward-cache`), so a page left and come back to is loaded again in every
    other browser test, never restored as it was, mid-step, with its engine."""
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=suite_flags(playwright),
                                          ignore_default_args=["--disable-back-forward-cache"])
    yield chromium
    chromium.close()


@pytest.fixture
def bfcache_phone(bfcache_browser: Any, base_url: str, outside: Outside) -> Iterator[Any]:
    """A fresh phone context whose pages the back/forward cache keeps (see bfcache_browser)."""
    yield from a_fresh_phone_of(bfcache_browser, base_url, outside)
