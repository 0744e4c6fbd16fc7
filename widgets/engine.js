// The page side of the engine: `ask(request)` sends one JSON request to the shared engine worker
// and resolves with its JSON response, e.g.
//   const answer = await ask({ command: "roll", args: { expression: "2d6", seed: 7 } });
// One worker (and Pyodide inside it) serves the whole visit: this module is evaluated once per
// document, and Material's instant navigation keeps the document. Failures arrive as responses
// with ok: false, never as rejections, so a widget has one code path: show answer.result or
// answer.error.message. A request asked while the engine starts waits in the worker: the tap is
// answered when the engine is ready, not lost.
//
// A worker that dies or stops answering is noticed and replaced (see "Faults" below): nothing
// waits forever on "Rolling…", and the state never says "ready" for a worker that is gone.
//
// The engine's state, for widgets to show: "idle" (not asked for yet), "starting", "ready"
// (with `via`: "snapshot" or "fresh", how the worker started, and `why`: how the snapshot was
// chosen or passed over, e.g. "cached" or "not cached, slow link (1.2 MB/s)"; `gate`: "cached" when
// it started at once because the engine is on the device, "page" when it waited for the page's word;
// `took`: the worker's milliseconds per step), "failed" (with a message; the next
// ask, or retry(), starts a fresh worker). Every `message` is in a player's words, a sentence to
// show as it is; what the browser or the worker said is in `detail` (and the console), not shown.
// "starting" has a message only when a worker that stopped is being replaced.
//
// Versioned: every page names the engine it was built with, <meta name="rollbook-engine"
// content="pyodide/<hash>/"> (hooks/pyodide_bundle.py), a folder holding the worker and all it
// loads. So a page of one deploy never pairs with an engine or lockfile of another.

import { limit, runsLong, Watchdog } from "./engine-start.js";
import { whenIdle } from "./idle.js";

let worker = null;
let nextId = 0;
const pending = new Map(); // id -> {resolve, request, resent}: what the worker has not answered yet
let status = { state: "idle", message: null, detail: null, via: null, why: null, gate: null, took: null };
const watchers = new Set();

// On a first visit the worker downloads only once the page has drawn the reader's first screen
// (its widgets say when, widgets/element.js), and starts the runtime (the CPU-heavy part) only when
// the page asks, the reader reaches for a widget, or the page has settled after its load
// (widgets/engine-worker.js): the page's own start never shares the CPU with the engine's. A
// widget that asks as it is drawn (a ruling's title, a table) is answered once both are done.
let downloads = false; // the page has drawn, or the reader reached: a worker may download
let downloadsWanted = false; // asked for: the worker downloads once the page has drawn
let widgetsDrawing = false; // widgets are drawing the first screen: they say when it is drawn
let screenDrawn = false; // ... and they have
let wanted = false;
let settling = false;
const SETTLE_MS = 1000; // after the load event: Material's and the widgets' first work is done by then
// The site's root, from this module's own address: engine.js stays widgets/engine.js in the built
// site (hooks/widgets_bundle.mjs keeps it an entry of its own), while the other modules are
// bundled into chunks elsewhere, so they take the root from here.
export const SITE_ROOT = new URL("../", import.meta.url).href;

function setStatus(state, { message = null, detail = null, via = null, why = null, gate = null, took = null } = {}) {
  status = { state, message, detail, via, why, gate, took };
  for (const watcher of watchers) watcher(status);
}

// Faults: a worker that dies or goes silent is noticed by the watchdog (widgets/engine-start.js,
// its limits and why), which calls back here to start over or say it failed.
let startedAt = 0; // when the worker in `worker` was started or adopted
const watchdog = new Watchdog((why) => (why === "start" ? tooSlowToStart()
  : stopped(why === "answer" ? "no answer in time" : "no reply to a ping")));
let heartbeat = null;
let pinged = false; // a ping is out and its pong not back

/** (Re)arm the watchdog after every sign of life, and whenever the page starts waiting. */
function watch() {
  if (worker === null) return watchdog.disarm();
  watchdog.arm({ state: status.state, startedAt, waiting: [...pending.values()].map(({ request }) => request), pinged });
}

/** While the page is in view, a ready, idle worker is pinged now and then: one that is gone is
 *  noticed before the next tap, and the state stops saying "ready". Never in front of an ask. */
function beat() {
  clearTimeout(heartbeat);
  heartbeat = null;
  if (worker === null || status.state !== "ready") return;
  if (globalThis.document?.visibilityState === "hidden") return; // resumed when shown again
  if (!pending.size && !pinged) {
    pinged = true;
    worker.postMessage({ ping: true });
    watch();
  }
  beatLater();
}
const beatLater = () => { heartbeat = setTimeout(beat, limit("heartbeat")); };
globalThis.document?.addEventListener("visibilitychange", beat); // a tab shown again checks at once

