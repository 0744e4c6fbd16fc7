"""Helpers for the browser tests: the Chromium they drive, the servers that serve the built site,
phone contexts, and the widgets' own checks (a module of its own: two conftest.py files in tests/
would shadow each other when imported by name, so no test imports a conftest; what tests beyond
the browser's share lives in tests/kit/)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from kit.chromium import CHROMIUM, CHROMIUM_FLAGS, suite_flags  # noqa: F401  (the browser tests' Chromium, from here)
from kit.heap import HEAP_CACHE_PREFIX
from kit.kept import KEPT, put_kept
from kit.served import QuietServer
from sitebuild import site_url  # tests/site/, put on sys.path by tests/browser/conftest.py

PHONE = {"width": 390, "height": 844}
ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# Screenshots some tests take for a person to look at (390 x 844, light and dark): in the
# repository's shots/ (ignored by git), or wherever ROLLBOOK_SHOTS says; never outside the clone.
SHOTS = Path(os.environ.get("ROLLBOOK_SHOTS", ROOT / "shots"))
# A cold Pyodide start takes seconds, more on a loaded 2-core machine with other tests running.
ENGINE_TIMEOUT_MS = 90_000


# Served under site_url's path, as on GitHub Pages, so 404.html (which uses absolute paths) works too.
PREFIX = urlsplit(site_url()).path


class SiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}

    def translate_path(self, path: str) -> str:
        if not path.startswith(PREFIX):
            return str(Path(self.directory) / "__outside_the_site__")
        return super().translate_path("/" + path.removeprefix(PREFIX))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        # Like GitHub Pages: a missing page gets the site's 404.html.
        not_found = Path(self.directory) / "404.html"
        if code != 404 or not not_found.is_file():
            return super().send_error(code, message, explain)
        body = not_found.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class LocalSitemap(SiteHandler):
    """The deployed build, served as if deployed here: sitemap.xml names this server's address
    where the build wrote site_url's (Material's instant navigation follows only the links whose
    host and port the sitemap names), so one build serves every test server of a run."""

    def send_head(self) -> Any:
        if self.path.split("?")[0] != PREFIX + "sitemap.xml":
            return super().send_head()
        here = f"http://127.0.0.1:{self.server.server_address[1]}{PREFIX}"
        body = (Path(self.directory) / "sitemap.xml").read_bytes().replace(site_url().encode(), here.encode())
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class Switchable:
    """Serves one directory under the site's path, then another, at the same URL; counts the
    files it sent in full (200), by name."""

    def __init__(self, directory: Path, delays: dict[str, float] | None = None,
                 trickle: dict[str, int] | None = None) -> None:
        self.directory = directory
        self.sent: dict[str, int] = {}
        self.sent_paths: dict[str, int] = {}  # the same, by the whole path (many files are index.html)
        self.delays = delays or {}  # seconds before a file is sent, by name: a slow link
        self.trickle = trickle or {}  # bytes per second a file is sent at, by name: a slow link
        self.server = QuietServer(("127.0.0.1", 0), self._handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{PREFIX}"

    def _handler(self, *args: Any, **kwargs: Any) -> SiteHandler:
        sent, sent_paths, delays, trickle = self.sent, self.sent_paths, self.delays, self.trickle

        class Counting(SiteHandler):
            def copyfile(self, source: Any, outputfile: Any) -> None:
                rate = trickle.get(self.path.split("?")[0].rsplit("/", 1)[-1])
                if rate is None:
                    return super().copyfile(source, outputfile)
                started, sent_bytes = time.monotonic(), 0
                while chunk := source.read(64 * 1024):
                    outputfile.write(chunk)
                    sent_bytes += len(chunk)
                    # on a schedule, not a sleep per chunk: a busy machine's late wake-ups catch up
                    time.sleep(max(0.0, started + sent_bytes / rate - time.monotonic()))

            def send_response(self, code: int, message: str | None = None) -> None:
                if code == 200:
                    path = self.path.split("?")[0]
                    name = path.rsplit("/", 1)[-1]
                    sent[name] = sent.get(name, 0) + 1
                    sent_paths[path] = sent_paths.get(path, 0) + 1
                    time.sleep(delays.get(name, 0))
                super().send_response(code, message)

        return Counting(*args, directory=str(self.directory), **kwargs)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


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


# Nothing leaves this machine from the returning phone: every host but the test server's address
# fails to resolve. It cannot route requests as phone_context does: a route turns the HTTP cache
# off, and with it the warm start that the returning phone is for.
NO_HOST_NAMES = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def returning_phone_context(playwright: Any, profile: Path) -> Any:
    """A phone-sized touch Chromium with a profile on disk (Chromium caches compiled code only for
    such a profile, not for the fresh contexts of phone_context), service workers blocked."""
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=[*suite_flags(playwright), NO_HOST_NAMES],
        viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block")
    for page in context.pages:  # the blank tab a profile opens with: kept, so the browser stays
        page.goto("about:blank")
    return context


# What a page can keep (not what a browser caches): all of it goes between two tests. The engine's
# unpacked snapshot stays, as the HTTP cache and the compiled code do: it is the device's copy
# of the engine (a player's phone keeps it from one visit to the next), not a test's state.
KEPT_BY_A_PAGE = "cookies,file_systems,indexeddb,local_storage,websql,service_workers,storage_buckets"
WHAT_IS_KEPT = """async (spared) => ({ local: Object.keys(localStorage), session: Object.keys(sessionStorage),
  databases: (await indexedDB.databases()).map((d) => d.name),
  caches: (await caches.keys()).filter((name) => !name.startsWith(spared)) })"""
LET_CACHES_GO = """async (spared) => {
  for (const name of await caches.keys()) if (!name.startsWith(spared)) await caches.delete(name);
}"""
NOTHING_KEPT = {"local": [], "session": [], "databases": [], "caches": []}


class KeptCameBack(UserWarning):
    """The site's storage held something again after it was cleared with no page of the site open
    (CI, 2026-12-06: an encounter of an earlier test was back at the next test's start, and again
    right after that test's clear). Cleared once more, so no test starts with another's state; the
    warning keeps a record of when, and of what, in the run's summary."""


def kept_by_the_site(context: Any, keeper: Any, base_url: str, clear: bool) -> dict[str, list[str]]:
    """What the site keeps in `context` (read on its plainest file, sitemap.xml, in `keeper`),
    after clearing it first if `clear`. The keeper stays on sitemap.xml, a page of the site with no
    script (it keeps nothing, and service workers are blocked in the returning phone), loaded
    again after a clear. Sent back to about:blank after each check, it took a new renderer process
    every time: the checks alone cost 0.44 s of CPU per test, 0.15 s kept there (a scratch probe)."""
    if clear:
        cdp = context.new_cdp_session(keeper)
        try:
            cdp.send("Storage.clearDataForOrigin", {"origin": origin_of(base_url), "storageTypes": KEPT_BY_A_PAGE})
        finally:
            cdp.detach()
    if clear or keeper.url != base_url + "sitemap.xml":
        keeper.goto(base_url + "sitemap.xml")
    if clear:
        keeper.evaluate(LET_CACHES_GO, HEAP_CACHE_PREFIX)
    return keeper.evaluate(WHAT_IS_KEPT, HEAP_CACHE_PREFIX)


def origin_of(base_url: str) -> str:
    return f"http://{urlsplit(base_url).netloc}"


@contextlib.contextmanager
def leaving_nothing_kept(context: Any, base_url: str, outside: Outside, tab: StartedTab | None = None) -> Iterator[None]:
    """The test starts with nothing kept (checked, and cleared when something came back) and, when
    it ends, its pages are closed (but the started `tab`, put at rest) and the site's storage
    cleared (then checked); requests that left 127.0.0.1 meanwhile counted in `outside`."""
    local = urlsplit(base_url).netloc

    def record(request: Any) -> None:
        if urlsplit(request.url).netloc != local and not request.url.startswith(("blob:", "data:")):
            outside.urls.append(request.url)

    keeper = (context.pages or [context.new_page()])[0]
    if (found := kept_by_the_site(context, keeper, base_url, clear=False)) != NOTHING_KEPT:
        warnings.warn(KeptCameBack(f"kept at the start of the test, after the last one's clear: {found}"))
        assert kept_by_the_site(context, keeper, base_url, clear=True) == NOTHING_KEPT, f"kept at the start: {found}"
    context.on("request", record)
    try:
        yield
    finally:
        context.remove_listener("request", record)
        spared = tab.page if tab else None
        keeper, *pages = [page for page in context.pages if page is not spared] or [context.new_page()]
        for page in pages:
            page.close()
        if tab:
            tab.rest(base_url)
        left = kept_by_the_site(context, keeper, base_url, clear=True)
        if left != NOTHING_KEPT:  # once more, a moment later: see KeptCameBack
            warnings.warn(KeptCameBack(f"kept right after the test's clear: {left}"))
            time.sleep(0.5)
            left = kept_by_the_site(context, keeper, base_url, clear=True)
        if tab:
            tab.reread_kept()
        assert left == NOTHING_KEPT, f"kept after the test, cleared twice: {left}"


def axe_violations(page: Any, serious_only: bool = True, within: list[str] | None = None) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (serious and critical ones by default),
    in the whole document or only `within` these CSS selectors (e.g. a page's widgets)."""
    # Evaluated through DevTools, not added as a <script>: the site's Content Security Policy
    # (rightly) refuses inline scripts, and a test must not weaken it.
    # Colours are measured as they are at rest: a control fading in (Material's "Back to top",
    # shown as a scroll goes up) is half transparent for a moment, and would measure as faint.
    page.evaluate("() => Promise.race([Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))),"
                  " new Promise((done) => setTimeout(done, 2000))])")
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    result = page.evaluate("async (within) => (await axe.run(within ? {include: within.map((s) => [s])} : document, "
                           "{resultTypes: ['violations']})).violations", within)
    if serious_only:
        result = [v for v in result if v["impact"] in ("serious", "critical")]
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]} for v in result]


