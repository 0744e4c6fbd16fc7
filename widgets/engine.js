// The page side of the engine: `ask(request)` sends one JSON request to the shared engine worker
// and resolves with its JSON response, e.g.
//   const answer = await ask({ command: "roll", args: { expression: "2d6", seed: 7 } });
// One worker (and Pyodide inside it) serves the whole visit: this module is evaluated once per
// document, and Material's instant navigation keeps the document. Failures arrive as responses
// with ok: false, never as rejections, so a widget has one code path: show answer.result or
// answer.error.message. A request asked while the engine starts waits in the worker: the tap is
// answered when the engine is ready, not lost.
//
// The engine's state, for widgets to show: "idle" (not asked for yet), "starting", "ready"
// (with `via`: "snapshot" or "fresh", how the worker started, and `why`: how the snapshot was
// chosen or passed over, e.g. "cached" or "not cached, slow link (1.2 MB/s)"), "failed" (with a message; the next
// ask, or retry(), starts a fresh worker).
//
// Versioned: every page names the engine it was built with, <meta name="rollbook-engine"
// content="pyodide/<hash>/"> (hooks/pyodide_bundle.py), a folder holding the worker and all it
// loads. So a page of one deploy never pairs with an engine or lockfile of another.

let worker = null;
let nextId = 0;
const pending = new Map();
let status = { state: "idle", message: null, via: null, why: null };
const watchers = new Set();
const SITE_ROOT = new URL("../", import.meta.url);

function setStatus(state, message = null, via = null, why = null) {
  status = { state, message, via, why };
  for (const watcher of watchers) watcher(status);
}

/** The engine's state now: {state: "idle" | "starting" | "ready" | "failed", message, via, why}. */
export function engineStatus() {
  return status;
}

/** Call `watcher(status)` now and on every change; returns the function that stops it. */
export function watchEngine(watcher) {
  watchers.add(watcher);
  watcher(status);
  return () => watchers.delete(watcher);
}

function failAll(message) {
  for (const [id, resolve] of pending) {
    resolve({ api: 1, ok: false, command: null, error: { kind: "load", message } });
    pending.delete(id);
  }
  worker?.terminate();
  worker = null; // the next ask starts a fresh worker
  setStatus("failed", message);
}

/** The page's engine folder (see above), e.g. "pyodide/0123456789abcdef/", or null. Read once,
 * when this module is evaluated: the document's scripts and its engine come from one build, even
 * if instant navigation later swaps in a page of a newer deploy. */
const FOLDER = (() => {
  const named = globalThis.document?.querySelector('meta[name="rollbook-engine"]')?.content;
  return named && /^pyodide\/[0-9a-f]{16}\/$/.test(named) ? named : null;
})();

function listen(started) {
  started.onmessage = (event) => received(event.data);
  // A worker that cannot even be fetched or parsed reports here, not through onmessage.
  started.onerror = (event) => {
    event.preventDefault();
    failed(event.message);
  };
}

function received({ id, response, status: started, message, via, why }) {
  if (started === "ready") return setStatus("ready", null, via, why);
  // A worker whose Pyodide failed to load (say, the phone lost its signal) stays broken:
  // drop it, so the next ask loads afresh instead of failing for the rest of the visit.
  if (started === "failed") return failAll(message);
  const resolve = pending.get(id);
  if (resolve) {
    pending.delete(id);
    resolve(response);
  }
  if (response?.error?.kind === "load") failAll(response.error.message);
}

function failed(message) {
  failAll(`the dice engine could not start: ${message || "its worker failed to load"}`);
}

/** The worker widgets/start.js started from the page's <head>, with what it said meanwhile. */
function adopt() {
  const started = globalThis.rollbookEngineStarted;
  globalThis.rollbookEngineStarted = false; // taken (or never there): start.js leaves it to us
  if (!started) return false;
  if (started.folder !== FOLDER) { // (never: both read the one meta)
    started.worker.terminate();
    return false;
  }
  worker = started.worker;
  setStatus("starting");
  listen(worker);
  for (const early of started.early) {
    if (early.kind === "error") failed(early.message);
    else received(early.data);
  }
  return true;
}

function engineWorker() {
  if (worker === null && !adopt()) {
    setStatus("starting");
    if (FOLDER === null) { // a page the build did not write: no engine it is known to match
      failAll("the dice engine could not start: this page names no engine version (<meta name=\"rollbook-engine\">)");
      return null;
    }
    worker = new Worker(new URL(FOLDER + "engine-worker.js", SITE_ROOT), { type: "module", name: "rollbook-engine" });
    listen(worker);
  }
  return worker;
}

/** Start the engine now (e.g. when a widget is shown) so the first answer comes sooner. */
export function warmUp() {
  engineWorker();
}

/** Whether the engine's files are on this device: the page is served by Rollbook's service
 *  worker, which is installed only once its precache (the engine among it) is complete. */
export function engineOnDevice() {
  return Boolean(globalThis.navigator?.serviceWorker?.controller);
}

/** Start the engine once the browser is idle: reading the page comes first. */
export function warmUpWhenIdle() {
  if (worker !== null) return;
  const idle = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  idle(() => warmUp(), { timeout: 2000 });
}

/** After a failed start: try again (the reader pressed "Retry"). */
export function retry() {
  if (status.state === "failed" || worker === null) warmUp();
}

/** Ask the engine one question; resolves with its response object ({ok, result} or {ok: false, error}). */
export function ask(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    try {
      engineWorker()?.postMessage({ id, request }); // null: failed, and failAll answered it
    } catch (error) { // e.g. a request holding a function: not JSON, cannot cross to the worker
      pending.delete(id);
      resolve({ api: 1, ok: false, command: request?.command ?? null, error: { kind: "input", message: `the request cannot be sent: ${error.message}` } });
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

// The worker widgets/start.js may have started already: take it over now, so the engine's state
// (starting, ready) is known from the first drawing. If it has not run yet, it never starts one.
if (globalThis.rollbookEngineStarted) engineWorker();
else globalThis.rollbookEngineStarted = false;