// What a player reads, as a sentence (the status line) and as a widget's error message.
const COULD_NOT_START = {
  status: "The dice engine could not start. Check the connection, then try again.",
  answer: "the dice engine could not start: check the connection, then tap Retry",
};
const STOPPED = {
  status: "The dice engine stopped and did not answer. Tap Retry, then try again.",
  answer: "the dice engine stopped before it answered: tap Retry, then try again",
};
const RESTARTING = "The dice engine stopped; starting it again…";

/** The engine's state now: {state: "idle" | "starting" | "ready" | "failed", message, detail, via, why, gate, took}. */
export function engineStatus() {
  return status;
}

/** Call `watcher(status)` now and on every change; returns the function that stops it. */
export function watchEngine(watcher) {
  watchers.add(watcher);
  watcher(status);
  return () => watchers.delete(watcher);
}

function failure({ request }, words, detail) {
  return { api: 1, ok: false, command: request?.command ?? null, error: { kind: "load", message: words.answer, detail } };
}

function drop() {
  worker?.terminate();
  worker = null;
  pinged = false;
  watchdog.disarm();
  clearTimeout(heartbeat);
}

/** The worker is done for: every request waiting is answered with `words`, and the next ask, or
 *  Retry, starts a fresh worker. `detail` (the browser's or worker's own words) goes to the
 *  console, not the page. */
function failAll(words, detail) {
  console.warn(`rollbook: ${words.status}`, detail);
  drop();
  for (const [id, waiting] of pending) {
    pending.delete(id);
    waiting.resolve(failure(waiting, words, detail));
  }
  setStatus("failed", { message: words.status, detail });
  checkStartOver();
}

function tooSlowToStart() {
  failAll(COULD_NOT_START, `not ready after ${Math.round(limit("start") / 1000)} s`);
}

/** A worker that was ready has died or gone silent: a new one is started at once and each
 *  request it left unanswered is sent to it once more, so the tap is answered, not lost (the
 *  engine answers from the request alone, and a seeded roll comes out the same). A request that
 *  already went unanswered twice is likely what stops the worker: it is answered with the
 *  failure instead, and the page offers Retry. */
function stopped(detail) {
  if ([...pending.values()].some(({ resent }) => resent)) return failAll(STOPPED, detail);
  console.warn(`rollbook: the dice engine stopped (${detail}); starting it again`);
  drop();
  start(RESTARTING);
  if (worker === null) return; // it could not even be started: failAll answered them
  for (const [id, waiting] of pending) {
    waiting.resent = true;
    worker.postMessage({ id, request: waiting.request });
  }
  watch();
}

/** The page's engine folder (see above), e.g. "pyodide/0123456789abcdef/", or null. Read once,
 * when this module is evaluated: the document's scripts and its engine come from one build, even
 * if instant navigation later swaps in a page of a newer deploy. */
const FOLDER = (() => {
  const named = globalThis.document?.querySelector('meta[name="rollbook-engine"]')?.content;
  return named && /^pyodide\/[0-9a-f]{16}\/$/.test(named) ? named : null;
})();

function listen(started) {
  const current = (handle) => (event) => { if (started === worker) handle(event); }; // not a dropped one
  started.onmessage = current((event) => received(event.data));
  // A worker that cannot even be fetched or parsed reports here, not through onmessage; so does
  // an error it did not catch, after which it cannot be trusted to answer.
  started.onerror = current((event) => {
    event.preventDefault();
    errorEvent(event.message);
  });
  started.onmessageerror = current(() => stopped("an answer could not be read"));
}

function errorEvent(message) {
  const detail = message || "its worker failed to load";
  if (status.state === "ready") stopped(detail);
  else failAll(COULD_NOT_START, detail);
}

function received({ id, response, status: started, message, via, why, gate, took, pong }) {
  if (pong) pinged = false;
  if (started === "ready") {
    setStatus("ready", { via, why, gate, took });
    beatLater();
  }
  // A worker whose Pyodide failed to load (say, the phone lost its signal) stays broken:
  // drop it, so the next ask loads afresh instead of failing for the rest of the visit.
  if (started === "failed") return failAll(COULD_NOT_START, message);
  const waiting = pending.get(id);
  if (waiting) {
    pending.delete(id);
    if (response?.error?.kind === "load") return failAll(COULD_NOT_START, response.error.message);
    waiting.resolve(response);
  }
  watch(); // a sign of life: the next wait starts from now
  checkStartOver();
}

// What waits for the engine's first start to be over: ready (or failed) and every request asked
// meanwhile answered. Material's bundle waits for it (widgets/material-later.js), so the first roll
// does not share the CPU with it.
const afterStart = [];
let startIsOver = false;
function checkStartOver() {
  if (startIsOver || pending.size || (status.state !== "ready" && status.state !== "failed")) return;
  startIsOver = true;
  performance.mark("rollbook: engine start over");
  for (const callback of afterStart.splice(0)) callback();
}

/** Call `callback` once the engine's first start is over (ready or failed, and each request asked
 *  meanwhile answered), at once if it is. */
export function afterEngineStart(callback) {
  if (startIsOver) callback();
  else afterStart.push(callback);
}