def roll(page: Any, expression: str) -> None:
    """Roll `expression` in the roller (tools/roller/)."""
    field = page.get_by_label("Dice expression")
    field.fill(expression)
    field.press("Enter")


def total(page: Any) -> str:
    """The roller's total once it is drawn."""
    value = page.locator(".rollbook-total__value")
    expect(value).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    return value.inner_text()


def open_more_options(widget: Any) -> None:
    """Open a helper's "More options" fold (widgets/tool.js), if it is closed."""
    fold = widget.locator("details.rollbook-fold")
    if not fold.evaluate("(details) => details.open"):
        fold.locator("summary").click()


def small_tap_targets(page: Any, selectors: str) -> list[str]:
    """The visible controls matching `selectors` smaller than 44 x 44 px, as "name: WxH".
    Checkboxes and file inputs are measured by the label that wraps them, so they are skipped."""
    return page.evaluate("""(selectors) => [...document.querySelectorAll(selectors)]
        .filter((el) => el.offsetParent !== null && el.type !== 'checkbox' && el.type !== 'file')
        .map((el) => [el.textContent.trim() || el.name || el.id, el.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)""", selectors)


SERVICE_WORKER_READY = """async () => {
  const registration = await navigator.serviceWorker.ready;  // active = every file precached
  return Boolean(registration.active && navigator.serviceWorker.controller);
}"""


