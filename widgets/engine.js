// The page side of the engine: `ask(request)` sends one JSON request to the shared engine worker
// and resolves with its JSON response, e.g.
//   const answer = await ask({ command: "roll", args: { expression: "2d6", seed: 7 } });
// One worker (and Pyodide inside it) serves the whole visit: this module is evaluated once per
// document, and Material's instant navigation keeps the document. Failures arrive as responses
// with ok: false, never as rejections, so a widget has one code path: show answer.result or
// answer.error.message. A request asked while the engine starts waits in the worker: the tap is
// answered when the engine is ready, not lost.
//
// This module is the client: the requests out and their answers, the engine's state for widgets
// to watch. How the engine starts, when its worker may download and run, and how a worker that
// dies or stops answering is noticed and replaced (nothing waits forever on "Rolling…", and the
// state never says "ready" for a worker that is gone) is widgets/engine-start.js: engineStart(),
// its states and moves (MOVES).
//
// The engine's state, for widgets to show: "idle" (not asked for yet), "starting", "ready"
// (with `via`: "snapshot" or "fresh", how the worker started, and `why`: how the snapshot was
// chosen or passed over, e.g. "cached", "cached, unpacked" (the heap kept on the device) or
// "not cached, slow link (1.2 MB/s)"; `gate`: "cached" when it started at once because the
// engine is on the device, "page" when it waited for the page's word;
// `took`: the worker's milliseconds per step), "failed" (with a message; the next
// ask, or retry(), starts a fresh worker; with `reload`: true where a newer deploy replaced the
// page's engine, so Reload, not Retry, is the way on: widgets/deploy.js). Every `message` is in a player's words, a sentence to
// show as it is; what the browser or the worker said is in `detail` (and the console), not shown.
// "starting" has a message only when a worker that stopped is being replaced.
//
// Versioned: every page names the engine it was built with, <meta name="rollbook-engine"
// content="pyodide/<hash>/"> (hooks/pyodide_bundle.py), a folder holding the worker and all it
// loads. So a page of one deploy never pairs with an engine or lockfile of another.

import { engineStart } from "./engine-start.js";
import { siteUpdated } from "./deploy.js";

// The site's root, from this module's own address: engine.js stays widgets/engine.js in the built
// site (hooks/widgets_bundle.mjs keeps it an entry of its own), while the other modules are
// bundled into chunks elsewhere, so they take the root from here.
export const SITE_ROOT = new URL("../", import.meta.url).href;

/** The requests the worker has not answered yet: id -> {resolve, request, resent} (exported for Node's tests). */
export class Requests {
  #out = new Map();
  #nextId = 0;

  /** A new request's id; `resolve` takes its answer. */
  add(request, resolve) {
    const id = this.#nextId++;
    this.#out.set(id, { resolve, request, resent: false });
    return id;
  }

