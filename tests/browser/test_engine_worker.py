"""The engine in a real browser: a page of the built site imports widgets/engine.js, whose module
worker loads Pyodide and the rollbook wheel from the site itself, and answers like CPython."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from rollbook import api

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

# Generous: a cold Pyodide start takes seconds, more on a loaded 2-core machine.
ASK = """async (requests) => {
  const engine = await import(new URL("widgets/engine.js", document.baseURI).href);
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("no answer in 90 s")), 90000));
  return await Promise.race([Promise.all(requests.map((r) => engine.ask(r))), timeout]);
}"""

REQUESTS = [
    {"command": "roll", "args": {"expression": "4d6+2", "seed": 20260101}},
    {"command": "roll", "args": {"expression": "d%", "seed": 7}},
    {"command": "no such command", "args": {}},  # errors come back as JSON too
]


def test_a_page_gets_the_same_answers_as_cpython_from_the_engine_worker(context, base_url: str) -> None:
    outside: list[str] = []
    local = urlsplit(base_url).netloc

    def only_localhost(route) -> None:  # anything else is recorded and never sent
        if urlsplit(route.request.url).netloc == local:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_localhost)
    page = context.new_page()
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(request.url))
    page.goto(base_url)

    answers = page.evaluate(ASK, REQUESTS)

    # Compared as JSON values: JSON.parse in the worker turns 2.0 into 2; byte-for-byte equality
    # of the engine's text is the job of the Node harness (tests/pyodide/run.mjs).
    expected = [json.loads(api.call_json(json.dumps(request))) for request in REQUESTS]
    assert answers == expected
    assert answers[0]["ok"] and answers[0]["result"]["seed"] == 20260101
    assert outside == [], f"requests left {local}: {outside}"
    loaded = {urlsplit(url).path.rsplit("/", 1)[-1] for url in fetched}
    assert {"engine-worker.js", "pyodide.asm.wasm", "pyodide-lock.json"} <= loaded
    # From the folder named after its digest, which Chromium checks against the lockfile's sha256.
    wheels = [urlsplit(url).path for url in fetched if url.endswith(".whl")]
    assert len(wheels) == 1 and re.search(r"/pyodide/[0-9a-f]{16}/rollbook-[^/]+-py3-none-any\.whl$", wheels[0]), wheels


def test_an_engine_that_cannot_load_answers_with_a_json_error_and_retries_on_the_next_ask(context, base_url: str) -> None:
    context.route("**/pyodide/*/pyodide-lock.json", lambda route: route.fulfill(status=404, body="gone"))
    page = context.new_page()
    page.goto(base_url)

    (answer,) = page.evaluate(ASK, [REQUESTS[0]])

    assert answer["ok"] is False
    assert answer["error"]["kind"] == "load"
    assert answer["error"]["message"].startswith("the dice engine could not start: ")

    context.unroute("**/pyodide/*/pyodide-lock.json")  # back online: the next ask loads afresh
    (again,) = page.evaluate(ASK, [REQUESTS[0]])
    assert again == json.loads(api.call_json(json.dumps(REQUESTS[0])))


def test_a_wheel_not_matching_the_lockfile_is_refused(context, base_url: str) -> None:
    """Chromium checks the wheel against the lockfile's sha256 (fetch integrity): the reason the
    wheel's URL names its digest, so a cached older wheel is never fetched for a newer lockfile.
    Without the memory snapshot (gone here), the wheel is what the engine starts from; with it,
    the engine answers from the snapshot, which the build tied to this very wheel."""
    def altered(route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=response.body() + b"\0")

    context.route("**/*.whl", altered)
    context.route("**/engine.snapshot.gz", lambda route: route.fulfill(status=404, body="gone"))
    page = context.new_page()
    page.goto(base_url)

    (answer,) = page.evaluate(ASK, [REQUESTS[0]])

    assert answer["ok"] is False and answer["error"]["kind"] == "load"
    # The player reads what to do; what went wrong is kept for the console and for this test.
    assert answer["error"]["message"] == "the dice engine could not start: check the connection, then tap Retry"
    assert "rollbook wheel" in answer["error"]["detail"]


def test_a_fresh_start_fetches_the_wheel_once(context, base_url: str) -> None:
    """Without the snapshot (or on a slow link) the worker starts Pyodide the normal way: from the
    wheel it asked for at its start, not a second download of it by loadPackage (a loaded CI
    machine, measuring the link slow, once fetched it twice)."""
    context.route("**/engine.snapshot.gz", lambda route: route.fulfill(status=404, body="gone"))
    wheels: list[str] = []
    context.on("request", lambda request: wheels.append(request.url) if request.url.endswith(".whl") else None)
    page = context.new_page()
    page.goto(base_url)
    (answer,) = page.evaluate(ASK, [REQUESTS[0]])
    assert answer == json.loads(api.call_json(json.dumps(REQUESTS[0])))
    assert page.evaluate("async () => (await import(new URL('widgets/engine.js', document.baseURI).href)).engineStatus().via") == "fresh"
    assert len(wheels) == 1, wheels