def service_worker_ready(page: Any) -> None:
    """The offline copy made and this page under it. (A wait_for_function on an async function
    passes at once: it does not await the promise, so this asks until it is so.)"""
    for _ in range(ENGINE_TIMEOUT_MS // 250):
        if page.evaluate(SERVICE_WORKER_READY):
            return
        page.wait_for_timeout(250)
    raise AssertionError("the service worker never took this page")


# What the site's scripts say in the article (each outermost rollbook-* element, notices drawn in
# it included, and the notices drawn in the page's flow), not the page's prose: a check that they
# do not say a phrase ("not kept", "Retry") cannot then fail because the rules text says it (a
# paragraph on tools/encounter/ did, 2026-12-06).
WIDGETS_TEXT = """() => {
  const ours = (el) => el.localName.startsWith("rollbook-") || el.classList.contains("rollbook-notice");
  const outermost = (el) => { for (let up = el.parentElement; up; up = up.parentElement) if (ours(up)) return false; return true; };
  return [...document.querySelectorAll("article *")].filter((el) => ours(el) && outermost(el)).map((el) => el.innerText).join("\\n");
}"""


def widgets_drawn(page: Any) -> None:
    """Wait until every widget of the site in the article is drawn whole (widgets/element.js: a drawn
    one has the class rollbook-widget; one drawn in two parts says `whole` once the second is)."""
    page.wait_for_function("""() => [...document.querySelectorAll("article *")]
      .filter((element) => element.localName.startsWith("rollbook-"))
      .every((element) => element.classList.contains("rollbook-widget") && element.whole !== false)""", timeout=ENGINE_TIMEOUT_MS)


def widgets_text(page: Any) -> str:
    """What the site's scripts say in the article now (see WIDGETS_TEXT)."""
    return page.evaluate(WIDGETS_TEXT)


# A tab's copy of localStorage behind the browser's (Chromium's copies per process, brought up to
# date by messages, lag between tabs): while window.__stale is set, the kept value reads as it.
STALE_READ = """(() => {
  const getItem = Storage.prototype.getItem;
  Storage.prototype.getItem = function (key) {
    return window.__stale !== undefined && this === localStorage && key === %s ? window.__stale : getItem.call(this, key);
  };
})();""" % json.dumps(KEPT)


def watch_errors(page: Any) -> list[str]:
    """The page's uncaught errors from now on (each one a test's failure to report)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


# Nothing of the encounter in flight in a tab: no step or settling of the kept state holding or
# waiting for a lock (widgets/step-lock.js, widgets/kept/store.js), no tracker busy.
ENCOUNTER_QUIET = """async () => {
  const { held, pending } = await navigator.locks.query();
  const t = document.querySelector("rollbook-encounter");
  return ![...held, ...pending].some((lock) => lock.name.startsWith("rollbook-"))
    && !(t && (t.busy || t.querySelector("[aria-busy=true]")));
}"""


def encounter_quiet(*pages: Any) -> None:
    """Wait until ENCOUNTER_QUIET holds in every one of `pages`, twice in a row (a step's settling
    starts after its answer; wait_for_function would not await the locks' promise)."""
    deadline = time.monotonic() + ENGINE_TIMEOUT_MS / 1000
    calm = 0
    while calm < 2:
        calm = calm + 1 if all(page.evaluate(ENCOUNTER_QUIET) for page in pages) else 0
        assert time.monotonic() < deadline, "an encounter step never ended"
        pages[0].wait_for_timeout(100)


def another_tab_keeps_as_tapped(page: Any, fight: dict[str, Any], button: str) -> None:
    """Another tab's encounter `fight` written to storage at the instant `button` (its text) of the
    page's tracker is tapped, in one task: the page has not heard of it when the tap runs (a page
    gets no storage event for its own write)."""
    page.evaluate("""([key, fight, button]) => {
      localStorage.setItem(key, JSON.stringify({ rollbook: 2, encounter: fight }));
      [...document.querySelectorAll("rollbook-encounter button")].find((b) => b.textContent.trim() === button).click();
    }""", [KEPT, fight, button])


def open_fight(page: Any, base_url: str, fight: dict[str, Any]) -> None:
    """`fight` kept (kit.kept.a_fight) and the encounter page open on it, the engine ready."""
    page.goto(base_url + "tools/")
    put_kept(page, {"rollbook": 2, "encounter": fight})
    page.goto(base_url + "tools/encounter/")
    fight_drawn(page)


def open_fight_again(pages: list[Any], base_url: str, fight: dict[str, Any]) -> None:
    """`fight` kept, and `pages` (open on the site, their engines started) gone to the encounter page
    anew by instant navigation: each tracker drawn afresh from it, with no engine started again."""
    kept_by_another_tab(pages[0], {"rollbook": 2, "encounter": fight})  # (the other pages hear it from this one)
    for page in pages:
        instant_visit(page, base_url, "tools/encounter/")
        fight_drawn(page)


def fight_drawn(page: Any) -> None:
    """The encounter page shows a fight before its first round, the engine ready."""
    expect(page.locator(".rollbook-encounter__next")).to_have_text("Roll initiative", timeout=ENGINE_TIMEOUT_MS)
    # the engine ready: the tracker's tables and rulings asked of it and answered
    page.wait_for_function("() => document.querySelector('rollbook-encounter')?.rulingTitles", timeout=ENGINE_TIMEOUT_MS)


# --- the started tab ---------------------------------------------------------------------------
# A player goes from page to page of the site by Material's instant navigation: the document stays,
# and with it the engine's worker, started once. A new tab's visit to the roller and a roll cost
# 1.49-1.88 s of CPU (median 1.70 s), the same visit by instant navigation in a tab whose engine
# had started 0.15-0.25 s (median 0.17 s; a scratch probe, 8 of each interleaved, 2026-12-07):
# the tests of what a page does once it is open go to it so (the `tab` fixture, conftest.py).
# A test of a page's start or load, of a first visit, or one that adds routes or init scripts,
# opens a page of its own.

# (Material's bundle may run 8 s after a page's load: material-later.js; then it reads the sitemap)
VISIT_MS = 20_000
# Between two tests the tab rests on a page with no widget of the site's tools.
RESTING_PAGE = "credits/"
# Material's instant navigation to `url`, as a tap on a link to it makes it; resolves once the new
# page is in (Material has swapped its content for the new page's, at `url`). Material takes over
# links only once its bundle has run (widgets/material-later.js holds it for seconds after a page's
# load) and it has read the sitemap; a tap before that would be an ordinary navigation. So the tap
# is seen last, on the window: one Material did not take (its default not prevented) is cancelled
# there, and tapped again a moment later.
INSTANT_VISIT = """async ([url, ms]) => {
  const deadline = performance.now() + ms;
  const content = () => document.querySelector("[data-md-component=container]");
  const before = content();
  const tap = () => {
    let taken = false;
    const after = (event) => { taken = event.defaultPrevented; if (!taken) event.preventDefault(); };
    addEventListener("click", after, { once: true });
    const link = Object.assign(document.createElement("a"), { href: url });
    document.body.append(link);
    link.click();
    link.remove();
    return taken;
  };
  while (!tap()) {
    if (performance.now() > deadline) throw new Error(`Material's instant navigation never took a tap on ${location.href}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  while (location.href.split("#")[0] !== url || content() === before) {  // (a heading's #id may follow)
    if (performance.now() > deadline) throw new Error(`no instant navigation to ${url} in ${ms} ms (at ${location.href})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // and Material's scroll to the new page's top done: a tap placed before it would land elsewhere
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  for (let y = NaN; y !== scrollY; await frame()) y = scrollY;
}"""
# The page's engine answered (the start over: no widget of a later page waits for it).
ENGINE_ANSWERED = """async (ms) => {
  const entry = [...document.scripts].find((script) => script.src.endsWith("/widgets/rollbook.js")).src;
  const engine = await import(new URL("engine.js", entry).href);
  const late = new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms));
  const answer = await Promise.race([engine.ask({ command: "roll", args: { expression: "d6", seed: 1 } }), late]);
  if (!answer.ok) throw new Error(JSON.stringify(answer));
}"""
# Nothing kept in flight (no lock of the site's held or asked for) and no notice left on <body>
# (notice.js puts them outside what instant navigation swaps).
AT_REST = """async () => {
  const { held, pending } = await navigator.locks.query();
  document.querySelectorAll("body > .rollbook-notice").forEach((notice) => notice.remove());
  return ![...held, ...pending].some((lock) => lock.name.startsWith("rollbook-"));
}"""
# What a test may have set on the tab that outlives a visit (Playwright's own listeners are not
# among these: it keeps its waiters on the page's channel).
TEST_EVENTS = ("console", "pageerror", "dialog", "request", "response", "requestfinished", "requestfailed",
               "framenavigated", "load", "domcontentloaded", "popup", "download", "filechooser", "worker")


def read_again(page: Any) -> None:
    """`page` reads what is kept again, as a tab does when another tab changed it (session.js
    hears the storage event the browser sends the other tabs; none comes to a tab for its own write)."""
    page.evaluate("(key) => dispatchEvent(new StorageEvent('storage', { key }))", KEPT)


def kept_by_another_tab(page: Any, value: Any) -> None:
    """`value` kept (written as JSON) as by another tab of the site: `page` hears of it at once."""
    put_kept(page, value)
    read_again(page)


# The `tab` fixture: tab(path, color_scheme=None, kept=None) -> the started tab's page, gone to `path`.
Visit = Callable[..., Any]


def instant_visit(page: Any, base_url: str, path: str) -> None:
    """`page` goes to `path` (under base_url) by Material's instant navigation, through the resting
    page when it is there already (Material goes only to another page)."""
    if urlsplit(page.url).path == urlsplit(base_url + path).path:
        page.evaluate(INSTANT_VISIT, [base_url + RESTING_PAGE, VISIT_MS])
    page.evaluate(INSTANT_VISIT, [base_url + path, VISIT_MS])


class StartedTab:
    """The returning phone's tab of the site whose engine has started, kept from test to test (one
    per xdist worker): `visit(path)` goes there by instant navigation. Between tests it is put at
    rest (`rest`, then `reread_kept` once the site's storage is cleared); a tab that cannot be is
    closed, and the next visit opens a new one."""

    def __init__(self) -> None:
        self.page: Any = None
        self.visited = False  # by the test under way: put at rest after it

    def visit(self, context: Any, base_url: str, path: str, color_scheme: str | None = None, kept: Any = None) -> Any:
        if self.page is None or self.page.is_closed():
            page = context.new_page()
            page.goto(base_url + RESTING_PAGE)
            page.evaluate(ENGINE_ANSWERED, ENGINE_TIMEOUT_MS)
            # a reach for Material's own parts runs its bundle at once (material-later.js)
            page.evaluate("document.querySelector('header').dispatchEvent(new FocusEvent('focusin', { bubbles: true }))")
            self.page = page
        self.visited = True
        if color_scheme:
            self.page.emulate_media(color_scheme=color_scheme)
        if kept is not None:  # kept before the visit, as by another tab
            kept_by_another_tab(self.page, kept)
        instant_visit(self.page, base_url, path)
        return self.page

    def rest(self, base_url: str) -> None:
        """After a test, before the site's storage is cleared: back on the resting page with
        nothing in flight, the test's listeners, viewport, pointer and media gone."""
        page = self.page
        if page is None or page.is_closed() or not self.visited:
            return
        self.visited = False
        try:
            for event in TEST_EVENTS:
                page._impl_obj.remove_all_listeners(event)  # (the sync API removes only a listener it is given)
            page.set_viewport_size(PHONE)
            page.mouse.move(0, 0)  # the last tap's point would hover over whatever the next page has there
            page.emulate_media(media="null", color_scheme="null", reduced_motion="null", forced_colors="null")  # the phone's own
            if not page.url.startswith(base_url) or page.evaluate("typeof document$") == "undefined":
                raise RuntimeError(f"the tab left the site's instant navigation: {page.url}")
            page.evaluate(INSTANT_VISIT, [base_url + RESTING_PAGE, VISIT_MS])
            deadline = time.monotonic() + 15
            while not page.evaluate(AT_REST):
                if time.monotonic() > deadline:
                    raise RuntimeError("something kept was still in flight 15 s after the test")
                page.wait_for_timeout(50)
        except Exception as error:  # noqa: BLE001  (any of it: the next test gets a new tab)
            warnings.warn(f"the started tab could not be put at rest, so it is closed: {error}")
            self.close()

    def reread_kept(self) -> None:
        """Once the site's storage is cleared: the tab reads what is kept again (see read_again).
        A tab still saying a problem with what is kept (a store that failed keeps its state until a
        reload) is closed."""
        if self.page is not None and not self.page.is_closed():
            read_again(self.page)
            if self.page.locator(".rollbook-kept-notice").count():
                warnings.warn(f"the started tab still says a problem with what is kept, so it is closed: "
                              f"{self.page.locator('.rollbook-kept-notice').first.inner_text()}")
                self.close()

    def close(self) -> None:
        if self.page is not None and not self.page.is_closed():
            self.page.close()
        self.page = None