/** Whether the engine's first start is under way: its worker started (from the page's <head> by
 *  widgets/start.js, or since) and the start not over yet. */
export function engineStarting() {
  return !startIsOver && (status.state === "starting" || Boolean(globalThis.rollbookEngineStarted));
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
  startedAt = performance.now();
  setStatus("starting");
  listen(worker);
  watch();
  for (const early of started.early) {
    if (worker !== started.worker) break; // failed already
    if (early.kind === "error") errorEvent(early.message);
    else received(early.data);
  }
  return true;
}

/** A new worker, its state "starting" (with `message`, when it replaces one that stopped). */
function start(message = null) {
  setStatus("starting", { message });
  if (FOLDER === null) { // a page the build did not write: no engine it is known to match
    failAll(COULD_NOT_START, "this page names no engine version (<meta name=\"rollbook-engine\">)");
    return;
  }
  worker = new Worker(new URL(FOLDER + "engine-worker.js", SITE_ROOT), { type: "module", name: "rollbook-engine" });
  startedAt = performance.now();
  listen(worker);
  watch();
  // one that replaces a worker the page had told to go, or to download
  if (wanted && downloads) worker.postMessage({ go: true });
  else if (downloads) worker.postMessage({ fetch: true });
}

function engineWorker() {
  if (worker === null && !adopt()) start();
  return worker;
}

/** Start the engine now: the reader is reaching for a widget, the answer is wanted soon. */
export function warmUp() {
  wanted = true;
  downloads = true; // the reader is here: the page has drawn what they reach for
  engineWorker()?.postMessage({ go: true });
}

/** Call `callback` after the page's load event (at once, if it is over). */
function afterLoad(callback) {
  const state = globalThis.document?.readyState;
  if (state === "loading" || state === "interactive") addEventListener("load", callback, { once: true });
  else callback();
}

// A page whose widgets never say they have drawn does not hold the engine longer than this.
const DRAWN_AT_MOST_MS = 1500;

/** The widgets are drawing the reader's first screen (widgets/element.js, before a widget's first
 *  drawing): the worker's downloads wait for firstScreenDrawn(). */
export function firstScreenComing() {
  widgetsDrawing = true;
}

/** The reader's first screen is drawn and painted (widgets/element.js). */
export function firstScreenDrawn() {
  screenDrawn = true;
  if (downloadsWanted) letDownload();
}

function letDownload() {
  if (downloads) return;
  downloads = true;
  performance.mark("rollbook: engine downloads");
  worker?.postMessage({ fetch: true });
}

/** Let the worker download once the page has drawn its first screen: when its widgets say so,
 *  or, on a page without widgets, after its load at the first idle moment. */
function downloadWhenDrawn() {
  if (downloads || downloadsWanted) return;
  downloadsWanted = true;
  if (screenDrawn) return letDownload();
  setTimeout(letDownload, DRAWN_AT_MOST_MS);
  if (!widgetsDrawing) afterLoad(() => whenIdle(letDownload, { timeout: 500, fallbackMs: 50 }));
}

function warmUpWhenSettled() {
  if (settling || wanted) return;
  settling = true;
  downloadWhenDrawn();
  afterLoad(() => setTimeout(() => whenIdle(() => warmUp(), { timeout: 1000, fallbackMs: 200 }), SETTLE_MS));
}

/** Whether the engine's files are on this device: the page is served by Rollbook's service
 *  worker, which is installed only once its precache (the engine among it) is complete. */
export function engineOnDevice() {
  return Boolean(globalThis.navigator?.serviceWorker?.controller);
}

/** Start the engine once the page has settled: reading the page comes first. The worker is
 *  there at idle (from the page's head, when widgets/start.js started it); it downloads once the
 *  page has drawn. */
export function warmUpWhenIdle() {
  warmUpWhenSettled();
  if (worker !== null) return;
  whenIdle(() => engineWorker(), { timeout: 2000, fallbackMs: 200 });
}

/** After a failed start: try again (the reader pressed "Retry"). */
export function retry() {
  if (status.state === "failed" || worker === null) warmUp();
}

/** Ask the engine one question; resolves with its response object ({ok, result} or {ok: false, error}). */
export function ask(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, { resolve, request, resent: false });
    wanted = true; // a request opens the worker's gate itself (and any worker after it)
    downloadWhenDrawn(); // its downloads wait for the page's first screen (done already, once a reader taps)
    try {
      engineWorker()?.postMessage({ id, request }); // null: failed, and failAll answered it
    } catch (error) { // e.g. a request holding a function: not JSON, cannot cross to the worker
      pending.delete(id);
      resolve({ api: 1, ok: false, command: request?.command ?? null, error: { kind: "input", message: `the request cannot be sent: ${error.message}` } });
    }
    // The first wait arms the watchdog; later ones share it (its limit counts from the worker's
    // last sign of life), except that an estimate gets its longer limit.
    if (worker !== null && (pending.size === 1 || runsLong(request))) watch();
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