  size() { return this.#out.size; }
  has(id) { return this.#out.has(id); }
  waiting() { return [...this.#out.values()].map(({ request }) => request); }
  anyResent() { return [...this.#out.values()].some(({ resent }) => resent); }

  /** Each one sent once more (to a worker replacing one that stopped). */
  resend(post) {
    for (const [id, waiting] of this.#out) {
      waiting.resent = true;
      post({ id, request: waiting.request });
    }
  }

  answer(id, response) {
    const waiting = this.#out.get(id);
    if (!waiting) return;
    this.#out.delete(id);
    waiting.resolve(response);
  }

  /** Each one answered with the failure `words` say (the worker is gone); `reload` where the way
   *  on is Reload, not Retry (a newer deploy replaced the page's engine: deploy.js). */
  failAll(words, detail) {
    for (const [id, { request }] of this.#out) {
      const error = { kind: "load", message: words.answer, detail, ...(words.reload ? { reload: true } : {}) };
      this.answer(id, { api: 1, ok: false, command: request?.command ?? null, error });
    }
  }
}

const requests = new Requests();
const watchers = new Set();

/** The page's engine folder (see above), e.g. "pyodide/0123456789abcdef/", or null. Read once,
 * when this module is evaluated: the document's scripts and its engine come from one build, even
 * if instant navigation later swaps in a page of a newer deploy. */
const FOLDER = (() => {
  const named = globalThis.document?.querySelector('meta[name="rollbook-engine"]')?.content;
  return named && /^pyodide\/[0-9a-f]{16}\/$/.test(named) ? named : null;
})();

const start = engineStart({
  folder: FOLDER,
  spawn: (folder) => new Worker(new URL(folder + "engine-worker.js", SITE_ROOT), { type: "module", name: "rollbook-engine" }),
  // the worker widgets/start.js started from the page's <head>: taken once (or never there: start.js leaves it to us)
  handoff: { take() {
    const started = globalThis.rollbookEngineStarted;
    globalThis.rollbookEngineStarted = false;
    return started || null;
  } },
  requests,
  onStatus: (status) => { for (const watcher of watchers) watcher(status); },
  // a start that fails asks whether a newer deploy replaced this page's engine (then: Reload)
  siteUpdated: () => siteUpdated(FOLDER, SITE_ROOT),
});
globalThis.document?.addEventListener("visibilitychange", () => start.beat()); // a tab shown again checks at once

/** The engine's state now: {state: "idle" | "starting" | "ready" | "failed", message, detail, via, why, gate, took, reload}. */
export function engineStatus() {
  return start.status();
}

/** Call `watcher(status)` now and on every change; returns the function that stops it. */
export function watchEngine(watcher) {
  watchers.add(watcher);
  watcher(start.status());
  return () => watchers.delete(watcher);
}

/** Ask the engine one question; resolves with its response object ({ok, result} or {ok: false, error}). */
export function ask(request) {
  return new Promise((resolve) => {
    const id = requests.add(request, resolve);
    try {
      start.send({ id, request });
    } catch (error) { // e.g. a request holding a function: not JSON, cannot cross to the worker
      requests.answer(id, { api: 1, ok: false, command: request?.command ?? null, error: { kind: "input", message: `the request cannot be sent: ${error.message}` } });
    }
  });
}

/** A fresh seed for a roll, so every result can be shared as a link that reproduces it. */
export function newSeed() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  // 53 bits: an exact JavaScript number, an exact Python int, short enough for a link
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];
}

// How the engine starts (widgets/engine-start.js), as the widgets call for it (widgets/element.js):
// warmUp() when the reader reaches for a widget (the answer is wanted soon); warmUpWhenIdle() once
// the page has settled (reading the page comes first); retry() after a failed start (the reader
// pressed "Retry"); firstScreenComing() and firstScreenDrawn() as the widgets draw the reader's
// first screen (the worker's downloads wait for it); afterEngineStart(callback) once the first start
// is over (ready or failed, and each request asked meanwhile answered), at once if it is: Material's
// bundle waits for it (widgets/material-later.js), so the first roll does not share the CPU with it.
export const { warmUp, warmUpWhenIdle, retry, firstScreenComing, firstScreenDrawn, whenStartOver: afterEngineStart } = start;

/** Whether the engine's first start is under way: its worker started (from the page's <head> by
 *  widgets/start.js, or since) and the start not over yet. */
export function engineStarting() {
  return !start.over() && (start.status().state === "starting" || Boolean(globalThis.rollbookEngineStarted));
}

/** Whether the engine's files are on this device: the page is served by Rollbook's service
 *  worker, which is installed only once its precache (the engine among it) is complete. */
export function engineOnDevice() {
  return Boolean(globalThis.navigator?.serviceWorker?.controller);
}

// The worker widgets/start.js may have started already: take it over now, so the engine's state
// (starting, ready) is known from the first drawing. If it has not run yet, it never starts one.
if (globalThis.rollbookEngineStarted) start.takeOver();
else globalThis.rollbookEngineStarted = false;
